"""Paired comparison of two runs of the same deals (same seed) under different policies.

The two runs are read side by side, chunk against chunk: both list their deals in order, so
the rows of the deals up to the smaller of the two last deals read are paired and reduced
to per-contract sums (counts, sums and sums of squares of the per-deal differences), and
only the rest is kept for the next chunk. Memory is that of two chunks, whatever the size
of the runs, and the chunks of the two runs need not be cut alike.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd

from tarotsim.analysis.intervals import Z95, check_z
from tarotsim.analysis.loading import (
    Data,
    Source,
    chunk_sources,
    played_part,
    read_batches,
    require_in,
    sort_by_contract,
    source_columns,
)
from tarotsim.analysis.moments import exact_means, exact_variances, whole_numbers
from tarotsim.labels import CONTRACTS, ThrownIn

COMPARE_COLUMNS = [
    "contract", "n", "rate_a", "rate_b", "rate_diff", "rate_diff_low", "rate_diff_high",
    "mean_score_a", "mean_score_b", "score_diff", "score_diff_low", "score_diff_high",
]  # fmt: skip
"""Columns of :func:`compare`."""

_ALL = -1
"""The contract code of every row when the runs are paired on deals alone (reported as ``'all'``)."""

_SUMS = ("n", "made_a", "made_b", "made_sq", "score_a", "score_b", "score_sq")
"""Per contract: pairs, Σ made (each run), Σ (made_a − made_b)², Σ score (each run), Σ (score_a − score_b)²."""


def compare(run_a: Data, run_b: Data, *, z: float = Z95) -> pd.DataFrame:
    """Paired comparison of two runs of the same deals under different policies.

    Rows are matched on ``(deal, contract)``, or on ``deal`` alone when either
    run has no ``contract`` column; thrown-in rows are dropped from both first.
    Differences are *a minus b*, with a normal-approximation interval from the
    per-deal differences: ``mean(d) ± z · std(d, ddof=1) / sqrt(n)``, where
    ``d`` is ``made_a - made_b`` (in {-1, 0, 1}) for the rate and
    ``taker_score_a - taker_score_b`` for the score. The runs are read chunk against
    chunk (see the module's notes): memory does not grow with their size.

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
        If columns are missing, a key repeats within a run, a run's chunks are not in
        deal order, or the two runs do not hold the same played deals (the message says
        how many are missing from each).
    """
    check_z(z)
    sources = {"run_a": chunk_sources(run_a), "run_b": chunk_sources(run_b)}
    present = {name: source_columns(found[0]) for name, found in sources.items()}
    for name, columns in present.items():
        require_in(columns, ["deal", "made", "taker_score"], what=f"compare ({name})")
    by_contract = all("contract" in columns for columns in present.values())
    keys = ["deal", "contract"] if by_contract else ["deal"]
    read = ["deal", "contract", "thrown_in", "made", "taker_score"]
    totals: dict[int, np.ndarray] = {}
    missing = {"run_a": 0, "run_b": 0}
    stream_a, stream_b = _Stream(sources["run_a"], read, "run_a"), _Stream(sources["run_b"], read, "run_b")
    for part_a, part_b in stream_a.pieces(stream_b):
        sides = [_paired_side(df, name, keys, by_contract) for name, df in (("run_a", part_a), ("run_b", part_b))]
        merged = sides[0].merge(sides[1], on=keys, how="outer", suffixes=("_a", "_b"), indicator=True, sort=False)
        missing["run_a"] += int((merged["_merge"] == "left_only").sum())
        missing["run_b"] += int((merged["_merge"] == "right_only").sum())
        merged = merged[merged["_merge"] == "both"]
        if not by_contract:
            merged = merged.assign(contract=_ALL)
        for con, g in merged.groupby("contract", sort=False, observed=True):
            made_a, made_b = g["made_a"].to_numpy(dtype=np.int64), g["made_b"].to_numpy(dtype=np.int64)
            score_a, score_b = whole_numbers(g["taker_score_a"]), whole_numbers(g["taker_score_b"])
            sums = [len(g), made_a.sum(), made_b.sum(), ((made_a - made_b) ** 2).sum(), score_a.sum(),
                    score_b.sum(), ((score_a - score_b) ** 2).sum()]  # fmt: skip
            row = np.array([v.item() if isinstance(v, np.generic) else v for v in sums], dtype=object)
            totals[con] = totals[con] + row if con in totals else row
    if missing["run_a"] or missing["run_b"]:
        what = "(deal, contract) rows" if by_contract else "deals"
        raise ValueError(
            f"the runs do not hold the same deals: {missing['run_a']} played {what} of run_a are missing "
            f"from run_b and {missing['run_b']} of run_b are missing from run_a (same seed and deal count?)"
        )
    out = _table(totals, z)
    return sort_by_contract(out, []) if by_contract else out


def _paired_side(df: pd.DataFrame, name: str, keys: list[str], by_contract: bool) -> pd.DataFrame:
    """The played rows of one run's piece: its keys (the contract as a code), ``made`` (0/1), ``taker_score``."""
    if by_contract:
        df, codes = played_part(df, what=f"compare ({name})")
        df = df.assign(contract=codes)
    elif "thrown_in" in df.columns:
        df = df[df["thrown_in"].astype(object) == ThrownIn.NONE.label]
    dup = df.duplicated(keys)
    if dup.any():
        raise ValueError(f"{name} repeats {int(dup.sum())} key(s) {tuple(keys)}; each must appear once")
    part = df[keys].copy()
    part["made"] = df["made"].to_numpy(dtype=bool).astype(np.int64)
    part["taker_score"] = df["taker_score"].to_numpy()
    return part


def _table(totals: dict[int, np.ndarray], z: float) -> pd.DataFrame:
    """The :func:`compare` table from each contract's sums (see :data:`_SUMS`)."""
    rows = []
    for con, sums in totals.items():
        n, made_a, made_b, made_sq, score_a, score_b, score_sq = sums.tolist()
        count = np.array([n])
        rate = _paired(count, made_a - made_b, made_sq, z)
        score = _paired(count, score_a - score_b, score_sq, z)
        rows.append(
            {
                "contract": "all" if con == _ALL else CONTRACTS[con],
                "n": n,
                "rate_a": made_a / n,
                "rate_b": made_b / n,
                "rate_diff": rate[0],
                "rate_diff_low": rate[1],
                "rate_diff_high": rate[2],
                "mean_score_a": score_a / n,
                "mean_score_b": score_b / n,
                "score_diff": score[0],
                "score_diff_low": score[1],
                "score_diff_high": score[2],
            }
        )
    return pd.DataFrame(rows, columns=COMPARE_COLUMNS).astype({"n": np.int64})


def _paired(n: np.ndarray, total: Any, squares: Any, z: float) -> tuple[float, float, float]:
    """Mean of paired differences and its normal interval, from their count, sum and sum of squares."""
    mean = float(exact_means(np.array([total], dtype=object), n)[0])
    sd = float(np.sqrt(exact_variances(n, np.array([total], dtype=object), np.array([squares], dtype=object))[0]))
    half = z * sd / np.sqrt(float(n[0]))
    return mean, mean - half, mean + half


class _Stream:
    """The rows of one run, batch after batch of whole deals, handed out by deal (see :meth:`pieces`)."""

    def __init__(self, sources: list[Source], columns: list[str], name: str) -> None:
        self.batches: Iterator[pd.DataFrame] = (b for source in sources for b in read_batches(source, columns))
        self.name = name
        self.rows = pd.DataFrame()
        self.last = -np.inf
        self.done = False

    def _fill(self) -> None:
        """Read batches until rows are held or the run is read."""
        while self.rows.empty and not self.done:
            batch = next(self.batches, None)
            if batch is None:
                self.done = True
            elif not batch.empty:
                deals = batch["deal"].to_numpy()
                if deals.min() <= self.last:
                    raise ValueError(f"{self.name}: its chunks are not in deal order (deal {deals.min()} read twice)")
                self.last = float(deals.max())
                self.rows = batch

    def _take(self, upto: float) -> pd.DataFrame:
        """The rows held of deals up to `upto`; the others stay held."""
        keep = self.rows["deal"].to_numpy() <= upto
        taken, self.rows = self.rows[keep], self.rows[~keep]
        return taken

    def pieces(self, other: _Stream) -> Iterator[tuple[pd.DataFrame, pd.DataFrame]]:
        """Pairs of row sets, this run's and `other`'s, of the same deals, until both are read."""
        while True:
            self._fill()
            other._fill()
            if self.rows.empty and other.rows.empty:
                return
            upto = min(self.last, other.last) if not (self.done or other.done) else np.inf
            yield self._take(upto), other._take(upto)
