"""Measuring speed on a machine others share: interleaved rounds, medians, spreads, pair ratios.

A figure timed alone on a shared machine says as much about the neighbours' load as about
the code. So the figures being compared are timed in rounds: each round times every
figure once, in order in even rounds and in reverse order in odd ones (A B C, C B A, …),
so a slow spell of the machine falls on all of them alike. A figure is reported as the
median and the range (min–max) of its rounds, and a ratio of two figures from the pairs
timed in the same round, moments apart. Every figure runs once untimed first (JIT load,
first use of memory).

Used by ``tarotsim bench`` (:func:`headline`: the four headline figures in under a
minute) and by ``benchmarks/bench_engine.py`` (the full suite that writes ``reports/``).
"""

from __future__ import annotations

import gc
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numba
import numpy as np

from tarotsim.config import RunConfig
from tarotsim.kernels.state import N_REC
from tarotsim.run.engine import check_threads, play, using_threads
from tarotsim.run.seeding import run_key

HEADLINE_DEALS = 100_000
"""Deals per timed run of ``tarotsim bench``."""
HEADLINE_REPEATS = 9
"""Rounds of ``tarotsim bench``: with the four figures, about 20 s on an idle 2-core machine."""
HEADLINE_FIGURES: dict[str, str] = {
    "random": "random play (engine)",
    "heuristic": "heuristic play (engine)",
    "bare": "bare playout loop",
    "simulate": "simulate(), random play",
}
"""The figures of ``tarotsim bench``: key of the JSON output → what it measures."""
HEADLINE_RATIOS: tuple[tuple[str, str], ...] = (
    ("heuristic", "random"),
    ("random", "bare"),
    ("simulate", "random"),
)
"""The ratios of ``tarotsim bench``, each from the pairs of one round."""
CPU_TICK = 1e-6
"""Least CPU time (s) a timed run is taken to use, so that a run too short for the clock
has a finite rate."""
SEED = 1
"""Seed of every measured run: each figure plays the same deals in every round."""
STAGES: tuple[tuple[str, str], ...] = (
    ("deal", "the deal's stream, the shuffle and the deal, the table made ready, the petit-sec check"),
    ("bid", "the auction: each seat's wished contract"),
    ("écart", "the contract taken: the call (5 players), the chien and the écart, the count started"),
    (
        "moves",
        "every card: its legal set, out of the hand, the suit led and highest trump (lowest legal card)",
    ),
    (
        "knowledge",
        "what the play step keeps for the policies (put_card: cards played, voids, trick winner, worth, Petit)",
    ),
    ("count", "each trick counted; its winner leads the next (end_trick)"),
    ("play", "the policies' choices and poignées in place of the lowest legal card"),
    ("score", "the result and every seat's score (settle_deal)"),
    ("records", "the record row (the taker's hand, the others' wished contracts), the log, the copy out"),
)
"""The stages of ``kernels.stages`` in play order (index = ``STAGE_*`` code): name, what each adds."""


@dataclass(frozen=True)
class Work:
    """Something to time: ``run()`` does the work of ``deals`` deals."""

    run: Callable[[], object]
    deals: int


CONFIDENCE = 0.95
"""Confidence level of the interval given with every median (``Spread.low``, ``Spread.high``)."""


def median_interval(values: np.ndarray, confidence: float = CONFIDENCE) -> tuple[float, float] | None:
    """A distribution-free confidence interval of the median of ``values``: the order
    statistics of ``scipy.stats.quantile_test`` (exact binomial), valid when the values
    are independent draws of one distribution. ``None`` when there are too few values
    for one (under 6 at 95%)."""
    from scipy.stats import quantile_test

    values = np.asarray(values, dtype=np.float64)
    interval = quantile_test(values, q=float(np.median(values))).confidence_interval(confidence)
    low, high = float(interval.low), float(interval.high)
    if not (np.isfinite(low) and np.isfinite(high)):
        return None
    return low, high


@dataclass(frozen=True)
class Spread:
    """Median and range (min–max) of a figure over ``repeats`` measurements, and the
    ``CONFIDENCE`` interval of the median (``low``–``high``, ``None`` with too few)."""

    median: float
    min: float
    max: float
    repeats: int
    low: float | None = None
    high: float | None = None

    @classmethod
    def of(cls, values: Sequence[float] | np.ndarray) -> Spread:
        """The spread of ``values`` (at least one)."""
        values = np.asarray(values, dtype=np.float64)
        if values.size == 0:
            raise ValueError("a spread needs at least one measurement")
        interval = median_interval(values)
        low, high = (None, None) if interval is None else interval
        return cls(
            float(np.median(values)), float(values.min()), float(values.max()), int(values.size), low, high
        )

    def as_dict(self) -> dict[str, float | int]:
        """``{"median", "min", "max", "repeats"}``, ready for JSON."""
        return {"median": self.median, "min": self.min, "max": self.max, "repeats": self.repeats}


