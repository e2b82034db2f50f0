"""Duplicate duels: strategy A against strategy B on the same deals, seats rotated.

Every deal is played ``players`` times on the same cards and with the same random stream:
strategy A in seat k and B in every other seat, k = 0 … players − 1. Luck cancels: each
seat's cards are played once by A and ``players − 1`` times by B. A's **edge** on a deal is
its mean score over the rotations (game points per deal); A = B gives an edge of exactly 0
on every deal, the scores being zero-sum. A duel is a run of kind ``"duel"``
(`RunSpec`), so it is made in memory or in a resumable run
directory, on threads or Dask workers, with the same records; the statistics are
`tarotsim.analysis.duel.duel_stats`.

A duel **until decided** (``until_decided``) plays its deals a batch of ``look_every`` at a
time and stops after the first batch where a sequential test of A's edge is decided
(`tarotsim.analysis.sequential`); ``deals`` is then its cap. Batches are chunks of the run, so
the same seed gives the same stopping point and the same records, in memory or in a run
directory, which then holds a finished run of the deals played.
"""

from __future__ import annotations

import os
import time
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from tarotsim.analysis.duel import deal_edges, duel_stats
from tarotsim.analysis.sequential import FOR_A, FOR_B, NOT_DECIDED, Looks, Sprt
from tarotsim.analysis.tables import interval_text, number_text
from tarotsim.base.defaults import LOOK_EVERY
from tarotsim.base.notices import compile_notices
from tarotsim.base.seeding import SeedLike, resolve_seed
from tarotsim.engine.labels import check_players
from tarotsim.players.config import RunConfig, check_count
from tarotsim.players.strategy import Strategy, to_strategy
from tarotsim.runs.runner import show_progress, using_threads
from tarotsim.runs.spec import DEFAULT_CHUNK_DEALS, RunSpec

if TYPE_CHECKING:
    from tarotsim.runs.store import Run

INTERVAL = "normal approximation over deals"
"""How the intervals of a duel are made (`tarotsim.analysis.duel`)."""


