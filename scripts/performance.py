#!/usr/bin/env python3
"""Renders the book's performance page, docs/src/performance.md, from the recorded results: the CSV files in
results/ and their .meta.json sidecars (the arguments, version, git revision, cores, processor, memory, date and
timings of the run that wrote them).

    python3 scripts/performance.py            writes docs/src/performance.md (a temporary file, then a rename)
    python3 scripts/performance.py --check    renders it in memory; exits 1 with a one-line message naming the
                                              first line that differs if the page on disk is not what it renders,
                                              0 otherwise (bench-suite's test `performance_page` runs this)

Regenerate the page with `python3 scripts/performance.py` after a run writes new figures to results/, and commit
the two together. The page holds today's figures only; their history is in git and in the sidecars.

Nothing about a run is typed here: the machine (processor, cores, memory, caches), the git revision and the date
of each figure come from its sidecar, and the command from the sidecar's arguments (or the script name it
records). A CSV without a sidecar is shown with "(no sidecar: machine and date not recorded)". The only commands
written here are those of files that have no sidecar to say so (the bench that writes results/heuristic-peer.csv).

Numbers: a CSV's cells are printed as the CSV holds them. Figures taken from a sidecar are rounded as the page's
first section states (ROUNDING below): seconds to 3 significant digits, rates as 3 significant digits with a
power of ten, memory in whole MiB, counts whole with thousands separators, speed-ups to 2 decimals.

Its sections are here; reading the results and writing the tables' cells is scripts/performance_tables.py.

Python 3.9 or later, standard library only.
"""

import glob
import os
import shlex
import sys
import tempfile
from pathlib import Path

from performance_tables import (
    ROOT,
    RESULTS,
    PAGE,
    NO_SIDECAR,
    ROUNDING,
    rel,
    read_csv,
    sidecar_path,
    load_json,
    need,
    sig,
    rate,
    mib,
    whole,
    speedup,
    revision,
    code,
    table,
    command,
    machine,
    sources,
    sources_table,
    csv_of,
    with_sidecar,
    arg,
    units,
)

# ---------------------------------------------------------------------------------------------------------------
# Sections


def sweep():
    """The sweep's throughput on 1 thread and on every core, from the sidecars scripts/sweep-throughput.sh keeps
    (not from results/sweep.meta.json, which every run of the main job rewrites)."""
    metas = sorted(RESULTS.glob("sweep-throughput-*.meta.json"), key=lambda p: load_json(p)["figures"]["performance"]["threads"])
    if not metas:
        raise SystemExit("performance.py: results/sweep-throughput-*.meta.json are missing: run scripts/sweep-throughput.sh")
    one = None
    rows, files = [], []
    for path in metas:
        meta = load_json(path)
        perf = meta["figures"]["performance"]
        if perf["threads"] == 1:
            one = perf["wall_seconds"]
        rows.append(
            [
                code(rel(path)),
                perf["threads"],
                whole(perf["trees_searched"]),
                whole(perf["nodes"]),
                sig(perf["wall_seconds"]),
                sig(perf["busy_seconds"]),
                rate(perf["nodes_per_second"]),
                rate(perf["nodes_per_second_per_core"]),
                f"{one / perf['wall_seconds']:.2f}" if one else "",
            ]
        )
        files.append((rel(RESULTS / "sweep.csv"), path))
    lines = [
        "## The sweep",
        "",
        "Every algorithm and ordering of the default grid over implicit random trees (`bench-suite sweep`, measured",
        "by `scripts/sweep-throughput.sh`): the trees searched, the nodes of every search, the wall time, the",
        "threads' busy time, nodes per second of wall time, in all and per core, and the speed-up over one thread.",
        "What the sweep writes is the same for any number of threads (the script checks it against `results/`).",
        "",
    ]
    lines += table(
        ["sidecar", "threads", "trees", "nodes", "wall s", "busy s", "nodes/s", "nodes/s per core", "speed-up"],
        rows,
    )
    lines += sources(files)
    return lines


