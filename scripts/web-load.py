#!/usr/bin/env python3
"""A load test of `bench-suite serve` on the loopback address, bounded in time and in requests.

Starts the server on a free port, then CLIENTS threads send requests for SECONDS seconds (or until REQUESTS in
all), each a mix drawn from a seeded generator: positions' states and moves played (Connect-4, Bagh-Chal, Sixteen
Soldiers, EinStein, tic-tac-toe), exact analyses (tic-tac-toe, Connect-4 positions of 12 stones or more),
depth-limited analyses and players' moves. A "busy" answer (503) is counted apart: it is the server's bound on
its searches at work, and the client retries after a pause. Reports requests a second, the median and 99th
percentile latency by kind, errors (any other answer than 200 and 503: the goal is none) and the server's peak
memory (VmHWM), and writes them as CSV with a sidecar of the run's facts.

    scripts/web-load.py [--clients 16] [--seconds 20] [--requests 20000] [--seed 1] [--out results/web-load.csv]

BENCH_SUITE names the binary (default target/release/bench-suite, which `cargo build --release -p bench-suite`
makes). Python 3.9 or later, standard library only.
"""

import argparse
import csv
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from machine_facts import cpu_name, revision

ROOT = Path(__file__).resolve().parent.parent

# Connect-4 lines of 12 stones or more (no game over), for exact analyses the issue asks within a second.
CONNECT4_LINES = ["12345671234567", "765432176543214", "1234567123456744", "4444443333336"]


def requests_of(rng):
    """One request: (kind, path, body)."""
    kind = rng.choice(["state", "play", "exact-ttt", "exact-c4", "depth", "choose", "mcts"])
    if kind == "state":
        game = rng.choice(["bagh-chal", "sixteen-soldiers", "einstein", "connect4", "pig"])
        return kind, "/api/state", {"game": game}
    if kind == "play":
        return kind, "/api/play", {"game": "connect4", "moves": list("4435"), "move": str(rng.randint(1, 7))}
    if kind == "exact-ttt":
        return kind, "/api/analyse", {"game": "tictactoe", "start": "X...O...X", "analyser": {"kind": "exact"}}
    if kind == "exact-c4":
        line = rng.choice(CONNECT4_LINES)
        return kind, "/api/analyse", {"game": "connect4", "moves": list(line), "analyser": {"kind": "exact"}}
    if kind == "depth":
        return kind, "/api/analyse", {"game": "bagh-chal", "analyser": {"kind": "depth", "depth": 4}}
    if kind == "choose":
        return kind, "/api/choose", {"game": "sixteen-soldiers", "player": "engine:3", "seed": rng.randint(0, 99)}
    return kind, "/api/analyse", {"game": "connect4", "analyser": {"kind": "mcts", "iterations": 2000, "seed": 1}}


def client(port, deadline, budget, seed, results, lock):
    rng = random.Random(seed)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    while time.monotonic() < deadline:
        with lock:
            if budget[0] <= 0:
                return
            budget[0] -= 1
        kind, path, body = requests_of(rng)
        start = time.monotonic()
        try:
            connection.request("POST", path, json.dumps(body), {"content-type": "application/json"})
            response = connection.getresponse()
            response.read()
            status = response.status
        except (OSError, http.client.HTTPException) as err:
            status = f"{type(err).__name__}"
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        elapsed = time.monotonic() - start
        with lock:
            results.append((kind, status, elapsed))
        if status == 503:
            time.sleep(0.05)


def peak_memory_mib(pid):
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--requests", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=str(ROOT / "results" / "web-load.csv"))
    args = parser.parse_args()
    if not (1 <= args.clients <= 1000 and 0 < args.seconds <= 3600 and args.requests >= 1):
        sys.exit("web-load.py: --clients 1..1000, --seconds up to 3600, --requests at least 1")
    binary = os.environ.get("BENCH_SUITE", str(ROOT / "target" / "release" / "bench-suite"))
    if not Path(binary).exists():
        sys.exit(f"web-load.py: {binary} is missing: cargo build --release -p bench-suite")
    server = subprocess.Popen([binary, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        first = server.stdout.readline()
        port = int(first.split("http://")[1].split("/")[0].rsplit(":", 1)[1])
        results, lock, budget = [], threading.Lock(), [args.requests]
        deadline = time.monotonic() + args.seconds
        started = time.monotonic()
        threads = [
            threading.Thread(target=client, args=(port, deadline, budget, args.seed * 1000 + i, results, lock))
            for i in range(args.clients)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        wall = time.monotonic() - started
        peak = peak_memory_mib(server.pid)
    finally:
        server.terminate()
        server.wait()
    rows = []
    for kind in sorted({k for k, _, _ in results}) + ["all"]:
        chosen = [(s, t) for k, s, t in results if kind in ("all", k)]
        served = sorted(t for s, t in chosen if s == 200)
        busy = sum(1 for s, _ in chosen if s == 503)
        errors = sum(1 for s, _ in chosen if s not in (200, 503))
        quantile = lambda q: round(1000 * served[min(len(served) - 1, int(q * len(served)))], 1) if served else ""
        rows.append(
            {
                "kind": kind,
                "requests": len(chosen),
                "ok": len(served),
                "busy": busy,
                "errors": errors,
                "per_second": round(len(served) / wall, 1),
                "p50_ms": quantile(0.5),
                "p99_ms": quantile(0.99),
                "max_ms": round(1000 * served[-1], 1) if served else "",
            }
        )
    out = Path(args.out)
    with tempfile.NamedTemporaryFile("w", dir=out.parent, delete=False, newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    os.replace(f.name, out)
    meta = {
        "command": "scripts/web-load.py " + " ".join(sys.argv[1:]),
        "clients": args.clients,
        "seconds": round(wall, 2),
        "server_peak_mib": peak,
        "cpu": cpu_name(),
        "cores": os.cpu_count(),
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "git_revision": revision(),
    }
    out.with_name(out.name[: -len(".csv")] + ".meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(f"{len(results)} requests in {wall:.1f} s from {args.clients} clients; server peak {peak} MiB")
    for row in rows:
        print("  ".join(f"{k}={v}" for k, v in row.items()))
    if any(row["errors"] for row in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
