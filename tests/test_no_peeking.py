"""The heuristic decides from what the player may know, never from the cards it cannot see.

Deals are played part way by the game's own steps (``engine.kernels.steps``, ``players.kernels.machine``: ``take_contract``,
``show_poignee``, ``play_card``, ``end_trick``, with random and heuristic play), so the
first-lead rule, the voids revealed and whatever the steps keep for the policies are those
of the simulator. At the stopping point the cards the player to move cannot see are dealt
again (``tarotsim.interfaces.testing.redistribute``, which ``tarotsim.interfaces.testing.check_no_peeking`` uses
on any strategy) among the other hands (and the unseen chien, and the defenders' view of the écart),
keeping every constraint the player knows: hand sizes, voids shown in play, the poignée
cards shown, the écart's shown trumps, the chien cards once it was shown (they went to the
taker), the écart holding no King, bout or hidden trump. The decision must not change.
The same harness catches toy policies that peek at another hand or at the écart, so it
can fail.

Every policy reads only its seat's ``SeatView`` (``engine.kernels.view.seat_view``, the one reader
of the deal state for a policy), so what the harness checks is that view and the policy
together: each decision is asked as the machine asks it, the view made from the table.

The driver also plays 5-player deals (the king call, the secret partner, the first-lead
rule); ``tests/test_no_peeking_five.py`` holds those tests. The écart policies need no such
test: their view holds the taker's cards (hand and chien) and nothing hidden.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest

from tarotsim._jit import njit
from tarotsim.engine.cards import KING, N_CARDS, N_SUIT_CARDS, QUEENS_MASK, TRUMP_21_BIT
from tarotsim.engine.kernels.bits import ZERO, highest_bit, lowest_bit, popcount
from tarotsim.engine.kernels.deal import is_petit_sec
from tarotsim.engine.kernels.rules import card_bit
from tarotsim.engine.kernels.score import GARDE, GARDE_CONTRE, GARDE_SANS, PRISE
from tarotsim.engine.kernels.state import (
    C_CHIEN,
    C_HAND,
    C_PLAYERS,
    I_CHIEN_SHOWN,
    I_LEADER,
    I_PLAYERS,
    N_CFG,
    P_PLAY_ATTACK,
    P_PLAY_DEFENCE,
    P_POIGNEE_POLICY,
    DealState,
    new_state,
    seat_slot,
)
from tarotsim.engine.kernels.steps import end_trick, legal_now, put_card, reset_table
from tarotsim.engine.kernels.view import SeatView, seat_view
from tarotsim.interfaces.testing import (
    cards_of,
    copy_table,
    mask_of,
    redistribute,
    set_partner,
    shown_void,
    suit_index,
    true_partner,
)
from tarotsim.players.config import RunConfig
from tarotsim.players.kernels.machine import show_poignee, take_contract
from tarotsim.players.kernels.policies.announce import poignee_choice
from tarotsim.players.kernels.policies.codes import PLAY_HEURISTIC, PLAY_PIMC, PLAY_RANDOM
from tarotsim.players.kernels.policies.play import playout_card
from tarotsim.players.kernels.search.montecarlo import new_bid_scratch
from tarotsim.players.kernels.search.pimc import pimc_card
from tarotsim.players.kernels.search.scratch import SearchScratch, new_search_scratch
from tarotsim.players.kernels.search.searching import Search
from tarotsim.players.policies import PLAY_POLICIES

__all__ = [
    "cards_of",
    "copy_table",
    "mask_of",
    "redistribute",
    "set_partner",
    "shown_void",
    "suit_index",
    "true_partner",
]

PLAYERS = 4


def words(pair: tuple[int, int]) -> tuple[np.uint64, np.uint64]:
    """A card set returned by a kernel (Python ints) as two uint64 words."""
    return np.uint64(pair[0]), np.uint64(pair[1])


SEARCH = Search(new_search_scratch(True), new_bid_scratch(np.zeros((1, N_CFG), dtype=np.int64)))
"""One full ``pimc`` scratch that every decision of the harness shares (it holds no state of a deal)."""


@njit
def card_of(
    policy: int, tb: DealState, seat: int, legal0: np.uint64, legal1: np.uint64, cfg: np.ndarray
) -> int:
    """The card ``seat``'s card-play ``policy`` (one that searches nothing) chooses from its
    legal cards, asked as the machine asks it: with the seat's view of ``tb``."""
    return playout_card(policy, seat_view(tb, seat), legal0, legal1, cfg)


