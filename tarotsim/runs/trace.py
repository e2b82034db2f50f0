"""Deal traces: every card of every deal, one JSON object per deal (JSON Lines)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from tarotsim.engine.kernels import state as S
from tarotsim.engine.kernels.state import C_HAND
from tarotsim.engine.records import deal_trace
from tarotsim.players.config import RunConfig
from tarotsim.players.policies import searches
from tarotsim.runs.compiling import prepare_run
from tarotsim.runs.runner import config_rows, run_kernel, searching_argument, user_run

TRACE_BLOCK_DEALS = 4096
"""Deals traced per call into the kernels (bounds memory for long traces)."""


def traced_block(
    first_deal: int, deals: int, key: np.ndarray, cfg: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play deals first_deal … first_deal + deals - 1 keeping everything a trace needs.

    Returns the records (int32[deals, N_REC]), the decision logs (int64[deals, N_LOG],
    slots ``engine.kernels.state.L_*``) and the card sets (uint64[deals, N_MASKS], columns
    ``engine.kernels.state.M_*``: hands as dealt, chien, écart, poignées shown).
    """
    out = np.zeros((deals, S.N_REC), dtype=np.int32)
    logs = np.zeros((deals, S.N_LOG), dtype=np.int64)
    masks = np.zeros((deals, S.N_MASKS), dtype=np.uint64)
    cfgs = config_rows(cfg)
    searching = searching_argument(searches(cfgs))
    users = user_run(cfgs)
    prepare_run(first_deal, key, cfgs, out, logs, masks, searching, users)
    run_kernel(first_deal, key, cfgs, out, logs, masks, searching, users)
    return out, logs, masks


def iter_traces(deals: int, key: np.ndarray, config: RunConfig) -> Iterator[dict[str, Any]]:
    """Trace dicts of deals 0 … deals - 1 of the run with key ``key``; with a strategy per
    seat (``config.strategies``), each names them (``strategies``: each seat's label)."""
    cfg = config.to_array()
    hand_size = int(cfg[C_HAND])
    labels = None if config.strategies is None else [s.label for s in config.strategies]
    for start in range(0, deals, TRACE_BLOCK_DEALS):
        n = min(TRACE_BLOCK_DEALS, deals - start)
        out, logs, masks = traced_block(start, n, key, cfg)
        for i in range(n):
            trace = deal_trace(start + i, out[i], logs[i], masks[i], config.players, hand_size)
            if labels is not None:
                trace["strategies"] = labels
            yield trace


def write_trace(stream: TextIO, deals: int, key: np.ndarray, config: RunConfig) -> int:
    """Write one JSON line per deal to ``stream``; returns the number of deals written."""
    count = 0
    for trace in iter_traces(deals, key, config):
        stream.write(json.dumps(trace))
        stream.write("\n")
        count += 1
    return count


def trace_records(deals: int, seed: int, config: RunConfig | None = None) -> list[dict[str, Any]]:
    """Trace dicts of the first ``deals`` deals of the run with ``seed``."""
    from tarotsim.base.seeding import run_key

    return list(iter_traces(deals, run_key(seed), config or RunConfig()))


def write_trace_file(path: str | Path, deals: int, key: np.ndarray, config: RunConfig) -> int:
    """Write a JSON Lines trace file, whole or not at all; returns the number of deals written.

    The trace goes to a temporary file beside ``path``, renamed to ``path`` once complete:
    a failed or interrupted trace leaves no partial file.

    Raises
    ------
    ValueError
        If the file cannot be written.
    """
    from tarotsim.base.files import write_atomic

    def write(tmp: Path) -> int:
        with open(tmp, "w", encoding="utf-8", newline="\n") as stream:
            return write_trace(stream, deals, key, config)

    return write_atomic(path, write)
