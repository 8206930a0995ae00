#!/usr/bin/env bash
# One shard of a sweep, as a task of a Slurm job array: task K of an array of N runs `sweep --shard K/N` into
# OUT/shards/shard-K-of-N (OUT defaults to results). Submit the whole job (array and merge) with
# scripts/sweep-slurm-submit.sh, or by hand:
#
#   cargo build --release -p bench-suite
#   mkdir -p results/shards/logs
#   sbatch --array=0-15 scripts/sweep-slurm.sh --b 2..10 --d 2..8 --seeds 0..99
#   # when every task has finished:
#   target/release/bench-suite merge --out results results/shards/shard-{0..15}-of-16
#
# The arguments are the sweep's grid; every task must get the same ones. Tasks run with --resume, so a task
# that is preempted or requeued (--requeue) continues where it stopped, and a task run twice does no harm.
# With another OUT, give sbatch --output too (the log path below cannot follow a variable).
#
#SBATCH --job-name=khela-sweep
#SBATCH --cpus-per-task=4
#SBATCH --mem-per-cpu=1G
#SBATCH --time=02:00:00
#SBATCH --requeue
#SBATCH --output=results/shards/logs/%A_%a.log

set -euo pipefail

# shellcheck source=scripts/array-task.sh
source scripts/array-task.sh
mkdir -p "$out/shards"
exec "$bench" sweep "$@" \
    --shard "$k/$n" \
    --threads "${SLURM_CPUS_PER_TASK:-1}" \
    --out "$out/shards/shard-$k-of-$n" \
    --resume
