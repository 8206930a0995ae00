"""The harness's commands through the Python package: the textbook's Monte Carlo tables, published counts,
exact values, the sweep's rows and summary, bad input, and Ctrl-C."""

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

import khela


@pytest.mark.commands
def test_flat_monte_carlo_is_the_textbooks_table_with_pythons_generator():
    # The textbook's flat Monte Carlo on the trap X...O...X, 1,000 playouts a move, random.Random(1).
    rows = khela.mcts("tictactoe", "X...O...X", "flat", 1000, 1, rng="python")
    assert [(r["move"], r["visits"], r["mean"]) for r in rows] == [
        ("1", 1000, 0.553),
        ("2", 1000, 0.589),
        ("3", 1000, 0.563),
        ("5", 1000, 0.546),
        ("6", 1000, 0.544),
        ("7", 1000, 0.528),
    ]


@pytest.mark.commands
def test_uct_is_the_textbooks_table_and_its_seed_matters():
    rows = khela.mcts("tictactoe", "X...O...X", "uct", 3000, 1, rng="python")
    assert [(r["move"], r["visits"]) for r in rows] == [
        ("1", 698), ("2", 143), ("3", 671), ("5", 662), ("6", 147), ("7", 679),
    ]
    other = khela.mcts("tictactoe", "X...O...X", "uct", 3000, 2, rng="python")
    assert [r["visits"] for r in other] != [r["visits"] for r in rows]
    assert sum(r["visits"] for r in khela.mcts("tictactoe", "X...O...X", iterations=500)) == 500


@pytest.mark.commands
def test_solve_knows_the_trap_and_connect4_scores():
    rows = khela.solve("tictactoe", "X...O...X")
    # The corners 2 and 6 lose for O (X wins: +1 in X's view); the edges draw and are best.
    assert {r["move"]: (r["value"], r["best"]) for r in rows} == {
        "1": (0, True), "2": (1, False), "3": (0, True), "5": (0, True), "6": (1, False), "7": (0, True),
    }
    # Connect-4 in the benchmark's convention: after 4453 the side to move loses at best by -2.
    scores = {r["move"]: r["value"] for r in khela.solve("connect4", "4453")}
    assert max(scores.values()) == -2
    weak = {r["move"]: r["value"] for r in khela.solve("connect4", "4453", weak=True)}
    assert weak == {move: (score > 0) - (score < 0) for move, score in scores.items()}


@pytest.mark.commands
def test_count_gives_the_published_connect4_counts():
    rows = khela.count("connect4", 6, threads=[1, 2])
    assert [r["sequences"] for r in rows] == [1, 7, 49, 343, 2401, 16807, 117649]
    assert [r["positions"] for r in rows] == [1, 7, 49, 238, 1120, 4263, 16422]
    assert [r["ply"] for r in rows] == list(range(7))


def test_a_sweeps_rows_agree_with_each_other_and_with_its_summary():
    result = khela.sweep(frame=False, models=["iid", "chance"], b=[2, 3], d=range(3, 5), k=2, seeds=range(4))
    assert result.directory is None
    trees = {(r["model"], r["b"], r["k"], r["d"], r["seed"]) for r in result.rows}
    assert len(trees) == 2 * 2 * 2 * 4
    for tree in trees:
        values = {r["value"] for r in result.rows if (r["model"], r["b"], r["k"], r["d"], r["seed"]) == tree}
        assert len(values) == 1, f"{tree}: the algorithms disagree: {values}"
    for line in result.summary:
        leaves = [
            r["leaves"]
            for r in result.rows
            if (r["model"], r["b"], r["d"], r["algorithm"], r["ordering"], r["k"])
            == (line["model"], line["b"], line["d"], line["algorithm"], line["ordering"], line["k"])
        ]
        assert line["seeds"] == len(leaves) == 4
        assert line["min_leaves"] == min(leaves) and line["max_leaves"] == max(leaves)
        assert line["mean_leaves"] == pytest.approx(sum(leaves) / 4)


def test_a_sweep_kept_in_a_directory_is_the_same_table(tmp_path):
    kept = khela.sweep(frame=False, b=3, d=4, seeds=range(2), out=tmp_path / "s")
    assert kept.directory == str(tmp_path / "s")
    assert os.path.exists(tmp_path / "s" / "sweep.csv")
    assert kept.rows == khela.sweep(frame=False, b=3, d=4, seeds=range(2)).rows


@pytest.mark.commands
def test_run_writes_the_file_it_is_asked_for(tmp_path):
    path = tmp_path / "count.csv"
    rows = khela.run("count", game="tictactoe", depth=2, out=path)
    assert path.read_text().splitlines()[0] == "ply,sequences,positions"
    assert [r["sequences"] for r in rows] == [1, 9, 72]


@pytest.mark.commands
def test_games_lists_every_game_of_the_command_line():
    names = [g["game"] for g in khela.games()]
    assert {"tictactoe", "nim", "connect4", "bagh-chal", "sixteen-soldiers", "pig", "einstein"} <= set(names)


