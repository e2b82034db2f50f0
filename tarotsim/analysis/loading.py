"""Records in: read a run's records chunk by chunk, keep the played deals, and check what every table needs.

Every public function of [`tarotsim.analysis`][tarotsim.analysis] takes either a records DataFrame (one row
per deal, or one row per ``(deal, contract)`` for contract sweeps) or the path of a run
directory. A DataFrame is one chunk; a run directory is the chunks its manifest lists, found
through `tarotsim.runs.store` (the only module that knows the layout of run directories)
and read one batch of whole deals at a time (`read_batches`), so that no table needs
the whole run, or even a whole chunk, in memory.
[`load_records`][tarotsim.analysis.loading.load_records] still reads a whole run, for callers that want the records themselves.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TypeAlias, Union

import numpy as np
import pandas as pd

from tarotsim.engine.labels import CONTRACTS, ThrownIn
from tarotsim.runs import store

Data = Union[pd.DataFrame, str, "os.PathLike[str]"]
"""Records, or the path of a run directory holding them."""

Source: TypeAlias = pd.DataFrame | Path
"""One chunk of records: a DataFrame, or the path of a Parquet chunk of a run directory."""

_PLAYED = ThrownIn.NONE.label


def load_records(data: Data, columns: Sequence[str] | None = None) -> pd.DataFrame:
    """Return a records DataFrame, reading it from a run directory if needed.

    Parameters
    ----------
    data : pandas.DataFrame or str or os.PathLike
        Records, returned unchanged (the same object), or a run directory that
        holds ``manifest.json`` and ``chunks/chunk-*.parquet``.
    columns : sequence of str, optional
        When reading a run directory, read only these columns (those that exist). The
        whole run is held in memory: the tables of this package read it in batches
        instead (`read_batches`).

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
    _check_data(data)
    if isinstance(data, pd.DataFrame):
        return data
    return store.load_records(data, columns)


def _check_data(data: object) -> None:
    if not isinstance(data, (pd.DataFrame, str, os.PathLike)):
        raise TypeError(
            f"data must be a records DataFrame or the path of a run directory, got {type(data).__name__}"
        )


def chunk_sources(data: Data) -> list[Source]:
    """The chunks of `data`, in deal order: ``[data]`` for a DataFrame, else the run's chunk files.

    Raises
    ------
    TypeError
        If `data` is neither a DataFrame nor a path.
    ValueError
        If the run directory does not exist, lacks ``manifest.json``, is not finished or
        holds no chunk; or if `data` is a duel's (its rows are seats of the same deals, which
        these tables would pool: [`tarotsim.contests.duel.DuelResult`][tarotsim.contests.duel.DuelResult] reads a duel).
    """
    _check_data(data)
    if isinstance(data, pd.DataFrame):
        if DUEL_COLUMN in data.columns:
            raise ValueError(_duel_refusal("these records are a duel's", data[DUEL_COLUMN].nunique()))
        return [data]
    manifest = store.read_manifest(data)
    run = manifest["run"]
    if run["kind"] == "duel":
        where = str(data)
        raise ValueError(
            _duel_refusal(f"{where} holds a duel", run["config"]["players"])
            + f" (tarotsim table {where}; tarotsim report {where} --out FOLDER)"
        )
    return list(store.chunk_paths(data, manifest))


DUEL_COLUMN = "a_seat"
"""The column only a duel's records have: strategy A's seat on the row."""


def _duel_refusal(what: str, players: int) -> str:
    return (
        f"{what}: each deal is played once per seat, so a table of its rows would count every deal "
        f"{players} times and pool strategies A and B; read it by strategy and role, the deal as the "
        "unit, with tarotsim.contests.duel.DuelResult"
    )


def source_columns(source: Source) -> list[str]:
    """The record columns of one chunk (read from the Parquet schema, not the data)."""
    if isinstance(source, pd.DataFrame):
        return [str(c) for c in source.columns]
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        return list(pq.read_schema(source).names)
    except (OSError, pa.ArrowException) as err:
        raise _unreadable(source, err) from None


BATCH_ROWS = 2**17
"""Rows read from a chunk file at a time (plus the rest of the last deal): what bounds memory."""


