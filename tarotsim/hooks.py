"""What makes a Python player, for ``Strategy`` (which must not import the game): a
callable ``player(observation) -> action`` or an object with ``act(observation)``; and a
Numba card player, a ``@numba.njit`` function (``tarotsim.run.users``).

``tarotsim.players`` plays such players; this module only recognises and names them.
"""

from __future__ import annotations

import sys


class PlayerError(ValueError):
    """A player returned an illegal action, or raised: a Python player, or a Numba player's
    illegal card or wish (``tarotsim.players.PlayerError``)."""


def is_numba_function(value: object) -> bool:
    """Whether ``value`` is a Numba ``@njit`` function (a dispatcher), without importing Numba."""
    if "numba" not in sys.modules:
        return False
    from numba.core.dispatcher import Dispatcher

    return isinstance(value, Dispatcher)


def is_player(value: object) -> bool:
    """Whether ``value`` is a Python player: a callable (not a class, not text) or an object
    with an ``act`` method; a Numba function is not one (it plays the cards: ``play=``)."""
    if isinstance(value, (str, type)) or is_numba_function(value):
        return False
    return callable(getattr(value, "act", None)) or callable(value)


def player_name(player: object) -> str:
    """A short label for a player: its ``name`` attribute, else its function or class name."""
    name = getattr(player, "name", None)
    if isinstance(name, str) and name:
        return name
    target = player if callable(player) and not hasattr(player, "act") else type(player)
    return getattr(target, "__qualname__", None) or getattr(target, "__name__", None) or type(player).__name__


def split_player(play: object, act: object, default_play: str) -> tuple[object, bool, str]:
    """``Strategy``'s Python player from its ``play`` and ``act`` arguments: (the player,
    whether it takes every decision, the card-play policy name that stands for it in the
    kernels' configuration, never asked: ``default_play`` when the player plays the cards).

    Raises
    ------
    TypeError
        When ``act`` is not a player, ``play`` is neither a policy name nor a player, or both
        are players.
    """
    if act is not None:
        if is_numba_function(act):
            raise TypeError(
                "a Numba function is a card player (give it as play=) or a bidder (bid=), not act="
            )
        if not is_player(act):
            raise TypeError(
                "act= takes a player: a callable player(observation) -> action, "
                f"or an object with act(); got {act!r}"
            )
        if not isinstance(play, str):
            raise TypeError("give a Python player as play= (card play) or act= (every decision), not both")
        return act, True, play
    if not is_player(play):
        raise TypeError(
            "the play policy must be a name (a string) or a player, a callable "
            f"player(observation) -> action; got {play!r}"
        )
    return play, False, default_play
