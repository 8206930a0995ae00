# Sourced by the job scripts of a Slurm job array (scripts/sweep-slurm.sh, scripts/count-slurm.sh,
# scripts/count-positions-step.sh), which run from the root of the workspace: checks that the array is 0-(N-1)
# with step 1 and sets k (this task), n (the tasks), bench (BENCH_SUITE, default target/release/bench-suite) and
# out (OUT, default results).

: "${SLURM_ARRAY_TASK_ID:?run this as a job array: sbatch --array=0-(N-1) $0 ARGS...}"
: "${SLURM_ARRAY_TASK_COUNT:?run this as a job array: sbatch --array=0-(N-1) $0 ARGS...}"
if [ "${SLURM_ARRAY_TASK_MIN:-0}" != 0 ] || [ "${SLURM_ARRAY_TASK_STEP:-1}" != 1 ]; then
    echo "error: the array must be 0-(N-1) with step 1, like Slurm's --array=0-15" >&2
    exit 2
fi
k=$SLURM_ARRAY_TASK_ID
n=$SLURM_ARRAY_TASK_COUNT
bench=${BENCH_SUITE:-target/release/bench-suite}
out=${OUT:-results}
