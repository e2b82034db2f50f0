"""Success tables, confidence intervals and thresholds from simulation records.

Every public function takes either a records DataFrame (one row per deal, or one
row per ``(deal, contract)`` for contract sweeps) or the path of a run directory
(``manifest.json`` plus ``chunks/chunk-*.parquet``), which :func:`load_records`
reads. This module uses pandas and NumPy only.

Conventions used throughout:

- Contracts are ``'prise'``, ``'garde'``, ``'garde_sans'``, ``'garde_contre'``,
  reported in that order (low to high).
- Thrown-in deals (``thrown_in != 'none'``, or no contract) are never counted in
  success or score statistics.
- Scores are the taker's score for the deal (``taker_score``, game points, the
  settled ``+3D`` with four players); a pass scores 0.
- Intervals are two-sided at 95 % by default (``z = 1.959963984540054``).
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Sequence
from typing import Union

import numpy as np
import pandas as pd

from tarotsim.run import store

__all__ = [
    "CONTRACTS",
    "PUBLISHED_HAND_POINTS",
    "Z95",
    "best_contract",
    "compare",
    "hand_points_table",
    "hand_points_thresholds",
    "load_records",
    "success_table",
    "thresholds",
    "to_markdown",
    "wilson_interval",
]

#: Contracts, low to high.
CONTRACTS: tuple[str, ...] = ("prise", "garde", "garde_sans", "garde_contre")

#: The usual published bands of the Chavey hand count: bid this contract from
#: this many hand points.
PUBLISHED_HAND_POINTS: dict[str, int] = {
    "prise": 40,
    "garde": 56,
    "garde_sans": 71,
    "garde_contre": 81,
}

#: Two-sided 95 % normal quantile.
Z95 = 1.959963984540054

#: What the taker scores by passing (label used in :func:`best_contract`).
PASS = "pass"

Data = Union[pd.DataFrame, str, "os.PathLike[str]"]


# --------------------------------------------------------------------------- loading

#: Record columns the analysis reads from a run directory (besides any ``by`` columns).
_RECORD_COLUMNS = (
    "deal", "contract", "thrown_in", "taker_trumps", "taker_bouts", "hand_points",
    "attack_points", "attack_bouts", "made", "margin", "taker_score",
)


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
            "data must be a records DataFrame or the path of a run directory, "
            f"got {type(data).__name__}"
        )
    return store.load_records(data, columns)


# --------------------------------------------------------------------------- helpers


def _require(df: pd.DataFrame, columns: Iterable[str], *, what: str) -> None:
    missing = [c for c in dict.fromkeys(columns) if c not in df.columns]
    if missing:
        raise ValueError(
            f"{what} needs column(s) {', '.join(map(repr, missing))}, which the records lack "
            f"(they have: {', '.join(map(str, df.columns))})"
        )


def _as_by(by: str | Sequence[str]) -> list[str]:
    if isinstance(by, str):
        return [by]
    if not isinstance(by, Sequence) or not all(isinstance(c, str) for c in by):
        raise TypeError(f"by must be a column name or a sequence of column names, got {by!r}")
    return [c for c in dict.fromkeys(by) if c != "contract"]


def _check_min_n(min_n: int) -> None:
    if isinstance(min_n, bool) or not isinstance(min_n, (int, np.integer)):
        raise TypeError(f"min_n must be an int, got {type(min_n).__name__}")
    if min_n < 1:
        raise ValueError(f"min_n must be at least 1, got {min_n}")


def _check_contract(contract: str | None) -> None:
    if contract is not None and contract not in CONTRACTS:
        raise ValueError(f"contract must be one of {', '.join(CONTRACTS)}, got {contract!r}")


def _played(df: pd.DataFrame, *, what: str) -> pd.DataFrame:
    """Rows of deals actually played, with ``contract`` as plain strings.

    A row is thrown in when ``thrown_in`` (if present) is not ``'none'`` or when it
    has no contract. Unknown contract names raise ``ValueError``.
    """
    _require(df, ["contract"], what=what)
    contract = df["contract"].astype(object)
    keep = contract.notna().to_numpy()
    if "thrown_in" in df.columns:
        keep = keep & (df["thrown_in"].astype(object) == "none").to_numpy()
    out = df.loc[keep].copy()
    out["contract"] = contract[keep].to_numpy(dtype=object)
    unknown = sorted(map(str, set(out["contract"].unique()) - set(CONTRACTS)))
    if unknown:
        raise ValueError(
            f"unknown contract value(s) {', '.join(map(repr, unknown))}; "
            f"expected {', '.join(CONTRACTS)}"
        )
    return out


def _present(played: pd.DataFrame) -> list[str]:
    """Contracts present in played records, low to high."""
    seen = set(played["contract"].unique())
    return [c for c in CONTRACTS if c in seen]


def _thrown_in_counts(df: pd.DataFrame) -> dict[str, int]:
    if "thrown_in" in df.columns:
        reasons = df["thrown_in"].astype(object)
        reasons = reasons[reasons.notna() & (reasons != "none")]
        return {str(k): int(v) for k, v in reasons.value_counts(sort=False).items()}
    return {}


def _contract_order(values: pd.Series) -> np.ndarray:
    order = {c: i for i, c in enumerate(CONTRACTS)}
    return values.map(order).to_numpy()


def _sort_by_contract(df: pd.DataFrame, others: Sequence[str]) -> pd.DataFrame:
    if df.empty:
        return df.reset_index(drop=True)
    key = df.assign(_order=_contract_order(df["contract"]))
    key = key.sort_values(["_order", *others], kind="mergesort")
    return key.drop(columns="_order").reset_index(drop=True)


def _sem(std: pd.Series, n: pd.Series) -> pd.Series:
    """Standard error of the mean, ``std(ddof=1) / sqrt(n)`` (NaN where ``n < 2``)."""
    return std.astype(float) / np.sqrt(n.astype(float))


# --------------------------------------------------------------------------- intervals


def wilson_interval(
    successes: float | np.ndarray | pd.Series,
    n: float | np.ndarray | pd.Series,
    z: float = Z95,
) -> tuple[float, float] | tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for a binomial proportion.

    Parameters
    ----------
    successes : int or array_like
        Number of successes (made contracts), ``0 <= successes <= n``.
    n : int or array_like
        Number of trials (deals). Broadcasts against `successes`.
    z : float, optional
        Normal quantile; the default gives a two-sided 95 % interval.

    Returns
    -------
    (low, high) : tuple of float or of numpy.ndarray
        Bounds of the success rate, as fractions in [0, 1]. Floats for scalar
        input, float arrays of the broadcast shape otherwise. ``n == 0`` gives NaN.

    Raises
    ------
    ValueError
        If ``n < 0``, ``successes < 0``, ``successes > n`` or ``z <= 0``.

    Examples
    --------
    >>> low, high = wilson_interval(8, 10)
    >>> round(low, 4), round(high, 4)
    (0.4902, 0.9433)
    """
    if not np.isfinite(z) or z <= 0:
        raise ValueError(f"z must be a positive number, got {z!r}")
    k = np.asarray(successes, dtype=float)
    m = np.asarray(n, dtype=float)
    if np.any(m < 0):
        raise ValueError("n must be non-negative")
    if np.any(k < 0) or np.any(k > m):
        raise ValueError("successes must lie between 0 and n")
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / m
        z2n = z * z / m
        denom = 1.0 + z2n
        centre = (p + z2n / 2.0) / denom
        half = z / denom * np.sqrt(p * (1.0 - p) / m + z2n / (4.0 * m))
    # the bounds are exactly 0 at k = 0 and exactly 1 at k = n; keep them so despite rounding
    low = np.where(k == 0, 0.0, np.clip(centre - half, 0.0, 1.0))
    high = np.where(k == m, 1.0, np.clip(centre + half, 0.0, 1.0))
    low = np.where(m > 0, low, np.nan)
    high = np.where(m > 0, high, np.nan)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


