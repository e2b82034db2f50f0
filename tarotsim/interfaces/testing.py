"""Checking that a strategy does not peek: its decisions must not change when the cards its
seat cannot see are dealt differently.

[`check_no_peeking`][tarotsim.interfaces.testing.check_no_peeking] plays deals with the strategy in every seat, one decision at a
time (``tarotsim.Game``), and at decisions drawn at random deals the unseen cards again —
the other hands, the chien while unseen, the écart beyond its shown trumps, and at five
players the called card (so the secret partner changes) — keeping everything the seat
knows: the hand sizes, the voids shown in play, the poignées shown, the chien once shown,
the écart holding no King, bout or hidden trump. It then asks the strategy again at the
same decision: another answer means the strategy read something its seat does not know.
It works on any strategy: built-in policies, Python players (``Strategy(play=f)``,
``Strategy(act=f)``) and Numba card players.

The deal's random stream (``SeatView.rng``) stays the same when the cards change, so a
random player's draws do not count as peeking; what the harness cannot see is a player
that rebuilds the deal from the stream or from the run's seed. The project's own tests
(``tests/test_no_peeking*.py``) use the same redistribution (`redistribute`) on
the kernels' policies.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from tarotsim.engine.cards import (
    EXCUSE,
    EXCUSE_SUIT,
    KING,
    N_CARDS,
    N_SUIT_CARDS,
    PETIT,
    SUIT_LEN,
    TRUMP_21,
    TRUMP_SUIT,
    format_card,
    from_mask,
    to_mask,
)
from tarotsim.engine.kernels.state import (
    I_CALLED,
    I_CHIEN_SHOWN,
    I_PARTNER,
    I_PARTNER_KNOWN,
    I_PLAYERS,
    I_TAKER,
    I_VOIDS,
    VOID_SHIFT,
    DealState,
)

__all__ = ["NoPeekingReport", "PeekingError", "check_no_peeking", "redistribute"]


def cards_of(word0: np.uint64 | int, word1: np.uint64 | int) -> set[int]:
    """The cards of a card set."""
    return set(from_mask(int(word0), int(word1)))


def mask_of(cards: set[int]) -> tuple[np.uint64, np.uint64]:
    """The card set of ``cards``."""
    return to_mask(sorted(cards))


def shown_void(tb: DealState, seat: Any, suit: int) -> bool:
    """Whether ``seat`` has shown in play that it holds no card of ``suit`` (4: no trump)."""
    return bool(int(tb.info[I_VOIDS]) >> (VOID_SHIFT * suit + seat) & 1)


def copy_table(tb: DealState) -> DealState:
    """A copy of the deal's arrays."""
    return DealState(*(field.copy() for field in tb))


def suit_index(card: int) -> int:
    """0-3 suits, 4 trumps, 5 the Excuse (``engine.kernels.rules.suit_code``)."""
    if card < N_SUIT_CARDS:
        return card // SUIT_LEN
    return TRUMP_SUIT if card < EXCUSE else EXCUSE_SUIT


def set_partner(tb: DealState) -> None:
    """5 players, the called card not yet played: make the seat holding it the partner
    (``attack``; ``info[I_PARTNER]`` is public, -1 until the card is played)."""
    taker = int(tb.info[I_TAKER])
    called = int(tb.info[I_CALLED])
    if tb.info[I_PARTNER] != -1:
        raise ValueError("the partner is public already")
    tb.attack[:] = 0
    tb.attack[taker] = 1
    for seat in range(int(tb.info[I_PLAYERS])):
        if seat != taker and called in cards_of(*tb.hands[seat]):
            tb.attack[seat] = 1


def true_partner(tb: DealState) -> int:
    """The partner by the sides (``tb.attack``, secret until the called card is played), -1 none."""
    taker = int(tb.info[I_TAKER])
    return next((s for s in range(int(tb.info[I_PLAYERS])) if s != taker and tb.attack[s]), -1)


