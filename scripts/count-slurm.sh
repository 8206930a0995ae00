#!/usr/bin/env bash
# One part of a tree count, as a task of a Slurm job array: task K of an array of N runs
# `count --only sequences --shard K/N` into OUT/count-parts/part-K-of-N.csv (OUT defaults to results), with the
# count's arguments (the game, its position, --depth). When every task has finished, add the parts up:
#
#   cargo build --release -p bench-suite
#   mkdir -p results/count-parts/logs
#   sbatch --array=0-15 --output='results/count-parts/logs/%A_%a.log' scripts/count-slurm.sh --game connect4 --depth 14
#   target/release/bench-suite merge-counts results/count-parts/part-{0..15}-of-16.csv --out results/count-14.csv
#
# Every task must get the same arguments; the sidecars beside the parts say which count and which part each is,
# and merge-counts refuses parts of different counts, a part twice or a part missing. A task that failed is run
# again by hand, as the array ran it: bench-suite count ARGS --only sequences --shard K/N --out
# results/count-parts/part-K-of-N.csv (or the whole array again: each part overwrites its own file).
#
#SBATCH --job-name=khela-count
#SBATCH --cpus-per-task=4
#SBATCH --mem-per-cpu=512M
#SBATCH --time=12:00:00

set -euo pipefail

# shellcheck source=scripts/array-task.sh
source scripts/array-task.sh
mkdir -p "$out/count-parts"
exec "$bench" count "$@" \
    --only sequences \
    --shard "$k/$n" \
    --threads "${SLURM_CPUS_PER_TASK:-1}" \
    --out "$out/count-parts/part-$k-of-$n.csv"
