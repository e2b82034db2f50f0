"""The worlds a search player draws agree with every inference the rules allow.

``players.kernels.search.constraints`` is the one set of hidden-card constraints (``pimc``, the
``montecarlo`` bidder, OpenSpiel's resampling). Here the inferences are stated again in
plain Python from the public table only (the tricks, the poignées shown, the chien shown,
the écart's trumps, the called card), reading each trick card by card as
``tests/reference.py`` states the rules, and every world drawn at many positions of random
deals is checked against them. The ``table`` knowledge (``pimc`` before the rules'
inferences) draws worlds the rules exclude, which shows the check can fail.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from tarotsim.engine.cards import N_CARDS, card_names, from_mask, parse_cards, to_mask
from tarotsim.engine.kernels.bits import popcount
from tarotsim.engine.kernels.constants import KNOWLEDGE_RULES, KNOWLEDGE_TABLE
from tarotsim.engine.kernels.deal import is_petit_sec
from tarotsim.engine.kernels.score import GARDE, PRISE
from tarotsim.engine.kernels.state import (
    C_HAND,
    H_LEADER,
    I_CALLED,
    I_CHIEN_SHOWN,
    I_LEADER,
    I_TAKER,
    I_TRICK,
    I_TRICK_LEN,
    P_KNOWLEDGE,
    new_state,
    seat_slot,
)
from tarotsim.engine.kernels.steps import reset_table
from tarotsim.players.config import RunConfig
from tarotsim.players.kernels.machine import take_contract
from tarotsim.players.kernels.policies.codes import PLAY_HEURISTIC
from tarotsim.players.kernels.search.worlds import MAX_HOLDERS, draw_world, prepare_worlds
from tarotsim.players.strategy import Strategy
from tests import reference as ref
from tests.test_no_peeking import mid_deal_positions, play_to
from tests.test_worlds import WS, constraints, rng_state, world_hands_of

NAMES = card_names()
WORLDS = 12


def _names(word0: int, word1: int) -> set[str]:
    return {NAMES[c] for c in from_mask(int(word0), int(word1))}


def public_tricks(tb, players: int) -> list[tuple[int, list[str]]]:
    """The tricks on the table, the one in play last: (leader, cards in play order)."""
    tricks = [
        (int(tb.history[t, H_LEADER]), [NAMES[int(c)] for c in tb.history[t, :players]])
        for t in range(int(tb.info[I_TRICK]))
    ]
    tricks.append((int(tb.info[I_LEADER]), [NAMES[int(c)] for c in tb.trick[: int(tb.info[I_TRICK_LEN])]]))
    return tricks


def rule_inferences(tb, players: int) -> tuple[dict[int, set[str]], dict[int, set[str]], Counter]:
    """What the public table shows of every seat's hand now, by the rules (docs/rules.md):
    per seat, the cards it cannot hold and the cards it must hold; and how many times each
    kind of inference was made."""
    cannot: dict[int, set[str]] = {s: set() for s in range(players)}
    must: dict[int, set[str]] = {s: set() for s in range(players)}
    made: Counter = Counter()
    trumps = {card for card in ref.ALL_CARDS if ref.is_trump(card)}
    played = set()
    for leader, cards in public_tricks(tb, players):
        for j, card in enumerate(cards):
            seat = (leader + j) % players
            before = cards[:j]
            played.add(card)
            for suit in ref.revealed_voids(before, card):  # §6: follow suit, else trump
                cannot[seat] |= {c for c in ref.ALL_CARDS if ref.suit_of(c) == suit}
                made["void"] += 1
            highest = max((ref.rank_of(c) for c in before if ref.is_trump(c)), default=0)
            if ref.is_trump(card) and ref.rank_of(card) < highest:  # §6: beat the highest trump if able
                cannot[seat] |= {t for t in trumps if ref.rank_of(t) > highest}
                made["under-trump"] += 1
    for seat in range(players):
        shown = _names(*tb.shown[seat])
        if not shown:
            continue
        made["poignée"] += 1
        must[seat] |= shown - played
        # the game shows the lowest trumps but the Petit, the Petit only when the others fall
        # short, the Excuse only when the trumps do (and then every trump)
        if ref.EXCUSE in shown or ref.PETIT in shown:
            cannot[seat] |= trumps - shown
        else:
            top = max(ref.rank_of(t) for t in shown)
            cannot[seat] |= {t for t in trumps - shown if 1 < ref.rank_of(t) < top}
    taker = int(tb.info[I_TAKER])
    if tb.info[I_CHIEN_SHOWN]:
        chien = _names(*tb.chien)
        for seat in range(players):
            if seat != taker:  # §4: the chien goes to the taker, then to its hand or the écart
                cannot[seat] |= chien
        if _names(0, int(tb.ecart[1])) - {ref.EXCUSE}:  # §4: trumps only when nothing else can go
            cannot[taker] |= {c for c in ref.ALL_CARDS if ref.suit_of(c) in ref.SUITS and not ref.is_king(c)}
            made["écart's trumps"] += 1
    called = int(tb.info[I_CALLED])
    if called >= 0 and not ref.is_king(NAMES[called]):  # §3: a lower rank only with all those above
        above = {
            c
            for c in ref.ALL_CARDS
            if ref.suit_of(c) in ref.SUITS and ref.rank_of(c) > ref.rank_of(NAMES[called])
        }
        for seat in range(players):
            if seat != taker:
                cannot[seat] |= above
        made["lower rank called"] += 1
    return cannot, must, made


def broken_inferences(tb, cfg, seat: int, players: int, worlds: int, seed: int) -> tuple[int, Counter]:
    """(worlds drawn for ``seat`` as ``pimc`` draws them that break an inference, inferences made)."""
    cannot, must, made = rule_inferences(tb, players)
    n, unseen, sizes, allowed, holder_seat, _ = constraints(tb, cfg, seat)
    assert prepare_worlds(allowed, sizes, n, unseen, WS) >= 1.0
    state = rng_state(seed)
    out = np.zeros((MAX_HOLDERS, 2), dtype=np.uint64)
    hands = np.zeros((players, 2), dtype=np.uint64)
    attack = np.zeros(players, dtype=np.int64)
    broken = 0
    for _ in range(worlds):
        draw_world(state, WS, out)
        world_hands_of(tb, seat, out, holder_seat, n, hands, attack)
        for other in range(players):
            hand = _names(*hands[other])
            if hand & cannot[other] or not must[other] <= hand:
                broken += 1
                break
    return broken, made


def _positions(players: int, count: int):
    return mid_deal_positions(count, seed=700 + players, players=players)


def arranged_positions(players: int, taker_cards: list[str], count: int, seed: int):
    """(table, seat to play) at random points of deals where the taker, at a Prise or a
    Garde, was dealt ``taker_cards`` and the rest at random; heuristic play."""
    rng = random.Random(seed)
    cfg = RunConfig(players=players, policy="heuristic", ecart_policy="expert").to_array()
    hand_size = int(cfg[C_HAND])
    given = set(parse_cards(taker_cards))
    made = 0
    while made < count:
        rest = [c for c in range(N_CARDS) if c not in given]
        rng.shuffle(rest)
        taker = rng.randrange(players)
        hands = []
        for seat in range(players):
            if seat == taker:
                hands.append(given | set(rest[: hand_size - len(given)]))
                rest = rest[hand_size - len(given) :]
            else:
                hands.append(set(rest[:hand_size]))
                rest = rest[hand_size:]
        if any(is_petit_sec(to_mask(sorted(h))[1]) for h in hands):
            continue
        tb = new_state()
        for seat, hand in enumerate(hands):
            tb.dealt[seat] = to_mask(sorted(hand))
        tb.chien[:] = to_mask(sorted(rest))
        tb.rng[:] = np.array([rng.getrandbits(64) | 1 for _ in range(4)], dtype=np.uint64)
        reset_table(tb, players, rng.randrange(players))
        take_contract(tb, cfg, taker, rng.choice([PRISE, GARDE]))
        stop = (rng.randrange(hand_size - 1), rng.randrange(players))
        seat, legal0, legal1 = play_to(tb, cfg, *stop, (PLAY_HEURISTIC, PLAY_HEURISTIC))
        if popcount(legal0) + popcount(legal1) >= 2 and seat != taker:
            made += 1
            yield tb, seat


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_world_drawn_agrees_with_every_inference_of_the_rules(players: int) -> None:
    cfg = RunConfig(players=players).to_array()
    made: Counter = Counter()
    for i, (tb, seat, _legal0, _legal1) in enumerate(_positions(players, 150)):
        cannot, must, _ = rule_inferences(tb, players)
        for other in range(players):  # the true deal agrees with the inferences
            hand = _names(*tb.hands[other])
            assert cannot[other].isdisjoint(hand) and must[other] <= hand, (i, other)
        broken, kinds = broken_inferences(tb, cfg, seat, players, WORLDS, seed=i)
        assert broken == 0, (i, seat, dict(kinds))
        made += kinds
    assert made["under-trump"] > 0 and made["void"] > 0 and made["poignée"] > 0, made


@pytest.mark.parametrize(
    ("players", "taker_cards", "kind"),
    [
        # 4 Kings, 14 trumps but the bouts: the écart takes trumps whenever the chien holds one
        (4, "KS KH KD KC " + " ".join(f"T{t}" for t in range(2, 16)), "écart's trumps"),
        (5, "KS KH KD KC", "lower rank called"),  # every King: a Queen is called
    ],
)
def test_worlds_agree_with_the_ecart_and_the_call(players: int, taker_cards: str, kind: str) -> None:
    """The rarer inferences, on deals arranged to make them: the écart's trumps, the call."""
    cfg = RunConfig(players=players).to_array()
    made: Counter = Counter()
    for i, (tb, seat) in enumerate(arranged_positions(players, taker_cards.split(), 40, seed=players)):
        broken, kinds = broken_inferences(tb, cfg, seat, players, WORLDS, seed=i)
        assert broken == 0, (i, seat, dict(kinds))
        made += kinds
    assert made[kind] > 10, made


