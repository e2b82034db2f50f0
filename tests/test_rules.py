"""The compiled rules of play (legality, the 5-player first lead, the voids revealed, the
trick order and winner) against the plain-Python reference."""

import random

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tarotsim.engine.cards import (
    EXCUSE,
    N_CARDS,
    N_SUIT_CARDS,
    TRUMP_SUIT,
    from_mask,
    parse_card,
    parse_cards,
    to_mask,
)
from tarotsim.engine.kernels import rules as K
from tarotsim.engine.kernels.state import N_INFO
from tarotsim.engine.kernels.view import SeatView
from tarotsim.engine.rules import beats_trick, legal_cards, trick_state, trick_winner
from tarotsim.players import view as view_helpers
from tests import reference as ref

ALL = list(ref.ALL_CARDS)
TRUMPS = [f"T{t}" for t in range(1, 22)]
CALLABLE = [rank + suit for suit in ref.SUITS for rank in ("J", "C", "Q", "K")]
SUIT_NAMES = ref.SUITS + ("T",)  # index: the kernels' suit code


def random_position(rng: random.Random) -> tuple[list[str], list[str]]:
    """A hand of 1-18 cards and a trick of 0-4 earlier cards, drawn so that every rule comes up often."""
    pack = ALL[:]
    rng.shuffle(pack)
    if rng.random() < 0.5:  # trump-heavy positions: overtrump and undertrump cases
        pack.sort(
            key=lambda c: (
                (c not in TRUMPS and c != "EX", rng.random()) if rng.random() < 0.6 else (True, rng.random())
            )
        )
    trick_len = rng.randint(0, 4)
    trick = pack[:trick_len]
    rest = pack[trick_len:]
    rng.shuffle(rest)
    hand = rest[: rng.randint(1, 18)]
    return hand, trick


def test_legal_cards_and_winner_agree_with_reference_on_30000_positions():
    rng = random.Random(20261129)
    checked_winners = 0
    for _ in range(30_000):
        hand, trick = random_position(rng)
        assert legal_cards(hand, trick) == ref.legal_cards(hand, trick), (hand, trick)
        full = trick + [rng.choice(hand)]
        if full != ["EX"]:
            assert trick_winner(full) == ref.trick_winner(full), full
            checked_winners += 1
    assert checked_winners > 29_700


@settings(max_examples=300, deadline=None)
@given(st.permutations(ALL), st.integers(1, 18), st.integers(0, 4))
def test_legal_cards_property(pack, hand_size, trick_len):
    trick = pack[:trick_len]
    hand = pack[trick_len : trick_len + hand_size]
    legal = legal_cards(hand, trick)
    assert legal == ref.legal_cards(hand, trick)
    assert legal and legal <= set(hand)
    if "EX" in hand:
        assert "EX" in legal


@pytest.mark.parametrize(
    ("hand", "trick", "expected"),
    [
        (["KS", "3S", "T5", "EX"], ["7S"], {"KS", "3S", "EX"}),  # follow suit, any card of it
        (["KH", "T5", "T12"], ["7S"], {"T5", "T12"}),  # void: must trump
        (["KH", "T5", "T12"], ["7S", "T8"], {"T12"}),  # must overtrump
        (["KH", "T5", "T6"], ["7S", "T8"], {"T5", "T6"}),  # cannot overtrump: undertrump
        (["KH", "2D"], ["7S", "T8"], {"KH", "2D"}),  # neither suit nor trump: any card
        (["T3", "T15", "KS"], ["T10"], {"T15"}),  # trump lead: overtrump
        (["T3", "T4", "KS"], ["T10"], {"T3", "T4"}),  # trump lead, cannot overtrump
        (["T3", "KS", "EX"], ["T10", "T12"], {"T3", "EX"}),  # Excuse always playable
        (["KS", "2H", "T3"], ["EX"], {"KS", "2H", "T3"}),  # Excuse led: no suit yet
        (["KS", "2H", "T3"], ["EX", "5H"], {"2H"}),  # Excuse led: suit set by the second card
        (["KS", "T3"], [], {"KS", "T3"}),
    ],
)
def test_hand_made_legality(hand, trick, expected):
    assert legal_cards(hand, trick) == expected
    assert ref.legal_cards(hand, trick) == expected


@pytest.mark.parametrize(
    ("trick", "winner"),
    [
        (["7S", "KS", "2S", "QS"], 1),
        (["7S", "KS", "T1", "QS"], 2),  # the Petit trumps
        (["7S", "T2", "T21", "T3"], 2),
        (["EX", "7S", "KS", "2S"], 2),  # the Excuse never wins
        (["7S", "EX", "2S", "3S"], 0),
        (["7S", "KH", "QD", "2S"], 0),  # discards never win
        (["T1", "EX", "2S", "3H"], 0),
    ],
)
def test_hand_made_winners(trick, winner):
    assert trick_winner(trick) == winner
    assert ref.trick_winner(trick) == winner


