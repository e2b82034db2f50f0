"""Heuristic card play against random play on one thread: the ratio of their deals per second.

On a noisy or shared machine a ratio of two separate best-of runs drifts with the load;
this script interleaves the two (random, heuristic, random, heuristic, …), takes the ratio
within each pair and prints the median of the per-pair ratios with their min–max. The
configurations are those of ``tarotsim bench``: random play with the simple écart, the
heuristic with the expert écart, 4 players.

    python benchmarks/bench_heuristic_ratio.py --pairs 7 --deals 100000

``--policies heuristic,basic`` times ``basic`` (the heuristic's play before 0.2.0) in the
same rounds, so the cost of what the heuristic learnt shows as two ratios of one run.
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import statistics  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from tarotsim.base.seeding import run_key  # noqa: E402
from tarotsim.bench.timing import machine  # noqa: E402
from tarotsim.players.config import RunConfig  # noqa: E402
from tarotsim.players.policies import PLAY_POLICIES  # noqa: E402
from tarotsim.runs.runner import play_deals, using_threads  # noqa: E402


def _rates(cfg: np.ndarray, deals: int, first: int) -> tuple[float, float]:
    """(deals per wall-clock second, deals per CPU second of this process)."""
    key = run_key(1)
    wall, cpu = time.perf_counter(), time.process_time()
    play_deals(first, deals, key, cfg)
    return deals / (time.perf_counter() - wall), deals / (time.process_time() - cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000, help="deals per timing (default 100000)")
    parser.add_argument("--pairs", type=int, default=7, help="random/heuristic pairs (default 7)")
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument(
        "--policies",
        default="heuristic",
        help="card-play policies timed against random, comma-separated, each in every round (default heuristic; "
        "heuristic,basic compares the heuristic with its play before 0.2.0)",
    )
    args = parser.parse_args()
    if args.deals < 1 or args.pairs < 1:
        parser.error("--deals and --pairs must be positive")
    names = [n.strip() for n in args.policies.split(",") if n.strip()]
    if not names or any(n not in PLAY_POLICIES for n in names):
        parser.error(f"--policies must name card-play policies among {', '.join(PLAY_POLICIES)}")

    random_cfg = RunConfig(players=args.players, policy="random", ecart_policy="simple").to_array()
    cfgs = {n: RunConfig(players=args.players, policy=n, ecart_policy="expert").to_array() for n in names}
    with using_threads(1):
        _rates(random_cfg, 2_000, 0)  # compile or load the kernels before timing
        for cfg in cfgs.values():
            _rates(cfg, 2_000, 0)
        wall: dict[str, list[tuple[float, float]]] = {n: [] for n in names}
        cpu: dict[str, list[tuple[float, float]]] = {n: [] for n in names}
        for pair in range(args.pairs):
            first = pair * args.deals  # other deals at every round, the same for every policy
            random_wall, random_cpu = _rates(random_cfg, args.deals, first)
            for name, cfg in cfgs.items():
                policy_wall, policy_cpu = _rates(cfg, args.deals, first)
                wall[name].append((random_wall, policy_wall))
                cpu[name].append((random_cpu, policy_cpu))
                print(
                    f"round {pair + 1}: random {random_wall:,.0f} deals/s, {name} {policy_wall:,.0f} deals/s, "
                    f"ratio {policy_wall / random_wall:.3f} (per CPU second: {policy_cpu / random_cpu:.3f})",
                    flush=True,
                )
    for name in names:
        print(
            f"{name} / random, 1 thread, {args.players} players, {args.pairs} rounds of {args.deals:,} deals, "
            f"{machine().get('cpu', '')}:"
        )
        for what, rows in (("wall clock", wall[name]), ("CPU time", cpu[name])):
            ratios = [h / r for r, h in rows]
            print(
                f"  {what}: median ratio {statistics.median(ratios):.3f} (min {min(ratios):.3f}, "
                f"max {max(ratios):.3f}); median rates: random {statistics.median(r for r, _ in rows):,.0f}, "
                f"{name} {statistics.median(h for _, h in rows):,.0f} deals/s"
            )


if __name__ == "__main__":
    main()
