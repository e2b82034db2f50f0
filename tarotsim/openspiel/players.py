"""OpenSpiel bots as tarotsim players: [`OpenSpielPlayer`][tarotsim.openspiel.players.OpenSpielPlayer] seats any bot, deciding from
a state drawn from the seat's observation; [`ismcts_player`][tarotsim.openspiel.players.ismcts_player] is OpenSpiel's IS-MCTS so
seated."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from tarotsim.game import Observation
from tarotsim.openspiel.resampling import resample, state_from_observation
from tarotsim.openspiel.spec import load


class OpenSpielPlayer:
    """An OpenSpiel bot as a tarotsim player (``Strategy(play=OpenSpielPlayer(…))``).

    At each decision the bot gets a state drawn from the seat's observation
    ([`state_from_observation`][tarotsim.openspiel.resampling.state_from_observation]) and its action is played: a bot that decides from the
    seat's information alone (IS-MCTS, a policy over the information state) plays as it
    would in the OpenSpiel game, and no bot can see the real deal.

    Parameters
    ----------
    make_bot : callable
        ``make_bot(game, seed)`` → a ``pyspiel.Bot`` (anything with ``step(state)``) for the
        [`FrenchTarotGame`][tarotsim.openspiel.FrenchTarotGame] ``game``; made once per table size and dealer.
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
    ``simulations`` per decision, each from a state drawn by [`resample`][tarotsim.openspiel.resampling.resample], evaluated by
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