def redistribute(tb: DealState, observer: int, rng: random.Random) -> tuple[DealState, int]:
    """A copy of ``tb`` where the cards ``observer`` cannot see are dealt again, keeping what it knows.

    Returns the copy and how many cards were open to moving.
    """
    new = copy_table(tb)
    players = int(tb.info[I_PLAYERS])
    taker = int(tb.info[I_TAKER])
    called = int(tb.info[I_CALLED])
    chien_shown = bool(tb.info[I_CHIEN_SHOWN])
    chien = cards_of(*tb.chien)
    pool: list[int] = []
    capacity: dict[object, int] = {}
    kept: dict[object, set[int]] = {}

    for seat in range(players):
        if seat == observer:
            continue
        hand = cards_of(*tb.hands[seat])
        keep = hand & cards_of(*tb.shown[seat])
        if chien_shown and seat == taker:
            keep |= hand & chien  # everyone saw the chien go to the taker
        kept[seat] = keep
        capacity[seat] = len(hand - keep)
        pool += sorted(hand - keep)
    if chien_shown and observer != taker:
        ecart = cards_of(*tb.ecart)
        keep = {c for c in ecart if suit_index(c) == TRUMP_SUIT} | (ecart & chien)
        kept["ecart"] = keep
        capacity["ecart"] = len(ecart - keep)
        pool += sorted(ecart - keep)
    if not chien_shown:
        kept["chien"] = set()
        capacity["chien"] = len(chien)
        pool += sorted(chien)

    def accepts(slot: object, card: int) -> bool:
        suit = suit_index(card)
        if card == called and (slot == taker or slot == "ecart"):
            return False  # the taker never calls its own card; one from the shown chien is kept
        if slot == "ecart":
            return suit < TRUMP_SUIT and card % SUIT_LEN != KING and card not in (PETIT, TRUMP_21, EXCUSE)
        if slot == "chien":
            return True
        return suit == EXCUSE_SUIT or not shown_void(tb, slot, suit)

    for _attempt in range(200):
        left = dict(capacity)
        placed: dict[object, set[int]] = {slot: set() for slot in capacity}
        cards = pool[:]
        rng.shuffle(cards)
        cards.sort(key=lambda c: sum(1 for s in capacity if accepts(s, c)))
        ok = True
        for card in cards:
            slots = [s for s in capacity if left[s] > 0 and accepts(s, card)]
            if not slots:
                ok = False
                break
            slot = rng.choices(slots, weights=[left[s] for s in slots])[0]
            placed[slot].add(card)
            left[slot] -= 1
        if ok:
            break
    else:
        raise AssertionError("no redistribution found (the original one should do)")

    played = cards_of(*tb.played)
    for slot, dealt in placed.items():
        full = kept[slot] | dealt
        if slot == "ecart":
            new.ecart[:] = mask_of(full)
        elif slot == "chien":
            new.chien[:] = mask_of(full)
        else:
            new.hands[slot] = mask_of(full)
            dealt_played = cards_of(*tb.dealt[slot]) & played
            new.dealt[slot] = mask_of(dealt_played | (full - (chien if chien_shown else set())))
    if called >= 0 and not tb.info[I_PARTNER_KNOWN]:
        set_partner(new)
    new.pack[:] = rng.sample(range(N_CARDS), N_CARDS)  # scratch: nobody may read it
    new.scores[:] = [rng.randrange(-500, 500) for _ in range(len(new.scores))]
    return new, len(pool)


def holder_of_called(tb: DealState) -> object:
    """Where the called card is: a seat, "chien" (not shown), or None (played, or public)."""
    called = int(tb.info[I_CALLED])
    if called < 0 or tb.info[I_PARTNER_KNOWN]:
        return None
    for seat in range(int(tb.info[I_PLAYERS])):
        if called in cards_of(*tb.hands[seat]):
            return None if seat == tb.info[I_TAKER] else seat  # the taker's: from the shown chien
    if not tb.info[I_CHIEN_SHOWN] and called in cards_of(*tb.chien):
        return "chien"
    return None  # in the écart: it came from the shown chien


