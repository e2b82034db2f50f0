"""The compiled legality and trick-winner rules against the plain-Python reference."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tarotsim.rules import legal_cards, trick_winner
from tests import reference as ref

ALL = list(ref.ALL_CARDS)
TRUMPS = [f"T{t}" for t in range(1, 22)]


def random_position(rng: random.Random) -> tuple[list[str], list[str]]:
    """A hand of 1-18 cards and a trick of 0-4 earlier cards, drawn so that every rule comes up often."""
    pack = ALL[:]
    rng.shuffle(pack)
    if rng.random() < 0.5:  # trump-heavy positions: overtrump and undertrump cases
        pack.sort(key=lambda c: (c not in TRUMPS and c != "EX", rng.random()) if rng.random() < 0.6 else (True, rng.random()))
    trick_len = rng.randint(0, 4)
    trick = pack[:trick_len]
    rest = pack[trick_len:]
    rng.shuffle(rest)
    hand = rest[: rng.randint(1, 18)]
    return hand, trick


def test_legal_cards_and_winner_agree_with_reference_on_100000_positions():
    rng = random.Random(20261129)
    checked_winners = 0
    for _ in range(100_000):
        hand, trick = random_position(rng)
        assert legal_cards(hand, trick) == ref.legal_cards(hand, trick), (hand, trick)
        full = trick + [rng.choice(hand)]
        if full != ["EX"]:
            assert trick_winner(full) == ref.trick_winner(full), full
            checked_winners += 1
    assert checked_winners > 99_000


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
