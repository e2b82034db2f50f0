"""Hand-made tests of tests/reference.py, the plain-Python rules of docs/rules.md."""

from __future__ import annotations

import copy
import json
import random

import pytest

from tests.reference import (
    ALL_CARDS,
    EXCUSE,
    callable_cards,
    card_points_half,
    check_trace,
    count_deal,
    ecart_is_legal,
    is_bout,
    is_petit_sec,
    is_trump,
    legal_cards,
    play_deal,
    play_random_deal,
    poignee_is_legal,
    poignee_size,
    rank_of,
    score_deal,
    settle,
    sort_cards,
    suit_of,
    trick_winner,
)

# ---------------------------------------------------------------------------------------------
# Cards
# ---------------------------------------------------------------------------------------------


def test_deck():
    assert len(ALL_CARDS) == 78 == len(set(ALL_CARDS))
    assert ALL_CARDS[:14] == [rank + "S" for rank in "1 2 3 4 5 6 7 8 9 10 J C Q K".split()]
    assert ALL_CARDS[14] == "1H" and ALL_CARDS[28] == "1D" and ALL_CARDS[42] == "1C"
    assert ALL_CARDS[56:77] == [f"T{i}" for i in range(1, 22)]
    assert ALL_CARDS[77] == "EX"
    assert sum(card_points_half(card) for card in ALL_CARDS) == 182
    assert [card for card in ALL_CARDS if is_bout(card)] == ["T1", "T21", "EX"]
    assert sum(is_trump(card) for card in ALL_CARDS) == 21
    assert not is_trump("EX")


@pytest.mark.parametrize(
    "card, points, suit, rank",
    [
        ("KS", 9, "S", 14),
        ("QH", 7, "H", 13),
        ("CC", 5, "C", 12),
        ("JD", 3, "D", 11),
        ("10H", 1, "H", 10),
        ("1D", 1, "D", 1),
        ("KC", 9, "C", 14),
        ("CS", 5, "S", 12),
        ("T1", 9, "T", 1),
        ("T21", 9, "T", 21),
        ("T12", 1, "T", 12),
        ("EX", 9, "EX", 0),
    ],
)
def test_card_attributes(card, points, suit, rank):
    assert card_points_half(card) == points
    assert suit_of(card) == suit
    assert rank_of(card) == rank


def test_unknown_card():
    with pytest.raises(ValueError):
        suit_of("T22")
    with pytest.raises(ValueError):
        legal_cards(["11S"], [])


# ---------------------------------------------------------------------------------------------
# Legal cards (§6)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "hand, trick, expected",
    [
        # empty trick: anything
        ({"2H", "KS", "T5", "EX"}, [], {"2H", "KS", "T5", "EX"}),
        # follow suit, any card of it, no need to go higher
        ({"2H", "KH", "KS", "T5"}, ["5H"], {"2H", "KH"}),
        ({"2H", "KS", "T5"}, ["5H", "QH"], {"2H"}),
        # following suit even though the trick has been trumped
        ({"2H", "T20"}, ["5H", "T7"], {"2H"}),
        # void: must trump
        ({"KS", "T3", "T10"}, ["5H"], {"T3", "T10"}),
        # void, trick already trumped: overtrump if able
        ({"KS", "T3", "T10"}, ["5H", "T7"], {"T10"}),
        ({"KS", "T3", "T10", "T12"}, ["5H", "T11", "T7"], {"T12"}),
        # void, unable to overtrump: undertrump (still a trump)
        ({"KS", "T3", "T5"}, ["5H", "T7"], {"T3", "T5"}),
        # trumps led: overtrump if able
        ({"T3", "T10", "T12", "KH"}, ["T8"], {"T10", "T12"}),
        ({"T3", "T10", "T12", "KH"}, ["T8", "T11"], {"T12"}),
        # trumps led, unable to overtrump: any trump
        ({"T3", "T10", "T12", "KH"}, ["T15"], {"T3", "T10", "T12"}),
        # trumps led, no trump: any card
        ({"KH", "2S"}, ["T15"], {"KH", "2S"}),
        # neither the suit nor a trump: any card
        ({"KS", "2D"}, ["5H"], {"KS", "2D"}),
        ({"KS", "2D"}, ["5H", "T4"], {"KS", "2D"}),
        # Excuse lead: anything, then the second card sets the suit
        ({"2H", "T1", "KS"}, ["EX"], {"2H", "T1", "KS"}),
        ({"2H", "T1", "KS"}, ["EX", "5H"], {"2H"}),
        ({"T2", "T9", "KH"}, ["EX", "T4"], {"T9"}),
        ({"KS", "T2"}, ["EX", "5H", "T4"], {"T2"}),
        # Excuse always playable
        ({"EX", "2H", "T5"}, ["5H"], {"2H", "EX"}),
        ({"EX", "T5", "2H"}, ["5S", "T8"], {"T5", "EX"}),
        ({"EX", "T5", "T9"}, ["T8"], {"T9", "EX"}),
        ({"EX"}, ["5S"], {"EX"}),
        ({"EX", "KD"}, ["5S"], {"EX", "KD"}),
    ],
)
def test_legal_cards(hand, trick, expected):
    assert legal_cards(hand, trick) == expected


