"""The double-dummy solver against a plain-Python minimax written from docs/rules.md.

``brute_value`` plays every legal card at every turn (legality and the ordinary trick
winner from ``tests.reference``) and counts each trick by docs/rules.md §6-8 on its own terms;
its counting is first checked against ``reference.count_deal`` on whole random deals.
The solver must then agree with it exactly on many random endgames of 1-4 tricks at 3, 4
and 5 players, including the Excuse, its last-trick change of side and chelem exception,
the petit au bout, and card values other than the card points.
"""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

from tarotsim.engine.cards import HALF_POINTS, format_card, parse_cards, to_mask
from tarotsim.engine.kernels.score import ATTACK, DEFENCE, SIDE_NONE
from tarotsim.players.kernels.search.solver import NO_VALUE, card_values, new_solver_scratch, solve
from tests import reference as ref

SC = new_solver_scratch(12)
SIDE_CODES = {None: SIDE_NONE, ref.ATTACK: ATTACK, ref.DEFENCE: DEFENCE}
ATTACK_WON, DEFENCE_WON = 1, 2
CARD_POINTS = {card: ref.card_points_half(card) for card in ref.ALL_CARDS}


def trick_gain(cards, leader, attack, won_by, prev_petit, last, values, petit_weight):
    """(value to the attack, winner, side of the petit for the next trick) of one full trick."""
    players = len(cards)
    seats = [(leader + j) % players for j in range(players)]

    def side(seat):
        return ref.ATTACK if seat in attack else ref.DEFENCE

    winner = seats[ref.trick_winner(list(cards))]
    exception = False
    if last and ref.EXCUSE in cards:
        owner = seats[cards.index(ref.EXCUSE)]
        other_flag = DEFENCE_WON if side(owner) == ref.ATTACK else ATTACK_WON
        if not won_by & other_flag:  # the Excuse's side won every earlier trick
            exception = True
            winner = owner
    gain = 0
    for card, seat in zip(cards, seats, strict=True):
        if card != ref.EXCUSE:
            gain += values[card] if side(winner) == ref.ATTACK else 0
            continue
        owner_side = side(seat)
        if exception:
            receiver = owner_side
        elif last:
            receiver = ref.DEFENCE if owner_side == ref.ATTACK else ref.ATTACK
        else:
            receiver = owner_side
            if owner_side != side(winner):  # the exchange card
                gain += 1 if side(winner) == ref.ATTACK else -1
        gain += values[card] if receiver == ref.ATTACK else 0
    if last:
        petit = prev_petit if exception else (side(winner) if ref.PETIT in cards else None)
        gain += {ref.ATTACK: petit_weight, ref.DEFENCE: -petit_weight, None: 0}[petit]
    flag = ATTACK_WON if side(winner) == ref.ATTACK else DEFENCE_WON
    return gain, winner, flag, side(winner) if ref.PETIT in cards else None


def brute_value(hands, attack, leader, trick, won_by, prev_petit, values, petit_weight):
    """The attack's value from here by full minimax (no pruning) over card names."""
    players = len(hands)

    @cache
    def value(hands, leader, trick, won_by, prev_petit):
        if len(trick) == players:
            last = not any(hands)
            gain, winner, flag, petit = trick_gain(
                trick, leader, attack, won_by, prev_petit, last, values, petit_weight
            )
            if last:
                return gain
            return gain + value(hands, winner, (), won_by | flag, petit)
        seat = (leader + len(trick)) % players
        options = []
        for card in ref.legal_cards(hands[seat], list(trick)):
            rest = hands[:seat] + (hands[seat] - {card},) + hands[seat + 1 :]
            options.append(value(rest, leader, trick + (card,), won_by, prev_petit))
        return max(options) if seat in attack else min(options)

    return value(tuple(frozenset(h) for h in hands), leader, tuple(trick), won_by, prev_petit)


def test_brute_force_counts_like_the_reference() -> None:
    """Summed trick by trick, the brute force's count is the reference count of whole deals."""
    rng = random.Random(4)
    for _ in range(60):
        trace = ref.play_random_deal(rng, players=rng.choice([3, 4, 5]))
        if trace["thrown_in"]:
            continue
        attack = {trace["taker"]} | ({trace["partner"]} if trace["partner"] is not None else set())
        total, won_by, petit = 0, 0, None
        tricks = trace["tricks"]
        for t, trick in enumerate(tricks):
            gain, _, flag, petit_next = trick_gain(
                trick["cards"], trick["leader"], attack, won_by, petit, t == len(tricks) - 1, CARD_POINTS, 20
            )
            total += gain
            won_by |= flag
            petit = petit_next
        contract = trace["contract"]
        extra = (
            trace["ecart"]
            if contract in ("prise", "garde")
            else trace["chien"]
            if contract == "garde_sans"
            else []
        )
        count = ref.count_deal(
            [(trick["leader"], trick["cards"]) for trick in tricks],
            attack,
            trace["chien"],
            {"garde_sans": ref.ATTACK, "garde_contre": ref.DEFENCE}.get(contract),
            trace["ecart"],
        )
        petit_bonus = {ref.ATTACK: 20, ref.DEFENCE: -20, None: 0}[count.petit_au_bout]
        assert total + sum(CARD_POINTS[c] for c in extra) == count.attack_half_points + petit_bonus


