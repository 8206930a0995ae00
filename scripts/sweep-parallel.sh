#!/usr/bin/env bash
# Runs a sweep as SHARDS shards with GNU parallel (on one machine, or on several with parallel's --sshlogin and
# a shared file system), then merges them into OUT (default results/): the same files, byte for byte, as the
# unsharded sweep writes.
#
#   SHARDS=4 JOBS=2 scripts/sweep-parallel.sh --b 2..10 --d 2..8 --seeds 0..99
#
# Each shard runs with --threads 1, JOBS shards at a time (default: one per core; JOBS takes GNU parallel's
# notation, so JOBS=0 runs every shard at once), into OUT/shards/shard-K-of-N, with --resume: running the script
# again after an interruption continues every shard where it stopped, and the shards of an earlier run with
# another N are left alone. Run it from the root of the workspace: it builds bench-suite first (a no-op when the
# build is current), unless BENCH_SUITE names a built binary.

set -euo pipefail

shards=${SHARDS:-4}
jobs=${JOBS:-100%}
out=${OUT:-results}
bench=${BENCH_SUITE:-}
if [ -z "$bench" ]; then
    cargo build --release -p bench-suite
    bench=$PWD/target/release/bench-suite
fi

mkdir -p "$out/shards"
dirs=()
for ((k = 0; k < shards; k++)); do
    dirs+=("$out/shards/shard-$k-of-$shards")
done
# --quote passes every word as it is, so that paths with spaces survive parallel's shell.
seq 0 $((shards - 1)) | parallel --quote --jobs "$jobs" --halt now,fail=1 --line-buffer --tagstring 'shard {}' \
    "$bench" sweep "$@" --shard "{}/$shards" --threads 1 --out "$out/shards/shard-{}-of-$shards" --resume
"$bench" merge --out "$out" "${dirs[@]}"
