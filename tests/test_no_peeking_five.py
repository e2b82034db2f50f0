"""Five players: the heuristic decides from what the seat may know, the secret partner included.

The 4-player harness of ``tests/test_no_peeking.py`` (its driver plays the king call, the
first-lead rule and the partner's reveal too) re-deals the cards the seat to move cannot
see. On top of it, before the called card is played, the called card itself is moved to
another seat that could hold it, or into the chien when nobody saw the chien, so that the
partner changes (``tb.attack`` follows it; ``info[I_PARTNER]`` is public, -1 until the card
is played). Only the holder of the called card knows it is the partner (docs/rules.md §3);
every other seat, the taker first, must
decide the same whoever the partner is. Toy policies that read the partner from the table
show that the harness catches such a peek.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from tarotsim._jit import njit
from tarotsim.engine.kernels.state import I_PLAYERS, I_TAKER, P_POIGNEE_POLICY, DealState, seat_slot
from tarotsim.interfaces.testing import partner_changes
from tarotsim.players.config import RunConfig
from tarotsim.players.kernels.policies.codes import PLAY_HEURISTIC
from tests.test_no_peeking import (
    _lowest_or_highest,
    card_of,
    copy_table,
    count_changed,
    mid_deal_positions,
    new_deal,
    peek_next_hand,
    play_to,
    poignee_of,
    redistribute,
    true_partner,
)

PLAYERS = 5
CFG = RunConfig(players=PLAYERS, policy="heuristic").to_array()


def heuristic(seat: int, legal0: np.uint64, legal1: np.uint64, tb: DealState) -> int:
    return int(card_of(PLAY_HEURISTIC, tb, seat, legal0, legal1, CFG))


# ---------------------------------------------------------------------------------------------
# moving the called card: another partner
# ---------------------------------------------------------------------------------------------


def count_changed_partner(decide, n_positions: int, seed: int, *, redeals: int = 2) -> tuple[int, int, set]:
    """(positions where another partner changed the decision, positions tried, kinds seen).

    Only positions where the partner can change for the seat to move are tried (the called
    card not yet played, nor in the seat's hand, nor public in the shown chien). A kind is
    (the seat is the taker, no partner before, no partner after).
    """
    rng = random.Random(seed + 1)
    changed = moved = 0
    kinds: set[tuple[bool, bool, bool]] = set()
    for tb, seat, legal0, legal1 in mid_deal_positions(10**9, seed, players=PLAYERS):
        if moved == n_positions:
            break
        first = None
        rng_state = tb.rng.copy()
        for other in partner_changes(tb, seat, rng, redeals):
            if first is None:
                first = decide(seat, legal0, legal1, copy_table(tb))
                moved += 1
            kinds.add(
                (
                    bool(seat == tb.info[I_TAKER]),
                    bool(true_partner(tb) < 0),
                    bool(true_partner(other) < 0),
                )
            )
            other.rng[:] = rng_state
            if decide(seat, legal0, legal1, other) != first:
                changed += 1
                break
    return changed, moved, kinds


# ---------------------------------------------------------------------------------------------
# toy policies that peek at the partner, to show the harness can fail
# ---------------------------------------------------------------------------------------------


@njit
def peek_partner_seat(seat: int, legal0: np.uint64, legal1: np.uint64, tb: DealState) -> int:
    """Plays low when the (secret) partner's seat number is even, else high."""
    partner = -1
    for other in range(tb.info[I_PLAYERS]):
        if other != tb.info[I_TAKER] and tb.attack[other] == 1:
            partner = other
    return _lowest_or_highest(legal0, legal1, partner % 2 == 0)


@njit
def peek_attack_flag(seat: int, legal0: np.uint64, legal1: np.uint64, tb: DealState) -> int:
    """Plays low when the next seat plays on its side by ``tb.attack`` (secret before the reveal)."""
    nxt = (seat + 1) % tb.info[I_PLAYERS]
    return _lowest_or_highest(legal0, legal1, tb.attack[nxt] == tb.attack[seat])


# ---------------------------------------------------------------------------------------------
# the tests
# ---------------------------------------------------------------------------------------------


def test_heuristic_card_does_not_peek_five() -> None:
    changed, tried = count_changed(heuristic, 500, seed=2025, players=PLAYERS)
    assert tried == 500
    assert changed == 0


def test_heuristic_card_does_not_peek_defender_view_of_ecart_five() -> None:
    changed, tried = count_changed(heuristic, 80, seed=78, defender_view=True, players=PLAYERS)
    assert tried == 80
    assert changed == 0


def test_heuristic_card_does_not_peek_at_the_partner() -> None:
    changed, moved, kinds = count_changed_partner(heuristic, 600, seed=31)
    assert moved == 600
    # the taker and the defenders both decided; the partner moved between seats, from and into the chien
    assert {observer for observer, _, _ in kinds} == {True, False}
    assert (False, True, False) in kinds or (True, True, False) in kinds
    assert (False, False, True) in kinds or (True, False, True) in kinds
    assert changed == 0


@pytest.mark.parametrize("peek", [peek_partner_seat, peek_attack_flag])
def test_harness_catches_a_policy_peeking_at_the_partner(peek) -> None:
    changed, moved, _kinds = count_changed_partner(peek, 100, seed=8)
    assert moved == 100
    assert changed > moved // 4


def test_harness_catches_a_policy_peeking_at_a_hand_five() -> None:
    changed, tried = count_changed(peek_next_hand, 100, seed=5, players=PLAYERS)
    assert changed > tried // 10


@pytest.mark.parametrize("policy", ["always", "smart"])
def test_poignee_choice_does_not_peek_five(policy: str) -> None:
    rng = random.Random(12)
    cfg = RunConfig(players=PLAYERS, policy="heuristic", poignee_policy=policy).to_array()
    checked = moved = 0
    for _ in range(100):
        tb = new_deal(rng, cfg)

        def check(tb_now: DealState, seat: int) -> None:
            nonlocal checked, moved
            first = poignee_of(cfg[seat_slot(seat, P_POIGNEE_POLICY)], copy_table(tb_now), seat, cfg)
            for _ in range(2):
                other, _n = redistribute(tb_now, seat, rng)
                assert poignee_of(cfg[seat_slot(seat, P_POIGNEE_POLICY)], other, seat, cfg) == first
            for other in partner_changes(tb_now, seat, rng, 1):
                moved += 1
                assert poignee_of(cfg[seat_slot(seat, P_POIGNEE_POLICY)], other, seat, cfg) == first
            checked += 1

        play_to(tb, cfg, 1, 0, (PLAY_HEURISTIC, PLAY_HEURISTIC), at_poignee=check)
    assert checked == 100 * PLAYERS
    assert moved > 100