def core_loops():
    name, meta_path = with_sidecar("core-loops.csv")
    rows, header = read_csv(ROOT / name)
    lines = [
        "## Core loops against a plain C peer",
        "",
        "Connect-4's perft to ply 11 and its distinct positions to ply 12 (`bench-suite count`), and alpha-beta on",
        "implicit iid trees (a Rust program over `khela-exact`), each against a plain C program written for this",
        "project (`scripts/peers/perft.c`, `positions.c`, `alphabeta.c`), the two run back to back in interleaved",
        "repetitions; figures are medians over the repetitions. `peer_1t`, `khela_1t`, `khela_2t`: the peer on one",
        "thread, ours on one and on two, in the row's unit. `ratio_1t`, `ratio_2t`: the peer's median over ours for",
        "`seconds` (above 1: ours faster), ours over the peer's for `nodes_per_second` (above 1: ours faster) and",
        "for `peak_mib` (below 1: ours smaller). `paired_1t` (`least`, `largest`): the median, least and largest of",
        "each repetition's own one-thread ratio.",
        "",
    ]
    lines += table(header, [[r[h] for h in header] for r in rows])
    lines += sources([(name, meta_path)])
    return lines


def connect4_solver():
    name, meta_path = with_sidecar("connect4-solver.csv")
    rows, header = read_csv(ROOT / name)
    meta = load_json(meta_path)
    lines = [
        "## The Connect-4 solver against Pons' solver",
        "",
        "khela's exact Connect-4 solver and Pascal Pons' solver on the six benchmark sets (the first `positions` of",
        "each), strong (the exact score) and weak (win, draw or loss): mean microseconds and nodes a position.",
        "`reference_micros` is Pons' solver built with its own flags, `reference_v2_micros` built at x86-64-v2 as",
        "khela is; `ratio_v2` is khela's time over the latter (below 1: ours faster) and `chunk_ratio_v2_median`",
        "the median of that ratio over the chunks each set is cut into, the builds alternating chunk by chunk.",
    ]
    facts = []
    for key, label in (("reference", "reference"), ("khela_threads", "khela's threads"),
                       ("khela_table_mib", "khela's table, MiB"), ("reps", "repetitions"),
                       ("chunks", "chunks a set")):
        if key in meta:
            facts.append(f"{label}: {meta[key]}")
    if facts:
        lines += ["", "From the sidecar: " + "; ".join(facts) + "."]
    lines += units(meta)
    lines.append("")
    lines += table(header, [[r[h] for h in header] for r in rows])
    lines += sources([(name, meta_path)])
    return lines


def connect4_threads():
    name, meta_path = with_sidecar("connect4-threads-summary.csv")
    rows, header = read_csv(ROOT / name)
    meta = load_json(meta_path) if meta_path else None
    lines = [
        "## The Connect-4 solver on two threads against one",
        "",
        "Strong solves of a benchmark set's first `positions`, on one thread and on `threads`, in interleaved",
        "rounds, the order swapped each round: `one_micros` and `many_micros` are the median over the rounds of the",
        "mean microseconds a position, `ratio_median` (`ratio_least`, `ratio_most`) the median (least, largest) of",
        "the rounds' own ratios of one thread's time over the threads', `extra_nodes` the threads' extra nodes as a",
        "fraction. The rounds themselves are in `results/connect4-threads.csv`.",
    ]
    if meta and meta.get("cases"):
        lines += ["", f"From the sidecar: cases {code(meta['cases'])}."]
    lines += units(meta)
    lines.append("")
    lines += table(header, [[r[h] for h in header] for r in rows])
    lines += sources([(name, meta_path)])
    return lines


def counting():
    files = sorted(Path(p) for p in glob.glob(str(RESULTS / "count*.csv")))
    if not files:
        raise SystemExit("performance.py: no results/count*.csv (the page renders them)")
    rows, sourced = [], []
    for path in files:
        name = rel(path)
        meta_path = sidecar_path(path)
        sourced.append((name, meta_path))
        if meta_path is None:
            rows.append([code(name), "", "", "", "", NO_SIDECAR, "", "", ""])
            continue
        meta = load_json(meta_path)
        arguments = meta.get("arguments", [])
        game = arg(arguments, "--game", "?")
        depth = arg(arguments, "--depth", "?")
        timings = meta["figures"]
        if isinstance(timings, dict):
            raise SystemExit(f"performance.py: {rel(meta_path)} holds a part of a sharded count, not timings")
        first = {}
        for t in timings:
            first.setdefault(t["measure"], t["seconds"])
            rows.append(
                [
                    code(name),
                    game,
                    depth,
                    t["measure"],
                    t["threads"],
                    whole(t["count"]),
                    sig(t["seconds"]),
                    rate(t["per_second"]),
                    speedup(first[t["measure"]], t["seconds"]),
                ]
            )
    lines = [
        "## Counting",
        "",
        "`bench-suite count --depth D`: move sequences (perft, the last ply counted in bulk) and distinct",
        "positions per ply, timed once per thread count of `--threads`. The count and its rate are the sidecar's:",
        "for sequences those of ply D, for positions those of every ply 0 to D together. The CSV holds the counts",
        "of every ply. The speed-up is the run's first thread count's time over this row's, the same measure.",
        "",
    ]
    lines += table(["file", "game", "depth", "measure", "threads", "count", "seconds", "per second", "speed-up"], rows)
    lines += sources(sourced)
    return lines


