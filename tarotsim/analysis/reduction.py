"""Statistics of a run of any size, chunk by chunk: each chunk reduced to small exact sums, then merged.

A `Reduction` names the record columns it reads, what it keeps of one chunk
(`Reduction.partial`: counts and integer sums per cell, a few kilobytes) and how partial
results merge (`Reduction.merge`: exactly, so that a table does not depend on how the
run was cut into chunks). [`reduce_records`][tarotsim.analysis.reduction.reduce_records] reads a DataFrame (one chunk) or a run
directory one chunk at a time, or maps the chunks over the workers of a Dask cluster, and
merges the partial results in chunk order. Memory is that of one batch of records (per
worker) plus the partial results, whatever the size of the run.

On Dask, start the workers with ``MALLOC_MMAP_THRESHOLD_=33554432`` in their environment (for
``LocalCluster``, the config key ``distributed.nanny.pre-spawn-environ``): the
``MALLOC_TRIM_THRESHOLD_`` that Dask's nannies set fixes glibc's mmap threshold, so that every
large temporary array is mapped and unmapped, which made a chunk 2.5 times slower to reduce.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from tarotsim.analysis.loading import (
    Data,
    Source,
    chunk_sources,
    played_part,
    read_batches,
    require_in,
    source_columns,
)

MERGE_EVERY = 16
"""Partial results held before they are merged into one (bounds memory on runs of many chunks)."""


class Chunk(NamedTuple):
    """One chunk of records, as every reduction sees it.

    Reductions that need the same derived arrays of a chunk (a deals × contracts grid)
    share them through `cache`.

    Attributes
    ----------
    records : pandas.DataFrame
        Every row of the chunk (the columns read).
    played : pandas.DataFrame
        The rows of played deals (`played_part`), with a
        fresh ``RangeIndex``.
    codes : numpy.ndarray
        int64[len(played)]: the position of each played row's contract in
        [`tarotsim.engine.labels.CONTRACTS`][tarotsim.engine.labels.CONTRACTS].
    """

    records: pd.DataFrame
    played: pd.DataFrame
    codes: np.ndarray
    cache: dict[Any, Any]


class Reduction(ABC):
    """One statistic of the records, made chunk by chunk and merged exactly.

    Subclasses set `columns` and `key` and implement `partial` and
    `merge`. A reduction is sent to the Dask workers with its chunks, so it must
    pickle (hold only plain values).
    """

    columns: tuple[str, ...] = ()
    """Record columns the reduction reads (those a run lacks are not read)."""

    key: str = ""
    """What the reduction computes, options included: two reductions of the same key are
    the same computation, made once per chunk when several tables ask for it."""

    @abstractmethod
    def partial(self, chunk: Chunk) -> Any:
        """What the reduction keeps of one chunk (small, picklable)."""

    @abstractmethod
    def merge(self, partials: Sequence[Any]) -> Any:
        """One partial result from several, in chunk order; exact and associative."""


def chunk_of(records: pd.DataFrame, what: str) -> Chunk:
    """The `Chunk` of a chunk's records; `what` names the table in error messages."""
    played, codes = played_part(records, what=what)
    return Chunk(records, played, codes, {})


def deal_index(chunk: Chunk) -> tuple[np.ndarray, np.ndarray]:
    """Each played row's deal as a number from 0, in order of first appearance, and the deals.

    Returns
    -------
    (index, deals) : tuple of numpy.ndarray
        int64[len(chunk.played)], and the deal numbers in that order (``deals[index]`` is
        each row's deal). Computed once per chunk; rows sorted by deal (as a run's are) are
        numbered without hashing.
    """
    if "deal_index" not in chunk.cache:
        deals = chunk.played["deal"].to_numpy()
        if len(deals) and np.all(deals[1:] >= deals[:-1]):
            starts = np.concatenate([[True], deals[1:] != deals[:-1]])
            chunk.cache["deal_index"] = (np.cumsum(starts).astype(np.int64) - 1, deals[starts])
        else:
            index, uniques = pd.factorize(deals)
            chunk.cache["deal_index"] = (index.astype(np.int64), np.asarray(uniques))
    found: tuple[np.ndarray, np.ndarray] = chunk.cache["deal_index"]
    return found


def plan(*reductions: Reduction) -> dict[str, Reduction]:
    """Reductions by key, each computation once (see `Reduction.key`)."""
    return {r.key: r for r in reductions}