# ---------------------------------------------------------------------------------------------
# random endgames
# ---------------------------------------------------------------------------------------------


class Endgame:
    """A random endgame: every hand of ``tricks`` cards, part of the first trick played."""

    def __init__(self, rng: random.Random, players: int, tricks: int, universe: list[str]):
        self.players = players
        self.leader = rng.randrange(players)
        cards = rng.sample(universe, players * tricks)
        self.hands = [set(cards[s * tricks : (s + 1) * tricks]) for s in range(players)]
        self.trick: list[str] = []
        for j in range(rng.randrange(players)):
            seat = (self.leader + j) % players
            card = rng.choice(ref.sort_cards(ref.legal_cards(self.hands[seat], self.trick)))
            self.hands[seat].discard(card)
            self.trick.append(card)
        self.attack = set(rng.sample(range(players), 2 if players == 5 and rng.random() < 0.7 else 1))
        self.won_by = rng.choice([0, ATTACK_WON, DEFENCE_WON, ATTACK_WON | DEFENCE_WON])
        self.prev_petit = rng.choice([None, ref.ATTACK, ref.DEFENCE]) if ref.PETIT not in universe else None
        self.values = dict(CARD_POINTS)
        if rng.random() < 0.3:  # other values: equal values for unequal cards, unequal for equal ones
            self.values = {card: rng.choice([0, 1, 1, 3, 9]) for card in ref.ALL_CARDS}
        self.petit_weight = rng.choice([0, 0, 20])

    def arrays(self):
        hands = np.zeros((self.players, 2), dtype=np.uint64)
        for seat, hand in enumerate(self.hands):
            hands[seat] = to_mask(parse_cards(sorted(hand)))
        attack = np.array([1 if s in self.attack else 0 for s in range(self.players)], dtype=np.int64)
        trick = np.zeros(5, dtype=np.int64)
        trick[: len(self.trick)] = parse_cards(self.trick)
        values = np.array([self.values[format_card(c)] for c in range(78)], dtype=np.int64)
        return hands, attack, trick, values

    def solve(self, alpha: int | None = None, beta: int | None = None) -> int:
        hands, attack, trick, values = self.arrays()
        args = (
            hands,
            self.players,
            attack,
            self.leader,
            trick,
            len(self.trick),
            self.won_by,
            SIDE_CODES[self.prev_petit],
            7,
            values,
            self.petit_weight,
            SC,
        )
        if alpha is None:
            return int(solve(*args)) - 7
        return int(solve(*args, alpha + 7, beta + 7)) - 7

    def brute(self) -> int:
        return brute_value(
            self.hands,
            self.attack,
            self.leader,
            self.trick,
            self.won_by,
            self.prev_petit,
            self.values,
            self.petit_weight,
        )


def universe_for(rng: random.Random) -> list[str]:
    """Few suits and a run of trumps, so that hands hold adjacent (equivalent) cards."""
    suits = rng.sample(ref.SUITS, 2)
    cards = [rank + suit for suit in suits for rank in ref.SUIT_RANKS[rng.randrange(6) :]]
    low = rng.choice([1, 1, 5, 12])
    cards += [f"T{n}" for n in range(low, low + 10)] + [ref.EXCUSE]
    return cards


CASES = [
    (3, 1, 100),
    (3, 2, 100),
    (3, 3, 100),
    (3, 4, 60),
    (4, 1, 100),
    (4, 2, 100),
    (4, 3, 100),
    (4, 4, 30),
    (5, 1, 100),
    (5, 2, 100),
    (5, 3, 60),
    (5, 4, 8),
]


