#!/usr/bin/env bash
# How far the proof that the goats hold Bagh-Chal to a draw gets on this machine: `prove --claim goats:draw`
# from the positions after k goat placements of one game (the depth-2 engine against itself, recorded by
# `play --game bagh-chal --human none --engine engine:2`), for k = 19 down to the first that does not finish
# within the time limit, each searching every goat move (best first by the evaluator) down to the sliding
# phase's tables. Writes results/prove-bagh-chal.csv (one row a position) with its sidecar (each proof's, with
# the machine's facts and the proof's time and peak memory). Run again, it keeps the proofs finished before
# and resumes the one a kill stopped from its checkpoint (saved every minute).
#
#   scripts/prove-bagh-chal.sh [TABLES_DIR] [MINUTES_PER_POSITION] [FEWEST_PLACED]
#
# TABLES_DIR holds the tables of `retro --game bagh-chal --out DIR` (solved there first if it has none).
set -euo pipefail

tables=${1:-bagh-chal-tables}
minutes=${2:-25}
fewest=${3:-5}
out=results/prove-bagh-chal.csv
work=${PROVE_WORK:-prove-bagh-chal-work}
bench=(cargo run --release --quiet -p bench-suite --)

# The game's positions after k placements, goats to move: k, then the position.
line=(
  "19 GGGGG/GGGGG/GGTTG/GGT.G/GGGT. g 1"
  "18 GGGGG/GGGGG/GGTTG/G.T.G/GGG.T g 2"
  "17 GGGGG/GG.GG/GGTTG/GT..G/GGG.T g 3"
  "16 GGGGG/GGTGG/GG.TG/GT..G/.GG.T g 4"
  "15 GGGGG/GGT.G/GG.TG/GT.TG/.GG.. g 5"
  "14 GGGGG/GGTTG/G...G/GT.TG/.GG.. g 6"
  "13 GGGGG/G..TG/G.T.G/GT.TG/.GG.. g 7"
  "12 GGGGG/.T.TG/G...G/GT.TG/.GG.. g 8"
  "11 GGGGG/...T./G.T.G/GT.TG/.GG.. g 9"
  "10 GGGG./.T.T./G...G/GT.TG/.GG.. g 10"
  "9 GGG../...T./G.T.G/GT.TG/.GG.. g 11"
  "8 .GG../.T.T./G...G/GT.TG/.GG.. g 12"
  "7 .GG../.T..T/G...G/GT.T./.GG.. g 13"
  "6 .GG../.T.T./G...G/GT.T./..G.. g 14"
  "5 .GG../T..T./G...G/.T.T./..G.. g 15"
)

if [ ! -e "$tables/captured-0.retro" ]; then
  "${bench[@]}" retro --game bagh-chal --out "$tables"
fi
mkdir -p "$work"
echo "placed,position,verdict,nodes,decided,proof_positions,proof_tree,seconds" > "$out.tmp"
for entry in "${line[@]}"; do
  placed=${entry%% *}
  position=${entry#* }
  if [ "$placed" -lt "$fewest" ]; then
    break
  fi
  rows="$work/prove-$placed.csv"
  if [ ! -e "$rows" ] && ! timeout "$((minutes * 60))" "${bench[@]}" prove --game bagh-chal --tables "$tables" --position "$position" \
      --claim goats:draw --checkpoint "$work/prove-$placed.ckpt" --out "$rows"; then
    echo "prove-bagh-chal: the position after $placed placements did not finish within $minutes minutes" >&2
    break
  fi
  value() { awk -F, -v m="$1" '$1 == m { print $2 }' "$rows"; }
  echo "$placed,$position,$(value verdict),$(value nodes),$(value decided),$(value proof_positions),$(value proof_tree),$(value seconds)" >> "$out.tmp"
done
mv "$out.tmp" "$out"
python3 - "$work" "${out%.csv}.meta.json" <<'PY'
import glob, json, os, sys
work, meta = sys.argv[1], sys.argv[2]
runs = sorted(glob.glob(os.path.join(work, "prove-*.meta.json")), key=lambda p: -int(p.split("-")[-1].split(".")[0]))
json.dump({"proofs": [json.load(open(p)) for p in runs]}, open(meta + ".tmp", "w"), indent=2)
os.replace(meta + ".tmp", meta)
PY
echo "wrote $out and its sidecar"
