"""The figures of ``tarotsim bench``: the engine with random and heuristic play, the bare
playout loop and ``simulate()``, timed in interleaved rounds in under a minute
(`headline`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tarotsim.bench.timing import Rounds, Work, interleave, machine

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
    from tarotsim.bench.works import engine_work, playout_work, simulate_work

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
    from tarotsim.players.config import check_threads

    threads = check_threads(threads)
    info = machine()
    rounds = interleave(headline_works(deals, threads=threads), repeats=repeats)
    return Headline(rounds, deals, threads, info)
