"""The thresholds of a run in one pass: trump thresholds, the best contract and the hand-point thresholds.

What the ``thresholds`` command shows: [`thresholds`][tarotsim.analysis.thresholds],
[`best_contract`][tarotsim.analysis.best_contract] and [`hand_points_thresholds`][tarotsim.analysis.hand_points_thresholds]
with their defaults, made from one reading of the run instead of three.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import pandas as pd

from tarotsim.analysis.best import best_from, best_plan
from tarotsim.analysis.hand_points import HAND_POINTS, N_BOOT, hand_points_plan, hand_points_thresholds_from
from tarotsim.analysis.loading import Data, require_in
from tarotsim.analysis.reduction import open_chunks, plan, reduce_records
from tarotsim.analysis.success import check_threshold_options, thresholds_from, thresholds_plan
from tarotsim.base.intervals import Z95

_SHAPE = ["taker_bouts", "taker_trumps"]


class ThresholdTables(NamedTuple):
    """The tables of `threshold_tables`.

    Attributes
    ----------
    thresholds : pandas.DataFrame
        [`thresholds`][tarotsim.analysis.thresholds] (fitted, in trump length by bouts).
    best : pandas.DataFrame or None
        [`best_contract`][tarotsim.analysis.best_contract] by bouts and trumps; None when the run
        cannot compare contracts (`not_compared` says why).
    hand_points : pandas.DataFrame or None
        [`hand_points_thresholds`][tarotsim.analysis.hand_points_thresholds] on ``hand_points``; None with `best`.
    not_compared : str
        Why `best` and `hand_points` are None (not a sweep, a column missing); ``""`` otherwise.
    """

    thresholds: pd.DataFrame
    best: pd.DataFrame | None
    hand_points: pd.DataFrame | None
    not_compared: str


def threshold_tables(
    data: Data, min_rate: float = 0.5, min_n: int = 30, *, client: Any = None
) -> ThresholdTables:
    """Trump thresholds, the best contract and the hand-point thresholds of a run, from one pass.

    Parameters
    ----------
    data : pandas.DataFrame or str or os.PathLike
        Records or a run directory.
    min_rate : float, optional
        Success rate the thresholds are read at, in (0, 1). Default 0.5.
    min_n : int, optional
        Fewest played deals a cell or a bin needs to count. Default 30.
    client : distributed.Client or str, optional
        Reduce the chunks of a run directory on this Dask cluster (see
        [`tarotsim.analysis.reduce_records`][tarotsim.analysis.reduce_records]).

    Returns
    -------
    ThresholdTables
        Each table equals the one its own function makes with these options.

    Raises
    ------
    ValueError
        On a bad option, a column the trump thresholds need, or too few deals to fit them.
    """
    check_threshold_options(min_rate, min_n, Z95, "fit")
    chunks = open_chunks(data, ["contract", *_SHAPE, "made", "taker_score"], what="thresholds")
    present = chunks.columns
    not_compared = ""
    try:
        require_in(present, ["deal", HAND_POINTS], what="best_contract and hand_points_thresholds")
    except ValueError as err:
        not_compared = str(err)
    reductions = plan(
        *thresholds_plan(_SHAPE[:1], _SHAPE[1], method="fit", same_play="deal" in present).values(),
        *(
            ()
            if not_compared
            else (*best_plan(_SHAPE).values(), *hand_points_plan(HAND_POINTS, same_play=True).values())
        ),
    )
    results = reduce_records(chunks, reductions, what="thresholds", client=client)
    fitted = thresholds_from(
        results,
        x=_SHAPE[1],
        by=_SHAPE[:1],
        min_rate=float(min_rate),
        min_n=min_n,
        z=Z95,
        method="fit",
        contract=None,
    )
    if not_compared:
        return ThresholdTables(fitted, None, None, not_compared)
    try:
        best = best_from(results, _SHAPE, min_n, Z95)
    except ValueError as err:
        return ThresholdTables(fitted, None, None, str(err))
    points = hand_points_thresholds_from(
        results, None, min_n, scale=HAND_POINTS, n_boot=N_BOOT, seed=0, z=Z95
    )
    return ThresholdTables(fitted, best, points, "")