def heuristic_peer():
    name, meta_path = with_sidecar("heuristic-peer.csv")
    rows, header = read_csv(ROOT / name)
    lines = [
        "## The depth-limited engine against the `minimax` crate",
        "",
        "Connect-4 with the threat evaluator, single-threaded, the same positions, depths and evaluator on both",
        "sides: `alphabeta` is plain depth-limited alpha-beta on both sides, `engine` each library's full searcher",
        "(ours `Engine::search`, the crate's `IterativeSearch`). `khela_us`, `minimax_us`: microseconds a search;",
        "`ratio`: the peer's time over ours, the median over paired rounds (above 1: ours faster); `minimax_nodes`:",
        "the peer's own count, of its `IterativeSearch` only. Written by `cargo bench -p khela-heuristic --bench peer`",
        "(`crates/heuristic/benches/peer.rs` says how it measures).",
        "",
    ]
    lines += table(header, [[r[h] for h in header] for r in rows])
    lines += sources([(name, meta_path)])
    return lines


def python_peers():
    steps_name, steps_meta = with_sidecar("python-steps.csv")
    mcts_name, mcts_meta = with_sidecar("python-mcts.csv")
    steps, steps_header = read_csv(ROOT / steps_name)
    mcts, mcts_header = read_csv(ROOT / mcts_name)
    lines = [
        "## From Python, beside OpenSpiel",
        "",
        "The `khela` Python package (a release wheel) and OpenSpiel's `pyspiel` in one process, alternated round by",
        "round, medians over the rounds. Random playouts from the start: through each library's step API",
        "(`legal_actions`, `apply_action`, `is_terminal` a ply, the move drawn by Python's `random`), and khela's",
        "batched `State.random_playouts(n)`; `ratio_to_pyspiel`: plies a second over pyspiel's step loop's",
        "(`scripts/peers/python-steps.py`).",
        "",
    ]
    lines += table(steps_header, [[r[h] for h in steps_header] for r in steps])
    lines += [
        "",
        "Monte Carlo tree search from the start, UCT with one random rollout an iteration and no solver, the same",
        "exploration constant (khela's c = √2 on rewards in [0, 1], OpenSpiel's uct_c = 2√2 on [−1, 1]), the same",
        "iterations: `khela.mcts(state, iterations=N)` beside OpenSpiel's C++ `MCTSBot`'s `step`;",
        "`ratio_to_pyspiel`: iterations a second over the bot's (`scripts/peers/python-mcts.py`).",
        "",
    ]
    lines += table(mcts_header, [[r[h] for h in mcts_header] for r in mcts])
    lines += sources([(steps_name, steps_meta), (mcts_name, mcts_meta)])
    return lines


def web_load():
    name, meta_path = with_sidecar("web-load.csv")
    rows, header = read_csv(ROOT / name)
    meta = load_json(meta_path) if meta_path else {}
    lines = [
        "## The web server under load",
        "",
        "`bench-suite serve` on the loopback address, loaded by `scripts/web-load.py`: many clients at once, a seeded",
        "mix of states, moves, exact analyses (Connect-4 positions of 12 stones or more among them), depth-limited",
        "analyses, players' moves and Monte Carlo analyses. `ok`: answered; `busy`: answered 503, the server's bound",
        "on the searches running at once (the client retries); `errors`: any other answer; `per_second`: answered",
        "requests a second; `p50_ms`, `p99_ms`, `max_ms`: the answered requests' latency. "
        + (f"{meta['clients']} clients for {sig(meta['seconds'])} s; the server's peak memory "
           f"{meta['server_peak_mib']} MiB." if meta else ""),
        "",
    ]
    lines += table(header, [[r[h] for h in header] for r in rows])
    lines += sources([(name, meta_path)])
    return lines


