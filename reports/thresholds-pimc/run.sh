#!/usr/bin/env bash
# The sweeps of reports/thresholds-pimc: stratified sweeps, one run per round and bout count, each
# trump length of that bout count dealt PER_CELL times; pimc card play in every seat, then the
# heuristic on the same deals (same seed, same cells). Usage: run.sh OUT FIRST_ROUND LAST_ROUND [BOUTS...]
# TRUMPS0 … TRUMPS3: the trump lengths dealt with 0 … 3 bouts (report.md says which each round used).
set -euo pipefail
OUT=${1:?run directory root}
FIRST=${2:-0}
LAST=${3:-3}
shift 3 || true
BOUTS=${*:-0 1 2 3}
PER_CELL=${PER_CELL:-150}
THREADS=${THREADS:-2}
TAROTSIM=${TAROTSIM:-python -m tarotsim}
declare -A TRUMPS=([0]=${TRUMPS0:-9-12} [1]=${TRUMPS1:-6-12} [2]=${TRUMPS2:-4-12} [3]=${TRUMPS3:-4-9})
for round in $(seq "$FIRST" "$LAST"); do
  for bouts in $BOUTS; do
    for play in pimc heuristic; do
      $TAROTSIM sweep --out "$OUT/$play/round$round-bouts$bouts" --seed $((1000 + 10 * round + bouts)) \
        --where "0:bouts=$bouts,trumps=${TRUMPS[$bouts]}" --stratify taker_trumps --per-cell "$PER_CELL" \
        --strategy "play=$play" --threads "$THREADS" --quiet
    done
  done
done
