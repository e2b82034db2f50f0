"""Records in: read a run's records, keep the played deals, and check what every table needs.

Every public function of :mod:`tarotsim.analysis` takes either a records DataFrame (one row
per deal, or one row per ``(deal, contract)`` for contract sweeps) or the path of a run
directory, which :func:`load_records` reads through :mod:`tarotsim.run.store` (the only
reader of run directories).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import Union

import numpy as np
import pandas as pd

from tarotsim.labels import CONTRACTS, ThrownIn
from tarotsim.run import store

Data = Union[pd.DataFrame, str, "os.PathLike[str]"]
"""Records, or the path of a run directory holding them."""

RECORD_COLUMNS = (
    "deal", "contract", "thrown_in", "taker_trumps", "taker_bouts", "hand_points",
    "attack_points", "attack_bouts", "made", "margin", "taker_score",
)  # fmt: skip
"""Record columns the analysis reads from a run directory (besides any ``by`` columns)."""

PLAYED_ONLY = "played_only"
"""Key of ``DataFrame.attrs`` that marks a frame :func:`played_rows` already made."""

_PLAYED = ThrownIn.NONE.label


def load_records(data: Data, columns: Sequence[str] | None = None) -> pd.DataFrame:
    """Return a records DataFrame, reading it from a run directory if needed.

    Parameters
    ----------
    data : pandas.DataFrame or str or os.PathLike
        Records, returned unchanged (the same object), or a run directory that
        holds ``manifest.json`` and ``chunks/chunk-*.parquet``.
    columns : sequence of str, optional
        When reading a run directory, read only these columns (those that exist),
        which keeps memory low on runs of millions of deals.

    Returns
    -------
    pandas.DataFrame
        The records. Chunks are read in file-name order and concatenated with a
        fresh ``RangeIndex``.

    Raises
    ------
    TypeError
        If `data` is neither a DataFrame nor a path.
    ValueError
        If the directory does not exist, or lacks ``manifest.json`` or chunks.
    """
    if isinstance(data, pd.DataFrame):
        return data
    if not isinstance(data, (str, os.PathLike)):
        raise TypeError(
            f"data must be a records DataFrame or the path of a run directory, got {type(data).__name__}"
        )
    return store.load_records(data, columns)


def require_columns(df: pd.DataFrame, columns: Iterable[str], *, what: str) -> None:
    """Raise a ``ValueError`` naming the `columns` that `df` lacks, for the table `what`."""
    missing = [c for c in dict.fromkeys(columns) if c not in df.columns]
    if missing:
        raise ValueError(
            f"{what} needs column(s) {', '.join(map(repr, missing))}, which the records lack "
            f"(they have: {', '.join(map(str, df.columns))})"
        )


def by_columns(by: str | Sequence[str]) -> list[str]:
    """The grouping columns named by `by`, without repeats and without ``contract``."""
    if isinstance(by, str):
        return [by]
    if not isinstance(by, Sequence) or not all(isinstance(c, str) for c in by):
        raise TypeError(f"by must be a column name or a sequence of column names, got {by!r}")
    return [c for c in dict.fromkeys(by) if c != "contract"]


def check_min_n(min_n: int) -> None:
    """Check that `min_n` (fewest deals a cell needs) is an int of at least 1."""
    if isinstance(min_n, bool) or not isinstance(min_n, (int, np.integer)):
        raise TypeError(f"min_n must be an int, got {type(min_n).__name__}")
    if min_n < 1:
        raise ValueError(f"min_n must be at least 1, got {min_n}")


def check_contract(contract: str | None) -> None:
    """Check that `contract` is ``None`` or a contract label."""
    if contract is not None and contract not in CONTRACTS:
        raise ValueError(f"contract must be one of {', '.join(CONTRACTS)}, got {contract!r}")


def played_rows(df: pd.DataFrame, *, what: str) -> pd.DataFrame:
    """Rows of deals actually played, with ``contract`` as plain strings.

    A row is thrown in when ``thrown_in`` (if present) is not ``'none'`` or when it
    has no contract. Unknown contract names raise ``ValueError``. The result is marked
    in its ``attrs`` (:data:`PLAYED_ONLY`), so that a frame of played rows passed on to
    the next table is not filtered and copied again.
    """
    if df.attrs.get(PLAYED_ONLY):
        return df
    keep = played_mask(df, what=what)
    out = df.loc[keep].copy()
    out["contract"] = df["contract"][keep].to_numpy(dtype=object)
    unknown = sorted(map(str, set(out["contract"].unique()) - set(CONTRACTS)))
    if unknown:
        raise ValueError(
            f"unknown contract value(s) {', '.join(map(repr, unknown))}; expected {', '.join(CONTRACTS)}"
        )
    out.attrs[PLAYED_ONLY] = True
    return out


def played_mask(df: pd.DataFrame, *, what: str) -> np.ndarray:
    """bool[n_rows]: which records are of played deals (a contract, and not thrown in)."""
    if df.attrs.get(PLAYED_ONLY):
        return np.ones(len(df), dtype=bool)
    require_columns(df, ["contract"], what=what)
    keep = df["contract"].notna().to_numpy()
    if "thrown_in" in df.columns:
        keep = keep & (df["thrown_in"] == _PLAYED).to_numpy(dtype=bool)
    return keep


def contracts_present(played: pd.DataFrame) -> list[str]:
    """Contracts present in played records, low to high."""
    seen = set(played["contract"].unique())
    return [c for c in CONTRACTS if c in seen]


def contract_codes(played: pd.DataFrame, contracts: Sequence[str]) -> np.ndarray:
    """int64[n_rows]: the position of each record's contract in `contracts` (-1 if absent)."""
    codes, uniques = pd.factorize(played["contract"])
    lookup = np.array([list(contracts).index(u) if u in contracts else -1 for u in uniques], dtype=np.int64)
    return np.append(lookup, -1)[codes]


def thrown_in_counts(df: pd.DataFrame) -> dict[str, int]:
    """Rows of `df` thrown in, by reason (empty without a ``thrown_in`` column)."""
    if "thrown_in" in df.columns:
        counts = df["thrown_in"].value_counts(sort=False, dropna=True)
        return {str(k): int(v) for k, v in counts.items() if k != _PLAYED and v > 0}
    return {}


def sort_by_contract(df: pd.DataFrame, others: Sequence[str]) -> pd.DataFrame:
    """`df` sorted by contract (low to high), then by the columns `others`, reindexed."""
    if df.empty:
        return df.reset_index(drop=True)
    order = {c: i for i, c in enumerate(CONTRACTS)}
    key = df.assign(_order=df["contract"].map(order).to_numpy())
    key = key.sort_values(["_order", *others], kind="mergesort")
    return key.drop(columns="_order").reset_index(drop=True)