@dataclass(frozen=True)
class Decision:
    """What the sequential test of a duel until decided concluded.

    Attributes
    ----------
    test : Sprt
        The test: its edges of H0 and H1 and its error rates.
    verdict : str
        ``"A"`` (H1 accepted: A's edge is ``test.edge1`` or more), ``"B"`` (H0 accepted:
        A's edge is ``test.edge0`` or less; an edge between the two may end either way) or
        ``"not decided"`` (the cap was reached first).
    llr : float
        The log-likelihood ratio at the last look.
    looks : int
        Looks taken, one after each batch of deals.
    look_every, cap : int
        Deals per batch, and the most deals the duel would play (its ``deals``).
    """

    test: Sprt
    verdict: str
    llr: float
    looks: int
    look_every: int
    cap: int

    def text(self, deals: int) -> str:
        """The verdict in a sentence, after ``deals`` deals."""
        test = self.test
        said = {
            FOR_A: f"decided for A: H1, A's edge >= {test.edge1:g}, accepted over H0, <= {test.edge0:g}",
            FOR_B: f"decided for B: H0, A's edge <= {test.edge0:g}, accepted over H1, >= {test.edge1:g}",
            NOT_DECIDED: f"not decided after {self.cap:,} deals, the cap",
        }[self.verdict]
        return (
            f"{said} (sequential test after {deals:,} deals, {self.looks} look{'s' if self.looks != 1 else ''} of {self.look_every:,}; "
            f"LLR {self.llr:+.2f}, bounds {test.lower:+.2f} and {test.upper:+.2f}; error rates alpha {test.alpha:g}, "
            f"beta {test.beta:g}; edges in points per deal)"
        )


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
        ``tarotsim.engine.records``.
    decision : Decision or None
        The sequential test's verdict, for a duel until decided; None for a duel of a
        fixed number of deals.
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
    decision: Decision | None = None

    @staticmethod
    def from_records(
        records: pd.DataFrame,
        a: Strategy | str,
        b: Strategy | str,
        *,
        players: int,
        seed: int,
        decision: Decision | None = None,
    ) -> DuelResult:
        """The result of a duel whose records are ``records`` (``decision``: its sequential test's, if any)."""
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
            decision,
        )

    @staticmethod
    def from_run(directory: str | os.PathLike[str]) -> DuelResult:
        """The result of the finished duel in the run directory ``directory``.

        Raises
        ------
        ValueError
            If ``directory`` holds no finished run, or a run that is not a duel.
        """
        from tarotsim.runs import store

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
        """A few lines: the strategies, the table, A's edge with its interval, and the verdict
        of a duel until decided."""
        verdict = "" if self.decision is None else f"\n{self.decision.text(self.n)}"
        return (
            f"A: {self.a.description}\nB: {self.b.description}\n"
            f"{self.players} players, {self.n:,} deals, each played {self.players} times (A in each seat), "
            f"seed {self.seed}\n"
            f"A's edge: {number_text(self.edge, '+.2f')} points per deal, 95% interval {interval_text(self.low, self.high, '+.2f')} "
            f"({INTERVAL})"
            f"{verdict}"
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


def check_sprt(until_decided: object) -> Sprt:
    """The sequential test of ``until_decided``: a `Sprt`, or a pair ``(edge0, edge1)``
    tested at the error rates 0.05.

    Raises
    ------
    ValueError, TypeError
        For anything else, or a bad test.
    """
    if isinstance(until_decided, Sprt):
        return until_decided
    if isinstance(until_decided, tuple) and len(until_decided) == 2:
        return Sprt(*until_decided)
    raise TypeError(
        f"until_decided is a Sprt or a pair (edge0, edge1) in points per deal, got {until_decided!r}"
    )


def _play_until_decided(
    spec: RunSpec, test: Sprt, run: Run | None, *, worker: str, progress: bool
) -> tuple[int, Decision, list[pd.DataFrame]]:
    """Play ``spec``'s chunks in order, looking after each, until the test is decided or the
    chunks run out; with ``run``, chunks it holds are read, the others made and saved (by
    ``worker``, as its manifest says). Returns the deals played, the decision and the
    chunks' records."""
    from tarotsim.runs.manifest import chunk_path

    looks = Looks(test)
    frames = []
    verdict = None
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=spec.deals, unit="deal", unit_scale=True, desc="duel until decided")
    try:
        for index in range(spec.n_chunks):
            if run is not None and str(index) in run.manifest["chunks"]:
                frame = pd.read_parquet(chunk_path(run.directory, index))
            else:
                started = time.perf_counter()
                frame = spec.compute_chunk(index)
                if run is not None:
                    run.save_chunk(index, frame, worker=worker, seconds=time.perf_counter() - started)
            frames.append(frame)
            if bar is not None:
                bar.update(spec.chunk_range(index)[1])
            verdict = looks.add(deal_edges(frame, spec.config.players))
            if verdict is not None:
                break
    finally:
        if bar is not None:
            bar.close()
    decision = Decision(test, verdict or NOT_DECIDED, looks.llr, looks.looks, spec.chunk_deals, spec.deals)
    return looks.n, decision, frames