def read_batches(source: Source, columns: Sequence[str] | None = None) -> Iterator[pd.DataFrame]:
    """The records of one chunk, a batch of about `BATCH_ROWS` rows at a time, whole deals each.

    A DataFrame is yielded whole, the same object. A chunk file is read in batches of its
    `columns` (those it holds; all when None); when it has a ``deal`` column, the rows of
    a deal that a batch ends in are held back for the next batch, so that no deal is split.

    Raises
    ------
    ValueError
        If the rows of a chunk file are not in deal order, or the file cannot be read.
    """
    if isinstance(source, pd.DataFrame):
        yield source
        return
    import pyarrow as pa

    try:
        yield from _file_batches(source, columns)
    except (OSError, pa.ArrowException) as err:
        raise _unreadable(source, err) from None


def _unreadable(source: Path, err: Exception) -> ValueError:
    """The one-line error of a chunk file that cannot be read."""
    return ValueError(
        f"chunk {source.name} of run {str(source.parent.parent)!r} cannot be read ({err}); "
        "repeat the command that made the run to make it again"
    )


def _file_batches(source: Path, columns: Sequence[str] | None) -> Iterator[pd.DataFrame]:
    """`read_batches` of a chunk file."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    present = source_columns(source)
    if columns is not None:
        present = [c for c in dict.fromkeys(columns) if c in present]
    file = pq.ParquetFile(source)
    if file.metadata.num_rows == 0:
        yield file.read(columns=present).to_pandas()
        return
    if "deal" not in present:
        for batch in file.iter_batches(batch_size=BATCH_ROWS, columns=present, use_threads=False):
            yield batch.to_pandas()
        return
    held: list[pa.RecordBatch] = []
    for batch in file.iter_batches(batch_size=BATCH_ROWS, columns=present, use_threads=False):
        table = pa.Table.from_batches([*held, batch])
        deals = table.column("deal").to_numpy()
        if np.any(deals[1:] < deals[:-1]):
            raise ValueError(
                f"chunk {source.name} is not in deal order; repeat the command that made the run to make it again"
            )
        cut = int(np.searchsorted(deals, deals[-1], side="left"))
        held = table.slice(cut).to_batches()
        if cut:
            yield table.slice(0, cut).to_pandas()
    if held:
        yield pa.Table.from_batches(held).to_pandas()


def require_columns(df: pd.DataFrame, columns: Iterable[str], *, what: str) -> None:
    """Raise a ``ValueError`` naming the `columns` that `df` lacks, for the table `what`."""
    require_in([str(c) for c in df.columns], columns, what=what)


def require_in(present: Sequence[str], columns: Iterable[str], *, what: str) -> None:
    """Raise a ``ValueError`` naming the `columns` missing from the record columns `present`."""
    missing = [c for c in dict.fromkeys(columns) if c not in present]
    if missing:
        raise ValueError(
            f"{what} needs column(s) {', '.join(map(repr, missing))}, which the records lack "
            f"(they have: {', '.join(map(str, present))})"
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


def played_part(df: pd.DataFrame, *, what: str) -> tuple[pd.DataFrame, np.ndarray]:
    """The rows of deals actually played, and the contract of each as a code.

    A row is thrown in when ``thrown_in`` (if present) is not ``'none'`` or when it has no
    contract. Unknown contract names raise ``ValueError``; `what` names the table asking.

    Returns
    -------
    (played, codes) : tuple
        The played rows (a copy, with a fresh ``RangeIndex``) and int64[len(played)], the
        position of each row's contract in [`CONTRACTS`][tarotsim.engine.labels.CONTRACTS].
    """
    played = df[played_mask(df, what=what)].reset_index(drop=True)
    codes = contract_codes(played, CONTRACTS)
    if np.any(codes < 0):
        unknown = sorted(map(str, played["contract"][codes < 0].unique()))
        raise ValueError(
            f"unknown contract value(s) {', '.join(map(repr, unknown))}; expected {', '.join(CONTRACTS)}"
        )
    return played, codes


def played_mask(df: pd.DataFrame, *, what: str) -> np.ndarray:
    """bool[n_rows]: which records are of played deals (a contract, and not thrown in)."""
    require_columns(df, ["contract"], what=what)
    keep = df["contract"].notna().to_numpy()
    if "thrown_in" in df.columns:
        keep = keep & (df["thrown_in"] == _PLAYED).to_numpy(dtype=bool)
    return keep


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
