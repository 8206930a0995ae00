#!/usr/bin/env bash
# One step of a count of distinct positions, as a task of a Slurm job array: task K of an array of N runs
# `count --only positions --shard K/N --ply $PLY --exchange EXCHANGE` with the count's arguments (the game, its
# position, --depth), writing its counts of plies 0..=PLY to OUT/count-positions/part-K-of-N.csv (the last ply's
# step writes the finished part). EXCHANGE defaults to OUT/count-positions/exchange, OUT to results; both must
# be on a file system every node sees. scripts/count-positions-slurm.sh submits one array a ply, each after the
# one before, and the merge; run this by hand only to redo a failed task, as the array ran it:
#
#   SLURM_ARRAY_TASK_ID=K SLURM_ARRAY_TASK_COUNT=N PLY=L scripts/count-positions-step.sh --game connect4 --depth 14
#
#SBATCH --job-name=khela-positions
#SBATCH --cpus-per-task=2
#SBATCH --mem-per-cpu=2G
#SBATCH --time=12:00:00

set -euo pipefail

# shellcheck source=scripts/array-task.sh
source scripts/array-task.sh
: "${PLY:?set PLY to the ply the tasks of this array count}"
exchange=${EXCHANGE:-$out/count-positions/exchange}
mkdir -p "$out/count-positions"
exec "$bench" count "$@" \
    --only positions \
    --shard "$k/$n" \
    --ply "$PLY" \
    --exchange "$exchange" \
    --threads "${SLURM_CPUS_PER_TASK:-1}" \
    --out "$out/count-positions/part-$k-of-$n.csv"
