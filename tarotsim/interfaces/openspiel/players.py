"""OpenSpiel bots as tarotsim players, and tarotsim's players as OpenSpiel bots:
[`OpenSpielPlayer`][tarotsim.interfaces.openspiel.players.OpenSpielPlayer] seats any bot, deciding from
a state drawn from the seat's observation; [`ismcts_player`][tarotsim.interfaces.openspiel.players.ismcts_player] is OpenSpiel's IS-MCTS so
seated; [`BuiltinBot`][tarotsim.interfaces.openspiel.players.BuiltinBot] plays a built-in strategy
(``pimc`` too: [`pimc_bot`][tarotsim.interfaces.openspiel.players.pimc_bot]) in the OpenSpiel game, beside
OpenSpiel's own bots."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from tarotsim.interfaces.game import Observation, decide
from tarotsim.interfaces.openspiel.resampling import resample, state_from_observation
from tarotsim.interfaces.openspiel.spec import load
from tarotsim.players.strategy import Strategy, to_strategy


class OpenSpielPlayer:
    """An OpenSpiel bot as a tarotsim player (``Strategy(play=OpenSpielPlayer(…))``).

    At each decision the bot gets a state drawn from the seat's observation
    ([`state_from_observation`][tarotsim.interfaces.openspiel.resampling.state_from_observation]) and its action is played: a bot that decides from the
    seat's information alone (IS-MCTS, a policy over the information state) plays as it
    would in the OpenSpiel game, and no bot can see the real deal.

    Parameters
    ----------
    make_bot : callable
        ``make_bot(game, seed)`` → a ``pyspiel.Bot`` (anything with ``step(state)``) for the
        [`FrenchTarotGame`][tarotsim.interfaces.openspiel.FrenchTarotGame] ``game``; made once per table size and dealer.
    seed : int
        Seeds the draws of the states (and ``make_bot``'s ``seed``).
    name : str
        The player's label in reports.
    """

    def __init__(
        self, make_bot: Callable[[pyspiel.Game, int], Any], *, seed: int = 0, name: str = "openspiel"
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
    ``simulations`` per decision, each from a state drawn by [`resample`][tarotsim.interfaces.openspiel.resampling.resample], evaluated by
    ``rollouts`` uniformly random playouts; ``uct_c`` in points (the scores' scale). The
    searches and the draws are seeded by ``seed``: a duel with it is reproducible."""
    from open_spiel.python.algorithms import ismcts, mcts

    def make_bot(game: pyspiel.Game, seed: int) -> Any:
        random_state = np.random.RandomState(seed)
        draws = np.random.default_rng(seed + 1)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=rollouts, random_state=random_state)
        bot = ismcts.ISMCTSBot(
            game, evaluator, uct_c=uct_c, max_simulations=simulations, random_state=random_state
        )
        bot.set_resampler(lambda state, player: resample(state, player, draws))
        return bot

    return OpenSpielPlayer(make_bot, seed=seed, name=f"ismcts({simulations})")


class BuiltinBot(pyspiel.Bot):
    """A built-in strategy (searching or not) as an OpenSpiel bot, for
    [`FrenchTarotGame`][tarotsim.interfaces.openspiel.FrenchTarotGame]'s states: ``pyspiel.evaluate_bots``
    seats it beside OpenSpiel's bots (IS-MCTS…).

    At each decision it decides from the observation of the seat to act alone
    (``tarotsim.interfaces.game.decide``), as the strategy does in a run: it never sees the other
    hands. A searching policy's draws are seeded by ``seed`` and the number of decisions
    the bot has made (``decide``'s ``seed`` and ``deal``), so a game played with it is
    reproducible.

    Parameters
    ----------
    strategy : Strategy or str
        The built-in strategy, e.g. ``"play=pimc,ecart=expert"``.
    seed : int
        Seeds a searching policy's draws.

    Raises
    ------
    ValueError
        For a bad spec, or a strategy with a Python player; from ``step``, for a state
        still being dealt or over.
    """

    def __init__(self, strategy: Strategy | str, *, seed: int = 0) -> None:
        super().__init__()
        self.strategy = to_strategy(strategy)
        if self.strategy.player is not None:
            raise ValueError("BuiltinBot takes a built-in strategy, not one with a Python player")
        self.seed = seed
        self.decisions = 0

    def step(self, state: pyspiel.State) -> int:
        """The strategy's action (its number) for the seat to act in ``state``."""
        game = getattr(state, "tarot", None)
        if game is None or game.over:
            raise ValueError(f"{self!r} decides for a seat to act, not at a chance node or once over")
        action = decide(game.observation(), self.strategy, seed=self.seed, deal=self.decisions)
        self.decisions += 1
        return int(state.spec.action_ids[action])

    def restart_at(self, state: pyspiel.State) -> None:
        """Nothing to forget: each decision reads the state it is given."""

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        """Nothing to note: each decision reads the state it is given."""

    def __repr__(self) -> str:
        return f"BuiltinBot({str(self.strategy)!r})"


def pimc_bot(worlds: int | None = None, *, seed: int = 0) -> BuiltinBot:
    """tarotsim's strongest card player, ``pimc`` (the expert écart beside it), as an OpenSpiel
    bot: a [`BuiltinBot`][tarotsim.interfaces.openspiel.players.BuiltinBot]; ``worlds`` per decision
    (default: ``pimc``'s own)."""
    spec = "play=pimc,ecart=expert" + ("" if worlds is None else f",worlds={worlds}")
    return BuiltinBot(spec, seed=seed)
