#!/usr/bin/env bash
# Distinct positions per ply on a Slurm cluster, split among PARTS tasks by a hash of each position's key: one
# job array a ply (scripts/count-positions-step.sh, ply 0 to the count's --depth), each held until the one
# before has finished well (--dependency=afterok), then a job that adds the parts up with merge-counts into
# OUT/count-positions/positions.csv, byte for byte the CSV of `count --depth D --only positions`. Run it from
# the root of the workspace, on the login node, with the count's arguments:
#
#   cargo build --release -p bench-suite
#   PARTS=16 scripts/count-positions-slurm.sh --game connect4 --depth 16
#
# PARTS (default 4) tasks a ply; OUT (default results) and EXCHANGE (default OUT/count-positions/exchange)
# must be on a file system every node sees; BENCH_SUITE a built binary (default target/release/bench-suite);
# SBATCH_ARGS more options for every sbatch (--cpus-per-task, --mem-per-cpu, --partition); WAIT=1 waits for the
# merge and exits with its status. A failed task cancels the arrays after it; run the script again: the steps
# of the plies before are run again and rewrite the same files.
set -euo pipefail

parts=${PARTS:-4}
out=${OUT:-results}
bench=${BENCH_SUITE:-target/release/bench-suite}
depth=""
args=("$@")
for i in "${!args[@]}"; do
    if [ "${args[$i]}" = --depth ]; then
        depth=${args[$((i + 1))]:-}
    fi
done
if ! [[ "$depth" =~ ^[0-9]+$ ]]; then
    echo "error: give the count's --depth N (the last ply)" >&2
    exit 2
fi
if ! [[ "$parts" =~ ^[1-9][0-9]*$ ]]; then
    echo "error: PARTS=$parts is not a number of tasks" >&2
    exit 2
fi
[ -x "$bench" ] || cargo build --release -q -p bench-suite
mkdir -p "$out/count-positions/logs"
read -r -a extra <<<"${SBATCH_ARGS:-}"
job=""
for ply in $(seq 0 "$depth"); do
    job=$(sbatch --parsable --array=0-$((parts - 1)) ${job:+--dependency=afterok:$job} --kill-on-invalid-dep=yes \
        --output="$out/count-positions/logs/ply-$ply-%A_%a.log" "${extra[@]}" \
        --export=ALL,PLY="$ply",OUT="$out",BENCH_SUITE="$bench",EXCHANGE="${EXCHANGE:-$out/count-positions/exchange}" \
        scripts/count-positions-step.sh "${args[@]}")
    echo "ply $ply: job array $job"
done
merged=$out/count-positions/positions.csv
part_files=()
for k in $(seq 0 $((parts - 1))); do
    part_files+=("$out/count-positions/part-$k-of-$parts.csv")
done
rm -f "$merged"
job=$(sbatch --parsable ${WAIT:+--wait} --dependency=afterok:"$job" --kill-on-invalid-dep=yes "${extra[@]}" \
    --output="$out/count-positions/logs/merge-%j.log" \
    --wrap="$(printf '%q ' "$bench" merge-counts "${part_files[@]}" --out "$merged")")
echo "merge: job $job, into $merged"
# A job cancelled because a task before it failed leaves sbatch --wait's status 0: the file tells.
if [ -n "${WAIT:-}" ] && [ ! -f "$merged" ]; then
    echo "error: the count did not finish; see the logs in $out/count-positions/logs" >&2
    exit 1
fi
