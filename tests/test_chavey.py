"""Chavey's hand count (kernels.chavey) on hand-made 18-card hands, counted by hand.

The rules counted (as ``engine.kernels.chavey`` describes them): trump 21 10, Excuse 8; the Petit 0 with fewer than 5
trumps, 5 as the 5th trump, 7 the 6th, 9 the 7th or more; 2 per trump when holding more than
4; +2 for each of trumps 16-21 and +1 for each of them in a sequence; King and Queen of a
suit 10, King alone 6, Queen alone 3, Knight 2, Jack 1; long suits 5 cards 5, 6 cards 7,
7 or more 9; for Garde sans and Garde contre each void 6 and each singleton 3.
Bands: under 40 pass, 40-55 Prise, 56-70 Garde, 71-80 Garde sans, over 80 Garde contre.
"""

from __future__ import annotations

import pytest

from tarotsim.engine.cards import parse_cards, to_mask
from tarotsim.engine.chavey import evaluate_hand
from tarotsim.engine.kernels.chavey import distribution_points, hand_points
from tarotsim.engine.kernels.score import GARDE, GARDE_CONTRE, GARDE_SANS, PASS, PRISE
from tarotsim.engine.kernels.state import P_BID_GARDE_CONTRE, P_BID_PRISE, seat_slot
from tarotsim.players.config import RunConfig
from tarotsim.players.kernels.policies.bidding import chavey_wish

# (hand, count, count with the distribution bonus, contract wished with the default bands)
HANDS = [
    # bouts: T21 10 + EX 8 = 18; 6 trumps: 2*6 = 12; majors 16-21: 6*2 = 12, all six in a
    # sequence +6; spades K+Q 10; hearts K alone 6; clubs 5 cards 5.
    # 18 + 12 + 12 + 6 + 10 + 6 + 5 = 69; hearts singleton +3 -> 72: Garde sans.
    ("T21 T20 T19 T18 T17 T16 EX KS QS KH 2C 3C 4C 5C 6C 7D 8D 9D", 69, 72, GARDE_SANS),
    # 4 trumps (no trump points, no majors); honours: Jack of spades 1; no suit of 5.
    # 1; no void or singleton -> 1: pass.
    ("2S 3S 4S JS 5H 6H 7H 8D 9D 10D 1C 2C 3C 4C T2 T3 T4 T5", 1, 1, PASS),
    # Petit as the 5th trump 5; 5 trumps 2*5 = 10; spades K alone 6 + Jack 1 = 7;
    # hearts Q alone 3 + Knight 2 = 5; spades 5 cards 5.
    # 5 + 10 + 7 + 5 + 5 = 32; clubs singleton +3 -> 35: pass.
    ("T1 T5 T9 T12 T15 KS JS 3S 4S 5S QH CH 2H 3D 4D 5D 6D 7C", 32, 35, PASS),
    # Petit with 4 trumps 0, 4 trumps 0; spades K+Q 10 + Knight 2 + Jack 1 = 13; hearts K+Q
    # 10; diamonds K 6; clubs K 6; clubs 7 cards 9.
    # 13 + 10 + 6 + 6 + 9 = 44; diamonds singleton +3 -> 47: Prise.
    ("T1 T2 T3 T4 KS QS CS JS KH QH KD KC 2C 3C 4C 5C 6C 7C", 44, 47, PRISE),
    # EX 8; Petit as the 6th trump 7; 6 trumps 12; majors 16, 18, 19: 3*2 = 6, 18-19 in a
    # sequence +2 (16 alone); spades K 6; hearts Q 3; diamonds Knight 2; clubs Jack 1;
    # hearts 6 cards 7.
    # 8 + 7 + 12 + 6 + 2 + 6 + 3 + 2 + 1 + 7 = 54; singletons D and C +6 -> 60: Prise.
    ("T1 T3 T6 T16 T18 T19 EX KS 2S 3S QH 4H 5H 6H 7H 8H CD JC", 54, 60, PRISE),
    # T21 10; Petit with 9 trumps 9; 9 trumps 18; majors 20, 21: 4, in a sequence +2;
    # spades K+Q 10; hearts K 6 + Knight 2 = 8.
    # 10 + 9 + 18 + 4 + 2 + 10 + 8 = 61; clubs void +6 -> 67: Garde.
    ("T1 T2 T7 T8 T10 T11 T13 T20 T21 KS QS 5S KH CH 2D 3D 4D 5D", 61, 67, GARDE),
    # T21 10; 5 trumps 10; majors 16, 17, 21: 6, 16-17 in a sequence +2 (21 alone: no 20);
    # hearts 8 cards 9; spades Q 3 + Knight 2 = 5; diamonds Jack 1; clubs K+Q 10.
    # 10 + 10 + 6 + 2 + 9 + 5 + 1 + 10 = 53; diamonds singleton +3 -> 56: Prise
    # (the bonus counts only for Garde sans and Garde contre).
    ("T5 T6 T16 T17 T21 1H 2H 3H 4H 5H 6H 7H 8H QS CS JD KC QC", 53, 56, PRISE),
    # EX 8; Petit with 15 trumps 9; 15 trumps 30; no majors; K of spades 6, K of hearts 6.
    # 8 + 9 + 30 + 12 = 59; singletons S, H +6, voids D, C +12 -> 77: Garde sans.
    ("T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 EX KS KH", 59, 77, GARDE_SANS),
    # 7 trumps 14; Petit as the 7th 9; T21 10; EX 8; majors 16-21: 12, all in a sequence +6;
    # K+Q in each suit 4*10 = 40; spades 4 cards (no long suit).
    # 14 + 9 + 10 + 8 + 12 + 6 + 40 = 99; no void, no singleton -> 99: Garde contre.
    ("T16 T17 T18 T19 T20 T21 T1 EX KS KH KD KC QS QH QD QC 2S 3S", 99, 99, GARDE_CONTRE),
    # 4 trumps 0; majors 17, 19, 20 count even with 4 trumps: 6, 19-20 in a sequence +2;
    # spades K 6 + Jack 1 + 6 cards 7; hearts Q 3 + Knight 2.
    # 6 + 2 + 6 + 1 + 7 + 3 + 2 = 27; no void, no singleton -> 27: pass.
    ("T2 T17 T19 T20 KS JS 2S 3S 4S 5S QH CH 6D 7D 8D 9C 10C 1C", 27, 27, PASS),
    # T21 10 and major +2 (no sequence), one trump (no trump points); EX 8;
    # spades K+Q 10 + Knight 2 + Jack 1 + 7 cards 9 = 22; hearts K+Q 10 + C 2 + J 1 + 5 cards
    # 5 = 18; diamonds K+Q 10; clubs K 6 + Knight 2 = 8.
    # 10 + 2 + 8 + 22 + 18 + 10 + 8 = 78; no void or singleton -> 78: Garde sans.
    ("EX T21 KS QS CS JS 10S 9S 8S KH QH CH JH 10H KD QD KC CC", 78, 78, GARDE_SANS),
    # 5 trumps 10; majors 16, 17, 18: 6, all three in a sequence +3; spades 6 cards 7;
    # hearts 5 cards 5; diamonds Jack 1 + Knight 2.
    # 10 + 6 + 3 + 7 + 5 + 3 = 34; clubs void +6 -> 40, but Prise weighs the plain count: pass.
    ("T3 T4 T16 T17 T18 1S 2S 3S 4S 5S 6S 1H 2H 3H 4H 5H JD CD", 34, 40, PASS),
]


