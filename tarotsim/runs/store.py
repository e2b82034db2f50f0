"""Run directories: make, resume, extend and repair runs; read their records.

A run (``runs.spec.RunSpec``) is cut into chunks that can be made in any order, by any
thread or worker; a run that was stopped part-way resumes where it was: finished chunks
are kept, missing ones are made, and the records equal those of an uninterrupted run.
What a run directory holds and how it is checked is `tarotsim.runs.manifest`'s; this
module makes and reads runs:

- one writer at a time: a writer holds the directory's lock (`tarotsim.runs.lock`)
  from opening to the end;
- resuming checks every finished chunk (its checksum, and the run and deals its footer
  names) and makes again any that fails; it removes stray chunk-named files (or keeps one
  that is a whole chunk of this run, written by a writer stopped before it could list it);
- a manifest that is missing, unreadable or edited (its identity no longer matches its
  checksum) is rebuilt from the intact chunks of the run the command names;
- the same command with a larger deal count extends a run: its whole chunks are kept,
  and the records equal those of a fresh run of the larger size (a conditioned sweep's
  chunks are written again with the larger run's weights);
- a directory holding nothing but what a killed start leaves (an empty ``chunks/``, a
  stale lock, a temporary manifest) is taken as new; a new directory that a failed start
  leaves without a finished chunk is removed again;
- the records format and the tarotsim version are part of a run: resuming with another
  version is refused unless asked for (``allow_version_change``), which the manifest
  records.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from tarotsim.base.files import is_temporary, os_error
from tarotsim.engine.labels import THROWN_IN_NAMES
from tarotsim.runs.lock import LOCK, WriterLock
from tarotsim.runs.manifest import (
    CHUNK_FILE,
    CHUNKS,
    MANIFEST,
    VERIFY,
    DamagedManifest,
    binding_problem,
    can_write_chunks,
    check_paired,
    chunk_name,
    chunk_path,
    chunk_paths,
    chunk_problem,
    difference,
    file_sha256,
    identity_sha256,
    read_binding,
    read_manifest,
    read_manifest_file,
    repair_advice,
    unbound,
    versions,
    write_chunk,
    write_json_atomic,
)
from tarotsim.runs.runner import using_threads
from tarotsim.runs.spec import RunSpec

__all__ = [
    "CHUNKS",
    "MANIFEST",
    "VERIFY",
    "Run",
    "RunSpec",
    "can_write_chunks",
    "check_paired",
    "chunk_path",
    "chunk_paths",
    "execute",
    "file_sha256",
    "iter_records",
    "load_records",
    "read_manifest",
    "versions",
    "write_chunk",
]

REPORT = "report"
"""The folder a run directory may hold besides its chunks: the report ``study`` and ``duel`` write."""


def load_records(
    directory: str | os.PathLike[str], columns: Sequence[str] | None = None, *, verify: str = "sha256"
) -> pd.DataFrame:
    """The records of a finished run directory, its manifest's chunks in deal order.

    ``columns`` reads only those columns (the ones the run has), which keeps memory low
    on runs of millions of deals. ``verify`` is as for `chunk_paths`.

    Raises
    ------
    ValueError
        If the directory is not a finished run, or a chunk fails its check or cannot be
        read (see `chunk_paths`).
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
    and errors are those of [`load_records`][tarotsim.analysis.load_records]; a chunk that cannot be read raises when
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
                f"{repair_advice(Path(directory), manifest)}"
            ) from None
        yield frame


def _is_chunk_file(path: Path) -> bool:
    return CHUNK_FILE.fullmatch(path.name) is not None


def _blank(root: Path) -> bool:
    """Whether ``root`` holds only what a start killed before its first manifest leaves."""
    for entry in root.iterdir():
        if entry.name == CHUNKS and entry.is_dir():
            if any(not is_temporary(p) for p in entry.iterdir()):
                return False
        elif entry.name != LOCK and not is_temporary(entry):
            return False
    return True


def _lost_manifest(root: Path) -> bool:
    """Whether ``root`` is a run directory whose manifest is gone: chunk files, and nothing
    but what a run directory holds besides (its lock, temporary files, its report)."""
    chunks = root / CHUNKS
    if not chunks.is_dir() or not any(_is_chunk_file(p) for p in chunks.iterdir()):
        return False
    return all(
        entry.name in (CHUNKS, LOCK) or is_temporary(entry) or (entry.name == REPORT and entry.is_dir())
        for entry in root.iterdir()
    )