@dataclass(frozen=True)
class Rounds:
    """Deals per second of each figure in each round of one interleaved measurement.

    ``rates[name]`` is float64[repeats], deals per second of wall-clock time, round by
    round: index ``r`` of every figure was timed in the same round. ``cpu[name]``, where
    measured, is the same per second of the process's CPU time (``time.process_time``, all
    its threads): the time it ran, which other work on the cores does not stretch.
    """

    rates: dict[str, np.ndarray]
    cpu: dict[str, np.ndarray] | None = None

    def on_cpu(self) -> Rounds:
        """The same rounds with deals per CPU second as their rates.

        Raises
        ------
        ValueError
            If the CPU time was not measured.
        """
        if self.cpu is None:
            raise ValueError("these rounds were timed by the wall clock only")
        return Rounds(self.cpu)

    def spread(self, name: str) -> Spread:
        """Deals per second of figure ``name``: median and min–max over the rounds."""
        return Spread.of(self.rates[name])

    def ratio(self, numerator: str, denominator: str) -> Spread:
        """``numerator / denominator`` deals per second, from the pairs of each round."""
        return Spread.of(self.rates[numerator] / self.rates[denominator])

    def cost_ns(self, name: str, less: str | None = None) -> Spread:
        """Nanoseconds per deal of figure ``name``, less those of figure ``less`` (a stage
        that ``name`` includes) in the same round: the cost of what ``name`` adds."""
        cost = 1e9 / self.rates[name]
        if less is not None:
            cost = cost - 1e9 / self.rates[less]
        return Spread.of(cost)

    def share(self, name: str, less: str | None, whole: str) -> Spread:
        """What ``cost_ns(name, less)`` is as a share (0–1) of the nanoseconds per deal of
        figure ``whole``, round by round."""
        cost = 1 / self.rates[name]
        if less is not None:
            cost = cost - 1 / self.rates[less]
        return Spread.of(cost * self.rates[whole])


def interleave(works: Mapping[str, Work], *, repeats: int) -> Rounds:
    """Time every work of ``works`` once per round, for ``repeats`` rounds, in alternating
    order (A B C, C B A, …), after one untimed run of each, by the wall clock and by the
    process's CPU time (``Rounds.rates``, ``Rounds.on_cpu``).

    Raises
    ------
    ValueError
        If ``repeats`` is under 1 or there is nothing to time.
    """
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}")
    if not works:
        raise ValueError("nothing to time")
    names = list(works)
    for name in names:
        works[name].run()
    seconds = {name: np.zeros(repeats) for name in names}
    cpu = {name: np.zeros(repeats) for name in names}
    for index in range(repeats):
        for name in names if index % 2 == 0 else reversed(names):
            gc.collect()
            started, cpu_started = time.perf_counter(), time.process_time()
            works[name].run()
            seconds[name][index] = time.perf_counter() - started
            cpu[name][index] = time.process_time() - cpu_started
    return Rounds(
        {name: works[name].deals / seconds[name] for name in names},
        {name: works[name].deals / np.maximum(cpu[name], CPU_TICK) for name in names},
    )


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
            play(0, deals, key, cfg)

    return Work(run, deals)


def stage_work(stage: int, deals: int, *, policy: str = "random", players: int = 4, threads: int = 1) -> Work:
    """Deals played up to ``stage`` (``kernels.stages.STAGE_*``) with ``policy`` card play and
    its écart, as in ``engine_work``."""
    from tarotsim.kernels.stages import run_stage

    cfg = _engine_cfg(policy, players)
    key = run_key(SEED)
    out = np.zeros((deals, N_REC), dtype=np.int32)

    def run() -> None:
        with using_threads(threads):
            run_stage(stage, key, cfg, out)

    return Work(run, deals)


def playout_work(deals: int, *, threads: int = 1) -> Work:
    """Deals of the bare playout loop (``kernels.baseline``), 4 players."""
    from tarotsim.kernels.baseline import run_playout

    cfg = RunConfig().to_array()
    key = run_key(SEED)
    out = np.zeros(deals, dtype=np.int64)

    def run() -> None:
        with using_threads(threads):
            run_playout(deals, key, cfg, out)

    return Work(run, deals)


def simulate_work(deals: int, *, threads: int = 1) -> Work:
    """Random play through the public ``simulate()``: the engine's deals and their DataFrame."""
    from tarotsim.simulate import simulate

    return Work(
        lambda: simulate(
            deals, seed=SEED, threads=threads, progress=False, policy="random", ecart_policy="simple"
        ),
        deals,
    )


def records_work(deals: int) -> Work:
    """Turning the record array of ``deals`` random deals into their DataFrame (``to_frame``)."""
    from tarotsim.run.records import to_frame

    rec = play(0, deals, run_key(SEED), _engine_cfg("random", 4))
    return Work(lambda: to_frame(rec, 0, 4), deals)


