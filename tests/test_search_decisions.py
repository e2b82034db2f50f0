"""The searched call, écart, chelem and poignée (``players.kernels.search.decisions``): legal choices,
blind to the cards the seat cannot see, the issue's chelem hand announced, complete games."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tarotsim.engine.cards import (
    BOUTS_MASK_1,
    EXCUSE,
    KING,
    KINGS_MASK,
    N_SUIT_CARDS,
    PETIT,
    SUIT_LEN,
    TRUMP_21,
    to_mask,
)
from tarotsim.engine.kernels.bits import popcount
from tarotsim.engine.kernels.score import GARDE, GARDE_CONTRE, GARDE_SANS, PRISE
from tarotsim.engine.kernels.state import (
    I_LEADER,
    PH_CALL,
    PH_CHELEM,
    PH_ECART,
    PH_POIGNEE,
    Q_PHASE,
    Q_SEAT,
    DealState,
    new_state,
)
from tarotsim.engine.kernels.steps import reset_table
from tarotsim.engine.labels import TABLE_SIZES
from tarotsim.interfaces.testing import copy_table, redistribute
from tarotsim.players import policies
from tarotsim.players.config import RunConfig
from tarotsim.players.kernels.machine import (
    EVERY_SEAT,
    apply,
    lay_whole_ecart,
    play_tricks,
    run,
    take_contract,
)
from tarotsim.players.kernels.policies.call import called_card
from tarotsim.players.kernels.policies.dispatch import PLAIN, check_policies
from tarotsim.players.kernels.policies.ecart import expert_ecart
from tarotsim.players.kernels.search.decisions import (
    T_CALL,
    T_CHELEM,
    T_ECART,
    T_POIGNEE,
    decide_searched,
    ecart_candidates,
)
from tarotsim.players.kernels.search.scratch import MAX_CHOICES, new_search_scratch, note_deal
from tarotsim.players.strategy import Strategy
from tarotsim.runs.trace import trace_records
from tests import reference as ref
from tests.test_montecarlo_bidder import random_deal
from tests.test_no_peeking import view_of

KEY = np.array([5, 6, 7, 8], dtype=np.uint64)
SC = new_search_scratch(True)
"""One full scratch that every decision of these tests shares (it holds no state of a deal)."""


def fast(*decisions: str) -> str:
    """The spec searching ``decisions`` with 4 worlds each."""
    return ",".join(f"{d}=search,{d}_worlds=4" for d in decisions)


def config(spec: str, players: int = 4) -> np.ndarray:
    return RunConfig(players=players, strategies=[spec] * players).to_array()


def decide(stage: int, tb: DealState, seat: int, cfg: np.ndarray) -> tuple[int, int]:
    """The searched decision ``stage`` (``T_CALL``, ``T_ECART``, ``T_CHELEM``, ``T_POIGNEE``)
    of ``seat``, asked by the kernel the game asks it with (``decisions.decide_searched``,
    with the seat's view of ``tb``, ``view_of``), so that no test compiles the searches again.
    Returns the card called, the écart's two words, 1 to announce, 1 to show the largest
    poignée the hand allows (0: none)."""
    best = decide_searched(view_of(tb, seat), cfg, SC, stage)
    if stage == T_CALL:
        return int(SC.candidate[best]), 0
    if stage == T_ECART:
        return int(SC.choices[best, 0]), int(SC.choices[best, 1])
    return best, 0


def taken(
    rng: random.Random,
    cfg: np.ndarray,
    players: int,
    contract: int,
    keep: set[int] | None = None,
    taker: int | None = None,
    dealer: int | None = None,
) -> tuple[DealState, int, int]:
    """A dealt table (``keep``: seat 0's hand) whose taker (seat 0 with ``keep``, unless given)
    took ``contract``, up to the first searching decision ``players.kernels.machine.take_contract`` stops at;
    returns the table, the taker and the decision's stage (-1: the first trick has begun)."""
    hands, chien = random_deal(rng, players, keep=keep, seat=0)
    tb = new_state()
    for seat in range(players):
        tb.dealt[seat] = to_mask(sorted(hands[seat]))
    tb.chien[:] = to_mask(sorted(chien))
    tb.rng[:] = np.array([rng.getrandbits(64) | 1 for _ in range(4)], dtype=np.uint64)
    reset_table(tb, players, rng.randrange(players) if dealer is None else dealer)
    if taker is None:
        taker = 0 if keep is not None else rng.randrange(players)
    return tb, taker, _stage(tb, take_contract(tb, cfg, taker, contract))


STAGES = {PH_CALL: T_CALL, PH_ECART: T_ECART, PH_CHELEM: T_CHELEM}


def _stage(tb: DealState, begun: bool) -> int:
    """The stage of the searching decision the machine stands at (-1: the play has begun)."""
    return -1 if begun else STAGES[int(tb.pos[Q_PHASE])]


def test_the_searching_codes_hand_back_their_decisions_and_need_the_scratch() -> None:
    rng = random.Random(3)
    assert taken(rng, config(fast("ecart")), 4, GARDE)[2] == T_ECART
    assert taken(rng, config(fast("ecart")), 4, GARDE_SANS)[2] == -1  # no écart to make
    assert taken(rng, config(fast("chelem")), 4, GARDE_SANS)[2] == T_CHELEM
    assert taken(rng, config(fast("call"), 5), 5, PRISE)[2] == T_CALL
    assert taken(rng, config(fast("call")), 4, PRISE)[2] == -1  # no call at four
    for spec in ("call=search", "ecart=search", "poignee=search", "chelem=search"):
        cfg = config(spec, 5).reshape(1, -1)
        check_policies(cfg, True)
        with pytest.raises(ValueError, match="needs the search scratch"):
            check_policies(cfg, False)
        assert policies.searches(cfg)


def test_a_playout_plays_each_searching_decision_by_its_default() -> None:
    from tarotsim.engine.kernels import state as S

    decisions = {getattr(S, name): d for d, name in policies.POLICY_SLOTS.items()}
    assert len(PLAIN) == 4
    for slot, searching, plain in PLAIN:
        decision = decisions[slot]
        assert searching == policies.policy(decision, "search").code
        assert plain == policies.policy(decision, policies.DEFAULTS[decision]).code


def test_the_options_reach_the_seat_block_and_are_checked() -> None:
    strategy = Strategy.parse("play=pimc,ecart=search,ecart_worlds=8,chelem=search,chelem_worlds=16")
    assert str(strategy) == "play=pimc,ecart=search,chelem=search,ecart_worlds=8,chelem_worlds=16"
    assert strategy.searches and Strategy.parse("call=search").searches
    from tarotsim.engine.kernels import state as S

    block = strategy.block(4)
    assert block[S.P_ECART_WORLDS] == 8 and block[S.P_CHELEM_WORLDS] == 16
    assert block[S.P_ECART_POLICY] == policies.policy("ecart", "search").code
    assert block[S.P_CALL_WORLDS] == policies.DEFAULT_DECIDE_WORLDS
    with pytest.raises(ValueError, match="ecart_worlds tunes search"):
        Strategy.parse("ecart_worlds=8")
    with pytest.raises(ValueError, match="poignee_worlds must be 1"):
        Strategy.parse("poignee=search,poignee_worlds=0")


def test_candidate_ecarts_are_legal_and_the_expert_one_comes_first() -> None:
    rng = random.Random(11)
    out = np.zeros((MAX_CHOICES, 2), dtype=np.uint64)
    several = 0
    for _ in range(300):
        players = rng.choice([3, 4, 5])
        hand_size, chien_size = TABLE_SIZES[players]
        cards = rng.sample(range(78), hand_size + chien_size)
        word0, word1 = to_mask(cards)
        k = ecart_candidates(word0, word1, chien_size, out)
        assert 1 <= k <= MAX_CHOICES
        assert (out[0, 0], out[0, 1]) == expert_ecart(word0, word1, chien_size)
        seen = set()
        suit_cards = popcount(word0 & ~KINGS_MASK)
        for i in range(k):
            e0, e1 = out[i]
            assert popcount(e0) + popcount(e1) == chien_size
            assert e0 & ~word0 == 0 and e1 & ~word1 == 0
            assert e0 & KINGS_MASK == 0 and e1 & BOUTS_MASK_1 == 0
            if e1:
                assert popcount(e0) == suit_cards  # trumps only when no other card can go
            seen.add((int(e0), int(e1)))
        assert len(seen) == k
        several += k > 1
    assert several > 200


def test_the_call_weighs_the_cards_of_the_lowest_rank_not_held() -> None:
    rng = random.Random(5)
    cfg = config(fast("call"), 5)
    tb, taker, stage = taken(rng, cfg, 5, GARDE)
    assert stage == T_CALL
    note_deal(SC, KEY, 1)
    kings = [SUIT_LEN * s + KING for s in range(4)]
    held = {c for c in kings if int(tb.dealt[taker, 0]) >> c & 1}
    assert decide(T_CALL, tb, taker, cfg)[0] in set(kings) - held
    k = 4 - len(held)  # the choices weighed are left in the scratch
    assert SC.candidate[0] == called_card(tb.dealt[taker, 0])
    assert {int(c) for c in SC.candidate[:k]} == set(kings) - held


def test_the_chelem_hand_of_the_issue_announces() -> None:
    """18 cards, 13 top trumps (the 21 down to the 10, and the Petit), the Excuse and four
    Kings at Garde contre: the chelem is made in every world, announced it pays +400 for the
    chelem where it pays +200 unannounced, so the search announces; the heuristic's threshold
    (``overwhelming``) did not."""
    hand = {PETIT, EXCUSE, *range(TRUMP_21 - 11, TRUMP_21 + 1), *(SUIT_LEN * s + KING for s in range(4))}
    assert len(hand) == 18
    rng = random.Random(8)
    cfg = config("chelem=search")
    tb, taker, stage = taken(rng, cfg, 4, GARDE_CONTRE, keep=hand)
    assert stage == T_CHELEM
    note_deal(SC, KEY, 2)
    assert decide(T_CHELEM, tb, taker, cfg) == (1, 0)
    drawn = policies.DEFAULT_DECIDE_WORLDS  # each world's values are left in the scratch
    announced = SC.world_values[:drawn, 1]
    silent = SC.world_values[:drawn, 0]
    assert np.all(announced > silent)


def test_a_hopeless_hand_does_not_announce() -> None:
    cfg = config(fast("chelem"))
    tb, taker, stage = taken(random.Random(9), cfg, 4, GARDE_SANS)
    assert stage == T_CHELEM
    note_deal(SC, KEY, 3)
    assert decide(T_CHELEM, tb, taker, cfg) == (0, 0)


def test_a_poignee_is_weighed_shown_and_not() -> None:
    """Seat 0 leads the first trick (the dealer is seat 3) holding eleven trumps, a defender
    against a Garde: both choices are played out from the position."""
    trumps = set(range(N_SUIT_CARDS + 1, N_SUIT_CARDS + 12))
    hand = trumps | {0, 1, 2, 3, 14, 15, 28}
    cfg = config(fast("poignee"))
    tb, _, stage = taken(random.Random(4), cfg, 4, GARDE, keep=hand, taker=1, dealer=3)
    assert stage == -1 and tb.info[I_LEADER] == 0
    played = copy_table(tb)
    assert not play_tricks(played, cfg, None, 0, 0)  # the poignée handed back, not shown
    assert played.pos[Q_PHASE] == PH_POIGNEE and played.pos[Q_SEAT] == 0
    note_deal(SC, KEY, 4)
    assert decide(T_POIGNEE, tb, 0, cfg)[0] in (0, 1)
    assert not np.array_equal(SC.world_values[:4, 0], SC.world_values[:4, 1])  # both played out
    moved = _unchanged(lambda t: decide(T_POIGNEE, t, 0, cfg), tb, 0, random.Random(1))
    assert moved > 0


def _unchanged(ask, tb: DealState, seat: int, rng: random.Random, redeals: int = 2) -> int:
    """Ask ``ask`` on ``tb`` and on tables whose cards ``seat`` cannot see were dealt again
    (``interfaces.testing.redistribute``, keeping what it knows); returns how many re-deals moved cards,
    asserting the decision never changed."""
    first = ask(copy_table(tb))
    moved = 0
    for _ in range(redeals):
        other, n_moved = redistribute(tb, seat, rng)
        other.rng[:] = tb.rng
        if n_moved:
            moved += 1
            assert ask(other) == first
    return moved


@pytest.mark.parametrize("players", [4, 5])
def test_the_searched_call_ecart_and_chelem_do_not_peek(players: int) -> None:
    rng = random.Random(21 + players)
    cfg = config(fast("call", "ecart", "chelem"), players)
    moved = {T_CALL: 0, T_ECART: 0, T_CHELEM: 0}
    for deal in range(6):
        contract = rng.choice([GARDE, GARDE_SANS])
        tb, taker, stage = taken(rng, cfg, players, contract)
        note_deal(SC, KEY, deal)
        while stage >= 0:
            moved[stage] += _unchanged(
                lambda t, stage=stage, taker=taker: decide(stage, t, taker, cfg), tb, taker, rng
            )
            answer = decide(stage, tb, taker, cfg)
            if stage == T_CALL:
                apply(tb, cfg, None, None, int(answer[0]))
            elif stage == T_ECART:
                lay_whole_ecart(tb, np.uint64(answer[0]), np.uint64(answer[1]))
            else:
                break
            run(tb, cfg, None, None, None, EVERY_SEAT, 0)  # on to the next search, or the first card
            stage = -1 if tb.pos[Q_PHASE] not in STAGES else STAGES[int(tb.pos[Q_PHASE])]
    assert moved[T_ECART] > 0 and moved[T_CHELEM] > 0
    assert moved[T_CALL] > 0 or players == 4


@pytest.mark.parametrize("players", [4, 5])
def test_games_with_every_searched_decision_are_legal(players: int) -> None:
    spec = fast("call", "ecart", "chelem", "poignee")
    traces = trace_records(6, 3, RunConfig(players=players, strategies=[spec] * players))
    assert any(t["thrown_in"] is None for t in traces)
    for trace in traces:
        ref.check_trace(trace)  # legality, each card once, 91 points, the scores (zero-sum)
