"""Hand points (Chavey count): mean taker score by hand-point bin, and where each contract pays.

The thresholds found are set against Chavey's published bands ([`PUBLISHED_HAND_POINTS`][tarotsim.analysis.hand_points.PUBLISHED_HAND_POINTS],
from `tarotsim.engine.labels.PUBLISHED_BANDS`), each on the scale it was made on
([`BAND_SCALES`][tarotsim.analysis.hand_points.BAND_SCALES]): the Prise and Garde bands count the hand's points alone
(``hand_points``), the Garde sans and Garde contre bands add the distribution bonus for
voids and singletons (``hand_points_dist``). A band is compared only on its own scale.

Where a contract starts to pay or to be the best is read from bins of hand points; its
95 % interval comes from resampling the bins' mean scores ([`hand_points_thresholds`][tarotsim.analysis.hand_points.hand_points_thresholds]).
Both read the records chunk by chunk: per value of the count, the deals, sums and sums of
products of the scores under each pair of contracts (`BinSums`), merged exactly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from tarotsim.analysis.best import deal_grid
from tarotsim.analysis.loading import Data, check_min_n
from tarotsim.analysis.moments import (
    SCORE,
    SCORE_SQ,
    WEIGHT,
    CellSums,
    Counts,
    N,
    contracts_played,
    exact_bincount,
    exact_means,
    exact_variances,
    merge_frames,
    whole_numbers,
)
from tarotsim.analysis.reduction import Chunk, Reduction, open_chunks, plan, reduce_records
from tarotsim.analysis.same_play import SamePlay, same_play_from
from tarotsim.base.intervals import Z95, check_z
from tarotsim.engine.labels import CONTRACTS, MULTIPLIERS, PUBLISHED_BANDS, Contract

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
"""The count each published band was made on (see `tarotsim.engine.labels.PUBLISHED_BANDS`)."""

N_BOOT = 200
"""Resamples of the bins' mean scores behind each hand-point interval."""


