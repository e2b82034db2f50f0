"""The compiled trick-by-trick count against the reference count, on random and hand-made deals."""

import random

import numpy as np
import pytest

from tarotsim.engine.cards import parse_cards, to_mask
from tarotsim.engine.kernels.count import close_trick, start_count
from tarotsim.engine.kernels.rules import bouts, half_points, trick_winner
from tarotsim.engine.kernels.state import N_COUNT, S_ATTACK_TRICKS, S_EXCHANGE, S_PETIT_SIDE
from tests import reference as ref

SIDES = {-1: None, 0: "attack", 1: "defence"}
ALL = list(ref.ALL_CARDS)


def kernel_count(tricks, first_leader, attack_seats, start_cards):
    """Count with the kernels; tricks are lists of card names in play order, leaders follow the winners."""
    players = len(tricks[0])
    attack = np.zeros(5, dtype=np.int64)
    for seat in attack_seats:
        attack[seat] = 1
    state = np.zeros(N_COUNT, dtype=np.int64)
    pile = np.zeros(2, dtype=np.uint64)
    w0, w1 = to_mask(parse_cards(start_cards))
    start_count(state, pile, w0, w1)
    leader = first_leader
    played = []
    for t, cards in enumerate(tricks):
        ids = np.zeros(5, dtype=np.int64)
        ids[:players] = parse_cards(cards)
        played.append((leader, cards))
        winner = (leader + trick_winner(ids, players)) % players
        leader = close_trick(ids, players, leader, winner, attack, t, len(tricks), state, pile)
    return {
        "attack_half_points": int(half_points(pile[0], pile[1]) + state[S_EXCHANGE]),
        "attack_bouts": int(bouts(pile[1])),
        "attack_tricks": int(state[S_ATTACK_TRICKS]),
        "petit_au_bout": SIDES[int(state[S_PETIT_SIDE])],
    }, played


def reference_count(played, attack_seats, chien, contract, ecart):
    chien_goes_to = {"garde_sans": "attack", "garde_contre": "defence"}.get(contract)
    return ref.count_deal(played, attack_seats, chien, chien_goes_to, ecart if chien_goes_to is None else [])


def assert_same_count(tricks, first_leader, taker, chien, contract, ecart=()):
    start = (
        list(ecart) if contract in ("prise", "garde") else (list(chien) if contract == "garde_sans" else [])
    )
    got, played = kernel_count(tricks, first_leader, [taker], start)
    want = reference_count(played, [taker], chien, contract, list(ecart))
    assert got == {
        "attack_half_points": want.attack_half_points,
        "attack_bouts": want.attack_bouts,
        "attack_tricks": want.attack_tricks,
        "petit_au_bout": want.petit_au_bout,
    }, (tricks, first_leader, taker, contract)
    return got


def deal_tricks(rng, hands, first_leader):
    """Play hands (lists of 18 names) out in random order, each seat one card a trick."""
    hands = [h[:] for h in hands]
    for h in hands:
        rng.shuffle(h)
    return [[hands[(first_leader + j) % 4][t] for j in range(4)] for t in range(18)]


def move_excuse_to_last_trick(tricks):
    for t, cards in enumerate(tricks):
        if "EX" in cards and t != 17:
            j = cards.index("EX")
            tricks[t][j], tricks[17][j] = tricks[17][j], tricks[t][j]


@pytest.mark.parametrize("contract", ["prise", "garde", "garde_sans", "garde_contre"])
def test_random_counts_agree_with_reference(contract):
    rng = random.Random(contract)
    for _ in range(400):
        pack = ALL[:]
        rng.shuffle(pack)
        chien = pack[72:]  # with prise or garde these six stand for the écart
        hands = [pack[18 * s : 18 * s + 18] for s in range(4)]
        tricks = deal_tricks(rng, hands, rng.randrange(4))
        if rng.random() < 0.4:
            move_excuse_to_last_trick(tricks)
        ecart = chien if contract in ("prise", "garde") else []
        assert_same_count(tricks, rng.randrange(4), rng.randrange(4), chien, contract, ecart)


