"""The ``heuristic`` card play: legal on many whole deals, and its named steps on hand-made positions."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from tarotsim._jit import njit
from tarotsim.engine.cards import format_card, from_mask, parse_cards, to_mask
from tarotsim.engine.kernels.rules import legal_set
from tarotsim.engine.kernels.score import GARDE, GARDE_SANS, POIGNEE_NONE, POIGNEE_SIMPLE, PRISE
from tarotsim.engine.kernels.state import (
    I_CALLED,
    I_CHELEM_ANNOUNCED,
    I_CHIEN_SHOWN,
    I_CONTRACT,
    I_HI_TRUMP,
    I_LED,
    I_PARTNER,
    I_PLAYERS,
    I_TAKER,
    I_TRICK_LEN,
    I_TRICKS_WON_BY,
    I_VOIDS,
    P_POIGNEE_POLICY,
    VOID_SHIFT,
    WON_BY_ATTACK,
    DealState,
    new_state,
    seat_slot,
)
from tarotsim.engine.kernels.steps import poignee_cards, put_card, start_trick
from tarotsim.engine.kernels.view import seat_view
from tarotsim.players.config import RunConfig
from tarotsim.players.kernels.policies.codes import PLAY_BASIC, PLAY_HEURISTIC
from tarotsim.players.kernels.policies.ecart import expert_ecart
from tarotsim.players.kernels.policies.knowledge import Reading, read_view

sys.path.insert(0, str(Path(__file__).parent))
import reference  # noqa: E402

from tests.test_no_peeking import card_of, poignee_of  # noqa: E402

CFG = RunConfig(policy="heuristic").to_array()
SUITS = "SHDCT"


def position(
    *,
    hand: str,
    seat: int,
    taker: int,
    leader: int,
    trick: str = "",
    played: str = "",
    contract: int = PRISE,
    voids: dict[int, str] | None = None,
    ecart: str = "",
    trick_no: int = 5,
    chelem: bool = False,
    won_by: int = 0,
) -> DealState:
    """A 4-player table where ``seat`` must play ``trick``'s next card from ``hand``.

    ``played`` lists the cards of earlier tricks; the trick's cards are added to it. Cards
    in no list are "out" (in the other hands). ``voids`` maps seats to the suits (S, H, D,
    C, or T for trumps) they showed they lack.
    """
    tb = new_state()
    tb.info[I_PLAYERS] = 4
    tb.info[I_PARTNER] = -1
    tb.info[I_CALLED] = -1
    tb.info[I_TAKER] = taker
    tb.info[I_CONTRACT] = contract
    tb.info[I_CHIEN_SHOWN] = int(contract <= GARDE)
    tb.info[I_CHELEM_ANNOUNCED] = int(chelem)
    tb.info[I_TRICKS_WON_BY] = won_by
    tb.attack[taker] = 1
    tb.hands[seat] = to_mask(parse_cards(hand))
    trick_cards = parse_cards(trick)
    assert (leader + len(trick_cards)) % 4 == seat, "the seat to play follows the trick's cards"
    tb.played[:] = to_mask(parse_cards(played))
    if ecart:
        tb.ecart[:] = to_mask(parse_cards(ecart))
    for s, suits in (voids or {}).items():
        for suit in suits:
            tb.info[I_VOIDS] |= 1 << (VOID_SHIFT * SUITS.index(suit) + s)
    start_trick(tb.info, leader, trick_no)
    for j, card in enumerate(trick_cards):  # played by the game's step, as in a deal
        s = (leader + j) % 4
        tb.hands[s] |= to_mask([card])
        put_card(tb, s, card)
    return tb


def play(tb: DealState, seat: int, policy: int = PLAY_HEURISTIC) -> str:
    """The heuristic's (or ``policy``'s) card for ``seat`` (checked legal by the reference rules)."""
    legal0, legal1 = legal_set(tb.hands[seat, 0], tb.hands[seat, 1], tb.info[I_LED], tb.info[I_HI_TRUMP])
    card = format_card(int(card_of(policy, tb, seat, np.uint64(legal0), np.uint64(legal1), CFG)))
    hand = reference.sort_cards(format_card(c) for c in _cards(tb.hands[seat]))
    trick = [format_card(int(tb.trick[j])) for j in range(int(tb.info[I_TRICK_LEN]))]
    assert card in reference.legal_cards(hand, trick)
    return card


def _cards(words: np.ndarray) -> list[int]:
    return from_mask(words[0], words[1])


# ---------------------------------------------------------------------------------------------
# hand-made positions, one per rule
# ---------------------------------------------------------------------------------------------


def test_defender_charges_a_king_on_partners_sure_trick() -> None:
    # taker 0 led 3S, defender 1 trumped; defender 2 gives its King, only its partner plays after
    tb = position(hand="KS 5S 2H 3H T4 T6", seat=2, taker=0, leader=0, trick="3S T10")
    assert play(tb, 2) == "KS"


def test_defender_does_not_charge_when_the_taker_plays_after() -> None:
    # partner 1 leads 4S, which the taker (0, after us) may beat: keep the Queen, play low
    tb = position(hand="QS 5S 2H 3H T4", seat=2, taker=0, leader=1, trick="4S")
    assert play(tb, 2) == "5S"


def test_taker_draws_trumps_with_a_long_holding() -> None:
    hand = "T21 T19 T18 T15 T14 T12 T11 T9 T8 T7 T5 T3 4H 6H 2C"
    tb = position(hand=hand, seat=0, taker=0, leader=0, trick_no=2)
    assert play(tb, 0) == "T21"
    # short in trumps (5 against 16 out) it keeps its master and leads its long suit low
    tb = position(hand="T21 T15 T12 T9 T5 4H 6H 7H 2C", seat=0, taker=0, leader=0, trick_no=2)
    assert play(tb, 0) == "4H"


def test_taker_cashes_a_king_when_the_suit_is_fresh() -> None:
    tb = position(hand="KH 2H 3D 4D 5C T2 T4", seat=0, taker=0, leader=0, trick_no=1)
    assert play(tb, 0) == "KH"


def test_taker_does_not_lead_a_king_into_a_known_void() -> None:
    tb = position(hand="KH 2H 3D 4D 5C T2 T4", seat=0, taker=0, leader=0, trick_no=4, voids={2: "H"})
    assert play(tb, 0) != "KH"


@pytest.mark.parametrize("trick", ["", "KH"])
def test_nobody_keeps_the_excuse_for_the_last_trick(trick: str) -> None:
    leader = 1 if trick else 2
    tb = position(hand="EX 5H", seat=2, taker=0, leader=leader, trick=trick, trick_no=16)
    assert play(tb, 2) == "EX"
    tb = position(hand="EX 5H", seat=0, taker=0, leader=0, trick_no=16)
    assert play(tb, 0) == "EX"


def test_excuse_saves_the_petit_from_a_lost_trick() -> None:
    # trumps led above the taker's only trump, the Petit: the Excuse goes instead
    tb = position(hand="T1 EX 4D 5D", seat=2, taker=2, leader=1, trick="T15")
    assert play(tb, 2) == "EX"


def test_chelem_keeps_the_excuse_for_the_last_trick() -> None:
    tb = position(hand="EX T21", seat=0, taker=0, leader=0, trick_no=16, chelem=True, won_by=WON_BY_ATTACK)
    assert play(tb, 0) == "T21"
    # once the defence has won a trick the chelem is gone: the Excuse is played before the end
    tb = position(hand="EX T21", seat=0, taker=0, leader=0, trick_no=16, chelem=True, won_by=3)
    assert play(tb, 0) == "EX"


def test_chelem_lead_is_the_master_trump() -> None:
    hand = "T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 KS QS KH QH KD KC EX"
    tb = position(hand=hand, seat=0, taker=0, leader=0, trick_no=0, contract=GARDE_SANS, chelem=True)
    assert play(tb, 0) == "T21"


def test_defender_underplays_under_the_takers_winning_card() -> None:
    tb = position(hand="CH 2H 9H T5", seat=1, taker=0, leader=0, trick="KH")
    assert play(tb, 1) == "2H"


def test_defender_takes_the_takers_petit() -> None:
    # defender 1 led clubs, the taker (2) had to play the Petit; defender 3 overtrumps
    tb = position(hand="T5 T12 3H", seat=3, taker=2, leader=1, trick="5C T1")
    assert play(tb, 3) == "T5"


def test_taker_keeps_the_petit_when_it_cannot_win() -> None:
    tb = position(hand="T1 T3 T8 4D", seat=2, taker=2, leader=1, trick="T15")
    assert play(tb, 2) == "T3"


def test_taker_brings_the_petit_home_when_it_wins_for_sure() -> None:
    # last to play, void in hearts, no trump in the trick: the Petit wins the trick
    tb = position(hand="T1 T9 KS", seat=0, taker=0, leader=1, trick="5H 7H 9H")
    assert play(tb, 0) == "T1"


def test_taker_keeps_the_petit_for_the_last_trick() -> None:
    # every other trump is gone: the Petit is master and waits for the last trick
    played = " ".join(f"T{t}" for t in range(2, 22))
    tb = position(hand="T1 4D", seat=0, taker=0, leader=0, trick_no=16, played=played)
    assert play(tb, 0) == "4D"


def test_defender_leads_the_suit_the_taker_trumps() -> None:
    tb = position(hand="4D 9D QH 3H 2S", seat=1, taker=0, leader=1, voids={0: "D"})
    assert play(tb, 1) == "4D"


def test_defender_keeps_its_king_guarded_when_discarding() -> None:
    # void in clubs and trumps: throw a small heart, not the King's guard
    tb = position(hand="KS 3S 4H 9H 8H 2D", seat=2, taker=1, leader=1, trick="5C", voids={2: "CT"})
    assert play(tb, 2) not in ("KS", "3S")


# ---------------------------------------------------------------------------------------------
# what the heuristic knows and basic does not (issue 13)
# ---------------------------------------------------------------------------------------------


@njit
def _read(
    tb: DealState, seat: int, legal0: np.uint64, legal1: np.uint64, cfg: np.ndarray, informed: bool
) -> Reading:
    return read_view(seat_view(tb, seat), legal0, legal1, cfg, informed)


def _view(tb: DealState, seat: int, *, informed: bool = True) -> Reading:
    legal0, legal1 = legal_set(tb.hands[seat, 0], tb.hands[seat, 1], tb.info[I_LED], tb.info[I_HI_TRUMP])
    return _read(tb, seat, np.uint64(legal0), np.uint64(legal1), CFG, informed)


def _set(cards: str) -> tuple[int, int]:
    word0, word1 = to_mask(parse_cards(cards))
    return int(word0), int(word1)


def _holds(words: tuple[np.uint64, np.uint64], cards: str) -> bool:
    want0, want1 = _set(cards)
    return (int(words[0]) & want0) == want0 and (int(words[1]) & want1) == want1


def _misses(words: tuple[np.uint64, np.uint64], cards: str) -> bool:
    want0, want1 = _set(cards)
    return not (int(words[0]) & want0) and not (int(words[1]) & want1)


def test_defender_at_garde_places_the_shown_chien_with_the_taker() -> None:
    # Garde: the chien KH T20 3S 5C 7D 8D went to the taker (seat 0), who has led this trick.
    # The defenders still to play may not hold those cards: no threat to defender 1's card;
    # they are still a foe's (the taker's) for later tricks.
    tb = position(hand="QH 2H 4S T3 T9", seat=1, taker=0, leader=0, trick="4H", contract=GARDE)
    tb.chien[:] = to_mask(parse_cards("KH T20 3S 5C 7D 8D"))
    v = _view(tb, 1)
    assert _misses((v.threat0, v.threat1), "KH T20 3S 5C 7D 8D")
    assert _holds((v.out0, v.out1), "KH T20 3S 5C 7D 8D")
    old = _view(tb, 1, informed=False)
    assert _holds((old.threat0, old.threat1), "KH T20 3S 5C 7D 8D")
    assert _holds((old.out0, old.out1), "KH T20 3S 5C 7D 8D")


def test_the_chien_of_a_garde_sans_stays_unknown() -> None:
    tb = position(hand="QH 2H 4S T3 T9", seat=1, taker=0, leader=0, trick="4H", contract=GARDE_SANS)
    tb.chien[:] = to_mask(parse_cards("KH T20 3S 5C 7D 8D"))
    v = _view(tb, 1)
    assert _holds((v.threat0, v.threat1), "KH T20 3S 5C 7D 8D")


def test_taker_counts_a_poignee_shown_by_a_defender_that_has_played() -> None:
    # Defender 3 showed T16-T21 in its poignée and followed with QH; defender 1 plays after the
    # taker. The heuristic knows T15 is above every trump defender 1 may hold: it takes the
    # Queen and King for sure with T15; basic fears T16-T21 there and plays its lowest trump.
    tb = position(
        hand="T12 T15 5C 6C 2S", seat=0, taker=0, leader=2, trick="KH QH", voids={0: "H"}, played="T1 T2"
    )
    tb.shown[3, 1] = to_mask(parse_cards("T4 T5 T6 T7 T16 T17 T18 T19 T20 T21"))[1]
    assert play(tb, 0) == "T15"
    assert play(tb, 0, PLAY_BASIC) == "T12"


def test_a_poignee_with_the_excuse_shows_every_trump() -> None:
    # defender 2 showed nine trumps and the Excuse: once those nine are played it holds no trump
    shown = "T2 T3 T4 T5 T6 T7 T8 T9 T10 EX"
    tb = position(hand="KS 5S 2H T11", seat=0, taker=0, leader=0, played="T2 T3 T4 T5 T6 T7 T8 T9 T10")
    tb.shown[2, 1] = to_mask(parse_cards(shown))[1]
    v = _view(tb, 0)
    assert v.voids >> (VOID_SHIFT * 4 + 2) & 1
    assert not _view(tb, 0, informed=False).voids >> (VOID_SHIFT * 4 + 2) & 1
    tb.played[:] = to_mask(parse_cards("T2 T3 T4 T5 T6 T7 T8"))  # two of them still in its hand
    assert not _view(tb, 0).voids >> (VOID_SHIFT * 4 + 2) & 1


def test_defender_leads_its_king_on_the_first_round_of_a_suit() -> None:
    # hearts never played: 12 hearts out, the taker has shown no void there
    tb = position(hand="KH 4H 9D 3D 2S T5", seat=1, taker=0, leader=1)
    assert play(tb, 1) == "KH"
    assert play(tb, 1, PLAY_BASIC) != "KH"
    tb.played[:] = to_mask(parse_cards("1H 2H 3H 5H"))  # a round of hearts gone: keep the King
    assert play(tb, 1) != "KH"


def test_defender_keeps_its_king_when_the_taker_is_void() -> None:
    tb = position(hand="KH 4H 9D 3D 2S T5", seat=1, taker=0, leader=1, voids={0: "H"})
    assert play(tb, 1) == "4H"  # lead_taker_void: make the taker trump, the King stays


def test_heuristic_leaves_the_random_stream_alone() -> None:
    tb = position(hand="KS 5S 2H 3H T4 T6", seat=2, taker=0, leader=0, trick="3S T10")
    tb.rng[:] = [1, 2, 3, 4]
    play(tb, 2)
    assert list(tb.rng) == [1, 2, 3, 4]


# ---------------------------------------------------------------------------------------------
# whole deals: every card legal by the reference rules, the Excuse never wasted
# ---------------------------------------------------------------------------------------------


def _traces(deals: int, seed: int, config: RunConfig) -> list[dict]:
    from tarotsim.runs.trace import trace_records

    return trace_records(deals, seed, config)


@pytest.mark.parametrize(
    ("deals", "config"),
    [
        (
            4_000,
            RunConfig(
                policy="heuristic",
                ecart_policy="expert",
                poignee_policy="smart",
                chelem_policy="overwhelming",
                chelem_threshold=80,
            ),
        ),
        (1_500, RunConfig(attack_policy="heuristic", defence_policy="random", ecart_policy="simple")),
        (1_500, RunConfig(attack_policy="random", defence_policy="heuristic", poignee_policy="always")),
        (1_000, RunConfig(players=3, policy="heuristic", ecart_policy="expert", poignee_policy="smart")),
        (1_000, RunConfig(players=5, policy="heuristic", ecart_policy="expert", poignee_policy="smart")),
    ],
    ids=["heuristic", "heuristic-attack", "heuristic-defence", "3-players", "5-players"],
)
def test_heuristic_deals_are_legal(deals: int, config: RunConfig) -> None:
    records = _traces(deals, 20240611, config)
    assert len(records) == deals
    played = announced = 0
    for record in records:
        reference.check_trace(record)
        if record["thrown_in"]:
            continue
        played += 1
        announced += bool(record["chelem_announced"])
        tricks = record["tricks"]
        attack = {record["taker"]} | ({record["partner"]} if record["partner"] is not None else set())
        last = tricks[-1]
        if "EX" in last["cards"]:
            owner = (last["leader"] + last["cards"].index("EX")) % record["players"]
            owner_attacks = owner in attack
            side_play = (config.attack_policy if owner_attacks else config.defence_policy) or config.policy
            won_all = all((t["winner"] in attack) == owner_attacks for t in tricks[:-1])
            assert won_all or side_play != "heuristic", (
                f"deal {record['deal']}: the Excuse was kept for the last trick"
            )
        if record["chelem_announced"]:
            assert tricks[0]["leader"] == record["taker"]
    assert played > deals // 2
    if config.chelem_policy == "overwhelming":
        assert announced > 0


# ---------------------------------------------------------------------------------------------
# the expert écart and the smart poignée
# ---------------------------------------------------------------------------------------------


def _expert_ecart(cards: str) -> set[str]:
    w0, w1 = to_mask(parse_cards(cards))
    assert len(parse_cards(cards)) == 24
    e0, e1 = expert_ecart(w0, w1, 6)
    ecart = {format_card(c) for c in from_mask(e0, e1)}
    assert len(ecart) == 6
    assert reference.ecart_is_legal(
        reference.sort_cards(cards.split()), reference.sort_cards(ecart), players=4
    )
    return ecart


def test_expert_ecart_voids_the_short_suits_without_a_king() -> None:
    hand = "2S 5S QH 3H 4H KD 2D 3D 4D KC QC 5C T1 T21 EX T5 T6 T7 T8 T9 T10 T11 T12 T13"
    ecart = _expert_ecart(hand)
    assert {"2S", "5S", "QH", "3H", "4H"} <= ecart  # spades and hearts gone: two voids
    assert not ecart & {"KD", "KC", "T1", "T21", "EX"}


def test_expert_ecart_banks_the_honours_of_a_suit_it_cannot_keep() -> None:
    # no short suit fits whole: the Queen and Knight of the kingless diamonds go first
    hand = "KS 2S 3S 4S 5S 6S KH 2H 3H 4H 5H QD CD 2D 3D 4D 5D 6D T2 T3 T4 T5 T6 T7"
    ecart = _expert_ecart(hand)
    assert {"QD", "CD"} <= ecart
    assert not ecart & {"KS", "KH"}


def test_expert_ecart_discards_trumps_only_when_forced() -> None:
    hand = "KS KH KD KC 2S " + " ".join(f"T{t}" for t in range(1, 19)) + " EX"
    assert _expert_ecart(hand) == {"2S", "T2", "T3", "T4", "T5", "T6"}


def _poignee(hand: str, *, seat: int, taker: int, contract: int) -> int:
    tb = position(hand=hand, seat=seat, taker=taker, leader=seat, trick_no=0, contract=contract)
    cfg = RunConfig(poignee_policy="smart").to_array()
    return int(poignee_of(cfg[seat_slot(seat, P_POIGNEE_POLICY)], tb, seat, cfg))


def test_smart_poignee() -> None:
    ten = "T2 T3 T4 T5 T6 T7 T8 T9 T10 T11"
    weak = f"{ten} 2S 3S 4S 2H 3H 2D 3D 2C"  # count 2 * 10 = 20
    strong = f"{ten} T21 KS QS KH QH KD 3D"  # count 22 + 10 + 2 + 10 + 10 + 6 = 60
    assert _poignee(strong, seat=1, taker=1, contract=PRISE) == POIGNEE_SIMPLE
    assert _poignee(weak, seat=1, taker=1, contract=PRISE) == POIGNEE_NONE
    assert _poignee(weak, seat=2, taker=1, contract=PRISE) == POIGNEE_SIMPLE
    assert _poignee(weak, seat=2, taker=1, contract=GARDE) == POIGNEE_NONE
    assert _poignee(strong, seat=2, taker=1, contract=GARDE) == POIGNEE_SIMPLE


def test_poignee_shows_the_lowest_trumps_but_the_petit() -> None:
    w1 = to_mask(parse_cards("T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T20"))[1]
    shown = {format_card(c) for c in from_mask(np.uint64(0), poignee_cards(w1, POIGNEE_SIMPLE, 4))}
    assert shown == {f"T{t}" for t in range(2, 12)}
    w1 = to_mask(parse_cards("T1 T2 T3 T4 T5 T6 T7 T8 T9 T10"))[1]
    shown = {format_card(c) for c in from_mask(np.uint64(0), poignee_cards(w1, POIGNEE_SIMPLE, 4))}
    assert "T1" in shown and len(shown) == 10