def move_called_card(tb: DealState, observer: int, rng: random.Random) -> DealState | None:
    """A copy of ``tb`` where the called card sits elsewhere, as far as ``observer`` knows; None if it cannot move.

    The card goes to another seat that may hold it (neither the observer nor the taker, no
    void shown in its suit) or into the chien when the chien was not shown; in exchange a
    card of that place that nobody saw (not a poignée card) and that the card's old place
    may hold goes back. The partner and the attack flags follow the called card.
    """
    source = holder_of_called(tb)
    if source is None or source == observer:
        return None
    players = int(tb.info[I_PLAYERS])
    taker = int(tb.info[I_TAKER])
    called = int(tb.info[I_CALLED])

    def may_hold(slot: object, card: int) -> bool:
        return (
            slot == "chien" or suit_index(card) == EXCUSE_SUIT or not shown_void(tb, slot, suit_index(card))
        )

    targets: list[object] = [
        s for s in range(players) if s not in (observer, taker, source) and may_hold(s, called)
    ]
    if not tb.info[I_CHIEN_SHOWN] and source != "chien":
        targets.append("chien")
    rng.shuffle(targets)

    def cards_at(t: DealState, slot: object) -> set[int]:
        return cards_of(*t.chien) if slot == "chien" else cards_of(*t.hands[slot])

    def put(t: DealState, slot: object, out_card: int, in_card: int) -> None:
        cards = (cards_at(t, slot) - {out_card}) | {in_card}
        if slot == "chien":
            t.chien[:] = mask_of(cards)
        else:
            t.hands[slot] = mask_of(cards)
            t.dealt[slot] = mask_of((cards_of(*t.dealt[slot]) - {out_card}) | {in_card})

    for target in targets:
        hidden = cards_at(tb, target) - (set() if target == "chien" else cards_of(*tb.shown[target]))
        swaps = sorted(c for c in hidden if may_hold(source, c))
        if not swaps:
            continue
        back = rng.choice(swaps)
        new = copy_table(tb)
        put(new, source, called, back)
        put(new, target, back, called)
        set_partner(new)

        return new
    return None


def partner_changes(tb: DealState, observer: int, rng: random.Random, redeals: int) -> Iterator[DealState]:
    """Tables where the partner differs from ``tb``'s: the called card moved alone, then
    moved on top of a redistribution of everything else the observer cannot see."""
    moved = move_called_card(tb, observer, rng)
    if moved is None:
        return
    yield moved
    for _ in range(redeals):
        other, _n = redistribute(tb, observer, rng)
        if holder_of_called(other) is None:
            continue
        moved = move_called_card(other, observer, rng)
        if moved is not None and true_partner(moved) != true_partner(tb):
            yield moved


# ---------------------------------------------------------------------------------------------
# the check on a strategy
# ---------------------------------------------------------------------------------------------


class PeekingError(AssertionError):
    """A strategy decided differently when cards its seat cannot see were dealt differently."""


@dataclass(frozen=True)
class NoPeekingReport:
    """What [`check_no_peeking`][tarotsim.interfaces.testing.check_no_peeking] checked: ``decisions`` asked again under ``redeals``
    other deals of the unseen cards each (``redeals_made`` in all), by phase."""

    strategy: str
    decisions: int
    redeals_made: int
    by_phase: dict[str, int]

    def __str__(self) -> str:
        phases = ", ".join(f"{n} {phase}" for phase, n in sorted(self.by_phase.items()))
        return (
            f"{self.strategy}: no peeking found at {self.decisions} decisions ({phases}), "
            f"each asked again with the unseen cards dealt differently ({self.redeals_made} in all)"
        )


def _python_decider(player: Any) -> Any:
    act = getattr(player, "act", None)
    return act if callable(act) else player


