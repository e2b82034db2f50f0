"""Run directories: Parquet chunks of per-deal records plus a ``manifest.json``, resumable.

This module alone reads and writes run directories. A run (``run.spec.RunSpec``) is cut
into chunks that can be made in any order, by any thread or worker; a run that was
stopped part-way resumes where it was: finished chunks are kept, missing ones are made,
and the records equal those of an uninterrupted run. Chunk files are written under a
temporary name of their own, then renamed, so a killed run never leaves half a chunk and
two workers making the same chunk never share a file.

Layout::

    DIR/manifest.json              what the run is, and which chunks are finished
    DIR/chunks/chunk-00000.parquet records of deals 0 … chunk_deals - 1
"""

from __future__ import annotations

import json
import os
import platform
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pandas as pd

from tarotsim.labels import THROWN_IN_NAMES
from tarotsim.run.engine import using_threads
from tarotsim.run.spec import KINDS, RunSpec

MANIFEST = "manifest.json"
CHUNKS = "chunks"


def chunk_name(index: int) -> str:
    """File name of chunk ``index`` inside ``chunks/``."""
    return f"chunk-{index:05d}.parquet"


def chunk_path(directory: str | os.PathLike[str], index: int) -> Path:
    """Path of chunk ``index`` of the run directory ``directory``."""
    return Path(directory) / CHUNKS / chunk_name(index)


def versions() -> dict[str, str]:
    """Versions of the packages a run's records depend on, and of Python."""
    import pyarrow

    from tarotsim import __version__

    return {
        "tarotsim": __version__,
        "numba": numba.__version__,
        "numpy": np.__version__,
        "pandas": pd.__version__,
        "pyarrow": pyarrow.__version__,
        "python": platform.python_version(),
    }


