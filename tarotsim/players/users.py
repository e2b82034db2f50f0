"""Numba players in runs: checking a user's function, giving it a code, handing the run's
functions to the kernels (``players.kernels.user``) and reporting an illegal card or wish.

A Numba card player is a ``@numba.njit`` function ``card(view, legal0, legal1, options) ->
int`` (``kernels.user.CARD_SIGNATURE``), a Numba bidder ``bid(view, options) -> int``
(``BID_SIGNATURE``). `user_code` compiles one for its signature once (a function of
another signature is a ``TypeError`` saying the expected one) and gives it a code
(``PLAY_USER + n`` or ``BID_USER + n``, ``n`` a number of this process); `UserRun`
turns the codes of a run's configuration table into slots ``0 … USER_SLOTS - 1`` and makes
the kernels' ``Users`` argument. The functions reach the kernels as the addresses of their
compiled code, called as Numba first-class functions: the game is compiled once for them all.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from tarotsim.engine.kernels import state as S
from tarotsim.players.hooks import is_numba_function

CARD, BID = "card", "bid"
"""The two kinds of Numba players: the card play (``play=``) and the auction (``bid=``)."""

_FUNCTIONS: list[tuple[Any, tuple[float, ...], str, Any]] = []
"""Every (function, params, kind, compile result) given a code in this process: codes
``PLAY_USER + n`` and ``BID_USER + n`` are entry ``n``."""
_CODES: dict[tuple[int, tuple[float, ...], str], int] = {}


def _signature(kind: str) -> tuple[Any, str]:
    from tarotsim.players.kernels import user as U

    if kind == CARD:
        return U.CARD_SIGNATURE, U.SIGNATURE_TEXT
    return U.BID_SIGNATURE, U.BID_SIGNATURE_TEXT


def compiled_user(function: Any, kind: str = CARD) -> Any:
    """``function`` compiled for the signature of ``kind`` (the compile result).

    The function is compiled for the signature's arguments alone, so that the return type
    is the one it computes (Numba would convert any number to a declared ``int64``): one
    that is not ``int64`` (a float, a bool, another integer type) is refused.

    Raises
    ------
    TypeError
        When it is not a Numba function, does not compile for that signature, or does not
        return an ``int64``.
    """
    from numba.core import types

    signature, text = _signature(kind)
    what = "card player" if kind == CARD else "bidder"
    if not is_numba_function(function):
        raise TypeError(f"a Numba {what} is a @numba.njit function {text}; got {function!r}")
    try:
        try:
            function.compile(signature.args)
        except Exception:
            from numba.core.caching import NullCache

            if isinstance(function._cache, NullCache):
                raise
            function._cache = NullCache()  # a cache entry it could not load (a module renamed, moved)
            function.compile(signature.args)
        compiled = function.overloads[signature.args]
    except Exception as err:
        lines = [_plain(line) for line in str(err).splitlines()]
        reason = " ".join(line for line in lines[:2] if line) or type(err).__name__
        raise TypeError(
            f"Numba {what} {function_name(function)} must be {text}; it does not compile so: {reason}"
        ) from None
    returned = compiled.signature.return_type
    if types.unliteral(returned) != signature.return_type:  # a constant's type is an int64's literal
        raise TypeError(
            f"Numba {what} {function_name(function)} returns {returned}; it must return a whole "
            f"number, an int64 (int(x) makes one): {text}"
        )
    return compiled


def _plain(text: str) -> str:
    """``text`` without terminal colour codes."""
    return re.sub(r"\x1b\[[0-9;]*m", "", text).strip()


def check_params(params: object) -> tuple[float, ...]:
    """A Numba player's ``params``: a sequence of numbers, as floats.

    Raises
    ------
    TypeError
        For anything else.
    """
    if params is None:
        return ()
    if isinstance(params, (str, bytes)) or not hasattr(params, "__iter__"):
        raise TypeError(f"params must be a sequence of numbers, got {params!r}")
    values = tuple(params)
    try:
        return tuple(float(v) for v in values)
    except (TypeError, ValueError):
        raise TypeError(f"params must be a sequence of numbers, got {params!r}") from None


def user_code(function: Any, params: tuple[float, ...], kind: str = CARD) -> int:
    """The code of ``function`` with ``params`` for decisions of ``kind`` in this process,
    the function compiled for its signature first (`compiled_user`)."""
    from tarotsim.players.kernels.user import BID_USER, PLAY_USER

    key = (id(function), params, kind)
    if key not in _CODES:
        compiled = compiled_user(function, kind)
        _CODES[key] = len(_FUNCTIONS)
        _FUNCTIONS.append((function, params, kind, compiled))
    return (PLAY_USER if kind == CARD else BID_USER) + _CODES[key]


def function_name(function: Any) -> str:
    return getattr(function, "__name__", None) or repr(function)


def _code_cells(cfgs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Indices into a flat view of ``cfgs`` (int64[k, N_CFG]) of every seat's two card-play
    codes, and of its bid code."""
    rows, width = cfgs.shape
    seats = S.C_SEATS + np.arange(S.MAX_SEATS) * S.N_SEAT_CFG
    play = np.concatenate([seats + S.P_PLAY_ATTACK, seats + S.P_PLAY_DEFENCE])
    base = np.arange(rows)[:, None] * width
    return (base + play[None, :]).ravel(), (base + (seats + S.P_BID_POLICY)[None, :]).ravel()


