"""Duplicate duels: strategy A against strategy B on the same deals, seats rotated.

Every deal is played ``players`` times on the same cards and with the same random stream:
strategy A in seat k and B in every other seat, k = 0 … players − 1. Luck cancels: each
seat's cards are played once by A and ``players − 1`` times by B. A's **edge** on a deal is
its mean score over the rotations (game points per deal); A = B gives an edge of exactly 0
on every deal, the scores being zero-sum. A duel is a run of kind ``"duel"``
(`RunSpec`), so it is made in memory or in a resumable run
directory, on threads or Dask workers, with the same records; the statistics are
`tarotsim.analysis.duel.duel_stats`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from tarotsim.analysis.duel import duel_stats
from tarotsim.analysis.tables import interval_text, number_text
from tarotsim.config import RunConfig, check_count, check_players
from tarotsim.run.compiling import compile_notices
from tarotsim.run.engine import show_progress, using_threads
from tarotsim.run.seeding import SeedLike, resolve_seed
from tarotsim.run.spec import DEFAULT_CHUNK_DEALS, RunSpec
from tarotsim.strategy import Strategy, to_strategy

INTERVAL = "normal approximation over deals"
"""How the intervals of a duel are made (`tarotsim.analysis.duel`)."""


@dataclass(frozen=True, eq=False)
class DuelResult:
    """What a duel found: A's edge over B with its interval, and where it comes from.

    Attributes
    ----------
    a, b : Strategy
        The strategies: A, rotated through the seats, and B in the other seats.
    players, seed : int
        The table size and the seed used.
    n : int
        Deals (each played ``players`` times).
    edge, low, high : float
        A's mean score per deal over the rotations (game points per deal), and its 95 %
        interval (`INTERVAL`). Positive: A scores more than B would in its seat.
    by_role : pandas.DataFrame
        A's count, rate and mean score as taker, as partner (5 players), as defender and
        on thrown-in deals, against B's rate and mean score per seat, and their difference,
        with intervals (`duel_stats`).
    by_contract : pandas.DataFrame
        How often A and B take each contract, their success rates and mean taker scores.
    records : pandas.DataFrame
        One row per deal and rotation (``a_seat``: A's seat), the record columns of
        ``tarotsim.run.records``.
    """

    a: Strategy
    b: Strategy
    players: int
    seed: int
    n: int
    edge: float
    low: float
    high: float
    by_role: pd.DataFrame
    by_contract: pd.DataFrame
    records: pd.DataFrame

    @staticmethod
    def from_records(
        records: pd.DataFrame, a: Strategy | str, b: Strategy | str, *, players: int, seed: int
    ) -> DuelResult:
        """The result of a duel whose records are ``records``."""
        stats = duel_stats(records, players)
        return DuelResult(
            to_strategy(a),
            to_strategy(b),
            players,
            seed,
            stats.n,
            stats.edge,
            stats.low,
            stats.high,
            stats.by_role,
            stats.by_contract,
            records,
        )

    @staticmethod
    def from_run(directory: str | os.PathLike[str]) -> DuelResult:
        """The result of the finished duel in the run directory ``directory``.

        Raises
        ------
        ValueError
            If ``directory`` holds no finished run, or a run that is not a duel.
        """
        from tarotsim.run import store

        run = store.read_manifest(directory)["run"]
        if run["kind"] != "duel":
            raise ValueError(f"{str(directory)!r} holds a {run['kind']} run, not a duel")
        spec = RunSpec.from_identity(run)
        a, b = spec.duel
        return DuelResult.from_records(
            store.load_records(directory), a, b, players=spec.config.players, seed=spec.seed
        )

    def __repr__(self) -> str:
        return (
            f"DuelResult(a={str(self.a)!r}, b={str(self.b)!r}, players={self.players}, n={self.n}, "
            f"seed={self.seed}, edge={self.edge:+.2f}, interval=({self.low:+.2f}, {self.high:+.2f}))"
        )

    def summary(self) -> str:
        """A few lines: the strategies, the table, and A's edge with its interval."""
        return (
            f"A: {self.a.description}\nB: {self.b.description}\n"
            f"{self.players} players, {self.n:,} deals, each played {self.players} times (A in each seat), "
            f"seed {self.seed}\n"
            f"A's edge: {number_text(self.edge, '+.2f')} points per deal, 95% interval {interval_text(self.low, self.high, '+.2f')} "
            f"({INTERVAL})"
        )


def duel_spec(
    a: Strategy | str,
    b: Strategy | str,
    deals: int,
    *,
    seed: int,
    players: int = 4,
    chunk_deals: int = DEFAULT_CHUNK_DEALS,
) -> RunSpec:
    """The run of a duel of ``deals`` deals (chunks of ``chunk_deals`` deals on disk).

    Raises
    ------
    ValueError, TypeError
        For a bad strategy or spec, no deal, a table size other than 3, 4 or 5, or a
        strategy that cannot be played at that table size.
    """
    deals = check_count(deals, "deals", minimum=1)
    players = check_players(players)
    pair = []
    for name, strategy in (("A", a), ("B", b)):
        try:
            pair.append(to_strategy(strategy))
        except ValueError as err:
            raise ValueError(f"strategy {name}: {err}") from None
    return RunSpec(
        kind="duel",
        seed=seed,
        deals=deals,
        config=RunConfig(players=players),
        chunk_deals=chunk_deals,
        duel=tuple(pair),
    )


def duel(
    a: Strategy | str,
    b: Strategy | str,
    deals: int,
    *,
    seed: SeedLike,
    players: int = 4,
    threads: int | None = None,
    out: str | os.PathLike[str] | None = None,
    scheduler: str | None = None,
    workers: int | None = None,
    write_on: str = "workers",
    chunk_deals: int = DEFAULT_CHUNK_DEALS,
    progress: bool | None = None,
) -> DuelResult:
    """Duel strategy ``a`` against ``b`` on ``deals`` deals, each played once with A in each seat.

    Parameters
    ----------
    a, b
        The strategies (a [`Strategy`][tarotsim.strategy.Strategy] or its spec, such as
        ``"play=heuristic,ecart=expert"``): A is rotated through the seats, B plays the others.
    deals
        Number of deals (>= 1); the records hold ``deals * players`` rows.
    seed
        As for `tarotsim.simulate`; the same seed gives the same result whatever the
        threads, chunks or workers.
    players
        Table size: 3, 4 or 5.
    threads
        Threads to use on this machine (default: all that Numba may start); not with Dask.
    out
        A run directory for the records (resumable: the same call finishes an interrupted
        duel); None keeps them in memory.
    scheduler, workers, write_on
        Make the chunks of ``out`` on a Dask cluster, as ``tarotsim simulate --out`` does
        (`tarotsim.run.distributed.execute_distributed`).
    chunk_deals
        Deals per chunk of ``out``.
    progress
        Show a progress bar (default: on a terminal, for long duels). ``False`` also hides
        the notice said once on stderr when the kernels must be compiled first.

    Returns
    -------
    DuelResult
        A's edge with its interval, its breakdowns and the records.

    Raises
    ------
    ValueError, TypeError
        For a bad strategy or spec, no deal, a bad table size, a strategy that cannot be
        played at it, Dask options without ``out``, or ``threads`` with Dask options.
    """
    deals = check_count(deals, "deals", minimum=1)
    in_memory = out is None
    spec = duel_spec(
        a, b, deals, seed=resolve_seed(seed), players=players, chunk_deals=deals if in_memory else chunk_deals
    )
    a, b = spec.duel
    distributed = scheduler is not None or workers is not None
    if distributed and out is None:
        raise ValueError(
            "a duel on Dask (scheduler or workers) needs out, the run directory its chunks go to"
        )
    if distributed and threads is not None:
        raise ValueError("threads is for local duels; a Dask worker runs one chunk per thread")
    if out is None:
        with using_threads(threads), compile_notices(progress is not False):
            records = spec.compute_chunk(0, progress=show_progress(progress, deals, spec.progress_step))
        return DuelResult.from_records(records, a, b, players=spec.config.players, seed=spec.seed)
    if distributed:
        from tarotsim.run.distributed import execute_distributed

        execute_distributed(
            out, spec, scheduler=scheduler, workers=workers, write_on=write_on, progress=bool(progress)
        )
    else:
        from tarotsim.run.store import execute

        execute(out, spec, threads=threads, progress=bool(progress))
    return DuelResult.from_run(Path(out))
