"""What makes a Python player, for ``Strategy`` (which must not import the game): a
callable ``player(observation) -> action`` or an object with ``act(observation)``; and a
Numba card player, a ``@numba.njit`` function (``tarotsim.players.users``).

``tarotsim.interfaces.python_players`` plays such players; this module only recognises, names and loads them.
A user's player is named by its import path, ``module:attribute`` (`import_name`,
`load_player`), so that a strategy's spec names it, a run's directory records it
and another process (a resumed run, a Dask worker) loads it back.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any


class PlayerError(ValueError):
    """A player returned an illegal action, or raised: a Python player, or a Numba player's
    illegal card or wish (``tarotsim.interfaces.python_players.PlayerError``)."""


def is_numba_function(value: object) -> bool:
    """Whether ``value`` is a Numba ``@njit`` function (a dispatcher), without importing Numba."""
    if "numba" not in sys.modules:
        return False
    from numba.core.dispatcher import Dispatcher

    return isinstance(value, Dispatcher)


def is_player(value: object) -> bool:
    """Whether ``value`` is a Python player: a callable (not a class, not text) or an object
    with an ``act`` method, or a batched player (an ``act_batch`` method,
    ``tarotsim.interfaces.python_players.play_step_by_step``); a Numba function is not one (it plays the
    cards: ``play=``)."""
    if isinstance(value, (str, type)) or is_numba_function(value):
        return False
    return (
        callable(getattr(value, "act", None))
        or callable(getattr(value, "act_batch", None))
        or callable(value)
    )


def player_name(player: object) -> str:
    """A short label for a player: its ``name`` attribute, else its function or class name."""
    name = getattr(player, "name", None)
    if isinstance(name, str) and name:
        return name
    target = player if callable(player) and not hasattr(player, "act") else type(player)
    return getattr(target, "__qualname__", None) or getattr(target, "__name__", None) or type(player).__name__


_LOADED: dict[int, tuple[object, str]] = {}
"""Every object `load_player` loaded, by ``id``, with the path it was loaded by (the
object held, so that its ``id`` stays its own)."""

IMPORT_PATH = "module:attribute"
"""How an import path is written (``mypkg.players:cautious``)."""


def is_import_path(value: object) -> bool:
    """Whether ``value`` is text naming an object by import path (it holds a ``:``, which no
    policy name does)."""
    return isinstance(value, str) and ":" in value


def import_name(player: object) -> str | None:
    """The import path ``module:attribute`` that loads ``player`` back in another process,
    None when there is none.

    A function (or Numba function) is named by its ``__module__`` and ``__qualname__``, an
    object by a public name that holds it in the module of its class (so that each player
    has one name, whatever it was loaded by); else an object loaded by `load_player`
    is named by the path it was loaded by. A lambda, a function defined inside
    another, an object made on the fly or anything of ``__main__`` (a script's module,
    another one in another process) has none.
    """
    module_name = getattr(player, "__module__", None)
    module = sys.modules.get(module_name) if isinstance(module_name, str) else None
    if module is not None and module_name != "__main__":
        qualname = getattr(player, "__qualname__", None)
        if isinstance(qualname, str):
            names = [qualname]
        else:
            names = [
                name for name, value in vars(module).items() if value is player and not name.startswith("_")
            ]
        for name in names:
            if _attribute(module, name) is player:
                return f"{module_name}:{name}"
    loaded = _LOADED.get(id(player))
    return loaded[1] if loaded is not None and loaded[0] is player else None


def _attribute(module: object, dotted: str) -> Any:
    """The attribute ``dotted`` (``a.b``) of ``module``, None when it has none."""
    value: Any = module
    for part in dotted.split("."):
        value = getattr(value, part, None)
        if value is None:
            return None
    return value


def load_player(path: str, key: str) -> object:
    """The user's player named ``path`` (``module:attribute``) for the strategy key ``key``:
    a Python player or a Numba card player for ``play``, a Numba bidder for ``bid``, a
    Python player for ``act``.

    Raises
    ------
    ValueError
        When the path is not ``module:attribute``, the module cannot be imported or has no
        such attribute.
    TypeError
        When the attribute is not a player of that kind.
    """
    module_name, _, attribute = (part.strip() for part in path.partition(":"))
    if not module_name or not attribute or ":" in attribute:
        raise ValueError(
            f"{key}={path}: a player's import path is {IMPORT_PATH}, such as mypkg.players:cautious"
        )
    if module_name == "__main__":
        raise ValueError(
            f"{key}={path}: __main__ is another module in another process; "
            "put the player in an importable module"
        )
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        raise ValueError(f"{key}={path}: cannot import {module_name} ({err})") from None
    player = _attribute(module, attribute)
    if player is None:
        raise ValueError(f"{key}={path}: module {module_name} has no {attribute}")
    numba_function = is_numba_function(player)
    if key == "bid" and not numba_function:
        raise TypeError(f"bid={path} is not a Numba bidder, a @numba.njit function bid(view, options) -> int")
    if key == "act" and not is_player(player):
        raise TypeError(f"act={path} is not a Python player, a function player(observation) -> action")
    if key == "play" and not (numba_function or is_player(player)):
        raise TypeError(
            f"play={path} is not a player: a function player(observation) -> action, an object with "
            "act(observation), or a @numba.njit card player"
        )
    _LOADED[id(player)] = (player, f"{module_name}:{attribute}")
    return player


def spec_name(player: object) -> str:
    """How a strategy's spec names ``player``: its import path (`import_name`), else
    its short label (`player_name`), which names it in records but does not load it."""
    return import_name(player) or player_name(player)


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
