#!/usr/bin/env bash
# khela's Connect-4 solver next to the reference, Pascal Pons' solver, on the six benchmark sets, written to
# results/connect4-solver.csv with a sidecar of machine facts (results/connect4-solver.meta.json). Each set is cut
# into chunks of consecutive positions, and the three builds (khela, the reference with its own flags and at
# x86-64-v2) solve each chunk one after another, in an order that rotates from chunk to chunk: a shared machine
# whose speed drifts over the minutes a set takes then slows all three alike. Per set: mean time and nodes a
# position (medians over repetitions), khela's time over the reference's at x86-64-v2, and the median of that
# ratio over the chunks.
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
#   CHUNKS    the most chunks a set is cut into (default 25; Begin-Hard's first 50 then go two at a time)
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
CHUNKS=${CHUNKS:-25}
THREADS=${THREADS:-1}
TABLE_MIB=${TABLE_MIB:-$((32 * THREADS))}
BENCH_SUITE=${BENCH_SUITE:-$ROOT/target/release/bench-suite}
WORK=${WORK:-/tmp/khela-connect4-peer}
FILES=(Test_L3_R1 Test_L2_R1 Test_L2_R2 Test_L1_R1 Test_L1_R2 Test_L1_R3)
NAMES=(End-Easy Middle-Easy Middle-Medium Begin-Easy Begin-Medium Begin-Hard)
OUT=$ROOT/results/connect4-solver.csv
mkdir -p "$WORK"

[[ "$CHUNKS" =~ ^[1-9][0-9]*$ ]] || { echo "error: CHUNKS=$CHUNKS is not a positive whole number" >&2; exit 2; }
[[ "$REPS" =~ ^[1-9][0-9]*$ ]] || { echo "error: reps $REPS is not a positive whole number" >&2; exit 2; }
for i in "${!FILES[@]}"; do
    f=$SETS/${FILES[$i]}
    [ -f "$f" ] || { echo "error: $f is missing (SETS=…)" >&2; exit 2; }
    [[ "${LIMITS[$i]}" =~ ^[1-9][0-9]*$ ]] || { echo "error: the limit ${LIMITS[$i]} of $f is not a positive whole number" >&2; exit 2; }
    # Every chunk is cut from the file's lines: a file shorter than its limit is an error here, not midway.
    [ "$(grep -c . "$f")" -ge "${LIMITS[$i]}" ] || { echo "error: $f has fewer than ${LIMITS[$i]} positions (LIMITS=…)" >&2; exit 2; }
done
[ -f "$PONS_SRC/Solver.cpp" ] || { echo "error: $PONS_SRC has no Solver.cpp: not a checkout of PascalPons/connect4" >&2; exit 2; }

echo "== building the reference (its flags, then -march=x86-64-v2) and khela"
FLAGS="--std=c++11 -W -Wall -O3 -DNDEBUG"
g++ $FLAGS -I"$PONS_SRC" -o "$WORK/pons" "$HERE/pons-bench.cpp" "$PONS_SRC/Solver.cpp"
g++ $FLAGS -march=x86-64-v2 -I"$PONS_SRC" -o "$WORK/pons-v2" "$HERE/pons-bench.cpp" "$PONS_SRC/Solver.cpp"
[ -x "$BENCH_SUITE" ] || (cd "$ROOT" && cargo build --release -p bench-suite)
# Copied, so that a rebuild during the run does not change what is measured.
cp "$BENCH_SUITE" "$WORK/bench-suite"

median() { sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.3f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# khela on one chunk (a file of positions): "mean_micros mean_nodes".
khela() {
    local file=$1 limit=$2 solver=$3 weak=()
    [ "$solver" = weak ] && weak=(--weak)
    # No checkpoint of an earlier chunk's (a run killed midway) may stand in for this one's positions.
    rm -f "$WORK/positions.csv.solved"
    "$WORK/bench-suite" solve --game connect4 --set "$file" --limit "$limit" --threads "$THREADS" --table-mib "$TABLE_MIB" "${weak[@]}" \
        --summary "$WORK/summary.csv" --out "$WORK/positions.csv" >/dev/null 2>"$WORK/khela.err" ||
        { cat "$WORK/khela.err" >&2; exit 1; }
    awk -F, 'NR == 2 { if ($4 != 0) exit 1; print $5, $6 }' "$WORK/summary.csv"
}

# The reference on one chunk: "mean_micros mean_nodes".
pons() {
    local binary=$1 file=$2 limit=$3 solver=$4 line
    line=$("$binary" "$file" "$solver" "$limit") || { echo "error: the reference disagrees on $file" >&2; exit 1; }
    echo "$line" | awk '{ print $1, $2 }'
}

# One chunk of a set: the three builds in the order that `turn` (0 to 5) picks, each of the six orders in turn
# (the three rotations, then the same reversed), so that each build comes before and after each other one
# equally often; each appends "micros nodes" (means over the chunk) to its own file.
chunk() {
    local file=$1 n=$2 solver=$3 turn=$4 t
    for t in 0 1 2; do
        ((turn < 3)) || t=$((2 - t))
        case $(((t + turn) % 3)) in
            0) khela "$file" "$n" "$solver" >> "$WORK/k" ;;
            1) pons "$WORK/pons" "$file" "$n" "$solver" >> "$WORK/p" ;;
            2) pons "$WORK/pons-v2" "$file" "$n" "$solver" >> "$WORK/p2" ;;
        esac
    done
}

# The mean over a set of the chunks' means in file $1 (column $2: 0 the time, 1 the nodes), weighted by the
# chunks' sizes.
weighted() { paste -d' ' "$WORK/sizes" "$1" | awk -v f="$(($2 + 2))" '{ s += $1 * $f; n += $1 } END { printf "%.1f\n", s / n }'; }

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
echo "set,solver,positions,khela_micros,khela_nodes,reference_micros,reference_v2_micros,reference_nodes,ratio_v2,chunk_ratio_v2_median" > "$WORK/table.csv"
for solver in $SOLVERS; do
    for i in "${!FILES[@]}"; do
        file=$SETS/${FILES[$i]} limit=${LIMITS[$i]}
        size=$(((limit + CHUNKS - 1) / CHUNKS))
        : > "$WORK/reps-k" ; : > "$WORK/reps-p" ; : > "$WORK/reps-p2" ; : > "$WORK/ratios"
        for _ in $(seq "$REPS"); do
            : > "$WORK/k" ; : > "$WORK/p" ; : > "$WORK/p2" ; : > "$WORK/sizes"
            turn=0
            for ((start = 0; start < limit; start += size)); do
                n=$((limit - start < size ? limit - start : size))
                sed -n "$((start + 1)),$((start + n))p" "$file" > "$WORK/chunk"
                echo "$n" >> "$WORK/sizes"
                chunk "$WORK/chunk" "$n" "$solver" "$turn"
                turn=$(((turn + 1) % 6))
            done
            echo "$(weighted "$WORK/k" 0) $(weighted "$WORK/k" 1)" >> "$WORK/reps-k"
            echo "$(weighted "$WORK/p" 0) $(weighted "$WORK/p" 1)" >> "$WORK/reps-p"
            echo "$(weighted "$WORK/p2" 0)" >> "$WORK/reps-p2"
            paste -d' ' "$WORK/k" "$WORK/p2" | awk '{ print $1 / $3 }' >> "$WORK/ratios"
        done
        k=$(cut -d' ' -f1 "$WORK/reps-k" | median) kn=$(head -1 "$WORK/reps-k" | cut -d' ' -f2)
        p=$(cut -d' ' -f1 "$WORK/reps-p" | median) p2=$(median < "$WORK/reps-p2") pn=$(head -1 "$WORK/reps-p" | cut -d' ' -f2)
        ratio=$(awk -v k="$k" -v p="$p2" 'BEGIN { printf "%.2f", k / p }')
        chunked=$(median < "$WORK/ratios" | awk '{ printf "%.2f", $1 }')
        echo "${NAMES[$i]},$solver,$limit,$k,$kn,$p,$p2,$pn,$ratio,$chunked" | tee -a "$WORK/table.csv"
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
  "units": "mean microseconds and nodes per position, median over the repetitions; ratio_v2 = khela / reference at x86-64-v2; chunk_ratio_v2_median = the median over every chunk of every repetition of the same ratio",
  "chunks": $CHUNKS,
  "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
}
JSON
echo "wrote $OUT"