def retro():
    metas = sorted(Path(p) for p in glob.glob(str(RESULTS / "retro-*.meta.json")))
    if not metas:
        raise SystemExit("performance.py: no results/retro-*.meta.json (the page renders them)")
    rows, files = [], []
    for path in metas:
        meta = load_json(path)
        figures = meta["figures"]
        arguments = meta.get("arguments", [])
        peak = figures.get("peak_memory_bytes")
        rows.append(
            [
                code(rel(path)),
                arg(arguments, "--game", "?"),
                arg(arguments, "--phase", "(endgame)"),
                arg(arguments, "--rules", "(standard)"),
                arg(arguments, "--pieces", "(default)"),
                figures["threads"],
                whole(figures["numbers"]),
                sig(figures["seconds"]),
                mib(peak) if peak is not None else "(not recorded)",
            ]
        )
        files.append((csv_of(path), path))
    lines = [
        "## Retrograde analysis",
        "",
        "`bench-suite retro`: the endgame tables of the game's space, solved by retrograde analysis, and with",
        "`--phase placement` Bagh-Chal's placement phase before them, by layered backward induction (`numbers`: the",
        "numbers of the space's numbering, positions up to symmetry, some standing for none), the wall time and",
        "the process's peak resident memory. The tables' contents, per material or layer, are in the CSV beside",
        "each sidecar.",
        "",
    ]
    lines += table(["sidecar", "game", "phase", "rules", "pieces", "threads", "numbers", "seconds", "peak memory"], rows)
    lines += sources(files)
    return lines


def star():
    metas = [need("star-einstein.meta.json")]
    rows, files = [], []
    for path in metas:
        meta = load_json(path)
        f = meta["figures"]
        arguments = meta.get("arguments", [])
        rows.append(
            [
                code(rel(path)),
                whole(f["positions"]),
                arg(arguments, "--depths", "(default)"),
                f["threads"],
                whole(f["nodes"]),
                sig(f["seconds"]),
                rate(f["nodes_per_second"]),
            ]
        )
        files.append((csv_of(path), path))
    lines = [
        "## Chance searches on EinStein",
        "",
        "`bench-suite star --game einstein`: expectiminimax, alpha-beta, Star1 and Star2 at every depth and",
        "ordering from the positions (the CSV: nodes and cutoffs per depth, ordering and algorithm; every search",
        "finds the same values), timed as a whole.",
        "",
    ]
    lines += table(["sidecar", "positions", "depths", "threads", "nodes", "seconds", "nodes/s"], rows)
    lines += sources(files)
    return lines


def pig():
    name, meta_path = with_sidecar("pig.csv")
    rows, _ = read_csv(ROOT / name)
    values = {r["metric"]: r["value"] for r in rows}
    meta = load_json(meta_path)
    f = meta["figures"]
    lines = [
        "## Pig solved",
        "",
        "`bench-suite solve --game pig`: the optimal policy of Pig by value iteration over every position.",
        "`positions` and `sweeps` are the CSV's, the time and threads the sidecar's.",
        "",
    ]
    lines += table(
        ["positions", "sweeps", "residual", "threads", "seconds"],
        [[values.get("positions", ""), values.get("sweeps", ""), values.get("residual", ""), f["threads"],
          sig(f["seconds"])]],
    )
    lines += sources([(name, meta_path)])
    return lines


