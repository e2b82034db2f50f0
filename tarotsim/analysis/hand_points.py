"""Hand points (Chavey count): mean taker score by hand-point bin, and where each contract pays.

The thresholds found are set against Chavey's published bands (:data:`PUBLISHED_HAND_POINTS`,
from :data:`tarotsim.labels.PUBLISHED_BANDS`), each on the scale it was made on
(:data:`BAND_SCALES`): the Prise and Garde bands count the hand's points alone
(``hand_points``), the Garde sans and Garde contre bands add the distribution bonus for
voids and singletons (``hand_points_dist``). A band is compared only on its own scale.

Where a contract starts to pay or to be the best is read from bins of hand points; its
95 % interval comes from a bootstrap over deals (:func:`hand_points_thresholds`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from tarotsim.analysis.best import DealGrid
from tarotsim.analysis.intervals import Z95, check_z, standard_error
from tarotsim.analysis.loading import (
    RECORD_COLUMNS,
    Data,
    check_min_n,
    contracts_present,
    load_records,
    played_rows,
    require_columns,
)
from tarotsim.analysis.play import same_play_as
from tarotsim.labels import MULTIPLIERS, PUBLISHED_BANDS, Contract

PUBLISHED_HAND_POINTS: dict[str, int] = PUBLISHED_BANDS
"""The usual published bands of the Chavey hand count: bid each contract from this many
hand points (by contract label)."""

HAND_POINTS = "hand_points"
"""Record column of the Chavey count without the distribution bonus."""

HAND_POINTS_DIST = "hand_points_dist"
"""Record column of the Chavey count with the distribution bonus (void 6, singleton 3)."""

BAND_SCALES: dict[str, str] = {
    Contract.PRISE.label: HAND_POINTS,
    Contract.GARDE.label: HAND_POINTS,
    Contract.GARDE_SANS.label: HAND_POINTS_DIST,
    Contract.GARDE_CONTRE.label: HAND_POINTS_DIST,
}
"""The count each published band was made on (see :data:`tarotsim.labels.PUBLISHED_BANDS`)."""

N_BOOT = 200
"""Bootstrap resamples of the deals behind each hand-point interval."""


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


def check_scale(scale: str) -> None:
    """Check that `scale` names a hand-point count (see :data:`BAND_SCALES`)."""
    if scale not in (HAND_POINTS, HAND_POINTS_DIST):
        raise ValueError(f"scale must be {HAND_POINTS!r} or {HAND_POINTS_DIST!r}, got {scale!r}")


def bin_index(edges: np.ndarray, values: np.ndarray) -> np.ndarray:
    """int64[n]: the bin ``[edges[i], edges[i+1])`` of each value, -1 outside the edges."""
    idx = np.searchsorted(edges, values, side="right") - 1
    return np.where((idx >= 0) & (idx < len(edges) - 1), idx, -1)


def hand_points_table(
    data: Data,
    bins: int | Sequence[float] | None = None,
    min_n: int = 30,
    *,
    scale: str = HAND_POINTS,
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
    scale : str, optional
        The record column holding the count: ``"hand_points"`` (default, without the
        distribution bonus) or ``"hand_points_dist"`` (with it).

    Returns
    -------
    pandas.DataFrame
        One row per (contract, bin), every bin of every contract present.
        Columns: ``contract``, ``bin_low``, ``bin_high`` (hand points), ``n``,
        ``mean_score`` (game points; NaN when empty), ``score_se``, ``low_n``
        (``n < min_n``).
    """
    check_scale(scale)
    df = load_records(data, columns=[*RECORD_COLUMNS, scale])
    check_min_n(min_n)
    require_columns(df, ["contract", scale, "taker_score"], what=f"hand_points_table on scale {scale!r}")
    played = played_rows(df, what="hand_points_table")
    edges = bin_edges(played[scale], bins)
    idx = bin_index(edges, played[scale].to_numpy(dtype=float))
    inside = idx >= 0
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
    *,
    scale: str = HAND_POINTS,
    n_boot: int = N_BOOT,
    seed: int = 0,
    z: float = Z95,
) -> pd.DataFrame:
    """Where each contract starts to pay and to be the best, in hand points, with intervals.

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

    The intervals of ``positive_from`` and ``best_from`` are percentile intervals of a
    Bayesian bootstrap over deals (Rubin 1981): in each of `n_boot` resamples every deal
    weighs an independent Exp(1) draw, made from the fixed `seed`, and the thresholds are
    read again from the weighted bin means, with the same bins and counted bins. A deal
    keeps its scores under every contract, so contracts stay paired. A bound is NaN when,
    in more than its tail share of resamples, the contract never gets there.

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
    scale : str, optional
        The count the bins are on: ``"hand_points"`` (default) or ``"hand_points_dist"``
        (with the distribution bonus), a record column.
    n_boot : int, optional
        Bootstrap resamples (default :data:`N_BOOT`); 0 leaves the intervals out (NaN).
    seed : int, optional
        Seed of the resampling (default 0): the same records give the same intervals.
    z : float, optional
        Normal quantile setting the interval's coverage (default 95 %).

    Returns
    -------
    pandas.DataFrame
        One row per contract present, low to high. Columns: ``contract``,
        ``positive_from``, ``positive_from_low``, ``positive_from_high``, ``best_from``,
        ``best_from_low``, ``best_from_high``, ``best_to`` (hand points, float),
        ``published_from`` (the published band, :data:`PUBLISHED_HAND_POINTS`, when it
        was made on `scale`; NaN when it was made on the other count, see
        :data:`BAND_SCALES`) and ``note``, which says why a band is not compared, which
        contracts are the same play, and which bounds are open.

    Raises
    ------
    ValueError
        If the records lack the `scale` column (a comparison on the wrong count is
        refused) or another column, or an option is out of range.
    """
    check_scale(scale)
    check_z(z)
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or n_boot < 0:
        raise ValueError(f"n_boot must be a whole number of resamples, 0 or more, got {n_boot!r}")
    df = load_records(data, columns=[*RECORD_COLUMNS, scale])
    require_columns(
        df, ["deal", "contract", scale, "taker_score"], what=f"hand_points_thresholds on scale {scale!r}"
    )
    played = played_rows(df, what="hand_points_thresholds")
    table = hand_points_table(played, bins, min_n, scale=scale)
    present = contracts_present(played)
    edges = bin_edges(played[scale], bins)
    lows, highs = edges[:-1], edges[1:]
    # the table holds every bin of every contract, contract by contract: bins × contracts
    counted = ~table["low_n"].to_numpy(dtype=bool).reshape(len(present), len(lows)).T

    patterns, counts = _deal_patterns(played, present, edges, scale)
    bin_means = _BinMeans(patterns, counted)
    point = _crossings(bin_means(counts.astype(float))[None], lows, highs)
    tail = (1.0 - math.erf(z / math.sqrt(2.0))) / 2.0
    bounds = {name: (np.full(len(present), np.nan), np.full(len(present), np.nan)) for name in _INTERVALS}
    if n_boot and len(counts):
        rng = np.random.default_rng(seed)
        shapes = counts.astype(float)
        resampled = [bin_means(rng.standard_gamma(shapes)) for _ in range(n_boot)]
        boot = _crossings(np.stack(resampled), lows, highs)
        for name in _INTERVALS:
            values = np.where(np.isnan(boot[name]), np.inf, boot[name])
            low, high = np.quantile(values, [tail, 1.0 - tail], axis=0, method="inverted_cdf")
            known = ~np.isnan(point[name][0])
            bounds[name] = (
                np.where(known & np.isfinite(low), low, np.nan),
                np.where(known & np.isfinite(high), high, np.nan),
            )

    same = same_play_as(played) if "made" in played.columns else {}
    rows = []
    for i, con in enumerate(present):
        notes = []
        band_scale = BAND_SCALES[con]
        if band_scale != scale:
            bonus = "with" if band_scale == HAND_POINTS_DIST else "without"
            notes.append(
                f"published {PUBLISHED_HAND_POINTS[con]} counts {bonus} the distribution bonus ({band_scale}): "
                f"not compared on {scale}"
            )
        if con in same:
            ratio = MULTIPLIERS[con] / MULTIPLIERS[same[con]]
            notes.append(
                f"same play as {same[con]} at {ratio:g}× its multiplier: best over it by construction "
                "wherever taking pays"
            )
        if con in same.values() and math.isnan(point["best_from"][0, i]):
            higher = ", ".join(h for h, low in same.items() if low == con)
            notes.append(f"never best: {higher} is the same play at a higher multiplier")
        for name in _INTERVALS:
            if not math.isnan(point[name][0, i]) and n_boot and math.isnan(bounds[name][1][i]):
                notes.append(f"{name} open above: in more than {tail:.1%} of resamples it is never reached")
        rows.append(
            {
                "contract": con,
                "positive_from": point["positive_from"][0, i],
                "positive_from_low": bounds["positive_from"][0][i],
                "positive_from_high": bounds["positive_from"][1][i],
                "best_from": point["best_from"][0, i],
                "best_from_low": bounds["best_from"][0][i],
                "best_from_high": bounds["best_from"][1][i],
                "best_to": point["best_to"][0, i],
                "published_from": float(PUBLISHED_HAND_POINTS[con]) if band_scale == scale else math.nan,
                "note": "; ".join(notes),
            }
        )
    out = pd.DataFrame(rows, columns=THRESHOLD_COLUMNS)
    out.attrs["scale"] = scale
    return out.astype({c: float for c in THRESHOLD_COLUMNS[1:-1]})