def bin_edges(values: pd.Series, bins: int | Sequence[float] | None) -> np.ndarray:
    """float[n_bins + 1]: bin edges of `values` (hand points) from `bins`, see [`hand_points_table`][tarotsim.analysis.hand_points.hand_points_table]."""
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
    """Check that `scale` names a hand-point count (see [`BAND_SCALES`][tarotsim.analysis.hand_points.BAND_SCALES])."""
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
    client: Any = None,
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
    client : distributed.Client or str, optional
        Reduce the chunks of a run directory on this Dask cluster (see
        [`tarotsim.analysis.reduction.reduce_records`][tarotsim.analysis.reduction.reduce_records]).

    Returns
    -------
    pandas.DataFrame
        One row per (contract, bin), every bin of every contract present.
        Columns: ``contract``, ``bin_low``, ``bin_high`` (hand points), ``n``,
        ``mean_score`` (game points; NaN when empty), ``score_se``, ``low_n``
        (``n < min_n``).
    """
    check_scale(scale)
    check_min_n(min_n)
    chunks = open_chunks(
        data, ["contract", scale, "taker_score"], what=f"hand_points_table on scale {scale!r}"
    )
    results = reduce_records(
        chunks, plan(CellSums([scale]), Counts()), what="hand_points_table", client=client
    )
    return hand_points_table_from(results, bins, min_n, scale)


def _edges_from(sums: pd.DataFrame, bins: int | Sequence[float] | None, scale: str) -> np.ndarray:
    """The bin edges of `bin_edges` from the values of `scale` in a `CellSums` result."""
    return bin_edges(pd.Series(sums.index.get_level_values(scale).unique(), dtype=float), bins)


def hand_points_table_from(
    results: dict[str, Any], bins: int | Sequence[float] | None, min_n: int, scale: str
) -> pd.DataFrame:
    """The [`hand_points_table`][tarotsim.analysis.hand_points.hand_points_table] from reduced records (``CellSums([scale])`` and ``Counts``)."""
    sums = results[CellSums([scale]).key]
    edges = _edges_from(sums, bins, scale)
    present = contracts_played(results[Counts.key])
    n_bins = len(edges) - 1
    flat = sums.reset_index()
    flat["bin"] = bin_index(edges, flat[scale].to_numpy(dtype=float))
    flat = flat[flat["bin"] >= 0]
    full = pd.MultiIndex.from_product(
        [[CONTRACTS.index(c) for c in present], range(n_bins)], names=["contract", "bin"]
    )
    if WEIGHT in flat.columns:
        n, mean, se = _weighted_bins(flat, full)
    else:
        by_bin = flat.groupby(["contract", "bin"], sort=False)[[N, SCORE, SCORE_SQ]].sum()
        by_bin = by_bin.reindex(full, fill_value=0)
        n = by_bin[N].to_numpy(dtype=np.int64)
        variance = exact_variances(n, by_bin[SCORE].to_numpy(), by_bin[SCORE_SQ].to_numpy())
        mean, se = exact_means(by_bin[SCORE].to_numpy(), n), np.sqrt(variance) / np.sqrt(n.astype(float))
    bin_i = np.tile(np.arange(n_bins), len(present))
    return pd.DataFrame(
        {
            "contract": pd.Series(np.repeat(np.asarray(present, dtype=object), n_bins), dtype=object),
            "bin_low": edges[bin_i],
            "bin_high": edges[bin_i + 1],
            "n": n,
            "mean_score": mean,
            "score_se": se,
            "low_n": n < min_n,
        }
    )


def _weighted_bins(flat: pd.DataFrame, full: pd.MultiIndex) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Deals, stratified mean score and its standard error per (contract, bin) of `full`, from
    weighted cell sums (rows of one weight: a stratum; ``Σ a_h m_h``, ``√(Σ a_h² s²_h / n_h)``
    with ``a_h = w_h n_h / Σ w_k n_k``, as `weighted_cell_table`)."""
    flat = flat.groupby(["contract", "bin", WEIGHT], sort=False)[[N, SCORE, SCORE_SQ]].sum().reset_index()
    n = flat[N].to_numpy(dtype=float)
    w = flat[WEIGHT].to_numpy(dtype=float)
    var = exact_variances(flat[N].to_numpy(dtype=np.int64), flat[SCORE].to_numpy(), flat[SCORE_SQ].to_numpy())
    parts = pd.DataFrame(
        {
            "contract": flat["contract"].to_numpy(),
            "bin": flat["bin"].to_numpy(),
            "n": flat[N].to_numpy(dtype=np.int64),
            "wn": w * n,
            "ws": w * np.array([float(v) for v in flat[SCORE].tolist()]),
            "w2v": w * w * n * np.nan_to_num(var, nan=0.0),
        }
    )
    by_bin = parts.groupby(["contract", "bin"], sort=False)[["n", "wn", "ws", "w2v"]].sum()
    by_bin = by_bin.reindex(full, fill_value=0)
    wn = by_bin["wn"].to_numpy()
    with np.errstate(invalid="ignore", divide="ignore"):
        return (
            by_bin["n"].to_numpy(dtype=np.int64),
            np.where(wn > 0, by_bin["ws"].to_numpy() / wn, np.nan),
            np.where(wn > 0, np.sqrt(by_bin["w2v"].to_numpy()) / wn, np.nan),
        )


