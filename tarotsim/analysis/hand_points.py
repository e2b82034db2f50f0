"""Hand points (Chavey count): mean taker score by hand-point bin, and where each contract pays.

The thresholds found are set against Chavey's published bands (:data:`PUBLISHED_HAND_POINTS`,
from :data:`tarotsim.labels.PUBLISHED_BANDS`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from tarotsim.analysis.best import PASS, rank_choices
from tarotsim.analysis.intervals import standard_error
from tarotsim.analysis.loading import (
    RECORD_COLUMNS,
    Data,
    check_min_n,
    contracts_present,
    load_records,
    played_rows,
    require_columns,
)
from tarotsim.labels import PUBLISHED_BANDS

PUBLISHED_HAND_POINTS: dict[str, int] = PUBLISHED_BANDS
"""The usual published bands of the Chavey hand count: bid each contract from this many
hand points (by contract label)."""


def bin_edges(values: pd.Series, bins: int | Sequence[float] | None) -> np.ndarray:
    """float[n_bins + 1]: bin edges of `values` (hand points) from `bins`, see :func:`hand_points_table`."""
    if bins is None or (isinstance(bins, (int, np.integer)) and not isinstance(bins, bool)):
        width = 2 if bins is None else int(bins)
        if width < 1:
            raise ValueError(f"bins as a width must be at least 1 hand point, got {width}")
        if values.empty:
            return np.array([0.0, float(width)])
        lo = math.floor(float(values.min()) / width) * width
        hi = math.floor(float(values.max()) / width) * width + width
        return np.arange(lo, hi + width / 2, width, dtype=float)
    if isinstance(bins, (str, bytes)) or not isinstance(bins, Sequence | np.ndarray):
        raise TypeError(f"bins must be None, an int width or a sequence of edges, got {bins!r}")
    edges = np.asarray(bins, dtype=float)
    if edges.ndim != 1 or len(edges) < 2 or not np.all(np.diff(edges) > 0):
        raise ValueError("bins must be at least two strictly increasing edges")
    return edges


def hand_points_table(
    data: Data,
    bins: int | Sequence[float] | None = None,
    min_n: int = 30,
) -> pd.DataFrame:
    """Mean taker score of each contract by hand-point bin (Chavey count).

    Parameters
    ----------
    data : pandas.DataFrame or str or os.PathLike
        Records (sweep records compare contracts on the same hands) or a run
        directory.
    bins : int or sequence of float, optional
        An int is a bin width in hand points; a sequence gives the edges. Bins
        are closed on the left, open on the right: ``[low, high)``. Default:
        width 2, aligned on even numbers, covering every observed value.
        Values outside explicit edges are dropped.
    min_n : int, optional
        Fewest played deals for a bin to count (``low_n`` flags the others).

    Returns
    -------
    pandas.DataFrame
        One row per (contract, bin), every bin of every contract present.
        Columns: ``contract``, ``bin_low``, ``bin_high`` (hand points), ``n``,
        ``mean_score`` (game points; NaN when empty), ``score_se``, ``low_n``
        (``n < min_n``).
    """
    df = load_records(data, columns=RECORD_COLUMNS)
    check_min_n(min_n)
    require_columns(df, ["contract", "hand_points", "taker_score"], what="hand_points_table")
    played = played_rows(df, what="hand_points_table")
    edges = bin_edges(played["hand_points"], bins)
    idx = np.searchsorted(edges, played["hand_points"].to_numpy(dtype=float), side="right") - 1
    inside = (idx >= 0) & (idx < len(edges) - 1)
    work = pd.DataFrame(
        {
            "contract": played["contract"].to_numpy()[inside],
            "bin": idx[inside],
            "taker_score": played["taker_score"].to_numpy(dtype=float)[inside],
        }
    )
    stats = work.groupby(["contract", "bin"], observed=True).agg(
        n=("taker_score", "size"),
        mean_score=("taker_score", "mean"),
        score_sd=("taker_score", "std"),
    )
    stats["score_se"] = standard_error(stats["score_sd"], stats["n"])
    present = contracts_present(played)
    full = pd.MultiIndex.from_product([present, range(len(edges) - 1)], names=["contract", "bin"])
    stats = stats.reindex(full)
    stats["n"] = stats["n"].fillna(0).astype(np.int64)
    stats = stats.reset_index()
    bin_i = stats["bin"].to_numpy(dtype=np.int64)
    out = pd.DataFrame(
        {
            "contract": stats["contract"].astype(object),
            "bin_low": edges[bin_i],
            "bin_high": edges[bin_i + 1],
            "n": stats["n"],
            "mean_score": stats["mean_score"].astype(float),
            "score_se": stats["score_se"].astype(float),
            "low_n": stats["n"] < min_n,
        }
    )
    return out


def hand_points_thresholds(
    data: Data,
    bins: int | Sequence[float] | None = None,
    min_n: int = 30,
) -> pd.DataFrame:
    """Where each contract starts to pay and to be the best, in hand points.

    Uses the bins of :func:`hand_points_table` (default width 2); bins with
    fewer than `min_n` played deals for a contract are ignored for it.

    - ``positive_from``: lower edge of the bin from which the contract's mean
      score stays positive in every counted bin above, that is the bin after
      the last counted bin with a mean score <= 0. NaN when the highest counted
      bin is not positive.
    - ``best_from`` / ``best_to``: in each bin, the best choice is the contract
      with the highest mean score among those counted there, or ``pass``
      (score 0) when none is positive (ties to ``pass``, then the lower
      contract). The contract is best on ``[best_from, best_to)``: the lower
      edge of the first bin where it is best and the upper edge of the last one
      (it may lose bins in between). NaN when it is never best.

    For the comparison to be fair, use sweep records (each deal played under
    every contract).

    Parameters
    ----------
    data : pandas.DataFrame or str or os.PathLike
        Records or a run directory.
    bins : int or sequence of float, optional
        Bin width or edges, see :func:`hand_points_table`.
    min_n : int, optional
        Fewest played deals for a bin to count. Default 30.

    Returns
    -------
    pandas.DataFrame
        One row per contract present, low to high. Columns: ``contract``,
        ``positive_from``, ``best_from``, ``best_to`` (hand points, float),
        ``published_from`` (the usual published band, :data:`PUBLISHED_HAND_POINTS`).
    """
    table = hand_points_table(data, bins, min_n)
    counted = table[~table["low_n"]]
    present = list(dict.fromkeys(table["contract"]))
    wide = counted.pivot(index="bin_low", columns="contract", values="mean_score")
    wide = wide.reindex(columns=[c for c in present if c in wide.columns])
    highs = dict(zip(table["bin_low"], table["bin_high"], strict=False))
    if len(wide):
        wide = wide.assign(**{PASS: 0.0})
        best = rank_choices(wide, [PASS, *[c for c in present if c in wide.columns]])["best"]
    else:
        best = pd.Series(dtype=object)
    rows = []
    for con in present:
        mine = counted[counted["contract"] == con].sort_values("bin_low")
        positive_from = math.nan
        if len(mine):
            scores = mine["mean_score"].to_numpy()
            lows = mine["bin_low"].to_numpy()
            bad = np.flatnonzero(scores <= 0)
            if len(bad) == 0:
                positive_from = float(lows[0])
            elif bad[-1] < len(scores) - 1:
                positive_from = float(lows[bad[-1] + 1])
        wins = best.index[best.to_numpy() == con]
        rows.append(
            {
                "contract": con,
                "positive_from": positive_from,
                "best_from": float(wins.min()) if len(wins) else math.nan,
                "best_to": float(highs[wins.max()]) if len(wins) else math.nan,
                "published_from": PUBLISHED_HAND_POINTS[con],
            }
        )
    columns = ["contract", "positive_from", "best_from", "best_to", "published_from"]
    return pd.DataFrame(rows, columns=columns).astype(
        {"positive_from": float, "best_from": float, "best_to": float, "published_from": np.int64}
    )
