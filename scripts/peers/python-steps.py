#!/usr/bin/env python3
"""Random playouts from Python, khela beside OpenSpiel (pyspiel), in one process, alternated round by round.

For tic-tac-toe and Connect-4 from the start: GAMES random games through each library's step API
(`legal_actions()`, `apply_action()`, `is_terminal()` a ply, the move drawn by Python's `random`), then khela's
batched call (`State.random_playouts(n)`, the games played in Rust, 50 × GAMES of them). Each row gives the
plies played a second, the median over ROUNDS rounds, and its ratio to pyspiel's step loop on the same game.
Writes CSV with a sidecar of the run's facts (the processor, the versions, the revision).

    scripts/peers/python-steps.py [--games 2000] [--rounds 5] [--seed 1] [--out results/python-steps.csv]

Run it with a Python that has both packages: after `cargo test`, `target/python/venv/bin/python` does (the
tests install khela there, and open_spiel where its wheel installs); build khela in release for figures
(`pip install ./crates/python` into that environment).
"""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from machine_facts import ROOT, write_table  # noqa: E402

GAMES = [("tictactoe", "tic_tac_toe"), ("connect4", "connect_four")]


def step_loop(new_state, games, rng):
    """Plies a second of `games` random games through the step API, and the plies played."""
    plies = 0
    started = time.perf_counter()
    for _ in range(games):
        state = new_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
    return plies / (time.perf_counter() - started), plies


def batched(state, games, seed):
    """Plies a second of `games` random games played by khela in one call, and the plies played."""
    started = time.perf_counter()
    done = state.random_playouts(games, seed=seed)
    return done["plies"] / (time.perf_counter() - started), done["plies"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=str(ROOT / "results" / "python-steps.csv"))
    args = parser.parse_args()
    if not 1 <= args.games <= 10**6:
        parser.error(f"--games {args.games}: from 1 to 1000000")
    if not 1 <= args.rounds <= 100:
        parser.error(f"--rounds {args.rounds}: from 1 to 100")
    try:
        import khela
        import pyspiel
    except ImportError as err:
        sys.exit(f"python-steps.py: {err.name} is not installed in {sys.executable}")
    rates = {}
    for round_ in range(args.rounds):
        for ours, theirs in GAMES:
            game, spiel = khela.load(ours), pyspiel.load_game(theirs)
            runs = [
                ("pyspiel", "step loop", lambda: step_loop(spiel.new_initial_state, args.games, random.Random(round_))),
                ("khela", "step loop", lambda: step_loop(game.new_initial_state, args.games, random.Random(round_))),
                ("khela", "random_playouts", lambda: batched(game.new_initial_state(), 50 * args.games, round_)),
            ]
            # Alternate which library goes first from round to round.
            for library, method, run in runs if round_ % 2 == 0 else runs[::-1]:
                rates.setdefault((ours, library, method), []).append(run()[0])
    out = Path(args.out)
    rows = []
    for (ours, library, method), samples in rates.items():
        base = statistics.median(rates[(ours, "pyspiel", "step loop")])
        median = statistics.median(samples)
        rows.append([ours, library, method, args.rounds, f"{median:.4g}", f"{median / base:.2f}"])
        print(f"{ours:10} {library:8} {method:16} {median:12.4g} plies/s  {median / base:6.2f}x pyspiel's step loop")
    header = ["game", "library", "method", "rounds", "plies_per_second", "ratio_to_pyspiel"]
    facts = {
        "games": args.games,
        "rounds": args.rounds,
        "python": sys.version.split()[0],
        "open_spiel": getattr(pyspiel, "__version__", "unknown"),
    }
    write_table(out, header, sorted(rows), facts)


if __name__ == "__main__":
    main()
