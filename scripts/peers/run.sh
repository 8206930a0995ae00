#!/usr/bin/env bash
# Runs our own plain-C peers (scripts/peers/perft.c, positions.c and alphabeta.c, written for this project)
# next to khela's commands, interleaved, prints a small table of medians with the load average and the median
# of each repetition's own ratio (ours against the peer's, measured back to back), and writes them as CSV (with
# a sidecar of machine facts).
#
#   scripts/peers/run.sh [reps]          (default 3 interleaved repetitions)
#
# Environment:
#   KHELA_ROOT   the khela checkout whose crates are measured (default: this script's repository)
#   BENCH_SUITE  the bench-suite binary (default: $KHELA_ROOT/target/release/bench-suite, built if absent)
#   WORK         scratch directory (default: /tmp/khela-peers)
#   CARGO_TARGET_DIR for the Rust check program (default: /tmp/target-peers)
#   CRITERION=0  skip the criterion bench (the Rust check program still times our search in-process)
#   OUT          the CSV of medians (default: $KHELA_ROOT/results/core-loops.csv; its sidecar beside it, .meta.json)
#
# What runs, per repetition, alternating ours and the peer's:
#   1. Connect-4 perft to ply 11: `bench-suite count --game connect4 --depth 11 --only sequences --threads 1,2`
#      (bulk-counted at the last ply, by design) against perft.c, plain (one call per sequence) and with bulk
#      counting of the last ply (`perft 11 bulk`, the fair peer).
#   1b. Connect-4's distinct positions to ply 12: `bench-suite count --game connect4 --depth 12 --only positions`
#      on 1 and on 2 threads, against positions.c (a breadth-first search with an open-addressing set), time and
#      peak memory (/usr/bin/time -v's maximum resident set, when /usr/bin/time is installed).
#   2. Alpha-beta on the implicit iid trees b4-d10, b8-d7, b16-d6 (seed 1, leaves 0..=2^31-1, natural order):
#      the criterion bench `alphabeta-implicit-iid` and a small Rust program ($WORK/rust-check, made here,
#      depending on khela-exact and khela-games by path) that runs the same search as the bench, against
#      alphabeta.c. Value and node count of C and Rust are compared; a mismatch stops the script.
set -euo pipefail

REPS=${1:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
KHELA_ROOT=${KHELA_ROOT:-$(cd "$HERE/../.." && pwd)}
WORK=${WORK:-/tmp/khela-peers}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/tmp/target-peers}
BENCH_SUITE=${BENCH_SUITE:-$KHELA_ROOT/target/release/bench-suite}
CRITERION=${CRITERION:-1}
OUT=${OUT:-$KHELA_ROOT/results/core-loops.csv}
TREES="4:10 8:7 16:6"
mkdir -p "$WORK"
# The revision measured, taken before anything is written (results/, which this script writes, does not count).
revision=$(cd "$KHELA_ROOT" && git rev-parse HEAD 2>/dev/null || echo unknown)
(cd "$KHELA_ROOT" && git diff --quiet HEAD -- . ':!results' 2>/dev/null) || revision="$revision-dirty"

