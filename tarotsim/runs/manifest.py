"""A run directory's manifest and chunk files: their layout, and the checks that bind them.

A run directory is what its manifest says, or it is refused:

- the manifest lists every finished chunk with its row count, its size in bytes and the
  SHA-256 of its file; readers load exactly those chunks, and check them first (the
  whole hash by default; ``verify="size"`` checks sizes and row counts only, for speed);
  a missing, stray, truncated or altered chunk is a ``ValueError`` that names the chunk
  and the command that repairs it;
- the manifest's identity (the run: kind, seed, deal count, chunking, configuration) carries
  its own checksum (``identity_sha256``), and every chunk file carries, in its Parquet
  footer, the identity of the run that made it and its deal range (`chunk_binding`):
  an edited seed or configuration is refused, for it no longer matches either, and a
  manifest lost or broken can be rebuilt from the chunks (`tarotsim.runs.store`);
- every file is written under a temporary name, then renamed (`tarotsim.base.files`).

Layout::

    DIR/manifest.json              what the run is, and which chunks are finished
    DIR/chunks/chunk-00000.parquet records of deals 0 … chunk_deals - 1
    DIR/.writer.lock               while a writer works on the run
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import re
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pandas as pd

from tarotsim.base.files import write_atomic
from tarotsim.runs.spec import RunSpec

MANIFEST = "manifest.json"
CHUNKS = "chunks"
VERIFY = ("sha256", "size")
"""How readers check chunks against the manifest: the whole file's SHA-256 (the default),
or only its size and row count (fast: catches missing and truncated chunks, not altered bytes)."""
CHUNK_FILE = re.compile(r"chunk-(\d+)\.parquet")
"""The name of a chunk file; a file so named that the manifest does not list is stray."""
BINDING_KEY = b"tarotsim.chunk"
"""The key of a chunk's Parquet footer metadata that says which run and deals it holds."""
_CHUNK_FIELDS = {"file": str, "rows": int, "bytes": int, "sha256": str, "thrown_in": dict}
_HASH_BLOCK = 1 << 22
_UNBOUND = ("tarotsim", "deals")
"""Identity fields a chunk's binding leaves out: the version that made it (a run may be finished
by another, when allowed) and the deal count (a run may be extended to more deals)."""


class DamagedManifest(ValueError):
    """A manifest that cannot be read, or whose identity does not match its checksum:
    re-running the run's command rebuilds it from the chunks. ``problem`` says what is wrong."""

    def __init__(self, message: str, problem: str) -> None:
        super().__init__(message)
        self.problem = problem


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