def test_the_table_knowledge_draws_worlds_the_rules_exclude() -> None:
    """``knowledge=table`` (pimc before the rules' inferences) fails the check above."""
    players = 4
    cfg = RunConfig(players=players).to_array()
    broken = 0
    for i, (tb, seat, _legal0, _legal1) in enumerate(_positions(players, 150)):
        table = cfg.copy()
        table[seat_slot(seat, P_KNOWLEDGE)] = KNOWLEDGE_TABLE
        broken += broken_inferences(tb, table, seat, players, WORLDS, seed=i)[0]
    assert broken > 0


def test_the_knowledge_option_picks_the_constraints_of_each_seat() -> None:
    """``knowledge`` (``pimc``): ``rules`` by default, ``table`` for pimc as it was; both may
    sit at one table; a wrong value is refused in one line."""
    assert Strategy.parse("play=pimc").knowledge == "rules"
    assert str(Strategy.parse("play=pimc,knowledge=table")) == "play=pimc,knowledge=table"
    cfg = RunConfig(players=4, strategies=["play=pimc,knowledge=table", "play=pimc"] * 2).to_array()
    assert [int(cfg[seat_slot(s, P_KNOWLEDGE)]) for s in range(4)] == [KNOWLEDGE_TABLE, KNOWLEDGE_RULES] * 2
    with pytest.raises(ValueError, match="^unknown knowledge 'all'; valid names: rules, table$"):
        Strategy.parse("play=pimc,knowledge=all")
    with pytest.raises(TypeError, match="^knowledge must be a name"):
        Strategy(play="pimc", knowledge=1)
