"""Players written in Python: a seat decided by ``player(observation) -> action``.

A *player* is any callable taking an :class:`~tarotsim.game.Observation` and returning one
of its ``legal_actions``, or an object with such an ``act(observation)`` method.
``Strategy(play=player, ecart="expert")`` hands it the card-play decisions only (the
other decisions by the strategy's named policies); ``Strategy(act=player)`` hands it every
decision. Such strategies work wherever strategies do (``duel``, ``simulate``); the deals
in which one sits are played step by step (``tarotsim.game.Game``), its seats asking the
player and the other seats asking their built-in policies from their own view, one deal
after another on one thread: the records are the same whatever the number of threads, and
a seat whose player decides as its built-in twin does gets that twin's records exactly,
but for ``others_bid``: a Python seat's wish at the auction is what it said.

:func:`builtin` makes a player of a built-in strategy: it decides from the observation
alone, as the built-in does (``duel(players.builtin(S), S, …)`` has an edge of exactly 0).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from tarotsim.hooks import PlayerError, player_name
from tarotsim.kernels import state as S
from tarotsim.kernels import stepwise as K

if TYPE_CHECKING:
    from tarotsim.game import Observation
    from tarotsim.run.spec import RunSpec
    from tarotsim.strategy import Strategy


def _as_callable(player: object) -> Callable[[Observation], Any]:
    act = getattr(player, "act", None)
    if callable(act):
        return act
    return player  # type: ignore[return-value]


class BuiltinPlayer:
    """A Python player deciding as a built-in strategy does, from the observation alone
    (``tarotsim.game.decide``); :func:`builtin` makes one."""

    def __init__(self, strategy: Strategy) -> None:
        self.strategy = strategy
        self.name = f"builtin({strategy.label})"

    def act(self, observation: Observation) -> str:
        """The built-in strategy's action at ``observation``."""
        from tarotsim.game import decide

        return decide(observation, self.strategy)

    __call__ = act

    def __repr__(self) -> str:
        return self.name


def builtin(spec: Strategy | str) -> BuiltinPlayer:
    """A Python player that decides as the built-in strategy ``spec`` does, from the
    observation only.

    Raises
    ------
    ValueError
        For a bad spec, or a strategy that searches (``pimc`` play, the ``montecarlo``
        bidder): those need the whole run's search scratch.
    """
    from tarotsim.strategy import to_strategy

    strategy = to_strategy(spec)
    if strategy.player is not None:
        raise ValueError("builtin() takes a built-in strategy, not one with a Python player")
    if strategy.searches:
        raise ValueError(f"builtin({strategy}): a searching strategy cannot decide from one observation")
    return BuiltinPlayer(strategy)


def has_python_players(strategies: Sequence[Strategy]) -> bool:
    """Whether a seat of ``strategies`` is played by a Python player."""
    return any(s.player is not None for s in strategies)


def spec_rows(spec: RunSpec) -> list[tuple[Strategy, ...]]:
    """Each seat's strategy, per row of the run's configuration table (a duel: per rotation)."""
    if spec.kind == "duel":
        return [spec.rotation(k) for k in range(spec.config.players)]
    if spec.kind == "sweep":
        return [spec.config.seat_strategies()] * len(spec.contracts)
    return [spec.config.seat_strategies()]


def play_step_by_step(
    first_deal: int, deals: int, key: np.ndarray, cfg: np.ndarray, rows: Sequence[Sequence[Strategy]]
) -> np.ndarray:
    """Records of deals first_deal … first_deal + deals - 1 played step by step, laid out as
    ``run.engine.play``'s: int32[deals * k, N_REC], row (deal - first_deal) * k + r for row
    r of ``cfg`` (int64[k, N_CFG] or int64[N_CFG]) and of ``rows`` (each seat's strategy).

    Raises
    ------
    PlayerError
        When a player returns an illegal action or raises: the message names the seat, the
        deal, the decision and the legal actions.
    ValueError
        For a forced contract (a sweep), unshuffled dealing, or a built-in seat whose
        strategy searches.
    """
    from tarotsim.game import PHASES, Game

    cfgs = np.atleast_2d(cfg)
    if (cfgs[:, S.C_FORCED_CONTRACT] > 0).any():
        raise ValueError("a sweep cannot seat a Python player: its contracts are forced")
    if (cfgs[:, S.C_DEALING] == S.DEALING_UNSHUFFLED).any():
        raise ValueError("a Python player's deals are dealt shuffled: leave dealing at its default")
    out = np.zeros((deals * len(cfgs), S.N_REC), dtype=np.int32)
    deciders = [
        [
            None if s.player is None else (_as_callable(s.player), s.acts_all, player_name(s.player))
            for s in row
        ]
        for row in rows
    ]
    masks = [
        (
            sum(1 << seat for seat, d in enumerate(row) if d is not None and not d[1]),
            sum(1 << seat for seat, d in enumerate(row) if d is not None and d[1]),
        )
        for row in deciders
    ]
    for deal in range(first_deal, first_deal + deals):
        for r, row_cfg in enumerate(cfgs):
            game = Game._for_run(row_cfg, key, deal)
            seats = deciders[r]
            play_seats, act_seats = masks[r]
            while True:
                K.run_until(
                    game._tb,
                    row_cfg,
                    game._pos,
                    game._laid,
                    game._rec,
                    game._log,
                    game._legal,
                    play_seats,
                    act_seats,
                )
                if game.over:
                    break
                seat = int(game._pos[K.Q_SEAT])
                phase = int(game._pos[K.Q_PHASE])
                call, _, name = seats[seat]  # type: ignore[misc]
                observation = game.observation()
                try:
                    action = call(observation)
                except Exception as err:
                    raise PlayerError(
                        f"player {name} in seat {seat} raised {err!r} at deal {deal}, "
                        f"{PHASES[phase]} decision; legal actions: {', '.join(observation.legal_actions)}"
                    ) from err
                if not isinstance(action, str) or action not in observation.legal_actions:
                    raise PlayerError(
                        f"player {name} in seat {seat} returned {action!r} at deal {deal}, "
                        f"{PHASES[phase]} decision; legal actions: {', '.join(observation.legal_actions)}"
                    )
                game.apply(action)
            out[(deal - first_deal) * len(cfgs) + r] = game._rec
    return out
