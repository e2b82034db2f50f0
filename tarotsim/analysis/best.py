"""The best choice in each cell of hands: the contract with the highest mean taker score, or passing.

Contracts are compared on the same hands only in sweep records (every deal played under
every contract); passing scores 0. Each cell says by how much its best choice beats the
runner-up on the same deals, with a 95 % interval, and whether that settles the choice.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from tarotsim.analysis.intervals import Z95, check_z
from tarotsim.analysis.loading import (
    RECORD_COLUMNS,
    Data,
    by_columns,
    check_min_n,
    contract_codes,
    contracts_present,
    load_records,
    played_rows,
    require_columns,
)
from tarotsim.analysis.play import play_keys
from tarotsim.labels import Contract

PASS = Contract.PASS.label
"""What the taker scores 0 by choosing: the label of passing in :func:`best_contract`."""


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
    """Played records as deals × contracts arrays, and the cell of hands each deal falls in.

    Attributes
    ----------
    cell : numpy.ndarray
        int64[n_deals]: the cell of each deal (index into `cells`), -1 when a `by`
        value is missing.
    cells : pandas.DataFrame
        One row per cell: the `by` values, sorted.
    scores : numpy.ndarray
        float64[n_deals, 1 + n_contracts]: the taker's score, column 0 passing (0),
        then each contract present, low to high; NaN where the deal was not played
        under that contract.
    plays : numpy.ndarray
        int64[n_deals, n_contracts]: the play key of each record (:func:`play_keys`),
        -1 where absent; no columns when made with ``plays=False``.
    rows_per_deal : numpy.ndarray
        int64[n_deals]: played records of each deal.
    """

    def __init__(
        self, played: pd.DataFrame, cols: list[str], present: list[str], *, plays: bool = True
    ) -> None:
        deal_i, deals = pd.factorize(played["deal"])
        con_i = contract_codes(played, present)
        n_deals = len(deals)
        grouped = played.groupby(cols, observed=True, sort=True, dropna=True)
        codes = grouped.ngroup().to_numpy(dtype=float)
        codes = np.where(np.isnan(codes), -1, codes).astype(np.int64)
        self.cells = grouped.size().index.to_frame(index=False)
        low = np.full(n_deals, np.iinfo(np.int64).max)
        high = np.full(n_deals, -1, dtype=np.int64)
        np.minimum.at(low, deal_i, codes)
        np.maximum.at(high, deal_i, codes)
        if np.any(low != high):
            raise ValueError(
                f"by column(s) {', '.join(map(repr, cols))} differ between the contracts of a deal; "
                "group by features of the hand as dealt (bouts, trumps, hand points)"
            )
        self.cell = high
        self.rows_per_deal = np.bincount(deal_i, minlength=n_deals)
        slot = deal_i * len(present) + con_i
        if np.bincount(slot, minlength=n_deals * len(present)).max(initial=0) > 1:
            raise ValueError(
                "a deal is recorded twice under the same contract; each (deal, contract) must appear once"
            )
        self.scores = np.full((n_deals, 1 + len(present)), np.nan)
        self.scores[:, 0] = 0.0
        self.scores[deal_i, 1 + con_i] = played["taker_score"].to_numpy(dtype=float)
        self.plays = np.full((n_deals, len(present) if plays else 0), -1, dtype=np.int64)
        if plays:
            self.plays[deal_i, con_i] = play_keys(played)

    def cell_sums(self, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per cell: the sum and the count of the non-NaN entries of `values` (float[n_deals])."""
        keep = (self.cell >= 0) & ~np.isnan(values)
        n_cells = len(self.cells)
        sums = np.bincount(self.cell[keep], weights=values[keep], minlength=n_cells)
        counts = np.bincount(self.cell[keep], minlength=n_cells)
        return sums, counts


def best_contract(
    data: Data,
    by: str | Sequence[str] = ("taker_bouts", "taker_trumps"),
    min_n: int = 30,
    *,
    z: float = Z95,
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
    deal of the cell (``same_play``, see :mod:`tarotsim.analysis.play`; Prise and Garde
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
    df = load_records(data, columns=[*RECORD_COLUMNS, *cols])
    if not cols:
        raise ValueError("by must name at least one column besides 'contract'")
    check_min_n(min_n)
    check_z(z)
    require_columns(df, ["deal", "contract", *cols, "made", "taker_score"], what="best_contract")
    played = played_rows(df, what="best_contract")
    present = contracts_present(played)
    choices = [PASS, *present]
    score_columns = [f"score_{c}" for c in present]
    columns = [
        *cols, "best", "best_score", "runner_up", "runner_up_score", "diff", "diff_low",
        "diff_high", "decided", "same_play", "n", "low_n", *score_columns,
    ]  # fmt: skip
    if played.empty:
        return pd.DataFrame(columns=columns)
    grid = DealGrid(played, cols, present)
    if len(present) > 1 and grid.rows_per_deal.max() == 1:
        raise ValueError(
            "best_contract needs sweep records (each deal played under several contracts); "
            "these hold one row per deal, so contracts would be compared on different hands"
        )
    means = {}
    for i, con in enumerate(choices):
        sums, counts = grid.cell_sums(grid.scores[:, i])
        with np.errstate(invalid="ignore", divide="ignore"):
            means[con] = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
    ranked = rank_choices(pd.DataFrame(means), choices)
    index = {c: i for i, c in enumerate(choices)}
    best_i = ranked["best"].map(index).to_numpy(dtype=np.int64)
    runner = ranked["runner_up"].map(index)
    runner_i = runner.fillna(-1).to_numpy(dtype=np.int64)

    deal_rows = np.arange(len(grid.cell))
    in_cell = grid.cell >= 0
    cell = np.where(in_cell, grid.cell, 0)
    b, r = best_i[cell], runner_i[cell]
    diff = grid.scores[deal_rows, b] - grid.scores[deal_rows, np.maximum(r, 0)]
    diff = np.where(in_cell & (r >= 0), diff, np.nan)
    sums, n_pairs = grid.cell_sums(diff)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_diff = np.where(n_pairs > 0, sums / np.maximum(n_pairs, 1), np.nan)
        squares, _ = grid.cell_sums((diff - mean_diff[cell]) ** 2)
        half = z * np.sqrt(squares / (n_pairs - 1)) / np.sqrt(n_pairs)
    half = np.where(n_pairs >= 2, half, np.nan)

    both_contracts = (b > 0) & (r > 0)
    differs = both_contracts & (
        grid.plays[deal_rows, np.maximum(b - 1, 0)] != grid.plays[deal_rows, np.maximum(r - 1, 0)]
    )
    differs_in_cell = np.bincount(grid.cell[in_cell], weights=differs[in_cell], minlength=len(grid.cells))
    same_play = (best_i > 0) & (runner_i > 0) & (differs_in_cell == 0)

    n = np.bincount(grid.cell[in_cell], minlength=len(grid.cells)).astype(np.int64)
    out = grid.cells.assign(
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