def identity_sha256(run: dict[str, Any]) -> str:
    """The checksum of a run's identity (``RunSpec.identity()``), as the manifest records it."""
    text = json.dumps(run, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def unbound(run: dict[str, Any]) -> dict[str, Any]:
    """A run's identity without what a chunk's binding leaves out: the version and the deal count.
    Two runs equal here hold the same chunks (a larger deal count extends a run)."""
    return {k: v for k, v in run.items() if k not in _UNBOUND}


def chunk_binding(run: dict[str, Any], index: int) -> dict[str, Any]:
    """What chunk ``index`` of the run ``run`` (an identity) carries in its Parquet footer:
    the run's identity but the version and deal count, the chunk's index and deal range."""
    first, count = RunSpec.from_identity(run).chunk_range(index)
    return {
        "run": unbound(run),
        "chunk": index,
        "first_deal": first,
        "deals": count,
    }


def read_binding(path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The binding a chunk file carries (`chunk_binding`), None when it has none.

    Raises
    ------
    OSError, pyarrow.ArrowException
        If the file cannot be read as Parquet.
    """
    import pyarrow.parquet as pq

    metadata = pq.read_schema(path).metadata or {}
    raw = metadata.get(BINDING_KEY)
    if raw is None:
        return None
    try:
        binding = json.loads(raw)
    except ValueError:
        return None
    return binding if isinstance(binding, dict) else None


def write_json_atomic(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` as indented JSON to ``path`` atomically."""
    text = json.dumps(data, indent=2) + "\n"
    write_atomic(
        path,
        lambda tmp: tmp.write_text(text, encoding="utf-8"),
        what=f"the manifest of run {path.parent}",
        resumes=True,
    )


def file_sha256(path: str | os.PathLike[str]) -> str:
    """SHA-256 of a file's bytes, as hex."""
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        while block := stream.read(_HASH_BLOCK):
            digest.update(block)
    return digest.hexdigest()


def write_chunk(
    directory: str | os.PathLike[str], index: int, frame: pd.DataFrame, *, run: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Write the records of chunk ``index`` atomically, under a temporary name of its own.

    ``run`` is the identity of the run the chunk belongs to (``RunSpec.identity()``): the
    file's footer then carries its binding (`chunk_binding`), which readers check.
    Without it (a scratch file, for timing) readers refuse the chunk.

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
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(frame, preserve_index=False)
    if run is not None:
        binding = json.dumps(chunk_binding(run, index), sort_keys=True).encode("utf-8")
        table = table.replace_schema_metadata({**(table.schema.metadata or {}), BINDING_KEY: binding})

    def write(tmp: Path) -> dict[str, Any]:
        pq.write_table(table, tmp)
        return {"bytes": tmp.stat().st_size, "sha256": file_sha256(tmp)}

    return write_atomic(
        chunk_path(directory, index), write, what=f"chunk {index} of run {directory}", resumes=True
    )


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


def read_manifest_file(path: Path) -> dict[str, Any]:
    """The manifest at ``path``, checked (see `read_manifest`).

    Raises
    ------
    DamagedManifest
        If it is not readable JSON, lacks a field, or its identity does not match its checksum.
    ValueError
        If it does not describe a tarotsim run, or one of another records format.
    """
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DamagedManifest(
            f"{str(path)!r} is not a readable tarotsim manifest ({exc}); repeat the command that made "
            "the run to rebuild it from its chunks",
            "was not readable",
        ) from None
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
    if problem is None and manifest.get("identity_sha256") != identity_sha256(run):
        raise DamagedManifest(
            f"{str(path)!r} was edited: its run (seed, deals, configuration) no longer matches its checksum; "
            "repeat the command that made the run to rebuild the manifest from its chunks",
            "was edited (its run no longer matched its checksum)",
        )
    if problem is not None:
        raise DamagedManifest(
            f"{str(path)!r} is damaged: {problem}; repeat the command that made the run "
            "to rebuild it from its chunks",
            f"was damaged ({problem.removeprefix('its ').removeprefix('it ')})",
        )
    return manifest


def read_manifest(directory: str | os.PathLike[str]) -> dict[str, Any]:
    """The manifest of the run directory ``directory``, checked.

    Raises
    ------
    ValueError
        If ``directory`` is not a directory, has no readable ``manifest.json``, or the
        manifest does not describe a tarotsim run of this records format (``{}`` and
        ``[]`` are refused, and so is a chunk list without sizes and checksums, and a run
        description that does not match its checksum).
    """
    root = Path(directory)
    if not root.is_dir():
        raise ValueError(f"run directory {str(root)!r} does not exist or is not a directory")
    path = root / MANIFEST
    if not path.is_file():
        raise ValueError(f"{str(root)!r} is not a run directory: it has no {MANIFEST}")
    return read_manifest_file(path)


def repair_advice(root: Path, manifest: dict[str, Any]) -> str:
    """The advice that ends a chunk's error: the command that makes the chunk again."""
    command = RunSpec.from_identity(manifest["run"]).command(root)
    how = f"`{command}`" if command else "the call that made the run"
    return f"repeat {how} to make it again"


def binding_problem(path: Path, run: dict[str, Any], index: int) -> str | None:
    """What is wrong with the binding chunk file ``path`` carries for chunk ``index`` of ``run``, or None."""
    found = read_binding(path)
    if found is None:
        return "carries no record of the run that made it"
    expected = chunk_binding(run, index)
    if found.get("run") != expected["run"]:
        theirs, ours = found.get("run") or {}, expected["run"]
        return f"was made by another run ({difference(theirs, ours, there='in the chunk', here='in the manifest')})"
    if [found.get(k) for k in ("chunk", "first_deal", "deals")] != [
        expected[k] for k in ("chunk", "first_deal", "deals")
    ]:
        return (
            f"holds deals {found.get('first_deal')} + {found.get('deals')} (chunk {found.get('chunk')}) where "
            f"the run's chunk {index} holds deals {expected['first_deal']} + {expected['deals']}"
        )
    return None


def chunk_problem(
    root: Path,
    index: int,
    entry: dict[str, Any],
    verify: str = "sha256",
    *,
    run: dict[str, Any] | None = None,
) -> str | None:
    """What is wrong with the file of chunk ``index`` against its manifest ``entry``, or None.

    ``verify`` is ``"sha256"`` (size, then the whole file's hash) or ``"size"`` (size and
    the row count of the Parquet footer). With ``run`` (the manifest's identity), the
    chunk's binding is checked too (`chunk_binding`).
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
        if run is not None:
            return binding_problem(path, run, index)
    except Exception as err:  # pyarrow raises its own errors for a damaged footer
        return f"cannot be read ({type(err).__name__}: {err})"
    return None


def check_verify(verify: str) -> None:
    """Refuse an unknown ``verify`` mode."""
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
        Its manifest (`read_manifest`).
    verify : {"sha256", "size"}
        Check each chunk's whole SHA-256 (default), or only its size and row count; both
        check the run and deals that the chunk's footer names against the manifest.

    Raises
    ------
    ValueError
        If the run is not finished, or a chunk is missing, truncated, altered, stray
        (a ``chunk-*.parquet`` file the manifest does not list) or of another run; the
        message names the chunk and the command that repairs it.
    """
    check_verify(verify)
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
                f"lists (copied from another run?): remove it (rm {path}), or repeat the command "
                "that made the run, which removes it"
            )
    paths = []
    for index in range(n_chunks):
        entry = chunks.get(str(index))
        problem = (
            "is not in the manifest"
            if entry is None
            else chunk_problem(root, index, entry, verify, run=manifest["run"])
        )
        if problem is not None:
            raise ValueError(
                f"chunk {CHUNKS}/{chunk_name(index)} of run {str(root)!r} {problem}; "
                f"{repair_advice(root, manifest)}"
            )
        paths.append(chunk_path(root, index))
    return paths


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


def _flat(run: dict[str, Any]) -> dict[str, Any]:
    """A run's identity with its configuration's fields at the top (``policy``, not ``config``), and a
    duel's strategies as ``strategy A`` and ``strategy B``."""
    config = run.get("config")
    flat = {k: v for k, v in run.items() if k not in ("config", "duel")}
    duel = run.get("duel")
    if isinstance(duel, list) and len(duel) == 2:
        flat |= {"strategy A": duel[0], "strategy B": duel[1]}
    return flat | (config if isinstance(config, dict) else {"config": config})


def difference(
    theirs: dict[str, Any], ours: dict[str, Any], *, there: str = "there", here: str = "here", most: int = 4
) -> str:
    """The fields in which two runs' identities differ, shortly: ``seed 5 there, 6 here; …``.

    The configuration's fields are compared one by one, the version is left out, and at most
    ``most`` differences are named (then how many more).
    """
    a, b = _flat(theirs), _flat(ours)
    names = [k for k in dict.fromkeys([*b, *a]) if k != "tarotsim" and a.get(k) != b.get(k)]

    def show(value: Any) -> str:
        return ",".join(map(str, value)) if isinstance(value, list) else str(value)

    said = [f"{k} {show(a.get(k))} {there}, {show(b.get(k))} {here}" for k in names[:most]]
    if len(names) > most:
        said.append(f"{len(names) - most} more")
    return "; ".join(said) or "a different configuration"
