"""Speed of a player written in Python: writes reports/players-api.md.

A duel of a trivial Python card player (``Strategy(play=lowest)``: the lowest legal card)
against the heuristic, beside a heuristic-against-heuristic duel, 4 players, one thread, in
the same run: interleaved rounds (A B, then B A, …) after one warm-up each, deals per CPU
second (``time.process_time``), the ratio taken round by round, its median reported.

    .venv/bin/python benchmarks/bench_players_api.py [--rounds 5] [--deals 200] [--builtin-deals 20000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import tarotsim
from tarotsim.game import Observation

REPORTS = Path(__file__).resolve().parent.parent / "reports"
HEURISTIC = "play=heuristic,ecart=expert"


def lowest(observation: Observation) -> str:
    """The lowest legal card (card id order)."""
    return observation.legal_actions[0]


def rate(run: Callable[[int], object], deals: int) -> float:
    """Deals per CPU second of ``run(deals)``."""
    start = time.process_time()
    run(deals)
    return deals / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--deals", type=int, default=200, help="deals per round of the Python player's duel")
    parser.add_argument(
        "--builtin-deals", type=int, default=20_000, help="deals per round of the built-in duel"
    )
    args = parser.parse_args()
    python_player = tarotsim.Strategy(play=lowest, ecart="expert", name="lowest")

    def builtin_duel(deals: int) -> object:
        return tarotsim.duel(HEURISTIC, HEURISTIC, deals, seed=1, threads=1)

    def python_duel(deals: int) -> object:
        return tarotsim.duel(python_player, HEURISTIC, deals, seed=1, threads=1)

    builtin_duel(100)
    python_duel(5)
    ratios, python_rates, builtin_rates = [], [], []
    for r in range(args.rounds):
        pair = [("builtin", builtin_duel, args.builtin_deals), ("python", python_duel, args.deals)]
        if r % 2:
            pair.reverse()
        got = {name: rate(run, deals) for name, run, deals in pair}
        python_rates.append(got["python"])
        builtin_rates.append(got["builtin"])
        ratios.append(got["python"] / got["builtin"])
    load = os.getloadavg()[0]
    lines = [
        "# A player written in Python: speed",
        "",
        "`benchmarks/bench_players_api.py`: a duel of a trivial Python card player (the lowest legal",
        'card, `Strategy(play=lowest, ecart="expert")`) against the heuristic, beside a',
        "heuristic-against-heuristic duel, 4 players, one thread, in interleaved rounds of the same run;",
        f"{args.rounds} rounds, {args.deals} deals (Python) and {args.builtin_deals} deals (built-in) a",
        "round, deals of a duel (each played once per seat) per CPU second, medians.",
        f"Load average (1 min) at the end: {load:.2f} on {os.cpu_count()} cores.",
        "",
        "| figure | median | min–max |",
        "|---|---|---|",
        f"| Python player duel, deals/CPU s | {statistics.median(python_rates):,.1f} | "
        f"{min(python_rates):,.1f}–{max(python_rates):,.1f} |",
        f"| heuristic duel, deals/CPU s | {statistics.median(builtin_rates):,.0f} | "
        f"{min(builtin_rates):,.0f}–{max(builtin_rates):,.0f} |",
        f"| Python / heuristic | 1/{1 / statistics.median(ratios):,.0f} | "
        f"1/{1 / min(ratios):,.0f}–1/{1 / max(ratios):,.0f} |",
        "",
        "The goal is at least 1/40 (aim 1/20). A Python player's deals are played step by step, one",
        "kernel call per deal and rotation to deal, then one to run the built-in seats up to each",
        "of the Python seat's decisions (`kernels.stepwise.run_until`); each of those builds the",
        "seat's observation in Python, calls the player and checks its action.",
        "",
    ]
    REPORTS.mkdir(exist_ok=True)
    (REPORTS / "players-api.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