@pytest.mark.parametrize(("players", "tricks", "count"), CASES)
def test_solver_matches_brute_force_minimax(players: int, tricks: int, count: int) -> None:
    rng = random.Random(1000 * players + tricks)
    for _ in range(count):
        endgame = Endgame(rng, players, tricks, universe_for(rng))
        assert endgame.solve() == endgame.brute(), vars(endgame)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_card_values_match_brute_force_for_every_legal_card(players: int) -> None:
    rng = random.Random(players)
    out = np.zeros(78, dtype=np.int64)
    for _ in range(30):
        endgame = Endgame(rng, players, rng.choice([1, 2, 2]), universe_for(rng))
        hands, attack, trick, values = endgame.arrays()
        n_legal = card_values(
            hands,
            players,
            attack,
            endgame.leader,
            trick,
            len(endgame.trick),
            endgame.won_by,
            SIDE_CODES[endgame.prev_petit],
            values,
            endgame.petit_weight,
            SC,
            out,
        )
        seat = (endgame.leader + len(endgame.trick)) % players
        legal = ref.legal_cards(endgame.hands[seat], endgame.trick)
        assert n_legal == len(legal)
        for card in range(78):
            name = format_card(card)
            if name not in legal:
                assert out[card] == NO_VALUE
                continue
            after = [set(h) for h in endgame.hands]
            after[seat].discard(name)
            want = brute_value(
                after,
                endgame.attack,
                endgame.leader,
                endgame.trick + [name],
                endgame.won_by,
                endgame.prev_petit,
                endgame.values,
                endgame.petit_weight,
            )
            assert out[card] == want, (name, vars(endgame))
        best = max if seat in endgame.attack else min
        assert best(out[c] for c in range(78) if out[c] != NO_VALUE) == endgame.solve()


def test_a_window_gives_bounds_that_hold() -> None:
    """Fail-soft: a result at or below alpha bounds the value above, at or above beta below."""
    rng = random.Random(8)
    for _ in range(80):
        endgame = Endgame(rng, rng.choice([3, 4, 5]), 2, universe_for(rng))
        exact = endgame.brute()
        alpha = exact + rng.randint(-12, 12)
        beta = alpha + rng.choice([1, 1, 5])
        got = endgame.solve(alpha, beta)
        if got <= alpha:
            assert exact <= got
        elif got >= beta:
            assert exact >= got
        else:
            assert got == exact


# ---------------------------------------------------------------------------------------------
# hand-made endgames: the Excuse and the petit au bout
# ---------------------------------------------------------------------------------------------


def solve_names(
    hands, attack, leader, trick=(), won_by=ATTACK_WON | DEFENCE_WON, prev_petit=SIDE_NONE, petit_weight=0
):
    players = len(hands)
    words = np.zeros((players, 2), dtype=np.uint64)
    for seat, hand in enumerate(hands):
        words[seat] = to_mask(parse_cards(hand))
    sides = np.array([1 if s in attack else 0 for s in range(players)], dtype=np.int64)
    cards = np.zeros(5, dtype=np.int64)
    cards[: len(trick)] = parse_cards(list(trick))
    return int(
        solve(
            words,
            players,
            sides,
            leader,
            cards,
            len(trick),
            won_by,
            prev_petit,
            0,
            HALF_POINTS,
            petit_weight,
            SC,
        )
    )


def test_the_excuse_on_the_last_trick_changes_sides() -> None:
    # the taker (seat 0) must play the Excuse last: it goes to the defence, the 2S too
    assert solve_names(["EX", "2S", "3S"], {0}, leader=0) == 0
    # a defender's Excuse on the last trick goes to the attack, which wins 3S and 2S: 9 + 1 + 1
    assert solve_names(["3S", "EX", "2S"], {0}, leader=0) == 11


def test_the_excuse_stays_with_its_side_before_the_last_trick() -> None:
    # two tricks; the taker leads the Excuse first (seat 1 then leads its winner), or keeps it
    # for the last trick, where it changes sides: leading it first keeps 9 and pays 1
    hands = [["EX", "KS"], ["1S", "2S"], ["3S", "4S"]]
    # Excuse first: -1 for the exchange + 9; the defence wins 1S/3S (seat 2); seat 2 leads 4S,
    # the taker's King wins 4S and 2S: 9 + 1 + 1
    assert solve_names(hands, {0}, leader=0) == 9 - 1 + 9 + 1 + 1


def test_the_chelem_exception_lets_the_excuse_win_the_last_trick() -> None:
    # the attack has won every trick so far: its Excuse wins the last trick and keeps it all
    assert solve_names(["EX", "KS", "QS"], {0}, leader=0, won_by=ATTACK_WON) == 9 + 9 + 7
    # the defence has won a trick: the Excuse changes sides, the King's trick goes to seat 1
    assert solve_names(["EX", "KS", "QS"], {0}, leader=0, won_by=ATTACK_WON | DEFENCE_WON) == 0


def test_the_petit_au_bout_and_its_exception() -> None:
    # the taker wins the last trick with the Petit in it
    assert solve_names(["T2", "T1", "1S"], {0}, leader=1, petit_weight=20) == 1 + 9 + 1 + 20
    # the chelem exception looks at the previous trick instead (won by the attack, with the Petit)
    assert (
        solve_names(["EX", "1S", "2S"], {0}, leader=0, won_by=ATTACK_WON, prev_petit=ATTACK, petit_weight=20)
        == 9 + 1 + 1 + 20
    )
    assert (
        solve_names(
            ["EX", "T1", "2S"], {0}, leader=0, won_by=ATTACK_WON, prev_petit=SIDE_NONE, petit_weight=20
        )
        == 9 + 9 + 1
    )