def test_legal_cards_overtrump_even_over_partner():
    # The rule does not care who holds the highest trump in the trick.
    assert legal_cards({"T3", "T19"}, ["T2", "T18"]) == {"T19"}


# ---------------------------------------------------------------------------------------------
# Trick winner
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "trick, winner",
    [
        (["5H", "KH", "2H", "QS"], 1),  # highest of the suit led; off-suit Queen does not win
        (["5H", "KS", "2H", "1H"], 0),
        (["KH", "T1", "QH", "T2"], 3),  # highest trump
        (["T5", "T21", "T1", "KS"], 1),
        (["EX", "2C", "KC", "T1"], 3),
        (["EX", "2C", "KC", "QD"], 2),  # Excuse lead: the second card sets the suit
        (["2C", "EX", "KD", "3C"], 3),  # the Excuse never wins
        (["2C", "EX", "KD"], 0),
        (["QD", "KS", "EX", "JD", "KD"], 4),  # five players
    ],
)
def test_trick_winner(trick, winner):
    assert trick_winner(trick) == winner


def test_trick_winner_needs_a_winning_card():
    with pytest.raises(ValueError):
        trick_winner(["EX"])
    with pytest.raises(ValueError):
        trick_winner([])


# ---------------------------------------------------------------------------------------------
# Counting: Excuse, chelem exception, petit au bout (4 players, taker at seat 0)
# ---------------------------------------------------------------------------------------------

ECART = ["2S", "3S", "4S", "5S", "6S", "7S"]  # 6 half points for the attack


def filler_tricks(cards, leader=1):
    """Tricks of the given cards all won by ``leader``, a defender: its card (the highest
    trump, or else the highest-ranked card, whose suit it leads) comes first. The Excuse, if
    among the cards, is played by the next seat (a defender too) in the first of these tricks,
    so it stays with the defence and never reaches the last trick of a deal."""
    cards = sort_cards(cards)
    with_excuse = EXCUSE in cards
    if with_excuse:
        cards.remove(EXCUSE)
    groups = [cards[:3]] if with_excuse else []
    groups += [cards[start : start + 4] for start in range(3 if with_excuse else 0, len(cards), 4)]
    tricks = []
    for number, group in enumerate(groups):
        trumps_in_group = [card for card in group if is_trump(card)]
        best = max(trumps_in_group or group, key=rank_of)
        group.remove(best)
        trick = [best] + group
        if with_excuse and number == 0:
            trick.insert(1, EXCUSE)
        assert len(trick) == 4 and trick_winner(trick) == 0
        tricks.append((leader, trick))
    return tricks


def deal_with(special, *, special_first=False, ecart=ECART):
    """All 78 cards: ``special`` tricks placed last (or first), filler tricks won by seat 1."""
    used = set(ecart) | {card for _, cards in special for card in cards}
    filler = filler_tricks([card for card in ALL_CARDS if card not in used])
    return list(special) + filler if special_first else filler + list(special)


def count4(tricks, ecart=ECART):
    # Prise or garde: the chien went into the taker's hand, the écart counts for the attack.
    return count_deal(tricks, {0}, chien=[], chien_goes_to=None, ecart=ecart)


def test_filler_only_goes_to_defence():
    # A trick with nothing special, won by the attack, for reference: QS 8S 9S 10S = 10 half.
    tricks = deal_with([(0, ["QS", "8S", "9S", "10S"])])
    count = count4(tricks)
    assert count.attack_half_points == 10 + 6
    assert count.attack_bouts == 0
    assert count.attack_tricks == 1
    assert count.winners[:-1] == [1] * 17 and count.winners[-1] == 0
    assert count.petit_au_bout is None and count.chelem is None


def test_excuse_of_attack_in_a_trick_won_by_defence():
    # Seat 0 (taker) leads the Excuse; 2H sets the suit, KH (seat 3) wins. The attack keeps the
    # Excuse (4 points net) and the bout; the defence gets 2H 3H KH plus the 0.5 exchange card.
    count = count4(deal_with([(0, ["EX", "2H", "3H", "KH"])], special_first=True))
    assert count.winners[0] == 3
    assert count.attack_half_points == 8 + 6
    assert count.attack_bouts == 1


