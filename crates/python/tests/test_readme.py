"""The README's Python session, run as a doctest: the example users copy is an example that works."""

import doctest
import pathlib
import re

import pytest

README = pathlib.Path(__file__).resolve().parents[3] / "README.md"


def test_the_readme_session_runs_as_written():
    if not README.exists():
        pytest.skip(f"{README} is not here (the package was copied out of its checkout)")
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks, "the README has no Python session"
    parser = doctest.DocTestParser()
    test = parser.get_doctest("\n".join(blocks), {}, "README", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.IGNORE_EXCEPTION_DETAIL)
    runner.run(test)
    failed, tried = runner.summarize(verbose=False)
    assert tried >= 10 and failed == 0, f"{failed} of {tried} README examples failed (see the output above)"