def _ask(strategy: Any, game: Any) -> str:
    """The action ``strategy`` takes for the seat to act in ``game`` (which this frame holds
    alone: the game asked is the one a player reaching for it would find)."""
    from tarotsim.interfaces.game import decide

    observation = game.observation()
    phase = observation.phase
    if strategy.player is not None and (strategy.acts_all or phase == "play"):
        action = _python_decider(strategy.player)(observation)
    elif (
        strategy.card_function is not None
        and phase == "play"
        and _plays_by_function(strategy, observation.attack)
    ):
        action = _numba_card(strategy, observation)
    elif strategy.bid_function is not None and phase == "bid":
        action = _numba_bid(strategy, observation)
    else:
        return decide(observation, strategy)
    if not isinstance(action, str) or action not in observation.legal_actions:
        from tarotsim.interfaces.python_players import PlayerError

        raise PlayerError(
            f"seat {observation.seat} returned {action!r} at a {phase} decision; "
            f"legal actions: {', '.join(observation.legal_actions)}"
        )
    return action


def _plays_by_function(strategy: Any, attack: bool) -> bool:
    return (strategy.attack_play if attack else strategy.defence_play) is None


def _frozen_view(observation: Any) -> Any:
    """The observing seat's view as the game hands it to a Numba function: copies, read-only
    but the random stream."""
    view = observation._view
    frozen = {}
    for name in ("info", "played", "trick", "shown", "history", "bids"):
        array = getattr(view, name).copy()
        array.flags.writeable = False
        frozen[name] = array
    return view._replace(rng=view.rng.copy(), **frozen)


def _options(strategy: Any) -> np.ndarray:
    options = np.array(strategy.params, dtype=np.float64)
    options.flags.writeable = False
    return options


def _numba_card(strategy: Any, observation: Any) -> str:
    """The Numba card player's card at ``observation``."""
    _, _, legal0, legal1, _ = observation._decision
    card = int(
        strategy.card_function(
            _frozen_view(observation), np.uint64(legal0), np.uint64(legal1), _options(strategy)
        )
    )
    return format_card(card) if 0 <= card < N_CARDS else str(card)


def _numba_bid(strategy: Any, observation: Any) -> str:
    """The Numba bidder's word at ``observation``: its wish when it beats the bid so far
    (as the game bids it), else a pass."""
    from tarotsim.engine.labels import CONTRACT_NAMES

    _, highest, _, _, _ = observation._decision
    wish = int(strategy.bid_function(_frozen_view(observation), _options(strategy)))
    if not 0 <= wish < len(CONTRACT_NAMES):
        return str(wish)
    return CONTRACT_NAMES[wish] if wish > highest else CONTRACT_NAMES[0]


def _redealt(game: Any, seat: int, rng: random.Random) -> Iterator[Any]:
    """Copies of ``game`` with the cards ``seat`` cannot see dealt again (and, at five
    players before the called card is played, the called card moved: another partner)."""
    tb = game._tb
    tables = []
    other, moved = redistribute(tb, seat, rng)
    if moved:
        tables.append(other)
    if int(tb.info[I_PLAYERS]) == 5:
        swapped = move_called_card(tb, seat, rng)
        if swapped is not None:
            tables.append(swapped)
    for table in tables:
        copy = game.clone()
        for mine, theirs in zip(copy._tb, table, strict=True):
            mine[...] = theirs
        copy._tb.rng[...] = tb.rng  # the same random stream: a random player draws the same
        yield copy


def card_positions(
    players: int, count: int | None = None, *, seed: int, strategy: str = "play=heuristic"
) -> Iterator[tuple[Any, int, int]]:
    """Positions at a card decision, for the tests and benchmarks of what a seat can infer.

    Deals ``0, 1, …`` of the run of ``seed`` are played with ``strategy`` (a spec of a policy
    that does not search) in every seat, one decision at a time, each to a card decision drawn
    uniformly (``random.Random(seed)``) among the ``players × (hand − 1)`` cards before the last
    trick; deals thrown in (a Petit sec, or all passed) are skipped.

    Yields
    ------
    game, seat, dealt : tarotsim.Game, int, int
        ``count`` times (endlessly without it): the game stopped at the decision, the seat
        to play, and how many deals have been dealt (this one included).
    """
    from tarotsim.base.seeding import run_key
    from tarotsim.engine.kernels.state import C_HAND
    from tarotsim.interfaces.game import Game, strategy_cfg

    cfg = strategy_cfg(strategy, players)
    key = run_key(seed)
    choose = random.Random(seed)
    dealt = made = 0
    while count is None or made < count:
        game = Game._for_run(cfg, key, dealt)
        dealt += 1
        if game.over:
            continue  # a Petit sec: thrown in
        target = choose.randrange(players * (int(cfg[C_HAND]) - 1))
        seen = 0
        while not game.over:
            if game.phase == "play":
                if seen == target:
                    break
                seen += 1
            game.apply(game.ask(strategy))
        if game.over:
            continue  # all passed: thrown in
        made += 1
        yield game, int(game.to_act), dealt  # type: ignore[arg-type]


