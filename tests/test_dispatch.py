"""Every registered policy code reaches a branch of its own, and a code no branch handles raises.

Each decision has one dispatch (``players.kernels.machine`` names them): the card (``play.playout_card``
for the policies that search nothing; ``pimc`` is handed back to the game's ``decide`` by the
machine's trick loop, ``players.kernels.machine.play_tricks``), the bid (``bidding.choose_bid``; the ``montecarlo`` bidder is asked
by the game), the écart, the poignée and the chelem (their ``search`` policies are handed back
to the game's ``decide`` by the machine, ``players.kernels.machine.searches``:
``tests/test_search_decisions.py``). Each registered code must behave
differently from every other code of its decision on fixed positions (so no two codes share
a branch by accident), and an unregistered code must raise rather than fall through to a
default.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from tarotsim._jit import njit
from tarotsim.engine.cards import N_CARDS, N_SUIT_CARDS, to_mask
from tarotsim.engine.kernels.score import GARDE, PRISE
from tarotsim.engine.kernels.state import (
    C_HAND,
    I_CONTRACT,
    I_PLAYERS,
    I_TAKER,
    P_CHELEM_THRESHOLD,
    P_PLAY_ATTACK,
    P_PLAY_DEFENCE,
    PH_PLAY,
    Q_PHASE,
    Q_SEAT,
    DealState,
    new_state,
    seat_slot,
)
from tarotsim.engine.kernels.view import seat_view
from tarotsim.players.config import RunConfig
from tarotsim.players.kernels.machine import play_tricks
from tarotsim.players.kernels.policies.announce import announces_chelem
from tarotsim.players.kernels.policies.bidding import choose_bid
from tarotsim.players.kernels.policies.codes import (
    BID_MONTECARLO,
    CHELEM_SEARCH,
    ECART_SEARCH,
    PLAY_PIMC,
    POIGNEE_SEARCH,
)
from tarotsim.players.kernels.policies.ecart import choose_ecart
from tarotsim.players.policies import (
    BID_POLICIES,
    CHELEM_POLICIES,
    ECART_POLICIES,
    PLAY_POLICIES,
    POIGNEE_POLICIES,
)
from tests.test_no_peeking import card_of, copy_table, mid_deal_positions, poignee_of

CFG = RunConfig(policy="heuristic").to_array()


@njit
def bid_of(policy: int, tb: DealState, seat: int, cfg: np.ndarray) -> int:
    return choose_bid(policy, seat_view(tb, seat), cfg)


@njit
def ecart_of(policy: int, tb: DealState, seat: int, size: int) -> tuple[np.uint64, np.uint64]:
    return choose_ecart(policy, seat_view(tb, seat), size)


@njit
def chelem_of(policy: int, tb: DealState, seat: int, cfg: np.ndarray) -> bool:
    return announces_chelem(policy, seat_view(tb, seat), cfg)


def unknown(codes: dict[str, int]) -> int:
    """A code no policy of the table has."""
    return max(codes.values()) + 1


def hands(seed: int, n: int, size: int) -> list[DealState]:
    """``n`` tables whose seat 0 holds ``size`` random cards (and is the taker, at a Garde)."""
    rng = random.Random(seed)
    tables = []
    for _ in range(n):
        tb = new_state()
        tb.hands[0] = to_mask(sorted(rng.sample(range(N_CARDS), size)))
        tb.info[I_PLAYERS] = 4
        tb.info[I_TAKER] = 0
        tb.info[I_CONTRACT] = GARDE
        tb.attack[0] = 1
        tables.append(tb)
    return tables


def assert_distinct(choices: dict[str, list[object]]) -> None:
    for (a, seen_a), (b, seen_b) in itertools.combinations(choices.items(), 2):
        assert seen_a != seen_b, f"policies {a} and {b} chose alike on every position"


def test_every_card_play_code_has_its_own_branch() -> None:
    positions = [
        (copy_table(tb), seat, legal0, legal1) for tb, seat, legal0, legal1 in mid_deal_positions(150, seed=3)
    ]
    choices: dict[str, list[object]] = {}
    for name, code in PLAY_POLICIES.items():
        if code == PLAY_PIMC:
            continue  # searches: handed back by play_tricks (below)
        choices[name] = [
            int(card_of(code, copy_table(tb), seat, legal0, legal1, CFG))
            for tb, seat, legal0, legal1 in positions
        ]
    assert_distinct(choices)
    tb, seat, legal0, legal1 = positions[0]
    for code in (unknown(PLAY_POLICIES), -1, PLAY_PIMC):
        with pytest.raises(ValueError, match="card-play policy"):
            card_of(code, tb, seat, legal0, legal1, CFG)


def test_the_trick_loop_hands_a_searching_card_back() -> None:
    cfg = RunConfig(policy="heuristic").to_array()
    tb, seat, _legal0, _legal1 = next(mid_deal_positions(1, seed=4))
    cfg[seat_slot(seat, P_PLAY_ATTACK)] = PLAY_PIMC
    cfg[seat_slot(seat, P_PLAY_DEFENCE)] = PLAY_PIMC
    assert not play_tricks(tb, cfg, None, 0, 0)
    assert (tb.pos[Q_PHASE], tb.pos[Q_SEAT]) == (PH_PLAY, seat)
    cfg[seat_slot(seat, P_PLAY_ATTACK)] = unknown(PLAY_POLICIES)
    cfg[seat_slot(seat, P_PLAY_DEFENCE)] = unknown(PLAY_POLICIES)
    with pytest.raises(ValueError, match="card-play policy"):
        play_tricks(tb, cfg, None, 0, 0)


def test_every_bid_code_has_its_own_branch() -> None:
    cfg = CFG  # the learned bidder's model is empty: it passes; Chavey's count bids the strong hands
    tables = hands(5, 60, int(cfg[C_HAND]))
    choices = {
        name: [int(bid_of(code, tb, 0, cfg)) for tb in tables]
        for name, code in BID_POLICIES.items()
        if code != BID_MONTECARLO  # searches: asked by the game with its scratch
    }
    assert_distinct(choices)
    for code in (unknown(BID_POLICIES), BID_MONTECARLO):
        with pytest.raises(ValueError, match="bid policy"):
            bid_of(code, tables[0], 0, cfg)


def test_every_ecart_code_has_its_own_branch() -> None:
    tables = hands(6, 40, int(CFG[C_HAND]) + 6)
    choices = {
        name: [tuple(int(w) for w in ecart_of(code, tb, 0, 6)) for tb in tables]
        for name, code in ECART_POLICIES.items()
        if code != ECART_SEARCH  # searches: asked by the game with its scratch
    }
    assert_distinct(choices)
    for code in (unknown(ECART_POLICIES), ECART_SEARCH):
        with pytest.raises(ValueError, match="ecart policy"):
            ecart_of(code, tables[0], 0, 6)


def test_every_poignee_code_has_its_own_branch() -> None:
    rng = random.Random(7)
    hand_size = int(CFG[C_HAND])
    trumps = list(range(N_SUIT_CARDS, N_CARDS))  # trumps 1-21 and the Excuse
    suits = list(range(N_SUIT_CARDS))
    tables = []
    for _ in range(100):  # hands of 10 to 13 trumps: each may show a poignée
        n = rng.randrange(10, 14)
        cards = rng.sample(trumps, n) + rng.sample(suits, hand_size - n)
        for seat, contract in ((0, PRISE), (1, GARDE)):  # the taker; a defender against a Garde
            tb = hands(0, 1, 0)[0]
            tb.hands[seat] = to_mask(sorted(cards))
            tb.info[I_CONTRACT] = contract
            tables.append((tb, seat))
    choices = {
        name: [int(poignee_of(code, tb, seat, CFG)) for tb, seat in tables]
        for name, code in POIGNEE_POLICIES.items()
        if code != POIGNEE_SEARCH  # searches: asked by the game with its scratch
    }
    assert_distinct(choices)
    for code in (unknown(POIGNEE_POLICIES), POIGNEE_SEARCH):
        with pytest.raises(ValueError, match="poignee policy"):
            poignee_of(code, tables[0][0], 0, CFG)


def test_every_chelem_code_has_its_own_branch() -> None:
    cfg = RunConfig(policy="heuristic").to_array()
    cfg[seat_slot(0, P_CHELEM_THRESHOLD)] = 40
    tables = hands(8, 40, int(cfg[C_HAND]))
    choices = {
        name: [bool(chelem_of(code, tb, 0, cfg)) for tb in tables]
        for name, code in CHELEM_POLICIES.items()
        if code != CHELEM_SEARCH  # searches: asked by the game with its scratch
    }
    assert_distinct(choices)
    for code in (unknown(CHELEM_POLICIES), CHELEM_SEARCH):
        with pytest.raises(ValueError, match="chelem policy"):
            chelem_of(code, tables[0], 0, cfg)