def view_of(tb: DealState, seat: int) -> SeatView:
    """The view of ``seat`` on ``tb`` made by the game's reader (``engine.kernels.view.seat_view``),
    its card sets ``np.uint64`` as the kernels type them: a big kernel asked with it from
    Python is the one the game compiled, where a test's own ``njit`` wrapper would compile
    it again (Numba links and optimizes again every kernel a compiled function calls)."""
    v = seat_view(tb, seat)
    return v._replace(
        hand0=np.uint64(v.hand0),
        hand1=np.uint64(v.hand1),
        ecart0=np.uint64(v.ecart0),
        ecart1=np.uint64(v.ecart1),
        chien0=np.uint64(v.chien0),
        chien1=np.uint64(v.chien1),
    )


def pimc_of(
    tb: DealState, seat: int, legal0: np.uint64, legal1: np.uint64, cfg: np.ndarray, sc: SearchScratch
) -> int:
    """The ``pimc`` player's card for ``seat``, asked as the game asks it (``players.kernels.seats.searched``)."""
    return pimc_card(view_of(tb, seat), np.uint64(legal0), np.uint64(legal1), cfg, sc)


@njit
def poignee_of(policy: int, tb: DealState, seat: int, cfg: np.ndarray) -> int:
    """The poignée size ``seat``'s poignée ``policy`` chooses, with the seat's view of ``tb``."""
    return poignee_choice(policy, seat_view(tb, seat), cfg)


# ---------------------------------------------------------------------------------------------
# a driver of the game's own steps: one deal, played up to a chosen card
# ---------------------------------------------------------------------------------------------


def new_deal(rng: random.Random, cfg: np.ndarray) -> DealState:
    """A dealt table with a taker (drawn at random, any contract) and the écart made."""
    tb = new_state()
    players, hand_size, chien_size = int(cfg[C_PLAYERS]), int(cfg[C_HAND]), int(cfg[C_CHIEN])
    while True:
        pack = list(range(N_CARDS))
        rng.shuffle(pack)
        hands = [set(pack[s * hand_size : (s + 1) * hand_size]) for s in range(players)]
        if not any(is_petit_sec(mask_of(h)[1]) for h in hands):
            break
    chien = set(pack[players * hand_size :])
    assert len(chien) == chien_size
    for seat, hand in enumerate(hands):
        tb.dealt[seat] = mask_of(hand)
    tb.chien[:] = mask_of(chien)
    tb.rng[:] = np.array([rng.getrandbits(64) | 1 for _ in range(4)], dtype=np.uint64)
    reset_table(tb, players, rng.randrange(players))
    taker = rng.randrange(players)
    contract = rng.choice([PRISE, GARDE, GARDE, GARDE_SANS, GARDE_CONTRE])
    take_contract(tb, cfg, taker, contract)
    return tb