def test_excuse_of_defence_in_a_trick_won_by_attack():
    # Seat 2 plays the Excuse in a trick won by the taker: attack gets KH 2H 3H (11 half) and
    # the exchange half point; the defence keeps the Excuse and its bout.
    count = count4(deal_with([(0, ["KH", "2H", "EX", "3H"])], special_first=True))
    assert count.winners[0] == 0
    assert count.attack_half_points == 11 + 1 + 6
    assert count.attack_bouts == 0


def test_excuse_of_defence_in_a_trick_won_by_defence():
    count = count4(deal_with([(1, ["KH", "EX", "2H", "3H"])], special_first=True))
    assert count.winners[0] == 1
    assert count.attack_half_points == 6
    assert count.attack_bouts == 0


def test_excuse_on_last_trick_owner_side_loses_it():
    # The taker plays the Excuse to the last trick, won by the defence: it changes sides.
    earlier = count4(deal_with([(1, ["KH", "2H", "3H", "EX"])], special_first=True))
    assert earlier.attack_half_points == 8 + 6 and earlier.attack_bouts == 1
    last = count4(deal_with([(1, ["KH", "2H", "3H", "EX"])]))
    assert last.winners[-1] == 1
    assert last.attack_half_points == 6 and last.attack_bouts == 0


def test_excuse_on_last_trick_owner_side_wins_it():
    # A defender (seat 2) plays the Excuse to the last trick, which the defence (seat 1) wins;
    # the attack won an earlier trick, so no chelem exception: the Excuse goes to the attack
    # with its 4.5 points and its bout, and no exchange card is given.
    special = [(0, ["QS", "8S", "9S", "10S"]), (1, ["KH", "EX", "2H", "3H"])]
    count = count4(deal_with(special), ecart=["2S", "3S", "4S", "5S", "6S", "7S"])
    assert count.winners[-2:] == [0, 1]
    assert count.attack_half_points == 10 + 9 + 6
    assert count.attack_bouts == 1
    assert count.chelem is None


def test_excuse_on_last_trick_owner_side_loses_it_to_attack():
    # Defender's Excuse on the last trick won by the taker: attack gets the whole trick.
    special = [(0, ["QS", "8S", "9S", "10S"]), (0, ["KH", "EX", "2H", "3H"])]
    count = count4(deal_with(special))
    assert count.winners[-1] == 0
    assert count.attack_half_points == 10 + 11 + 9 + 6
    assert count.attack_bouts == 1


def test_chelem_exception_for_the_defence():
    # The defence won all 17 earlier tricks; a defender's Excuse on the last trick wins it.
    count = count4(deal_with([(0, ["KH", "EX", "2H", "3H"])]))
    assert count.winners[-1] == 1  # seat 1 played the Excuse
    assert count.chelem == "defence"
    assert count.attack_tricks == 0
    assert count.attack_half_points == 6 and count.attack_bouts == 0


def attack_chelem_tricks(defender_cards, taker_cards=None):
    """Taker (seat 0) leads T21 down to T5 and then the Excuse; the defenders' 54 cards are
    played three by three in the given order."""
    taker_cards = taker_cards or [f"T{i}" for i in range(21, 4, -1)] + ["EX"]
    assert len(defender_cards) == 54
    return [(0, [taker_cards[k]] + defender_cards[3 * k : 3 * k + 3]) for k in range(18)]


def _defender_cards(petit_position):
    used = set(ECART) | {f"T{i}" for i in range(5, 22)} | {"EX"}
    others = [card for card in ALL_CARDS if card not in used and card != "T1"]
    others.insert(petit_position, "T1")
    return others


def test_chelem_exception_attack_with_petit_au_bout_next_to_last():
    # T1 is the first defender card of trick 16 (the next-to-last trick).
    tricks = attack_chelem_tricks(_defender_cards(48))
    assert "T1" in tricks[16][1]
    count = count4(tricks)
    assert count.winners == [0] * 18
    assert count.chelem == "attack"
    assert count.attack_half_points == 182 and count.attack_bouts == 3
    assert count.petit_au_bout == "attack"


def test_chelem_exception_petit_in_the_last_trick_is_not_au_bout():
    tricks = attack_chelem_tricks(_defender_cards(52))
    assert "T1" in tricks[17][1] and "EX" in tricks[17][1]
    count = count4(tricks)
    assert count.winners[-1] == 0 and count.chelem == "attack"
    assert count.petit_au_bout is None  # the next-to-last trick is looked at instead
    assert count.attack_half_points == 182


