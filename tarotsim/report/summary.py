"""What a report reads of a run: every table and tally of it, from one pass over its chunks.

[`summarise_run`][tarotsim.report.summary.summarise_run] puts together the reductions of every table the report shows (success
cells, fitted thresholds, the best contract, hand points, the distributions, the same-play
test, the counts), runs them over the run's chunks once (here, or on Dask workers), and
makes the tables from the merged sums. Memory is that of one batch of records plus the
sums, whatever the size of the run; the tables equal those the functions of
[`tarotsim.analysis`][tarotsim.analysis] make one by one.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, NamedTuple

import pandas as pd

from tarotsim.analysis.best import best_from, best_plan
from tarotsim.analysis.hand_points import (
    BAND_SCALES,
    HAND_POINTS,
    N_BOOT,
    hand_points_plan,
    hand_points_table_from,
    hand_points_thresholds_from,
)
from tarotsim.analysis.loading import check_min_n
from tarotsim.analysis.moments import CellSums, Counts, cell_table, contracts_played
from tarotsim.analysis.reduction import open_chunks, plan, reduce_records
from tarotsim.analysis.same_play import SamePlay, same_play_from
from tarotsim.analysis.success import success_from, success_plan, thresholds_from
from tarotsim.base.intervals import Z95
from tarotsim.engine.labels import Contract
from tarotsim.report.distributions import EVENT_TALLY, MARGIN_TALLY, SCORE_TALLY, distributions_plan, tally
from tarotsim.runs import store

SHAPE = ("taker_bouts", "taker_trumps")
"""The cells of hands the report's success and best-contract tables are made on."""

AUCTION = ("others_bid", "speaker_position")
"""What a sweep's records say of the auction the taking seat would have met (tables by each)."""


class RunSummary(NamedTuple):
    """Every table a report shows of a run (see [`summarise_run`][tarotsim.report.summary.summarise_run]).

    Attributes
    ----------
    manifest : dict
        The run's manifest.
    counts : dict
        Rows, played deals and thrown-in deals (`Counts`).
    contracts : list of str
        Contracts with played deals, low to high.
    success : pandas.DataFrame
        [`success_table`][tarotsim.analysis.success_table] by bouts and trumps, every contract.
    fitted : pandas.DataFrame or None
        [`thresholds`][tarotsim.analysis.thresholds] (fitted, in trump length by bouts); None when
        nothing could be fitted, `fit_error` saying why.
    fit_error : str
    same_play : dict of str to str
        [`same_play_as`][tarotsim.analysis.same_play_as].
    best : pandas.DataFrame or None
        [`best_contract`][tarotsim.analysis.best_contract] (sweeps only).
    points, fitted_points : dict of str to pandas.DataFrame
        By hand-point count the records hold (sweeps only):
        [`hand_points_thresholds`][tarotsim.analysis.hand_points_thresholds] and the fitted
        [`thresholds`][tarotsim.analysis.thresholds] in that count.
    hand_points : pandas.DataFrame
        [`hand_points_table`][tarotsim.analysis.hand_points_table] (default bins, without the bonus).
    scores, ends, events : pandas.DataFrame
        The tallies of the distributions (`tarotsim.report.distributions.tally`).
    by_others_bid, by_position : pandas.DataFrame or None
        Sweeps whose records say what the other seats would bid: the
        [`success_table`][tarotsim.analysis.success_table] by ``others_bid`` and by
        ``speaker_position``; else None.
    uncontested : pandas.Series or None
        With them: by ``speaker_position``, the share of the played deals (those of the
        lowest contract played, so each deal once) on which no other seat would bid.
    """

    manifest: dict[str, Any]
    counts: dict[str, Any]
    contracts: list[str]
    success: pd.DataFrame
    fitted: pd.DataFrame | None
    fit_error: str
    same_play: dict[str, str]
    best: pd.DataFrame | None
    points: dict[str, pd.DataFrame]
    fitted_points: dict[str, pd.DataFrame]
    hand_points: pd.DataFrame
    scores: pd.DataFrame
    ends: pd.DataFrame
    events: pd.DataFrame
    by_others_bid: pd.DataFrame | None = None
    by_position: pd.DataFrame | None = None
    uncontested: pd.Series | None = None