load() { cut -d' ' -f1-3 /proc/loadavg; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "nan" || b == "nan" || b == 0) print "nan"; else printf "%.3f", a / b }'; }
# The median of a repetition's own ratios, with the least and the largest: "median (min-max)".
paired() {
    awk -v k="$1" -v w="$2" '$1 == k && $2 == w { print $3 }' "$LOG" | sort -g |
        awk '{ a[NR] = $1 } END { if (NR == 0) { print "nan nan nan"; exit }
              m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.2f %.2f %.2f", m, a[1], a[NR] }'
}
shown() { set -- $1; echo "$1 ($2-$3)"; }
# The last measurement logged under a key and a word: this repetition's.
last() { awk -v k="$1" -v w="$2" '$1 == k && $2 == w { v = $3 } END { print v }' "$LOG"; }
median() { sort -g | awk '{ a[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

echo "== building (gcc -O2 -march=native; cargo --release)"
gcc -O2 -march=native -o "$WORK/perft" "$HERE/perft.c"
gcc -O2 -march=native -o "$WORK/alphabeta" "$HERE/alphabeta.c"
gcc -O2 -march=native -o "$WORK/positions" "$HERE/positions.c"
if [ ! -x "$BENCH_SUITE" ]; then
    (cd "$KHELA_ROOT" && cargo build --release -p bench-suite)
    BENCH_SUITE=$CARGO_TARGET_DIR/release/bench-suite
fi
# The binary is copied so that a rebuild by someone else during the run does not change what is measured.
cp "$BENCH_SUITE" "$WORK/bench-suite"

# The Rust check program: the bench's search (Searcher::new(&tree, Natural).run(AlphaBeta, ROOT),
# a fresh searcher per run), repeated for at least MIN_SECONDS and at least 5 times, median time per search.
mkdir -p "$WORK/rust-check/src"
cat > "$WORK/rust-check/Cargo.toml" <<EOF
[package]
name = "rust-check"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
khela-exact = { path = "$KHELA_ROOT/crates/exact" }
khela-games = { path = "$KHELA_ROOT/crates/games" }

# The workspace's release profile (Cargo.toml of khela), so that the code is compiled as the bench's is.
[profile.release]
codegen-units = 1
lto = "thin"
debug = "line-tables-only"

[workspace]
EOF
cat > "$WORK/rust-check/src/main.rs" <<'EOF'
//! Prints value, node count and median time of khela's alpha-beta (natural order) on an implicit iid tree.
//! Arguments as alphabeta.c's: b d [seed=1] [min_seconds=2] [lo=0] [hi=2^31-1].
use khela_exact::{Algorithm, Natural, Searcher};
use khela_games::implicit::{ImplicitTree, Model};
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_string());
    let b: u32 = arg(0, "4").parse().unwrap();
    let d: u32 = arg(1, "10").parse().unwrap();
    let seed: u64 = arg(2, "1").parse().unwrap();
    let min_seconds: f64 = arg(3, "2").parse().unwrap();
    let lo: i64 = arg(4, "0").parse().unwrap();
    let hi: i64 = arg(5, "2147483647").parse().unwrap();
    let tree = ImplicitTree::hashed(b, d, seed, Model::Iid { lo, hi }).unwrap();
    let mut times = Vec::new();
    let mut first = None;
    let started = Instant::now();
    while times.len() < 5 || started.elapsed().as_secs_f64() < min_seconds {
        let t0 = Instant::now();
        let result = Searcher::new(&tree, Natural).run(Algorithm::AlphaBeta, black_box(&ImplicitTree::ROOT));
        times.push(t0.elapsed().as_secs_f64());
        let seen = (result.value, result.stats);
        assert!(first.is_none_or(|f| f == seen), "repeated search differs");
        first = Some(seen);
    }
    let (value, stats) = first.unwrap();
    times.sort_by(f64::total_cmp);
    let n = times.len();
    let median = if n % 2 == 1 { times[n / 2] } else { 0.5 * (times[n / 2 - 1] + times[n / 2]) };
    println!(
        "rust-alphabeta b={b} d={d} seed={seed} value={} nodes={} leaves={} cutoffs={} reps={n} median_s={median:.6} \
         nodes_per_s={:.4e}",
        value as i64, stats.nodes, stats.leaves, stats.cutoffs, stats.nodes as f64 / median
    );
}
EOF
(cd "$WORK/rust-check" && cargo build --release --quiet)
RUST_CHECK=$CARGO_TARGET_DIR/release/rust-check
# The criterion bench, built once here (not timed).
if [ "$CRITERION" = 1 ]; then
    (cd "$KHELA_ROOT" && cargo bench -p khela-exact --bench search --no-run --quiet)
fi

