#!/usr/bin/env bash
# The sweeps of reports/thresholds-search: the stratified sweeps of reports/thresholds-pimc (at 4
# players the same seeds and cells, so the same deals) under three plays in every seat: the
# heuristic, today's pimc (its worlds before the rule inferences) and the top rung of
# reports/strength-ladder.md (its card play and searched decisions; the sweep forces the contract,
# so its bidder plays no part). One run per round, bout count and play, each trump length of that
# bout count dealt PER_CELL times. Usage: run.sh OUT FIRST_ROUND LAST_ROUND [BOUTS...]
# PLAYERS: 4 (default) or 5; PLAYS: which plays (default all three); CONTRACTS: the contracts
# played (default all four).
set -euo pipefail
OUT=${1:?run directory root}
FIRST=${2:-0}
LAST=${3:-3}
shift 3 || true
BOUTS=${*:-0 1 2 3}
PLAYERS=${PLAYERS:-4}
PER_CELL=${PER_CELL:-150}
THREADS=${THREADS:-2}
PLAYS=${PLAYS:-search pimc-table heuristic}
TAROTSIM=${TAROTSIM:-python -m tarotsim}
declare -A SPEC=([heuristic]=play=heuristic [pimc-table]=play=pimc,knowledge=table
                 [search]=play=pimc,ecart=search,poignee=search,chelem=search)
# The trump lengths dealt with BOUTS bouts in ROUND: at 4 players those of reports/thresholds-pimc's
# rounds (its report.md lists them), at 5 players (15 cards a hand) one range per bout count, from
# round 1 on shorter (round 0 found the thresholds with a bout or more at its shortest lengths).
trumps() {
  local round=$1 bouts=$2
  if [ "$PLAYERS" = 4 ]; then
    case "$round:$bouts" in
      0:0 | 1:0) echo 8-12 ;; 0:2) echo 3-11 ;; 0:3) echo 3-9 ;;
      *:0) echo 9-12 ;; *:1) echo 6-12 ;; *:2) echo 4-12 ;; *:3) echo 4-9 ;;
    esac
  else
    case "$round:$bouts" in
      0:0) echo 6-11 ;; 0:1) echo 4-10 ;; 0:2) echo 2-9 ;; 0:3) echo 3-8 ;;
      *:0) echo 6-11 ;; *:1) echo 1-8 ;; *:2) echo 1-7 ;; *:3) echo 2-6 ;;
    esac
  fi
}
for round in $(seq "$FIRST" "$LAST"); do
  for bouts in $BOUTS; do
    for play in $PLAYS; do
      $TAROTSIM sweep --out "$OUT/${PLAYERS}p/$play/round$round-bouts$bouts" --players "$PLAYERS" \
        --seed $((1000 + 10 * round + bouts)) --where "0:bouts=$bouts,trumps=$(trumps "$round" "$bouts")" \
        --stratify taker_trumps --per-cell "$PER_CELL" ${CONTRACTS:+--contracts "$CONTRACTS"} --strategy "${SPEC[$play]}" --threads "$THREADS" --quiet
    done
  done
done