def check_no_peeking(
    strategy: Any,
    *,
    players: int = 4,
    deals: int = 20,
    seed: int = 0,
    redeals: int = 3,
    share: float = 0.25,
) -> NoPeekingReport:
    """Check that ``strategy`` decides from what its seat knows only.

    Deals ``0 … deals - 1`` of the run with ``seed`` are played with ``strategy`` in every
    seat; at a ``share`` of the decisions with a choice (drawn at random), the cards the
    deciding seat cannot see are dealt again ``redeals`` times (and at five players the
    called card moved), and the strategy is asked again: it must answer the same.

    Parameters
    ----------
    strategy
        A [`Strategy`][tarotsim.Strategy], a spec such as ``"play=heuristic"``, a Python player
        or a Numba card player.
    players
        3, 4 or 5.
    deals, seed
        The deals played (``Game(players, seed=seed, deal=d)``).
    redeals
        Other deals of the unseen cards per decision checked.
    share
        The share of decisions checked, between 0 and 1.

    Returns
    -------
    NoPeekingReport
        What was checked (``str()`` says it in one line).

    Raises
    ------
    PeekingError
        At the first decision that changed: the message names the deal, the seat, the
        decision, the two answers and the cards that were moved.
    ValueError
        For bad counts, or a player that returns an illegal action
        (``tarotsim.interfaces.python_players.PlayerError``).

    A strategy that searches (``pimc``, the ``montecarlo`` bidder…) is asked as
    ``tarotsim.interfaces.game.decide`` asks it, its draws seeded by the observation's random stream,
    which the redealt tables keep: an honest search draws the same worlds and answers the same.
    """
    from tarotsim.interfaces.game import Game
    from tarotsim.players.config import check_count
    from tarotsim.players.strategy import to_strategy

    strategy = to_strategy(strategy)
    deals = check_count(deals, "deals", minimum=1)
    redeals = check_count(redeals, "redeals", minimum=1)
    if not 0 < share <= 1:
        raise ValueError(f"share must be above 0 and at most 1, got {share}")
    rng = random.Random(seed)
    checked = made = 0
    by_phase: dict[str, int] = {}
    for deal in range(deals):
        game = Game(players, seed=seed, deal=deal)
        while not game.over:
            action = _ask(strategy, game)
            if len(game.legal_actions()) > 1 and rng.random() < share:
                seat = int(game.to_act)  # type: ignore[arg-type]
                for _ in range(redeals):
                    for other in _redealt(game, seat, rng):
                        made += 1
                        again = _ask(strategy, other)
                        if again != action:
                            raise PeekingError(
                                _peek_message(strategy.label, deal, game, other, action, again)
                            )
                checked += 1
                by_phase[game.phase] = by_phase.get(game.phase, 0) + 1
            game.apply(action)
    return NoPeekingReport(strategy.label, checked, made, by_phase)


def _peek_message(label: str, deal: int, game: Any, other: Any, action: str, again: str) -> str:
    seat = game.to_act
    moved = []
    for s in range(game.players):
        if s == seat:
            continue
        before = cards_of(*game._tb.hands[s])
        after = cards_of(*other._tb.hands[s])
        if before != after:
            moved.append(f"seat {s} " + " ".join(format_card(c) for c in sorted(after)))
    return (
        f"{label} peeks: at deal {deal}, seat {seat}'s {game.phase} decision, it chose {action!r}; "
        f"with the cards it cannot see dealt differently ({'; '.join(moved) or 'the chien or écart'}) "
        f"it chose {again!r}"
    )