def _sized(run: dict[str, Any]) -> dict[str, Any]:
    """A run's identity without what an extension to more deals changes: the version, the deal
    count, and a conditioned sweep's deal count in its condition (its weights, rewritten on
    extension by ``Run._reweigh``)."""
    out = unbound(run)
    if isinstance(out.get("condition"), dict):
        out["condition"] = {k: v for k, v in out["condition"].items() if k != "deals"}
    return out


class Run:
    """An open run directory: its spec and its manifest, and this process as its one writer.

    Opening a new (or empty) directory creates the run with its manifest; opening an
    existing run checks that it is the same run (``RunSpec.identity``; a larger deal count
    extends it), made by this tarotsim version (unless ``allow_version_change``), and
    checks every finished chunk: one that fails is dropped from the manifest, listed in
    ``remade``, and made again by `missing`'s caller. A missing, unreadable or edited
    manifest is rebuilt from the chunks (``rebuilt`` says why); stray chunk-named files
    are removed (``removed``). Use it in a ``with`` block (or call `close`), which
    releases the directory's lock; a directory that this run created is removed again if
    the block fails before a chunk is finished.

    Attributes
    ----------
    remade : list of (int, str)
        The chunks that failed their check, and why.
    removed : list of str
        Stray files removed from ``chunks/``, and why.
    rebuilt : str or None
        Why the manifest was rebuilt from the chunks, None when it was not.
    extended_from : int or None
        The deal count of the run before this one extended it.

    Raises
    ------
    ValueError
        If the path is a file, holds another run or other files, cannot be created or
        written, another writer holds it, it was made by another tarotsim version, or it
        holds more deals than ``spec``.
    """

    def __init__(
        self, directory: str | os.PathLike[str], spec: RunSpec, *, allow_version_change: bool = False
    ) -> None:
        self.directory = Path(directory)
        self.spec = spec
        self.remade: list[tuple[int, str]] = []
        self.removed: list[str] = []
        self.rebuilt: str | None = None
        self.extended_from: int | None = None
        self.manifest: dict[str, Any] = {}
        root = self.directory
        if root.exists() and not root.is_dir():
            raise ValueError(f"{root} is a file; a run directory must be a new, empty or run directory")
        lost = not (root / MANIFEST).exists() and root.exists() and _lost_manifest(root)
        if not (root / MANIFEST).exists() and root.exists() and not lost and not _blank(root):
            raise ValueError(f"{root} exists and is not a tarotsim run; choose an empty or new directory")
        self._created = not root.exists()
        try:
            root.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise ValueError(f"cannot create run directory {root}: {err.strerror or err}") from None
        self._lock: WriterLock | None = None
        try:
            self._lock = WriterLock(root)
            (root / CHUNKS).mkdir(exist_ok=True)
            for leftover in [*root.glob(f"{MANIFEST}.tmp-*"), *(root / CHUNKS).glob("*.tmp-*")]:
                leftover.unlink(missing_ok=True)  # of a writer killed mid-write
            self.manifest = self._open(allow_version_change, lost)
            self._tidy()
        except OSError as err:
            self._abandon()
            raise os_error(err, f"in run directory {root}", resumes=True) from None
        except BaseException:
            self._abandon()
            raise

    def __enter__(self) -> Run:
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        if exc_type is not None:
            self._abandon()
        self.close()

    def close(self) -> None:
        """Release the directory's lock; the run stays as it is on disk."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def _abandon(self) -> None:
        """Release the lock; remove the directory again if this run created it and finished no chunk."""
        self.close()
        if not self._created or self.manifest.get("chunks"):
            return
        root = self.directory
        (root / MANIFEST).unlink(missing_ok=True)
        chunks = root / CHUNKS
        if chunks.is_dir() and not any(_is_chunk_file(p) for p in chunks.iterdir()):
            shutil.rmtree(chunks, ignore_errors=True)
        try:
            root.rmdir()
        except OSError:
            pass  # something else was put there meanwhile: leave it

    def _open(self, allow_version_change: bool, lost: bool) -> dict[str, Any]:
        path = self.directory / MANIFEST
        if lost:
            return self._rebuild("was missing")
        if not path.exists():
            return self._create()
        try:
            manifest = read_manifest_file(path)
        except DamagedManifest as err:
            return self._rebuild(err.problem)
        return self._resume(manifest, allow_version_change)

    def _new_manifest(self, chunks: dict[str, Any]) -> dict[str, Any]:
        run = self.spec.identity()
        return {
            "run": run,
            "identity_sha256": identity_sha256(run),
            "versions": versions(),
            "chunks": chunks,
            "complete": False,
            "wall_time_s": 0.0,
        }

    def _create(self) -> dict[str, Any]:
        manifest = self._new_manifest({})
        write_json_atomic(self.directory / MANIFEST, manifest)
        return manifest

    def _rebuild(self, why: str) -> dict[str, Any]:
        """A new manifest listing the chunk files that are whole chunks of this run.

        Raises
        ------
        ValueError
            If the chunks are another run's: the directory is not this run's to repair.
        """
        ours = unbound(self.spec.identity())
        for path in sorted((self.directory / CHUNKS).iterdir()):
            try:
                found = read_binding(path) if _is_chunk_file(path) else None
            except Exception:  # an unreadable file: _tidy removes it
                continue
            if found is not None and found.get("run") != ours:
                raise ValueError(
                    f"{self.directory} holds the chunks of another run ({difference(found.get('run') or {}, ours)}) "
                    "and no readable manifest: choose another --out directory, or repeat that run's own command"
                )
        self.rebuilt = why
        self.manifest = self._new_manifest({})
        return self.manifest

    def _resume(self, manifest: dict[str, Any], allow_version_change: bool) -> dict[str, Any]:
        theirs, ours = manifest["run"], self.spec.identity()
        if _sized(theirs) != _sized(ours):
            raise ValueError(
                f"{self.directory} holds another run ({difference(theirs, ours)}); "
                "choose another --out directory or repeat that run's own command to resume it"
            )
        if ours["deals"] < theirs["deals"]:
            raise ValueError(
                f"{self.directory} holds a run of {theirs['deals']:,} deals: give --deals {theirs['deals']} "
                "to resume it (or more, to extend it), or choose another --out directory"
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
        if ours["deals"] > theirs["deals"]:
            self.extended_from = theirs["deals"]
            manifest["run"] = {**ours, "tarotsim": theirs["tarotsim"]}
            manifest["identity_sha256"] = identity_sha256(manifest["run"])
            manifest["complete"] = False
            manifest.pop("counts", None)
            for key, entry in list(manifest["chunks"].items()):
                if entry.get("deals") != self.spec.chunk_range(int(key))[1]:  # the last chunk, cut short
                    del manifest["chunks"][key]
                    chunk_path(self.directory, int(key)).unlink(missing_ok=True)
            if self.spec.weighted:
                self._reweigh(manifest, theirs)
            changed = True
        for key, entry in sorted(manifest["chunks"].items(), key=lambda item: int(item[0])):
            problem = chunk_problem(self.directory, int(key), entry, run=manifest["run"])
            if problem is not None:
                self.remade.append((int(key), problem))
                del manifest["chunks"][key]
        if changed or self.remade:
            manifest["complete"] = manifest["complete"] and not self.remade
            write_json_atomic(self.directory / MANIFEST, manifest)
        return manifest

    def _reweigh(self, manifest: dict[str, Any], before: dict[str, Any]) -> None:
        """Give the kept chunks of a conditioned sweep extended to more deals the weights of the
        larger run (a cell's probability over its deals in the run, `tarotsim.runs.strata`)
        and its binding, so that its records equal a fresh run's; a chunk that fails its check
        against the run it was written for is dropped, to be made again."""
        cells = self.spec.strata
        assert cells is not None  # a weighted run is conditioned
        weights = cells.weights(self.spec.deals)
        for key, entry in sorted(manifest["chunks"].items(), key=lambda item: int(item[0])):
            index = int(key)
            problem = chunk_problem(self.directory, index, entry, run=before)
            if problem is not None:
                self.remade.append((index, problem))
                del manifest["chunks"][key]
                continue
            frame = pd.read_parquet(chunk_path(self.directory, index))
            frame["weight"] = weights[frame["deal"].to_numpy() % len(cells.cells)]
            entry.update(write_chunk(self.directory, index, frame, run=manifest["run"]))

    def _tidy(self) -> None:
        """Adopt the chunk files the manifest does not list that are whole chunks of this run
        (a writer stopped between writing one and listing it), remove the others."""
        listed = self.manifest["chunks"]
        adopted = False
        for path in sorted((self.directory / CHUNKS).iterdir()):
            match = CHUNK_FILE.fullmatch(path.name)
            if match is None:
                continue
            index = int(match.group(1))
            if str(index) in listed and path.name == chunk_name(index):
                continue
            why = self._adoptable(path, index)
            if why is None:
                frame = pd.read_parquet(path, columns=["thrown_in"])
                written = {"bytes": path.stat().st_size, "sha256": file_sha256(path)}
                self._enter_chunk(index, frame, written, worker="found on resume", seconds=0.0)
                adopted = True
            else:
                path.unlink()
                self.removed.append(f"{path.name} ({why})")
        if adopted or self.rebuilt is not None or self.removed:
            self.manifest["complete"] = False
            write_json_atomic(self.directory / MANIFEST, self.manifest)

    def _adoptable(self, path: Path, index: int) -> str | None:
        """Why the unlisted chunk file ``path`` cannot be chunk ``index`` of this run, or None."""
        if path.name != chunk_name(index) or index >= self.spec.n_chunks:
            return "not a chunk of this run"
        if any(index == remade for remade, _ in self.remade):
            return "failed its check"
        try:
            problem = binding_problem(path, self.manifest["run"], index)
            if problem is None:
                pd.read_parquet(path)  # every page decodes
        except Exception as err:  # pyarrow's errors for a damaged file
            return f"unreadable: {type(err).__name__}"
        return problem

    def missing(self) -> list[int]:
        """Indices of the chunks not finished yet."""
        done = self.manifest["chunks"]
        return [i for i in range(self.spec.n_chunks) if str(i) not in done]

    def save_chunk(self, index: int, frame: pd.DataFrame, *, worker: str, seconds: float) -> None:
        """Write chunk ``index`` and mark it finished."""
        written = write_chunk(self.directory, index, frame, run=self.manifest["run"])
        self.record_chunk(index, frame, written, worker=worker, seconds=seconds)

    def _enter_chunk(
        self, index: int, frame: pd.DataFrame, written: dict[str, Any], *, worker: str, seconds: float
    ) -> None:
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

    def record_chunk(
        self, index: int, frame: pd.DataFrame, written: dict[str, Any], *, worker: str, seconds: float
    ) -> None:
        """Mark chunk ``index`` finished; its file is written already (by ``write_chunk``).

        ``frame`` is the chunk's records, or at least their ``thrown_in`` column, all rows;
        ``written`` is what ``write_chunk`` returned (the file's size and checksum).
        """
        self._enter_chunk(index, frame, written, worker=worker, seconds=seconds)
        write_json_atomic(self.directory / MANIFEST, self.manifest)

    def end_at(self, deals: int) -> None:
        """Make this the run of its first ``deals`` deals, whose chunks must all be finished
        (a duel stopped once decided, `tarotsim.duel`): the finished chunks beyond are
        removed, and the manifest describes the run of ``deals`` deals, which the same call
        with more deals extends again.

        Raises
        ------
        ValueError
            If a chunk of the first ``deals`` deals is not finished.
        """
        from dataclasses import replace

        spec = replace(self.spec, deals=deals)
        chunks = self.manifest["chunks"]
        if any(str(index) not in chunks for index in range(spec.n_chunks)):
            raise ValueError(f"the first {deals:,} deals of {self.directory} are not all made")
        for key, entry in list(chunks.items()):
            if int(key) >= spec.n_chunks or entry["deals"] != spec.chunk_range(int(key))[1]:
                del chunks[key]
                chunk_path(self.directory, int(key)).unlink(missing_ok=True)
        self.spec = spec
        self.manifest["run"] = {**spec.identity(), "tarotsim": self.manifest["run"]["tarotsim"]}
        self.manifest["identity_sha256"] = identity_sha256(self.manifest["run"])
        write_json_atomic(self.directory / MANIFEST, self.manifest)

    def finish(self) -> None:
        """Write the run's totals and whether every chunk is finished into the manifest."""
        chunks = self.manifest["chunks"].values()
        self.manifest["complete"] = not self.missing()
        self.manifest["counts"] = {
            "deals": sum(c["deals"] for c in chunks),
            "rows": sum(c["rows"] for c in chunks),
            "thrown_in": {name: sum(c["thrown_in"][name] for c in chunks) for name in THROWN_IN_NAMES},
        }
        write_json_atomic(self.directory / MANIFEST, self.manifest)

    def notes(self) -> list[str]:
        """One line for each thing opening the run repaired or changed, for a person to read."""
        lines = []
        if self.rebuilt is not None:
            kept = len(self.manifest["chunks"])
            lines.append(
                f"{MANIFEST} {self.rebuilt}: rebuilt from {kept} intact chunk{'s' if kept != 1 else ''}"
            )
        if self.extended_from is not None:
            lines.append(f"extended from {self.extended_from:,} to {self.spec.deals:,} deals")
        lines += [f"removed chunks/{what}" for what in self.removed]
        lines += [f"chunk {index} {problem}: made again" for index, problem in self.remade]
        return lines


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
        See `Run`; also when a chunk cannot be written (a full disk) or would not
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
