"""Measuring speed: deals per second of the engine, its stages and the bare playout loop.

Used by ``tarotsim bench`` (headline figures in under a minute) and by
``benchmarks/bench_engine.py`` (the full suite that writes ``reports/``). Every
measurement warms the JIT up first, then times the best of a few repeats.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass

import numba
import numpy as np

from tarotsim.config import RunConfig
from tarotsim.run.engine import play, using_threads
from tarotsim.run.seeding import run_key


@dataclass(frozen=True)
class Measure:
    """One figure: what was measured, its value and unit, and with how many threads."""

    name: str
    value: float
    unit: str
    threads: int | None = None


def best_rate(work: Callable[[], object], count: int, *, repeats: int = 3) -> float:
    """Best ``count / seconds`` over ``repeats`` runs of ``work`` (after one warm-up run)."""
    work()
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return count / best


def engine_rate(
    deals: int, *, policy: str = "random", threads: int = 1, players: int = 4, repeats: int = 3
) -> float:
    """Complete deals per second of the full engine with ``policy`` card play (thrown-in
    deals count as deals, as in a real run)."""
    ecart = "simple" if policy == "random" else "expert"
    cfg = RunConfig(players=players, policy=policy, ecart_policy=ecart).to_array()
    key = run_key(1)
    with using_threads(threads):
        return best_rate(lambda: play(0, deals, key, cfg), deals, repeats=repeats)


def stage_rate(stage: int, deals: int, *, threads: int = 1, repeats: int = 3) -> float:
    """Deals per second of a stage-isolated kernel (``kernels.baseline.STAGE_*``)."""
    from tarotsim.kernels.baseline import run_stage

    cfg = RunConfig().to_array()
    key = run_key(1)
    out = np.zeros(deals, dtype=np.int64)
    with using_threads(threads):
        return best_rate(lambda: run_stage(stage, deals, key, cfg, out), deals, repeats=repeats)


def reference_rate(deals: int) -> float:
    """Complete random deals per second of the pure-Python rules in ``tests/reference.py``."""
    import random

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if root not in sys.path:
        sys.path.insert(0, root)
    from tests.reference import play_random_deal

    rng = random.Random(1)
    started = time.perf_counter()
    for deal in range(deals):
        play_random_deal(rng, dealer=deal % 4, deal=deal)
    return deals / (time.perf_counter() - started)


def startup_seconds(*, cold: bool) -> float:
    """Seconds from starting Python to the first simulated deal, with an empty (cold) or a
    warm on-disk compilation cache."""
    code = "import tarotsim; tarotsim.simulate(1, seed=1, threads=1)"
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as cache:
        env["NUMBA_CACHE_DIR"] = cache
        runs = 1 if cold else 2
        seconds = 0.0
        for _ in range(runs):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True, env=env)
            seconds = time.perf_counter() - started
        return seconds


def machine() -> dict[str, str]:
    """Machine and versions the figures were measured on."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    from tarotsim import __version__

    return {
        "cpu": cpu,
        "cores": str(os.cpu_count()),
        "numba threads": str(numba.config.NUMBA_NUM_THREADS),
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": np.__version__,
        "tarotsim": __version__,
    }


def headline(*, deals: int = 400_000) -> list[Measure]:
    """The figures ``tarotsim bench`` prints: engine rates on one and on all threads, and
    the bare playout loop for scale. Takes well under a minute on two cores."""
    from tarotsim.kernels.baseline import STAGE_PLAYOUT

    most = numba.config.NUMBA_NUM_THREADS
    out = []
    for policy in ("random", "heuristic"):
        one = engine_rate(deals, policy=policy, threads=1)
        out.append(Measure(f"{policy} complete deals", one, "deals/s", 1))
        if most > 1:
            every = engine_rate(deals, policy=policy, threads=most)
            out.append(Measure(f"{policy} complete deals", every, "deals/s", most))
            out.append(Measure(f"{policy} scaling, {most} threads / 1", every / one, "x", most))
    bare = stage_rate(STAGE_PLAYOUT, deals, threads=1)
    out.append(Measure("bare playout loop", bare, "deals/s", 1))
    out.append(Measure("random engine / bare playout", out[0].value / bare, "fraction", 1))
    return out
