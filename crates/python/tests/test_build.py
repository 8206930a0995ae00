"""The build installed: the features it says it has are the ones it was built with, and the default wheel refuses
what it leaves out by name, saying how to install the full build."""

import os

import pytest

import khela


def test_the_build_has_the_features_it_was_built_with():
    expected = os.environ.get("KHELA_EXPECT_FEATURES")
    if expected is None:
        pytest.skip("KHELA_EXPECT_FEATURES is not set: crates/python/tests/pytest.rs sets it for each wheel it builds")
    assert khela.features == frozenset(f for f in expected.split(",") if f)
    assert khela.features <= {"commands", "networks"}


def test_the_default_wheel_refuses_what_it_leaves_out_by_name():
    if khela.features:
        pytest.skip(f"the full build ({', '.join(sorted(khela.features))}) leaves nothing out")
    full = r'pip install \./crates/python -C build-args="--features full"'
    for call in (lambda: khela.solve("connect4", "4453"), lambda: khela.run("count", game="tictactoe", depth=2)):
        with pytest.raises(ValueError, match=r"installed without the games' commands.*" + full):
            call()
    state = khela.load("tictactoe").state("XX.OO....")
    for call in (lambda: khela.player("net:x.safetensors").move(state), lambda: khela.analyze(state, net="x")):
        with pytest.raises(ValueError, match=r"this build of khela reads no networks"):
            call()
    # What it has works: the textbook's harness, states and searches on them.
    rows = khela.sweep(frame=False, models="iid", b=2, d=3, seeds=range(1)).rows
    assert len(rows) > 1 and len({r["value"] for r in rows}) == 1
    assert khela.solve(state).best == ["2"]