def hand_points_thresholds(
    data: Data,
    bins: int | Sequence[float] | None = None,
    min_n: int = 30,
    *,
    scale: str = HAND_POINTS,
    n_boot: int = N_BOOT,
    seed: int = 0,
    z: float = Z95,
    client: Any = None,
) -> pd.DataFrame:
    """Where each contract starts to pay and to be the best, in hand points, with intervals.

    Uses the bins of [`hand_points_table`][tarotsim.analysis.hand_points.hand_points_table] (default width 2); bins with
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

    The intervals of ``positive_from`` and ``best_from`` are percentile intervals over
    `n_boot` resamples of the bins' mean scores, drawn from the `seed`: in each resample
    every bin's vector of mean scores (one per contract) is drawn from the normal law of
    a mean over the bin's deals (the scores' covariance between contracts over the deals
    played under both, divided by the deal counts), bins independently, and the
    thresholds are read again with the same bins and counted bins. This is the
    large-sample form of the Bayesian bootstrap over deals (under which bins are exactly
    independent), computed from each bin's exact sums, so that a run of any size is read
    chunk by chunk and the intervals do not depend on how it was cut. A deal keeps its
    scores under every contract, so contracts stay paired. A bound is NaN when, in more
    than its tail share of resamples, the contract never gets there.

    For the comparison to be fair, use sweep records (each deal played under
    every contract).

    Parameters
    ----------
    data : pandas.DataFrame or str or os.PathLike
        Records or a run directory.
    bins : int or sequence of float, optional
        Bin width or edges, see [`hand_points_table`][tarotsim.analysis.hand_points.hand_points_table].
    min_n : int, optional
        Fewest played deals for a bin to count. Default 30.
    scale : str, optional
        The count the bins are on: ``"hand_points"`` (default) or ``"hand_points_dist"``
        (with the distribution bonus), a record column.
    n_boot : int, optional
        Resamples (default `N_BOOT`); 0 leaves the intervals out (NaN).
    seed : int, optional
        Seed of the resampling (default 0): the same records give the same intervals.
    z : float, optional
        Normal quantile setting the interval's coverage (default 95 %).
    client : distributed.Client or str, optional
        Reduce the chunks of a run directory on this Dask cluster (see
        [`tarotsim.analysis.reduction.reduce_records`][tarotsim.analysis.reduction.reduce_records]).

    Returns
    -------
    pandas.DataFrame
        One row per contract present, low to high. Columns: ``contract``,
        ``positive_from``, ``positive_from_low``, ``positive_from_high``, ``best_from``,
        ``best_from_low``, ``best_from_high``, ``best_to`` (hand points, float),
        ``published_from`` (the published band, [`PUBLISHED_HAND_POINTS`][tarotsim.analysis.hand_points.PUBLISHED_HAND_POINTS], when it
        was made on `scale`; NaN when it was made on the other count, see
        [`BAND_SCALES`][tarotsim.analysis.hand_points.BAND_SCALES]) and ``note``, which says why a band is not compared, which
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
    chunks = open_chunks(
        data, ["deal", "contract", scale, "taker_score"], what=f"hand_points_thresholds on scale {scale!r}"
    )
    check_min_n(min_n)
    reductions = hand_points_plan(scale, same_play="made" in chunks.columns)
    results = reduce_records(chunks, reductions, what="hand_points_thresholds", client=client)
    return hand_points_thresholds_from(results, bins, min_n, scale=scale, n_boot=n_boot, seed=seed, z=z)


def hand_points_plan(scale: str, *, same_play: bool) -> dict[str, Reduction]:
    """The reductions `hand_points_thresholds_from` reads (`same_play`: records hold ``made``)."""
    return plan(CellSums([scale]), Counts(), BinSums(scale), *((SamePlay(),) if same_play else ()))


def hand_points_thresholds_from(
    results: dict[str, Any],
    bins: int | Sequence[float] | None,
    min_n: int,
    *,
    scale: str,
    n_boot: int,
    seed: int,
    z: float,
) -> pd.DataFrame:
    """The [`hand_points_thresholds`][tarotsim.analysis.hand_points.hand_points_thresholds] from reduced records (see `hand_points_plan`)."""
    table = hand_points_table_from(results, bins, min_n, scale)
    present = contracts_played(results[Counts.key])
    edges = _edges_from(results[CellSums([scale]).key], bins, scale)
    lows, highs = edges[:-1], edges[1:]
    # the table holds every bin of every contract, contract by contract: bins × contracts
    counted = ~table["low_n"].to_numpy(dtype=bool).reshape(len(present), len(lows)).T
    means = table["mean_score"].to_numpy(dtype=float).reshape(len(present), len(lows)).T
    point = _crossings(np.where(counted, means, np.nan)[None], lows, highs)
    tail = (1.0 - math.erf(z / math.sqrt(2.0))) / 2.0
    bounds = {name: (np.full(len(present), np.nan), np.full(len(present), np.nan)) for name in _INTERVALS}
    if n_boot and len(lows) and present:
        factors = _covariance_factors(results[BinSums(scale).key], edges, present, scale)
        rng = np.random.default_rng(seed)
        normal = rng.standard_normal((n_boot, len(lows), len(present)))
        drawn = np.nan_to_num(means)[None] + np.einsum("bij,rbj->rbi", factors, normal)
        boot = _crossings(np.where(counted[None], drawn, np.nan), lows, highs)
        for name in _INTERVALS:
            values = np.where(np.isnan(boot[name]), np.inf, boot[name])
            low, high = np.quantile(values, [tail, 1.0 - tail], axis=0, method="inverted_cdf")
            known = ~np.isnan(point[name][0])
            bounds[name] = (
                np.where(known & np.isfinite(low), low, np.nan),
                np.where(known & np.isfinite(high), high, np.nan),
            )

    same = same_play_from(results[SamePlay.key]) if SamePlay.key in results else {}
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
"""Columns of [`hand_points_thresholds`][tarotsim.analysis.hand_points.hand_points_thresholds]."""

_INTERVALS = ("positive_from", "best_from")


class BinSums(Reduction):
    """Per value of the count `scale`, per pair of contracts ``(c, d)``, ``c <= d``: the deals
    played under both, and over them the sums of ``score_c``, of ``score_d`` and of
    ``score_c · score_d`` (game points; integers for whole-number scores).

    The result is a DataFrame indexed by the value of `scale`, with columns ``n_<c>_<d>``,
    ``sum_<c>_<d>``, ``sum_<d>_<c>`` (the sum of ``score_d`` over the pair's deals) and
    ``prod_<c>_<d>``, positions in [`CONTRACTS`][tarotsim.engine.labels.CONTRACTS]. Deals whose count
    differs between their contracts are refused.
    """

    def __init__(self, scale: str) -> None:
        self.scale = scale
        self.columns = ("deal", "contract", "thrown_in", "taker_score", scale, "weight")
        self.key = f"bin_sums:{scale}"

    def partial(self, chunk: Chunk) -> pd.DataFrame:
        weighted = "weight" in chunk.played.columns  # each weight (stratum) summed apart, last
        grid = deal_grid(chunk, [self.scale, *(["weight"] if weighted else [])], plays=False)
        inside = grid.cell >= 0
        cell = grid.cell[inside]
        n_cells = len(grid.cells)
        played = ~np.isnan(grid.scores[inside, 1:])
        values = whole_numbers(np.where(played, grid.scores[inside, 1:], 0.0))
        sums: dict[str, np.ndarray] = {}
        for c, d in _CONTRACT_PAIRS:
            both = played[:, c] & played[:, d]
            where, first, second = cell[both], values[both, c], values[both, d]
            sums[f"n_{c}_{d}"] = np.bincount(where, minlength=n_cells).astype(np.int64)
            sums[f"sum_{c}_{d}"] = exact_bincount(where, first, n_cells)
            sums[f"sum_{d}_{c}"] = exact_bincount(where, second, n_cells)
            sums[f"prod_{c}_{d}"] = exact_bincount(where, first * second, n_cells)
        out = pd.DataFrame(sums, index=grid.index)
        if weighted:
            out.index = out.index.set_names(WEIGHT, level=-1)
        return out

    def merge(self, partials: Sequence[pd.DataFrame]) -> pd.DataFrame:
        return merge_frames(partials)


_CONTRACT_PAIRS = tuple((c, d) for c in range(len(CONTRACTS)) for d in range(c, len(CONTRACTS)))


def _covariance_factors(sums: pd.DataFrame, edges: np.ndarray, present: list[str], scale: str) -> np.ndarray:
    """float[n_bins, k, k]: per bin, a square root ``A`` (``A Aᵀ = Σ``) of the covariance of the
    mean scores of the `present` contracts (k of them).

    ``Σ[c, d] = Σ_i (s_ic − m_c)(s_id − m_d) / (n_c n_d)`` over the deals ``i`` played under
    both, computed exactly from the bin's integer sums and rounded once; the root is taken
    from the eigen-decomposition, so that contracts with scores in a fixed ratio (the same
    play) give a singular Σ without harm.
    """
    bin_of = bin_index(edges, sums.index.get_level_values(0).to_numpy(dtype=float))
    codes = [CONTRACTS.index(c) for c in present]
    factors = np.zeros((len(edges) - 1, len(codes), len(codes)))
    if WEIGHT in sums.index.names:
        sigmas = _weighted_covariances(sums, bin_of, codes)
    else:
        per_bin = sums[bin_of >= 0].groupby(bin_of[bin_of >= 0], sort=True).sum()
        sigmas = {}
        for b, row in per_bin.iterrows():
            sigma = np.zeros((len(codes), len(codes)))
            for i, c in enumerate(codes):
                for j, d in enumerate(codes):
                    sigma[i, j] = _covariance(row, min(c, d), max(c, d))
            sigmas[int(b)] = sigma
    for b, sigma in sigmas.items():
        values, vectors = np.linalg.eigh(sigma)
        factors[int(b)] = vectors * np.sqrt(np.clip(values, 0.0, None))
    return factors


def _weighted_covariances(sums: pd.DataFrame, bin_of: np.ndarray, codes: list[int]) -> dict[int, np.ndarray]:
    """Per bin, the covariance of the stratified mean scores of the contracts `codes` from
    `BinSums` of weighted records: ``Σ_h a_hc a_hd Σ_h[c, d]`` over its strata ``h`` (rows of
    one weight ``w_h``), ``a_hc = w_h n_hc / Σ_k w_k n_kc``, ``Σ_h`` each stratum's own (`_covariance`)."""
    inside = bin_of >= 0
    sums = (
        sums[inside].groupby([bin_of[inside], sums.index.get_level_values(WEIGHT)[inside]], sort=True).sum()
    )
    bin_of = sums.index.get_level_values(0).to_numpy()
    weights = sums.index.get_level_values(1).to_numpy(dtype=float)
    out: dict[int, np.ndarray] = {}
    for b in np.unique(bin_of):
        rows = np.flatnonzero(bin_of == b)
        counts = np.array([[float(sums[f"n_{c}_{c}"].iloc[r]) for c in codes] for r in rows])
        share = weights[rows, None] * counts
        with np.errstate(invalid="ignore", divide="ignore"):
            share = np.nan_to_num(share / share.sum(axis=0, keepdims=True))
        sigma = np.zeros((len(codes), len(codes)))
        for k, r in enumerate(rows):
            row = sums.iloc[r]
            for i, c in enumerate(codes):
                for j, d in enumerate(codes):
                    sigma[i, j] += share[k, i] * share[k, j] * _covariance(row, min(c, d), max(c, d))
        out[int(b)] = sigma
    return out


def _covariance(row: pd.Series, c: int, d: int) -> float:
    """Σ[c, d] of `_covariance_factors` from one bin's sums (``c <= d``)."""
    n_c, n_d, n_cd = int(row[f"n_{c}_{c}"]), int(row[f"n_{d}_{d}"]), int(row[f"n_{c}_{d}"])
    if n_c == 0 or n_d == 0 or n_cd == 0:
        return 0.0
    s_c, s_d = row[f"sum_{c}_{c}"].item(), row[f"sum_{d}_{d}"].item()
    both_c, both_d, product = (
        row[f"sum_{c}_{d}"].item(),
        row[f"sum_{d}_{c}"].item(),
        row[f"prod_{c}_{d}"].item(),
    )
    numerator = n_c * n_d * product - n_d * s_c * both_d - n_c * s_d * both_c + n_cd * s_c * s_d
    return numerator / (n_c * n_c * n_d * n_d)


def _crossings(means: np.ndarray, lows: np.ndarray, highs: np.ndarray) -> dict[str, np.ndarray]:
    """``positive_from``, ``best_from``, ``best_to`` (float[n_weights, n_contracts]) of bin means.

    `means` is float[n_weights, n_bins, n_contracts] with NaN in bins not counted;
    `lows`, `highs` are the bins' edges. See [`hand_points_thresholds`][tarotsim.analysis.hand_points.hand_points_thresholds].
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
