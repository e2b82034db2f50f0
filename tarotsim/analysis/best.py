"""The best choice in each cell of hands: the contract with the highest mean taker score, or passing.

Contracts are compared on the same hands only in sweep records (every deal played under
every contract); passing scores 0.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from tarotsim.analysis.loading import (
    RECORD_COLUMNS,
    Data,
    by_columns,
    check_min_n,
    contracts_present,
    load_records,
    played_rows,
    require_columns,
)
from tarotsim.labels import Contract

PASS = Contract.PASS.label
"""What the taker scores 0 by choosing: the label of passing in :func:`best_contract`."""


def rank_choices(scores: pd.DataFrame, candidates: Sequence[str]) -> pd.DataFrame:
    """Best and runner-up of each row of `scores` (columns = candidates, NaN = absent).

    Ties go to the candidate listed first (``pass`` before the contracts, lower
    contracts before higher ones).
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
    best_score = values[rows, best_i]
    second_score = values[rows, second_i]
    return pd.DataFrame(
        {
            "best": names[best_i],
            "best_score": best_score,
            "runner_up": np.where(np.isnan(second_score), None, names[second_i]),
            "runner_up_score": second_score,
            "margin_over_runner_up": best_score - second_score,
        },
        index=scores.index,
    )


def best_contract(
    data: Data,
    by: str | Sequence[str] = ("taker_bouts", "taker_trumps"),
    min_n: int = 30,
) -> pd.DataFrame:
    """The contract with the highest mean taker score in each cell, against passing.

    Meant for sweep data, where every deal is played under several contracts,
    so that the contracts are compared on the same hands. Passing scores 0. The
    mean score of a contract is over its played rows in the cell; thrown-in rows
    are excluded.

    Parameters
    ----------
    data : pandas.DataFrame or str or os.PathLike
        Sweep records (one row per deal and contract) or a run directory.
    by : str or sequence of str, optional
        Columns that define a cell. Default: the taker's bouts and trump length.
    min_n : int, optional
        Cells with fewer played deals are flagged in ``low_n``. Default 30.

    Returns
    -------
    pandas.DataFrame
        One row per cell, sorted by `by`. Columns: the `by` columns, ``best``
        (a contract or ``'pass'``), ``best_score``, ``runner_up``,
        ``runner_up_score``, ``margin_over_runner_up`` (game points, >= 0),
        ``n`` (distinct played deals in the cell), ``low_n`` (``n < min_n``), and
        ``score_<contract>``, the mean taker score of each contract present.
        Ties go to ``pass``, then to the lower contract.

    Raises
    ------
    ValueError
        If columns are missing, or the records hold several contracts but no
        deal is played under more than one (not a sweep: the contracts would be
        compared on different hands).
    """
    cols = by_columns(by)
    df = load_records(data, columns=[*RECORD_COLUMNS, *cols])
    if not cols:
        raise ValueError("by must name at least one column besides 'contract'")
    check_min_n(min_n)
    require_columns(df, ["deal", "contract", *cols, "taker_score"], what="best_contract")
    played = played_rows(df, what="best_contract")
    present = contracts_present(played)
    if len(present) > 1 and not played.duplicated("deal").any():
        raise ValueError(
            "best_contract needs sweep records (each deal played under several contracts); "
            "these hold one row per deal, so contracts would be compared on different hands"
        )
    means = played.pivot_table(
        index=cols, columns="contract", values="taker_score", aggfunc="mean", observed=True
    )
    means = means.reindex(columns=present)
    means.columns = pd.Index(list(present), dtype=object)
    means[PASS] = 0.0
    ranked = rank_choices(means, [PASS, *present])
    n = played.groupby(cols, observed=True)["deal"].nunique().reindex(means.index)
    out = ranked.assign(n=n.astype(np.int64), low_n=n < min_n)
    for c in present:
        out[f"score_{c}"] = means[c]
    return out.sort_index().reset_index()
