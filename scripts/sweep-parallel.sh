#!/usr/bin/env bash
# Runs a sweep as SHARDS shards with GNU parallel (on one machine, or on several with parallel's --sshlogin and
# a shared file system), then merges them into OUT (default results/): the same files, byte for byte, as the
# unsharded sweep writes.
#
#   SHARDS=4 JOBS=2 scripts/sweep-parallel.sh --b 2..10 --d 2..8 --seeds 0..99
#
# Each shard runs with --threads 1 (JOBS shards at a time; default one per core) and --resume, so running the
# script again after an interruption continues every shard where it stopped. Run it from the root of the
# workspace, or set BENCH_SUITE to a built bench-suite binary.

set -euo pipefail

shards=${SHARDS:-4}
jobs=${JOBS:-0} # 0: as many as there are cores
out=${OUT:-results}
bench=${BENCH_SUITE:-}
if [ -z "$bench" ]; then
    cargo build --release -p bench-suite
    bench=$PWD/target/release/bench-suite
fi

seq 0 $((shards - 1)) | parallel --jobs "$jobs" --halt now,fail=1 --line-buffer --tagstring 'shard {}' \
    "$bench" sweep "$@" --shard "{}/$shards" --threads 1 --out "$out/shards/shard-{}" --resume
"$bench" merge --out "$out" $(seq -f "$out/shards/shard-%g" 0 $((shards - 1)))
