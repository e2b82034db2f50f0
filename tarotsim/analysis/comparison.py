"""Paired comparison of two runs of the same deals (same seed) under different policies.

The two runs are read side by side, chunk against chunk: both list their deals in order, so
the rows of the deals up to the smaller of the two last deals read are paired and reduced
to per-contract sums (counts, sums and sums of squares of the per-deal differences), and
only the rest is kept for the next chunk. Memory is that of two chunks, whatever the size
of the runs, and the chunks of the two runs need not be cut alike.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

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
from tarotsim.analysis.reduction import connect
from tarotsim.base.intervals import Z95, check_z
from tarotsim.engine.labels import CONTRACTS, ThrownIn
from tarotsim.runs import store

COMPARE_COLUMNS = [
    "contract", "n", "rate_a", "rate_b", "rate_diff", "rate_diff_low", "rate_diff_high",
    "mean_score_a", "mean_score_b", "score_diff", "score_diff_low", "score_diff_high",
]  # fmt: skip
"""Columns of [`compare`][tarotsim.analysis.comparison.compare]."""

_ALL = -1
"""The contract code of every row when the runs are paired on deals alone (reported as ``'all'``)."""

_SUMS = ("n", "made_a", "made_b", "made_sq", "score_a", "score_b", "score_sq")
"""Per contract: pairs, Σ made (each run), Σ (made_a − made_b)², Σ score (each run), Σ (score_a − score_b)²."""


def compare(run_a: Data, run_b: Data, *, z: float = Z95, client: Any = None) -> pd.DataFrame:
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
        Records or run directories of the two runs (same seed, same deals). Two run
        directories are paired only when their manifests give the same seed, deal count,
        table size, dealing and taking seat (`tarotsim.runs.store.check_paired`).
    z : float, optional
        Normal quantile of the intervals (default 95 %).
    client : distributed.Client or str, optional
        Pair two run directories on this Dask cluster (a client, or a scheduler address):
        the deals are cut where either run's chunks start, and each range is paired by a
        worker, which must reach both runs under the same paths.

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
        If two run directories are not runs of the same deals (the message names the
        fields that differ), columns are missing, a key repeats within a run, a run's chunks are not in
        deal order, or the two runs do not hold the same played deals (the message says
        how many are missing from each).
    """
    check_z(z)
    sources = {"run_a": chunk_sources(run_a), "run_b": chunk_sources(run_b)}
    if not isinstance(run_a, pd.DataFrame) and not isinstance(run_b, pd.DataFrame):
        store.check_paired(store.read_manifest(run_a), store.read_manifest(run_b))
    present = {name: source_columns(found[0]) for name, found in sources.items()}
    for name, columns in present.items():
        require_in(columns, ["deal", "made", "taker_score"], what=f"compare ({name})")
    by_contract = all("contract" in columns for columns in present.values())
    if client is not None and not any(isinstance(s[0], pd.DataFrame) for s in sources.values()):
        parts = _on_cluster(client, sources["run_a"], sources["run_b"], by_contract)
    else:
        stream_a = _Stream(sources["run_a"], _READ, "run_a")
        stream_b = _Stream(sources["run_b"], _READ, "run_b")
        parts = (_piece_sums(a, b, by_contract) for a, b in stream_a.pieces(stream_b))
    totals: dict[int, np.ndarray] = {}
    missing = np.zeros(2, dtype=np.int64)
    for sums, lost in parts:
        missing += lost
        for con, row in sums.items():
            totals[con] = totals[con] + row if con in totals else row
    if missing.any():
        what = "(deal, contract) rows" if by_contract else "deals"
        raise ValueError(
            f"the runs do not hold the same deals: {missing[0]} played {what} of run_a are missing "
            f"from run_b and {missing[1]} of run_b are missing from run_a (same seed and deal count?)"
        )
    out = _table(totals, z)
    return sort_by_contract(out, []) if by_contract else out


_READ = ["deal", "contract", "thrown_in", "made", "taker_score"]
"""The record columns a comparison reads."""


