"""Run directories: Parquet chunks of per-deal records plus a ``manifest.json``, resumable.

This module alone reads and writes run directories. A run (``run.spec.RunSpec``) is cut
into chunks that can be made in any order, by any thread or worker; a run that was
stopped part-way resumes where it was: finished chunks are kept, missing ones are made,
and the records equal those of an uninterrupted run.

A run directory is what its manifest says, or it is refused:

- the manifest lists every finished chunk with its row count, its size in bytes and the
  SHA-256 of its file; readers load exactly those chunks, and check them first (the
  whole hash by default; ``verify="size"`` checks sizes and row counts only, for speed);
  a missing, stray, truncated or altered chunk is a ``ValueError`` that names the chunk
  and the command that repairs it;
- resuming checks every finished chunk the same way and makes again any that fails;
- one writer at a time: a writer holds the directory's lock (:mod:`tarotsim.run.lock`)
  from opening to the end; chunk files and the manifest are written under temporary
  names of their own, then renamed, so a killed run never leaves half a file;
- a directory holding nothing but what a killed start leaves (an empty ``chunks/``, a
  stale lock, a temporary manifest) is taken as new;
- the records format and the tarotsim version are part of a run: resuming with another
  version is refused unless asked for (``allow_version_change``), which the manifest
  records.

Layout::

    DIR/manifest.json              what the run is, and which chunks are finished
    DIR/chunks/chunk-00000.parquet records of deals 0 … chunk_deals - 1
    DIR/.writer.lock               while a writer works on the run
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import platform
import re
import time
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pandas as pd

from tarotsim.labels import THROWN_IN_NAMES
from tarotsim.run.engine import using_threads
from tarotsim.run.lock import LOCK, WriterLock
from tarotsim.run.spec import RunSpec

MANIFEST = "manifest.json"
CHUNKS = "chunks"
VERIFY = ("sha256", "size")
"""How readers check chunks against the manifest: the whole file's SHA-256 (the default),
or only its size and row count (fast: catches missing and truncated chunks, not altered bytes)."""
_CHUNK_FILE = re.compile(r"chunk-(\d+)\.parquet")
_CHUNK_FIELDS = {"file": str, "rows": int, "bytes": int, "sha256": str, "thrown_in": dict}
_HASH_BLOCK = 1 << 22


def chunk_name(index: int) -> str:
    """File name of chunk ``index`` inside ``chunks/``."""
    return f"chunk-{index:05d}.parquet"


def chunk_path(directory: str | os.PathLike[str], index: int) -> Path:
    """Path of chunk ``index`` of the run directory ``directory``."""
    return Path(directory) / CHUNKS / chunk_name(index)


def versions() -> dict[str, str]:
    """Versions of the packages a run's records depend on, and of Python."""
    import pyarrow

    from tarotsim._version import __version__

    return {
        "tarotsim": __version__,
        "numba": numba.__version__,
        "numpy": np.__version__,
        "pandas": pd.__version__,
        "pyarrow": pyarrow.__version__,
        "python": platform.python_version(),
    }


def _os_error(err: OSError, what: str) -> ValueError:
    """A one-line error for a failed write of ``what``, with what to do about it."""
    if err.errno == errno.ENOSPC:
        advice = "free some disk space, then repeat the command: the run resumes where it stopped"
    elif err.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        advice = "a run directory must be writable to make or finish its run"
    else:
        advice = "repeat the command once that is fixed: the run resumes where it stopped"
    return ValueError(f"cannot write {what}: {err.strerror or err}; {advice}")


