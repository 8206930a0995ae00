"""What the installed build has: tests marked ``commands`` (the harness's commands on the games) or ``networks``
(a trained network) are skipped, saying why, against the default wheel, which leaves both out; the full build
runs every test. ``crates/python/tests/pytest.rs`` runs the suite against both."""

import pytest

import khela

FULL = 'pip install ./crates/python -C build-args="--features full"'


def pytest_configure(config):
    config.addinivalue_line("markers", "commands: needs the harness's commands on the games (the full build)")
    config.addinivalue_line("markers", "networks: needs networks read from their files (the full build)")


def pytest_collection_modifyitems(config, items):
    for feature in ("commands", "networks"):
        if feature in khela.features:
            continue
        skip = pytest.mark.skip(reason=f"this wheel was built without {feature} (the default wheel): {FULL}")
        for item in items:
            if feature in item.keywords:
                item.add_marker(skip)
