"""The package's types: mypy --strict over the package's Python (its stubs included), mypy's stubtest holding
``_khela.pyi`` against the compiled module (every name, signature and class present on both sides), and a typed
user's program that type-checks while a wrong one does not. mypy is the tests' own dependency: without it these
tests are skipped, saying so."""

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("mypy", reason="mypy is not installed: the types are not checked")

PACKAGE = Path(__file__).resolve().parent.parent


def mypy(*args, cwd):
    """mypy's exit status and report, run in this Python from `cwd` (its cache there, not in the checkout)."""
    done = subprocess.run([sys.executable, "-m", "mypy", *args], capture_output=True, text=True, cwd=cwd)
    return done.returncode, done.stdout + done.stderr


def test_the_package_is_strictly_typed(tmp_path):
    config = str(PACKAGE / "pyproject.toml")
    status, report = mypy("--strict", "--config-file", config, str(PACKAGE / "python/khela"), cwd=tmp_path)
    assert status == 0, report


def test_the_stubs_match_the_compiled_module(tmp_path):
    # Run away from the sources, so that the installed package is what stubtest imports.
    done = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "--ignore-disjoint-bases", "khela._khela"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr


USER = """
    import khela

    state: khela.State = khela.load("connect4").new_initial_state()
    state.apply_action(3)
    analysis: khela.Analysis = khela.alphabeta(state, depth=4)
    best: list[str] = analysis.best
    value: float | None = analysis.moves[0].value
    move: str = khela.player("engine:4", seed=1).move(state)
    rows: list[dict[str, object]] = khela.solve("connect4", "4453")
    tree: khela.Result = khela.alphabeta([[3, 5], [2, 9]], ordering="reversed")
"""

WRONG = {
    "khela.load(4)": 'Argument 1 to "load" has incompatible type "int"',
    "khela.alphabeta(khela.load('tictactoe').new_initial_state(), depth='4')": "No overload variant",
    "x: int = khela.solve(khela.load('tictactoe').new_initial_state()).best": "Incompatible types in assignment",
    "khela.player('random').move('4453')": 'Argument 1 to "move" of "Player" has incompatible type "str"',
}


def test_a_user_s_program_is_checked(tmp_path):
    program = tmp_path / "user.py"
    program.write_text(textwrap.dedent(USER))
    status, report = mypy("--strict", "--python-version", "3.10", str(program), cwd=tmp_path)
    assert status == 0, report
    for line, error in WRONG.items():
        program.write_text(f"import khela\n{line}\n")
        status, report = mypy("--strict", str(program), cwd=tmp_path)
        assert status == 1 and error in report, (line, report)