def test_no_exception_once_the_excuse_side_lost_a_trick():
    # Like the attack chelem, but the taker leads 2H in trick 3 and seat 1 trumps it with T5:
    # the Excuse led to the last trick no longer wins it, and goes to the defence.
    taker = ["T21", "T20", "T19", "2H"] + [f"T{i}" for i in range(18, 5, -1)] + ["EX"]
    assert len(taker) == 18
    used = set(ECART) | set(taker) | {"T1", "T5"}
    defenders = [card for card in ALL_CARDS if card not in used]
    defenders.insert(0, "T1")  # caught by the taker in trick 0
    defenders.insert(9, "T5")  # seat 1 in trick 3
    tricks = [(0, [taker[k]] + defenders[3 * k : 3 * k + 3]) for k in range(18)]
    count = count4(tricks)
    assert count.winners[3] == 1
    assert count.winners[-1] != 0  # the Excuse does not win
    assert count.chelem is None
    assert count.attack_bouts == 2  # T21 and T1; the Excuse changed sides
    lost = tricks[3][1] + tricks[17][1]
    assert count.attack_half_points == 182 - sum(card_points_half(card) for card in lost)


def test_attack_chelem_with_defence_excuse():
    # The defence's Excuse played in a trick the taker wins: no chelem exception needed.
    # Attack takes every trick; the defence keeps the Excuse (4 points net) and its bout, and
    # the attack gets the exchange half point: 182 - 8.
    used = set(ECART) | {f"T{i}" for i in range(4, 22)}
    defenders = [card for card in ALL_CARDS if card not in used]
    defenders.remove("EX")
    defenders.insert(4, "EX")  # played in trick 1 by seat 2
    taker = [f"T{i}" for i in range(21, 3, -1)]
    tricks = [(0, [taker[k]] + defenders[3 * k : 3 * k + 3]) for k in range(18)]
    count = count4(tricks)
    assert count.winners == [0] * 18
    assert count.chelem == "attack"
    assert count.attack_half_points == 182 - 8
    assert count.attack_bouts == 2


def test_defence_chelem():
    # Seat 1 leads T21..T4 and wins all; the taker (seat 0) plays the rest, the Excuse last
    # (no exception for it: the attack won no earlier trick; it goes to the defence).
    used = set(ECART) | {f"T{i}" for i in range(4, 22)}
    rest = [card for card in ALL_CARDS if card not in used]
    lead = [f"T{i}" for i in range(21, 3, -1)]
    tricks = [(1, [lead[k]] + rest[3 * k : 3 * k + 3]) for k in range(18)]
    count = count4(tricks)
    assert set(count.winners) == {1}
    assert count.chelem == "defence" and count.attack_tricks == 0
    assert count.attack_half_points == 6


@pytest.mark.parametrize(
    "last_trick, side",
    [
        ((0, ["T1", "2H", "3H", "4H"]), "attack"),  # the taker wins the last trick with it
        ((0, ["T21", "T1", "2H", "3H"]), "attack"),  # a defender's Petit caught at the end
        ((0, ["T1", "T2", "5H", "6H"]), "defence"),  # the taker's Petit lost at the end
        ((1, ["T3", "T1", "5H", "6H"]), "defence"),
        ((1, ["KH", "2H", "3H", "4H"]), None),
    ],
)
def test_petit_au_bout(last_trick, side):
    count = count4(deal_with([last_trick]))
    assert count.petit_au_bout == side


def test_count_deal_checks_the_cards():
    tricks = deal_with([(0, ["QS", "8S", "9S", "10S"])])
    with pytest.raises(ValueError):
        count4(tricks[:-1])
    with pytest.raises(ValueError):
        count_deal(tricks, {0}, chien=[], chien_goes_to="attack", ecart=ECART)


def test_count_deal_chien_sides():
    # Garde sans / contre: the chien's cards count for the attack / the defence.
    tricks = deal_with([(0, ["QS", "8S", "9S", "10S"])], ecart=["2S", "3S", "4S", "5S", "6S", "T21"])
    chien = ["2S", "3S", "4S", "5S", "6S", "T21"]
    sans = count_deal(tricks, {0}, chien, "attack", [])
    contre = count_deal(tricks, {0}, chien, "defence", [])
    assert sans.attack_half_points == 10 + 14 and sans.attack_bouts == 1
    assert contre.attack_half_points == 10 and contre.attack_bouts == 0


# ---------------------------------------------------------------------------------------------
# Score
# ---------------------------------------------------------------------------------------------


def score4(contract, half, bouts, petit_au_bout=None, poignees=(), announced=False, chelem=None):
    return score_deal(4, contract, half, bouts, petit_au_bout, list(poignees), announced, chelem)


@pytest.mark.parametrize(
    "half, bouts, made, margin",
    [
        (81, 2, False, 1),  # 40.5 with 2 bouts fails by 1
        (83, 2, True, 1),  # 41.5 made by 1
        (82, 2, True, 0),  # exactly 41 made by 0
        (111, 0, False, 1),  # 55.5 with 0 bouts
        (112, 0, True, 0),
        (72, 3, True, 0),
        (71, 3, False, 1),
        (0, 0, False, 56),
        (182, 3, True, 55),
        (101, 1, False, 1),
        (103, 1, True, 1),
    ],
)
def test_margin(half, bouts, made, margin):
    result = score4("prise", half, bouts)
    assert result["made"] is made and result["margin"] == margin
    assert result["per_defender"] == (1 if made else -1) * (25 + margin)