def has_user_codes(cfgs: np.ndarray) -> bool:
    """Whether a seat of ``cfgs`` (int64[N_CFG] or int64[k, N_CFG]) has a Numba player."""
    from tarotsim.players.kernels.user import BID_USER, PLAY_USER

    cfgs = np.atleast_2d(cfgs)
    play, bid = _code_cells(cfgs)
    flat = np.asarray(cfgs).ravel()
    return bool((flat[play] >= PLAY_USER).any() or (flat[bid] >= BID_USER).any())


class UserRun:
    """The kernels' view of a run's Numba players: ``cfgs`` with slot codes, ``users`` the
    ``players.kernels.user.Users`` argument, and whose each slot is (``entries``).

    Raises
    ------
    ValueError
        For more Numba functions in a run than ``players.kernels.user.USER_SLOTS``.
    """

    def __init__(self, cfgs: np.ndarray) -> None:
        from tarotsim.players.kernels.user import (
            A_JIT,
            A_WRAPPER,
            BID_USER,
            N_FAULT,
            PLAY_USER,
            USER_SLOTS,
            Users,
        )

        cfgs = np.array(np.atleast_2d(cfgs), dtype=np.int64, order="C")
        flat = cfgs.ravel()
        cells = list(zip(_code_cells(cfgs), (PLAY_USER, BID_USER), strict=True))
        used = sorted({int(c) - first for where, first in cells for c in flat[where] if c >= first})
        if len(used) > USER_SLOTS:
            raise ValueError(f"a run can seat at most {USER_SLOTS} Numba functions, got {len(used)}")
        slot_of = {entry: j for j, entry in enumerate(used)}
        for where, first in cells:
            flat[where] = [first + slot_of[int(c) - first] if c >= first else int(c) for c in flat[where]]
        self.cfgs = cfgs
        self.entries = [_FUNCTIONS[entry] for entry in used]
        addresses = np.zeros((USER_SLOTS, 2), dtype=np.int64)
        for j, (_, _, _, compiled) in enumerate(self.entries):
            library, names = compiled.library, compiled.fndesc
            addresses[j, A_WRAPPER] = library.get_pointer_to_function(names.llvm_cfunc_wrapper_name)
            addresses[j, A_JIT] = library.get_pointer_to_function(names.llvm_func_name)
        params = np.array([p for entry in self.entries for p in entry[1]], dtype=np.float64)
        sizes = [len(entry[1]) for entry in self.entries] + [0] * (USER_SLOTS - len(self.entries))
        starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        self.users = Users(addresses, params, starts, np.full(N_FAULT, -1, dtype=np.int64))

    def reset(self) -> None:
        """Clear the fault noted by a run."""
        self.users.fault[:] = -1

    @property
    def failed(self) -> bool:
        """Whether a Numba function returned an illegal card or wish in the last run."""
        from tarotsim.players.kernels.user import F_SEAT

        return bool(self.users.fault[F_SEAT] >= 0)

    def error(self) -> str:
        """The message of the illegal card or wish noted in ``users.fault``: the function,
        its seat, the deal, the decision and the legal choices."""
        from tarotsim.engine.cards import N_CARDS, format_card, from_mask
        from tarotsim.players.kernels import user as U

        fault = self.users.fault
        function, _, kind, _ = self.entries[int(fault[U.F_SLOT])]
        returned = int(fault[U.F_CARD])
        row = f" (row {int(fault[U.F_ROW])} of the run)" if len(self.cfgs) > 1 else ""
        who = f"Numba {'player' if kind == CARD else 'bidder'} {function_name(function)} in seat {int(fault[U.F_SEAT])}{row}"
        deal = int(fault[U.F_DEAL])
        if kind == BID:
            return (
                f"{who} returned {returned}, not a wish, at deal {deal}, bid decision; "
                "legal wishes: 0 pass, 1 prise, 2 garde, 3 garde sans, 4 garde contre"
            )
        legal = from_mask(int(np.uint64(fault[U.F_LEGAL0])), int(np.uint64(fault[U.F_LEGAL1])))
        shown = format_card(returned) if 0 <= returned < N_CARDS else "no card"
        return (
            f"{who} returned {returned} ({shown}), not a legal card, at deal {deal}, card play, trick "
            f"{int(fault[U.F_TRICK]) + 1} card {int(fault[U.F_POSITION]) + 1}; legal cards: "
            f"{', '.join(f'{format_card(c)} ({c})' for c in legal)}"
        )
