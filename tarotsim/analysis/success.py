"""Success of the taker by hand shape: the success table and the trump thresholds read from it.

Thrown-in deals (``thrown_in != 'none'``, or no contract) are never counted. Scores are the
taker's score for the deal (``taker_score``, game points, the settled ``+3D`` with four
players).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from tarotsim.analysis.fits import fitted_thresholds, group_cells
from tarotsim.analysis.loading import (
    Data,
    by_columns,
    check_contract,
    check_min_n,
    sort_by_contract,
)
from tarotsim.analysis.moments import CellSums, Counts, cell_table
from tarotsim.analysis.reduction import Reduction, open_chunks, plan, reduce_records
from tarotsim.analysis.same_play import SamePlay, same_play_from
from tarotsim.base.intervals import Z95, check_z, wilson_interval
from tarotsim.engine.labels import CONTRACTS

SUCCESS_COLUMNS = [
    "n",
    "made",
    "rate",
    "rate_low",
    "rate_high",
    "mean_score",
    "score_se",
    "mean_margin",
]
"""Columns of [`success_table`][tarotsim.analysis.success.success_table] after the contract and the ``by`` columns."""


def success_table(
    data: Data,
    by: str | Sequence[str] = ("taker_bouts", "taker_trumps"),
    contract: str | None = None,
    *,
    z: float = Z95,
    client: Any = None,
) -> pd.DataFrame:
    """Success rate and mean score of the taker, by contract and hand features.

    Read chunk by chunk (see `tarotsim.analysis.reduction`): memory does not grow with
    the size of the run.

    Parameters
    ----------
    data : pandas.DataFrame or str or os.PathLike
        Records or a run directory (see [`load_records`][tarotsim.analysis.load_records]).
    by : str or sequence of str, optional
        Columns to group by, besides ``contract``. Default: the taker's bouts
        and trump length.
    contract : str, optional
        Keep only this contract. By default every contract gets its own rows.
    z : float, optional
        Normal quantile of the Wilson interval (default 95 %).
    client : distributed.Client or str, optional
        Reduce the chunks of a run directory on this Dask cluster (a client, or a scheduler
        address); see [`tarotsim.analysis.reduction.reduce_records`][tarotsim.analysis.reduction.reduce_records].

    Returns
    -------
    pandas.DataFrame
        One row per (contract, *by*) cell with at least one played deal, sorted
        by contract (low to high) then `by`. Columns:

        - ``contract`` and the `by` columns;
        - ``n``: played deals in the cell;
        - ``made``: contracts made;
        - ``rate``: ``made / n``; ``rate_low``, ``rate_high``: Wilson interval;
        - ``mean_score``: mean taker score (game points);
        - ``score_se``: standard error of that mean, ``std(ddof=1)/sqrt(n)``
          (NaN when ``n < 2``);
        - ``mean_margin``: mean *signed* margin in card points: ``+margin`` for
          a made contract, ``-margin`` for a failed one.

        Thrown-in rows are excluded; their count is in
        ``result.attrs["thrown_in"]`` (int) and, by reason,
        ``result.attrs["thrown_in_by_reason"]`` (dict).

        On weighted records (a conditioned or stratified sweep's ``weight``), each cell's
        rate and mean score are the stratified estimates over its weights, and ``n`` and
        ``made`` are effective counts (floats) of the same variance, from which the Wilson
        interval and ``score_se`` are made
        (`weighted_cell_table`); a last column ``deals``
        holds the played deals, and ``attrs["weighted"]`` is True.
    """
    cols = by_columns(by)
    check_contract(contract)
    chunks = open_chunks(data, ["contract", *cols, "made", "margin", "taker_score"], what="success_table")
    results = reduce_records(chunks, success_plan(cols), what="success_table", client=client)
    return success_from(results, cols, contract, z)


def success_plan(by: Sequence[str]) -> dict[str, Reduction]:
    """The reductions `success_from` reads, for cells of contract and `by`."""
    return plan(CellSums(by, margin=True), Counts())


def success_from(results: dict[str, Any], by: Sequence[str], contract: str | None, z: float) -> pd.DataFrame:
    """The [`success_table`][tarotsim.analysis.success.success_table] from reduced records (see `success_plan`)."""
    cols = list(by)
    sums = results[CellSums(cols, margin=True).key]
    table = cell_table(sums, contract)
    table["score_se"] = np.sqrt(table.pop("score_var")) / np.sqrt(table["n"].astype(float))
    weighted = "deals" in table.columns  # effective counts of weighted records (moments.weighted_cell_table)
    if not weighted:
        table["made"] = table["made"].astype(np.int64)
    table["rate"] = table["made"] / table["n"]
    low, high = wilson_interval(table["made"].to_numpy(), table["n"].to_numpy(), z)
    table["rate_low"] = low
    table["rate_high"] = high
    table["contract"] = table["contract"].astype(str)
    table = sort_by_contract(
        table[["contract", *cols, *SUCCESS_COLUMNS, *(["deals"] if weighted else [])]], cols
    )
    table.attrs["weighted"] = weighted
    thrown = results[Counts.key]["thrown_in_rows"]
    table.attrs["thrown_in"] = int(sum(thrown.values()))
    table.attrs["thrown_in_by_reason"] = dict(thrown)
    return table


THRESHOLD_METHODS = ("fit", "first")
"""How [`thresholds`][tarotsim.analysis.success.thresholds] reads a threshold: from fitted curves, or from the first cell."""


def thresholds(
    data: Data,
    min_rate: float = 0.5,
    min_n: int = 30,
    *,
    contract: str | None = None,
    z: float = Z95,
    method: str = "fit",
    x: str = "taker_trumps",
    by: str | Sequence[str] = ("taker_bouts",),
    client: Any = None,
) -> pd.DataFrame:
    """Where each contract starts to pay off, in trump length (or any hand feature `x`).

    One row per contract and `by` group (by default the taker's bouts).

    With ``method="fit"`` (the default), two curves are fitted against `x` on its
    values holding at least `min_n` played deals (see `tarotsim.analysis.fits`):
    a logistic curve of success and a weighted least-squares curve of the mean taker
    score, polynomials of degree up to 3, with statsmodels. ``threshold`` is where the
    fitted success crosses `min_rate` going up (the last time, within the fitted range)
    and ``break_even`` where the fitted expected score crosses 0, the score of passing.
    Intervals are 95 % (for the default `z`) from the delta method on each fit's
    covariance, widened by the fit's lack of fit.

    With ``method="first"`` (the rule of earlier versions), ``threshold`` is the
    smallest `x` whose cell holds at least `min_n` played deals and whose **point
    estimate** of the success rate reaches `min_rate`; the Wilson interval of that cell
    is reported next to it, and ``confident`` says whether its lower bound reaches
    `min_rate` too. Cells are not smoothed.

    In a sweep whose card play ignores the contract, contracts played identically
    ([`tarotsim.analysis.same_play.same_play_as`][tarotsim.analysis.same_play.same_play_as]; Prise and Garde) have the same success
    by construction: the higher one's note says so.

    Parameters
    ----------
    data : pandas.DataFrame or str or os.PathLike
        Records or a run directory.
    min_rate : float, optional
        Success rate to reach, in [0, 1] (in (0, 1) for a fit). Default 0.5.
    min_n : int, optional
        Fewest played deals a value of `x` needs to count. Default 30.
    contract : str, optional
        Only this contract.
    z : float, optional
        Normal quantile of the intervals (default 95 %).
    method : {"fit", "first"}, optional
        Fitted curves (default) or the first cell that reaches `min_rate`.
    x : str, optional
        The numeric hand feature thresholds are read in. Default ``"taker_trumps"``;
        ``"hand_points"`` reads them in hand points.
    by : str or sequence of str, optional
        Columns that split each contract's deals into groups. Default: the taker's bouts.
        An empty sequence gives one row per contract.
    client : distributed.Client or str, optional
        Reduce the chunks of a run directory on this Dask cluster (see
        [`tarotsim.analysis.reduction.reduce_records`][tarotsim.analysis.reduction.reduce_records]). Either way the run is read
        chunk by chunk and the curves are fitted on per-cell counts and sums.

    Returns
    -------
    pandas.DataFrame
        Sorted by contract (low to high) then `by`. Columns: ``contract``, the `by`
        columns, then

        - ``method="fit"``: ``threshold``, ``threshold_low``, ``threshold_high``,
          ``break_even``, ``break_even_low``, ``break_even_high`` (units of `x`; NaN when
          not found), ``fitted_from``, ``fitted_to`` (the range of `x` fitted),
          ``n_total`` (played deals of the group), ``cells`` (values of `x` fitted),
          ``degree`` (of the polynomials; 0 when not fitted) and ``note``;
        - ``method="first"``: ``threshold`` (float; NaN when not found), ``n``,
          ``made``, ``rate``, ``rate_low``, ``rate_high`` (of the threshold cell),
          ``confident`` (bool: ``rate_low >= min_rate``), ``n_total`` and ``note``.

        ``note`` is empty when everything was found, and otherwise says what was not and
        why: for a fit, the target not reached over the fitted range (with the fitted value
        at its end), passed already at its start, or a group with too few values of `x`
        to fit; for the first cell, ``'reached only in cells of fewer than MIN_N deals'``,
        ``'not reached'``, or ``'too few deals (n<MIN_N)'`` when the whole group holds
        fewer than `min_n` deals.

    Raises
    ------
    ValueError
        On a bad option or a missing column, or, for a fit, when no group has enough
        values of `x` with `min_n` deals to fit (too few deals).
    """
    check_threshold_options(min_rate, min_n, z, method)
    cols = by_columns(by)
    if not isinstance(x, str) or x in cols or x == "contract":
        raise ValueError(f"x must be one column name, not a by column or 'contract', got {x!r}")
    check_contract(contract)
    needed = ["contract", *cols, x, "made", "taker_score", *(["margin"] if method == "first" else [])]
    chunks = open_chunks(data, needed, what="thresholds")
    reductions = thresholds_plan(cols, x, method=method, same_play="deal" in chunks.columns)
    results = reduce_records(chunks, reductions, what="thresholds", client=client)
    return thresholds_from(
        results, x=x, by=cols, min_rate=float(min_rate), min_n=min_n, z=z, method=method, contract=contract
    )


def check_threshold_options(min_rate: float, min_n: int, z: float, method: str) -> None:
    """Check the options of [`thresholds`][tarotsim.analysis.success.thresholds] (``TypeError``/``ValueError`` saying which is wrong)."""
    if not isinstance(min_rate, (int, float, np.floating)) or isinstance(min_rate, bool):
        raise TypeError(f"min_rate must be a number, got {type(min_rate).__name__}")
    if not 0.0 <= float(min_rate) <= 1.0:
        raise ValueError(f"min_rate must lie in [0, 1], got {min_rate}")
    if method not in THRESHOLD_METHODS:
        raise ValueError(f"method must be one of {', '.join(THRESHOLD_METHODS)}, got {method!r}")
    if method == "fit" and not 0.0 < float(min_rate) < 1.0:
        raise ValueError(f"a fitted threshold needs min_rate strictly between 0 and 1, got {min_rate}")
    check_min_n(min_n)
    check_z(z)


def thresholds_plan(by: Sequence[str], x: str, *, method: str, same_play: bool) -> dict[str, Reduction]:
    """The reductions `thresholds_from` reads (`same_play`: the records have deal numbers)."""
    cells = CellSums([*by, x], margin=method == "first")
    return plan(cells, Counts(), *((SamePlay(),) if same_play else ()))


def thresholds_from(
    results: dict[str, Any],
    *,
    x: str,
    by: Sequence[str],
    min_rate: float,
    min_n: int,
    z: float,
    method: str,
    contract: str | None,
) -> pd.DataFrame:
    """The [`thresholds`][tarotsim.analysis.success.thresholds] from reduced records (see `thresholds_plan`); options checked."""
    cols = list(by)
    keys = [*cols, x]
    # the fit needs no margin: cells summed with it (for a success table) serve as well
    sums = results.get(CellSums(keys, margin=True).key)
    if sums is None:
        sums = results[CellSums(keys, margin=False).key]
    if not pd.api.types.is_numeric_dtype(sums.index.get_level_values(x).dtype):
        raise ValueError(f"x must be a numeric column, {x!r} holds {sums.index.get_level_values(x).dtype}")
    same = same_play_from(results[SamePlay.key]) if SamePlay.key in results else {}
    if method == "fit":
        played = results[Counts.key]["played_rows"]
        n_played = int(played.sum()) if contract is None else int(played[CONTRACTS.index(contract)])
        out = fitted_thresholds(
            group_cells(sums, contract, x),
            x=x, by=cols, min_rate=min_rate, min_n=min_n, z=z, same_play=same, n_played=n_played,
        )  # fmt: skip
    else:
        table = success_from(results, [*cols, x], contract, z)
        out = _first_thresholds(table, x, cols, min_rate, min_n, same)
    out.attrs["x"] = x
    out.attrs["method"] = method
    return sort_by_contract(out, cols)


def _first_thresholds(
    table: pd.DataFrame,
    x: str,
    by: list[str],
    min_rate: float,
    min_n: int,
    same_play: dict[str, str],
) -> pd.DataFrame:
    """Thresholds by the first-cell rule (see [`thresholds`][tarotsim.analysis.success.thresholds], ``method="first"``) from the
    success table of cells (contract, `by`, `x`)."""
    keys = ["contract", *by]
    rows = []
    for group, cell in table.groupby(keys, sort=False, observed=True):
        cell = cell.sort_values(x)
        reaches = cell["rate"] >= min_rate
        hit = cell[reaches & (cell["n"] >= min_n)]
        row: dict[str, object] = dict(zip(keys, group, strict=True))
        row.update(
            threshold=math.nan, n=0, made=0, rate=math.nan, rate_low=math.nan, rate_high=math.nan,
            confident=False, n_total=int(cell["n"].sum()),
        )  # fmt: skip
        notes = []
        if len(hit):
            first = hit.iloc[0]
            row.update(
                threshold=float(first[x]),
                n=int(first["n"]),
                made=int(first["made"]),
                rate=float(first["rate"]),
                rate_low=float(first["rate_low"]),
                rate_high=float(first["rate_high"]),
                confident=bool(first["rate_low"] >= min_rate),
            )
        elif row["n_total"] < min_n:  # type: ignore[operator]
            notes.append(f"too few deals (n<{min_n})")
        elif reaches.any():
            notes.append(f"reached only in cells of fewer than {min_n} deals")
        else:
            notes.append("not reached")
        lower = same_play.get(str(group[0]))
        if lower is not None:
            notes.append(f"same play as {lower}: same success, by construction")
        row["note"] = "; ".join(notes)
        rows.append(row)
    columns = [
        *keys, "threshold", "n", "made", "rate", "rate_low", "rate_high", "confident", "n_total", "note",
    ]  # fmt: skip
    out = pd.DataFrame(rows, columns=columns)
    return out.astype({"threshold": float, "n": np.int64, "made": np.int64, "confident": bool})