def test_worked_example_1():
    result = score4("garde", 94, 2)
    assert result["margin"] == 6 and result["per_defender"] == 62
    assert settle(4, 62, 0, None) == [186, -62, -62, -62]


def test_worked_example_2():
    result = score4("garde", 112, 2)
    assert result["per_defender"] == 80
    assert settle(4, 80, 2, None) == [-80, -80, 240, -80]


def test_worked_example_3():
    result = score4("garde", 98, 2, petit_au_bout="attack", poignees=["simple"])
    assert result["per_defender"] == 106 and result["taker_score"] == 318
    assert settle(4, 106, 1, None) == [-106, 318, -106, -106]


def test_multipliers_and_petit_au_bout_regardless_of_result():
    for contract, m in (("prise", 1), ("garde", 2), ("garde_sans", 4), ("garde_contre", 6)):
        assert score4(contract, 94, 2)["per_defender"] == 31 * m
        assert score4(contract, 80, 2)["per_defender"] == -26 * m
        # petit au bout for the attack on a failed contract: +10M still
        assert score4(contract, 80, 2, "attack")["per_defender"] == -26 * m + 10 * m
        assert score4(contract, 94, 2, "defence")["per_defender"] == 31 * m - 10 * m


def test_poignees_go_to_the_winning_side_unmultiplied():
    assert score4("garde_contre", 94, 2, poignees=["double", "simple"])["per_defender"] == 186 + 50
    assert score4("garde_contre", 80, 2, poignees=["triple"])["per_defender"] == -156 - 40
    # trace-style dicts are accepted too
    assert score4("prise", 94, 2, poignees=[{"seat": 0, "size": "simple"}])["poignee_points"] == 20


def test_chelem_points():
    assert score4("prise", 182, 3, announced=True, chelem="attack")["chelem_points"] == 400
    assert score4("prise", 182, 3, chelem="attack")["chelem_points"] == 200
    assert score4("prise", 150, 3, announced=True)["chelem_points"] == -200
    assert score4("prise", 0, 0, chelem="defence")["chelem_points"] == -200
    # announced and the defence wins every trick: -200 once, not twice
    assert score4("prise", 0, 0, announced=True, chelem="defence")["chelem_points"] == -200
    result = score4("garde", 182, 3, "attack", ["simple"], True, "attack")
    assert result["per_defender"] == (25 + 55) * 2 + 20 + 20 + 400


def test_five_player_shares():
    partnered = score_deal(5, "garde", 94, 2, None, [], False, None)
    alone = score_deal(5, "garde", 94, 2, None, [], False, None, taker_alone=True)
    assert (partnered["taker_score"], partnered["partner_score"]) == (124, 62)
    assert (alone["taker_score"], alone["partner_score"]) == (248, None)


def test_settle():
    assert settle(3, 10, 2, None) == [-10, -10, 20]
    assert settle(4, -30, 3, None) == [30, 30, 30, -90]
    assert settle(5, 50, 1, 3) == [-50, 100, -50, 50, -50]
    assert settle(5, 50, 1, None) == [-50, 200, -50, -50, -50]
    assert settle(5, -50, 4, 4) == [50, 50, 50, 50, -200]
    with pytest.raises(ValueError):
        settle(4, 10, 0, 2)
    with pytest.raises(ValueError):
        settle(6, 10, 0, None)


# ---------------------------------------------------------------------------------------------
# Poignées, écart, petit sec, called card
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "trumps, excuse, players, size",
    [
        (9, False, 4, None),
        (9, True, 4, "simple"),
        (10, False, 4, "simple"),
        (10, True, 4, "simple"),
        (12, True, 4, "double"),
        (13, False, 4, "double"),
        (14, True, 4, "triple"),
        (15, False, 4, "triple"),
        (21, True, 4, "triple"),
        (12, False, 3, None),
        (12, True, 3, "simple"),
        (14, True, 3, "double"),
        (17, True, 3, "triple"),
        (17, False, 3, "double"),
        (7, False, 5, None),
        (7, True, 5, "simple"),
        (9, True, 5, "double"),
        (13, False, 5, "triple"),
        (0, True, 5, None),
    ],
)
def test_poignee_size(trumps, excuse, players, size):
    assert poignee_size(trumps, excuse, players) == size


def trumps(*numbers):
    return [f"T{n}" for n in numbers]