# --------------------------------------------------------------------------- success table

_SUCCESS_COLUMNS = [
    "n",
    "made",
    "rate",
    "rate_low",
    "rate_high",
    "mean_score",
    "score_se",
    "mean_margin",
]


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
    cols = _as_by(by)
    df = load_records(data, columns=[*_RECORD_COLUMNS, *cols])
    _check_contract(contract)
    _require(df, ["contract", *cols, "made", "margin", "taker_score"], what="success_table")
    thrown = _thrown_in_counts(df)
    played = _played(df, what="success_table")
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
    table["score_se"] = _sem(table["score_sd"], table["n"])
    table["n"] = table["n"].astype(np.int64)
    table["made"] = table["made"].astype(np.int64)
    table["rate"] = table["made"] / table["n"]
    low, high = wilson_interval(table["made"].to_numpy(), table["n"].to_numpy(), z)
    table["rate_low"] = low
    table["rate_high"] = high
    table = table[[*keys, *_SUCCESS_COLUMNS]]
    table = _sort_by_contract(table, cols)
    table.attrs["thrown_in"] = int(sum(thrown.values()))
    table.attrs["thrown_in_by_reason"] = thrown
    return table


# --------------------------------------------------------------------------- thresholds


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
    _check_min_n(min_n)
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
    return _sort_by_contract(out, ["taker_bouts"])


# --------------------------------------------------------------------------- best contract


