"""Searches on a game's state, beside the same names' older uses: ``khela.solve``, ``khela.alphabeta`` and
``khela.mcts`` take a ``State`` (from ``khela.load``) and return a typed ``Analysis``, every legal move valued;
given a game string, a nested-list tree or a ``Tree`` they do what they did before (the command's rows, the
textbook's search).

    >>> import khela
    >>> state = khela.load("tictactoe").state("X...O...X")
    >>> state.apply_move("2")
    >>> khela.solve(state).best
    ['6']
    >>> khela.alphabeta(state, depth=2).source, khela.mcts(state, iterations=2000, seed=1).best
    ('depth', ['6'])
    >>> khela.player("engine:4").move(state)
    '6'
"""

from typing import TYPE_CHECKING, Any, List, Literal, Optional, Union, overload

from . import _khela, commands
from ._khela import Analysis, Player, Result, State, Tree
from .commands import Row

if TYPE_CHECKING:
    from ._khela import _Nested

__all__ = ["alphabeta", "mcts", "player", "solve"]


def _unused(what: str, **given: Any) -> None:
    """Refuses the options of a game string's or a tree's use given with a state."""
    extra = sorted(k for k, v in given.items() if v is not None)
    if extra:
        raise ValueError(f"{', '.join(extra)}: not taken by {what} on a state")


@overload
def solve(target: State, *, budget: Optional[float] = None) -> Analysis: ...
@overload
def solve(target: str, position: Optional[str] = None, **options: Any) -> List[Row]: ...
def solve(target: Union[State, str], position: Optional[str] = None, **options: Any) -> Union[Analysis, List[Row]]:
    """A state's every move valued exactly (``budget=S`` seconds refuses up front a search that would take
    longer): an ``Analysis``. Given a game string, the ``solve`` command's rows from ``position``."""
    if isinstance(target, State):
        budget = options.pop("budget", None)
        _unused("solve", position=position, **options)
        return _khela.analyze(target, budget=budget)
    return commands.solve(target, position, **options)


@overload
def alphabeta(target: State, *, depth: int, budget: Optional[float] = None) -> Analysis: ...
@overload
def alphabeta(
    target: Union["_Nested", Tree],
    root: Optional[Literal["max", "min"]] = None,
    ordering: Literal["natural", "reversed"] = "natural",
) -> Result: ...
def alphabeta(
    target: Union[State, "_Nested", Tree],
    root: Optional[Literal["max", "min"]] = None,
    ordering: Literal["natural", "reversed"] = "natural",
    *,
    depth: Optional[int] = None,
    budget: Optional[float] = None,
) -> Union[Analysis, Result]:
    """A state's every move valued by the engine's alpha-beta to ``depth`` plies (iterative deepening with a
    transposition table, the game's evaluator at the horizon; ``budget=S`` seconds: the deepest depth done by
    then): an ``Analysis``. Given a nested-list tree or a ``Tree``, the textbook's fail-soft alpha-beta on it, its
    children in ``ordering``: a ``Result``."""
    if isinstance(target, State):
        if depth is None:
            raise ValueError("alphabeta on a state: give depth (khela.solve values a state exactly)")
        _unused("alphabeta", root=root, ordering=None if ordering == "natural" else ordering)
        return _khela.analyze(target, depth=depth, budget=budget)
    if depth is not None or budget is not None:
        raise ValueError("depth and budget are for a game's state: a tree is searched to its leaves")
    return _khela.alphabeta(target, root, ordering)


@overload
def mcts(
    target: State, *, iterations: int = 10_000, seed: int = 0, budget: Optional[float] = None
) -> Analysis: ...
@overload
def mcts(
    target: str,
    position: Optional[str] = None,
    algorithm: str = "uct",
    iterations: int = 10_000,
    seed: int = 0,
    rng: str = "pcg",
    **options: Any,
) -> List[Row]: ...
def mcts(
    target: Union[State, str],
    position: Optional[str] = None,
    algorithm: str = "uct",
    iterations: int = 10_000,
    seed: int = 0,
    rng: str = "pcg",
    **options: Any,
) -> Union[Analysis, List[Row]]:
    """A state's every move valued by Monte Carlo tree search (UCT) of ``iterations`` from ``seed`` (``budget=S``
    seconds: the iterations run by then): an ``Analysis``, a move's value ``2 × mean − 1`` of the mover's mean
    score from the first player's view, and its visits. Given a game string, the ``mcts`` command's rows from
    ``position``: ``algorithm`` flat, uct or puct, ``rng="python"`` drawing as CPython's ``random.Random(seed)``."""
    if isinstance(target, State):
        if algorithm != "uct":
            raise ValueError(
                f"algorithm {algorithm!r} on a state: a state's Monte Carlo is uct "
                "(khela.mcts(game string, position, algorithm=...) runs flat and puct)"
            )
        budget = options.pop("budget", None)
        _unused("mcts", position=position, rng=None if rng == "pcg" else rng, **options)
        return _khela.analyze(target, iterations=iterations, seed=seed, budget=budget)
    return commands.mcts(target, position, algorithm, iterations, seed, rng, **options)


def player(spec: str, seed: int = 0) -> Player:
    """The player ``spec`` names as the command line does (``engine:6``, ``mcts:1000``, ``net:PATH[:N]``,
    ``random``, ``perfect``), its random choices from ``seed``: ``khela.player("engine:6").move(state)``."""
    return Player(spec, seed)
