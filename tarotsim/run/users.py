"""Numba card players in runs: checking a user's function, giving it a card-play code,
handing the run's functions to the kernels (``kernels.user``) and reporting an illegal card.

A Numba player is a ``@numba.njit`` function ``card(view, legal0, legal1, options) -> int``
(``kernels.user.CARD_SIGNATURE``). :func:`card_code` compiles it for that signature once
(a function of another signature is a ``TypeError`` saying the expected one) and gives
it a card-play code ``PLAY_USER + n``, ``n`` a number of this process; :func:`user_players`
turns the codes of a run's configuration table into slots ``0 … USER_SLOTS - 1`` and
makes the kernels' ``Users`` argument. The functions reach the kernels as Numba
first-class functions, all of one type: the game is compiled once for them all.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tarotsim.hooks import is_numba_function
from tarotsim.kernels import state as S

_FUNCTIONS: list[tuple[Any, tuple[float, ...], Any]] = []
"""Every (function, params, compiled result) given a code in this process: code
``PLAY_USER + n`` is entry ``n``."""
_CODES: dict[tuple[int, tuple[float, ...]], int] = {}


def compiled_card(function: Any) -> Any:
    """``function`` compiled for ``kernels.user.CARD_SIGNATURE`` (the compile result).

    Raises
    ------
    TypeError
        When it is not a Numba function, or does not compile for that signature.
    """
    from tarotsim.kernels.user import CARD_SIGNATURE, SIGNATURE_TEXT

    if not is_numba_function(function):
        raise TypeError(f"a Numba card player is a @numba.njit function {SIGNATURE_TEXT}; got {function!r}")
    name = getattr(function, "__name__", repr(function))
    try:
        function.compile(CARD_SIGNATURE)
        return function.overloads[CARD_SIGNATURE.args]
    except Exception as err:
        lines = [_plain(line) for line in str(err).splitlines()]
        reason = " ".join(line for line in lines[:2] if line) or type(err).__name__
        raise TypeError(
            f"Numba card player {name} must be {SIGNATURE_TEXT}; it does not compile so: {reason}"
        ) from None


def _plain(text: str) -> str:
    """``text`` without terminal colour codes."""
    import re

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


def card_code(function: Any, params: tuple[float, ...]) -> int:
    """The card-play code of ``function`` with ``params`` in this process, the function
    compiled for the card signature first (:func:`compiled_card`)."""
    from tarotsim.kernels.user import PLAY_USER

    key = (id(function), params)
    if key not in _CODES:
        _CODES[key] = len(_FUNCTIONS)
        _FUNCTIONS.append((function, params, compiled_card(function)))
    return PLAY_USER + _CODES[key]


def function_name(function: Any) -> str:
    return getattr(function, "__name__", None) or repr(function)


def _play_slots(cfgs: np.ndarray) -> np.ndarray:
    """Indices into a flat view of ``cfgs`` of every seat's two card-play codes."""
    rows, width = cfgs.shape
    seats = np.arange(S.MAX_SEATS)
    per_row = np.concatenate(
        [
            S.C_SEATS + seats * S.N_SEAT_CFG + S.P_PLAY_ATTACK,
            S.C_SEATS + seats * S.N_SEAT_CFG + S.P_PLAY_DEFENCE,
        ]
    )
    return (np.arange(rows)[:, None] * width + per_row[None, :]).ravel()


def has_user_codes(cfgs: np.ndarray) -> bool:
    """Whether a seat of ``cfgs`` (int64[k, N_CFG]) plays its cards by a Numba function."""
    from tarotsim.kernels.user import PLAY_USER

    return bool((np.asarray(cfgs).ravel()[_play_slots(np.atleast_2d(cfgs))] >= PLAY_USER).any())


class UserRun:
    """The kernels' view of a run's Numba players: ``cfgs`` with slot codes, ``users`` the
    ``kernels.user.Users`` argument, and who each slot is."""

    def __init__(self, cfgs: np.ndarray) -> None:
        from tarotsim.kernels.user import A_JIT, A_WRAPPER, N_FAULT, PLAY_USER, USER_SLOTS, Users

        cfgs = np.array(cfgs, dtype=np.int64, order="C")
        flat = cfgs.ravel()
        where = _play_slots(cfgs)
        codes = flat[where]
        used = sorted({int(c) for c in codes if c >= PLAY_USER})
        if len(used) > USER_SLOTS:
            raise ValueError(f"a run can seat at most {USER_SLOTS} Numba players, got {len(used)}")
        slot_of = {code: j for j, code in enumerate(used)}
        flat[where] = [PLAY_USER + slot_of[int(c)] if c >= PLAY_USER else int(c) for c in codes]
        self.cfgs = cfgs
        self.entries = [_FUNCTIONS[code - PLAY_USER] for code in used]
        addresses = np.zeros((USER_SLOTS, 2), dtype=np.int64)
        for j, (_, _, compiled) in enumerate(self.entries):
            library, names = compiled.library, compiled.fndesc
            addresses[j, A_WRAPPER] = library.get_pointer_to_function(names.llvm_cfunc_wrapper_name)
            addresses[j, A_JIT] = library.get_pointer_to_function(names.llvm_func_name)
        params = np.array([p for entry in self.entries for p in entry[1]], dtype=np.float64)
        sizes = [len(entry[1]) for entry in self.entries] + [0] * (USER_SLOTS - len(self.entries))
        starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        self.users = Users(addresses, params, starts, np.full(N_FAULT, -1, dtype=np.int64))

    def reset(self) -> None:
        self.users.fault[:] = -1

    @property
    def failed(self) -> bool:
        from tarotsim.kernels.user import F_SEAT

        return bool(self.users.fault[F_SEAT] >= 0)

    def error(self, first_deal: int) -> ValueError:
        """The error of the illegal card noted in ``users.fault``: the player, its seat, the
        deal, the decision and the legal cards."""
        from tarotsim.cards import format_card, from_mask
        from tarotsim.kernels import user as U
        from tarotsim.players import PlayerError

        fault = self.users.fault
        function = self.entries[int(fault[U.F_SLOT])][0]
        legal = from_mask(int(np.uint64(fault[U.F_LEGAL0])), int(np.uint64(fault[U.F_LEGAL1])))
        card = int(fault[U.F_CARD])
        shown = format_card(card) if 0 <= card < len(_card_names()) else "no card"
        rotation = f" (row {int(fault[U.F_ROW])} of the run)" if len(self.cfgs) > 1 else ""
        return PlayerError(
            f"Numba player {function_name(function)} in seat {int(fault[U.F_SEAT])}{rotation} returned "
            f"{card} ({shown}), not a legal card, at deal {int(fault[U.F_DEAL])}, card play, trick "
            f"{int(fault[U.F_TRICK]) + 1} card {int(fault[U.F_POSITION]) + 1}; legal cards: "
            f"{', '.join(format_card(c) + f' ({c})' for c in legal)}"
        )


def _card_names() -> tuple[str, ...]:
    from tarotsim.cards import card_names

    return card_names()