def test_poignee_is_legal():
    ten_and_excuse = trumps(*range(1, 11)) + ["EX", "KS", "2H"]
    assert poignee_is_legal(ten_and_excuse, trumps(*range(1, 11)), "simple", 4)
    # the Excuse may not stand in while a further trump is held
    assert not poignee_is_legal(ten_and_excuse, trumps(*range(1, 10)) + ["EX"], "simple", 4)
    nine_and_excuse = trumps(*range(1, 10)) + ["EX", "KS"]
    assert poignee_is_legal(nine_and_excuse, trumps(*range(1, 10)) + ["EX"], "simple", 4)
    assert not poignee_is_legal(nine_and_excuse, trumps(*range(1, 10)) + ["KS"], "simple", 4)
    assert not poignee_is_legal(nine_and_excuse, trumps(*range(1, 10)), "simple", 4)  # 9 cards
    # exactly the threshold, not more
    assert not poignee_is_legal(ten_and_excuse, trumps(*range(1, 11)) + ["EX"], "simple", 4)
    # shown cards must be held, and shown once
    assert not poignee_is_legal(nine_and_excuse, trumps(*range(1, 10)) + ["T15"], "simple", 4)
    assert not poignee_is_legal(ten_and_excuse, trumps(*range(1, 10)) + ["T9"], "simple", 4)
    # a smaller poignée than the largest may be shown
    thirteen = trumps(*range(1, 14))
    assert poignee_is_legal(thirteen, thirteen, "double", 4)
    assert poignee_is_legal(thirteen, thirteen[:10], "simple", 4)
    assert not poignee_is_legal(thirteen, thirteen, "triple", 4)
    assert poignee_is_legal(trumps(*range(1, 8)) + ["EX"], trumps(*range(1, 8)) + ["EX"], "simple", 5)


