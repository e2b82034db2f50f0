"""The game and its states: [`FrenchTarotGame`][tarotsim.interfaces.openspiel.pyspiel_game.FrenchTarotGame] (the type registered with ``pyspiel``)
and [`FrenchTarotState`][tarotsim.interfaces.openspiel.pyspiel_game.FrenchTarotState], one deal dealt card by card, then a `tarotsim.Game`
played one action at a time."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from tarotsim.engine.cards import N_CARDS
from tarotsim.engine.labels import TABLE_SIZES, check_players
from tarotsim.engine.scoring import max_score
from tarotsim.interfaces.game import Game
from tarotsim.interfaces.openspiel.cardsets import _NAMES
from tarotsim.interfaces.openspiel.observer import TarotObserver
from tarotsim.interfaces.openspiel.resampling import resample
from tarotsim.interfaces.openspiel.spec import SHORT_NAME, _Spec

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

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


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
    """The deal once dealt (a `tarotsim.Game`), copied by ``Game.clone``."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        return _Table(self.game.clone())


class FrenchTarotState(pyspiel.State):
    """A state of [`FrenchTarotGame`][tarotsim.interfaces.openspiel.pyspiel_game.FrenchTarotGame]: the deal being dealt (chance), then a
    `tarotsim.Game` (``state.tarot``) played one action at a time."""

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
        """The `tarotsim.Game` once the deal is dealt (None while dealing)."""
        return None if self._table is None else self._table.game

    @property
    def moves(self) -> list[tuple[int, str]]:
        """The decisions taken so far, as (seat, action string)."""
        return list(self._moves)

    def current_player(self) -> int:
        if self._table is None:
            return _CHANCE
        seat = self._table.game.to_act
        return _TERMINAL if seat is None else seat

    def is_terminal(self) -> bool:
        return self._table is not None and self._table.game.over

    def _legal_actions(self, player: int) -> list[int]:
        if self._legal is None:
            self._legal = self._table.game.legal_numbers()  # type: ignore[union-attr]
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
        seat = game.to_act
        name = game.apply_number(action, self.spec.actions)
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
        ([`resample`][tarotsim.interfaces.openspiel.resampling.resample]), its randomness seeded from ``probability_sampler()``."""
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
