"""Players written in Python: a seat decided by ``player(observation) -> action``.

A *player* is any callable taking an `Observation` and returning one
of its ``legal_actions``, or an object with such an ``act(observation)`` method.
``Strategy(play=player, ecart="expert")`` hands it the card-play decisions only (the
other decisions by the strategy's named policies); ``Strategy(act=player)`` hands it every
decision. Such strategies work wherever strategies do (``duel``, ``simulate``); the deals
in which one sits are played step by step, many at once (``kernels.vector``, the rules of
``tarotsim.interfaces.game.Game``): the kernels play the built-in seats from their own view, and each
decision of a Python seat comes back as one observation, handed to its player (so a
player is asked about many deals in turn, their decisions interleaved: it should decide
from the observation, which it may keep, as it never changes). Each deal depends only on
its own number, so the records are the same whatever the number of threads, and a seat
whose player decides as its built-in twin does gets that twin's records exactly, but for
``others_bid``: a Python seat's wish at the auction is what it said.

A Numba player (``tarotsim.players.users``) may sit at the same table: every decision of its
seat comes back here too, and the kernels make it on the spot from the seat's view and the
deal's random stream (``kernels.vector.decide_user_seats``), as a run without Python
players makes it.

`builtin` makes a player of a built-in strategy: it decides from the observation
alone, as the built-in does (``duel(python_players.builtin(S), S, …)`` has an edge of exactly 0
for a strategy that searches nothing; a searching one draws from the observation's own
random stream, not the run's). A built-in seat beside a Python player may search (``pimc``,
the ``montecarlo`` bidder…): it decides inside the kernels as in a run of built-ins.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from tarotsim.engine.kernels import state as S
from tarotsim.interfaces.kernels import vector as V
from tarotsim.players.hooks import PlayerError, player_name

if TYPE_CHECKING:
    from tarotsim.interfaces.game import Observation
    from tarotsim.players.strategy import Strategy


def _as_callable(player: object) -> Callable[[Observation], Any]:
    act = getattr(player, "act", None)
    if callable(act):
        return act
    return player  # type: ignore[return-value]


def batch_method(player: object) -> Callable[[np.ndarray, np.ndarray], Any] | None:
    """The ``act_batch`` method of a batched player, None for a player asked one observation at
    a time (see `play_step_by_step`)."""
    act_batch = getattr(player, "act_batch", None)
    return act_batch if callable(act_batch) else None


class BuiltinPlayer:
    """A Python player deciding as a built-in strategy does, from the observation alone
    (``tarotsim.interfaces.game.decide``); `builtin` makes one."""

    def __init__(self, strategy: Strategy) -> None:
        self.strategy = strategy
        self.name = f"builtin({strategy.label})"

    def act(self, observation: Observation) -> str:
        """The built-in strategy's action at ``observation``."""
        from tarotsim.interfaces.game import decide

        return decide(observation, self.strategy)

    __call__ = act

    def __repr__(self) -> str:
        return self.name


def builtin(spec: Strategy | str) -> BuiltinPlayer:
    """A Python player that decides as the built-in strategy ``spec`` does, from the
    observation only.

    A strategy that searches (``pimc`` play, the ``montecarlo`` bidder…) seeds its draws
    from the observation's own random stream (``tarotsim.interfaces.game.decide`` without a seed).

    Raises
    ------
    ValueError
        For a bad spec, or a strategy with a Python player.
    """
    from tarotsim.players.strategy import to_strategy

    strategy = to_strategy(spec)
    if strategy.player is not None:
        raise ValueError("builtin() takes a built-in strategy, not one with a Python player")
    return BuiltinPlayer(strategy)


def has_python_players(strategies: Sequence[Strategy]) -> bool:
    """Whether a seat of ``strategies`` is played by a Python player."""
    return any(s.player is not None for s in strategies)


def _numba_seat(strategy: Strategy) -> bool:
    """Whether a Numba function (``tarotsim.players.users``) plays a decision of the seat."""
    return strategy.card_function is not None or strategy.bid_function is not None


BATCH_GAMES = 256
"""Games (deals times rows of the configuration) stepped at once by ``play_step_by_step``: enough
that a step's Python work is shared by many, few enough that their states stay in the cache."""
BATCHED_GAMES = 2048
"""Games stepped at once when a batched player sits: its network is asked about more
observations at once, which is where its time goes."""