def test_ecart_is_legal():
    suit_cards = [f"{rank}H" for rank in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10")]
    hand = suit_cards + ["KS", "KH", "QS", "T1", "T21", "EX"] + trumps(*range(2, 10))  # 24
    assert len(hand) == 24
    assert ecart_is_legal(hand, ["1H", "2H", "3H", "4H", "5H", "QS"])
    assert not ecart_is_legal(hand, ["1H", "2H", "3H", "4H", "5H", "KS"])  # King
    assert not ecart_is_legal(hand, ["1H", "2H", "3H", "4H", "5H", "T1"])  # bout
    assert not ecart_is_legal(hand, ["1H", "2H", "3H", "4H", "5H", "EX"])  # bout
    assert not ecart_is_legal(hand, ["1H", "2H", "3H", "4H", "5H", "T2"])  # trump not needed
    assert not ecart_is_legal(hand, ["1H", "2H", "3H", "4H", "5H"])  # 5 cards
    assert not ecart_is_legal(hand, ["1H", "2H", "3H", "4H", "5H", "JD"])  # not held
    assert not ecart_is_legal(hand, ["1H", "2H", "3H", "4H", "5H", "5H"])  # twice

    # only 3 discardable suit cards (with Kings and bouts kept): exactly 3 trumps must go
    short = ["2C", "3C", "QC", "KS", "KH", "KD", "KC", "T1", "T21", "EX"] + trumps(*range(2, 16))
    assert len(short) == 24
    assert ecart_is_legal(short, ["2C", "3C", "QC", "T2", "T3", "T4"])
    assert not ecart_is_legal(short, ["2C", "3C", "T5", "T2", "T3", "T4"])
    assert not ecart_is_legal(short, ["2C", "3C", "QC", "T21", "T3", "T4"])

    # five players: 18 cards, écart of 3
    five = suit_cards[:8] + trumps(*range(2, 12))
    assert ecart_is_legal(five, ["1H", "2H", "3H"])
    assert not ecart_is_legal(five, ["1H", "2H", "3H", "4H", "5H", "6H"])
    assert ecart_is_legal(five, ["1H", "2H", "3H"], players=5)


def test_petit_sec():
    assert is_petit_sec(["T1", "KS", "2H"])
    assert not is_petit_sec(["T1", "EX", "2H"])
    assert not is_petit_sec(["T1", "T2", "2H"])
    assert not is_petit_sec(["T2", "2H"])


def test_callable_cards():
    kings = {f"K{s}" for s in "SHDC"}
    queens = {f"Q{s}" for s in "SHDC"}
    knights = {f"C{s}" for s in "SHDC"}
    assert callable_cards(["KS", "QH", "T5"]) == kings
    assert callable_cards(sorted(kings) + ["QH"]) == kings | queens
    assert callable_cards(sorted(kings | queens)) == kings | queens | knights


# ---------------------------------------------------------------------------------------------
# Traces
# ---------------------------------------------------------------------------------------------


def random_traces(count, players=4, seed=1234, **options):
    rng = random.Random(seed)
    return [
        play_random_deal(rng, dealer=index % players, players=players, deal=index, **options)
        for index in range(count)
    ]


TRACES = random_traces(300)


def played(traces):
    return [record for record in traces if record["tricks"]]


def test_check_trace_on_random_deals():
    for record in TRACES:
        check_trace(record)
        check_trace(json.loads(json.dumps(record)))  # as read back from a JSON trace
    kinds = {record["thrown_in"] or record["contract"] for record in TRACES}
    assert {"prise", "garde", "garde_sans", "garde_contre", "all_pass"} <= kinds
    assert any(record["poignees"] for record in TRACES)


@pytest.mark.parametrize("players", [3, 5])
def test_check_trace_other_table_sizes(players):
    traces = random_traces(60, players=players, seed=players)
    for record in traces:
        check_trace(record)
    assert played(traces)


def test_check_trace_announced_chelem():
    for record in played(random_traces(30, announce_chelem=True, seed=7)):
        assert record["tricks"][0]["leader"] == record["taker"]
        check_trace(record)
        wrong = copy.deepcopy(record)
        wrong["chelem_announced"] = False
        with pytest.raises(AssertionError):
            check_trace(wrong)


def test_check_trace_petit_sec():
    pack = list(ALL_CARDS)
    hands = [[], [], [], []]
    # Seat 2 holds T1 as its only trump and no Excuse.
    suit_cards = [card for card in pack if suit_of(card) in "SHDC"]
    hands[2] = ["T1"] + suit_cards[:17]
    rest = [card for card in pack if card not in hands[2]]
    for seat in (0, 1, 3):
        hands[seat], rest = rest[:18], rest[18:]
    record = play_deal(hands, rest, dealer=1)
    assert record["thrown_in"] == "petit_sec" and record["bids"] == []
    check_trace(record)
    wrong = copy.deepcopy(record)
    wrong["thrown_in"] = None
    with pytest.raises(AssertionError, match="Petit sec"):
        check_trace(wrong)


def chelem_exception_trace():
    """Garde contre by seat 1 with a chelem announced, won with the Excuse on the last trick
    and the Petit in the next-to-last trick."""
    taker_hand = trumps(1, *range(6, 22)) + ["EX"]
    suit_cards = [card for card in ALL_CARDS if suit_of(card) in "SHDC"]
    chien = suit_cards[:6]  # 1S..6S: 6 half points for the defence
    rest = suit_cards[6:]
    hands = [
        ["T5"] + rest[0:17],
        taker_hand,
        ["T2", "T3"] + rest[17:33],
        ["T4"] + rest[33:50],
    ]

    def choose(seat, legal, trick, rng):
        if seat != 1:
            return rng.choice(legal)
        high = [card for card in legal if is_trump(card) and card != "T1"]
        if high:
            return max(high, key=rank_of)
        return "T1" if "T1" in legal else "EX"

    return play_deal(
        hands,
        chien,
        dealer=3,
        rng=random.Random(5),
        bids=["pass", "garde_contre", "pass", "pass"],
        chelem_announced=True,
        choose=choose,
    )


def test_check_trace_chelem_exception():
    record = chelem_exception_trace()
    check_trace(record)
    assert record["tricks"][0]["leader"] == 1  # the taker leads, not seat 0
    assert record["tricks"][-1]["cards"][0] == "EX" and record["tricks"][-1]["winner"] == 1
    assert "T1" in record["tricks"][-2]["cards"]
    assert record["chelem"] == "attack" and record["petit_au_bout"] == "attack"
    assert record["attack_points"] == 88.0 and record["attack_bouts"] == 3
    assert record["poignees"] == [{"seat": 1, "size": "triple", "cards": trumps(1, *range(6, 20))}]
    # base (25 + 52) * 6, petit au bout 60, triple poignée 40, announced chelem 400
    assert record["scores"] == [-962, 2886, -962, -962]

    wrong = copy.deepcopy(record)
    wrong["tricks"][-1]["winner"] = 2  # the ordinary rule would give it to seat 2, 3 or 0
    with pytest.raises(AssertionError, match="trick 17"):
        check_trace(wrong)
    wrong = copy.deepcopy(record)
    wrong["tricks"][0]["leader"] = 0
    with pytest.raises(AssertionError, match="led by seat 1"):
        check_trace(wrong)


def corrupt_with_illegal_card(record):
    """Swap a card for an illegal one of the same player, played later instead."""
    record = copy.deepcopy(record)
    n = record["players"]
    tricks = record["tricks"]
    positions = {}  # card -> (trick, position)
    hands = [set() for _ in range(n)]
    for t, trick in enumerate(tricks):
        for p, card in enumerate(trick["cards"]):
            positions[card] = (t, p)
            hands[(trick["leader"] + p) % n].add(card)
    for trick in tricks:
        for p, card in enumerate(trick["cards"]):
            seat = (trick["leader"] + p) % n
            illegal = hands[seat] - legal_cards(hands[seat], trick["cards"][:p])
            if illegal:
                other = sort_cards(illegal)[0]
                t2, p2 = positions[other]
                trick["cards"][p] = other
                tricks[t2]["cards"][p2] = card
                return record
            hands[seat].discard(card)
    return None


def test_check_trace_rejects_corrupted_traces():
    records = played(TRACES)[:20]
    corrupted = 0
    for record in records:
        wrong = corrupt_with_illegal_card(record)
        if wrong is not None:
            corrupted += 1
            with pytest.raises(AssertionError, match="illegal card"):
                check_trace(wrong)
    assert corrupted >= 10

    record = records[0]
    wrong = copy.deepcopy(record)
    trick = wrong["tricks"][5]
    trick["winner"] = (trick["winner"] + 1) % 4
    with pytest.raises(AssertionError, match="trick 5 .* is won by seat"):
        check_trace(wrong)

    wrong = copy.deepcopy(record)
    taker = wrong["taker"]
    wrong["scores"][taker] += 1
    wrong["scores"][(taker + 1) % 4] -= 1
    with pytest.raises(AssertionError, match="scores are"):
        check_trace(wrong)

    wrong = copy.deepcopy(record)
    wrong["scores"][0] += 1
    with pytest.raises(AssertionError, match="zero-sum"):
        check_trace(wrong)


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("attack_points", lambda r: r["attack_points"] + 0.5, "attack_points"),
        ("attack_bouts", lambda r: (r["attack_bouts"] + 1) % 4, "attack_bouts"),
        ("made", lambda r: not r["made"], "made"),
        ("margin", lambda r: r["margin"] + 1, "margin"),
        ("petit_au_bout", lambda r: "defence" if r["petit_au_bout"] != "defence" else None, "petit_au_bout"),
        ("chelem", lambda r: "attack", "chelem"),
        ("taker", lambda r: (r["taker"] + 1) % 4, "taker"),
        ("dealer", lambda r: (r["dealer"] + 1) % 4, "highest bidder|led by seat"),
        ("contract", lambda r: "garde_contre" if r["contract"] != "garde_contre" else "prise", "contract"),
    ],
)
def test_check_trace_rejects_wrong_fields(field, value, message):
    record = played(TRACES)[1]
    wrong = copy.deepcopy(record)
    wrong[field] = value(record)
    with pytest.raises(AssertionError, match=message):
        check_trace(wrong)


