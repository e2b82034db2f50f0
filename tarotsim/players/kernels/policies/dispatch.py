"""Which policy codes a run may use, and what a playout plays a searching decision by.

Each decision's dispatch (``players.kernels.machine.choose``, ``players.kernels.policies.play.playout_card`` …) raises on
a code it does not handle; a run checks its configurations first (``check_policies``), before
its parallel loop, where an exception raised in a deal would be lost. A search player's
playouts search nothing: each searching call, écart, poignée and chelem policy is played by its
decision's default there (``PLAIN``, ``plain_decisions``)."""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.kernels.constants import INFER_NONE
from tarotsim.engine.kernels.state import (
    C_PLAYERS,
    MAX_SEATS,
    P_BID_POLICY,
    P_BID_ROLLOUT,
    P_CALL_POLICY,
    P_CHELEM_POLICY,
    P_ECART_POLICY,
    P_INFER,
    P_PLAY_ATTACK,
    P_PLAY_DEFENCE,
    P_POIGNEE_POLICY,
    P_ROLLOUT,
    seat_slot,
)
from tarotsim.players.kernels.policies.announce import CHELEM_CODES, POIGNEE_CODES
from tarotsim.players.kernels.policies.bidding import BID_CODES
from tarotsim.players.kernels.policies.call import CALL_CODES
from tarotsim.players.kernels.policies.codes import (
    BID_MONTECARLO,
    CALL_LONGEST,
    CALL_SEARCH,
    CHELEM_NEVER,
    CHELEM_SEARCH,
    ECART_EXPERT,
    ECART_SEARCH,
    PLAY_PIMC,
    POIGNEE_ALWAYS,
    POIGNEE_SEARCH,
)
from tarotsim.players.kernels.policies.ecart import ECART_CODES
from tarotsim.players.kernels.policies.play import PLAYOUT_CODES
from tarotsim.players.kernels.user import BID_USER, PLAY_USER

PLAIN = (
    (P_CALL_POLICY, CALL_SEARCH, CALL_LONGEST),
    (P_ECART_POLICY, ECART_SEARCH, ECART_EXPERT),
    (P_POIGNEE_POLICY, POIGNEE_SEARCH, POIGNEE_ALWAYS),
    (P_CHELEM_POLICY, CHELEM_SEARCH, CHELEM_NEVER),
)
"""Each searching decision's slot, its searching code and the policy a playout plays it by
instead: the decision's default (``players.policies.DEFAULTS``)."""


@njit(_nrt=False)
def plain_decisions(out: np.ndarray) -> None:
    """In the playouts' configuration ``out`` (int64[N_CFG]), every seat's searching call,
    écart, poignée and chelem policy replaced by its decision's default (``PLAIN``): a
    playout searches nothing."""
    for seat in range(MAX_SEATS):
        for slot, searching, plain in PLAIN:
            if out[seat_slot(seat, slot)] == searching:
                out[seat_slot(seat, slot)] = plain


@njit(inline="always")
def _handled(codes: tuple[int, ...], code: int) -> bool:
    for known in codes:
        if code == known:
            return True
    return False


@njit
def check_policies(cfgs: np.ndarray, searching: bool, users: int = 0) -> None:
    """Raise ``ValueError`` when a seat of a configuration of ``cfgs`` (int64[k, N_CFG]) has a
    policy code that no dispatch handles, a searching policy (``pimc``, the ``montecarlo``
    bidder, a ``search`` call, écart, poignée or chelem) when ``searching`` is False, or a user function's code (``PLAY_USER + j``,
    ``BID_USER + j``) of a slot ``j`` at or above ``users``, the run's user slots. Each dispatch raises on such a
    code too; a run checks before its parallel loop, where an exception raised in a deal
    would be lost."""
    for r in range(cfgs.shape[0]):
        cfg = cfgs[r]
        for seat in range(cfg[C_PLAYERS]):
            for slot in (P_PLAY_ATTACK, P_PLAY_DEFENCE):
                code = cfg[seat_slot(seat, slot)]
                if code == PLAY_PIMC:
                    if not searching:
                        raise ValueError("pimc card play needs the search scratch")
                    if not _handled(PLAYOUT_CODES, cfg[seat_slot(seat, P_ROLLOUT)]):
                        raise ValueError("unknown or searching rollout policy code")
                elif code >= PLAY_USER:
                    if code - PLAY_USER >= users:
                        raise ValueError("a user card-play code without its function")
                elif not _handled(PLAYOUT_CODES, code):
                    raise ValueError("unknown card-play policy code")
            code = cfg[seat_slot(seat, P_BID_POLICY)]
            if code >= BID_USER:
                if code - BID_USER >= users:
                    raise ValueError("a user bid code without its function")
            elif code == BID_MONTECARLO:
                if not searching:
                    raise ValueError("the montecarlo bidder needs the search scratch")
                rollout = cfg[seat_slot(seat, P_BID_ROLLOUT)]
                if rollout == PLAY_PIMC:  # its playouts' pimc plays its own playouts by the seat's rollout
                    if not _handled(PLAYOUT_CODES, cfg[seat_slot(seat, P_ROLLOUT)]):
                        raise ValueError("unknown or searching rollout policy code")
                    if cfg[seat_slot(seat, P_INFER)] != INFER_NONE:
                        raise ValueError("the montecarlo bidder's pimc playouts cannot infer")
                elif not _handled(PLAYOUT_CODES, rollout):
                    raise ValueError("unknown or searching rollout policy code")
            elif not _handled(BID_CODES, code):
                raise ValueError("unknown bid policy code")
            for slot, searching_code, _ in PLAIN:
                if cfg[seat_slot(seat, slot)] == searching_code and not searching:
                    raise ValueError("a searching call, ecart, poignee or chelem needs the search scratch")
            code = cfg[seat_slot(seat, P_CALL_POLICY)]
            if code != CALL_SEARCH and not _handled(CALL_CODES, code):
                raise ValueError("unknown call policy code")
            code = cfg[seat_slot(seat, P_ECART_POLICY)]
            if code != ECART_SEARCH and not _handled(ECART_CODES, code):
                raise ValueError("unknown ecart policy code")
            code = cfg[seat_slot(seat, P_POIGNEE_POLICY)]
            if code != POIGNEE_SEARCH and not _handled(POIGNEE_CODES, code):
                raise ValueError("unknown poignee policy code")
            code = cfg[seat_slot(seat, P_CHELEM_POLICY)]
            if code != CHELEM_SEARCH and not _handled(CHELEM_CODES, code):
                raise ValueError("unknown chelem policy code")