@pytest.mark.parametrize(
    "call, message",
    [
        pytest.param(lambda: khela.solve("chess"), "invalid value 'chess' for '--game", marks=pytest.mark.commands),
        pytest.param(
            lambda: khela.mcts("tictactoe", "X.."), 'position "X.." has 3 characters', marks=pytest.mark.commands
        ),
        pytest.param(lambda: khela.mcts("tictactoe", iterations=0), "--iterations", marks=pytest.mark.commands),
        pytest.param(
            lambda: khela.count("connect4", 3, colour="red"),
            "unexpected argument '--colour'",
            marks=pytest.mark.commands,
        ),
        (lambda: khela.sweep(b=range(3, 3)), "a range of step 1"),
        (lambda: khela.sweep(b=0), "--b 0: a tree needs a branching factor of at least 1"),
    ],
)
def test_bad_input_raises_value_error_with_the_command_lines_message(call, message):
    with pytest.raises(ValueError, match=None) as raised:
        call()
    assert message in str(raised.value)
    assert not str(raised.value).startswith("error:")


@pytest.fixture
def ctrl_c_raises():
    """Ctrl-C raising KeyboardInterrupt, as in an interactive session: a Python started with SIGINT ignored (a
    shell's background job, as `.ci/run &`) would keep ignoring it, and the calls below would run on."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def _seconds_to_interrupt(call, after):
    """The seconds `call` takes to raise KeyboardInterrupt, Ctrl-C sent `after` seconds into it."""
    started = time.monotonic()
    timer = threading.Timer(after, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
    finally:
        timer.cancel()
        timer.join()
    return time.monotonic() - started


@pytest.mark.parametrize(
    "call",
    [
        pytest.param(lambda: khela.mcts("connect4", iterations=100_000_000), marks=pytest.mark.commands),
        lambda: khela.sweep(frame=False, models="iid", b=6, d=8, seeds=range(500)),
        pytest.param(lambda: khela.count("connect4", 13, only="sequences", threads=1), marks=pytest.mark.commands),
    ],
    ids=["mcts", "sweep", "count"],
)
def test_ctrl_c_stops_a_long_call_and_leaves_no_file(call, tmp_path, monkeypatch, ctrl_c_raises):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert _seconds_to_interrupt(call, 0.5) < 20, "the call did not stop soon after Ctrl-C"
    assert list(tmp_path.iterdir()) == [], "a stopped call left files behind"
    # The interpreter and the package go on working: every search of a tree agrees on its value.
    rows = khela.sweep(frame=False, models="iid", b=3, d=4, seeds=range(1)).rows
    assert len({r["value"] for r in rows}) == 1 and len(rows) > 1


@pytest.mark.parametrize(
    "call, stops",
    [
        (lambda: khela.mcts(khela.load("connect4").new_initial_state(), iterations=10_000_000), True),
        (lambda: khela.player("mcts:10000000").move(khela.load("connect4").new_initial_state()), True),
        # An exact search, which cannot stop midway, ends in the background, its result dropped: one of a few
        # seconds even in a release build (ten in the tests'), last, so that it holds a core the least while the
        # other tests run.
        (lambda: khela.solve(khela.load("connect4").state("444444")), False),
    ],
    ids=["mcts", "player", "exact"],
)
def test_ctrl_c_stops_a_search_on_a_state_at_once(call, stops, ctrl_c_raises):
    assert _seconds_to_interrupt(call, 0.3) < 1.5, "KeyboardInterrupt came late"
    if stops:
        # Stopped, not left running: the process spends next to no CPU time while it sleeps.
        cpu = time.process_time()
        time.sleep(0.5)
        assert time.process_time() - cpu < 0.1, "the search ran on after KeyboardInterrupt"
    assert khela.solve(khela.load("tictactoe").state("X...O...X")).best == ["1", "3", "5", "7"]


def test_the_thread_count_is_set_for_the_networks_unless_the_user_set_it():
    # In a fresh interpreter: importing khela sets RAYON_NUM_THREADS to the cores the process may use and
    # CANDLE_NUM_THREADS to 1...
    code = "import os, khela; print(os.environ['RAYON_NUM_THREADS'], os.environ['CANDLE_NUM_THREADS'])"
    env = {k: v for k, v in os.environ.items() if k not in ("RAYON_NUM_THREADS", "CANDLE_NUM_THREADS")}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == [str(khela.cores()), "1"]
    assert 1 <= khela.cores() <= (os.cpu_count() or 1)
    # ...and leaves the user's own values alone.
    env["RAYON_NUM_THREADS"] = "1"
    env["CANDLE_NUM_THREADS"] = "3"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["1", "3"]


@pytest.mark.commands
@pytest.mark.networks
def test_a_network_plays_from_python():
    # The kept tic-tac-toe network takes the win in XX.OO.... (X plays 2), as a prior and as a player.
    kept = str(Path(__file__).resolve().parents[3] / "results" / "zero-tictactoe.safetensors")
    rows = khela.mcts("tictactoe", "XX.OO....", "puct", 60, 1, prior=f"net:{kept}")
    assert max(rows, key=lambda r: r["visits"])["move"] == "2"
    state = khela.load("tictactoe").state("XX.OO....")
    assert khela.player(f"net:{kept}:60").move(state) == "2"
