#!/usr/bin/env python3
"""Monte Carlo tree search from Python, khela beside OpenSpiel's C++ MCTSBot (pyspiel), in one process, alternated.

From the start of Connect-4 and of tic-tac-toe, each library runs UCT with one uniformly random rollout an
iteration and no solver, for SIMULATIONS iterations: khela's `khela.mcts(state, iterations=N, seed=S)` and
pyspiel's `MCTSBot(game, RandomRolloutEvaluator(1, S), uct_c, N, ...)`'s `step(state)`. The exploration constants
are the same: khela's c = √2 on rewards in [0, 1] is OpenSpiel's uct_c = 2√2 on rewards in [−1, 1]. Each row gives
the iterations a second, the median over ROUNDS rounds (the library that goes first alternating), and its ratio
to pyspiel's. Writes CSV with a sidecar of the run's facts (the processor, the versions, the revision).

    scripts/peers/python-mcts.py [--simulations 100000] [--rounds 5] [--seed 1] [--out results/python-mcts.csv]

Run it with a Python that has both packages: after `cargo test`, `target/python/venv/bin/python` does; build
khela in release for figures (`pip install ./crates/python` into that environment).
"""

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from machine_facts import ROOT, write_table  # noqa: E402

GAMES = [("connect4", "connect_four"), ("tictactoe", "tic_tac_toe")]


def timed(run):
    """Seconds `run` takes."""
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulations", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=str(ROOT / "results" / "python-mcts.csv"))
    args = parser.parse_args()
    if not 1 <= args.simulations <= 10**7:
        parser.error(f"--simulations {args.simulations}: from 1 to 10000000")
    if not 1 <= args.rounds <= 100:
        parser.error(f"--rounds {args.rounds}: from 1 to 100")
    try:
        import khela
        import pyspiel
    except ImportError as err:
        sys.exit(f"python-mcts.py: {err.name} is not installed in {sys.executable}")
    rates = {}
    for round_ in range(args.rounds):
        seed = args.seed + round_
        for ours, theirs in GAMES:
            state, spiel = khela.load(ours).new_initial_state(), pyspiel.load_game(theirs)

            def spiel_run(spiel=spiel, seed=seed):
                evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
                bot = pyspiel.MCTSBot(spiel, evaluator, 2 * math.sqrt(2), args.simulations, 10**6, False, seed, False)
                bot.step(spiel.new_initial_state())

            def khela_run(state=state, seed=seed):
                analysis = khela.mcts(state, iterations=args.simulations, seed=seed)
                assert sum(m.visits for m in analysis.moves) == args.simulations

            runs = [("pyspiel", spiel_run), ("khela", khela_run)]
            for library, run in runs if round_ % 2 == 0 else runs[::-1]:
                rates.setdefault((ours, library), []).append(args.simulations / timed(run))
    out = Path(args.out)
    rows = []
    for (ours, library), samples in rates.items():
        base = statistics.median(rates[(ours, "pyspiel")])
        median = statistics.median(samples)
        rows.append([ours, library, args.simulations, args.rounds, f"{median:.4g}", f"{median / base:.2f}"])
        print(f"{ours:10} {library:8} {median:12.4g} iterations/s  {median / base:6.2f}x pyspiel's MCTSBot")
    header = ["game", "library", "simulations", "rounds", "iterations_per_second", "ratio_to_pyspiel"]
    facts = {
        "simulations": args.simulations,
        "rounds": args.rounds,
        "seed": args.seed,
        "python": sys.version.split()[0],
        "open_spiel": getattr(pyspiel, "__version__", "unknown"),
    }
    write_table(out, header, sorted(rows), facts)


if __name__ == "__main__":
    main()