THRESHOLD_COLUMNS = [
    "contract", "positive_from", "positive_from_low", "positive_from_high", "best_from",
    "best_from_low", "best_from_high", "best_to", "published_from", "note",
]  # fmt: skip
"""Columns of :func:`hand_points_thresholds`."""

_INTERVALS = ("positive_from", "best_from")


def _deal_patterns(
    played: pd.DataFrame, present: list[str], edges: np.ndarray, scale: str
) -> tuple[np.ndarray, np.ndarray]:
    """Deals that fall in a bin, as distinct patterns (bin, score under each contract) and their counts.

    Returns
    -------
    (patterns, counts) : tuple of numpy.ndarray
        float[k, 1 + n_contracts] (the bin index, then the scores, NaN where a deal was not
        played under a contract) and int64[k]. Weighing a pattern held by ``m`` deals with a
        Gamma(m, 1) draw is weighing each of its deals with an Exp(1) draw.
    """
    grid = DealGrid(played, [scale], present, plays=False)
    values = grid.cells[scale].to_numpy(dtype=float)
    deal_bin = np.where(grid.cell >= 0, bin_index(edges, values[np.maximum(grid.cell, 0)]), -1)
    keep = deal_bin >= 0
    frame = pd.DataFrame(np.column_stack([deal_bin[keep], grid.scores[keep, 1:]]))
    counted = frame.value_counts(dropna=False, sort=False)
    return counted.index.to_frame(index=False).to_numpy(dtype=float), counted.to_numpy(dtype=np.int64)


