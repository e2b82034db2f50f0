"""French Tarot as an OpenSpiel game: ``import tarotsim.openspiel`` registers
``python_french_tarot`` with ``pyspiel`` (the optional extra ``tarotsim[openspiel]``).

>>> import pyspiel, tarotsim.openspiel
>>> game = pyspiel.load_game("python_french_tarot", {"players": 4})
>>> game.num_players(), game.num_distinct_actions()
(4, 160)

The game is one deal of :class:`tarotsim.Game` (the same kernels, the same rules):

- **Chance.** The deal is explicit chance, card by card: the cards in id order
  (``tarotsim.cards``), each to a seat or the chien, with probability the room that holder
  has left over the cards left to deal (chance outcome ``h``: seat ``h``, or the chien for
  ``h == players``). Every deal has probability ``1 / (78! / (hand! ** players * chien!))``:
  the deal is uniform, and each chance node has at most six outcomes. :func:`deal_state`
  gives the state that a given deal (e.g. deal ``i`` of a run of ``tarotsim.simulate``)
  reaches once dealt.
- **Actions.** Action ``i`` is ``tarotsim.actions(players)[i]`` (the auction, the call with
  five players, the écart one card at a time, the poignée, the chelem, the 78 cards).
- **Parameters.** ``players`` (3, 4 or 5; default 4) and ``dealer`` (the seat that deals,
  default 0; the auction starts on its right).
- **Returns.** Each seat's score (points, zero-sum) when the deal is over; a deal thrown
  in (a petit sec, or every seat passing) scores 0 for all. The game is declared
  zero-sum: the scores sum to 0 in every deal, as OpenSpiel's bridge, a game of teams, is.
- **Observations.** The observation string and tensor are the seat's
  :meth:`tarotsim.Observation.info_string` and :meth:`tarotsim.Observation.tensor`; the
  information state adds what perfect recall needs: the order in which the taker laid its
  écart, and (tensor) the trick in which each card was played. Other observation types
  (public only, private only, every hand) are the corresponding parts of the same
  fields (:class:`TarotObserver`).
- **Resampling.** ``state.resample_from_infostate(player, sampler)`` draws a state uniformly
  among the deals consistent with everything ``player`` knows (:func:`resample`), so that
  OpenSpiel's Python IS-MCTS (``open_spiel.python.algorithms.ismcts``) plays the game.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError("tarotsim.openspiel needs OpenSpiel: pip install 'tarotsim[openspiel]'") from err

from tarotsim.cards import (
    EXCUSE,
    EXCUSE_SUIT,
    KING,
    N_CARDS,
    N_SUIT_CARDS,
    N_TRUMPS,
    PETIT,
    SUIT_LEN,
    TRUMP_SUIT,
    format_card,
    parse_cards,
)
from tarotsim.config import check_players
from tarotsim.game import TENSOR_FIELDS, TENSOR_LENGTH, Game, Observation, actions
from tarotsim.kernels.score import POIGNEE_THRESHOLDS
from tarotsim.kernels.search.worlds import (
    MAX_HOLDERS,
    draw_world,
    holder_allowed,
    new_world_scratch,
    prepare_worlds,
)
from tarotsim.kernels.state import MAX_SEATS
from tarotsim.labels import TABLE_SIZES, Poignee
from tarotsim.scoring import max_score

SHORT_NAME = "python_french_tarot"
"""The name the game is registered under: ``pyspiel.load_game(SHORT_NAME)``."""

MAX_TRICKS = max(hand for hand, _ in TABLE_SIZES.values())
"""Tricks of the longest deal (three players), the width of the trick-of-each-card field."""
MAX_ECART = max(chien for _, chien in TABLE_SIZES.values())
"""Cards of the largest écart, the rows of the écart-order field."""

# card sets as Python ints over the 78 card ids (bit ``id``)
_ALL = (1 << N_CARDS) - 1
_SUITS = (1 << N_SUIT_CARDS) - 1
_TRUMPS = ((1 << N_TRUMPS) - 1) << N_SUIT_CARDS
_KINGS = sum(1 << (SUIT_LEN * suit + KING) for suit in range(4))
_PETIT = 1 << PETIT
_EXCUSE = 1 << EXCUSE
_NAMES = tuple(format_card(c) for c in range(N_CARDS))
_IDS = {name: card for card, name in enumerate(_NAMES)}

_PRIVATE_FIELDS = frozenset({"hand", "legal_actions"})
"""Fields of ``Observation.tensor`` that only the seat knows (the écart is mixed: its trumps
are shown, the rest is the taker's)."""


def _mask(names: Sequence[str]) -> int:
    bits = 0
    for name in names:
        bits |= 1 << _IDS[name]
    return bits


def _ids(bits: int) -> list[int]:
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def _names(bits: int) -> list[str]:
    return [_NAMES[c] for c in _ids(bits)]


def _suit(card: int) -> int:
    """0-3 a suit, ``TRUMP_SUIT`` a trump, ``EXCUSE_SUIT`` the Excuse."""
    if card < N_SUIT_CARDS:
        return card // SUIT_LEN
    return EXCUSE_SUIT if card == EXCUSE else TRUMP_SUIT


def _rank_and_above(rank: int) -> int:
    """The suit cards of rank ``rank`` and above, every suit."""
    bits = 0
    for suit in range(4):
        for r in range(rank, KING + 1):
            bits |= 1 << (SUIT_LEN * suit + r)
    return bits


_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python French Tarot (tarotsim)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 4, "dealer": 0},
)


