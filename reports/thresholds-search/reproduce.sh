#!/usr/bin/env bash
# The whole study of this folder in one command: every sweep of its preamble, then analyse.py,
# which rewrites report.md and the cells CSVs here. Usage: reproduce.sh DIR (the runs go under
# DIR/prise, DIR/rest and DIR/all). About 3 CPU hours on one thread of a 2-core Xeon.
set -euo pipefail
DIR=${1:?a folder for the runs}
HERE=$(cd "$(dirname "$0")" && pwd)
PYTHON=${PYTHON:-python}
export THREADS=${THREADS:-1} TAROTSIM="$PYTHON -m tarotsim"
PLAYS="heuristic pimc-table search" CONTRACTS=prise "$HERE/run.sh" "$DIR/prise" 0 3
PLAYERS=5 PLAYS="heuristic pimc-table search" CONTRACTS=prise "$HERE/run.sh" "$DIR/prise" 0 2
CONTRACTS=garde,garde_sans,garde_contre "$HERE/run.sh" "$DIR/rest" 0 2
PLAYERS=5 CONTRACTS=garde,garde_sans,garde_contre "$HERE/run.sh" "$DIR/rest" 0 2
PLAYS=heuristic "$HERE/run.sh" "$DIR/all" 0 4
PLAYS=heuristic "$HERE/run.sh" "$DIR/all" 5 5 0
"$PYTHON" "$HERE/analyse.py" "$DIR/prise" "$DIR/rest" --players 4 5 --reproduce "$DIR/all/4p"