def _piece_sums(
    part_a: pd.DataFrame, part_b: pd.DataFrame, by_contract: bool
) -> tuple[dict[int, np.ndarray], np.ndarray]:
    """The rows of both runs for the same deals, paired and summed.

    Returns
    -------
    (sums, missing) : tuple
        Per contract code (`_ALL` when paired on deals alone), the object array of
        `_SUMS` (Python integers); and int64[2], the played rows of run a missing from
        run b and of run b missing from run a.
    """
    keys = ["deal", "contract"] if by_contract else ["deal"]
    sides = [_paired_side(df, name, keys, by_contract) for name, df in (("run_a", part_a), ("run_b", part_b))]
    merged = sides[0].merge(sides[1], on=keys, how="outer", suffixes=("_a", "_b"), indicator=True, sort=False)
    missing = np.array([(merged["_merge"] == "left_only").sum(), (merged["_merge"] == "right_only").sum()])
    merged = merged[merged["_merge"] == "both"]
    if not by_contract:
        merged = merged.assign(contract=_ALL)
    sums = {}
    for con, g in merged.groupby("contract", sort=False, observed=True):
        made_a, made_b = g["made_a"].to_numpy(dtype=np.int64), g["made_b"].to_numpy(dtype=np.int64)
        score_a, score_b = whole_numbers(g["taker_score_a"]), whole_numbers(g["taker_score_b"])
        values = [len(g), made_a.sum(), made_b.sum(), ((made_a - made_b) ** 2).sum(), score_a.sum(),
                  score_b.sum(), ((score_a - score_b) ** 2).sum()]  # fmt: skip
        sums[int(con)] = np.array(
            [v.item() if isinstance(v, np.generic) else v for v in values], dtype=object
        )
    return sums, missing.astype(np.int64)


def _deal_range(path: Path) -> tuple[int, int]:
    """The first and last deal of a chunk file, from its statistics (or its ``deal`` column)."""
    import pyarrow.parquet as pq

    meta = pq.ParquetFile(path).metadata
    column = meta.schema.names.index("deal")
    stats = [meta.row_group(i).column(column).statistics for i in range(meta.num_row_groups)]
    if meta.num_row_groups and all(s is not None and s.has_min_max for s in stats):
        return int(min(s.min for s in stats)), int(max(s.max for s in stats))
    deals = pq.read_table(path, columns=["deal"]).column("deal").to_numpy()
    return (int(deals.min()), int(deals.max())) if len(deals) else (0, -1)


def _deal_pieces(
    sources_a: list[Source], sources_b: list[Source]
) -> list[tuple[float, float, list[Path], list[Path]]]:
    """Ranges of deals ``[low, high)`` cut where a chunk of either run starts, each with the chunk
    files of each run that hold deals in it; together they cover every deal once."""
    ranges = {}
    for name, sources in (("run_a", sources_a), ("run_b", sources_b)):
        found = [(path, *_deal_range(path)) for path in sources if isinstance(path, Path)]
        found = [f for f in found if f[1] <= f[2]]
        if any(before[2] >= after[1] for before, after in zip(found, found[1:], strict=False)):
            raise ValueError(f"{name}: its chunks are not in deal order")
        ranges[name] = found
    starts = sorted({first for found in ranges.values() for _, first, _ in found})
    bounds = [-np.inf, *starts[1:], np.inf]

    def inside(name: str, low: float, high: float) -> list[Path]:
        return [p for p, first, last in ranges[name] if last >= low and first < high]

    return [
        (low, high, inside("run_a", low, high), inside("run_b", low, high))
        for low, high in zip(bounds, bounds[1:], strict=False)
    ]


def _pair_range(
    low: float, high: float, paths_a: list[Path], paths_b: list[Path], by_contract: bool
) -> tuple[dict[int, np.ndarray], np.ndarray]:
    """`_piece_sums` of the deals in ``[low, high)`` of both runs (what a Dask task computes)."""
    parts = []
    for paths in (paths_a, paths_b):
        frames = [b for path in paths for b in read_batches(path, _READ)]
        frame = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=_READ)
        deals = frame["deal"].to_numpy(dtype=float)
        parts.append(frame[(deals >= low) & (deals < high)])
    return _piece_sums(parts[0], parts[1], by_contract)


def _on_cluster(
    client: Any, sources_a: list[Source], sources_b: list[Source], by_contract: bool
) -> Iterator[tuple[dict[int, np.ndarray], np.ndarray]]:
    """The paired sums of every range of deals, made on the Dask workers."""
    own = isinstance(client, str)
    if own:
        client = connect(client)
    try:
        pieces = _deal_pieces(sources_a, sources_b)
        futures = [client.submit(_pair_range, *piece, by_contract, pure=False) for piece in pieces]
        for future in futures:
            yield future.result()
            future.release()
    finally:
        if own:
            client.close()


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
    """The [`compare`][tarotsim.analysis.comparison.compare] table from each contract's sums (see `_SUMS`)."""
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
    sd = float(
        np.sqrt(exact_variances(n, np.array([total], dtype=object), np.array([squares], dtype=object))[0])
    )
    half = z * sd / np.sqrt(float(n[0]))
    return mean, mean - half, mean + half


class _Stream:
    """The rows of one run, batch after batch of whole deals, handed out by deal (see `pieces`)."""

    def __init__(self, sources: list[Source], columns: list[str], name: str) -> None:
        self.batches: Iterator[pd.DataFrame] = (
            b for source in sources for b in read_batches(source, columns)
        )
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
                    raise ValueError(
                        f"{self.name}: its chunks are not in deal order (deal {deals.min()} read twice)"
                    )
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