class _BinMeans:
    """Mean score by bin and contract of deal patterns under any weights (one per pattern).

    `patterns` is float[k, 1 + n_contracts] (bin, then scores; NaN where not played) and
    `counted` bool[n_bins, n_contracts]: the bins that count for each contract.
    """

    def __init__(self, patterns: np.ndarray, counted: np.ndarray) -> None:
        self.counted = counted
        n_bins, n_contracts = counted.shape
        scores = patterns[:, 1:]
        self.played = (~np.isnan(scores)).astype(float)
        self.scores = np.nan_to_num(scores)
        self.bins = patterns[:, 0].astype(np.int64)
        self.slots = (self.bins[:, None] * n_contracts + np.arange(n_contracts)).ravel()
        self.every_contract = bool(self.played.all())

    def __call__(self, weights: np.ndarray) -> np.ndarray:
        """float[n_bins, n_contracts] under `weights` (float[k]); NaN in bins not counted."""
        n_bins, n_contracts = self.counted.shape
        sums = np.bincount(self.slots, (weights[:, None] * self.scores).ravel(), n_bins * n_contracts)
        if self.every_contract:  # a sweep: every deal under every contract, one denominator per bin
            dens = np.repeat(np.bincount(self.bins, weights, n_bins), n_contracts)
        else:
            dens = np.bincount(self.slots, (weights[:, None] * self.played).ravel(), n_bins * n_contracts)
        with np.errstate(invalid="ignore", divide="ignore"):
            means = (sums / dens).reshape(n_bins, n_contracts)
        means[~self.counted] = np.nan
        return means


def _crossings(means: np.ndarray, lows: np.ndarray, highs: np.ndarray) -> dict[str, np.ndarray]:
    """``positive_from``, ``best_from``, ``best_to`` (float[n_weights, n_contracts]) of bin means.

    `means` is float[n_weights, n_bins, n_contracts] with NaN in bins not counted;
    `lows`, `highs` are the bins' edges. See :func:`hand_points_thresholds`.
    """
    n_rep, n_bins, n_contracts = means.shape
    out = {name: np.full((n_rep, n_contracts), np.nan) for name in ("positive_from", "best_from", "best_to")}
    if n_bins == 0:
        return out
    for c in range(n_contracts):
        mine = np.flatnonzero(~np.all(np.isnan(means[:, :, c]), axis=0))
        if not len(mine):
            continue
        bad = means[:, mine, c] <= 0
        last_bad = np.where(bad.any(axis=1), len(mine) - 1 - np.argmax(bad[:, ::-1], axis=1), -1)
        after = last_bad + 1
        out["positive_from"][:, c] = np.where(
            after < len(mine), lows[mine][np.minimum(after, len(mine) - 1)], np.nan
        )
    choices = np.concatenate([np.zeros((n_rep, n_bins, 1)), means], axis=2)
    best = np.argmax(np.where(np.isnan(choices), -np.inf, choices), axis=2) - 1
    for c in range(n_contracts):
        wins = best == c
        some = wins.any(axis=1)
        first = np.argmax(wins, axis=1)
        last = n_bins - 1 - np.argmax(wins[:, ::-1], axis=1)
        out["best_from"][:, c] = np.where(some, lows[first], np.nan)
        out["best_to"][:, c] = np.where(some, highs[last], np.nan)
    return out
