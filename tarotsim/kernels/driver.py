"""The driver of a deal after the auction: it asks each seat's policy, then applies the
choice with a rule step (``kernels.steps``), so the steps hold no policy.

Every decision goes the same way: the rules say which decision is needed, by which seat and
with which legal choices; the seat's policy code (its block of ``cfg``, ``state.P_*``)
picks the kernel (one dispatch per decision: ``policies.call.choose_call``,
``policies.ecart.choose_ecart``, ``policies.announce.announces_chelem`` and
``poignee_choice``, ``policies.play.playout_card``), which receives the seat's
``SeatView`` (``kernels.view``) and the legal choices; a code no branch handles raises.

``play_to_end`` plays a deal on from wherever it stands: the game's card play, the
``pimc`` player's playouts and the ``montecarlo`` bidder's. It plays every card whose
policy searches nothing and hands a card whose policy searches (``pimc``) back to its
caller, the game (``game.play_deal``), which asks the search player with its scratch: so
this module and the search players that play deals out with it need no search player.
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.kernels.policies.announce import CHELEM_CODES, POIGNEE_CODES, announces_chelem, poignee_choice
from tarotsim.kernels.policies.bidding import BID_CODES
from tarotsim.kernels.policies.call import choose_call
from tarotsim.kernels.policies.codes import BID_MONTECARLO, PLAY_PIMC
from tarotsim.kernels.policies.ecart import ECART_CODES, choose_ecart
from tarotsim.kernels.policies.play import PLAYOUT_CODES, playout_card
from tarotsim.kernels.score import GARDE
from tarotsim.kernels.state import (
    C_CHIEN,
    C_HAND,
    C_PLAYERS,
    FIVE_PLAYERS,
    I_LEADER,
    I_TRICK,
    I_TRICK_LEN,
    P_BID_POLICY,
    P_BID_ROLLOUT,
    P_CHELEM_POLICY,
    P_ECART_POLICY,
    P_PLAY_ATTACK,
    P_PLAY_DEFENCE,
    P_POIGNEE_POLICY,
    P_ROLLOUT,
    DealState,
    seat_slot,
)
from tarotsim.kernels.steps import (
    call_partner,
    end_trick,
    lay_ecart,
    legal_now,
    name_taker,
    put_card,
    put_poignee,
    set_chien_aside,
    start_play,
    take_chien,
)
from tarotsim.kernels.user import BID_USER, PLAY_USER, Users, user_card
from tarotsim.kernels.view import seat_view


@njit(_nrt=False)
def take_contract(tb: DealState, cfg: np.ndarray, taker: int, contract: int) -> None:
    """``taker`` takes ``contract`` on the table ``steps.reset_table`` made ready: its call
    (five players), the chien and its écart (Prise, Garde), the start of the count, its
    chelem announcement, and the first trick, each choice by its policies."""
    players = cfg[C_PLAYERS]
    name_taker(tb, taker, contract)
    if players == FIVE_PLAYERS:
        call_partner(tb, players, taker, choose_call(seat_view(tb, taker)))
    if contract <= GARDE:
        take_chien(tb, taker)
        ecart0, ecart1 = choose_ecart(
            cfg[seat_slot(taker, P_ECART_POLICY)], seat_view(tb, taker), cfg[C_CHIEN]
        )
        lay_ecart(tb, taker, ecart0, ecart1)
    else:
        set_chien_aside(tb, contract)
    announced = announces_chelem(cfg[seat_slot(taker, P_CHELEM_POLICY)], seat_view(tb, taker), cfg)
    start_play(tb, players, taker, announced)


@njit(inline="always")
def show_poignee(tb: DealState, cfg: np.ndarray, seat: int) -> int:
    """Before its first card, ``seat`` shows the poignée its policy chooses; returns its size (0 none)."""
    size = poignee_choice(cfg[seat_slot(seat, P_POIGNEE_POLICY)], seat_view(tb, seat), cfg)
    put_poignee(tb, seat, size, cfg[C_PLAYERS])
    return size


@njit(inline="always")
def card_policy(tb: DealState, cfg: np.ndarray, seat: int) -> int:
    """The code of ``seat``'s card-play policy for the side it plays (``P_PLAY_*``)."""
    return cfg[seat_slot(seat, P_PLAY_ATTACK if tb.attack[seat] else P_PLAY_DEFENCE)]


@njit(inline="always")
def play_card(tb: DealState, cfg: np.ndarray, seat: int) -> int:
    """One card by a policy that searches nothing: ``seat``'s legal cards, its policy's
    choice, played; returns the card."""
    legal0, legal1 = legal_now(tb, seat)
    card = playout_card(card_policy(tb, cfg, seat), seat_view(tb, seat), legal0, legal1, cfg)
    put_card(tb, seat, card)
    return card


@njit(_nrt=False)
def play_to_end(tb: DealState, cfg: np.ndarray, users: Users | None = None) -> int:
    """Play the deal on from where it stands to its last trick counted, each seat by its
    policies in ``cfg``, a seat played by a user's function (``kernels.user``) by its
    function in ``users``; the seats yet to play to the first trick show their poignées
    before their card.

    Returns -1 once the last trick is counted (``steps.settle_deal`` scores it), or the seat
    whose card a searching policy (``pimc``) must choose, its poignée shown: the caller plays
    that card (``steps.put_card``) and calls again. Without ``users`` (the search players'
    playouts, a run without user functions) it compiles no user call, and hands a user
    function's seat back the same way.
    """
    info = tb.info
    players = cfg[C_PLAYERS]
    hand_size = cfg[C_HAND]
    while True:
        if info[I_TRICK_LEN] == players:
            end_trick(tb, cfg)
            if info[I_TRICK] == hand_size:
                return -1
            continue
        seat = info[I_LEADER] + info[I_TRICK_LEN]
        seat = seat - players if seat >= players else seat
        if info[I_TRICK] == 0:
            show_poignee(tb, cfg, seat)
        code = card_policy(tb, cfg, seat)
        if code == PLAY_PIMC:
            return seat
        if code >= PLAY_USER:
            if users is None:
                return seat
            else:
                legal0, legal1 = legal_now(tb, seat)
                put_card(tb, seat, user_card(users, code, seat_view(tb, seat), legal0, legal1))
                continue
        play_card(tb, cfg, seat)


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
    bidder) when ``searching`` is False, or a user function's code (``PLAY_USER + j``,
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
                if not _handled(PLAYOUT_CODES, cfg[seat_slot(seat, P_BID_ROLLOUT)]):
                    raise ValueError("unknown or searching rollout policy code")
            elif not _handled(BID_CODES, code):
                raise ValueError("unknown bid policy code")
            if not _handled(ECART_CODES, cfg[seat_slot(seat, P_ECART_POLICY)]):
                raise ValueError("unknown ecart policy code")
            if not _handled(POIGNEE_CODES, cfg[seat_slot(seat, P_POIGNEE_POLICY)]):
                raise ValueError("unknown poignee policy code")
            if not _handled(CHELEM_CODES, cfg[seat_slot(seat, P_CHELEM_POLICY)]):
                raise ValueError("unknown chelem policy code")