@pytest.mark.parametrize(
    ("hand", "trick", "message"),
    [
        (["KS", "11H"], [], "11H"),
        (["KS", "KS"], [], "twice"),
        (["KS"], ["KS"], "both in the hand and in the trick"),
        ([], ["KS"], "empty"),
        (["KS"], ["1S", "2S", "3S", "4S", "5S"], "at most"),
    ],
)
def test_bad_positions_are_refused(hand, trick, message):
    with pytest.raises(ValueError, match=message):
        legal_cards(hand, trick)


def test_bad_tricks_are_refused():
    with pytest.raises(ValueError, match="empty"):
        trick_winner([])
    with pytest.raises(ValueError, match="only the Excuse"):
        trick_winner(["EX"])


# ---------------------------------------------------------------------------------------------
# the first lead with five players (docs/rules.md §3)
# ---------------------------------------------------------------------------------------------


def test_first_lead_agrees_with_reference_on_20000_hands():
    rng = random.Random(20261201)
    restricted = 0
    for _ in range(20_000):
        called = rng.choice(CALLABLE)
        if rng.random() < 0.1:  # only cards of the called suit, perhaps with the Excuse or a trump
            suit = [card for card in ALL if ref.suit_of(card) == called[-1]]
            hand = rng.sample(suit, rng.randint(1, 5)) + rng.choice([[], ["EX"], ["T7"]])
        else:
            hand = rng.sample(ALL, rng.randint(1, 15))
        expected = ref.first_lead_allowed(ref.legal_cards(hand, []), called)
        assert legal_cards(hand, [], called_card=called, first_lead=True) == expected, (hand, called)
        restricted += expected != set(hand)
    assert restricted > 5_000


@pytest.mark.parametrize(
    ("hand", "called", "expected"),
    [
        (["KS", "3S", "2H"], "KS", {"KS", "2H"}),  # the called card itself may be led
        (["QS", "3S", "2H"], "KS", {"2H"}),  # no other card of its suit
        (["3S", "T5"], "KS", {"T5"}),
        (["3S", "EX"], "KS", {"EX"}),  # the Excuse is of no suit
        (["3S", "5S"], "KS", {"3S", "5S"}),  # nothing else to lead: the whole choice
        (["3S", "5S", "QS"], "QS", {"QS"}),  # a Queen called (the taker holds every King)
    ],
)
def test_hand_made_first_leads(hand, called, expected):
    assert legal_cards(hand, [], called_card=called, first_lead=True) == expected
    assert ref.first_lead_allowed(ref.legal_cards(hand, []), called) == expected


def test_the_called_card_matters_only_on_the_first_lead():
    hand = ["KS", "3S", "2H"]
    assert legal_cards(hand, [], called_card="KS") == set(hand)  # a later lead
    assert legal_cards(hand, [], first_lead=True) == set(hand)  # no card called: 3 or 4 players
    assert legal_cards(hand, ["4S"], called_card="KS") == {"KS", "3S"}


@pytest.mark.parametrize(
    ("called", "trick", "message"),
    [
        ("5S", [], "King, Queen, Knight or Jack"),
        ("T21", [], "King, Queen, Knight or Jack"),
        ("EX", [], "King, Queen, Knight or Jack"),
        ("XS", [], "not a card"),
        ("KH", ["7S"], "first lead"),
    ],
)
def test_bad_first_leads_are_refused(called, trick, message):
    with pytest.raises(ValueError, match=message):
        legal_cards(["KS", "2H"], trick, called_card=called, first_lead=True)


# ---------------------------------------------------------------------------------------------
# the voids a card reveals, the trick order
# ---------------------------------------------------------------------------------------------


def kernel_revealed_voids(trick: list[str], card: str) -> set[str]:
    led, _hi = trick_state(parse_cards(trick, what="trick"))
    seat = len(trick)
    voids = K.reveal_voids(0, seat, led, parse_card(card))
    return {SUIT_NAMES[suit] for suit in range(TRUMP_SUIT + 1) if K.void_seats(voids, suit) == 1 << seat}


def test_revealed_voids_agree_with_reference_and_are_true():
    rng = random.Random(20261202)
    revealed = 0
    for _ in range(10_000):
        hand, trick = random_position(rng)
        for card in legal_cards(hand, trick):
            voids = ref.revealed_voids(trick, card)
            assert kernel_revealed_voids(trick, card) == voids, (hand, trick, card)
            assert not any(ref.suit_of(other) in voids for other in hand), (hand, trick, card)
            revealed += bool(voids)
    assert revealed > 2_000