def summarise_run(run_dir: str | os.PathLike[str], min_n: int = 30, *, client: Any = None) -> RunSummary:
    """Every table of the report of a run, from one pass over its chunks.

    Parameters
    ----------
    run_dir : str or os.PathLike
        A run directory of a ``sweep`` or a ``simulate`` run.
    min_n : int, optional
        Fewest played deals a cell or a bin needs to count (default 30).
    client : distributed.Client or str, optional
        Reduce the chunks on this Dask cluster (a client, or a scheduler address); see
        [`tarotsim.analysis.reduce_records`][tarotsim.analysis.reduce_records].

    Raises
    ------
    ValueError
        If `run_dir` is not a finished run directory, lacks a column the report needs, or
        holds no played deal.
    """
    check_min_n(min_n)
    root = Path(run_dir)
    manifest = store.read_manifest(root)
    chunks = open_chunks(
        root, ["deal", "contract", *SHAPE, HAND_POINTS, "made", "margin", "taker_score", "attack_points",
               "attack_bouts", *EVENT_TALLY], what="the report",
    )  # fmt: skip
    sweep = manifest["run"]["kind"] == "sweep"
    scales = [s for s in dict.fromkeys(BAND_SCALES.values()) if s in chunks.columns] if sweep else []
    auction = sweep and set(AUCTION) <= set(chunks.columns)
    reductions = plan(
        *success_plan(SHAPE).values(),
        *(r for key in AUCTION for r in success_plan([key]).values() if auction),
        *((CellSums(AUCTION[::-1], sums=False, dropna=False),) if auction else ()),
        SamePlay(),
        CellSums([HAND_POINTS]),
        *distributions_plan().values(),
        *(r for scale in scales for r in hand_points_plan(scale, same_play=True).values()),
        *(best_plan(SHAPE).values() if sweep else ()),
    )
    results = reduce_records(chunks, reductions, what="the report", client=client)
    counts = results[Counts.key]
    if counts["played_deals"] == 0:
        raise ValueError(
            f"run {str(root)!r} has no played deals: all {sum(counts['thrown_in_deals'].values())} deals were "
            "thrown in, so there is nothing to report"
        )
    try:
        fitted, fit_error = _fitted(results, "taker_trumps", ["taker_bouts"], min_n), ""
    except ValueError as err:
        fitted, fit_error = None, str(err)
    return RunSummary(
        manifest=manifest,
        counts=counts,
        contracts=contracts_played(counts),
        success=success_from(results, SHAPE, None, Z95),
        fitted=fitted,
        fit_error=fit_error,
        same_play=same_play_from(results[SamePlay.key]),
        best=best_from(results, SHAPE, min_n, Z95) if sweep else None,
        points={
            scale: hand_points_thresholds_from(
                results, None, min_n, scale=scale, n_boot=N_BOOT, seed=0, z=Z95
            )
            for scale in scales
        },
        fitted_points={scale: _fitted(results, scale, [], min_n) for scale in scales},
        hand_points=hand_points_table_from(results, None, min_n, HAND_POINTS),
        scores=tally(results, SCORE_TALLY),
        ends=tally(results, MARGIN_TALLY),
        events=tally(results, EVENT_TALLY),
        by_others_bid=success_from(results, ["others_bid"], None, Z95) if auction else None,
        by_position=success_from(results, ["speaker_position"], None, Z95) if auction else None,
        uncontested=_uncontested(results) if auction else None,
    )


def _uncontested(results: dict[str, Any]) -> pd.Series:
    """By ``speaker_position``: the share of the lowest played contract's deals on which
    ``others_bid`` is ``pass`` (float, indexed by position, sorted)."""
    counts = cell_table(results[CellSums(AUCTION[::-1], sums=False, dropna=False).key])
    lowest = contracts_played(results[Counts.key])[0]
    counts = counts[(counts["contract"] == lowest) & counts["speaker_position"].notna()]
    passed = counts["others_bid"].astype(object) == Contract.PASS.label
    deals = counts.groupby("speaker_position", sort=True)["n"].sum()
    alone = counts["n"].where(passed, 0).groupby(counts["speaker_position"], sort=True).sum()
    return (alone / deals).rename("uncontested")


def _fitted(results: dict[str, Any], x: str, by: list[str], min_n: int) -> pd.DataFrame:
    """The fitted thresholds in `x` at 50 % success (see [`tarotsim.analysis.thresholds`][tarotsim.analysis.thresholds])."""
    return thresholds_from(results, x=x, by=by, min_rate=0.5, min_n=min_n, z=Z95, method="fit", contract=None)
