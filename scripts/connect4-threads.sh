#!/usr/bin/env bash
# The Connect-4 solver on several threads against one thread, on benchmark sets: interleaved rounds, each round
# solving a set's first positions on one thread and on THREADS (the order swapped from round to round, so that a
# machine whose speed drifts slows both alike), written to results/connect4-threads.csv (a row a round) and
# results/connect4-threads-summary.csv (a row a set: the median times, and the median of the rounds' ratios with
# their range), with a sidecar of machine facts (results/connect4-threads.meta.json). On a shared machine one
# run's speed on two threads can sit in one of two groups about a tenth apart for the whole run
# (see the book, docs/src/measured-choices.md):
# quote the median of many rounds, never one round.
#
#   scripts/connect4-threads.sh [rounds]        (default 10)
#
# Environment:
#   SETS      the benchmark files' directory (default: ../shared/connect4 beside the checkout)
#   CASES     "file:positions ..." (default "Test_L1_R2:200 Test_L1_R3:10": Begin-Medium's first 200 and
#             Begin-Hard's first 10)
#   THREADS   the threads measured against one (default 2)
#   BENCH_SUITE  the bench-suite binary (default: the checkout's release build, brought up to date first, so
#             that the sidecar's revision is what was measured)
#   OUT       the per-round table (default results/connect4-threads.csv; the summary and the sidecar beside it)
#   WORK      scratch directory (default: /tmp/khela-connect4-threads)
set -euo pipefail

ROUNDS=${1:-10}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SETS=${SETS:-$ROOT/../shared/connect4}
CASES=(${CASES:-Test_L1_R2:200 Test_L1_R3:10})
THREADS=${THREADS:-2}
OUT=${OUT:-$ROOT/results/connect4-threads.csv}
WORK=${WORK:-/tmp/khela-connect4-threads}
SUMMARY=${OUT%.csv}-summary.csv

[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "error: rounds $ROUNDS is not a positive whole number" >&2; exit 2; }
[[ "$THREADS" =~ ^[1-9][0-9]*$ ]] && [ "$THREADS" -ge 2 ] ||
    { echo "error: THREADS=$THREADS is not a whole number of 2 or more" >&2; exit 2; }
for case in "${CASES[@]}"; do
    file=$SETS/${case%%:*} limit=${case#*:}
    [[ "$case" == *:* && "$limit" =~ ^[1-9][0-9]*$ ]] ||
        { echo "error: the case $case is not file:positions (CASES=…)" >&2; exit 2; }
    [ -f "$file" ] || { echo "error: $file is missing (SETS=…)" >&2; exit 2; }
    [ "$(grep -c . "$file")" -ge "$limit" ] || { echo "error: $file has fewer than $limit positions (CASES=…)" >&2; exit 2; }
done
mkdir -p "$WORK" "$(dirname "$OUT")"
if [ -z "${BENCH_SUITE:-}" ]; then
    (cd "$ROOT" && cargo build --release --quiet -p bench-suite)
    BENCH_SUITE=$ROOT/target/release/bench-suite
fi
[ -x "$BENCH_SUITE" ] || { echo "error: BENCH_SUITE=$BENCH_SUITE is not an executable" >&2; exit 2; }
# Copied, so that a rebuild during the run does not change what is measured.
cp "$BENCH_SUITE" "$WORK/bench-suite"

# One solve of a set's first positions on `threads`: "mean_micros mean_nodes" (every score checked).
solve() {
    local file=$1 limit=$2 threads=$3
    rm -f "$WORK/positions.csv.solved"
    "$WORK/bench-suite" solve --game connect4 --set "$file" --limit "$limit" --threads "$threads" \
        --summary "$WORK/summary.csv" --out "$WORK/positions.csv" >/dev/null 2>"$WORK/solve.err" ||
        { cat "$WORK/solve.err" >&2; exit 1; }
    awk -F, 'NR == 2 { print $5, $6 }' "$WORK/summary.csv"
}

median() { sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
echo "set,positions,round,threads,one_micros,one_nodes,many_micros,many_nodes,ratio" > "$WORK/rounds.csv"
echo "set,positions,threads,rounds,one_micros,many_micros,ratio_median,ratio_least,ratio_most,extra_nodes" > "$WORK/summary-table.csv"
for case in "${CASES[@]}"; do
    file=$SETS/${case%%:*} limit=${case#*:} name=${case%%:*}
    : > "$WORK/case"
    for round in $(seq "$ROUNDS"); do
        if ((round % 2)); then
            one=$(solve "$file" "$limit" 1) many=$(solve "$file" "$limit" "$THREADS")
        else
            many=$(solve "$file" "$limit" "$THREADS") one=$(solve "$file" "$limit" 1)
        fi
        row=$(echo "$one $many" | awk '{ printf "%s,%s,%s,%s,%.4f", $1, $2, $3, $4, $1 / $3 }')
        echo "$name,$limit,$round,$THREADS,$row" | tee -a "$WORK/rounds.csv" >&2
        echo "$one $many" >> "$WORK/case"
    done
    one=$(cut -d' ' -f1 "$WORK/case" | median) many=$(cut -d' ' -f3 "$WORK/case" | median)
    ratios=$(awk '{ print $1 / $3 }' "$WORK/case" | sort -g)
    extra=$(awk '{ s += $4 / $2 } END { printf "%.4f", s / NR - 1 }' "$WORK/case")
    echo "$name,$limit,$THREADS,$ROUNDS,$one,$many,$(echo "$ratios" | median | awk '{ printf "%.3f", $1 }'),$(echo "$ratios" | head -1 | awk '{ printf "%.3f", $1 }'),$(echo "$ratios" | tail -1 | awk '{ printf "%.3f", $1 }'),$extra" |
        tee -a "$WORK/summary-table.csv"
done
# Written whole or not at all: each file is moved into place only once every round is done.
mv "$WORK/rounds.csv" "$OUT"
mv "$WORK/summary-table.csv" "$SUMMARY"
cat > "${OUT%.csv}.meta.json.tmp" <<JSON
{
  "command": "scripts/connect4-threads.sh $ROUNDS",
  "cases": "${CASES[*]}",
  "git_revision": "$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$ROOT" diff --quiet -- . ':!results' 2>/dev/null || echo -dirty)",
  "cpu": "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')",
  "cores": $(nproc),
  "threads": $THREADS,
  "l2_cache": "$(lscpu | awk -F: '/L2/ { gsub(/^ +/, "", $2); print $2 }')",
  "rustc": "$(rustc --version 2>/dev/null || echo unknown)",
  "load_before": "$LOAD_BEFORE",
  "load_after": "$(cut -d' ' -f1-3 /proc/loadavg)",
  "units": "mean microseconds and nodes per position; ratio = one thread's time over THREADS'; the summary's times are medians over the rounds, ratio_median the median of the rounds' ratios, extra_nodes the mean over the rounds of THREADS' nodes over one thread's, less one",
  "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
}
JSON
mv "${OUT%.csv}.meta.json.tmp" "${OUT%.csv}.meta.json"
echo "wrote $OUT and $SUMMARY" >&2