def play_to(
    tb: DealState,
    cfg: np.ndarray,
    stop_trick: int,
    stop_card: int,
    policies: tuple[int, int],
    at_poignee: Callable[[DealState, int], None] | None = None,
) -> tuple[int, np.uint64, np.uint64]:
    """Play until card ``stop_card`` of trick ``stop_trick`` with the game's steps, the attack
    and the defence playing ``policies``; return (seat to play, its legal cards).

    Each card is played as the machine's trick loop (``players.kernels.machine.play_tricks``) plays it: the legal cards, the choice of the seat's side's
    policy (``card_of``), ``put_card``; asked step by step, since the trick loop's card is inlined and
    calling it from Python would compile the card players once more."""
    cfg = cfg.copy()
    players = int(tb.info[I_PLAYERS])
    for seat in range(players):
        cfg[seat_slot(seat, P_PLAY_ATTACK)], cfg[seat_slot(seat, P_PLAY_DEFENCE)] = policies
    for t in range(int(cfg[C_HAND])):
        seat = int(tb.info[I_LEADER])
        for j in range(players):
            if t == 0:
                if at_poignee is not None:
                    at_poignee(tb, seat)
                show_poignee(tb, cfg, seat)
            if (t, j) == (stop_trick, stop_card):
                legal0, legal1 = words(legal_now(tb, seat))
                return seat, legal0, legal1
            legal0, legal1 = words(legal_now(tb, seat))
            policy = policies[0] if tb.attack[seat] else policies[1]
            put_card(tb, seat, card_of(policy, tb, seat, legal0, legal1, cfg))
            seat = (seat + 1) % players
        end_trick(tb, cfg)
    raise AssertionError("the stopping point is past the end of the deal")


# ---------------------------------------------------------------------------------------------
# toy policies that peek, to show the harness can fail
# ---------------------------------------------------------------------------------------------


@njit
def _lowest_or_highest(legal0: np.uint64, legal1: np.uint64, low: bool) -> int:
    if low:
        return lowest_bit(legal0) if legal0 else N_SUIT_CARDS + lowest_bit(legal1)
    return N_SUIT_CARDS + highest_bit(legal1) if legal1 else highest_bit(legal0)


@njit
def peek_next_hand(seat: int, legal0: np.uint64, legal1: np.uint64, tb: DealState) -> int:
    """Plays low when the next seat holds trump 21 or a King of spades, else high."""
    nxt = (seat + 1) % tb.info[I_PLAYERS]
    king_of_spades = card_bit(KING)[0]
    holds = (tb.hands[nxt, 1] & TRUMP_21_BIT) != ZERO or (tb.hands[nxt, 0] & king_of_spades) != ZERO
    return _lowest_or_highest(legal0, legal1, holds)


@njit
def peek_ecart(seat: int, legal0: np.uint64, legal1: np.uint64, tb: DealState) -> int:
    """Plays low when the écart holds a Queen, else high (a defender cannot know)."""
    return _lowest_or_highest(legal0, legal1, (tb.ecart[0] & QUEENS_MASK) != ZERO)


def heuristic(seat: int, legal0: np.uint64, legal1: np.uint64, tb: DealState) -> int:
    return int(card_of(PLAY_HEURISTIC, tb, seat, legal0, legal1, HEURISTIC_CFG))


HEURISTIC_CFG = RunConfig(policy="heuristic").to_array()


# ---------------------------------------------------------------------------------------------
# the harness
# ---------------------------------------------------------------------------------------------


def mid_deal_positions(n_positions: int, seed: int, *, defender_view: bool = False, players: int = PLAYERS):
    """Yield (table, seat, legal0, legal1) at random points of random deals."""
    rng = random.Random(seed)
    made = 0
    while made < n_positions:
        cfg = RunConfig(
            players=players,
            policy="heuristic",
            ecart_policy=rng.choice(["simple", "expert"]),
            poignee_policy=rng.choice(["always", "smart"]),
            chelem_policy="overwhelming",
            chelem_threshold=rng.choice([110, 60]),
        ).to_array()
        tb = new_deal(rng, cfg)
        policies = rng.choice(
            [(PLAY_RANDOM, PLAY_RANDOM), (PLAY_HEURISTIC, PLAY_HEURISTIC), (PLAY_HEURISTIC, PLAY_RANDOM)]
        )
        stop_trick = rng.randrange(int(cfg[C_HAND]) - 1)
        stop_card = rng.randrange(players)
        seat, legal0, legal1 = play_to(tb, cfg, stop_trick, stop_card, policies)
        if popcount(legal0) + popcount(legal1) < 2:
            continue
        if defender_view and (tb.attack[seat] or not tb.info[I_CHIEN_SHOWN]):
            continue
        made += 1
        yield tb, seat, legal0, legal1


