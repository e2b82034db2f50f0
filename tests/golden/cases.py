"""The fixed-seed runs pinned by the golden files (see ``regenerate.py``)."""

from __future__ import annotations

from typing import Any

import pandas as pd

import tarotsim
from tarotsim.players.config import RunConfig
from tarotsim.runs.trace import trace_records

SEED = 20261201
RANDOM = {"policy": "random", "ecart_policy": "simple"}  # random play, as the cases were made
EXPERT = {
    "policy": "heuristic",
    "ecart_policy": "expert",
    "poignee_policy": "smart",
    "chelem_policy": "overwhelming",
}

RECORD_CASES: dict[str, dict[str, Any]] = {
    "random-4p": {"players": 4, "deals": 3000, **RANDOM},
    "expert-3p": {"players": 3, "deals": 1500, **EXPERT},
    "expert-4p": {"players": 4, "deals": 2000, **EXPERT},
    "expert-5p": {"players": 5, "deals": 1500, **EXPERT},
    "unshuffled-4p": {"players": 4, "deals": 2100, "dealing": "unshuffled", **EXPERT},
    "sweep-4p": {"players": 4, "deals": 600, "sweep": True},
    "sweep-5p": {"players": 5, "deals": 400, "sweep": True},
    "pimc-4p": {"players": 4, "deals": 20, "strategies": ["play=pimc,worlds=4,ecart=expert"] * 4},
    "pimc-5p-endgame": {
        "players": 5,
        "deals": 10,
        "strategies": ["play=pimc,worlds=4,endgame=2,ecart=simple"] * 5,
    },
}
TRACE_CASES: dict[str, dict[str, Any]] = {
    "expert-3p": {"players": 3, **EXPERT},
    "expert-4p": {"players": 4, **EXPERT},
    "expert-5p": {"players": 5, **EXPERT},
    "random-5p": {"players": 5, **RANDOM},
}
TRACE_DIGEST_DEALS = 400
READABLE_DEALS = 3


def run_records(name: str, policy: str | None = None) -> pd.DataFrame:
    """The records of one record case, with its card play replaced by ``policy`` if given."""
    options = dict(RECORD_CASES[name])
    if policy is not None:
        options["policy"] = policy
    deals = options.pop("deals")
    if options.pop("sweep", False):
        return tarotsim.sweep(deals, seed=SEED, progress=False, **options)
    return tarotsim.simulate(deals, seed=SEED, progress=False, **options)


def run_traces(name: str, deals: int, policy: str | None = None) -> list[dict[str, Any]]:
    """The traces of the first ``deals`` deals of one trace case, its card play replaced by
    ``policy`` if given."""
    options = dict(TRACE_CASES[name])
    if policy is not None:
        options["policy"] = policy
    return trace_records(deals, SEED, RunConfig(**options))


def readable_traces(players: int) -> list[dict[str, Any]]:
    """The few traces committed in full for ``players`` players."""
    return run_traces(f"expert-{players}p", READABLE_DEALS)
