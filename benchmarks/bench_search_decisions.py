"""What the searched call, écart, poignée and chelem cost: CPU time per deal with every seat
using the strategy, on one thread, against plain heuristic deals at the same table size.

Each strategy is timed on its own deals after a warm-up deal (which loads the compiled
kernels), the cheap ones (heuristic card play) on ``--deals`` deals, those playing ``pimc`` on
``--pimc-deals``; the cost of a deal is given in milliseconds and in heuristic deals (its
time over a heuristic deal's, measured in the same run). The figures of
``reports/search-decisions.md`` were made with the defaults:

    .venv/bin/python benchmarks/bench_search_decisions.py [--deals 400] [--pimc-deals 40] [--seed 36]
"""

from __future__ import annotations

import argparse
import time

from tarotsim.base.seeding import run_key
from tarotsim.players.config import RunConfig
from tarotsim.runs.runner import play_deals, using_threads

SPECS = (
    (4, "ecart=search"),
    (4, "chelem=search"),
    (4, "poignee=search"),
    (5, "call=search"),
    (4, "play=pimc"),
    (4, "play=pimc,ecart=search"),
    (4, "play=pimc,chelem=search"),
    (4, "play=pimc,poignee=search"),
    (5, "play=pimc"),
    (5, "play=pimc,call=search"),
)
"""The table size and the strategy of every seat, each timed against ``play=heuristic``."""


def seconds_per_deal(players: int, spec: str, deals: int, seed: int) -> float:
    """CPU seconds per deal of ``deals`` deals with ``spec`` in every seat, one thread."""
    cfg = RunConfig(players=players, strategies=[spec] * players).to_array()
    key = run_key(seed)
    play_deals(0, 1, key, cfg)  # load the compiled kernels
    start = time.process_time()
    play_deals(1, deals, key, cfg)
    return (time.process_time() - start) / deals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=400, help="deals per strategy without pimc")
    parser.add_argument("--pimc-deals", type=int, default=40, help="deals per strategy playing pimc")
    parser.add_argument("--seed", type=int, default=36)
    args = parser.parse_args()
    with using_threads(1):
        plain = {n: seconds_per_deal(n, "play=heuristic", 20 * args.deals, args.seed) for n in (4, 5)}
        print("| players | strategy | deals | ms per deal | heuristic deals |")
        print("| --- | --- | --- | --- | --- |")
        for players in (4, 5):
            print(f"| {players} | `play=heuristic` | {20 * args.deals} | {1000 * plain[players]:.3f} | 1 |")
        for players, spec in SPECS:
            deals = args.pimc_deals if "pimc" in spec else args.deals
            cost = seconds_per_deal(players, spec, deals, args.seed)
            print(
                f"| {players} | `{spec}` | {deals} | {1000 * cost:.2f} | {cost / plain[players]:,.0f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
