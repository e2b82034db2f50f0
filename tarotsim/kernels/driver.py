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
policy searches nothing and hands a card whose policy searches (``pimc``, in the game or in
the bidder's ``pimc`` playouts), or a poignée
whose policy searches (``poignee=search``), back to its caller, the game
(``game.play_deal``), which asks the search player with its scratch: so this module and the
search players that play deals out with it need no search player. ``take_contract`` hands
back the same way the taker's call, écart and chelem announcement when its policy for them
searches (``kernels.search.decisions``). A search player's playouts play every decision by
a policy that searches nothing (``plain_decisions``).
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.kernels.constants import INFER_NONE
from tarotsim.kernels.policies.announce import CHELEM_CODES, POIGNEE_CODES, announces_chelem, poignee_choice
from tarotsim.kernels.policies.bidding import BID_CODES
from tarotsim.kernels.policies.call import CALL_CODES, choose_call
from tarotsim.kernels.policies.codes import (
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

T_CALL = 0
"""A stage ``take_contract`` hands back when the taker's policy searches: the king call
(five players), before ``steps.call_partner``."""
T_ECART = 1
"""The stage of the écart (Prise, Garde): the chien in the taker's hand, before ``steps.lay_ecart``."""
T_CHELEM = 2
"""The stage of the chelem announcement, before ``steps.start_play``."""


@njit(_nrt=False)
def take_contract(tb: DealState, cfg: np.ndarray, taker: int, contract: int, after: int = -1) -> int:
    """``taker`` takes ``contract`` on the table ``steps.reset_table`` made ready: its call
    (five players), the chien and its écart (Prise, Garde), the start of the count, its
    chelem announcement, and the first trick, each choice by its policies.

    Returns -1 once the first trick has begun, or the stage (``T_CALL``, ``T_ECART``,
    ``T_CHELEM``) whose decision the taker's policy makes by search (``search``): the caller
    makes it with the search scratch, applies it (``steps.call_partner``, ``steps.lay_ecart``,
    ``steps.start_play``) and, but after ``T_CHELEM``, calls again with ``after`` that stage
    (``kernels.search.decisions.decide_searched``). ``after`` (-1: from the start) is the last
    stage already done."""
    players = cfg[C_PLAYERS]
    if after < T_CALL:
        name_taker(tb, taker, contract)
        if players == FIVE_PLAYERS:
            if cfg[seat_slot(taker, P_CALL_POLICY)] == CALL_SEARCH:
                return T_CALL
            call_partner(tb, players, taker, choose_call(seat_view(tb, taker)))
    if after < T_ECART:
        if contract <= GARDE:
            take_chien(tb, taker)
            policy = cfg[seat_slot(taker, P_ECART_POLICY)]
            if policy == ECART_SEARCH:
                return T_ECART
            ecart0, ecart1 = choose_ecart(policy, seat_view(tb, taker), cfg[C_CHIEN])
            lay_ecart(tb, taker, ecart0, ecart1)
        else:
            set_chien_aside(tb, contract)
    policy = cfg[seat_slot(taker, P_CHELEM_POLICY)]
    if policy == CHELEM_SEARCH:
        return T_CHELEM
    start_play(tb, players, taker, announces_chelem(policy, seat_view(tb, taker), cfg))
    return -1


PLAIN = (
    (P_CALL_POLICY, CALL_SEARCH, CALL_LONGEST),
    (P_ECART_POLICY, ECART_SEARCH, ECART_EXPERT),
    (P_POIGNEE_POLICY, POIGNEE_SEARCH, POIGNEE_ALWAYS),
    (P_CHELEM_POLICY, CHELEM_SEARCH, CHELEM_NEVER),
)
"""Each searching decision's slot, its searching code and the policy a playout plays it by
instead: the decision's default (``policies.DEFAULTS``)."""


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
def play_plain_card(tb: DealState, cfg: np.ndarray, seat: int) -> None:
    """``play_card`` as a function of its own, called rather than inlined: the game's card of a
    seat whose poignée a search chose and whose card policy searches nothing."""
    play_card(tb, cfg, seat)


@njit(_nrt=False)
def play_to_end(tb: DealState, cfg: np.ndarray, users: Users | None = None) -> int:
    """Play the deal on from where it stands to its last trick counted, each seat by its
    policies in ``cfg``, a seat played by a user's function (``kernels.user``) by its
    function in ``users``; the seats yet to play to the first trick show their poignées
    before their card.

    Returns -1 once the last trick is counted (``steps.settle_deal`` scores it), or the seat
    whose card a searching policy (``pimc``) must choose, its poignée shown, or whose poignée
    a searching policy must choose (``poignee=search``, at the first trick: not shown yet):
    the caller shows that poignée (``steps.put_poignee``), plays the card (``steps.put_card``)
    and calls again. Without ``users`` (the search players' playouts, a run without user
    functions) it compiles no user call, and hands a user function's seat back the same way.
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
            if cfg[seat_slot(seat, P_POIGNEE_POLICY)] == POIGNEE_SEARCH:
                return seat
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