field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p"; }
# A command's output, its peak memory kept for peak_mib (nan without /usr/bin/time).
timed() {
    if [ -x /usr/bin/time ]; then /usr/bin/time -v -o "$WORK/time.txt" "$@"; else rm -f "$WORK/time.txt"; "$@"; fi
}
peak_mib() {
    awk '/Maximum resident set size/ { printf "%.0f", $NF / 1024; found = 1 } END { if (!found) print "nan" }' \
        "$WORK/time.txt" 2>/dev/null || echo nan
}
LOG=$WORK/log.txt
: > "$LOG"
echo "== verifying equal values and node counts"
for t in $TREES; do
    b=${t%%:*} d=${t##*:}
    c=$("$WORK/alphabeta" "$b" "$d" 1 0)
    r=$("$RUST_CHECK" "$b" "$d" 1 0)
    cv=$(echo "$c" | field value) cn=$(echo "$c" | field nodes)
    rv=$(echo "$r" | field value) rn=$(echo "$r" | field nodes)
    if [ "$cv" != "$rv" ] || [ "$cn" != "$rn" ]; then
        echo "MISMATCH b$b-d$d: C value $cv nodes $cn, khela value $rv nodes $rn" >&2
        exit 1
    fi
    echo "b$b-d$d: value $cv, nodes $cn: C = khela"
done
# More trees, other seeds, and narrow leaf ranges (many ties, which test the strict comparisons and the cut
# at alpha >= beta): value and node count must agree on every one.
checked=0
for t in 2:12 3:9 5:7 7:6 13:4; do
    for seed in 2 3 4; do
        for range in "0 2147483647" "0 9" "-3 3" "5 5"; do
            b=${t%%:*} d=${t##*:}
            c=$("$WORK/alphabeta" "$b" "$d" "$seed" 0 $range)
            r=$("$RUST_CHECK" "$b" "$d" "$seed" 0 $range)
            if [ "$(echo "$c" | field value) $(echo "$c" | field nodes)" != "$(echo "$r" | field value) $(echo "$r" | field nodes)" ]; then
                echo "MISMATCH b$b-d$d seed $seed range $range: C: $c; khela: $r" >&2
                exit 1
            fi
            checked=$((checked + 1))
        done
    done
done
echo "$checked further trees (b 2..13, seeds 2..4, leaf ranges 0..=2^31-1, 0..=9, -3..=3, 5..=5): C = khela"

echo "== $REPS interleaved repetitions (load before: $(load))"
for rep in $(seq 1 "$REPS"); do
    # 1. perft: ours, then the peer's (alternating which goes first).
    run_ours_perft() {
        "$WORK/bench-suite" count --game connect4 --depth 11 --only sequences --threads 1,2 > "$WORK/ours-perft.txt"
        grep -q '1,844,590,828' "$WORK/ours-perft.txt" || { echo "our ply-11 count is wrong" >&2; exit 1; }
        for th in 1 2; do
            s=$(sed -n "s/^sequences: $th thread(s), .* in \([0-9.]*\) s.*/\1/p" "$WORK/ours-perft.txt")
            echo "perft ours-${th}t $s" >> "$LOG"
        done
    }
    run_c_perft() {
        for mode in plain bulk; do
            out=$("$WORK/perft" 11 "$mode")
            echo "$out" | grep -q ' 1844590828$' || { echo "C ply-11 count is wrong" >&2; exit 1; }
            echo "perft c-$mode-1t $(echo "$out" | sed -n 's/.* in \([0-9.]*\) s .*/\1/p')" >> "$LOG"
        done
    }
    if [ $((rep % 2)) = 1 ]; then run_ours_perft; run_c_perft; else run_c_perft; run_ours_perft; fi
    echo "perft load $(load | cut -d' ' -f1)" >> "$LOG"
    # This repetition's own ratios (the machine's speed drifts between repetitions).
    echo "perft pair-plain $(ratio "$(last perft c-plain-1t)" "$(last perft ours-1t)")" >> "$LOG"
    echo "perft pair-bulk $(ratio "$(last perft c-bulk-1t)" "$(last perft ours-1t)")" >> "$LOG"
    # 1b. distinct positions: time and peak memory, ours on 1 and 2 threads, then the peer's (alternating).
    run_ours_positions() {
        for th in 1 2; do
            timed "$WORK/bench-suite" count --game connect4 --depth 12 --only positions --threads "$th" > "$WORK/ours-positions.txt"
            grep -q '12,236,101' "$WORK/ours-positions.txt" || { echo "our ply-12 positions are wrong" >&2; exit 1; }
            s=$(sed -n "s/^positions: $th thread(s), .* in \([0-9.]*\) s.*/\1/p" "$WORK/ours-positions.txt")
            echo "positions ours-${th}t $s" >> "$LOG"
            echo "positions-mib ours-${th}t $(peak_mib)" >> "$LOG"
        done
    }
    run_c_positions() {
        out=$(timed "$WORK/positions" 12)
        echo "$out" | grep -q 'ply 12 *12236101$' || { echo "C ply-12 positions are wrong" >&2; exit 1; }
        echo "positions c-1t $(echo "$out" | sed -n 's/.* in \([0-9.]*\) s$/\1/p')" >> "$LOG"
        echo "positions-mib c-1t $(peak_mib)" >> "$LOG"
    }
    if [ $((rep % 2)) = 1 ]; then run_ours_positions; run_c_positions; else run_c_positions; run_ours_positions; fi
    echo "positions pair $(ratio "$(last positions c-1t)" "$(last positions ours-1t)")" >> "$LOG"
    # 2. alpha-beta, per tree: C and the Rust check program (alternating which goes first), and (once per
    # repetition) the criterion bench.
    for t in $TREES; do
        b=${t%%:*} d=${t##*:}
        if [ $((rep % 2)) = 1 ]; then
            c=$("$WORK/alphabeta" "$b" "$d" 1 2) r=$("$RUST_CHECK" "$b" "$d" 1 2)
        else
            r=$("$RUST_CHECK" "$b" "$d" 1 2) c=$("$WORK/alphabeta" "$b" "$d" 1 2)
        fi
        cs=$(echo "$c" | field nodes_per_s) rs=$(echo "$r" | field nodes_per_s)
        echo "ab-b$b-d$d c $cs" >> "$LOG"
        echo "ab-b$b-d$d rust $rs" >> "$LOG"
        echo "ab-b$b-d$d pair $(ratio "$rs" "$cs")" >> "$LOG"
    done
    if [ "$CRITERION" = 1 ]; then
        (cd "$KHELA_ROOT" && cargo bench -p khela-exact --bench search --quiet -- implicit 2>/dev/null) > "$WORK/criterion.txt"
        # Criterion prints "thrpt:  [low est high]" with units Kelem/s, Melem/s or Gelem/s after each benchmark.
        awk '/alphabeta-implicit-iid\// { split($1, p, "/"); name = p[2] }
             /thrpt:/ && name != "" { v = $4; u = $5; m = (u ~ /^G/) ? 1e9 : (u ~ /^M/) ? 1e6 : (u ~ /^K/) ? 1e3 : 1;
                                      printf "ab-%s criterion %.4e\n", name, v * m; name = "" }' \
            "$WORK/criterion.txt" >> "$LOG"
    fi
    echo "ab load $(load | cut -d' ' -f1)" >> "$LOG"
    echo "repetition $rep done (load $(load))"
done

echo
echo "== medians over $REPS repetitions (load after: $(load))"
get() { awk -v k="$1" -v w="$2" '$1 == k && $2 == w { print $3 }' "$LOG" | median; }
c1=$(get perft c-plain-1t) cb=$(get perft c-bulk-1t) o1=$(get perft ours-1t) o2=$(get perft ours-2t)
printf "%-28s %12s %12s %12s %12s\n" "Connect-4 perft, ply 11" "C plain 1t" "C bulk 1t" "ours 1t" "ours 2t"
printf "%-28s %11.3fs %11.3fs %11.3fs %11.3fs\n" "time (median)" "$c1" "$cb" "$o1" "$o2"
printf "%-28s %12s %12s %12s %12s\n" "speed ours/C bulk" "" "" "$(ratio "$cb" "$o1")" "$(ratio "$cb" "$o2")"
echo "speed ours/C per repetition, median (least-largest): plain $(shown "$(paired perft pair-plain)"), bulk $(shown "$(paired perft pair-bulk)")"
echo "load average during perft (1 min, per repetition): $(awk '$1=="perft" && $2=="load" {printf "%s ", $3}' "$LOG")"
echo
pc=$(get positions c-1t) p1=$(get positions ours-1t) p2=$(get positions ours-2t)
mc=$(get positions-mib c-1t) m1=$(get positions-mib ours-1t) m2=$(get positions-mib ours-2t)
printf "%-28s %12s %12s %12s\n" "Connect-4 positions, ply 12" "C 1 thread" "ours 1t" "ours 2t"
printf "%-28s %11.3fs %11.3fs %11.3fs\n" "time (median)" "$pc" "$p1" "$p2"
printf "%-28s %12s %12s %12s\n" "speed ours/C" "" "$(ratio "$pc" "$p1")" "$(ratio "$pc" "$p2")"
echo "speed ours/C on 1 thread per repetition, median (least-largest): $(shown "$(paired positions pair)")"
printf "%-28s %12s %12s %12s\n" "peak memory, MiB" "$mc" "$m1" "$m2"
echo
printf "%-12s %14s %14s %14s %10s %10s  %s\n" "alpha-beta" "C nodes/s" "ours (check)" "ours (crit.)" "check/C" "crit./C" \
    "check/C per repetition, median (least-largest)"
for t in $TREES; do
    b=${t%%:*} d=${t##*:}
    cc=$(get "ab-b$b-d$d" c) rr=$(get "ab-b$b-d$d" rust) cr=$(get "ab-b$b-d$d" criterion)
    printf "%-12s %14.4g %14.4g %14s %10s %10s  %s\n" "b$b-d$d" "$cc" "$rr" "$cr" "$(ratio "$rr" "$cc")" "$(ratio "$cr" "$cc")" \
        "$(shown "$(paired "ab-b$b-d$d" pair)")"
done
echo "load average during alpha-beta (1 min, per repetition): $(awk '$1=="ab" && $2=="load" {printf "%s ", $3}' "$LOG")"

# The medians as CSV: the peer's figure, ours on 1 and on 2 threads, and ours against the peer's as a speed
# (above 1: ours faster); for memory, ours over the peer's (below 1: ours smaller). Then the same speed on 1
# thread taken within each repetition, the two measured minutes apart at most: the median of the repetitions'
# ratios, the least and the largest (this shared machine's speed drifts between repetitions, which a ratio of
# medians mixes in).
tmp=$(mktemp "$OUT.XXXXXX")
{
    echo "work,unit,peer,peer_1t,khela_1t,khela_2t,ratio_1t,ratio_2t,paired_1t,paired_1t_least,paired_1t_largest"
    csv() { set -- $1; echo "$1,$2,$3"; }
    echo "connect4-perft-ply11,seconds,c-perft-plain,$c1,$o1,$o2,$(ratio "$c1" "$o1"),$(ratio "$c1" "$o2"),$(csv "$(paired perft pair-plain)")"
    echo "connect4-perft-ply11,seconds,c-perft-bulk,$cb,$o1,$o2,$(ratio "$cb" "$o1"),$(ratio "$cb" "$o2"),$(csv "$(paired perft pair-bulk)")"
    echo "connect4-positions-ply12,seconds,c-positions,$pc,$p1,$p2,$(ratio "$pc" "$p1"),$(ratio "$pc" "$p2"),$(csv "$(paired positions pair)")"
    echo "connect4-positions-ply12,peak_mib,c-positions,$mc,$m1,$m2,$(ratio "$m1" "$mc"),$(ratio "$m2" "$mc"),,,"
    for t in $TREES; do
        b=${t%%:*} d=${t##*:}
        cc=$(get "ab-b$b-d$d" c) rr=$(get "ab-b$b-d$d" rust)
        echo "alphabeta-iid-b$b-d$d,nodes_per_second,c-alphabeta,$cc,$rr,,$(ratio "$rr" "$cc"),,$(csv "$(paired "ab-b$b-d$d" pair)")"
    done
} > "$tmp"
mv "$tmp" "$OUT"
meta=${OUT%.csv}.meta.json
cat > "$meta.tmp" <<EOF
{
  "command": "scripts/peers/run.sh $REPS",
  "repetitions": $REPS,
  "git_revision": "$revision",
  "cpu": "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)",
  "cores": $(nproc),
  "gcc": "$(gcc -dumpfullversion)",
  "c_flags": "-O2 -march=native",
  "khela_target_cpu": "x86-64-v2 (.cargo/config.toml)",
  "load_after": "$(load)",
  "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
}
EOF
mv "$meta.tmp" "$meta"
echo "medians: $OUT (sidecar $meta)"
echo "raw measurements: $LOG"