def play_step_by_step(
    first_deal: int, deals: int, key: np.ndarray, cfg: np.ndarray, rows: Sequence[Sequence[Strategy]]
) -> np.ndarray:
    """Records of deals first_deal … first_deal + deals - 1 played step by step, laid out as
    ``runs.runner.play``'s: int32[deals * k, N_REC], row (deal - first_deal) * k + r for row
    r of ``cfg`` (int64[k, N_CFG] or int64[N_CFG]) and of ``rows`` (each seat's strategy).

    The deals and rows are stepped together (``vecenv.step_games``, up to ``BATCH_GAMES``
    games at a time, on the threads Numba is set to use): the kernels play the built-in
    seats, and only the Python seats' decisions come back here, one observation each, and
    the decisions of the seats a Numba function plays, which the kernels make on the
    spot (``kernels.vector.decide_user_seats``: the same view and random stream as in a
    run of built-ins, so the same decisions).

    A *batched* player (an object with ``act_batch(observations, masks) -> actions``) is
    asked once per step about every game waiting on it: ``observations`` float32[m,
    TENSOR_LENGTH], each row the seat's ``Observation.tensor()`` written by the kernels,
    ``masks`` bool[m, len(actions(players))] the legal actions, and it returns m action
    indices (integers into ``tarotsim.actions(players)``). With one seated, ``BATCHED_GAMES``
    games are stepped at a time.

    Raises
    ------
    PlayerError
        When a player returns an illegal action or raises, or a Numba function an illegal
        card or wish: the message names the seat, the deal, the decision and the legal
        actions.
    ValueError
        For unshuffled dealing.
    """
    import numba

    from tarotsim.interfaces.game import TENSOR_LENGTH, Observation, action_table, actions
    from tarotsim.interfaces.vecenv import block_searches, step_games
    from tarotsim.players.kernels.user import F_DEAL, F_ROW
    from tarotsim.players.users import UserRun, has_user_codes

    cfgs = np.ascontiguousarray(np.atleast_2d(cfg), dtype=np.int64)
    if (cfgs[:, S.C_DEALING] == S.DEALING_UNSHUFFLED).any():
        raise ValueError("a Python player's deals are dealt shuffled: leave dealing at its default")
    k = len(cfgs)
    out = np.zeros((deals * k, S.N_REC), dtype=np.int32)
    user_run = UserRun(cfgs) if has_user_codes(cfgs) else None
    if user_run is not None:
        cfgs = user_run.cfgs  # the codes of the run's Numba functions as the slots of its users
    numba_seat = (None, True, "")  # every decision comes back, made by decide_user_seats
    deciders = [
        [
            (_as_callable(s.player), s.acts_all, player_name(s.player))
            if s.player is not None
            else (numba_seat if _numba_seat(s) else None)
            for s in row
        ]
        for row in rows
    ]
    play_seats = np.array(
        [sum(1 << seat for seat, d in enumerate(row) if d is not None and not d[1]) for row in deciders]
    )
    act_seats = np.array(
        [sum(1 << seat for seat, d in enumerate(row) if d is not None and d[1]) for row in deciders]
    )
    players = int(cfgs[0, S.C_PLAYERS])
    index, codes = action_table(players)
    names = np.array(actions(players), dtype=object)
    action_of = {name: a for a, name in enumerate(names.tolist())}
    batchers: list[tuple[Callable[[np.ndarray, np.ndarray], Any], str]] = []
    batcher_of = np.full((k, players), -1, dtype=np.int64)  # per row and seat: its batched player, -1 none
    for r, row in enumerate(rows):
        for seat, s in enumerate(row):
            method = batch_method(s.player) if s.player is not None else None
            if method is not None:
                known = [b for b, (m, _) in enumerate(batchers) if m == method]
                batcher_of[r, seat] = known[0] if known else len(batchers)
                if not known:
                    batchers.append((method, player_name(s.player)))
    per_batch = max(1, (BATCHED_GAMES if batchers else BATCH_GAMES) // k)
    threads = numba.get_num_threads()
    searches = block_searches(cfgs, min(per_batch, deals) * k, threads)
    for start in range(0, deals, per_batch):
        count = min(per_batch, deals - start)
        n = count * k
        games = V.new_games(n)
        games.deal[:] = np.repeat(np.arange(first_deal + start, first_deal + start + count), k)
        games.row[:] = np.tile(np.arange(k), count)
        games.play_seats[:] = np.tile(play_seats, count)
        games.act_seats[:] = np.tile(act_seats, count)
        ended = np.full(n, -1, dtype=np.int64)
        records = np.zeros((n, S.N_REC), dtype=np.int64)
        todo = np.full(n, -2, dtype=np.int64)
        tensors = np.zeros((n if batchers else 0, TENSOR_LENGTH), dtype=np.float32)
        while True:
            obs = np.empty((n, V.N_ROW), dtype=np.int64)
            mask = np.zeros((n, len(names)), dtype=bool)
            step_games(
                games,
                cfgs,
                key,
                todo,
                index,
                obs,
                mask,
                ended,
                records,
                threads,
                tensors=tensors,
                searches=searches,
            )
            waiting = np.flatnonzero(games.pos[:, S.Q_PHASE] != S.PH_OVER)
            if len(waiting) == 0:
                break
            todo = np.full(n, -1, dtype=np.int64)
            if batchers:
                batched = batcher_of[waiting % k, games.pos[waiting, S.Q_SEAT]]
                for b, (method, name) in enumerate(batchers):
                    asked = waiting[batched == b]
                    if len(asked):
                        todo[asked] = codes[
                            _ask_batch(method, name, tensors[asked], mask[asked], games, asked, names)
                        ]
                waiting = waiting[batched < 0]
            legal = mask[waiting]
            ends = np.cumsum(np.count_nonzero(legal, axis=1)).tolist()
            legal_names = names[np.flatnonzero(legal) % len(names)].tolist()
            seats = games.pos[waiting, S.Q_SEAT].tolist()
            if user_run is not None:
                which = [
                    g
                    for g, seat in zip(waiting.tolist(), seats, strict=True)
                    if deciders[g % k][seat] is numba_seat
                ]
                if which:
                    bad = V.decide_user_seats(
                        games, np.array(which, dtype=np.int64), cfgs, user_run.users, todo
                    )
                    if bad >= 0:
                        user_run.users.fault[F_DEAL] = games.deal[bad]
                        user_run.users.fault[F_ROW] = bad % k
                        raise PlayerError(user_run.error())
            begin = 0
            for g, end, seat in zip(waiting.tolist(), ends, seats, strict=True):
                choices = tuple(legal_names[begin:end])
                begin = end
                call, _, name = deciders[g % k][seat]
                if call is None:
                    continue  # a Numba seat, decided above (a batched player's games are left out)
                observation = Observation(obs[g], choices)
                try:
                    action = call(observation)
                except Exception as err:
                    raise PlayerError(_blame(name, seat, f"raised {err!r}", games, g, choices)) from err
                if not isinstance(action, str) or action not in choices:
                    raise PlayerError(_blame(name, seat, f"returned {action!r}", games, g, choices))
                todo[g] = codes[action_of[action]]
        out[start * k : start * k + n] = games.rec
    return out


def _ask_batch(
    method: Callable[[np.ndarray, np.ndarray], Any],
    name: str,
    tensors: np.ndarray,
    masks: np.ndarray,
    games: V.Games,
    asked: np.ndarray,
    names: np.ndarray,
) -> np.ndarray:
    """A batched player's actions (int64[m], action indices) for the games ``asked``.

    Raises
    ------
    PlayerError
        When it raises, returns other than m integers, or an illegal action (the message
        names the first such game); ``names`` are the table's actions, by index."""

    def blame(i: int, what: str) -> PlayerError:
        g = int(asked[i])
        legal = names[np.flatnonzero(masks[i])].tolist()
        return PlayerError(_blame(name, int(games.pos[g, S.Q_SEAT]), what, games, g, legal))

    try:
        chosen = method(tensors, masks)
    except Exception as err:
        raise blame(0, f"raised {err!r}") from err
    chosen = np.asarray(chosen)
    if chosen.shape != (len(asked),) or not np.issubdtype(chosen.dtype, np.integer):
        raise blame(0, f"returned {chosen.dtype} of shape {chosen.shape}, not {len(asked)} action indices")
    inside = (chosen >= 0) & (chosen < masks.shape[1])
    legal = inside & masks[np.arange(len(asked)), np.where(inside, chosen, 0)]
    if not legal.all():
        i = int(np.flatnonzero(~legal)[0])
        raise blame(i, f"returned action {int(chosen[i])}")
    return chosen


def _blame(name: str, seat: int, what: str, games: V.Games, g: int, legal: Sequence[str]) -> str:
    """The message of a ``PlayerError``: the player, its seat, the deal, the decision, the legal actions."""
    from tarotsim.interfaces.game import PHASES

    return (
        f"player {name} in seat {seat} {what} at deal {int(games.deal[g])}, "
        f"{PHASES[int(games.pos[g, S.Q_PHASE])]} decision; legal actions: {', '.join(legal)}"
    )