def _ranked(scores: pd.DataFrame, candidates: Sequence[str]) -> pd.DataFrame:
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
    cols = _as_by(by)
    df = load_records(data, columns=[*_RECORD_COLUMNS, *cols])
    if not cols:
        raise ValueError("by must name at least one column besides 'contract'")
    _check_min_n(min_n)
    _require(df, ["deal", "contract", *cols, "taker_score"], what="best_contract")
    played = _played(df, what="best_contract")
    present = _present(played)
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
    ranked = _ranked(means, [PASS, *present])
    n = played.groupby(cols, observed=True)["deal"].nunique().reindex(means.index)
    out = ranked.assign(n=n.astype(np.int64), low_n=n < min_n)
    for c in present:
        out[f"score_{c}"] = means[c]
    return out.sort_index().reset_index()


# --------------------------------------------------------------------------- hand points


def _edges(values: pd.Series, bins: int | Sequence[float] | None) -> np.ndarray:
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
    df = load_records(data, columns=_RECORD_COLUMNS)
    _check_min_n(min_n)
    _require(df, ["contract", "hand_points", "taker_score"], what="hand_points_table")
    played = _played(df, what="hand_points_table")
    edges = _edges(played["hand_points"], bins)
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
    stats["score_se"] = _sem(stats["score_sd"], stats["n"])
    present = _present(played)
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
        ``published_from`` (the usual published band: 40, 56, 71, 81).
    """
    table = hand_points_table(data, bins, min_n)
    counted = table[~table["low_n"]]
    present = list(dict.fromkeys(table["contract"]))
    wide = counted.pivot(index="bin_low", columns="contract", values="mean_score")
    wide = wide.reindex(columns=[c for c in present if c in wide.columns])
    highs = dict(zip(table["bin_low"], table["bin_high"], strict=False))
    if len(wide):
        wide = wide.assign(**{PASS: 0.0})
        best = _ranked(wide, [PASS, *[c for c in present if c in wide.columns]])["best"]
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


# --------------------------------------------------------------------------- compare


def _paired(d: np.ndarray, z: float) -> tuple[float, float, float]:
    """Mean of paired differences and its normal-approximation interval."""
    n = len(d)
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = float(d.mean())
    if n < 2:
        return mean, math.nan, math.nan
    half = z * float(d.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half


def compare(run_a: Data, run_b: Data, *, z: float = Z95) -> pd.DataFrame:
    """Paired comparison of two runs of the same deals under different policies.

    Rows are matched on ``(deal, contract)``, or on ``deal`` alone when either
    run has no ``contract`` column; thrown-in rows are dropped from both first.
    Differences are *a minus b*, with a normal-approximation interval from the
    per-deal differences: ``mean(d) ± z · std(d, ddof=1) / sqrt(n)``, where
    ``d`` is ``made_a - made_b`` (in {-1, 0, 1}) for the rate and
    ``taker_score_a - taker_score_b`` for the score.

    Parameters
    ----------
    run_a, run_b : pandas.DataFrame or str or os.PathLike
        Records or run directories of the two runs (same seed, same deals).
    z : float, optional
        Normal quantile of the intervals (default 95 %).

    Returns
    -------
    pandas.DataFrame
        One row per contract (``'all'`` when matched on deal alone). Columns:
        ``contract``, ``n`` (paired rows), ``rate_a``, ``rate_b``, ``rate_diff``,
        ``rate_diff_low``, ``rate_diff_high`` (fractions), ``mean_score_a``,
        ``mean_score_b``, ``score_diff``, ``score_diff_low``, ``score_diff_high``
        (game points). Intervals are NaN when ``n < 2``.

    Raises
    ------
    ValueError
        If columns are missing, a key repeats within a run, or the two runs do
        not hold the same played deals (the message says how many are missing
        from each).
    """
    if not np.isfinite(z) or z <= 0:
        raise ValueError(f"z must be a positive number, got {z!r}")
    a = load_records(run_a, columns=_RECORD_COLUMNS)
    b = load_records(run_b, columns=_RECORD_COLUMNS)
    by_contract = "contract" in a.columns and "contract" in b.columns
    keys = ["deal", "contract"] if by_contract else ["deal"]
    sides = []
    for name, df in (("run_a", a), ("run_b", b)):
        _require(df, ["deal", "made", "taker_score"], what=f"compare ({name})")
        if by_contract:
            df = _played(df, what=f"compare ({name})")
        elif "thrown_in" in df.columns:
            df = df[df["thrown_in"].astype(object) == "none"]
        dup = df.duplicated(keys)
        if dup.any():
            raise ValueError(
                f"{name} repeats {int(dup.sum())} key(s) {tuple(keys)}; each must appear once"
            )
        part = df[keys].copy()
        part["made"] = df["made"].astype(bool).astype(np.int64)
        part["taker_score"] = df["taker_score"].astype(float)
        sides.append(part)
    merged = sides[0].merge(sides[1], on=keys, how="outer", suffixes=("_a", "_b"), indicator=True)
    only_a = int((merged["_merge"] == "left_only").sum())
    only_b = int((merged["_merge"] == "right_only").sum())
    if only_a or only_b:
        what = "(deal, contract) rows" if by_contract else "deals"
        raise ValueError(
            f"the runs do not hold the same deals: {only_a} played {what} of run_a are missing "
            f"from run_b and {only_b} of run_b are missing from run_a (same seed and deal count?)"
        )
    if not by_contract:
        merged["contract"] = "all"
    rows = []
    for con, g in merged.groupby("contract", sort=False, observed=True):
        made_a = g["made_a"].to_numpy(dtype=float)
        made_b = g["made_b"].to_numpy(dtype=float)
        score_a = g["taker_score_a"].to_numpy(dtype=float)
        score_b = g["taker_score_b"].to_numpy(dtype=float)
        rate_diff, rate_low, rate_high = _paired(made_a - made_b, z)
        score_diff, score_low, score_high = _paired(score_a - score_b, z)
        rows.append(
            {
                "contract": con,
                "n": len(g),
                "rate_a": made_a.mean(),
                "rate_b": made_b.mean(),
                "rate_diff": rate_diff,
                "rate_diff_low": rate_low,
                "rate_diff_high": rate_high,
                "mean_score_a": score_a.mean(),
                "mean_score_b": score_b.mean(),
                "score_diff": score_diff,
                "score_diff_low": score_low,
                "score_diff_high": score_high,
            }
        )
    columns = [
        "contract", "n", "rate_a", "rate_b", "rate_diff", "rate_diff_low", "rate_diff_high",
        "mean_score_a", "mean_score_b", "score_diff", "score_diff_low", "score_diff_high",
    ]  # fmt: skip
    out = pd.DataFrame(rows, columns=columns).astype({"n": np.int64})
    return _sort_by_contract(out, []) if by_contract else out


# --------------------------------------------------------------------------- markdown


def _cell(value: object, floatfmt: str, integral: bool) -> str:
    if value is None or value is pd.NA or value is pd.NaT:
        return ""
    if isinstance(value, (float, np.floating)):
        if math.isnan(value):
            return ""
        if integral:
            return str(int(value))
        return format(float(value), floatfmt)
    text = str(value)
    return text.replace("|", "\\|").replace("\n", " ")


def to_markdown(
    df: pd.DataFrame | pd.Series,
    *,
    index: bool | None = None,
    floatfmt: str = ".3f",
) -> str:
    """Format a table as a GitHub Markdown table (no ``tabulate`` needed).

    Parameters
    ----------
    df : pandas.DataFrame or pandas.Series
        The table.
    index : bool, optional
        Whether to write the index as leading column(s). Default: only when it
        is not a plain ``RangeIndex``.
    floatfmt : str, optional
        Format spec for floats (default ``'.3f'``). A float column whose values
        are all whole numbers is written as integers. NaN and None are blank.

    Returns
    -------
    str
        The table, one line per row, numeric columns right-aligned, ending
        with a newline.
    """
    if isinstance(df, pd.Series):
        df = df.to_frame()
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"to_markdown needs a DataFrame or Series, got {type(df).__name__}")
    try:
        format(1.5, floatfmt)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"floatfmt {floatfmt!r} is not a valid float format spec") from exc
    if index is None:
        index = not (
            isinstance(df.index, pd.RangeIndex)
            and df.index.start == 0
            and df.index.step == 1
            and df.index.name is None
        )
    frame = df.reset_index() if index else df
    headers = [" / ".join(map(str, c)) if isinstance(c, tuple) else str(c) for c in frame.columns]
    columns = []
    aligns = []
    for i in range(frame.shape[1]):
        col = frame.iloc[:, i]
        numeric = pd.api.types.is_numeric_dtype(col) and not pd.api.types.is_bool_dtype(col)
        floaty = pd.api.types.is_float_dtype(col)
        integral = False
        if floaty:
            finite = col.dropna().to_numpy(dtype=float)
            integral = bool(np.all(np.isfinite(finite)) and np.all(finite == np.round(finite)))
        columns.append([_cell(v, floatfmt, integral) for v in col.tolist()])
        aligns.append("---:" if numeric else "---")
    headers = [h.replace("|", "\\|") for h in headers]
    lines = [
        "| " + " | ".join(headers) + " |",
        "| " + " | ".join(aligns) + " |",
    ]
    for r in range(len(frame)):
        lines.append("| " + " | ".join(col[r] for col in columns) + " |")
    return "\n".join(lines) + "\n"
