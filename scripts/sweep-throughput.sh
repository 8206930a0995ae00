#!/usr/bin/env bash
# Measures the default sweep's throughput for the performance page, on 1 thread and on every core: runs the
# sweep into a scratch directory once per thread count, checks that what it writes is byte for byte
# results/sweep.csv, sweep-summary.csv and sweep.checksums, and keeps each run's sidecar as
# results/sweep-throughput-T.meta.json (T the threads). The page (python3 scripts/performance.py) reads those;
# a plain `bench-suite sweep`, which rewrites results/sweep.meta.json, leaves them and the page alone.
#
#   scripts/sweep-throughput.sh            (BENCH_SUITE: a built binary; otherwise the release build, made here)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
if [ -z "${BENCH_SUITE:-}" ]; then
    cargo build --release --quiet -p bench-suite --no-default-features
    BENCH_SUITE=target/release/bench-suite
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for threads in 1 "$(nproc)"; do
    "$BENCH_SUITE" sweep --threads "$threads" --out "$scratch/$threads" >/dev/null
    for file in sweep.csv sweep-summary.csv sweep.checksums; do
        cmp -s "$scratch/$threads/$file" "results/$file" || {
            echo "sweep-throughput.sh: $file on $threads thread(s) differs from results/$file" >&2
            exit 1
        }
    done
    # The sidecar as the sweep wrote it, with the script that ran it (its --out, a scratch directory, is gone).
    python3 - "$scratch/$threads/sweep.meta.json" "results/sweep-throughput-$threads.meta.json.tmp" "$threads" <<'PY'
import json, sys
meta = json.load(open(sys.argv[1]))
meta["made_by"] = f"scripts/sweep-throughput.sh: bench-suite sweep --threads {sys.argv[3]}"
json.dump(meta, open(sys.argv[2], "w"), indent=2)
PY
    mv "results/sweep-throughput-$threads.meta.json.tmp" "results/sweep-throughput-$threads.meta.json"
    echo "sweep on $threads thread(s): results/sweep-throughput-$threads.meta.json"
done
