"""Heuristic card play against random play on one thread: the ratio of their deals per second.

On a noisy or shared machine a ratio of two separate best-of runs drifts with the load;
this script interleaves the two (random, heuristic, random, heuristic, …), takes the ratio
within each pair and prints the median of the per-pair ratios with their min–max. The
configurations are those of ``tarotsim bench``: random play with the simple écart, the
heuristic with the expert écart, 4 players.

    python benchmarks/bench_heuristic_ratio.py --pairs 7 --deals 100000
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import statistics  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from tarotsim.bench import machine  # noqa: E402
from tarotsim.config import RunConfig  # noqa: E402
from tarotsim.run.engine import play, using_threads  # noqa: E402
from tarotsim.run.seeding import run_key  # noqa: E402


def _rates(cfg: np.ndarray, deals: int, first: int) -> tuple[float, float]:
    """(deals per wall-clock second, deals per CPU second of this process)."""
    key = run_key(1)
    wall, cpu = time.perf_counter(), time.process_time()
    play(first, deals, key, cfg)
    return deals / (time.perf_counter() - wall), deals / (time.process_time() - cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000, help="deals per timing (default 100000)")
    parser.add_argument("--pairs", type=int, default=7, help="random/heuristic pairs (default 7)")
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    args = parser.parse_args()
    if args.deals < 1 or args.pairs < 1:
        parser.error("--deals and --pairs must be positive")

    random_cfg = RunConfig(players=args.players, policy="random", ecart_policy="simple").to_array()
    heuristic_cfg = RunConfig(players=args.players, policy="heuristic", ecart_policy="expert").to_array()
    with using_threads(1):
        _rates(random_cfg, 2_000, 0)  # compile or load both kernels before timing
        _rates(heuristic_cfg, 2_000, 0)
        wall: list[tuple[float, float]] = []
        cpu: list[tuple[float, float]] = []
        for pair in range(args.pairs):
            first = pair * args.deals  # other deals at every pair, the same for both policies
            random_wall, random_cpu = _rates(random_cfg, args.deals, first)
            heuristic_wall, heuristic_cpu = _rates(heuristic_cfg, args.deals, first)
            wall.append((random_wall, heuristic_wall))
            cpu.append((random_cpu, heuristic_cpu))
            print(
                f"pair {pair + 1}: random {random_wall:,.0f} deals/s, heuristic {heuristic_wall:,.0f} deals/s, "
                f"ratio {heuristic_wall / random_wall:.3f} (per CPU second: {heuristic_cpu / random_cpu:.3f})",
                flush=True,
            )
    print(
        f"heuristic / random, 1 thread, {args.players} players, {args.pairs} pairs of {args.deals:,} deals, "
        f"{machine().get('cpu', '')}:"
    )
    for name, rows in (("wall clock", wall), ("CPU time", cpu)):
        ratios = [h / r for r, h in rows]
        print(
            f"  {name}: median ratio {statistics.median(ratios):.3f} (min {min(ratios):.3f}, max {max(ratios):.3f}); "
            f"median rates: random {statistics.median(r for r, _ in rows):,.0f}, "
            f"heuristic {statistics.median(h for _, h in rows):,.0f} deals/s"
        )


if __name__ == "__main__":
    main()
