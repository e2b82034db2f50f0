"""Runs on disk: Parquet chunks of per-deal records plus a ``manifest.json``, resumable.

A run is cut into chunks of ``chunk_deals`` consecutive deals. Chunk ``i`` depends on
the run's seed, configuration and ``i`` alone (every deal seeds its own stream), so
chunks can be made in any order, by any thread or worker, and a run that was stopped
part-way resumes where it was: finished chunks are kept, missing ones are made, and the
records equal those of an uninterrupted run.

Layout::

    DIR/manifest.json              what the run is, and which chunks are finished
    DIR/chunks/chunk-00000.parquet records of deals 0 … chunk_deals - 1
"""

from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pandas as pd

from tarotsim.config import RunConfig
from tarotsim.labels import THROWN_IN_NAMES, parse_contract
from tarotsim.run.engine import check_count, play, using_threads
from tarotsim.run.records import to_frame
from tarotsim.run.seeding import run_key

MANIFEST = "manifest.json"
CHUNKS = "chunks"
FORMAT = 1
DEFAULT_CHUNK_DEALS = 1 << 18
"""Deals per chunk: 262,144 deals make about 30 MB of records in memory (four times that
for a four-contract sweep), so a run's memory stays bounded whatever its length."""


@dataclass(frozen=True)
class RunSpec:
    """What decides a run's records: kind, seed, deal count, chunking, table and policies.

    ``kind`` is ``"simulate"`` (each deal bid and played once) or ``"sweep"`` (each deal
    played once per contract in ``contracts`` by seat ``seat``).
    """

    kind: str
    seed: int
    deals: int
    config: RunConfig
    chunk_deals: int = DEFAULT_CHUNK_DEALS
    contracts: tuple[str, ...] = ()
    seat: int = 0
    key: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.kind not in ("simulate", "sweep"):
            raise ValueError(f"a run is a 'simulate' or a 'sweep' run, got {self.kind!r}")
        check_count(self.deals, "deals", minimum=1)
        check_count(self.chunk_deals, "chunk size", minimum=1)
        if self.kind == "sweep":
            if not self.contracts:
                raise ValueError("a sweep needs at least one contract")
            for name in self.contracts:
                parse_contract(name)
            if len(set(self.contracts)) != len(self.contracts):
                raise ValueError(f"a contract appears twice in {list(self.contracts)}")
            if self.config.dealing != "shuffled":
                raise ValueError("a sweep replays each deal once per contract, so it needs shuffled dealing")
            if not 0 <= self.seat < self.config.players:
                raise ValueError(f"the taking seat must be 0 to {self.config.players - 1}, got {self.seat}")
        object.__setattr__(self, "key", run_key(self.seed))

    @property
    def n_chunks(self) -> int:
        return -(-self.deals // self.chunk_deals)

    def chunk_range(self, index: int) -> tuple[int, int]:
        """(first deal, number of deals) of chunk ``index``."""
        first = index * self.chunk_deals
        return first, min(self.chunk_deals, self.deals - first)

    def identity(self) -> dict[str, Any]:
        """The fields two runs must share to be the same run (JSON-ready)."""
        return {
            "format": FORMAT,
            "kind": self.kind,
            "seed": self.seed,
            "deals": self.deals,
            "chunk_deals": self.chunk_deals,
            "config": self.config.as_dict(),
            "contracts": list(self.contracts),
            "seat": self.seat if self.kind == "sweep" else None,
        }

    @staticmethod
    def from_identity(identity: dict[str, Any]) -> RunSpec:
        config = dict(identity["config"])
        config["bid_thresholds"] = tuple(config["bid_thresholds"])
        return RunSpec(
            kind=identity["kind"],
            seed=identity["seed"],
            deals=identity["deals"],
            config=RunConfig(**config),
            chunk_deals=identity["chunk_deals"],
            contracts=tuple(identity["contracts"]),
            seat=identity["seat"] or 0,
        )

    def _cfg(self) -> np.ndarray:
        config = self.config
        if self.kind == "sweep":
            # the forced contract is set per row by the sweep kernel; the seat is fixed here
            config = RunConfig(**{**config.as_dict(), "bid_thresholds": config.bid_thresholds,
                                  "forced_taker": self.seat, "forced_contract": self.contracts[0]})
        return config.to_array()

    def compute_chunk(self, index: int, *, progress: bool = False) -> pd.DataFrame:
        """Records of chunk ``index`` (a pure function of the spec and the index)."""
        first, count = self.chunk_range(index)
        contracts = None
        if self.kind == "sweep":
            contracts = np.array([parse_contract(c) for c in self.contracts], dtype=np.int64)
        rec = play(first, count, self.key, self._cfg(), contracts=contracts, progress=progress)
        return to_frame(rec, first, self.config.players, per_deal=1 if contracts is None else len(contracts))


def chunk_name(index: int) -> str:
    return f"chunk-{index:05d}.parquet"


def versions() -> dict[str, str]:
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


def write_chunk(directory: Path, index: int, frame: pd.DataFrame) -> None:
    """Write a chunk's records atomically (a killed run never leaves half a chunk)."""
    path = directory / CHUNKS / chunk_name(index)
    tmp = path.with_name(path.name + ".tmp")
    frame.to_parquet(tmp, index=False)
    os.replace(tmp, path)


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
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{str(path)!r} is not a readable tarotsim manifest: {exc}") from None
    run = manifest.get("run") if isinstance(manifest, dict) else None
    if not isinstance(run, dict) or run.get("kind") not in ("simulate", "sweep"):
        raise ValueError(f"{str(path)!r} does not describe a tarotsim run (no 'run' with a kind)")
    return manifest


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
    """An open run directory: its spec and its manifest."""

    def __init__(self, directory: str | os.PathLike[str], spec: RunSpec) -> None:
        self.directory = Path(directory)
        self.spec = spec
        self.manifest = self._open()

    def _open(self) -> dict[str, Any]:
        path = self.directory / MANIFEST
        if path.exists():
            try:
                manifest = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError) as err:
                raise ValueError(f"{path} is not a readable tarotsim manifest ({err})") from None
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
            if str(i) not in done or not (self.directory / CHUNKS / chunk_name(i)).exists()
        ]

    def record_chunk(self, index: int, frame: pd.DataFrame, *, worker: str, seconds: float) -> None:
        """Mark chunk ``index`` finished (its file must be written already)."""
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
    """Make (or finish) the run ``spec`` in ``directory`` on this machine's threads."""
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
                write_chunk(run.directory, index, frame)
                run.record_chunk(index, frame, worker=f"local:{count}-threads", seconds=time.perf_counter() - started)
                if bar is not None:
                    bar.update(spec.chunk_range(index)[1])
    finally:
        if bar is not None:
            bar.close()
    run.finish()
    return run
