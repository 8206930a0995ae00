"""The harness's commands as Python functions: each runs the command-line tool's own code (the same options,
defaults, refusals and messages) and returns its CSV rows as a list of dicts.

Options are the command line's, as keyword arguments: ``--iterations 1000`` is ``iterations=1000``,
``--threads 1,2`` is ``threads=[1, 2]``, ``--b 2..8`` is ``b=range(2, 9)`` (or the string ``"2..8"``), a flag
such as ``--weak`` is ``weak=True``. ``out="file.csv"`` also keeps the CSV in a file (written whole or not at
all). Bad input raises ``ValueError`` with the command line's message. The commands run without the GIL;
Ctrl-C stops one at its next unit of work (a sweep's tree, a count's subtree or ply, a solve's iteration, a
Monte Carlo iteration) and raises ``KeyboardInterrupt``, leaving no file behind.

The default wheel has the textbook's harness alone (sweep, merge, ordering, trace); the commands on the games need
the full build (``"commands" in khela.features``), and the default wheel refuses them with ``ValueError`` saying
how to install it.
"""

import csv
import os
import tempfile
from typing import Any, Dict, List, NamedTuple, Optional

from . import _khela

Row = Dict[str, Any]

#: Columns that hold text in a game's notation (moves, positions, lines of moves), never converted to numbers:
#: Connect-4's move ``4`` and position ``4453`` are text, as on the command line.
TEXT_COLUMNS = frozenset({"move", "moves", "position", "start", "pv", "opening", "line", "heaps", "node"})


def _flag_value(value: Any) -> str:
    """A keyword argument's value as the command line writes it."""
    if isinstance(value, range):
        if value.step != 1 or len(value) == 0:
            raise ValueError(f"{value!r}: a range of step 1 with at least one value")
        return f"{value.start}..{value.stop - 1}"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def arguments(options: Dict[str, Any]) -> List[str]:
    """The command-line arguments of keyword options: ``max_moves=40`` is ``--max-moves 40``; ``True`` gives the
    flag alone; ``False`` and ``None`` leave the option out."""
    argv: List[str] = []
    for key, value in options.items():
        if value is None or value is False:
            continue
        flag = "--" + key.replace("_", "-")
        argv.append(flag)
        if value is not True:
            argv.append(_flag_value(value))
    return argv


def _value(column: str, text: str) -> Any:
    """A CSV field as a Python value: empty is ``None``; ``true``/``false`` booleans; integers and floats;
    anything else (and every field of a notation column) text."""
    if column in TEXT_COLUMNS:
        return text
    if text == "":
        return None
    if text in ("true", "false"):
        return text == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def read_rows(path: str) -> List[Row]:
    """The rows of a CSV file the harness wrote, as dicts of Python values."""
    with open(path, newline="", encoding="utf-8") as file:
        return [{k: _value(k, v) for k, v in row.items()} for row in csv.DictReader(file)]


def run(command: str, **options: Any) -> List[Row]:
    """Runs the harness command ``command`` (any that writes rows with ``--out``: solve, count, mcts, eval, games,
    ordering, trace, match, star, …) with ``options`` and returns its rows."""
    out = options.pop("out", None)
    argv = [command, *arguments(options)]
    if out is not None:
        _khela.command([*argv, "--out", os.fspath(out)])
        return read_rows(os.fspath(out))
    with tempfile.TemporaryDirectory(prefix="khela-") as directory:
        path = os.path.join(directory, f"{command}.csv")
        _khela.command([*argv, "--out", path])
        return read_rows(path)


def games() -> List[Row]:
    """The games every function's ``game`` takes, with how their positions are written and what they serve."""
    return run("games")


def solve(game: str, position: Optional[str] = None, **options: Any) -> List[Row]:
    """Every move's value from ``position`` (the game's notation, as on the command line; its start when
    omitted) and whether it is best: exactly, or with ``depth=N`` to a depth with the game's evaluator.
    Connect-4's exact values are the benchmark's scores (``weak=True``: their signs)."""
    return run("solve", game=game, position=position, **options)


def count(game: str, depth: Optional[int] = None, **options: Any) -> List[Row]:
    """Counts a game tree on every core: per ply to ``depth``, the move sequences (perft) and the distinct
    positions; without ``depth``, a small game's full tree (tic-tac-toe)."""
    return run("count", game=game, depth=depth, **options)


def mcts(
    game: str,
    position: Optional[str] = None,
    algorithm: str = "uct",
    iterations: int = 10_000,
    seed: int = 0,
    rng: str = "pcg",
    **options: Any,
) -> List[Row]:
    """Monte Carlo tree search from ``position``: one row a move, ``move``, ``visits`` and ``mean`` (the mover's
    mean score). ``algorithm`` is flat, uct or puct (``iterations`` is then per move for flat); ``rng="python"``
    draws as CPython's ``random.Random(seed)``, so the textbook's Python reproduces the table."""
    return run(
        "mcts", game=game, position=position, algorithm=algorithm, iterations=iterations, seed=seed, rng=rng,
        **options,
    )


class Sweep(NamedTuple):
    """A sweep's tables: ``rows`` one a search (sweep.csv), ``summary`` the statistics over the seeds
    (sweep-summary.csv) — lists of dicts, or pandas DataFrames — and the directory they were written to
    (``None`` when none was asked for)."""

    rows: Any
    summary: Any
    directory: Optional[str]


def _table(path: str, frame: bool) -> Any:
    if frame:
        import pandas

        return pandas.read_csv(path, keep_default_na=False, na_values=[""])
    return read_rows(path)


def sweep(*, frame: Optional[bool] = None, **options: Any) -> Sweep:
    """The alpha-beta sweep with the command line's options (``b=[2, 4]``, ``d=range(2, 7)``, ``seeds=range(10)``,
    ``threads=2``, …; no options: the default grid). ``out=DIR`` keeps its files in DIR (an interrupted sweep
    there continues with ``resume=True``); otherwise they are read and removed. ``frame``: DataFrames (the default
    when pandas is installed) or lists of dicts."""
    if frame is None:
        try:
            import pandas  # noqa: F401

            frame = True
        except ImportError:
            frame = False
    out = options.pop("out", None)

    def tables(directory: str) -> Sweep:
        _khela.command(["sweep", *arguments(options), "--out", directory])
        rows = _table(os.path.join(directory, "sweep.csv"), frame)
        summary = _table(os.path.join(directory, "sweep-summary.csv"), frame)
        return Sweep(rows, summary, directory if out is not None else None)

    if out is not None:
        return tables(os.fspath(out))
    with tempfile.TemporaryDirectory(prefix="khela-sweep-") as directory:
        return tables(directory)