def dominant_deal(rng):
    """Tricks where seat 0 holds trumps 5-21 and the Excuse, wins tricks 1-17 and plays the Excuse last."""
    strong = [f"T{t}" for t in range(5, 22)]
    rng.shuffle(strong)
    rest = [c for c in ALL if c not in strong and c != "EX"]
    rng.shuffle(rest)
    chien = rest[:6]
    weak = [rest[6 + 18 * k : 6 + 18 * k + 18] for k in range(3)]
    tricks = [[(strong + ["EX"])[t]] + [weak[k][t] for k in range(3)] for t in range(18)]
    return tricks, chien


@pytest.mark.parametrize("strong_side_attacks", [True, False])
def test_chelem_exception_the_excuse_wins_the_last_trick(strong_side_attacks):
    rng = random.Random(7)
    taker = 0 if strong_side_attacks else 2
    for contract in ("garde_sans", "garde_contre"):
        for _ in range(30):
            tricks, chien = dominant_deal(rng)
            got = assert_same_count(tricks, 0, taker, chien, contract)
            assert got["attack_tricks"] == (18 if strong_side_attacks else 0)
            if strong_side_attacks and contract == "garde_contre":
                has_21 = any("T21" in cards for cards in tricks)
                assert got["attack_bouts"] == 1 + has_21 + ("T1" in [c for cards in tricks for c in cards])


def test_excuse_on_the_last_trick_changes_sides():
    # the taker (seat 0) plays the Excuse last after losing a trick: it goes to the defence
    got, _ = kernel_count([["2S", "KS", "3S", "4S"], ["5H", "6H", "7H", "EX"]], 1, [0], [])
    assert (got["attack_half_points"], got["attack_bouts"]) == (0, 0)
    # a defender plays it last while the taker wins the trick: it goes to the attack, whole
    got, _ = kernel_count([["KS", "2S", "3S", "4S"], ["KH", "EX", "6H", "7H"]], 0, [0], [])
    assert (got["attack_half_points"], got["attack_bouts"]) == (12 + 9 + 1 + 1 + 9, 1)
    # a defender plays it last and the defence wins the trick: it still changes sides
    got, _ = kernel_count([["KS", "2S", "3S", "4S"], ["2H", "EX", "KH", "7H"]], 0, [0], [])
    assert (got["attack_half_points"], got["attack_bouts"]) == (12 + 9, 1)


def test_excuse_exchange_half_point():
    # the defence (seat 1) plays the Excuse to a trick the taker (seat 0) wins: the taker
    # gets the trick's other cards and a half point; the Excuse stays with the defence
    got, _ = kernel_count([["KS", "EX", "2S", "3S"], ["T20", "4H", "5H", "6H"]], 0, [0], [])
    assert (got["attack_half_points"], got["attack_bouts"]) == (9 + 1 + 1 + 1 + 4, 0)
    # the taker plays it to a trick the defence wins: the taker keeps it and gives a half point
    got, _ = kernel_count([["EX", "KS", "2S", "3S"], ["4H", "5H", "T2", "6H"]], 0, [0], [])
    assert (got["attack_half_points"], got["attack_bouts"]) == (9 - 1, 1)


def test_petit_au_bout_both_directions():
    # the attack takes the last trick holding the Petit
    got, _ = kernel_count([["9S", "2S", "3S", "4S"], ["T1", "5H", "6H", "7H"]], 0, [0], [])
    assert got["petit_au_bout"] == "attack"
    # the defence overtrumps the Petit on the last trick
    got, _ = kernel_count([["9S", "2S", "3S", "4S"], ["T1", "T2", "6H", "7H"]], 0, [0], [])
    assert got["petit_au_bout"] == "defence"
    # chelem exception: the Excuse wins the last trick, the next-to-last trick is looked at
    got, _ = kernel_count([["T1", "2S", "3S", "4S"], ["EX", "5H", "6H", "7H"]], 0, [0], [])
    assert (got["petit_au_bout"], got["attack_tricks"]) == ("attack", 2)
    got, _ = kernel_count([["T1", "T2", "3S", "4S"], ["5H", "EX", "6H", "7H"]], 0, [0], [])
    assert (got["petit_au_bout"], got["attack_tricks"]) == ("defence", 0)
    # no Petit in the last trick: no petit au bout
    got, _ = kernel_count([["T1", "2S", "3S", "4S"], ["T5", "5H", "6H", "7H"]], 0, [0], [])
    assert got["petit_au_bout"] is None