def prove():
    name, meta_path = with_sidecar("prove-bagh-chal.csv")
    rows, _ = read_csv(ROOT / name)
    meta = load_json(meta_path)
    proofs = meta["proofs"]
    by_position = {arg(p["arguments"], "--position"): p for p in proofs}
    table_rows = []
    for r in rows:
        p = by_position.get(r["position"])
        f = p["figures"] if p else {}
        table_rows.append(
            [
                r["placed"],
                code(r["position"]),
                r["verdict"],
                r["nodes"],
                r["proof_positions"],
                sig(f["seconds"]) if "seconds" in f else "(not recorded)",
                mib(f["peak_memory_bytes"]) if f.get("peak_memory_bytes") is not None else "(not recorded)",
            ]
        )
    # One command line for all: the arguments every proof shares, and … where they differ.
    arguments = [p["arguments"] for p in proofs]
    common = []
    if arguments and all(len(a) == len(arguments[0]) for a in arguments):
        common = [words[0] if len(set(words)) == 1 else "…" for words in zip(*arguments)]
    lines = [
        "## Proofs on Bagh-Chal",
        "",
        "`bench-suite prove --claim goats:draw` from the positions after `placed` goats of one game, each down to the",
        "sliding phase's tables: the nodes and proof positions (the CSV's) and, from the sidecar, each proof's",
        "seconds and the process's peak resident memory.",
        "",
    ]
    lines += table(["placed", "position", "verdict", "nodes", "proof positions", "seconds", "peak memory"], table_rows)
    made_by = code(" ".join(w if w == "…" else shlex.quote(w) for w in common)) if common else "(not recorded)"
    machines = sorted({machine(p) for p in proofs})
    revisions = sorted({revision(p["git_revision"]) for p in proofs if p.get("git_revision")})
    dates = sorted(p["date"] for p in proofs if p.get("date"))
    if not dates:
        when = "(not recorded)"
    elif dates[0] == dates[-1]:
        when = dates[0]
    else:
        when = f"{dates[0]} to {dates[-1]}"
    src = [
        [
            code(name),
            code(rel(meta_path)),
            made_by + " (a run a row; … where the rows' arguments differ)",
            "; ".join(machines),
            ", ".join(code(r) for r in revisions) or "(not recorded)",
            when,
        ]
    ]
    lines += sources_table(src)
    return lines


# ---------------------------------------------------------------------------------------------------------------
# The page


def render():
    """The page, as text."""
    lines = [
        "# Performance",
        "",
        "Today's performance figures of khela, a table per measurement. This page is generated by",
        "`python3 scripts/performance.py` from the CSV files in `results/` and their `.meta.json` sidecars: do not",
        "edit it by hand; run the script after a run writes new figures, and commit both (a test,",
        "`performance_page` in bench-suite's tests, fails when the page and the files disagree). Each section names",
        "the command that made its figures and, from its sidecar, the machine, the git revision and the date.",
        "Figures from different machines, or from different hours of a shared machine, are not comparable. The",
        "history of each figure is in git (the log of its file in `results/`) and in the sidecars.",
        "",
        "Numbers are printed as follows:",
        "",
    ]
    lines += ROUNDING
    for section in (sweep, core_loops, counting, connect4_solver, connect4_threads, heuristic_peer, retro, star,
                    pig, prove, web_load, python_peers):
        lines += ["", ""]
        lines += section()
    return "\n".join(lines) + "\n"


def write_atomically(path, text):
    """Writes `text` to `path` through a temporary file in the same directory, then a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix="." + path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", newline="\n") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def check(text):
    """0 if the page on disk is `text`; else 1, with a one-line message on stderr naming the first line that
    differs."""
    page = rel(PAGE)
    if not PAGE.exists():
        print(f"{page} is missing; run python3 scripts/performance.py", file=sys.stderr)
        return 1
    on_disk = PAGE.read_text().split("\n")
    rendered = text.split("\n")
    for number, (old, new) in enumerate(zip(on_disk, rendered), 1):
        if old != new:
            print(
                f"{page}:{number} differs from the results: it says {old!r}, the results give {new!r}; "
                "run python3 scripts/performance.py",
                file=sys.stderr,
            )
            return 1
    if len(on_disk) != len(rendered):
        number = min(len(on_disk), len(rendered)) + 1
        print(
            f"{page}:{number} differs from the results: the page has {len(on_disk)} lines, the results give "
            f"{len(rendered)}; run python3 scripts/performance.py",
            file=sys.stderr,
        )
        return 1
    return 0


def main(argv):
    if argv not in ([], ["--check"]):
        print("usage: python3 scripts/performance.py [--check]", file=sys.stderr)
        return 2
    text = render()
    if argv == ["--check"]:
        return check(text)
    write_atomically(PAGE, text)
    print(f"wrote {rel(PAGE)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
