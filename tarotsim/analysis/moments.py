"""Counts and exact sums per cell of played records, and what tables read from them.

Scores, margins and points are whole numbers in every record, so their sums and sums of
squares are kept as integers (``int64``, or Python integers where a sum could overflow it):
they merge exactly, in any order, and a mean or a variance read from them is the correctly
rounded value of the exact one. A mean equals pandas' ``groupby().mean()`` to the last digit; a
standard deviation may differ from pandas' (a streaming update in floating point) by a few
units in the last place. Fractional values, which no record holds, are summed in floating
point.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from tarotsim.analysis.loading import thrown_in_counts
from tarotsim.analysis.reduction import Chunk, Reduction, deal_index
from tarotsim.engine.labels import CONTRACTS, THROWN_IN_NAMES

CONTRACT = "contract"
N, MADE, SCORE, SCORE_SQ, MARGIN = "_n", "_made", "_score", "_score_sq", "_margin"
"""Columns of a `CellSums` result: deals, made, Σ score, Σ score², Σ signed margin."""
WEIGHT = "_weight"
"""Last level of a `CellSums` result on weighted records (a conditioned sweep's
``weight``): its stratum, the rows of one weight, summed apart and combined by `cell_table`."""

_PLAYED_COLUMNS = ("deal", "contract", "thrown_in")


def whole_numbers(values: pd.Series | np.ndarray) -> np.ndarray:
    """int64[n] when every value is a whole number below 2**31 in size (so that its square fits
    in int64), else float64[n]."""
    if isinstance(values, pd.Series) and (
        pd.api.types.is_integer_dtype(values.dtype) or pd.api.types.is_bool_dtype(values.dtype)
    ):
        numbers = values.to_numpy(dtype=np.int64)
        if np.abs(numbers).max(initial=0) < 2**31:
            return numbers
    floats = np.asarray(values, dtype=np.float64)
    if np.all(np.isfinite(floats) & (floats == np.rint(floats)) & (np.abs(floats) < 2.0**31)):
        return floats.astype(np.int64)
    return floats


def exact_bincount(index: np.ndarray, values: np.ndarray, n: int) -> np.ndarray:
    """Per index in ``range(n)``, the exact sum of int64 `values` (float sums for float values).

    The sums are int64, or Python integers (an object array) when they could overflow it.
    """
    if values.dtype != np.int64:
        return np.bincount(index, weights=values, minlength=n)
    bound = float(np.abs(values).max(initial=0)) * len(values)
    if bound < 2.0**53:
        # every partial sum is an integer below 2**53: the float sums are exact
        return np.rint(np.bincount(index, weights=values.astype(float), minlength=n)).astype(np.int64)
    out = np.zeros(n, dtype=np.int64 if bound < 2.0**63 else object)
    np.add.at(out, index, values if out.dtype == np.int64 else values.astype(object))
    return out


def exact_means(total: np.ndarray, n: np.ndarray) -> np.ndarray:
    """float[k]: ``total / n``, correctly rounded; NaN where ``n == 0``."""
    return np.array(
        [a / k if k else math.nan for a, k in zip(total.tolist(), n.tolist(), strict=True)], dtype=float
    )


def exact_variances(n: np.ndarray, total: np.ndarray, squares: np.ndarray) -> np.ndarray:
    """float[k]: sample variances (``ddof=1``) from counts, sums and sums of squares; NaN where ``n < 2``.

    With integer sums the variance ``(n·Σx² − (Σx)²) / (n(n − 1))`` is computed exactly and
    rounded once.
    """
    out = np.full(len(n), math.nan)
    for i, (k, a, b) in enumerate(zip(n.tolist(), total.tolist(), squares.tolist(), strict=True)):
        if k < 2:
            continue
        if isinstance(a, int) and isinstance(b, int):
            out[i] = (k * b - a * a) / (k * (k - 1))
        else:
            out[i] = max((b - a * a / k) / (k - 1), 0.0)
    return out


def _level(values: pd.Series) -> tuple[np.ndarray, pd.Index]:
    """int64 codes of `values` into sorted uniques (-1 where missing), and the uniques."""
    dtype = values.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        return values.cat.codes.to_numpy(dtype=np.int64), pd.CategoricalIndex(dtype.categories, dtype=dtype)
    if pd.api.types.is_integer_dtype(dtype) and not values.hasnans:
        numbers = values.to_numpy(dtype=np.int64)
        low, high = (int(numbers.min()), int(numbers.max())) if len(numbers) else (0, -1)
        if high - low < 2**16:
            return numbers - low, pd.Index(np.arange(low, high + 1), dtype=dtype)
    codes, uniques = pd.factorize(values, sort=True, use_na_sentinel=True)
    return codes.astype(np.int64), pd.Index(uniques, dtype=dtype)


def cell_codes(
    keys: Sequence[tuple[str, pd.Series]], *, dropna: bool, cache: dict[Any, Any] | None = None
) -> tuple[np.ndarray, pd.MultiIndex]:
    """The cell of each row of `keys` (name, values), and the cells seen, sorted by key.

    Returns
    -------
    (cell, cells) : tuple
        int64[n_rows]: the position of each row's cell in `cells`, -1 for a row with a
        missing key when `dropna`; and the MultiIndex of the cells seen, sorted like
        ``groupby(sort=True)`` (a missing key last, when not `dropna`). With `cache` (a
        chunk's), each key's codes are made once per chunk, by name.
    """
    found = []
    for name, values in keys:
        if cache is None:
            found.append(_level(values))
        else:
            if ("level", name) not in cache:
                cache[("level", name)] = _level(values)
            found.append(cache[("level", name)])
    codes, levels = zip(*found, strict=True)
    rows = len(codes[0])
    sizes = [len(level) + 1 for level in levels]  # the last code of a level: its value is missing
    combined, span, renumbered = np.zeros(rows, dtype=np.int64), 1, False
    missing = np.zeros(rows, dtype=bool)
    for code, level, size in zip(codes, levels, sizes, strict=True):
        missing |= code < 0
        combined, span = combined * size + np.where(code < 0, len(level), code), span * size
        if span > 2**40:  # renumber the cells seen so far, in the same order, before the code overflows
            combined = np.unique(combined, return_inverse=True)[1].astype(np.int64)
            span, renumbered = int(combined.max(initial=0)) + 1, True
    valid = ~missing if dropna else np.ones(rows, dtype=bool)
    cell = np.full(rows, -1, dtype=np.int64)
    if renumbered or span > 2**22:
        _, first, cell[valid] = np.unique(combined[valid], return_index=True, return_inverse=True)
        level_codes = [code[valid][first] for code in codes]
    else:
        seen = np.flatnonzero(np.bincount(combined[valid], minlength=span))
        renumber = np.zeros(span, dtype=np.int64)
        renumber[seen] = np.arange(len(seen))
        cell[valid] = renumber[combined[valid]]
        level_codes = list(np.unravel_index(seen, sizes))
    level_codes = [np.where(c == len(level), -1, c) for c, level in zip(level_codes, levels, strict=True)]
    cells = pd.MultiIndex(levels=list(levels), codes=level_codes, names=[name for name, _ in keys])
    return cell, cells


def merge_frames(partials: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """Partial sums indexed by cell, summed cell by cell, exactly: an integer column whose sums
    could overflow int64 is summed as Python integers."""
    frame = pd.concat(partials)
    for column in frame.columns:
        if frame[column].dtype == np.int64 and float(frame[column].abs().max()) * len(partials) >= 2.0**63:
            frame[column] = frame[column].astype(object)
    levels = list(range(frame.index.nlevels))
    return frame.groupby(level=levels, sort=False, observed=True, dropna=False).sum()


class CellSums(Reduction):
    """Per cell of played rows (contract, then `keys`): deals, made, Σ score, Σ score², Σ signed margin.

    The result is a DataFrame indexed by ``(contract code, *keys)`` (the code is the
    contract's position in [`CONTRACTS`][tarotsim.engine.labels.CONTRACTS]) with int64 columns
    `N`, and with ``sums``: `MADE`, `SCORE`, `SCORE_SQ` (taker
    score, game points) and, with ``margin``, `MARGIN` (``+margin`` made, ``-margin``
    failed, card points). Rows with a missing key are left out unless ``dropna`` is false.
    """

    def __init__(
        self, keys: Sequence[str], *, sums: bool = True, margin: bool = False, dropna: bool = True
    ) -> None:
        self.keys = list(keys)
        self.sums = sums
        self.margin = margin
        self.dropna = dropna
        values = ("made", "taker_score", *(("margin",) if margin else ())) if sums else ()
        self.columns = (*_PLAYED_COLUMNS, *values, *self.keys, "weight")
        self.key = f"cells:{','.join(self.keys)}:sums={sums}:margin={margin}:dropna={dropna}"

    def partial(self, chunk: Chunk) -> pd.DataFrame:
        played = chunk.played
        keys = [(CONTRACT, pd.Series(chunk.codes)), *((k, played[k]) for k in self.keys)]
        if "weight" in played.columns:  # each weight summed apart: its stratum
            keys.append((WEIGHT, played["weight"]))
        cell, cells = cell_codes(keys, dropna=self.dropna, cache=chunk.cache)
        inside = cell >= 0
        where, n = cell[inside], len(cells)
        data = {N: np.bincount(where, minlength=n).astype(np.int64)}
        if self.sums:
            made = played["made"].to_numpy(dtype=bool)[inside]
            score = whole_numbers(played["taker_score"])[inside]
            data[MADE] = np.bincount(where, weights=made, minlength=n).astype(np.int64)
            data[SCORE] = exact_bincount(where, score, n)
            data[SCORE_SQ] = exact_bincount(where, score * score, n)
            if self.margin:
                signed = np.where(made, 1, -1) * whole_numbers(played["margin"])[inside]
                data[MARGIN] = exact_bincount(where, signed, n)
        return pd.DataFrame(data, index=cells)

    def merge(self, partials: Sequence[pd.DataFrame]) -> pd.DataFrame:
        return merge_frames(partials)


def cell_table(sums: pd.DataFrame, contract: str | None = None) -> pd.DataFrame:
    """A `CellSums` result as a flat table with the contract's label, sorted by cell.

    Columns: ``contract``, the keys, ``n``, and with sums ``made``, ``mean_score``,
    ``score_var`` (``ddof=1``) and ``mean_margin`` (when summed). Only `contract`'s cells when
    it is given. On weighted records see `weighted_cell_table`.
    """
    if WEIGHT in sums.index.names:
        return weighted_cell_table(sums, contract)
    flat = sums.reset_index()
    flat[CONTRACT] = np.asarray(CONTRACTS, dtype=object)[flat[CONTRACT].to_numpy(dtype=np.int64)]
    if contract is not None:
        flat = flat[flat[CONTRACT] == contract]
    keys = [c for c in flat.columns if not str(c).startswith("_")]
    flat = flat.sort_values(keys, kind="mergesort").reset_index(drop=True)
    out = flat[keys].copy()
    n = flat[N].to_numpy(dtype=np.int64)
    out["n"] = n
    if MADE in flat.columns:
        out["made"] = flat[MADE].to_numpy()
        out["mean_score"] = exact_means(flat[SCORE].to_numpy(), n)
        out["score_var"] = exact_variances(n, flat[SCORE].to_numpy(), flat[SCORE_SQ].to_numpy())
    if MARGIN in flat.columns:
        out["mean_margin"] = exact_means(flat[MARGIN].to_numpy(), n)
    return out


def weighted_cell_table(sums: pd.DataFrame, contract: str | None = None) -> pd.DataFrame:
    """`cell_table` of weighted records (a `CellSums` result with the `WEIGHT` level).

    Each cell's rows of one weight ``w_h`` (a stratum h: ``n_h`` deals, rate ``p_h``, mean score
    ``m_h``, variance ``s²_h``) are combined as a stratified estimate: with ``a_h = w_h n_h / Σ
    w_k n_k``, the rate is ``Σ a_h p_h`` and the mean score ``Σ a_h m_h``, of variances
    ``V_p = Σ a_h² p_h (1 − p_h) / n_h`` and ``V_m = Σ a_h² s²_h / n_h`` (the shares ``a_h``
    taken as known: conditional on each stratum's played deals in the cell). The table gives
    them as effective counts, so that every table and fit reads them as it reads plain
    counts: ``n`` is the effective deals ``p (1 − p) / V_p``, at most Kish's ``(Σ w n)² / Σ w² n``
    (never above the deals: strata with no success, or no failure, have an estimated variance of
    0 that would otherwise narrow the interval), ``made`` is ``p · n``, ``score_var`` is ``V_m · n`` (so that
    ``score_var / n = V_m``), ``mean_margin`` is weighted too; ``deals`` is the played deals.
    A cell of one stratum gives its plain counts (up to rounding). Without sums (a tally), ``n``
    is the cell's total weight ``Σ w_h n_h``.
    """
    flat = sums.reset_index()
    flat[CONTRACT] = np.asarray(CONTRACTS, dtype=object)[flat[CONTRACT].to_numpy(dtype=np.int64)]
    if contract is not None:
        flat = flat[flat[CONTRACT] == contract]
    keys = [c for c in flat.columns if not str(c).startswith("_")]
    n = flat[N].to_numpy(dtype=float)
    w = flat[WEIGHT].to_numpy(dtype=float)
    parts = pd.DataFrame({"wn": w * n, "w2n": w * w * n}, index=flat.index)
    has_sums = MADE in flat.columns
    if has_sums:
        made = flat[MADE].to_numpy(dtype=float)
        rate = made / n
        var = exact_variances(
            flat[N].to_numpy(dtype=np.int64), flat[SCORE].to_numpy(), flat[SCORE_SQ].to_numpy()
        )
        parts["wmade"] = w * made
        parts["wscore"] = w * np.array([float(v) for v in flat[SCORE].tolist()])
        parts["w2vp"] = w * w * n * rate * (1.0 - rate)  # (w n)² p (1 - p) / n
        parts["w2vm"] = w * w * n * np.nan_to_num(var, nan=0.0)
        if MARGIN in flat.columns:
            parts["wmargin"] = w * np.array([float(v) for v in flat[MARGIN].tolist()])
    parts["deals"] = flat[N].to_numpy(dtype=np.int64)
    grouped = parts.groupby([flat[k] for k in keys], sort=True, observed=True, dropna=False).sum()
    out = grouped.index.to_frame(index=False)
    total = grouped["wn"].to_numpy()
    if not has_sums:  # a tally: the weight of each cell (an estimate of its probability)
        out["n"] = total
        out["deals"] = grouped["deals"].to_numpy()
        return out.sort_values(keys, kind="mergesort").reset_index(drop=True)
    p = grouped["wmade"].to_numpy() / total
    v_p = grouped["w2vp"].to_numpy() / (total * total)
    kish = total * total / grouped["w2n"].to_numpy()
    with np.errstate(divide="ignore", invalid="ignore"):
        effective = np.where(v_p > 0, np.minimum(p * (1.0 - p) / v_p, kish), kish)
    out["n"] = effective
    out["made"] = p * effective
    out["mean_score"] = grouped["wscore"].to_numpy() / total
    deals = grouped["deals"].to_numpy()
    out["score_var"] = np.where(deals >= 2, grouped["w2vm"].to_numpy() / (total * total) * effective, np.nan)
    if "wmargin" in grouped.columns:
        out["mean_margin"] = grouped["wmargin"].to_numpy() / total
    out["deals"] = grouped["deals"].to_numpy()
    return out.sort_values(keys, kind="mergesort").reset_index(drop=True)


class Counts(Reduction):
    """Rows, played rows by contract, played deals and thrown-in deals and rows by reason.

    The result is a dict: ``rows`` (int), ``played_rows`` (int64[n_contracts], by
    [`CONTRACTS`][tarotsim.engine.labels.CONTRACTS]), ``thrown_in_rows`` (reason → rows), ``played_deals``
    (deals with a played row), ``thrown_in_deals`` (reason → deals without a played row, in
    order of first appearance) and ``rows_per_deal`` (the most played rows of one deal); the
    deal counts need a ``deal`` column (else 0 and empty). A deal lies in one chunk.
    """

    columns = _PLAYED_COLUMNS
    key = "counts"

    def partial(self, chunk: Chunk) -> dict[str, Any]:
        records = chunk.records
        out: dict[str, Any] = {
            "rows": len(records),
            "played_rows": np.bincount(chunk.codes, minlength=len(CONTRACTS)).astype(np.int64),
            "thrown_in_rows": thrown_in_counts(records),
            "played_deals": 0,
            "thrown_in_deals": {},
            "rows_per_deal": 0,
        }
        if "deal" in records.columns:
            index, played = deal_index(chunk)
            out["played_deals"] = len(played)
            out["rows_per_deal"] = int(np.bincount(index).max(initial=0))
            if "thrown_in" in records.columns:
                played = np.sort(played)
                deals = records["deal"].to_numpy()
                at = np.minimum(np.searchsorted(played, deals), max(len(played) - 1, 0))
                some_played = (played[at] == deals) if len(played) else np.zeros(len(deals), dtype=bool)
                thrown = records[["deal", "thrown_in"]][~some_played].drop_duplicates("deal")["thrown_in"]
                counted = thrown.astype(object).value_counts(sort=False)
                out["thrown_in_deals"] = {str(k): int(v) for k, v in counted.items()}
        return out

    def merge(self, partials: Sequence[dict[str, Any]]) -> dict[str, Any]:
        thrown_rows: dict[str, int] = {}
        thrown_deals: dict[str, int] = {}
        for p in partials:
            for reason, count in p["thrown_in_rows"].items():
                thrown_rows[reason] = thrown_rows.get(reason, 0) + count
            for reason, count in p["thrown_in_deals"].items():
                thrown_deals[reason] = thrown_deals.get(reason, 0) + count
        order = {name: i for i, name in enumerate(THROWN_IN_NAMES)}
        return {
            "rows": sum(p["rows"] for p in partials),
            "played_rows": np.sum([p["played_rows"] for p in partials], axis=0).astype(np.int64),
            "thrown_in_rows": dict(sorted(thrown_rows.items(), key=lambda kv: order.get(kv[0], len(order)))),
            "played_deals": sum(p["played_deals"] for p in partials),
            "thrown_in_deals": thrown_deals,
            "rows_per_deal": max(p["rows_per_deal"] for p in partials),
        }


def contracts_played(counts: dict[str, Any]) -> list[str]:
    """Contracts with played rows in a `Counts` result, low to high."""
    return [c for c, rows in zip(CONTRACTS, counts["played_rows"], strict=True) if rows > 0]
