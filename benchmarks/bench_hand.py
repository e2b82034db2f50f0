"""Time of one hand analysed (``tarotsim.analyse_hand``), heuristic play, once compiled.

Warms the kernels up with a short analysis, then times ``--deals`` deals (each played under the
four contracts, the first 50 also announcing the chelem under each: the hand is not offered it)
``--repeats`` times on all threads and on one, and prints the best and median
wall times with the machine, the load average, the thread count and the versions.

    nice .venv/bin/python benchmarks/bench_hand.py --deals 2000 --repeats 5
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

import numba
import numpy as np

import tarotsim
from tarotsim.analysis.hand import analyse_hand

HAND = "T21 T18 T15 T12 T9 T7 T4 T2 EX KH QH 5H KS 8S 3S 9D 2D 4C"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--strategy", default=None, help="every seat's strategy spec (default: heuristic)")
    args = parser.parse_args()
    analyse_hand(HAND, deals=16, seed=0, strategy=args.strategy)  # compile
    print(
        f"tarotsim {tarotsim.__version__}, numba {numba.__version__}, numpy {np.__version__}, "
        f"python {platform.python_version()}, {platform.machine()} with {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.1f} before"
    )
    for threads in (numba.config.NUMBA_NUM_THREADS, 1):  # type: ignore[attr-defined]
        times = []
        for repeat in range(args.repeats):
            start = time.perf_counter()
            analyse_hand(HAND, deals=args.deals, seed=repeat, strategy=args.strategy, threads=threads)
            times.append(time.perf_counter() - start)
        print(
            f"{args.deals:,} deals x 4 contracts (+ the chelem's trial), {threads} thread(s): best {min(times):.2f} s, "
            f"median {statistics.median(times):.2f} s ({args.deals / min(times):,.0f} deals/s at best)"
        )
    print(f"load average {os.getloadavg()[0]:.1f} after")


if __name__ == "__main__":
    main()
