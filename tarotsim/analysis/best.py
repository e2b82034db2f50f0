"""The best choice in each cell of hands: the contract with the highest mean taker score, or passing.

Contracts are compared on the same hands only in sweep records (every deal played under
every contract); passing scores 0. Each cell says by how much its best choice beats the
runner-up on the same deals, with a 95 % interval, and whether that settles the choice.

The records are read chunk by chunk (`BestSums`): per cell, the sums of every
choice's scores and, for every pair of choices, the count, sum and sum of squares of their
per-deal differences. Once the best choice and its runner-up are known, their paired
interval is read from those sums, so one pass over the run is enough.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd

from tarotsim.analysis.loading import Data, by_columns, check_min_n
from tarotsim.analysis.moments import (
    WEIGHT,
    Counts,
    cell_codes,
    contracts_played,
    exact_bincount,
    exact_means,
    exact_variances,
    merge_frames,
    whole_numbers,
)
from tarotsim.analysis.reduction import Chunk, Reduction, deal_index, open_chunks, plan, reduce_records
from tarotsim.analysis.same_play import PLAY_COLUMNS, play_keys
from tarotsim.base.intervals import Z95, check_z
from tarotsim.engine.labels import CONTRACTS, Contract

PASS = Contract.PASS.label
"""What the taker scores 0 by choosing: the label of passing in [`best_contract`][tarotsim.analysis.best.best_contract]."""


def rank_choices(scores: pd.DataFrame, candidates: Sequence[str]) -> pd.DataFrame:
    """Best and runner-up of each row of `scores` (columns = candidates, NaN = absent).

    Ties go to the candidate listed first (``pass`` before the contracts, lower
    contracts before higher ones).

    Returns
    -------
    pandas.DataFrame
        Indexed like `scores`: ``best``, ``best_score``, ``runner_up`` (None when the
        row has a single candidate), ``runner_up_score``.
    """
    values = scores[list(candidates)].to_numpy(dtype=float)
    # a NaN column at the end, so that a lone candidate has a (missing) runner-up
    values = np.column_stack([values, np.full(len(values), np.nan)])
    filled = np.where(np.isnan(values), -np.inf, values)
    # stable sort, descending score, ties in candidate order
    order = np.argsort(-filled, axis=1, kind="stable")
    names = np.asarray([*candidates, None], dtype=object)
    rows = np.arange(len(values))
    best_i, second_i = order[:, 0], order[:, 1]
    second_score = values[rows, second_i]
    runner_up = names[second_i]
    runner_up[np.isnan(second_score)] = None
    return pd.DataFrame(
        {
            "best": names[best_i],
            "best_score": values[rows, best_i],
            "runner_up": runner_up,
            "runner_up_score": second_score,
        },
        index=scores.index,
    )


class DealGrid:
    """The played records of a chunk as deals × contracts arrays (every contract of
    [`CONTRACTS`][tarotsim.engine.labels.CONTRACTS]), and the cell of hands each deal falls in.

    Attributes
    ----------
    cell : numpy.ndarray
        int64[n_deals]: the cell of each deal (index into `cells`), -1 when a `by`
        value is missing.
    cells : pandas.DataFrame
        One row per cell: the `by` values, sorted.
    index : pandas.MultiIndex
        The same cells as an index.
    scores : numpy.ndarray
        float64[n_deals, 1 + n_contracts]: the taker's score, column 0 passing (0),
        then each contract, low to high; NaN where the deal was not played under that
        contract.
    plays : numpy.ndarray
        int64[n_deals, n_contracts]: the play key of each record (`play_keys`),
        -1 where absent; no columns when made with ``plays=False``.
    """

    def __init__(self, chunk: Chunk, cols: list[str], *, plays: bool = True) -> None:
        played, codes = chunk.played, chunk.codes
        deal_i, deals = deal_index(chunk)
        n_deals = len(deals)
        n_contracts = len(CONTRACTS)
        cells, self.index = cell_codes([(c, played[c]) for c in cols], dropna=True, cache=chunk.cache)
        self.cells = self.index.to_frame(index=False)
        low = np.full(n_deals, np.iinfo(np.int64).max)
        high = np.full(n_deals, -1, dtype=np.int64)
        np.minimum.at(low, deal_i, cells)
        np.maximum.at(high, deal_i, cells)
        if np.any(low != high):
            raise ValueError(
                f"by column(s) {', '.join(map(repr, cols))} differ between the contracts of a deal; "
                "group by features of the hand as dealt (bouts, trumps, hand points)"
            )
        self.cell = high
        slot = deal_i * n_contracts + codes
        if np.bincount(slot, minlength=n_deals * n_contracts).max(initial=0) > 1:
            raise ValueError(
                "a deal is recorded twice under the same contract; each (deal, contract) must appear once"
            )
        self.scores = np.full((n_deals, 1 + n_contracts), np.nan)
        self.scores[:, 0] = 0.0
        self.scores[deal_i, 1 + codes] = played["taker_score"].to_numpy(dtype=float)
        self.plays = np.full((n_deals, n_contracts if plays else 0), -1, dtype=np.int64)
        if plays:
            self.plays[deal_i, codes] = play_keys(played)


def best_contract(
    data: Data,
    by: str | Sequence[str] = ("taker_bouts", "taker_trumps"),
    min_n: int = 30,
    *,
    z: float = Z95,
    client: Any = None,
) -> pd.DataFrame:
    """The contract with the highest mean taker score in each cell, against passing.

    Meant for sweep data, where every deal is played under several contracts, so that
    the contracts are compared on the same hands. Passing scores 0. The mean score of a
    contract is over its played rows in the cell; thrown-in rows are excluded.

    The best choice is set against the runner-up *deal by deal*: ``diff`` is the mean of
    ``score(best) - score(runner-up)`` over the cell's deals played under both, with the
    normal interval ``diff ± z · sd / sqrt(n)`` of those paired differences. A cell is
    ``decided`` when that interval lies above 0, it holds at least `min_n` deals, and
    the two choices are not the same play: two contracts played identically on every
    deal of the cell (``same_play``, see `tarotsim.analysis.same_play`; Prise and Garde
    in a sweep whose card play ignores the contract) differ only by their multipliers,
    so the higher one leads by construction, not because of the hands.

    Parameters
    ----------
    data : pandas.DataFrame or str or os.PathLike
        Sweep records (one row per deal and contract) or a run directory.
    by : str or sequence of str, optional
        Columns that define a cell: features of the hand as dealt, equal under every
        contract of a deal. Default: the taker's bouts and trump length.
    min_n : int, optional
        Cells with fewer played deals are flagged in ``low_n`` and never ``decided``.
        Default 30.
    z : float, optional
        Normal quantile of the intervals (default 95 %).
    client : distributed.Client or str, optional
        Reduce the chunks of a run directory on this Dask cluster (see
        [`tarotsim.analysis.reduction.reduce_records`][tarotsim.analysis.reduction.reduce_records]).

    Returns
    -------
    pandas.DataFrame
        One row per cell, sorted by `by`. Columns: the `by` columns, ``best`` (a
        contract or ``'pass'``), ``best_score``, ``runner_up``, ``runner_up_score``
        (mean taker scores, game points), ``diff``, ``diff_low``, ``diff_high``
        (paired difference best − runner-up and its interval, game points; the bounds
        NaN when fewer than 2 deals), ``decided``, ``same_play`` (bool), ``n``
        (distinct played deals in the cell), ``low_n`` (``n < min_n``), and
        ``score_<contract>``, the mean taker score of each contract present. Ties go to
        ``pass``, then to the lower contract.

    Raises
    ------
    ValueError
        If columns are missing, a `by` value differs between the contracts of a deal,
        or the records hold several contracts but no deal is played under more than one
        (not a sweep: the contracts would be compared on different hands).
    """
    cols = by_columns(by)
    if not cols:
        raise ValueError("by must name at least one column besides 'contract'")
    check_min_n(min_n)
    check_z(z)
    chunks = open_chunks(data, ["deal", "contract", *cols, "made", "taker_score"], what="best_contract")
    results = reduce_records(chunks, best_plan(cols), what="best_contract", client=client)
    return best_from(results, cols, min_n, z)


_CHOICES = (PASS, *CONTRACTS)
_PAIRS = tuple(combinations(range(len(_CHOICES)), 2))
"""Pairs ``(i, j)``, ``i < j``, of positions in `_CHOICES` (0 is passing)."""


class BestSums(Reduction):
    """Per cell of `keys`: deals; per choice (pass, each contract) its deals and score sum; per
    pair of choices the deals with both, and the sum and sum of squares of their score
    differences; per pair of contracts the deals whose plays differ (or that only one played).

    The result is a DataFrame indexed by the cell's `keys`, int64 columns (float for
    fractional scores) named ``n``, ``count_<i>``, ``sum_<i>``, ``pairs_<i>_<j>``,
    ``diff_<i>_<j>``, ``diff_sq_<i>_<j>`` and ``differ_<i>_<j>``, with positions in
    ``(pass, *CONTRACTS)``.
    """

    def __init__(self, keys: Sequence[str]) -> None:
        self.keys = list(keys)
        self.columns = ("deal", "contract", "thrown_in", "taker_score", *PLAY_COLUMNS, *self.keys, "weight")
        self.key = f"best:{','.join(self.keys)}"

    def partial(self, chunk: Chunk) -> pd.DataFrame:
        weighted = "weight" in chunk.played.columns  # each weight (stratum) summed apart, last
        grid = deal_grid(chunk, [*self.keys, *(["weight"] if weighted else [])], plays=True)
        n_cells = len(grid.cells)
        inside = grid.cell >= 0
        cell = grid.cell[inside]
        scores = grid.scores[inside]
        plays = grid.plays[inside]
        played = ~np.isnan(scores)
        values = whole_numbers(np.where(played, scores, 0.0))
        sums: dict[str, np.ndarray] = {"n": np.bincount(cell, minlength=n_cells).astype(np.int64)}
        for i in range(1, len(_CHOICES)):
            sums[f"count_{i}"] = np.bincount(cell, weights=played[:, i], minlength=n_cells).astype(np.int64)
            sums[f"sum_{i}"] = exact_bincount(cell, values[:, i], n_cells)
        for i, j in _PAIRS:
            both = played[:, i] & played[:, j]
            diff = values[both, i] - values[both, j]
            sums[f"pairs_{i}_{j}"] = np.bincount(cell[both], minlength=n_cells).astype(np.int64)
            sums[f"diff_{i}_{j}"] = exact_bincount(cell[both], diff, n_cells)
            sums[f"diff_sq_{i}_{j}"] = exact_bincount(cell[both], diff * diff, n_cells)
            if i > 0:
                differ = plays[:, i - 1] != plays[:, j - 1]
                sums[f"differ_{i}_{j}"] = np.bincount(cell, weights=differ, minlength=n_cells).astype(
                    np.int64
                )
        out = pd.DataFrame(sums, index=grid.index)
        if weighted:
            out.index = out.index.set_names(WEIGHT, level=-1)
        return out

    def merge(self, partials: Sequence[pd.DataFrame]) -> pd.DataFrame:
        return merge_frames(partials)


def deal_grid(chunk: Chunk, keys: Sequence[str], *, plays: bool) -> DealGrid:
    """The `DealGrid` of a chunk over every contract, made once per chunk and `keys`."""
    name = ("grid", tuple(keys), plays)
    if name not in chunk.cache:
        chunk.cache[name] = DealGrid(chunk, list(keys), plays=plays)
    grid: DealGrid = chunk.cache[name]
    return grid


def best_plan(by: Sequence[str]) -> dict[str, Reduction]:
    """The reductions `best_from` reads."""
    return plan(BestSums(by), Counts())


def best_from(results: dict[str, Any], by: Sequence[str], min_n: int, z: float) -> pd.DataFrame:
    """The [`best_contract`][tarotsim.analysis.best.best_contract] table from reduced records (see `best_plan`)."""
    cols = list(by)
    counts = results[Counts.key]
    present = contracts_played(counts)
    choices = [PASS, *present]
    score_columns = [f"score_{c}" for c in present]
    columns = [
        *cols, "best", "best_score", "runner_up", "runner_up_score", "diff", "diff_low",
        "diff_high", "decided", "same_play", "n", "low_n", *score_columns,
    ]  # fmt: skip
    if not present:
        return pd.DataFrame(columns=columns)
    if len(present) > 1 and counts["rows_per_deal"] == 1:
        raise ValueError(
            "best_contract needs sweep records (each deal played under several contracts); "
            "these hold one row per deal, so contracts would be compared on different hands"
        )
    sums = results[BestSums(cols).key].sort_index()
    strata = None
    if WEIGHT in sums.index.names:
        strata = sums
        sums = strata.groupby(level=cols, sort=True).sum() if cols else strata.sum().to_frame().T
    n = sums["n"].to_numpy(dtype=np.int64)
    position = [0, *(1 + CONTRACTS.index(c) for c in present)]
    means = {PASS: np.where(n > 0, 0.0, np.nan)}
    for con, i in zip(present, position[1:], strict=True):
        if strata is None:
            means[con] = exact_means(sums[f"sum_{i}"].to_numpy(), sums[f"count_{i}"].to_numpy())
        else:
            means[con] = _weighted(strata, cols, f"sum_{i}", f"count_{i}")[0]
    ranked = rank_choices(pd.DataFrame(means), choices)
    best_i = np.array([position[choices.index(c)] for c in ranked["best"]], dtype=np.int64)
    runner_i = np.array(
        [-1 if c is None else position[choices.index(c)] for c in ranked["runner_up"]], dtype=np.int64
    )

    pairs, total, squares, differ = (np.zeros(len(sums), dtype=object) for _ in range(4))
    for row, (b, r) in enumerate(zip(best_i.tolist(), runner_i.tolist(), strict=True)):
        if r < 0:
            continue
        i, j = min(b, r), max(b, r)
        sign = 1 if b < r else -1
        pairs[row] = int(sums[f"pairs_{i}_{j}"].iloc[row])
        total[row] = sign * sums[f"diff_{i}_{j}"].iloc[row].item()
        squares[row] = sums[f"diff_sq_{i}_{j}"].iloc[row].item()
        differ[row] = int(sums[f"differ_{i}_{j}"].iloc[row]) if i > 0 else 1
    pairs = pairs.astype(np.int64)
    if strata is None:
        mean_diff = exact_means(total, pairs)
        with np.errstate(invalid="ignore", divide="ignore"):
            half = z * np.sqrt(exact_variances(pairs, total, squares)) / np.sqrt(pairs)
    else:
        mean_diff, half = np.full(len(sums), np.nan), np.full(len(sums), np.nan)
        for row, (b, r) in enumerate(zip(best_i.tolist(), runner_i.tolist(), strict=True)):
            if r < 0:
                continue
            i, j = min(b, r), max(b, r)
            m, v = _weighted(strata, cols, f"diff_{i}_{j}", f"pairs_{i}_{j}", f"diff_sq_{i}_{j}")
            mean_diff[row] = (1 if b < r else -1) * m[row]
            half[row] = z * np.sqrt(v[row])
    same_play = (best_i > 0) & (runner_i > 0) & (differ.astype(np.int64) == 0)
    out = sums.index.to_frame(index=False).assign(
        best=ranked["best"].to_numpy(),
        best_score=ranked["best_score"].to_numpy(),
        runner_up=ranked["runner_up"].to_numpy(),
        runner_up_score=ranked["runner_up_score"].to_numpy(),
        diff=mean_diff,
        diff_low=mean_diff - half,
        diff_high=mean_diff + half,
        decided=(mean_diff - half > 0) & ~same_play & (n >= min_n),
        same_play=same_play,
        n=n,
        low_n=n < min_n,
        **{f"score_{c}": means[c] for c in present},
    )
    out = out[n > 0].reset_index(drop=True)
    return out[columns]


def _weighted(
    strata: pd.DataFrame, cols: list[str], total: str, count: str, squares: str | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Per cell of `cols` (sorted), the stratified mean of a value summed per stratum (``total``
    over ``count`` rows, ``squares`` its sum of squares) and the variance of that mean:
    ``Σ a_h m_h`` and ``Σ a_h² s²_h / n_h`` with ``a_h = w_h n_h / Σ w_k n_k``
    (as `weighted_cell_table`); NaN variance without `squares`."""
    w = strata.index.get_level_values(WEIGHT).to_numpy(dtype=float)
    n = strata[count].to_numpy(dtype=float)
    s = np.array([float(v) for v in strata[total].tolist()])
    parts = pd.DataFrame({"n": n, "wn": w * n, "ws": w * s}, index=strata.index)
    if squares is not None:
        var = exact_variances(
            strata[count].to_numpy(dtype=np.int64), strata[total].to_numpy(), strata[squares].to_numpy()
        )
        parts["w2v"] = w * w * n * np.nan_to_num(var, nan=0.0)
    grouped = parts.groupby(level=cols, sort=True).sum() if cols else parts.sum().to_frame().T
    wn = grouped["wn"].to_numpy()
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = grouped["ws"].to_numpy() / wn
        variance = (
            np.where(grouped["n"].to_numpy() >= 2, grouped["w2v"].to_numpy() / (wn * wn), np.nan)
            if squares is not None
            else np.full(len(wn), np.nan)
        )
    return mean, variance