def test_check_trace_rejects_bad_deal_bids_ecart_poignee():
    records = played(TRACES)
    record = records[0]

    wrong = copy.deepcopy(record)
    wrong["hands"][0][0] = wrong["hands"][1][0]
    with pytest.raises(AssertionError, match="more than once"):
        check_trace(wrong)

    wrong = copy.deepcopy(record)
    wrong["bids"] = ["garde", "prise", "pass", "pass"]
    with pytest.raises(AssertionError, match="not higher"):
        check_trace(wrong)

    wrong = copy.deepcopy(record)
    wrong["bids"] = ["pass"] * 4
    with pytest.raises(AssertionError, match="all_pass"):
        check_trace(wrong)

    with_ecart = next(r for r in records if r["contract"] in ("prise", "garde"))
    wrong = copy.deepcopy(with_ecart)
    king = next(card for card in wrong["hands"][wrong["taker"]] + wrong["chien"] if card.startswith("K"))
    wrong["ecart"][0] = king
    with pytest.raises(AssertionError, match="écart"):
        check_trace(wrong)

    with_poignee = next(r for r in records if r["poignees"])
    wrong = copy.deepcopy(with_poignee)
    wrong["poignees"][0]["cards"] = wrong["poignees"][0]["cards"][:-1]
    with pytest.raises(AssertionError, match="poignée"):
        check_trace(wrong)
    wrong = copy.deepcopy(with_poignee)
    wrong["poignees"][0]["seat"] = (wrong["poignees"][0]["seat"] + 1) % 4
    with pytest.raises(AssertionError, match="poignée"):
        check_trace(wrong)
    # dropping a poignée is legal (showing is optional) but changes the score
    wrong = copy.deepcopy(with_poignee)
    wrong["poignees"] = []
    with pytest.raises(AssertionError, match="scores are"):
        check_trace(wrong)


def test_check_trace_thrown_in():
    all_pass = next(r for r in TRACES if r["thrown_in"] == "all_pass")
    check_trace(all_pass)
    wrong = copy.deepcopy(all_pass)
    wrong["scores"] = [1, -1, 0, 0]
    with pytest.raises(AssertionError, match="scores 0"):
        check_trace(wrong)
