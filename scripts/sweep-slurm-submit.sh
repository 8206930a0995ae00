#!/usr/bin/env bash
# Submits a sweep to Slurm as a job array of SHARDS tasks (scripts/sweep-slurm.sh), and a merge that runs when
# all of them have succeeded and writes into OUT (default results/) the files the unsharded sweep writes.
#
#   SHARDS=16 scripts/sweep-slurm-submit.sh --b 2..10 --d 2..8 --seeds 0..99
#
# Run it from the root of the workspace on the cluster's login node; the arguments are the sweep's grid. It
# builds bench-suite first (a no-op when the build is current), unless BENCH_SUITE names a built binary. The
# merge names this run's shards, OUT/shards/shard-K-of-SHARDS, exactly: shards of an earlier run with another
# SHARDS are left alone, and a rerun with the same grid and SHARDS resumes where the last one stopped.

set -euo pipefail

shards=${SHARDS:-8}
out=${OUT:-results}
bench=${BENCH_SUITE:-}
if [ -z "$bench" ]; then
    cargo build --release -p bench-suite
    bench=$PWD/target/release/bench-suite
fi
logs=$out/shards/logs
mkdir -p "$logs"

# The tasks get BENCH_SUITE and OUT from this environment (sbatch exports it all by default).
export BENCH_SUITE=$bench OUT=$out
array=$(sbatch --parsable --array="0-$((shards - 1))" --output="$logs/%A_%a.log" scripts/sweep-slurm.sh "$@")
merge=("$bench" merge --out "$out")
for ((k = 0; k < shards; k++)); do
    merge+=("$out/shards/shard-$k-of-$shards")
done
merge_job=$(sbatch --parsable --dependency="afterok:$array" --job-name=khela-merge \
    --output="$logs/merge-%j.log" --wrap="$(printf '%q ' "${merge[@]}")")
echo "submitted the sweep as job array $array ($shards shards) and the merge as job $merge_job"
echo "watch them with: squeue -j $array,$merge_job"
