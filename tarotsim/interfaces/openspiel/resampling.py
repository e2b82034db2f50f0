"""States from deals: the state a given deal reaches ([`deal_state`][tarotsim.interfaces.openspiel.resampling.deal_state]), and the exact
resampling from a seat's information ([`resample`][tarotsim.interfaces.openspiel.resampling.resample], [`state_from_observation`][tarotsim.interfaces.openspiel.resampling.state_from_observation]), which
lets OpenSpiel's IS-MCTS play the game and seats OpenSpiel bots at tarotsim's table."""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel

from tarotsim.engine.cards import N_CARDS, N_SUIT_CARDS, parse_cards
from tarotsim.engine.kernels.score import POIGNEE_THRESHOLDS
from tarotsim.engine.labels import Poignee
from tarotsim.interfaces.game import Observation
from tarotsim.interfaces.openspiel.cardsets import (
    _EXCUSE,
    _NAMES,
    _PETIT,
    _SUITS,
    _TRUMPS,
    _ids,
    _mask,
    _names,
)
from tarotsim.interfaces.openspiel.spec import _Spec, load
from tarotsim.players.config import RunConfig
from tarotsim.players.kernels.search.constraints import seat_constraints
from tarotsim.players.kernels.search.worlds import (
    MAX_HOLDERS,
    draw_world,
    holder_allowed,
    new_world_scratch,
    prepare_worlds,
)


def deal_state(
    game: pyspiel.Game,
    hands: Sequence[Sequence[str] | str],
    chien: Sequence[str] | str,
) -> pyspiel.State:
    """The state of ``game`` once ``hands`` (one per seat) and ``chien`` are dealt: the
    chance outcomes that deal them, applied.

    Raises
    ------
    ValueError
        For cards that do not make a pack at the game's table.
    """
    spec = game.spec
    holder = [-1] * N_CARDS
    for h, cards in enumerate([*hands, chien]):
        for card in parse_cards(cards, what="hand" if h < spec.players else "chien"):
            if holder[card] >= 0:
                raise ValueError(f"card {_NAMES[card]} is dealt twice")
            holder[card] = h
    if len(hands) != spec.players or -1 in holder:
        raise ValueError(f"give {spec.players} hands and the chien, every card once")
    state = game.new_initial_state()
    for card in range(N_CARDS):
        if holder[card] not in dict(state.chance_outcomes()):
            raise ValueError(
                f"the hands are not {spec.hand_size} cards each and a chien of {spec.chien_size}"
            )
        state.apply_action(holder[card])
    return state


_SCRATCH: list[Any] = []


def _world_scratch() -> Any:
    if not _SCRATCH:
        _SCRATCH.append(new_world_scratch())
    return _SCRATCH[0]


def _to_kernel(bits: int) -> tuple[np.uint64, np.uint64]:
    """Card set (bit = card id) → the kernels' two words (suit cards, then trumps and Excuse)."""
    return np.uint64(bits & _SUITS), np.uint64(bits >> N_SUIT_CARDS)


def _from_kernel(word0: Any, word1: Any) -> int:
    return int(word0) | int(word1) << N_SUIT_CARDS


@functools.cache
def _rules_cfg(players: int) -> np.ndarray:
    """A table of ``players`` whose seats know what the rules allow (``knowledge=rules``)."""
    return RunConfig(players=players).to_array()


