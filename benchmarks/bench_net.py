"""The learned card player ``play=net``: its edge over the heuristic and over ``pimc``, and its cost.

Writes ``reports/learned-player.md``. Two duplicate duels at 4 players (``tarotsim.duel``: each
deal played once with A in each seat and B in the others, on the same cards, so luck cancels;
A's edge is its mean score per deal over the rotations, in game points, with a 95% normal
interval over the deals, which pairs A's and B's play of each deal): ``net`` against the
heuristic, ``net`` against ``pimc`` (its defaults). Then its cost: CPU time per deal with
every seat on ``net``, over the same with every seat on the heuristic, one thread, in
interleaved rounds (the median of the rounds' ratios, with a distribution-free 95% interval).

    python benchmarks/bench_net.py --deals 4000 --deals-pimc 500 --rounds 7 --seed 7
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import time
from pathlib import Path

import numpy as np

import tarotsim
from tarotsim.base.seeding import run_key
from tarotsim.bench.timing import machine, median_interval
from tarotsim.players.config import RunConfig
from tarotsim.players.strategy import Strategy
from tarotsim.runs.runner import play_deals, using_threads

REPORTS = Path(__file__).resolve().parent.parent / "reports"
NET = "play=net"
HEURISTIC = "play=heuristic"
PIMC = "play=pimc"


def cost(
    seed: int, rounds: int, budget_s: float
) -> tuple[float, tuple[float, float] | None, dict[str, float]]:
    """Deal time of ``net`` over the heuristic's (every seat, one thread): the median of the
    rounds' ratios, its 95% interval, and each policy's deals per CPU second (median)."""
    key = run_key(seed)
    cfgs = {label: RunConfig(strategies=[Strategy.parse(label)] * 4).to_array() for label in (NET, HEURISTIC)}
    sizes: dict[str, int] = {}
    per_round: dict[str, list[float]] = {label: [] for label in cfgs}
    with using_threads(1):
        for label, cfg in cfgs.items():  # compile, then size each measurement
            play_deals(0, 1, key, cfg)
            started = time.process_time()
            n = 1
            while time.process_time() - started < budget_s / 4:
                play_deals(0, n, key, cfg)
                n *= 2
            sizes[label] = max(2, int(budget_s * (2 * n - 1) / (time.process_time() - started)))
        for r in range(rounds):
            for label, cfg in cfgs.items() if r % 2 == 0 else reversed(cfgs.items()):
                started = time.process_time()
                play_deals((r + 1) * 100_000, sizes[label], key, cfg)
                per_round[label].append((time.process_time() - started) / sizes[label])
    ratios = np.array([a / b for a, b in zip(per_round[NET], per_round[HEURISTIC], strict=True)])
    speeds = {label: 1 / statistics.median(times) for label, times in per_round.items()}
    return float(np.median(ratios)), median_interval(ratios), speeds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4000, help="deals of the duel against the heuristic")
    parser.add_argument("--deals-pimc", type=int, default=500, help="deals of the duel against pimc")
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds of the cost")
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per cost measurement")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, default=REPORTS / "learned-player.md")
    args = parser.parse_args()
    started = time.perf_counter()
    about = machine()
    rows = []
    for b, deals in ((HEURISTIC, args.deals), (PIMC, args.deals_pimc)):
        t = time.perf_counter()
        result = tarotsim.duel(NET, b, deals, seed=args.seed, progress=False)
        low, high = result.low, result.high
        rows.append(
            f"| `{NET}` | `{b}` | {deals:,} | {result.edge:+.2f} | [{low:+.2f}, {high:+.2f}] | "
            f"{time.perf_counter() - t:,.0f} |"
        )
        print(rows[-1], flush=True)
    ratio, interval, speeds = cost(args.seed, args.rounds, args.seconds)
    span = "too few rounds" if interval is None else f"{interval[0]:,.1f} to {interval[1]:,.1f}"
    command = (
        f"python benchmarks/bench_net.py --deals {args.deals} --deals-pimc {args.deals_pimc} "
        f"--rounds {args.rounds} --seconds {args.seconds} --seed {args.seed}"
    )
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "## Strength and cost",
        "",
        f"Written by `{command}` on {now} in {time.perf_counter() - started:,.0f} s.",
        "",
        f"Machine: cpu {about['cpu']}, cores {about['cores']}, numba_threads {about['numba_threads']}, "
        f"load_average {about['load_average']} at the start, {round(__import__('os').getloadavg()[0], 2)} "
        f"at the end, versions {about['versions']}.",
        "",
        "Duplicate duels at 4 players (A in each seat in turn, B in the others, the same cards): A's",
        "edge in game points per deal, with a 95% normal interval over the deals (the pairing of A's",
        "and B's play of each deal is in the per-deal edge). Every strategy bids with Chavey's bands",
        "and makes the expert écart (the defaults).",
        "",
        "| A | B | deals | edge, points per deal | 95% interval | wall s |",
        "|---|---|---:|---:|---|---:|",
        *rows,
        "",
        f"Cost, every seat on one policy, one thread, {args.rounds} interleaved rounds of about "
        f"{args.seconds:g} CPU s each: `net` {speeds[NET]:,.0f} deals per CPU second, the heuristic "
        f"{speeds[HEURISTIC]:,.0f}; a `net` deal costs **{ratio:,.1f}** heuristic deals (median of "
        f"the rounds' ratios; 95% interval {span}, distribution-free, from the order statistics).",
        "",
    ]
    text = args.out.read_text(encoding="utf-8") if args.out.exists() else "# The learned card player\n\n"
    head = text.split("## Strength and cost")[0]
    args.out.write_text(head + "\n".join(lines), encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
