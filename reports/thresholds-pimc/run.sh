#!/usr/bin/env bash
# The sweeps of reports/thresholds-pimc: rounds of stratified sweeps, one run per bout count, each
# cell of trump length dealt PER_CELL times per round; pimc card play in every seat, then the
# heuristic on the same deals (same seed, same cells). Usage: run.sh OUT FIRST_ROUND LAST_ROUND
set -euo pipefail
OUT=${1:?run directory root}
FIRST=${2:-0}
LAST=${3:-3}
PER_CELL=${PER_CELL:-150}
THREADS=${THREADS:-2}
TAROTSIM=${TAROTSIM:-python -m tarotsim}
declare -A TRUMPS=([0]=8-12 [1]=6-12 [2]=3-11 [3]=3-9)
for round in $(seq "$FIRST" "$LAST"); do
  for bouts in 0 1 2 3; do
    for play in pimc heuristic; do
      $TAROTSIM sweep --out "$OUT/$play/round$round-bouts$bouts" --seed $((1000 + 10 * round + bouts)) \
        --where "0:bouts=$bouts,trumps=${TRUMPS[$bouts]}" --stratify taker_trumps --per-cell "$PER_CELL" \
        --strategy "play=$play" --threads "$THREADS" --quiet
    done
  done
done