def _words(hand: str):
    cards = parse_cards(hand)
    assert len(cards) == 18, hand
    return to_mask(cards)


@pytest.mark.parametrize(("hand", "count", "with_distribution", "contract"), HANDS)
def test_chavey_count(hand: str, count: int, with_distribution: int, contract: int) -> None:
    word0, word1 = _words(hand)
    assert hand_points(word0, word1) == count
    assert hand_points(word0, word1) + distribution_points(word0) == with_distribution


@pytest.mark.parametrize(("hand", "count", "with_distribution", "contract"), HANDS)
def test_chavey_bands(hand: str, count: int, with_distribution: int, contract: int) -> None:
    word0, word1 = _words(hand)
    assert chavey_wish(word0, word1, RunConfig().to_array(), 0) == contract


def test_band_edges() -> None:
    """40 is a Prise, 56 a Garde, 71 (with distribution) a Garde sans, 81 a Garde contre."""
    cfg = RunConfig().to_array()
    # Hand 4 above counts 44 (47 with its singleton): move the thresholds onto it.
    word0, word1 = _words("T1 T2 T3 T4 KS QS CS JS KH QH KD KC 2C 3C 4C 5C 6C 7C")
    for prise, contract in ((44, PRISE), (45, PASS)):
        cfg2 = RunConfig(bid_thresholds=(prise, 60, 71, 81)).to_array()
        assert chavey_wish(word0, word1, cfg2, 0) == contract
    cfg2 = RunConfig(bid_thresholds=(40, 44, 71, 81)).to_array()
    assert chavey_wish(word0, word1, cfg2, 0) == GARDE
    cfg2 = RunConfig(bid_thresholds=(40, 45, 47, 81)).to_array()
    assert chavey_wish(word0, word1, cfg2, 0) == GARDE_SANS
    cfg2 = RunConfig(bid_thresholds=(40, 45, 46, 47)).to_array()
    assert chavey_wish(word0, word1, cfg2, 0) == GARDE_CONTRE
    assert list(cfg[seat_slot(0, P_BID_PRISE) : seat_slot(0, P_BID_GARDE_CONTRE) + 1]) == [40, 56, 71, 81]


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ("T21 T20", "holds 24 \\(3 players\\), 18 \\(4 players\\), 15 \\(5 players\\) cards, got 2"),
        ("", "got 0"),
        ("T21 T20 T19 T18 T17 T16 EX KS QS KH 2C 3C 4C 5C 6C 7D 8D 9D 10D", "got 19"),
        ("T21 T21 T19 T18 T17 T16 EX KS QS KH 2C 3C 4C 5C 6C 7D 8D 9D", "appears twice"),
        ("T21 T22 T19 T18 T17 T16 EX KS QS KH 2C 3C 4C 5C 6C 7D 8D 9D", "T22"),
    ],
)
def test_a_hand_that_cannot_be_dealt_is_refused(hand: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        evaluate_hand(hand)


def test_every_table_size_is_evaluated() -> None:
    pack = (
        [f"T{n}" for n in range(1, 22)] + ["EX"] + [f"{r}{s}" for s in "SHDC" for r in ("K", "Q", "C", "J")]
    )
    assert [evaluate_hand(pack[:size]) > 0 for size in (24, 18, 15)] == [True] * 3
