"""The Python sessions of the README, of the package's README for the index and of the book's Python chapter, run
as doctests: the examples users copy are examples that work."""

import doctest
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(
    "name, at_least",
    [
        ("README.md", 5),
        # The book's session runs the harness's commands too.
        pytest.param("docs/src/python.md", 10, marks=pytest.mark.commands),
        ("crates/python/README.md", 5),
    ],
)
def test_the_session_runs_as_written(name, at_least):
    path = ROOT / name
    if not path.exists():
        pytest.skip(f"{path} is not here (the package was copied out of its checkout)")
    blocks = re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), re.S)
    assert blocks, f"{name} has no Python session"
    parser = doctest.DocTestParser()
    test = parser.get_doctest("\n".join(blocks), {}, name, str(path), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.IGNORE_EXCEPTION_DETAIL)
    runner.run(test)
    failed, tried = runner.summarize(verbose=False)
    assert tried >= at_least and failed == 0, f"{failed} of {tried} examples of {name} failed (see the output above)"