def count_changed(
    decide,
    n_positions: int,
    seed: int,
    *,
    redeals: int = 4,
    defender_view: bool = False,
    players: int = PLAYERS,
) -> tuple[int, int]:
    """(positions where a redistribution changed the decision, positions tried)."""
    rng = random.Random(seed + 1)
    changed = tried = 0
    for tb, seat, legal0, legal1 in mid_deal_positions(
        n_positions, seed, defender_view=defender_view, players=players
    ):
        rng_state = tb.rng.copy()
        first = decide(seat, legal0, legal1, copy_table(tb))
        tried += 1
        for _ in range(redeals):
            other, n_moved = redistribute(tb, seat, rng)
            other.rng[:] = rng_state
            if n_moved and decide(seat, legal0, legal1, other) != first:
                changed += 1
                break
    return changed, tried


def test_heuristic_card_does_not_peek() -> None:
    changed, tried = count_changed(heuristic, 400, seed=2024)
    assert tried == 400
    assert changed == 0


def test_heuristic_card_does_not_peek_defender_view_of_ecart() -> None:
    changed, tried = count_changed(heuristic, 120, seed=77, defender_view=True)
    assert changed == 0


@pytest.mark.parametrize("name", sorted(PLAY_POLICIES))
def test_every_card_play_policy_does_not_peek(name: str) -> None:
    """Every registered card-play policy: a new one runs through the harness once it is in
    ``players.policies.PLAY_POLICIES``.

    Each policy is asked as the game asks it: ``pimc`` through ``pimc_card`` with the
    search scratch (``interfaces.game.decide``), the others through ``playout_card``
    (``players.kernels.machine.play_tricks``), each with the seat's view of the table."""
    policy = PLAY_POLICIES[name]

    def decide(seat: int, legal0: np.uint64, legal1: np.uint64, tb: DealState) -> int:
        if policy == PLAY_PIMC:
            return int(pimc_of(tb, seat, legal0, legal1, HEURISTIC_CFG, SEARCH.play))
        return int(card_of(policy, tb, seat, legal0, legal1, HEURISTIC_CFG))

    changed, tried = count_changed(decide, 150, seed=31)
    assert tried == 150
    assert changed == 0


def test_harness_catches_a_policy_peeking_at_a_hand() -> None:
    changed, tried = count_changed(peek_next_hand, 150, seed=5)
    assert changed > tried // 10


def test_harness_catches_a_policy_peeking_at_the_ecart() -> None:
    changed, tried = count_changed(peek_ecart, 120, seed=6, defender_view=True)
    assert changed > tried // 10


@pytest.mark.parametrize("policy", ["always", "smart"])
def test_poignee_choice_does_not_peek(policy: str) -> None:
    rng = random.Random(11)
    cfg = RunConfig(policy="heuristic", poignee_policy=policy).to_array()
    checked = 0
    for _ in range(150):
        tb = new_deal(rng, cfg)

        def check(tb_now: DealState, seat: int) -> None:
            nonlocal checked
            first = poignee_of(cfg[seat_slot(seat, P_POIGNEE_POLICY)], copy_table(tb_now), seat, cfg)
            for _ in range(3):
                other, _n = redistribute(tb_now, seat, rng)
                assert poignee_of(cfg[seat_slot(seat, P_POIGNEE_POLICY)], other, seat, cfg) == first
            checked += 1

        play_to(tb, cfg, 1, 0, (PLAY_HEURISTIC, PLAY_HEURISTIC), at_poignee=check)
    assert checked == 150 * PLAYERS
