"""The work that the benchmarks time, each a ``timing.Work``: the engine's deals, a deal
stopped after a stage (``bench.stages``), the bare playout loop (``bench.baseline``),
``simulate()``, records and Parquet chunks, the pure-Python rules, the start-up.

Every work plays the deals of one seed (``SEED``), so each figure plays the same deals in
every round.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Collection, Mapping
from pathlib import Path

import numpy as np

from tarotsim.base.seeding import run_key
from tarotsim.bench.timing import Work
from tarotsim.engine.kernels.state import N_REC
from tarotsim.players.config import RunConfig
from tarotsim.players.strategy import Strategy
from tarotsim.runs.runner import play_deals, using_threads

SEED = 1
"""Seed of every measured run: each figure plays the same deals in every round."""


def _engine_cfg(policy: str, players: int) -> np.ndarray:
    """The run configuration of a measured figure: ``policy`` card play, with the simple écart
    for random play and the expert one otherwise."""
    ecart = "simple" if policy == "random" else "expert"
    return RunConfig(players=players, policy=policy, ecart_policy=ecart).to_array()


def engine_work(deals: int, *, policy: str = "random", players: int = 4, threads: int = 1) -> Work:
    """Complete deals of the engine with ``policy`` card play (the simple écart for random
    play, the expert one otherwise); thrown-in deals count, as in a real run."""
    cfg = _engine_cfg(policy, players)
    key = run_key(SEED)

    def run() -> None:
        with using_threads(threads):
            play_deals(0, deals, key, cfg)

    return Work(run, deals)


def stage_work(stage: int, deals: int, *, policy: str = "random", players: int = 4, threads: int = 1) -> Work:
    """Deals played up to ``stage`` (``bench.stages.STAGE_*``) with ``policy`` card play and
    its écart, as in ``engine_work``."""
    from tarotsim.bench.stages import run_stage

    cfg = _engine_cfg(policy, players)
    key = run_key(SEED)
    out = np.zeros((deals, N_REC), dtype=np.int32)

    def run() -> None:
        with using_threads(threads):
            run_stage(stage, key, cfg, out)

    return Work(run, deals)


def playout_work(deals: int, *, threads: int = 1) -> Work:
    """Deals of the bare playout loop (``bench.baseline``), 4 players."""
    from tarotsim.bench.baseline import run_playout

    cfg = RunConfig().to_array()
    key = run_key(SEED)
    out = np.zeros(deals, dtype=np.int64)

    def run() -> None:
        with using_threads(threads):
            run_playout(deals, key, cfg, out)

    return Work(run, deals)


def simulate_work(deals: int, *, threads: int = 1) -> Work:
    """Random play through the public ``simulate()``: the engine's deals and their DataFrame."""
    from tarotsim.runs.simulate import simulate

    return Work(
        lambda: simulate(
            deals, seed=SEED, threads=threads, progress=False, policy="random", ecart_policy="simple"
        ),
        deals,
    )


def strategy_works(
    specs: Mapping[str, str], *, players: int, seconds: float, seed: int, cheap: Collection[str] = ()
) -> dict[str, Work]:
    """Per name, ``simulate`` with its strategy spec in every seat (one thread, the deals of
    ``seed``) on enough deals to take about ``seconds`` CPU s, sized on a first timed run of 2
    deals (2,000 for the names in ``cheap``) after a run that loads the kernels: the works whose
    CPU times, interleaved (``timing.interleave``), give each strategy's cost per deal."""
    from tarotsim.runs.simulate import simulate

    def work(spec: str, deals: int) -> Work:
        config = RunConfig(players=players, strategies=(Strategy.parse(spec),) * players)
        return Work(lambda: simulate(deals, seed=seed, config=config, threads=1, progress=False), deals)

    sized = {}
    for name, spec in specs.items():
        work(spec, 2).run()  # loads the kernels
        probe = 2_000 if name in cheap else 2
        started = time.process_time()
        work(spec, probe).run()
        per_deal = max(time.process_time() - started, 1e-3) / probe
        sized[name] = work(spec, max(2, round(seconds / per_deal)))
    return sized


def records_work(deals: int) -> Work:
    """Turning the record array of ``deals`` random deals into their DataFrame (``to_frame``)."""
    from tarotsim.engine.records import to_frame

    rec = play_deals(0, deals, run_key(SEED), _engine_cfg("random", 4))
    return Work(lambda: to_frame(rec, 0, 4), deals)


def chunk_write_work(deals: int, folder: str | os.PathLike[str]) -> Work:
    """Writing the records of ``deals`` random deals as one Parquet chunk into ``folder``,
    a scratch run directory (``runs.store.write_chunk``)."""
    from tarotsim.engine.records import to_frame
    from tarotsim.runs.store import CHUNKS, write_chunk

    frame = to_frame(play_deals(0, deals, run_key(SEED), _engine_cfg("random", 4)), 0, 4)
    (Path(folder) / CHUNKS).mkdir(parents=True, exist_ok=True)
    return Work(lambda: write_chunk(folder, 0, frame), deals)


def reference_work(deals: int) -> Work:
    """Complete random deals played by the pure-Python rules of ``tests/reference.py``
    (needs the source tree)."""
    import random

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if root not in sys.path:
        sys.path.insert(0, root)
    from tests.reference import play_random_deal

    def run() -> None:
        rng = random.Random(SEED)
        for deal in range(deals):
            play_random_deal(rng, dealer=deal % 4, deal=deal)

    return Work(run, deals)


def startup_seconds(runs: int) -> list[float]:
    """Seconds from starting Python to the first simulated deal, ``runs`` times in a row
    with one on-disk compilation cache, empty at first: the cold start, then cached ones."""
    code = "import tarotsim; tarotsim.simulate(1, seed=1, threads=1)"
    seconds = []
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for _ in range(runs):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True, env=env)
            seconds.append(time.perf_counter() - started)
    return seconds
