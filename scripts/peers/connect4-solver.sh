#!/usr/bin/env bash
# khela's Connect-4 solver next to the reference, Pascal Pons' solver, on the six benchmark sets: one tool after
# the other on each set (interleaved), medians over repetitions, written to results/connect4-solver.csv with a
# sidecar of machine facts (results/connect4-solver.meta.json).
#
#   scripts/peers/connect4-solver.sh PONS_SRC [reps]        (default 1 repetition)
#
# PONS_SRC is a checkout of github.com/PascalPons/connect4 (not shipped with khela). It is built here twice:
# with its own Makefile's flags (g++ --std=c++11 -O3 -DNDEBUG, no -march) and with -march=x86-64-v2, khela's
# target level (.cargo/config.toml), so that the comparison is at the same level. pons-bench.cpp (ours, beside
# this script) times its Solver::solve after Solver::reset on each position, as its blog's benchmark does, and
# loads no opening book. Both sides check every score; a mismatch stops the script.
#
# Environment:
#   SETS      the benchmark files' directory (default: ../shared/connect4 beside the checkout)
#   LIMITS    positions per set, in the order End-Easy Middle-Easy Middle-Medium Begin-Easy Begin-Medium
#             Begin-Hard (default "1000 1000 1000 1000 200 50": Begin-Hard's first 50, as the issue's figure)
#   SOLVERS   "strong weak" (default) or one of them
#   THREADS   khela's threads (default 1, as the reference runs; the sidecar records it)
#   TABLE_MIB khela's table, MiB (default: the solver's, 32 a thread; the sidecar records it)
#   BENCH_SUITE  the bench-suite binary (default: target/release/bench-suite, built if absent)
#   WORK      scratch directory (default: /tmp/khela-connect4-peer)
#   PONS_REV  the reference's revision, for the sidecar, when PONS_SRC is not a git checkout
set -euo pipefail

PONS_SRC=${1:?usage: $0 PONS_SRC [reps]}
REPS=${2:-1}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SETS=${SETS:-$ROOT/../shared/connect4}
LIMITS=(${LIMITS:-1000 1000 1000 1000 200 50})
SOLVERS=${SOLVERS:-strong weak}
THREADS=${THREADS:-1}
TABLE_MIB=${TABLE_MIB:-$((32 * THREADS))}
BENCH_SUITE=${BENCH_SUITE:-$ROOT/target/release/bench-suite}
WORK=${WORK:-/tmp/khela-connect4-peer}
FILES=(Test_L3_R1 Test_L2_R1 Test_L2_R2 Test_L1_R1 Test_L1_R2 Test_L1_R3)
NAMES=(End-Easy Middle-Easy Middle-Medium Begin-Easy Begin-Medium Begin-Hard)
OUT=$ROOT/results/connect4-solver.csv
mkdir -p "$WORK"

for f in "${FILES[@]}"; do
    [ -f "$SETS/$f" ] || { echo "error: $SETS/$f is missing (SETS=…)" >&2; exit 2; }
done
[ -f "$PONS_SRC/Solver.cpp" ] || { echo "error: $PONS_SRC has no Solver.cpp: not a checkout of PascalPons/connect4" >&2; exit 2; }

echo "== building the reference (its flags, then -march=x86-64-v2) and khela"
FLAGS="--std=c++11 -W -Wall -O3 -DNDEBUG"
g++ $FLAGS -I"$PONS_SRC" -o "$WORK/pons" "$HERE/pons-bench.cpp" "$PONS_SRC/Solver.cpp"
g++ $FLAGS -march=x86-64-v2 -I"$PONS_SRC" -o "$WORK/pons-v2" "$HERE/pons-bench.cpp" "$PONS_SRC/Solver.cpp"
[ -x "$BENCH_SUITE" ] || (cd "$ROOT" && cargo build --release -p bench-suite)
# Copied, so that a rebuild during the run does not change what is measured.
cp "$BENCH_SUITE" "$WORK/bench-suite"

median() { sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# khela on one set: "mean_micros mean_nodes".
khela() {
    local file=$1 limit=$2 solver=$3 weak=()
    [ "$solver" = weak ] && weak=(--weak)
    "$WORK/bench-suite" solve --game connect4 --set "$file" --limit "$limit" --threads "$THREADS" --table-mib "$TABLE_MIB" "${weak[@]}" \
        --summary "$WORK/summary.csv" --out "$WORK/positions.csv" >/dev/null 2>"$WORK/khela.err" ||
        { cat "$WORK/khela.err" >&2; exit 1; }
    awk -F, 'NR == 2 { if ($4 != 0) exit 1; print $5, $6 }' "$WORK/summary.csv"
}

# The reference on one set: "mean_micros mean_nodes".
pons() {
    local binary=$1 file=$2 limit=$3 solver=$4 line
    line=$("$binary" "$file" "$solver" "$limit") || { echo "error: the reference disagrees on $file" >&2; exit 1; }
    echo "$line" | awk '{ print $1, $2 }'
}

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
echo "set,solver,positions,khela_micros,khela_nodes,reference_micros,reference_v2_micros,reference_nodes,ratio_v2" > "$WORK/table.csv"
for solver in $SOLVERS; do
    for i in "${!FILES[@]}"; do
        file=$SETS/${FILES[$i]} limit=${LIMITS[$i]}
        : > "$WORK/k" ; : > "$WORK/p" ; : > "$WORK/p2"
        for _ in $(seq "$REPS"); do
            khela "$file" "$limit" "$solver" >> "$WORK/k"
            pons "$WORK/pons" "$file" "$limit" "$solver" >> "$WORK/p"
            pons "$WORK/pons-v2" "$file" "$limit" "$solver" >> "$WORK/p2"
        done
        k=$(cut -d' ' -f1 "$WORK/k" | median) kn=$(head -1 "$WORK/k" | cut -d' ' -f2)
        p=$(cut -d' ' -f1 "$WORK/p" | median) p2=$(cut -d' ' -f1 "$WORK/p2" | median) pn=$(head -1 "$WORK/p" | cut -d' ' -f2)
        ratio=$(awk -v k="$k" -v p="$p2" 'BEGIN { printf "%.2f", k / p }')
        echo "${NAMES[$i]},$solver,$limit,$k,$kn,$p,$p2,$pn,$ratio" | tee -a "$WORK/table.csv"
    done
done
mv "$WORK/table.csv" "$OUT"
cat > "${OUT%.csv}.meta.json" <<JSON
{
  "command": "scripts/peers/connect4-solver.sh PONS_SRC $REPS",
  "git_revision": "$(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet -- . ':!results' || echo -dirty)",
  "reference": "${PONS_REV:-$(git -C "$PONS_SRC" rev-parse --short HEAD 2>/dev/null || echo unknown)} of github.com/PascalPons/connect4, no opening book",
  "cpu": "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')",
  "cores": $(nproc),
  "khela_threads": $THREADS,
  "khela_table_mib": $TABLE_MIB,
  "l3_cache": "$(lscpu | awk -F: '/L3/ { gsub(/^ +/, "", $2); print $2 }')",
  "gxx": "$(g++ --version | head -1)",
  "rustc": "$(rustc --version)",
  "load_before": "$LOAD_BEFORE",
  "load_after": "$(cut -d' ' -f1-3 /proc/loadavg)",
  "reps": $REPS,
  "units": "mean microseconds and nodes per position, median over the repetitions; ratio_v2 = khela / reference at x86-64-v2",
  "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
}
JSON
echo "wrote $OUT"