class _Plan:
    """The holders of the cards a seat cannot see and what the seat knows of them, by the one
    set of hidden-card constraints (``players.kernels.search.constraints.seat_constraints``, on the
    seat's view), and how to rebuild the deal from a draw."""

    def __init__(self, obs: Observation, spec: _Spec) -> None:
        p = obs.seat
        taker = obs.taker if obs.phase not in ("bid",) else None
        self.obs = obs
        self.taker = taker
        self.own = _mask(obs.hand)
        self.played = [_mask(cards) for cards in obs.played]
        self.chien = _mask(obs.chien) if obs.chien is not None else 0
        self.known_ecart = _mask(obs.ecart)
        # a defender while the taker lays its écart: the taker holds its hand and the chien
        self.laying_unseen = obs.phase == "ecart" and p != taker
        self.unseen_words = np.zeros(2, dtype=np.uint64)
        self.sizes = np.zeros(MAX_HOLDERS, dtype=np.int64)
        self.voids = np.zeros(MAX_HOLDERS, dtype=np.int64)
        self.known = np.zeros((MAX_HOLDERS, 2), dtype=np.uint64)
        self.possible = np.zeros((MAX_HOLDERS, 2), dtype=np.uint64)
        holder_seat = np.zeros(MAX_HOLDERS, dtype=np.int64)
        self.allowed = np.zeros((MAX_HOLDERS, 2), dtype=np.uint64)
        self.world = np.zeros((MAX_HOLDERS, 2), dtype=np.uint64)
        n = seat_constraints(
            obs._view,
            _rules_cfg(spec.players),
            self.unseen_words,
            self.sizes,
            self.voids,
            self.known,
            self.possible,
            holder_seat,
        )
        if self.laying_unseen:  # no écart yet: the cards of its holder, the chien's, are the taker's
            n -= 1
            h = int(np.flatnonzero(holder_seat[:n] == taker)[0])
            self.sizes[h] += self.sizes[n]
            self.known[h] |= np.array(_to_kernel(self.chien), dtype=np.uint64) & self.unseen_words
        self.n = n
        self.holders = [int(seat) for seat in holder_seat[:n]]

    def prepare(self, scratch: Any) -> float:
        holder_allowed(self.unseen_words, self.voids, self.known, self.possible, self.n, self.allowed)
        return float(prepare_worlds(self.allowed, self.sizes, self.n, self.unseen_words, scratch))

    def deal(self, rng_words: np.ndarray, scratch: Any) -> tuple[list[int], int, int] | None:
        """One draw: every seat's hand as dealt, the chien, the écart (0 when not laid or
        the seat's own); None when the deal has a petit sec (it would have been thrown in)."""
        obs = self.obs
        draw_world(rng_words, scratch, self.world)
        drawn = {seat: _from_kernel(*self.world[h]) for h, seat in enumerate(self.holders)}
        n = obs.players
        p = obs.seat
        taker = self.taker
        chien = self.chien if self.chien else drawn.get(-1, 0)
        ecart = 0
        if self.chien and taker is not None and obs.phase != "ecart":
            ecart = self.known_ecart | (drawn.get(-1, 0) if p != taker else 0)
        dealt = []
        for seat in range(n):
            now = self.own if seat == p else drawn[seat]
            if self.laying_unseen:  # the taker's draw holds the chien
                hand = now & ~self.chien
            elif seat == taker and self.chien:
                extra = self.known_ecart if obs.phase == "ecart" else ecart
                hand = (now | self.played[seat] | extra) & ~self.chien
            else:
                hand = now | self.played[seat]
            if hand & _TRUMPS == _PETIT and not hand & _EXCUSE:
                return None
            dealt.append(hand)
        return dealt, chien, ecart