def test_cards_above_is_the_winning_key_order():
    for win in range(EXCUSE):  # every card but the Excuse can win a trick
        leds = range(TRUMP_SUIT + 1) if win >= N_SUIT_CARDS else [K.suit_code(win)]
        above = set(from_mask(*K.cards_above(win)))
        for led in leds:
            beaten_by = {
                card for card in range(N_CARDS) if K.winning_key(card, led) > K.winning_key(win, led)
            }
            assert above == beaten_by, (win, led)


def _reference_beats(card: str, trick: list[str]) -> bool:
    """The reference's answer: ``card`` played now is the trick's winner so far."""
    return card != "EX" and ref.trick_winner([*trick, card]) == len(trick)


def test_beats_trick_agrees_with_the_reference_winner():
    rng = random.Random(20261206)
    seen = {True: 0, False: 0}
    for _ in range(5_000):
        hand, trick = random_position(rng)
        for card in hand:
            expected = _reference_beats(card, trick)
            assert beats_trick(card, trick) is expected, (card, trick)
            seen[expected] += 1
    assert min(seen.values()) > 5_000
    assert beats_trick("KS", []) and not beats_trick("EX", []) and beats_trick("2H", ["EX"])
    assert (
        beats_trick("T1", ["KS", "QS"])
        and not beats_trick("T1", ["KS", "T2"])
        and not beats_trick("KH", ["2S"])
    )


@pytest.mark.parametrize(
    ("card", "trick", "message"),
    [
        ("KS", ["7S", "KS"], "'KS' is already in the trick"),
        ("KS", ["1S", "2S", "3S", "4S", "5S"], "at most 4 before yours"),
        ("KZ", ["7S"], "'KZ' is not a card"),
        ("KS", ["7S", "7S"], "7S appears twice in the trick"),
    ],
)
def test_beats_trick_refuses_a_position_that_cannot_be(card, trick, message):
    with pytest.raises(ValueError, match=message):
        beats_trick(card, trick)


@numba.njit(cache=True)
def _view_helpers(view, word0, word1, cards):
    """The Numba view's answers for ``cards`` (and the card set ``word0, word1``)."""
    beats = np.zeros(len(cards), dtype=np.bool_)
    for i in range(len(cards)):
        beats[i] = view_helpers.beats_trick(view, cards[i])
    return beats, view_helpers.winning_cards(view, word0, word1)


@numba.njit(cache=True)
def _card_helpers():
    out = np.zeros((N_CARDS, 3), dtype=np.int64)
    for card in range(N_CARDS):
        out[card] = (view_helpers.rank_of(card), view_helpers.suit_of(card), view_helpers.half_points(card))
    return out


def test_the_numba_view_helpers_agree_with_the_reference():
    names = list(ref.ALL_CARDS)
    suits = ("S", "H", "D", "C", "T", "EX")
    for card, (rank, suit, half) in enumerate(_card_helpers()):
        assert (rank, suits[suit], half) == (
            ref.rank_of(names[card]),
            ref.suit_of(names[card]),
            ref.card_points_half(names[card]),
        )
    rng = random.Random(7)
    blank = SeatView(
        0,
        True,
        *[np.uint64(0)] * 6,
        np.zeros(N_INFO, np.int64),
        np.zeros(2, np.uint64),
        np.zeros(5, np.int64),
        np.zeros((5, 2), np.uint64),
        np.zeros((24, 7), np.int64),
        np.zeros(5, np.int64),
        np.zeros(4, np.uint64),
    )
    for _ in range(2_000):
        hand, trick = random_position(rng)
        ids = parse_cards(trick)
        info = np.zeros(N_INFO, dtype=np.int64)
        info[view_helpers.INFO_LED], info[view_helpers.INFO_HI_TRUMP] = trick_state(ids)
        # the trick's winning card so far as the game keeps it: -1 before any card that can win
        info[view_helpers.INFO_WIN_CARD] = -1 if set(trick) <= {"EX"} else ids[ref.trick_winner(trick)]
        view = blank._replace(info=info)
        hand_ids = np.array(parse_cards(hand), dtype=np.int64)
        beats, (win0, win1) = _view_helpers(view, *to_mask(hand_ids), hand_ids)
        expected = [_reference_beats(card, trick) for card in hand]
        assert list(beats) == expected, (hand, trick)
        assert from_mask(win0, win1) == sorted(int(c) for c, b in zip(hand_ids, expected, strict=True) if b)
