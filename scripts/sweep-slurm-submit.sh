#!/usr/bin/env bash
# Submits a sweep to Slurm as a job array of SHARDS tasks (scripts/sweep-slurm.sh), and a merge that runs when
# all of them have succeeded and writes into results/ the files the unsharded sweep writes.
#
#   SHARDS=16 scripts/sweep-slurm-submit.sh --b 2..10 --d 2..8 --seeds 0..99
#
# Run it from the root of the workspace on the cluster's login node; the arguments are the sweep's grid.

set -euo pipefail

shards=${SHARDS:-8}
cargo build --release -p bench-suite
bench=$PWD/target/release/bench-suite
mkdir -p results/shards/logs

array=$(sbatch --parsable --array="0-$((shards - 1))" --export=ALL,BENCH_SUITE="$bench" \
    scripts/sweep-slurm.sh "$@")
merge=$(sbatch --parsable --dependency="afterok:$array" --job-name=khela-merge \
    --output=results/shards/logs/merge-%j.log \
    --wrap="$bench merge --out results results/shards/shard-*")
echo "submitted the sweep as job array $array ($shards shards) and the merge as job $merge"
echo "watch them with: squeue -j $array,$merge"