def _write_json_atomic(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def write_chunk(directory: str | os.PathLike[str], index: int, frame: pd.DataFrame) -> None:
    """Write the records of chunk ``index`` atomically, under a temporary name of its own."""
    path = chunk_path(directory, index)
    tmp = path.with_name(f"{path.name}.tmp-{uuid.uuid4().hex}")
    try:
        frame.to_parquet(tmp, index=False)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def can_write_chunks(directory: str | os.PathLike[str]) -> bool:
    """Whether ``directory`` holds a run's manifest and this process may write its chunks."""
    root = Path(directory)
    return (root / MANIFEST).is_file() and os.access(root / CHUNKS, os.W_OK)


def _read_manifest_file(path: Path) -> dict[str, Any]:
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{str(path)!r} is not a readable tarotsim manifest: {exc}") from None
    run = manifest.get("run") if isinstance(manifest, dict) else None
    if not isinstance(run, dict) or run.get("kind") not in KINDS:
        raise ValueError(f"{str(path)!r} does not describe a tarotsim run (no 'run' with a kind)")
    return manifest


def read_manifest(directory: str | os.PathLike[str]) -> dict[str, Any]:
    """The manifest of the run directory ``directory``.

    Raises
    ------
    ValueError
        If ``directory`` is not a directory, has no readable ``manifest.json``, or the
        manifest does not describe a tarotsim run.
    """
    root = Path(directory)
    if not root.is_dir():
        raise ValueError(f"run directory {str(root)!r} does not exist or is not a directory")
    path = root / MANIFEST
    if not path.is_file():
        raise ValueError(f"{str(root)!r} is not a run directory: it has no {MANIFEST}")
    return _read_manifest_file(path)


def chunk_paths(directory: str | os.PathLike[str], manifest: dict[str, Any]) -> list[Path]:
    """Paths of the finished chunks of a complete run, in deal order.

    Raises
    ------
    ValueError
        If the run is not finished, or holds no chunk.
    """
    root = Path(directory)
    if not manifest.get("complete"):
        raise ValueError(
            f"run {str(root)!r} is not finished ({len(manifest.get('chunks', {}))} chunks done); "
            "repeat the command that started it to finish it"
        )
    paths = sorted((root / CHUNKS).glob("chunk-*.parquet"), key=lambda p: p.name)
    if not paths:
        raise ValueError(f"run directory {str(root)!r} has no record chunks (expected {CHUNKS}/chunk-*.parquet)")
    return paths


def load_records(directory: str | os.PathLike[str], columns: Sequence[str] | None = None) -> pd.DataFrame:
    """The records of a finished run directory, chunks concatenated in deal order.

    ``columns`` reads only those columns (the ones the run has), which keeps memory low
    on runs of millions of deals.
    """
    paths = chunk_paths(directory, read_manifest(directory))
    if columns is not None:
        import pyarrow.parquet as pq

        present = set(pq.read_schema(paths[0]).names)
        columns = [c for c in dict.fromkeys(columns) if c in present]
    frames = [pd.read_parquet(path, columns=columns) for path in paths]
    if len(frames) == 1:
        return frames[0].reset_index(drop=True)
    return pd.concat(frames, ignore_index=True)


class Run:
    """An open run directory: its spec and its manifest.

    Opening a new directory creates it with its manifest; opening an existing run checks
    that it is the same run (``RunSpec.identity``).

    Raises
    ------
    ValueError
        If the directory holds another run or other files, or cannot be created.
    """

    def __init__(self, directory: str | os.PathLike[str], spec: RunSpec) -> None:
        self.directory = Path(directory)
        self.spec = spec
        self.manifest = self._open()

    def _open(self) -> dict[str, Any]:
        path = self.directory / MANIFEST
        if path.exists():
            manifest = _read_manifest_file(path)
            theirs = manifest.get("run")
            if theirs != self.spec.identity():
                raise ValueError(
                    f"{self.directory} holds a different run ({_difference(theirs, self.spec.identity())}); "
                    "choose another --out directory or repeat that run's own command to resume it"
                )
            return manifest
        if self.directory.exists() and any(self.directory.iterdir()):
            raise ValueError(f"{self.directory} exists and is not a tarotsim run; choose an empty or new directory")
        try:
            (self.directory / CHUNKS).mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise ValueError(f"cannot create run directory {self.directory}: {err.strerror or err}") from None
        manifest = {
            "run": self.spec.identity(),
            "versions": versions(),
            "chunks": {},
            "complete": False,
            "wall_time_s": 0.0,
        }
        _write_json_atomic(path, manifest)
        return manifest

    def missing(self) -> list[int]:
        """Indices of the chunks not finished yet."""
        done = self.manifest["chunks"]
        return [
            i for i in range(self.spec.n_chunks)
            if str(i) not in done or not chunk_path(self.directory, i).exists()
        ]

    def save_chunk(self, index: int, frame: pd.DataFrame, *, worker: str, seconds: float) -> None:
        """Write chunk ``index`` and mark it finished."""
        write_chunk(self.directory, index, frame)
        self.record_chunk(index, frame, worker=worker, seconds=seconds)

    def record_chunk(self, index: int, frame: pd.DataFrame, *, worker: str, seconds: float) -> None:
        """Mark chunk ``index`` finished; its file is written already (by ``write_chunk``).

        ``frame`` is the chunk's records, or at least their ``thrown_in`` column, all rows.
        """
        first, count = self.spec.chunk_range(index)
        thrown = frame["thrown_in"].value_counts()
        self.manifest["chunks"][str(index)] = {
            "file": f"{CHUNKS}/{chunk_name(index)}",
            "first_deal": first,
            "deals": count,
            "rows": len(frame),
            "thrown_in": {name: int(thrown.get(name, 0)) for name in THROWN_IN_NAMES},
            "worker": worker,
            "seconds": round(seconds, 3),
        }
        self.manifest["wall_time_s"] = round(self.manifest["wall_time_s"] + seconds, 3)
        _write_json_atomic(self.directory / MANIFEST, self.manifest)

    def finish(self) -> None:
        """Write the run's totals and whether every chunk is finished into the manifest."""
        chunks = self.manifest["chunks"].values()
        self.manifest["complete"] = not self.missing()
        self.manifest["counts"] = {
            "deals": sum(c["deals"] for c in chunks),
            "rows": sum(c["rows"] for c in chunks),
            "thrown_in": {
                name: sum(c["thrown_in"][name] for c in chunks) for name in THROWN_IN_NAMES
            },
        }
        _write_json_atomic(self.directory / MANIFEST, self.manifest)


def _difference(theirs: Any, ours: dict[str, Any]) -> str:
    if not isinstance(theirs, dict):
        return "an unreadable configuration"
    diffs = [f"{k}: {theirs.get(k)!r} there, {v!r} here" for k, v in ours.items() if theirs.get(k) != v]
    return "; ".join(diffs) or "a different configuration"


def execute(
    directory: str | os.PathLike[str],
    spec: RunSpec,
    *,
    threads: int | None = None,
    progress: bool = False,
) -> Run:
    """Make (or finish) the run ``spec`` in ``directory`` on this machine's threads.

    Parameters
    ----------
    directory : str or os.PathLike
        The run directory: new, empty, or holding this same run (which resumes).
    spec : RunSpec
        The run.
    threads : int, optional
        Threads to use (default: all that Numba may start).
    progress : bool
        Show a progress bar of deals (tqdm).

    Returns
    -------
    Run
        The run, finished (``manifest["complete"]``).
    """
    run = Run(directory, spec)
    todo = run.missing()
    bar = None
    if progress and todo:
        from tqdm import tqdm

        done = spec.deals - sum(spec.chunk_range(i)[1] for i in todo)
        bar = tqdm(total=spec.deals, initial=done, unit="deal", unit_scale=True, desc=spec.kind)
    try:
        with using_threads(threads) as count:
            for index in todo:
                started = time.perf_counter()
                frame = spec.compute_chunk(index)
                run.save_chunk(index, frame, worker=f"local:{count}-threads", seconds=time.perf_counter() - started)
                if bar is not None:
                    bar.update(spec.chunk_range(index)[1])
    finally:
        if bar is not None:
            bar.close()
    run.finish()
    return run