def partials_of(source: Source, reductions: Mapping[str, Reduction], what: str) -> dict[str, Any]:
    """The partial result of each reduction on one chunk (what a Dask task computes), read a
    batch of whole deals at a time."""
    columns = list(dict.fromkeys(c for r in reductions.values() for c in r.columns))
    parts = []
    for batch in read_batches(source, columns):
        chunk = chunk_of(batch, what)
        parts.append({key: reduction.partial(chunk) for key, reduction in reductions.items()})
    return _merge(reductions, parts)


class Chunks(NamedTuple):
    """The chunks of records a table reads, listed once (see `open_chunks`).

    Attributes
    ----------
    sources : list
        The chunks, in deal order (`chunk_sources`).
    columns : list of str
        The record columns (of the first chunk: every chunk of a run has the same).
    """

    sources: list[Source]
    columns: list[str]


def open_chunks(data: Data, needed: Sequence[str] = (), *, what: str) -> Chunks:
    """The chunks of `data` and their columns, after checking that they hold `needed`.

    Raises
    ------
    ValueError
        If `data` is not a finished run directory, or lacks a `needed` column (the message
        names `what` and the columns there are).
    """
    sources = chunk_sources(data)
    columns = source_columns(sources[0])
    require_in(columns, needed, what=what)
    return Chunks(sources, columns)


def reduce_records(
    data: Data | Chunks,
    reductions: Mapping[str, Reduction],
    *,
    what: str,
    client: Any = None,
) -> dict[str, Any]:
    """Run `reductions` over every chunk of `data` and merge their partial results.

    Parameters
    ----------
    data : pandas.DataFrame or str or os.PathLike or Chunks
        Records (one chunk), a run directory (its chunks, read one at a time), or its
        `open_chunks`.
    reductions : mapping of str to Reduction
        What to compute, by key (see `plan`).
    what : str
        The table being made, named in error messages.
    client : distributed.Client or str, optional
        A Dask client, or the address of a scheduler (``tcp://host:8786``) to connect to
        for this call: each chunk of a run directory is then reduced by a worker, which
        must reach the run directory under the same path (a shared file system). A
        DataFrame is always reduced here.

    Returns
    -------
    dict of str to object
        The merged result of each reduction, by key. The same whatever the chunking, the
        order the chunks finish in, or where they were reduced.
    """
    sources = data.sources if isinstance(data, Chunks) else chunk_sources(data)
    if client is not None and all(isinstance(source, Path) for source in sources):
        stream = _on_cluster(client, sources, reductions, what)
    else:
        stream = (partials_of(source, reductions, what) for source in sources)
    pending: list[dict[str, Any]] = []
    for part in stream:
        pending.append(part)
        if len(pending) >= MERGE_EVERY:
            pending = [_merge(reductions, pending)]
    return _merge(reductions, pending)


def _merge(reductions: Mapping[str, Reduction], parts: list[dict[str, Any]]) -> dict[str, Any]:
    if len(parts) == 1:
        return parts[0]
    return {name: reduction.merge([p[name] for p in parts]) for name, reduction in reductions.items()}


def _on_cluster(
    client: Any, sources: list[Source], reductions: Mapping[str, Reduction], what: str
) -> Iterator[dict[str, Any]]:
    """Partial results of every chunk, reduced on the Dask workers, yielded in chunk order."""
    own = isinstance(client, str)
    if own:
        client = connect(client)
    try:
        futures = client.map(partials_of, sources, reductions=reductions, what=what, pure=False)
        for future in futures:
            yield future.result()
            future.release()
    finally:
        if own:
            client.close()


def connect(scheduler: str) -> Any:
    """A ``distributed.Client`` of the Dask scheduler at `scheduler` (``tcp://host:8786``).

    Raises
    ------
    ValueError
        If Dask is not installed, the address is empty, or no scheduler answers there.
    """
    try:
        from distributed import Client
    except ImportError:
        raise ValueError("Dask is needed for --scheduler: pip install 'dask[distributed]'") from None
    if not isinstance(scheduler, str) or not scheduler.strip():
        raise ValueError(f"the scheduler address must be like tcp://host:8786, got {scheduler!r}")
    try:
        return Client(scheduler, timeout="20s")
    except (OSError, TimeoutError) as err:
        raise ValueError(f"no Dask scheduler answers at {scheduler}: {err}") from None
