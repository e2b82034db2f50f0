"""Measuring speed on a machine others share: interleaved rounds, medians, spreads, pair ratios.

A figure timed alone on a shared machine says as much about the neighbours' load as about
the code. So the figures being compared are timed in rounds: each round times every
figure once, in order in even rounds and in reverse order in odd ones (A B C, C B A, …),
so a slow spell of the machine falls on all of them alike. A figure is reported as the
median and the range (min–max) of its rounds, and a ratio of two figures from the pairs
timed in the same round, moments apart. Every figure runs once untimed first (JIT load,
first use of memory). ``machine`` says what the figures were measured on.
"""

from __future__ import annotations

import gc
import os
import platform
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

CPU_TICK = 1e-6
"""Least CPU time (s) a timed run is taken to use, so that a run too short for the clock
has a finite rate."""


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
    import numba

    from tarotsim.runs.store import versions

    return {
        "cpu": cpu_name(),
        "cores": os.cpu_count(),
        "numba_threads": numba.config.NUMBA_NUM_THREADS,  # type: ignore[attr-defined]
        "load_average": round(os.getloadavg()[0], 2),
        "versions": versions(),
    }
