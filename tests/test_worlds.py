"""The world sampler deals uniformly over the deals consistent with what a seat knows.

Small positions are enumerated exhaustively in plain Python: the sampler's count of
consistent deals must be exact, its draws must respect every constraint, and their
frequencies must pass a chi-square test of uniformity (a test that a plausible biased
sampler fails, shown below). On positions of real deals, the constraints a seat knows
must admit the true deal, and must not change when the cards the seat cannot see are
dealt again.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import numpy as np
import pytest

from tarotsim._jit import njit
from tarotsim.engine.cards import EXCUSE, FULL_WORD0, FULL_WORD1, N_SUIT_CARDS, SUIT_LEN, from_mask, to_mask
from tarotsim.engine.kernels.rng import seed_stream
from tarotsim.engine.kernels.state import I_CALLED, I_CHIEN_SHOWN, I_PARTNER_KNOWN, I_TAKER, DealState
from tarotsim.engine.kernels.view import seat_view
from tarotsim.players.config import RunConfig
from tarotsim.players.kernels.search.constraints import seat_constraints, world_hands
from tarotsim.players.kernels.search.worlds import (
    MAX_HOLDERS,
    draw_world,
    holder_allowed,
    new_world_scratch,
    prepare_worlds,
    sample_world,
)
from tests.test_no_peeking import copy_table, mid_deal_positions, redistribute

WS = new_world_scratch()
TRUMP_VOID = 1 << 4


def rng_state(seed: int) -> np.ndarray:
    state = np.zeros(4, dtype=np.uint64)
    seed_stream(state, np.array([seed, 1, 2, 3], dtype=np.uint64), 0)
    return state


def suit_of(card: int) -> int:
    if card < N_SUIT_CARDS:
        return card // SUIT_LEN
    return 4 if card < EXCUSE else 5


class Position:
    """Unseen cards, holder sizes, voids, known cards and possible sets, as kernel arrays."""

    def __init__(self, cards, sizes, voids=None, known=None, possible=None):
        n = len(sizes)
        self.cards = sorted(cards)
        self.n = n
        self.unseen = np.array(to_mask(self.cards), dtype=np.uint64)
        self.sizes = np.array(sizes, dtype=np.int64)
        self.voids = np.array(voids or [0] * n, dtype=np.int64)
        self.known = np.zeros((n, 2), dtype=np.uint64)
        self.possible = np.zeros((n, 2), dtype=np.uint64)
        self.possible[:, 0] = FULL_WORD0
        self.possible[:, 1] = FULL_WORD1
        self.known_sets = [set() for _ in range(n)]
        self.possible_sets = [None] * n
        for h, cards_in in (known or {}).items():
            self.known[h] = to_mask(sorted(cards_in))
            self.known_sets[h] = set(cards_in)
        for h, cards_in in (possible or {}).items():
            self.possible[h] = to_mask(sorted(cards_in))
            self.possible_sets[h] = set(cards_in)
        self.allowed = np.zeros((n, 2), dtype=np.uint64)
        holder_allowed(self.unseen, self.voids, self.known, self.possible, n, self.allowed)

    def respects(self, hands) -> bool:
        """Whether a deal (a list of card sets) meets every constraint, checked from the inputs."""
        if sorted(c for hand in hands for c in hand) != self.cards:
            return False
        for h, hand in enumerate(hands):
            if len(hand) != self.sizes[h] or not self.known_sets[h] <= hand:
                return False
            if self.possible_sets[h] is not None and not hand <= self.possible_sets[h]:
                return False
            for card in hand:
                suit = suit_of(card)
                if suit < 5 and (self.voids[h] >> suit) & 1:
                    return False
        return True

    def enumerate(self) -> list[tuple[frozenset, ...]]:
        """Every consistent deal, by brute force over all ways to split the cards."""
        deals = []

        def split(rest, h, hands):
            if h == self.n - 1:
                candidate = hands + [frozenset(rest)]
                if self.respects(candidate):
                    deals.append(tuple(candidate))
                return
            for chosen in itertools.combinations(rest, int(self.sizes[h])):
                split([c for c in rest if c not in chosen], h + 1, hands + [frozenset(chosen)])

        if sum(self.sizes) == len(self.cards):
            split(self.cards, 0, [])
        return deals

    def draw(self, rng: np.ndarray, count: int) -> Counter:
        assert prepare_worlds(self.allowed, self.sizes, self.n, self.unseen, WS) > 0
        out = np.zeros((self.n, 2), dtype=np.uint64)
        seen: Counter = Counter()
        for _ in range(count):
            draw_world(rng, WS, out)
            seen[tuple(frozenset(from_mask(out[h, 0], out[h, 1])) for h in range(self.n))] += 1
        return seen


def chi_square_fails(counts: Counter, support: list, draws: int) -> bool:
    """True when the frequencies are not uniform over ``support``: chi-square above its mean
    by 6 standard deviations (a uniform sampler exceeds it with probability about 1e-6)."""
    expected = draws / len(support)
    statistic = sum((counts[deal] - expected) ** 2 / expected for deal in support)
    df = len(support) - 1
    return statistic > df + 6 * math.sqrt(2 * df)


# cards: a few of each suit, trumps with the Petit, the Excuse
S = [0, 1, 9, 13]  # 1S 2S 10S KS
H = [14, 15, 27]  # 1H 2H KH
T = [56, 60, 70]  # T1 T5 T15
EX = [EXCUSE]

LAW_CASES = {
    "free": Position(S[:2] + H[:2] + T[:2] + EX, [3, 2, 2]),
    "voids": Position(S + H[:2] + T + EX, [4, 3, 3], voids=[1, TRUMP_VOID, 2 | TRUMP_VOID]),
    "known": Position(S + H + T[:2], [3, 3, 2, 1], voids=[0, 1, 0, 2], known={0: {13}, 2: {56}}),
    "ecart": Position(
        S + H[:2] + T[:2] + EX,
        [3, 2, 2, 2],
        voids=[0, 1, TRUMP_VOID, 0],
        possible={3: set(S[:3] + H[:2])},
    ),
}


@pytest.mark.parametrize("name", sorted(LAW_CASES))
def test_the_law_is_uniform_over_the_consistent_deals(name: str) -> None:
    position = LAW_CASES[name]
    support = position.enumerate()
    assert len(support) >= 10
    assert prepare_worlds(position.allowed, position.sizes, position.n, position.unseen, WS) == len(support)
    draws = 300 * len(support)
    counts = position.draw(rng_state(len(name)), draws)
    assert set(counts) <= set(support)
    assert not chi_square_fails(counts, support, draws)


def naive_deal(position: Position, rng: random.Random) -> tuple[frozenset, ...]:
    """A plausible but biased sampler: each card in turn to a random holder with room that
    may take it, starting again on a dead end (rejection of partial deals, not whole ones)."""
    while True:
        room = list(position.sizes)
        hands = [set() for _ in range(position.n)]
        for card in position.cards:
            bit = to_mask([card])
            options = [
                h
                for h in range(position.n)
                if room[h]
                and (int(position.allowed[h, 0]) & int(bit[0]) or int(position.allowed[h, 1]) & int(bit[1]))
            ]
            if not options:
                break
            h = rng.choice(options)
            hands[h].add(card)
            room[h] -= 1
        else:
            return tuple(frozenset(hand) for hand in hands)


def test_the_uniformity_test_rejects_a_biased_sampler() -> None:
    position = LAW_CASES["voids"]
    support = position.enumerate()
    rng = random.Random(3)
    draws = 300 * len(support)
    counts = Counter(naive_deal(position, rng) for _ in range(draws))
    assert set(counts) <= set(support)
    assert chi_square_fails(counts, support, draws)


def random_position(rng: random.Random) -> Position:
    universe = S + H + [30, 31, 44] + T + [75, 76] + EX
    cards = rng.sample(universe, rng.randint(5, 9))
    n = rng.randint(2, MAX_HOLDERS)
    cuts = sorted(rng.randint(0, len(cards)) for _ in range(n - 1))
    sizes = [b - a for a, b in zip([0] + cuts, cuts + [len(cards)], strict=True)]
    voids = [rng.choice([0, 0, 0, 0, 1, 2, TRUMP_VOID, 1 | TRUMP_VOID]) for _ in range(n)]
    known = {}
    for card in rng.sample(cards, rng.randint(0, 2)):
        known.setdefault(rng.randrange(n), set()).add(card)
    possible = {}
    if rng.random() < 0.3:
        possible[n - 1] = {c for c in cards if c < N_SUIT_CARDS and c % SUIT_LEN != 13}
    return Position(cards, sizes, voids, known, possible)


def test_counts_match_exhaustive_enumeration_and_impossible_positions_are_flagged() -> None:
    rng = random.Random(11)
    impossible = possible = 0
    state = rng_state(5)
    for _ in range(600):
        position = random_position(rng)
        support = position.enumerate()
        count = prepare_worlds(position.allowed, position.sizes, position.n, position.unseen, WS)
        assert count == len(support)
        out = np.zeros((position.n, 2), dtype=np.uint64)
        ok = sample_world(state, position.allowed, position.sizes, position.n, position.unseen, WS, out)
        assert ok == bool(support)
        if support:
            possible += 1
            deal = tuple(frozenset(from_mask(out[h, 0], out[h, 1])) for h in range(position.n))
            assert deal in set(support)
        else:
            impossible += 1
    assert impossible > 50 and possible > 250


def test_sizes_that_do_not_add_up_admit_no_deal() -> None:
    position = Position(S + H, [3, 3])
    assert prepare_worlds(position.allowed, position.sizes, 2, position.unseen, WS) == 0.0


def test_a_scratch_too_small_says_so() -> None:
    position = Position(list(range(30)), [10, 10, 10])
    small = new_world_scratch(50)
    assert prepare_worlds(position.allowed, position.sizes, 3, position.unseen, small) == -1.0
    assert prepare_worlds(position.allowed, position.sizes, 3, position.unseen, WS) == pytest.approx(
        math.comb(30, 10) * math.comb(20, 10), rel=1e-12
    )


# ---------------------------------------------------------------------------------------------
# positions of real deals
# ---------------------------------------------------------------------------------------------


@njit
def constraints_of(
    tb: DealState,
    cfg: np.ndarray,
    seat: int,
    unseen: np.ndarray,
    sizes: np.ndarray,
    voids: np.ndarray,
    known: np.ndarray,
    possible: np.ndarray,
    holder_seat: np.ndarray,
) -> int:
    """``seat_constraints`` of ``seat``, from its view of ``tb`` (as ``pimc_card`` asks it)."""
    return seat_constraints(seat_view(tb, seat), cfg, unseen, sizes, voids, known, possible, holder_seat)


@njit
def world_hands_of(
    tb: DealState,
    seat: int,
    world: np.ndarray,
    holder_seat: np.ndarray,
    n: int,
    hands: np.ndarray,
    attack: np.ndarray,
) -> None:
    """``world_hands`` for ``seat``, from its view of ``tb``."""
    world_hands(seat_view(tb, seat), world, holder_seat, n, hands, attack)


def constraints(tb, cfg, seat):
    unseen = np.zeros(2, dtype=np.uint64)
    sizes = np.zeros(MAX_HOLDERS, dtype=np.int64)
    voids = np.zeros(MAX_HOLDERS, dtype=np.int64)
    known = np.zeros((MAX_HOLDERS, 2), dtype=np.uint64)
    possible = np.zeros((MAX_HOLDERS, 2), dtype=np.uint64)
    holder_seat = np.zeros(MAX_HOLDERS, dtype=np.int64)
    n = constraints_of(tb, cfg, seat, unseen, sizes, voids, known, possible, holder_seat)
    allowed = np.zeros((MAX_HOLDERS, 2), dtype=np.uint64)
    holder_allowed(unseen, voids, known, possible, n, allowed)
    return n, unseen, sizes, allowed, holder_seat, (voids, known, possible)


def true_holders(tb, seat, n, unseen, holder_seat):
    """What each holder really holds of the unseen cards."""
    hands = []
    for h in range(n):
        if holder_seat[h] >= 0:
            word0, word1 = tb.hands[holder_seat[h]]
        elif tb.info[I_CHIEN_SHOWN]:
            word0, word1 = tb.ecart
        else:
            word0, word1 = tb.chien
        hands.append((word0 & unseen[0], word1 & unseen[1]))
    return hands


@pytest.mark.parametrize("players", [3, 4, 5])
def test_real_positions_admit_the_true_deal_and_every_draw_respects_the_constraints(players: int) -> None:
    state = rng_state(players)
    out = np.zeros((MAX_HOLDERS, 2), dtype=np.uint64)
    for tb, seat, _legal0, _legal1 in mid_deal_positions(40, seed=100 + players, players=players):
        cfg = RunConfig(players=players).to_array()
        n, unseen, sizes, allowed, holder_seat, _ = constraints(tb, cfg, seat)
        truth = true_holders(tb, seat, n, unseen, holder_seat)
        total0 = total1 = 0
        for h, (word0, word1) in enumerate(truth):
            assert bin(int(word0)).count("1") + bin(int(word1)).count("1") == sizes[h]
            assert word0 & ~allowed[h, 0] == 0 and word1 & ~allowed[h, 1] == 0
            total0 |= int(word0)
            total1 |= int(word1)
        assert (total0, total1) == (int(unseen[0]), int(unseen[1]))
        hands = np.zeros((players, 2), dtype=np.uint64)
        attack = np.zeros(players, dtype=np.int64)
        world_hands_of(tb, seat, np.array(truth, dtype=np.uint64), holder_seat, n, hands, attack)
        assert np.array_equal(hands, tb.hands[:players]) and np.array_equal(attack, tb.attack[:players])
        assert prepare_worlds(allowed, sizes, n, unseen, WS) >= 1.0
        for _ in range(20):
            draw_world(state, WS, out)
            got0 = got1 = 0
            for h in range(n):
                assert out[h, 0] & ~allowed[h, 0] == 0 and out[h, 1] & ~allowed[h, 1] == 0
                assert bin(int(out[h, 0])).count("1") + bin(int(out[h, 1])).count("1") == sizes[h]
                assert not (got0 & int(out[h, 0]) or got1 & int(out[h, 1]))
                got0 |= int(out[h, 0])
                got1 |= int(out[h, 1])
            assert (got0, got1) == (int(unseen[0]), int(unseen[1]))
            world_hands_of(tb, seat, out, holder_seat, n, hands, attack)
            assert attack[tb.info[I_TAKER]] == 1 and attack[seat] == tb.attack[seat]
            called = int(tb.info[I_CALLED])
            if called >= 0 and not tb.info[I_PARTNER_KNOWN]:  # the partner is whoever holds the called card
                holders = {s for s in range(players) if called in from_mask(*hands[s])}
                assert set(np.flatnonzero(attack)) == {int(tb.info[I_TAKER])} | holders
            else:
                assert np.array_equal(attack, tb.attack[:players])


@pytest.mark.parametrize("players", [4, 5])
def test_what_a_seat_knows_does_not_depend_on_the_cards_it_cannot_see(players: int) -> None:
    cfg = RunConfig(players=players).to_array()
    rng = random.Random(9)
    moved = 0
    for tb, seat, _legal0, _legal1 in mid_deal_positions(60, seed=200 + players, players=players):
        n, unseen, sizes, allowed, holder_seat, raw = constraints(copy_table(tb), cfg, seat)
        for _ in range(3):
            other, n_moved = redistribute(tb, seat, rng)
            moved += n_moved
            again = constraints(other, cfg, seat)
            assert again[0] == n
            for mine, theirs in zip(
                (unseen, sizes, allowed, holder_seat) + raw, again[1:5] + again[5], strict=True
            ):
                assert np.array_equal(mine[: len(theirs)], theirs), (seat, int(tb.info[I_TAKER]))
    assert moved > 0