def chunk_write_work(deals: int, folder: str | os.PathLike[str]) -> Work:
    """Writing the records of ``deals`` random deals as one Parquet chunk into ``folder``,
    a scratch run directory (``run.store.write_chunk``)."""
    from tarotsim.run.records import to_frame
    from tarotsim.run.store import CHUNKS, write_chunk

    frame = to_frame(play(0, deals, run_key(SEED), _engine_cfg("random", 4)), 0, 4)
    (Path(folder) / CHUNKS).mkdir(parents=True, exist_ok=True)
    return Work(lambda: write_chunk(folder, 0, frame), deals)


def reference_work(deals: int) -> Work:
    """Complete random deals played by the pure-Python rules of ``tests/reference.py``
    (needs the source tree)."""
    import random

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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


def cpu_name() -> str:
    """The processor's model name (from ``/proc/cpuinfo`` where there is one)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> dict[str, Any]:
    """The machine, its load (processes running or waiting for a core, averaged over the
    last minute) and the versions the figures were measured with."""
    from tarotsim.run.store import versions

    return {
        "cpu": cpu_name(),
        "cores": os.cpu_count(),
        "numba_threads": numba.config.NUMBA_NUM_THREADS,  # type: ignore[attr-defined]
        "load_average": round(os.getloadavg()[0], 2),
        "versions": versions(),
    }


@dataclass(frozen=True)
class Headline:
    """The figures of ``tarotsim bench``: ``rounds`` of ``deals`` deals per timed run on
    ``threads`` threads, and the machine they were measured on."""

    rounds: Rounds
    deals: int
    threads: int
    machine: dict[str, Any]

    def as_json(self) -> dict[str, Any]:
        """One JSON-ready object: deals/s of each of ``HEADLINE_FIGURES`` as
        ``{"median", "min", "max", "repeats"}``, the ``HEADLINE_RATIOS`` from the pairs,
        the CPU, thread count, load average at the start, deals per run and versions."""
        out: dict[str, Any] = {
            "cpu": self.machine["cpu"],
            "cores": self.machine["cores"],
            "threads": self.threads,
            "load_average": self.machine["load_average"],
            "deals": self.deals,
            "unit": "deals/s",
        }
        for name in HEADLINE_FIGURES:
            out[name] = self.rounds.spread(name).as_dict()
        out["ratios"] = {f"{a}/{b}": self.rounds.ratio(a, b).as_dict() for a, b in HEADLINE_RATIOS}
        out["versions"] = self.machine["versions"]
        return out

    def text(self) -> str:
        """The same figures as lines of text, each with its spread."""
        versions = ", ".join(f"{name} {version}" for name, version in self.machine["versions"].items())
        repeats = next(iter(self.rounds.rates.values())).size
        lines = [
            f"{self.machine['cpu']} ({self.machine['cores']} cores), {self.threads} thread{'s' * (self.threads != 1)}; "
            f"load average {self.machine['load_average']} at the start",
            versions,
            f"{repeats} interleaved round{'s' * (repeats != 1)} of {self.deals:,} deals per figure: median (min–max)",
        ]
        for name, label in HEADLINE_FIGURES.items():
            s = self.rounds.spread(name)
            lines.append(f"  {label:<26} {s.median:>11,.0f} deals/s  ({s.min:,.0f}–{s.max:,.0f})")
        for a, b in HEADLINE_RATIOS:
            s = self.rounds.ratio(a, b)
            lines.append(
                f"  {a + ' / ' + b:<26} {s.median:>11.2f}          ({s.min:.2f}–{s.max:.2f}, same-round pairs)"
            )
        return "\n".join(lines)


def headline_works(deals: int, *, threads: int = 1) -> dict[str, Work]:
    """The works of ``HEADLINE_FIGURES``: 4 players, ``deals`` deals each on ``threads`` threads."""
    return {
        "random": engine_work(deals, policy="random", threads=threads),
        "heuristic": engine_work(deals, policy="heuristic", threads=threads),
        "bare": playout_work(deals, threads=threads),
        "simulate": simulate_work(deals, threads=threads),
    }


def headline(*, deals: int = HEADLINE_DEALS, repeats: int = HEADLINE_REPEATS, threads: int = 1) -> Headline:
    """Measure the figures of ``tarotsim bench`` in ``repeats`` interleaved rounds.

    Parameters
    ----------
    deals
        Deals per timed run of each figure (>= 1).
    repeats
        Rounds (>= 1); every figure is timed once per round.
    threads
        Threads every figure runs on (1 to Numba's thread count).

    Raises
    ------
    ValueError
        For a count under 1, or more threads than Numba may start.
    """
    if deals < 1:
        raise ValueError(f"deals must be at least 1, got {deals}")
    threads = check_threads(threads)
    info = machine()
    rounds = interleave(headline_works(deals, threads=threads), repeats=repeats)
    return Headline(rounds, deals, threads, info)
