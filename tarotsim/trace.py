"""Deal traces: every card of every deal, one JSON object per deal (JSON Lines)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from tarotsim.cards import format_cards, from_mask
from tarotsim.config import RunConfig
from tarotsim.kernels import state as S
from tarotsim.kernels.state import C_HAND, MAX_SEATS
from tarotsim.labels import CONTRACT_NAMES, THROWN_IN_NAMES, Poignee, Side
from tarotsim.policies import searches
from tarotsim.run.compiling import prepare_run
from tarotsim.run.engine import config_rows, run_kernel, searching_argument, user_run

TRACE_BLOCK_DEALS = 4096
"""Deals traced per call into the kernels (bounds memory for long traces)."""


def _side(code: int) -> str | None:
    """The label of side ``code``, None for no side."""
    side = Side(code)
    return None if side == Side.NONE else side.label


def _cards(masks: np.ndarray, at: int) -> list[str]:
    return format_cards(from_mask(masks[at], masks[at + 1]))


def _deal_dict(
    deal: int, rec: np.ndarray, log: np.ndarray, masks: np.ndarray, players: int, hand_size: int
) -> dict[str, Any]:
    thrown = int(rec[S.R_THROWN_IN])
    trace: dict[str, Any] = {
        "deal": deal,
        "players": players,
        "dealer": int(rec[S.R_DEALER]),
        "hands": [_cards(masks, S.M_DEALT + 2 * seat) for seat in range(players)],
        "chien": _cards(masks, S.M_CHIEN),
        "thrown_in": None if thrown == S.THROWN_NONE else THROWN_IN_NAMES[thrown],
        "bids": []
        if thrown == S.THROWN_PETIT_SEC
        else [CONTRACT_NAMES[int(b)] for b in log[S.L_BIDS : S.L_BIDS + players]],
        "taker": None,
        "contract": None,
        "called_card": None,
        "partner": None,
        "ecart": [],
        "chelem_announced": False,
        "poignees": [],
        "tricks": [],
        "attack_points": None,
        "attack_bouts": None,
        "made": None,
        "margin": None,
        "petit_au_bout": None,
        "chelem": None,
        "scores": [0] * players,
    }
    if thrown != S.THROWN_NONE:
        return trace
    taker = int(rec[S.R_TAKER])
    trace["taker"] = taker
    trace["contract"] = CONTRACT_NAMES[int(rec[S.R_CONTRACT])]
    if players == 5:
        called = int(rec[S.R_CALLED_CARD])
        partner = int(rec[S.R_PARTNER])
        trace["called_card"] = format_cards([called])[0] if called >= 0 else None
        trace["partner"] = partner if partner >= 0 else None
    trace["ecart"] = _cards(masks, S.M_ECART)
    trace["chelem_announced"] = bool(rec[S.R_CHELEM_ANNOUNCED])
    first_leader = int(log[S.L_LEADERS])
    for j in range(players):
        seat = (first_leader + j) % players
        size = int(log[S.L_POIGNEE + seat])
        if size:
            trace["poignees"].append(
                {"seat": seat, "size": Poignee(size).label, "cards": _cards(masks, S.M_SHOWN + 2 * seat)}
            )
    for t in range(hand_size):
        plays = log[S.L_PLAYS + t * MAX_SEATS : S.L_PLAYS + t * MAX_SEATS + players]
        trace["tricks"].append(
            {
                "leader": int(log[S.L_LEADERS + t]),
                "cards": [format_cards([int(c)])[0] for c in plays],
                "winner": int(log[S.L_WINNERS + t]),
            }
        )
    trace["attack_points"] = int(rec[S.R_ATTACK_HALF]) / 2
    trace["attack_bouts"] = int(rec[S.R_ATTACK_BOUTS])
    trace["made"] = bool(rec[S.R_MADE])
    trace["margin"] = int(rec[S.R_MARGIN])
    trace["petit_au_bout"] = _side(int(rec[S.R_PETIT_AU_BOUT]))
    trace["chelem"] = _side(int(rec[S.R_CHELEM]))
    trace["scores"] = [int(rec[S.R_SCORE + seat]) for seat in range(players)]
    return trace


def traced_block(
    first_deal: int, deals: int, key: np.ndarray, cfg: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play deals first_deal … first_deal + deals - 1 keeping everything a trace needs.

    Returns the records (int32[deals, N_REC]), the decision logs (int64[deals, N_LOG],
    slots ``kernels.state.L_*``) and the card sets (uint64[deals, N_MASKS], columns
    ``kernels.state.M_*``: hands as dealt, chien, écart, poignées shown).
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
            trace = _deal_dict(start + i, out[i], logs[i], masks[i], config.players, hand_size)
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
    from tarotsim.run.seeding import run_key

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
    from tarotsim.run.files import write_atomic

    def write(tmp: Path) -> int:
        with open(tmp, "w", encoding="utf-8", newline="\n") as stream:
            return write_trace(stream, deals, key, config)

    return write_atomic(path, write)