def resample(state: pyspiel.State, player: int, rng: np.random.Generator) -> pyspiel.State:
    """A state drawn uniformly among the deals consistent with everything ``player`` knows
    at ``state``, with the same moves as far as ``player`` can tell.

    The deal is drawn by the exact world sampler (``players.kernels.search.worlds``): uniformly over
    the deals that give each other seat, the unseen chien and the hidden écart their number
    of cards, and that agree with every inference the rules allow, the one set of
    hidden-card constraints ``pimc`` uses (``players.kernels.search.constraints``, its ``rules``
    knowledge): the voids (not following, not trumping), the trumps an under-trump shows a
    seat lacks, the poignées shown (the lowest trumps but the Petit are shown, so its hidden
    trumps are the Petit and those above), the écart (no King, no bout, its trumps shown;
    trumps in it leave the taker no suit card but Kings), the chien shown at a Prise or a
    Garde (with the taker or in the écart), and, with five players, a lower rank called (the
    taker was dealt every card above). A draw
    where a hand was dealt a petit sec is drawn again (that deal would have been thrown in):
    the result is uniform over the consistent deals. The moves are then replayed on that
    deal: the public ones, the seat's own, a poignée declined by another seat (nobody sees
    it) where the new deal asks for one, and the écart of another taker in a fixed order (a
    defender does not see the order; while the taker is still laying it, the cards laid so
    far are drawn one at a time among the legal ones).

    Raises
    ------
    ValueError
        At a terminal state, or for a player not at the table.
    """
    spec = state.spec
    if not 0 <= player < spec.players:
        raise ValueError(f"player must be 0 to {spec.players - 1}, got {player}")
    if state.is_terminal():
        raise ValueError("the deal is over: nothing is hidden any more")
    if state._table is None:
        return _resample_dealing(state, player, rng)
    game = state._table.game
    laid = sum(1 for _, name in state._moves if name.startswith("ecart:"))
    return _resample(
        state.get_game(), game.observation(player), state._moves, game.to_act, game.phase, laid, rng
    )


def _resample(
    game: pyspiel.Game,
    obs: Observation,
    moves: Sequence[tuple[int, str]],
    to_act: int | None,
    phase: str,
    laid: int,
    rng: np.random.Generator,
) -> pyspiel.State:
    """A state of ``game`` drawn for the seat of ``obs`` ([`resample`][tarotsim.interfaces.openspiel.resampling.resample]), whose moves
    ``moves`` led to ``to_act`` deciding at ``phase``, ``laid`` cards of the écart down."""
    plan = _Plan(obs, game.spec)
    scratch = _world_scratch()
    if plan.prepare(scratch) <= 0.0:
        raise RuntimeError(f"no deal is consistent with what seat {obs.seat} knows")
    rng_words = rng.integers(1, 2**63, size=4, dtype=np.uint64)
    for _ in range(10_000):
        drawn = plan.deal(rng_words, scratch)
        if drawn is not None:
            break
    else:  # pragma: no cover - the petit sec is rare in any consistent deal
        raise RuntimeError("every deal drawn had a petit sec")
    dealt, chien, ecart = drawn
    new = deal_state(game, [_names(h) for h in dealt], _names(chien))
    _replay(new, moves, obs.seat, to_act, phase, laid, plan, ecart, random.Random(int(rng.integers(2**63))))
    return new


def _replay(
    new: pyspiel.State,
    moves: Sequence[tuple[int, str]],
    player: int,
    to_act: int | None,
    phase: str,
    laid: int,
    plan: _Plan,
    ecart: int,
    rng: random.Random,
) -> None:
    """Apply to ``new`` (just dealt) the moves that ``player`` sees or made, up to
    ``to_act`` deciding at ``phase`` (``laid`` cards of the écart down)."""
    ids = new.spec.action_ids
    others_ecart = player != plan.taker
    # another seat's écart, suit cards first (a trump goes only once they are all laid)
    queue = [f"ecart:{_NAMES[c]}" for c in _ids(ecart & _SUITS) + _ids(ecart & ~_SUITS)]

    def drive(seat: int | None, name: str | None) -> None:
        game = new.tarot
        assert game is not None
        while not game.over:
            if game.phase == "poignee" and not (seat == game.to_act and name and name.startswith("poignee:")):
                new.apply_action(ids["poignee:none"])
            elif game.phase == "ecart" and others_ecart and queue:
                new.apply_action(ids[queue.pop(0)])
            else:
                return

    for seat, name in moves:
        if seat != player and (name == "poignee:none" or name.startswith("ecart:")):
            continue
        drive(seat, name)
        new.apply_action(ids[name])
    game = new.tarot
    assert game is not None
    if plan.laying_unseen:  # the taker is laying its écart: some cards, unseen, are down
        for _ in range(laid):
            new.apply_action(ids[rng.choice(game.legal_actions())])
        return
    # the seat to act acts in ``new`` too, at the same kind of decision
    drive(to_act, "poignee:" if phase == "poignee" else None)


