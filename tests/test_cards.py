import numpy as np
import pytest

from tarotsim.engine import cards
from tests import reference as ref


def test_names_round_trip_and_match_reference_order():
    names = cards.card_names()
    assert len(names) == 78 and len(set(names)) == 78
    assert list(names) == list(ref.ALL_CARDS)
    for card, name in enumerate(names):
        assert cards.parse_card(name) == card
        assert cards.format_card(card) == name


def test_points_match_reference_and_sum_to_91():
    assert cards.HALF_POINTS.sum() == 182
    for card, name in enumerate(cards.card_names()):
        assert cards.HALF_POINTS[card] == ref.card_points_half(name)
        assert cards.is_bout(card) == ref.is_bout(name)
        assert cards.is_trump(card) == ref.is_trump(name)


@pytest.mark.parametrize("bad", ["11H", "T22", "XX", "T0", "0S", "KZ", ""])
def test_bad_card_names_are_named_in_the_error(bad):
    with pytest.raises(ValueError) as err:
        cards.parse_card(bad)
    assert repr(bad) in str(err.value)


def test_duplicate_card_in_a_hand_is_refused():
    with pytest.raises(ValueError, match="KS appears twice"):
        cards.parse_cards(["KS", "T1", "KS"])


def test_non_string_card_is_a_type_error():
    with pytest.raises(TypeError):
        cards.parse_card(13)  # type: ignore[arg-type]


def test_masks_partition_the_deck():
    word0 = cards.KINGS_MASK | cards.QUEENS_MASK | cards.KNIGHTS_MASK | cards.JACKS_MASK | cards.PIPS_MASK
    assert word0 == cards.FULL_WORD0
    assert int(cards.KINGS_MASK) & int(cards.PIPS_MASK) == 0
    w0, w1 = cards.to_mask(range(78))
    assert w0 == cards.FULL_WORD0 and w1 == cards.FULL_WORD1
    assert cards.from_mask(w0, w1) == list(range(78))
    assert cards.to_mask([cards.EXCUSE])[1] == cards.EXCUSE_BIT
    assert cards.to_mask([cards.PETIT])[1] == cards.PETIT_BIT
    assert cards.to_mask([cards.TRUMP_21])[1] == cards.TRUMP_21_BIT
    assert int(cards.MAJOR_TRUMPS_MASK) == sum(1 << (t - 1) for t in range(16, 22))
    assert isinstance(w0, np.uint64)


def test_french_names_round_trip_and_differ_from_english():
    french = cards.format_cards(range(78), notation="french")
    assert len(set(french)) == 78 and not set(french) & set(cards.card_names())
    assert [cards.parse_card(name) for name in french] == list(range(78))
    assert french[:14] == [
        "1P",
        "2P",
        "3P",
        "4P",
        "5P",
        "6P",
        "7P",
        "8P",
        "9P",
        "10P",
        "VP",
        "CP",
        "DP",
        "RP",
    ]
    assert french[-2:] == ["21", "Excuse"]


@pytest.mark.parametrize(
    "hand, notation",
    [
        ("KS 10H T21 EX", "english"),
        ("RP 10Co 21 Excuse", "french"),
        ("R♠ D♥ 1 Exc", "french"),
        (["RP", "DCo", "T21"], "french"),  # most are French
        ("RP KH T21 EX", "english"),  # most are English
        ("RP KS", "english"),  # a tie reads as English
        ("CC", "english"),  # a name read the same in both is the English one
        ("", "english"),
    ],
)
def test_notation_of_a_hand(hand, notation):
    assert cards.notation_of(hand) == notation


def test_an_unknown_notation_is_refused():
    with pytest.raises(ValueError, match="notation must be 'english' or 'french', got 'german'"):
        cards.format_card(13, notation="german")


def test_suit_rank_and_worth_of_every_card_by_id_and_by_name_match_the_reference():
    for card, name in enumerate(cards.card_names()):
        for given in (card, name, name.lower(), np.int64(card)):
            assert cards.suit_of(given) == ref.suit_of(name), given
            assert cards.rank_of(given) == ref.rank_of(name), given
            assert cards.card_points(given) == ref.card_points_half(name) / 2, given
            assert cards.is_trump(given) == ref.is_trump(name) and cards.is_bout(given) == ref.is_bout(name)
    # the rank orders the cards of a suit as a trick does: higher beats lower
    for suit in range(4):
        of_suit = [ref.ALL_CARDS[14 * suit + r] for r in range(14)]
        ranks = [cards.rank_of(c) for c in of_suit]
        assert ranks == sorted(ranks) == list(range(1, 15))


@pytest.mark.parametrize("bad", [78, -1, 100])
def test_a_card_id_out_of_range_is_a_value_error(bad):
    for helper in (cards.suit_of, cards.rank_of, cards.card_points, cards.is_trump, cards.is_bout):
        with pytest.raises(ValueError, match=f"card ids run from 0 to 77, got {bad}"):
            helper(bad)


@pytest.mark.parametrize("bad", [1.5, None, True, ["KS"]])
def test_a_card_that_is_neither_id_nor_name_is_a_type_error(bad):
    with pytest.raises(TypeError, match="a card is an id 0-77 or a name"):
        cards.rank_of(bad)