def _until_decided(
    spec: RunSpec,
    test: Sprt,
    out: str | os.PathLike[str] | None,
    *,
    threads: int | None,
    progress: bool | None,
) -> DuelResult:
    """A duel until decided: the deals played and the verdict; ``out`` then holds the run of
    the deals played (and of the finished chunks that follow them, made before)."""
    from tarotsim.runs.store import Run, load_records

    a, b = spec.duel
    shown = show_progress(progress, spec.deals, spec.progress_step)
    with (
        using_threads(threads) as count,
        compile_notices(progress is not False),
        Run(out, spec) if out is not None else nullcontext() as run,
    ):
        played, decision, frames = _play_until_decided(
            spec, test, run, worker=f"local:{count}-threads", progress=shown
        )
        if run is not None:
            end = played
            while end < spec.deals and str(end // spec.chunk_deals) in run.manifest["chunks"]:
                end += spec.chunk_range(end // spec.chunk_deals)[1]
            if end < spec.deals:
                run.end_at(end)
            run.finish()
    if out is None:
        records = pd.concat(frames, ignore_index=True)
    else:
        records = load_records(out)
        records = records[records["deal"] < played].reset_index(drop=True)
    return DuelResult.from_records(
        records, a, b, players=spec.config.players, seed=spec.seed, decision=decision
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
    until_decided: Sprt | tuple[float, float] | None = None,
    look_every: int = LOOK_EVERY,
    progress: bool | None = None,
) -> DuelResult:
    """Duel strategy ``a`` against ``b`` on ``deals`` deals, each played once with A in each seat.

    Parameters
    ----------
    a, b
        The strategies (a [`Strategy`][tarotsim.players.strategy.Strategy] or its spec, such as
        ``"play=heuristic,ecart=expert"``): A is rotated through the seats, B plays the others.
    deals
        Number of deals (>= 1); the records hold ``deals * players`` rows. With
        ``until_decided``, the most deals to play.
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
        (`tarotsim.runs.distributed.execute_distributed`).
    chunk_deals
        Deals per chunk of ``out`` (a duel until decided makes chunks of ``look_every``).
    until_decided
        Stop as soon as this sequential test of A's edge is decided: a
        [`Sprt`][tarotsim.analysis.sequential.Sprt], or ``(edge0, edge1)`` (points per
        deal) at error rates of 0.05. The test looks after each ``look_every`` deals; the
        result's ``decision`` holds its verdict. Not on Dask.
    look_every
        Deals between two looks of ``until_decided`` (the chunks of ``out``).
    progress
        Show a progress bar (default: on a terminal, for long duels). ``False`` also hides
        the notice said once on stderr when the kernels must be compiled first.

    Returns
    -------
    DuelResult
        A's edge with its interval, its breakdowns and the records; with ``until_decided``,
        those of the deals played and the test's ``decision``.

    Raises
    ------
    ValueError, TypeError
        For a bad strategy or spec, no deal, a bad table size, a strategy that cannot be
        played at it, Dask options without ``out``, ``threads`` with Dask options, a bad
        ``until_decided``, or Dask options, ``chunk_deals`` or ``look_every`` where they
        do not apply.
    """
    deals = check_count(deals, "deals", minimum=1)
    distributed = scheduler is not None or workers is not None
    if until_decided is not None:
        test = check_sprt(until_decided)
        if distributed:
            raise ValueError("a duel until decided runs on this machine's threads, not on Dask")
        if chunk_deals != DEFAULT_CHUNK_DEALS:
            raise ValueError(
                "a duel until decided makes chunks of look_every deals: give look_every, not chunk_deals"
            )
        look_every = check_count(look_every, "look_every", minimum=1)
        spec = duel_spec(a, b, deals, seed=resolve_seed(seed), players=players, chunk_deals=look_every)
        return _until_decided(spec, test, out, threads=threads, progress=progress)
    if look_every != LOOK_EVERY:
        raise ValueError("look_every goes with until_decided, the test it looks at")
    in_memory = out is None
    spec = duel_spec(
        a, b, deals, seed=resolve_seed(seed), players=players, chunk_deals=deals if in_memory else chunk_deals
    )
    a, b = spec.duel
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
        from tarotsim.runs.distributed import execute_distributed

        execute_distributed(
            out, spec, scheduler=scheduler, workers=workers, write_on=write_on, progress=bool(progress)
        )
    else:
        from tarotsim.runs.store import execute

        execute(out, spec, threads=threads, progress=bool(progress))
    return DuelResult.from_run(Path(out))