def _resample_dealing(state: pyspiel.State, player: int, rng: np.random.Generator) -> pyspiel.State:
    """While dealing, ``player`` knows its cards dealt so far: a uniform deal holding them
    (and no other card dealt so far) for it, dealt as far as ``state``."""
    spec = state.spec
    dealt_so_far = state._next
    mine = [c for c in range(dealt_so_far) if state._holder[c] == player]
    later = list(range(dealt_so_far, N_CARDS))
    extra = rng.choice(later, size=spec.hand_size - len(mine), replace=False).tolist() if later else []
    taken = set(mine) | set(extra)
    rest = [c for c in range(N_CARDS) if c not in taken]
    order = rng.permutation(len(rest))
    slots = [h for h in range(spec.players + 1) if h != player for _ in range(spec.room_of(h))]
    holder = [-1] * N_CARDS
    for c in [*mine, *extra]:
        holder[c] = player
    for i, j in enumerate(order.tolist()):
        holder[rest[j]] = slots[i]
    new = state.get_game().new_initial_state()
    for card in range(dealt_so_far):
        new.apply_action(holder[card])
    return new


def observed_moves(obs: Observation) -> list[tuple[int, str]]:
    """The moves the seat of ``obs`` has seen or made, in order, as (seat, action): the
    bids, the call, its own écart (in card order) if it is the taker, the chelem, the
    poignées shown and the cards played."""
    n = obs.players
    moves = [((obs.dealer + 1 + i) % n, word) for i, word in enumerate(obs.bids)]
    if obs.phase == "bid" or obs.taker is None:
        return moves
    taker = obs.taker
    if obs.called_card is not None:
        moves.append((taker, f"call:{obs.called_card}"))
    if obs.seat == taker:
        moves += [(taker, f"ecart:{card}") for card in obs.ecart]
    if obs.phase in ("poignee", "play", "over"):
        moves.append((taker, "chelem:yes" if obs.chelem_announced else "chelem:no"))
    thresholds = [int(t) for t in POIGNEE_THRESHOLDS[n - 3]]
    tricks = [(leader, cards) for leader, cards, _ in obs.tricks]
    if obs.leader is not None:
        tricks.append((obs.leader, obs.trick))
    for t, (leader, cards) in enumerate(tricks):
        for j, card in enumerate(cards):
            seat = (leader + j) % n
            shown = obs.poignees[seat]
            if t == 0 and shown:
                moves.append((seat, f"poignee:{Poignee(thresholds.index(len(shown)) + 1).label}"))
            moves.append((seat, card))
    return moves


def state_from_observation(obs: Observation, rng: np.random.Generator) -> pyspiel.State:
    """A state of the OpenSpiel game at which the seat of ``obs`` (to act) knows exactly what
    ``obs`` says: drawn as [`resample`][tarotsim.interfaces.openspiel.resampling.resample] draws, its moves [`observed_moves`][tarotsim.interfaces.openspiel.resampling.observed_moves].

    The state can be handed to any OpenSpiel bot that plays from the seat's information
    (its information state and ``resample_from_infostate``): the other hands in it are a
    draw, not the deal's.

    Raises
    ------
    ValueError
        For an observation of a seat that is not to act.
    """
    if not obs.legal_actions:
        raise ValueError(f"seat {obs.seat} is not to act: no decision to make")
    game = load(obs.players, obs.dealer)
    moves = observed_moves(obs)
    laid = len(obs.ecart) if obs.phase == "ecart" else 0
    return _resample(game, obs, moves, obs.seat, obs.phase, laid, rng)