class _Spec:
    """What every state of a game shares (never copied with a state)."""

    def __init__(self, players: int, dealer: int) -> None:
        self.players = players
        self.dealer = dealer
        self.hand_size, self.chien_size = TABLE_SIZES[players]
        self.actions = tuple(actions(players))
        self.action_ids = {name: i for i, name in enumerate(self.actions)}

    def room_of(self, holder: int) -> int:
        """Cards dealt to ``holder``: a seat (0 … players - 1) or the chien (``players``)."""
        return self.chien_size if holder == self.players else self.hand_size

    def __deepcopy__(self, memo: dict[int, Any]) -> _Spec:
        return self


class FrenchTarotGame(pyspiel.Game):
    """The OpenSpiel game (``pyspiel.load_game("python_french_tarot", {"players": 4})``).

    Parameters
    ----------
    params : dict, optional
        ``players`` (3, 4 or 5; default 4), ``dealer`` (0 … players - 1; default 0).

    Raises
    ------
    ValueError
        For a table size or a dealer out of range.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {"players": 4, "dealer": 0, **(params or {})}
        players = check_players(int(params["players"]))
        dealer = int(params["dealer"])
        if not 0 <= dealer < players:
            raise ValueError(f"dealer must be a seat 0 to {players - 1}, got {dealer}")
        self.spec = _Spec(players, dealer)
        hand, chien = TABLE_SIZES[players]
        decisions = players + (1 if players == 5 else 0) + chien + 1 + players + hand * players
        bound = float(max_score(players))
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.spec.actions),
            max_chance_outcomes=players + 1,
            num_players=players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=decisions,
        )
        super().__init__(_TYPE, info, {"players": players, "dealer": dealer})

    def new_initial_state(self) -> FrenchTarotState:
        """The state before the deal: a chance node."""
        return FrenchTarotState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> TarotObserver:
        """The observer of ``iig_obs_type`` (default: the seat's observation, no perfect recall)."""
        return TarotObserver(
            self.spec, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class _Table:
    """The deal once dealt (a :class:`tarotsim.Game`), copied by ``Game.clone``."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        return _Table(self.game.clone())


class FrenchTarotState(pyspiel.State):
    """A state of :class:`FrenchTarotGame`: the deal being dealt (chance), then a
    :class:`tarotsim.Game` (``state.tarot``) played one action at a time."""

    def __init__(self, game: FrenchTarotGame) -> None:
        super().__init__(game)
        self.spec = game.spec
        spec = self.spec
        self._holder = [-1] * N_CARDS  # per card: the seat dealt it, or players for the chien
        self._room = [spec.hand_size] * spec.players + [spec.chien_size]
        self._next = 0  # the next card to deal
        self._table: _Table | None = None
        self._moves: list[tuple[int, str]] = []  # the decisions so far: (seat, action)
        self._legal: list[int] | None = None

    # the game being played -----------------------------------------------------------

    @property
    def tarot(self) -> Game | None:
        """The :class:`tarotsim.Game` once the deal is dealt (None while dealing)."""
        return None if self._table is None else self._table.game

    @property
    def moves(self) -> list[tuple[int, str]]:
        """The decisions taken so far, as (seat, action string)."""
        return list(self._moves)

    def current_player(self) -> int:
        if self._table is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self._table.game.to_act
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def is_terminal(self) -> bool:
        return self._table is not None and self._table.game.over

    def _legal_actions(self, player: int) -> list[int]:
        if self._legal is None:
            ids = self.spec.action_ids
            self._legal = sorted(ids[name] for name in self._table.game.legal_actions())  # type: ignore[union-attr]
        return list(self._legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = N_CARDS - self._next
        return [(h, room / left) for h, room in enumerate(self._room) if room > 0]

    def _apply_action(self, action: int) -> None:
        if self._table is None:
            if not (0 <= action < len(self._room) and self._room[action] > 0):
                raise ValueError(f"chance outcome {action} is not possible here")
            self._holder[self._next] = action
            self._room[action] -= 1
            self._next += 1
            if self._next == N_CARDS:
                self._start()
            return
        game = self._table.game
        name = self.spec.actions[action]
        seat = game.to_act
        game.apply(name)
        self._moves.append((int(seat), name))  # type: ignore[arg-type]
        self._legal = None

    def _start(self) -> None:
        """The cards are all dealt: the game begins (or ends at once, a petit sec)."""
        spec = self.spec
        hands: list[list[str]] = [[] for _ in range(spec.players + 1)]
        for card, holder in enumerate(self._holder):
            hands[holder].append(_NAMES[card])
        self._table = _Table(Game(spec.players, hands=hands[:-1], chien=hands[-1], dealer=spec.dealer))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            holder = "the chien" if action == self.spec.players else f"seat {action}"
            return f"{_NAMES[self._next] if self._next < N_CARDS else '?'} to {holder}"
        return self.spec.actions[action]

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.spec.players
        return [float(x) for x in self._table.game.returns()]  # type: ignore[union-attr]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> FrenchTarotState:
        """A state drawn uniformly among those ``player_id`` cannot tell from this one
        (:func:`resample`), its randomness seeded from ``probability_sampler()``."""
        seed = int(probability_sampler() * 2**53)
        return resample(self, player_id, np.random.default_rng(seed))

    def __str__(self) -> str:
        spec = self.spec
        if self._table is None:
            lines = [f"dealing: {self._next} of {N_CARDS} cards dealt"]
            for h in range(spec.players + 1):
                who = "chien" if h == spec.players else f"seat {h}"
                lines.append(
                    f"{who}: {' '.join(_NAMES[c] for c in range(self._next) if self._holder[c] == h)}"
                )
            return "\n".join(lines)
        game = self._table.game
        lines = [f"phase {game.phase}, to act {game.to_act}"]
        for seat in range(spec.players):
            lines.append(f"seat {seat}: {' '.join(game.observation(seat).hand)}")
        chien = [_NAMES[c] for c in range(N_CARDS) if self._holder[c] == spec.players]
        lines.append(f"chien: {' '.join(chien)}")
        lines.append(f"moves: {' '.join(f'{s}:{a}' for s, a in self._moves)}")
        return "\n".join(lines)

    # what a seat knows ----------------------------------------------------------------

    def ecart_order(self) -> list[str]:
        """The cards of the écart in the order the taker laid them."""
        return [name.split(":", 1)[1] for _, name in self._moves if name.startswith("ecart:")]


def deal_state(
    game: FrenchTarotGame,
    hands: Sequence[Sequence[str] | str],
    chien: Sequence[str] | str,
) -> FrenchTarotState:
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


# resampling -----------------------------------------------------------------------------------

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


_NO_CAP = N_TRUMPS + 1


def _shown_by_play(obs: Observation) -> tuple[list[int], list[int]]:
    """Per seat, the cards play has shown it cannot hold (the voids) and the trumps above
    which it holds none (an under-trump: it would have had to overtrump), ``_NO_CAP`` for none."""
    n = obs.players
    ruled_out = [0] * n
    cap = [_NO_CAP] * n
    tricks = [(leader, cards) for leader, cards, _ in obs.tricks]
    if obs.leader is not None:
        tricks.append((obs.leader, obs.trick))
    for leader, cards in tricks:
        led = -1
        high = 0  # the highest trump on the trick, 0 none
        for j, name in enumerate(cards):
            seat = (leader + j) % n
            card = _IDS[name]
            suit = _suit(card)
            if suit == EXCUSE_SUIT:
                continue
            if led < 0:
                led = suit
            elif suit != led:
                if led < TRUMP_SUIT:
                    ruled_out[seat] |= ((1 << SUIT_LEN) - 1) << (SUIT_LEN * led)
                if suit != TRUMP_SUIT:
                    ruled_out[seat] |= _TRUMPS
            if suit == TRUMP_SUIT:
                trump = card - N_SUIT_CARDS + 1
                if trump < high:
                    cap[seat] = min(cap[seat], high)
                high = max(high, trump)
    return ruled_out, cap


class _Plan:
    """The holders of the cards a seat cannot see, and how to rebuild the deal from a draw."""

    def __init__(self, obs: Observation, spec: _Spec) -> None:
        n = spec.players
        p = obs.seat
        taker = obs.taker if obs.phase not in ("bid",) else None
        self.obs = obs
        self.taker = taker
        own = _mask(obs.hand)
        played = [_mask(cards) for cards in obs.played]
        chien = _mask(obs.chien) if obs.chien is not None else 0
        known_ecart = _mask(obs.ecart)
        self.chien = chien
        self.known_ecart = known_ecart
        self.own = own
        self.played = played
        # a defender while the taker lays its écart: the taker holds its hand and the chien
        self.laying_unseen = obs.phase == "ecart" and p != taker
        required = 0  # five players, a lower rank called: the taker was dealt every card above
        if obs.called_card is not None:
            rank = _IDS[obs.called_card] % SUIT_LEN
            if rank < KING:
                required = _rank_and_above(rank + 1)
        seats = [(p + step) % n for step in range(1, n)]
        if self.laying_unseen:
            unseen = _ALL & ~own & ~chien
        else:
            unseen = _ALL & ~(own | known_ecart)
            for bits in played:
                unseen &= ~bits
        ruled_out, cap = _shown_by_play(obs)
        holders: list[tuple[int, int, int, int]] = []  # (seat or -1, size, known, possible)
        for seat in seats:
            size = spec.hand_size - (0 if self.laying_unseen else len(obs.played[seat]))
            possible = _ALL & ~ruled_out[seat]
            if cap[seat] < _NO_CAP:  # no trump above cap[seat]
                possible &= ~(_TRUMPS << cap[seat] & _TRUMPS)
            if chien and seat != taker and not self.laying_unseen:
                possible &= ~chien
            if seat != taker:
                possible &= ~required
            known = 0
            shown = _mask(obs.poignees[seat])
            if shown:
                known = shown & unseen
                if shown & (_PETIT | _EXCUSE):  # every trump of the hand was shown
                    possible &= ~(_TRUMPS & ~shown)
                else:  # the lowest trumps but the Petit were shown
                    top = max(_ids(shown & _TRUMPS)) - N_SUIT_CARDS + 1
                    below = ((1 << top) - 1) << N_SUIT_CARDS
                    possible &= ~(below & ~shown & ~_PETIT)
            if seat == taker and chien and known_ecart & _TRUMPS and p != taker:
                # trumps went to the écart only once the taker's suit cards but the Kings had
                possible &= ~(_SUITS & ~_KINGS)
            holders.append((seat, size, known, possible))
        if obs.chien is None:  # the chien unseen: before the taker takes it, or a Garde sans/contre
            holders.append((-1, spec.chien_size, 0, _ALL & ~required))
        elif p != taker and not self.laying_unseen:  # the écart, but its trumps shown
            size = spec.chien_size - (known_ecart & _TRUMPS).bit_count()
            holders.append((-1, size, 0, _SUITS & ~_KINGS))
        self.unseen = unseen
        self.holders = holders
        total = sum(size for _, size, _, _ in holders)
        if total != unseen.bit_count():
            raise RuntimeError(f"the holders take {total} cards, {unseen.bit_count()} unseen")
        k = len(holders)
        self.n = k
        self.sizes = np.zeros(MAX_HOLDERS, dtype=np.int64)
        self.voids = np.zeros(MAX_HOLDERS, dtype=np.int64)
        self.known = np.zeros((MAX_HOLDERS, 2), dtype=np.uint64)
        self.possible = np.zeros((MAX_HOLDERS, 2), dtype=np.uint64)
        self.allowed = np.zeros((MAX_HOLDERS, 2), dtype=np.uint64)
        self.world = np.zeros((MAX_HOLDERS, 2), dtype=np.uint64)
        for h, (_, size, known, possible) in enumerate(holders):
            self.sizes[h] = size
            self.known[h] = _to_kernel(known)
            self.possible[h] = _to_kernel(possible)
        self.unseen_words = np.array(_to_kernel(unseen), dtype=np.uint64)

    def prepare(self, scratch: Any) -> float:
        holder_allowed(self.unseen_words, self.voids, self.known, self.possible, self.n, self.allowed)
        return float(prepare_worlds(self.allowed, self.sizes, self.n, self.unseen_words, scratch))

    def deal(self, rng_words: np.ndarray, scratch: Any) -> tuple[list[int], int, int] | None:
        """One draw: every seat's hand as dealt, the chien, the écart (0 when not laid or
        the seat's own); None when the deal has a petit sec (it would have been thrown in)."""
        obs = self.obs
        draw_world(rng_words, scratch, self.world)
        drawn = {seat: _from_kernel(*self.world[h]) for h, (seat, _, _, _) in enumerate(self.holders)}
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
            if self.laying_unseen:
                hand = now
            elif seat == taker and self.chien:
                extra = self.known_ecart if obs.phase == "ecart" else ecart
                hand = (now | self.played[seat] | extra) & ~self.chien
            else:
                hand = now | self.played[seat]
            if hand & _TRUMPS == _PETIT and not hand & _EXCUSE:
                return None
            dealt.append(hand)
        return dealt, chien, ecart


def resample(state: FrenchTarotState, player: int, rng: np.random.Generator) -> FrenchTarotState:
    """A state drawn uniformly among the deals consistent with everything ``player`` knows
    at ``state``, with the same moves as far as ``player`` can tell.

    The deal is drawn by the exact world sampler (``kernels.search.worlds``): uniformly over
    the deals that give each other seat, the unseen chien and the hidden écart their number
    of cards, and that agree with what play has shown: the voids (not following, not
    trumping), the trumps an under-trump shows a seat lacks, the poignées shown (the lowest
    trumps but the Petit are shown, so its hidden trumps are the Petit and those above),
    the écart (no King, no bout, its trumps shown; trumps in it leave the taker no suit card
    but Kings), the chien shown at a Prise or a Garde (with the taker or in the écart), and,
    with five players, a lower rank called (the taker was dealt every card above). A draw
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
    game: FrenchTarotGame,
    obs: Observation,
    moves: Sequence[tuple[int, str]],
    to_act: int | None,
    phase: str,
    laid: int,
    rng: np.random.Generator,
) -> FrenchTarotState:
    """A state of ``game`` drawn for the seat of ``obs`` (:func:`resample`), whose moves
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
    new: FrenchTarotState,
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


def _resample_dealing(state: FrenchTarotState, player: int, rng: np.random.Generator) -> FrenchTarotState:
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


# OpenSpiel bots as tarotsim players -----------------------------------------------------------

_GAMES: dict[tuple[int, int], FrenchTarotGame] = {}


def load(players: int = 4, dealer: int = 0) -> FrenchTarotGame:
    """``pyspiel.load_game("python_french_tarot", {"players": players, "dealer": dealer})``,
    made once per table size and dealer."""
    key = (players, dealer)
    if key not in _GAMES:
        _GAMES[key] = pyspiel.load_game(SHORT_NAME, {"players": players, "dealer": dealer})
    return _GAMES[key]


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


def state_from_observation(obs: Observation, rng: np.random.Generator) -> FrenchTarotState:
    """A state of the OpenSpiel game at which the seat of ``obs`` (to act) knows exactly what
    ``obs`` says: drawn as :func:`resample` draws, its moves :func:`observed_moves`.

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


class OpenSpielPlayer:
    """An OpenSpiel bot as a tarotsim player (``Strategy(play=OpenSpielPlayer(…))``).

    At each decision the bot gets a state drawn from the seat's observation
    (:func:`state_from_observation`) and its action is played: a bot that decides from the
    seat's information alone (IS-MCTS, a policy over the information state) plays as it
    would in the OpenSpiel game, and no bot can see the real deal.

    Parameters
    ----------
    make_bot : callable
        ``make_bot(game, seed)`` → a ``pyspiel.Bot`` (anything with ``step(state)``) for the
        :class:`FrenchTarotGame` ``game``; made once per table size and dealer.
    seed : int
        Seeds the draws of the states (and ``make_bot``'s ``seed``).
    name : str
        The player's label in reports.
    """

    def __init__(
        self, make_bot: Callable[[FrenchTarotGame, int], Any], *, seed: int = 0, name: str = "openspiel"
    ) -> None:
        self.make_bot = make_bot
        self.seed = seed
        self.name = name
        self.rng = np.random.default_rng(seed)
        self.bots: dict[tuple[int, int], Any] = {}
        self.decisions = 0
        self.seconds = 0.0

    def act(self, observation: Observation) -> str:
        """The bot's action at ``observation``."""
        start = time.process_time()
        game = load(observation.players, observation.dealer)
        key = (observation.players, observation.dealer)
        if key not in self.bots:
            self.bots[key] = self.make_bot(game, self.seed)
        state = state_from_observation(observation, self.rng)
        action = game.spec.actions[int(self.bots[key].step(state))]
        self.decisions += 1
        self.seconds += time.process_time() - start
        return action

    __call__ = act


def ismcts_player(
    simulations: int = 100, *, uct_c: float = 200.0, rollouts: int = 1, seed: int = 0
) -> OpenSpielPlayer:
    """OpenSpiel's Python IS-MCTS (``open_spiel.python.algorithms.ismcts``) as a player:
    ``simulations`` per decision, each from a state drawn by :func:`resample`, evaluated by
    ``rollouts`` uniformly random playouts; ``uct_c`` in points (the scores' scale). The
    searches and the draws are seeded by ``seed``: a duel with it is reproducible."""
    from open_spiel.python.algorithms import ismcts, mcts

    def make_bot(game: FrenchTarotGame, seed: int) -> Any:
        random_state = np.random.RandomState(seed)
        draws = np.random.default_rng(seed + 1)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=rollouts, random_state=random_state)
        bot = ismcts.ISMCTSBot(
            game, evaluator, uct_c=uct_c, max_simulations=simulations, random_state=random_state
        )
        bot.set_resampler(lambda state, player: resample(state, player, draws))
        return bot

    return OpenSpielPlayer(make_bot, seed=seed, name=f"ismcts({simulations})")


# observation ----------------------------------------------------------------------------------

_FIELD_AT: dict[str, tuple[int, int]] = {}
_start = 0
for _name, _size in TENSOR_FIELDS:
    _FIELD_AT[_name] = (_start, _size)
    _start += _size
assert _start == TENSOR_LENGTH
assert _PRIVATE_FIELDS | {"ecart", "seat"} <= set(_FIELD_AT), (
    "the observer splits fields the tensor no longer has"
)


class TarotObserver:
    """OpenSpiel's observer (``game.make_py_observer``) for an observation type.

    The tensor is made of named parts (``observer.dict``): the fields of
    :meth:`tarotsim.Observation.tensor` (``tarotsim.game.TENSOR_FIELDS``) that the type
    shows — public fields with ``public_info``, the seat's ``hand`` and ``legal_actions``
    with private information, the écart as the seat knows it (its shown trumps alone
    without private information) — then, with ``perfect_recall``, ``trick_of_card``
    (78 × 24: one-hot of the trick in which each card was played) and, with private
    information, ``ecart_order`` (6 × 78: the taker's écart in laying order); with every
    seat's private information, ``deal`` ((MAX_SEATS + 2) × 78: each hand, the chien, the
    écart). The strings: :meth:`tarotsim.Observation.info_string` for a seat's own view
    (plus, with perfect recall, the taker's laying order), else its public or private lines.
    """

    def __init__(self, spec: _Spec, iig_obs_type: pyspiel.IIGObservationType, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.spec = spec
        self.public = bool(iig_obs_type.public_info)
        self.private = iig_obs_type.private_info
        self.recall = bool(iig_obs_type.perfect_recall)
        has_private = self.private != pyspiel.PrivateInfoType.NONE
        pieces: list[tuple[str, int, tuple[int, ...]]] = []
        for name, size in TENSOR_FIELDS:
            private = name in _PRIVATE_FIELDS
            if name == "ecart" or name == "seat" or (has_private if private else self.public):
                pieces.append((name, size, (size,)))
        if self.recall and self.public:
            pieces.append(("trick_of_card", N_CARDS * MAX_TRICKS, (N_CARDS, MAX_TRICKS)))
        if self.recall and has_private:
            pieces.append(("ecart_order", MAX_ECART * N_CARDS, (MAX_ECART, N_CARDS)))
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            pieces.append(("deal", (MAX_SEATS + 2) * N_CARDS, (MAX_SEATS + 2, N_CARDS)))
        self.tensor = np.zeros(sum(size for _, size, _ in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, size, shape in pieces:
            self.dict[name] = self.tensor[at : at + size].reshape(shape)
            at += size

    def set_from(self, state: FrenchTarotState, player: int) -> None:
        """Fill ``tensor`` (and ``dict``) with ``state`` as ``player`` observes it."""
        self.tensor.fill(0)
        d = self.dict
        if state.tarot is None:
            d["seat"][player] = 1
            if "players" in d:
                d["players"][self.spec.players - 3] = 1
                d["dealer"][self.spec.dealer] = 1
            if "hand" in d:
                for card in range(state._next):
                    if state._holder[card] == player:
                        d["hand"][card] = 1
            if "deal" in d:
                for card in range(state._next):
                    d["deal"][state._holder[card], card] = 1
            return
        game = state.tarot
        obs = game.observation(player)
        full = obs.tensor()
        for name, (start, size) in _FIELD_AT.items():
            if name in d:
                d[name][:] = full[start : start + size]
        if self.private == pyspiel.PrivateInfoType.NONE:
            d["ecart"][:] = 0
            for card in _ids(_mask(obs.ecart) & _TRUMPS):
                d["ecart"][card] = 1
        if "trick_of_card" in d:
            for t, (_, cards, _) in enumerate(obs.tricks):
                for name in cards:
                    d["trick_of_card"][_IDS[name], t] = 1
            for name in obs.trick:
                d["trick_of_card"][_IDS[name], len(obs.tricks)] = 1
        if "ecart_order" in d and player == obs.taker and obs.phase != "bid":
            for k, name in enumerate(state.ecart_order()):
                d["ecart_order"][k, _IDS[name]] = 1
        if "deal" in d:
            for h, bits in enumerate(_deal_now(state)):
                for card in _ids(bits):
                    d["deal"][h, card] = 1

    def string_from(self, state: FrenchTarotState, player: int) -> str:
        """``state`` as ``player`` observes it, as text."""
        has_private = self.private != pyspiel.PrivateInfoType.NONE
        spec = self.spec
        if state.tarot is None:
            lines = [f"dealing: {state._next} of {N_CARDS} cards dealt"] if self.public else []
            if has_private:
                mine = [_NAMES[c] for c in range(state._next) if state._holder[c] == player]
                lines.append(f"seat {player} hand {' '.join(mine)}")
            return "\n".join(lines)
        obs = state.tarot.observation(player)
        if self.public and self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            text = obs.info_string()
            if self.recall and player == obs.taker and obs.phase != "bid" and state.ecart_order():
                text += "\nlaid " + " ".join(state.ecart_order())
            return text
        lines = []
        if self.public:
            lines += _public_lines(obs)
        if has_private:
            lines.append(f"seat {player} hand {' '.join(obs.hand)} ecart {' '.join(obs.ecart)}")
            lines.append(f"attack {obs.attack} legal {' '.join(obs.legal_actions)}")
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            holders = [*(f"seat {s}" for s in range(spec.players)), "chien", "ecart"]
            lines += [
                f"{h} {' '.join(_names(bits))}" for h, bits in zip(holders, _deal_now(state), strict=False)
            ]
        return "\n".join(lines)


def _public_lines(obs: Observation) -> list[str]:
    shown_ecart = _names(_mask(obs.ecart) & _TRUMPS)
    lines = [
        f"{obs.players} players, dealer {obs.dealer}, phase {obs.phase}",
        f"bids {' '.join(obs.bids)}",
        f"contract {obs.contract} taker {obs.taker} called {obs.called_card} partner {obs.partner}",
        f"chelem {obs.chelem_announced}",
        f"chien {' '.join(obs.chien) if obs.chien is not None else '-'}",
        f"ecart shown {' '.join(shown_ecart)}",
        "poignees " + " | ".join(" ".join(p) for p in obs.poignees),
    ]
    lines += [f"trick {leader}: {' '.join(cards)} > {winner}" for leader, cards, winner in obs.tricks]
    lines.append(f"in play {obs.leader}: {' '.join(obs.trick)}")
    return lines


def _deal_now(state: FrenchTarotState) -> list[int]:
    """Every hand as it stands, then the chien as dealt, then the écart (laid so far)."""
    game = state.tarot
    assert game is not None
    spec = state.spec
    hands = [_mask(game.observation(s).hand) for s in range(spec.players)]
    hands += [0] * (MAX_SEATS - spec.players)
    chien = sum(1 << c for c in range(N_CARDS) if state._holder[c] == spec.players)
    taker = game.observation(0).taker
    ecart = _mask(game.observation(taker).ecart) if taker is not None and game.phase != "bid" else 0
    return [*hands, chien, ecart]


pyspiel.register_game(_TYPE, FrenchTarotGame)

__all__ = [
    "SHORT_NAME",
    "FrenchTarotGame",
    "FrenchTarotState",
    "OpenSpielPlayer",
    "TarotObserver",
    "deal_state",
    "ismcts_player",
    "load",
    "observed_moves",
    "resample",
    "state_from_observation",
]
