"""Success of the taker by hand shape: the success table and the trump thresholds read from it.

Thrown-in deals (``thrown_in != 'none'``, or no contract) are never counted. Scores are the
taker's score for the deal (``taker_score``, game points, the settled ``+3D`` with four
players).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from tarotsim.analysis.intervals import Z95, standard_error, wilson_interval
from tarotsim.analysis.loading import (
    RECORD_COLUMNS,
    Data,
    by_columns,
    check_contract,
    check_min_n,
    load_records,
    played_rows,
    require_columns,
    sort_by_contract,
    thrown_in_counts,
)

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
"""Columns of :func:`success_table` after the contract and the ``by`` columns."""


def success_table(
    data: Data,
    by: str | Sequence[str] = ("taker_bouts", "taker_trumps"),
    contract: str | None = None,
    *,
    z: float = Z95,
) -> pd.DataFrame:
    """Success rate and mean score of the taker, by contract and hand features.

    Parameters
    ----------
    data : pandas.DataFrame or str or os.PathLike
        Records or a run directory (see :func:`load_records`).
    by : str or sequence of str, optional
        Columns to group by, besides ``contract``. Default: the taker's bouts
        and trump length.
    contract : str, optional
        Keep only this contract. By default every contract gets its own rows.
    z : float, optional
        Normal quantile of the Wilson interval (default 95 %).

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
    """
    cols = by_columns(by)
    df = load_records(data, columns=[*RECORD_COLUMNS, *cols])
    check_contract(contract)
    require_columns(df, ["contract", *cols, "made", "margin", "taker_score"], what="success_table")
    thrown = thrown_in_counts(df)
    played = played_rows(df, what="success_table")
    if contract is not None:
        played = played[played["contract"] == contract]
    keys = ["contract", *cols]
    made = played["made"].astype(bool)
    work = pd.DataFrame(
        {
            **{c: played[c] for c in keys},
            "made": made.astype(np.int64),
            "taker_score": played["taker_score"].astype(float),
            "signed_margin": np.where(made, 1.0, -1.0) * played["margin"].astype(float),
        }
    )
    grouped = work.groupby(keys, sort=False, observed=True, dropna=True)
    table = grouped.agg(
        n=("made", "size"),
        made=("made", "sum"),
        mean_score=("taker_score", "mean"),
        score_sd=("taker_score", "std"),
        mean_margin=("signed_margin", "mean"),
    ).reset_index()
    table["score_se"] = standard_error(table["score_sd"], table["n"])
    table["n"] = table["n"].astype(np.int64)
    table["made"] = table["made"].astype(np.int64)
    table["rate"] = table["made"] / table["n"]
    low, high = wilson_interval(table["made"].to_numpy(), table["n"].to_numpy(), z)
    table["rate_low"] = low
    table["rate_high"] = high
    table = table[[*keys, *SUCCESS_COLUMNS]]
    table = sort_by_contract(table, cols)
    table.attrs["thrown_in"] = int(sum(thrown.values()))
    table.attrs["thrown_in_by_reason"] = thrown
    return table


def thresholds(
    data: Data,
    min_rate: float = 0.5,
    min_n: int = 30,
    *,
    contract: str | None = None,
    z: float = Z95,
) -> pd.DataFrame:
    """Smallest trump length that makes each contract, for each number of bouts.

    For each (contract, ``taker_bouts``), the threshold is the smallest
    ``taker_trumps`` whose cell holds at least `min_n` played deals and whose
    **point estimate** of the success rate reaches `min_rate`
    (``rate >= min_rate``). The Wilson interval of that cell is reported next to
    it, and ``confident`` says whether its lower bound reaches `min_rate` too.
    Cells are not smoothed: the rate is not assumed to rise with trump length.

    Parameters
    ----------
    data : pandas.DataFrame or str or os.PathLike
        Records or a run directory.
    min_rate : float, optional
        Success rate to reach, in [0, 1]. Default 0.5.
    min_n : int, optional
        Fewest played deals a cell needs to count. Default 30.
    contract : str, optional
        Only this contract.
    z : float, optional
        Normal quantile of the Wilson interval (default 95 %).

    Returns
    -------
    pandas.DataFrame
        One row per (contract, taker_bouts) seen in the played deals. Columns:
        ``contract``, ``taker_bouts``, ``threshold`` (trumps, float; NaN when
        not found), ``n``, ``made``, ``rate``, ``rate_low``, ``rate_high`` (of
        the threshold cell; NaN when not found), ``confident`` (bool:
        ``rate_low >= min_rate``), ``n_total`` (played deals over all trump
        lengths) and ``note``: ``''`` when found; ``'too few deals (n<MIN_N)'``
        when no cell with ``n >= min_n`` reaches `min_rate` but a smaller cell
        does, or no cell has ``n >= min_n`` at all; ``'not reached'`` when no
        cell reaches `min_rate` whatever its size.
    """
    if not isinstance(min_rate, (int, float, np.floating)) or isinstance(min_rate, bool):
        raise TypeError(f"min_rate must be a number, got {type(min_rate).__name__}")
    if not 0.0 <= float(min_rate) <= 1.0:
        raise ValueError(f"min_rate must lie in [0, 1], got {min_rate}")
    check_min_n(min_n)
    table = success_table(data, ("taker_bouts", "taker_trumps"), contract, z=z)
    too_few = f"too few deals (n<{min_n})"
    rows = []
    for (con, bouts), cell in table.groupby(["contract", "taker_bouts"], sort=False, observed=True):
        cell = cell.sort_values("taker_trumps")
        reaches = cell["rate"] >= min_rate
        hit = cell[reaches & (cell["n"] >= min_n)]
        row: dict[str, object] = {
            "contract": con,
            "taker_bouts": bouts,
            "threshold": math.nan,
            "n": 0,
            "made": 0,
            "rate": math.nan,
            "rate_low": math.nan,
            "rate_high": math.nan,
            "confident": False,
            "n_total": int(cell["n"].sum()),
            "note": "",
        }
        if len(hit):
            first = hit.iloc[0]
            row.update(
                threshold=float(first["taker_trumps"]),
                n=int(first["n"]),
                made=int(first["made"]),
                rate=float(first["rate"]),
                rate_low=float(first["rate_low"]),
                rate_high=float(first["rate_high"]),
                confident=bool(first["rate_low"] >= min_rate),
            )
        elif reaches.any() or not (cell["n"] >= min_n).any():
            row["note"] = too_few
        else:
            row["note"] = "not reached"
        rows.append(row)
    columns = [
        "contract", "taker_bouts", "threshold", "n", "made", "rate", "rate_low",
        "rate_high", "confident", "n_total", "note",
    ]  # fmt: skip
    out = pd.DataFrame(rows, columns=columns)
    out = out.astype({"threshold": float, "n": np.int64, "made": np.int64, "confident": bool})
    return sort_by_contract(out, ["taker_bouts"])