def _write_json_atomic(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_name(f"{path.name}.tmp-{uuid.uuid4().hex}")
    try:
        tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except OSError as err:
        raise _os_error(err, f"the manifest of run {path.parent}") from None
    finally:
        tmp.unlink(missing_ok=True)


def file_sha256(path: str | os.PathLike[str]) -> str:
    """SHA-256 of a file's bytes, as hex."""
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        while block := stream.read(_HASH_BLOCK):
            digest.update(block)
    return digest.hexdigest()


def write_chunk(directory: str | os.PathLike[str], index: int, frame: pd.DataFrame) -> dict[str, Any]:
    """Write the records of chunk ``index`` atomically, under a temporary name of its own.

    Returns
    -------
    dict
        What the manifest records of the file: ``bytes`` (its size) and ``sha256``.

    Raises
    ------
    ValueError
        If the file cannot be written (a full disk, a read-only file system); no
        temporary file is left behind.
    """
    path = chunk_path(directory, index)
    tmp = path.with_name(f"{path.name}.tmp-{uuid.uuid4().hex}")
    try:
        frame.to_parquet(tmp, index=False)
        written = {"bytes": tmp.stat().st_size, "sha256": file_sha256(tmp)}
        os.replace(tmp, path)
    except OSError as err:
        raise _os_error(err, f"chunk {index} of run {directory}") from None
    finally:
        tmp.unlink(missing_ok=True)
    return written


def can_write_chunks(directory: str | os.PathLike[str]) -> bool:
    """Whether ``directory`` holds a run's manifest and this process may write its chunks."""
    root = Path(directory)
    return (root / MANIFEST).is_file() and os.access(root / CHUNKS, os.W_OK)


def _check_chunk_entries(chunks: Any, spec: RunSpec) -> str | None:
    """What is wrong with a manifest's chunk list, or None."""
    if not isinstance(chunks, dict):
        return "its chunk list is not a mapping"
    for key, entry in chunks.items():
        if not (isinstance(key, str) and key.isdigit() and int(key) < spec.n_chunks):
            return f"it lists a chunk {key!r} that the run does not have (chunks 0 to {spec.n_chunks - 1})"
        if not isinstance(entry, dict) or any(
            not isinstance(entry.get(f), t) for f, t in _CHUNK_FIELDS.items()
        ):
            return f"its entry of chunk {key} lacks {', '.join(_CHUNK_FIELDS)}"
        if entry["file"] != f"{CHUNKS}/{chunk_name(int(key))}":
            return f"its entry of chunk {key} names the file {entry['file']!r}"
    return None


def _read_manifest_file(path: Path) -> dict[str, Any]:
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{str(path)!r} is not a readable tarotsim manifest: {exc}") from None
    run = manifest.get("run") if isinstance(manifest, dict) else None
    if not isinstance(run, dict) or "kind" not in run:
        raise ValueError(f"{str(path)!r} does not describe a tarotsim run (no 'run' with a kind)")
    try:
        spec = RunSpec.from_identity(run)
    except ValueError as err:
        if str(err).startswith("made by"):
            raise ValueError(f"run directory {str(path.parent)!r} was {err}") from None
        problem: str | None = f"its run description is incomplete ({err})"
    else:
        problem = _check_chunk_entries(manifest.get("chunks"), spec)
    if problem is None and not isinstance(manifest.get("complete"), bool):
        problem = "it does not say whether the run is complete"
    if problem is not None:
        raise ValueError(
            f"{str(path)!r} is damaged: {problem}; delete the run directory and make the run again"
        )
    return manifest


def read_manifest(directory: str | os.PathLike[str]) -> dict[str, Any]:
    """The manifest of the run directory ``directory``, checked.

    Raises
    ------
    ValueError
        If ``directory`` is not a directory, has no readable ``manifest.json``, or the
        manifest does not describe a tarotsim run of this records format (``{}`` and
        ``[]`` are refused, and so is a chunk list without sizes and checksums).
    """
    root = Path(directory)
    if not root.is_dir():
        raise ValueError(f"run directory {str(root)!r} does not exist or is not a directory")
    path = root / MANIFEST
    if not path.is_file():
        raise ValueError(f"{str(root)!r} is not a run directory: it has no {MANIFEST}")
    return _read_manifest_file(path)


def _repair(root: Path, manifest: dict[str, Any]) -> str:
    """The advice that ends a chunk's error: the command that makes the chunk again."""
    command = RunSpec.from_identity(manifest["run"]).command(root)
    how = f"`{command}`" if command else "the call that made the run"
    return f"repeat {how} to make it again"


def chunk_problem(root: Path, index: int, entry: dict[str, Any], verify: str = "sha256") -> str | None:
    """What is wrong with the file of chunk ``index`` against its manifest ``entry``, or None.

    ``verify`` is ``"sha256"`` (size, then the whole file's hash) or ``"size"`` (size and
    the row count of the Parquet footer).
    """
    path = chunk_path(root, index)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return "is missing"
    except OSError as err:
        return f"cannot be read ({err.strerror or err})"
    if size != entry["bytes"]:
        return f"is {size} bytes where the manifest says {entry['bytes']} (truncated or altered)"
    try:
        if verify == "size":
            import pyarrow.parquet as pq

            rows = pq.read_metadata(path).num_rows
            if rows != entry["rows"]:
                return f"holds {rows} rows where the manifest says {entry['rows']}"
        elif file_sha256(path) != entry["sha256"]:
            return "does not match its checksum in the manifest (altered)"
    except Exception as err:  # pyarrow raises its own errors for a damaged footer
        return f"cannot be read ({type(err).__name__}: {err})"
    return None


def _check_verify(verify: str) -> None:
    if verify not in VERIFY:
        raise ValueError(f"verify must be one of {', '.join(VERIFY)}, got {verify!r}")


def chunk_paths(
    directory: str | os.PathLike[str], manifest: dict[str, Any], *, verify: str = "sha256"
) -> list[Path]:
    """Paths of the chunks of a complete run, in deal order, each checked against the manifest.

    Parameters
    ----------
    directory : str or os.PathLike
        The run directory.
    manifest : dict
        Its manifest (:func:`read_manifest`).
    verify : {"sha256", "size"}
        Check each chunk's whole SHA-256 (default), or only its size and row count.

    Raises
    ------
    ValueError
        If the run is not finished, or a chunk is missing, truncated, altered or stray
        (a ``chunk-*.parquet`` file the manifest does not list); the message names the
        chunk and the command that repairs it.
    """
    _check_verify(verify)
    root = Path(directory)
    if not manifest.get("complete"):
        raise ValueError(
            f"run {str(root)!r} is not finished ({len(manifest.get('chunks', {}))} chunks done); "
            "repeat the command that started it to finish it"
        )
    chunks = manifest["chunks"]
    n_chunks = RunSpec.from_identity(manifest["run"]).n_chunks
    listed = {chunk_name(i) for i in range(n_chunks)}
    for path in sorted((root / CHUNKS).glob("chunk-*.parquet")):
        if path.name not in listed:
            raise ValueError(
                f"{path} is not one of the {n_chunks} chunks the manifest of run {str(root)!r} "
                f"lists (copied from another run?): remove it (rm {path})"
            )
    paths = []
    for index in range(n_chunks):
        entry = chunks.get(str(index))
        problem = "is not in the manifest" if entry is None else chunk_problem(root, index, entry, verify)
        if problem is not None:
            raise ValueError(
                f"chunk {CHUNKS}/{chunk_name(index)} of run {str(root)!r} {problem}; "
                f"{_repair(root, manifest)}"
            )
        paths.append(chunk_path(root, index))
    return paths


def load_records(
    directory: str | os.PathLike[str], columns: Sequence[str] | None = None, *, verify: str = "sha256"
) -> pd.DataFrame:
    """The records of a finished run directory, its manifest's chunks in deal order.

    ``columns`` reads only those columns (the ones the run has), which keeps memory low
    on runs of millions of deals. ``verify`` is as for :func:`chunk_paths`.

    Raises
    ------
    ValueError
        If the directory is not a finished run, or a chunk fails its check or cannot be
        read (see :func:`chunk_paths`).
    """
    frames = list(iter_records(directory, columns, verify=verify))
    if len(frames) == 1:
        return frames[0].reset_index(drop=True)
    return pd.concat(frames, ignore_index=True)


def iter_records(
    directory: str | os.PathLike[str], columns: Sequence[str] | None = None, *, verify: str = "sha256"
) -> Iterator[pd.DataFrame]:
    """The records of a finished run directory one chunk at a time, in deal order.

    Memory holds one chunk (``chunk_deals`` deals) at a time, however long the run. Arguments
    and errors are those of :func:`load_records`; a chunk that cannot be read raises when
    its turn comes.
    """
    manifest = read_manifest(directory)
    paths = chunk_paths(directory, manifest, verify=verify)
    if not paths:
        raise ValueError(f"run directory {str(directory)!r} holds no deals (no {CHUNKS}/chunk-*.parquet)")
    if columns is not None:
        import pyarrow.parquet as pq

        present = set(pq.read_schema(paths[0]).names)
        columns = [c for c in dict.fromkeys(columns) if c in present]
    for path in paths:
        try:
            frame = pd.read_parquet(path, columns=columns)
        except Exception as err:  # a chunk damaged past what ``verify="size"`` sees
            raise ValueError(
                f"chunk {path} cannot be read ({type(err).__name__}: {err}); "
                f"{_repair(Path(directory), manifest)}"
            ) from None
        yield frame


def check_paired(manifest_a: dict[str, Any], manifest_b: dict[str, Any]) -> None:
    """Check that two runs hold the same deals, as a paired comparison needs.

    Two runs are paired when they share the seed, the deal count, the table size, the
    dealing and the taking seat (of a sweep), whatever their policies.

    Raises
    ------
    ValueError
        Naming every field in which the runs differ.
    """

    def fields(manifest: dict[str, Any]) -> dict[str, Any]:
        run = manifest.get("run") if isinstance(manifest, dict) else None
        if not isinstance(run, dict) or not isinstance(run.get("config"), dict):
            raise ValueError("a paired comparison needs the manifests of two runs")
        return {
            "seed": run.get("seed"),
            "deals": run.get("deals"),
            "players": run["config"].get("players"),
            "dealing": run["config"].get("dealing"),
            "taking seat": run.get("seat"),
        }

    a, b = fields(manifest_a), fields(manifest_b)
    differ = [f"{name} {a[name]} against {b[name]}" for name in a if a[name] != b[name]]
    if differ:
        raise ValueError(
            f"the runs are not of the same deals ({'; '.join(differ)}): a paired comparison needs "
            "the same seed, deal count, table size, dealing and taking seat"
        )


def _blank(root: Path) -> bool:
    """Whether ``root`` holds only what a start killed before its first manifest leaves."""
    for entry in root.iterdir():
        if entry.name == CHUNKS and entry.is_dir():
            if any(not _is_temporary(p) for p in entry.iterdir()):
                return False
        elif entry.name != LOCK and not _is_temporary(entry):
            return False
    return True


def _is_temporary(path: Path) -> bool:
    return ".tmp-" in path.name


class Run:
    """An open run directory: its spec and its manifest, and this process as its one writer.

    Opening a new (or empty) directory creates the run with its manifest; opening an
    existing run checks that it is the same run (``RunSpec.identity``), made by this
    tarotsim version (unless ``allow_version_change``), and checks every finished chunk:
    one that fails is dropped from the manifest, listed in ``remade``, and made again by
    :meth:`missing`'s caller. Use it in a ``with`` block (or call :meth:`close`), which
    releases the directory's lock.

    Raises
    ------
    ValueError
        If the path is a file, holds another run or other files, cannot be created or
        written, another writer holds it, or it was made by another tarotsim version.
    """

    def __init__(
        self, directory: str | os.PathLike[str], spec: RunSpec, *, allow_version_change: bool = False
    ) -> None:
        self.directory = Path(directory)
        self.spec = spec
        self.remade: list[tuple[int, str]] = []
        root = self.directory
        if root.exists() and not root.is_dir():
            raise ValueError(f"{root} is a file; a run directory must be a new, empty or run directory")
        if not (root / MANIFEST).exists() and root.exists() and not _blank(root):
            raise ValueError(f"{root} exists and is not a tarotsim run; choose an empty or new directory")
        try:
            root.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise ValueError(f"cannot create run directory {root}: {err.strerror or err}") from None
        self._lock: WriterLock | None = WriterLock(root)
        try:
            self.manifest = (
                self._resume(allow_version_change) if (root / MANIFEST).exists() else self._create()
            )
            (root / CHUNKS).mkdir(exist_ok=True)
            for leftover in [*root.glob(f"{MANIFEST}.tmp-*"), *(root / CHUNKS).glob("*.tmp-*")]:
                leftover.unlink(missing_ok=True)  # of a writer killed mid-write
        except OSError as err:
            self.close()
            raise _os_error(err, f"in run directory {root}") from None
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> Run:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Release the directory's lock; the run stays as it is on disk."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def _create(self) -> dict[str, Any]:
        if not _blank(self.directory):
            raise ValueError(
                f"{self.directory} exists and is not a tarotsim run; choose an empty or new directory"
            )
        manifest = {
            "run": self.spec.identity(),
            "versions": versions(),
            "chunks": {},
            "complete": False,
            "wall_time_s": 0.0,
        }
        _write_json_atomic(self.directory / MANIFEST, manifest)
        return manifest

    def _resume(self, allow_version_change: bool) -> dict[str, Any]:
        manifest = _read_manifest_file(self.directory / MANIFEST)
        theirs, ours = manifest["run"], self.spec.identity()
        if {**theirs, "tarotsim": None} != {**ours, "tarotsim": None}:
            raise ValueError(
                f"{self.directory} holds a different run ({_difference(theirs, ours)}); "
                "choose another --out directory or repeat that run's own command to resume it"
            )
        changed = False
        made_by = manifest.get("versions", {}).get("tarotsim", theirs.get("tarotsim"))
        if made_by != ours["tarotsim"]:
            if not allow_version_change:
                raise ValueError(
                    f"{self.directory} was made by tarotsim {made_by} and this is tarotsim {ours['tarotsim']}, whose "
                    f"records may differ: finish it with tarotsim {made_by}, or give --allow-version-change "
                    "(allow_version_change=True) to finish it with this version, which its manifest then records"
                )
            manifest.setdefault("version_changes", []).append(
                {"from": made_by, "to": ours["tarotsim"], "chunks_done": len(manifest["chunks"])}
            )
            manifest["versions"] = versions()
            changed = True
        for key, entry in sorted(manifest["chunks"].items(), key=lambda item: int(item[0])):
            problem = chunk_problem(self.directory, int(key), entry)
            if problem is not None:
                self.remade.append((int(key), problem))
                del manifest["chunks"][key]
        if changed or self.remade:
            manifest["complete"] = manifest["complete"] and not self.remade
            _write_json_atomic(self.directory / MANIFEST, manifest)
        return manifest

    def missing(self) -> list[int]:
        """Indices of the chunks not finished yet."""
        done = self.manifest["chunks"]
        return [i for i in range(self.spec.n_chunks) if str(i) not in done]

    def save_chunk(self, index: int, frame: pd.DataFrame, *, worker: str, seconds: float) -> None:
        """Write chunk ``index`` and mark it finished."""
        written = write_chunk(self.directory, index, frame)
        self.record_chunk(index, frame, written, worker=worker, seconds=seconds)

    def record_chunk(
        self, index: int, frame: pd.DataFrame, written: dict[str, Any], *, worker: str, seconds: float
    ) -> None:
        """Mark chunk ``index`` finished; its file is written already (by ``write_chunk``).

        ``frame`` is the chunk's records, or at least their ``thrown_in`` column, all rows;
        ``written`` is what ``write_chunk`` returned (the file's size and checksum).
        """
        first, count = self.spec.chunk_range(index)
        thrown = frame["thrown_in"].value_counts()
        self.manifest["chunks"][str(index)] = {
            "file": f"{CHUNKS}/{chunk_name(index)}",
            "first_deal": first,
            "deals": count,
            "rows": len(frame),
            "bytes": int(written["bytes"]),
            "sha256": str(written["sha256"]),
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
            "thrown_in": {name: sum(c["thrown_in"][name] for c in chunks) for name in THROWN_IN_NAMES},
        }
        _write_json_atomic(self.directory / MANIFEST, self.manifest)


def _difference(theirs: dict[str, Any], ours: dict[str, Any]) -> str:
    diffs = [
        f"{k}: {theirs.get(k)!r} there, {v!r} here"
        for k, v in ours.items()
        if k != "tarotsim" and theirs.get(k) != v
    ]
    return "; ".join(diffs) or "a different configuration"


def execute(
    directory: str | os.PathLike[str],
    spec: RunSpec,
    *,
    threads: int | None = None,
    progress: bool = False,
    allow_version_change: bool = False,
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
    allow_version_change : bool
        Finish a run that another tarotsim version started (recorded in its manifest).

    Returns
    -------
    Run
        The run, finished (``manifest["complete"]``) and closed; ``remade`` lists the
        chunks that failed their check and were made again.

    Raises
    ------
    ValueError
        See :class:`Run`; also when a chunk cannot be written (a full disk) or would not
        fit in memory.
    """
    spec.check_memory()
    with Run(directory, spec, allow_version_change=allow_version_change) as run:
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
                    run.save_chunk(
                        index, frame, worker=f"local:{count}-threads", seconds=time.perf_counter() - started
                    )
                    if bar is not None:
                        bar.update(spec.chunk_range(index)[1])
        finally:
            if bar is not None:
                bar.close()
        run.finish()
    return run
