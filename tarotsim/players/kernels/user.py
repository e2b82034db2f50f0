"""Card players (and bidders) written by users as Numba functions, compiled into the game loop.

A user's card player is any ``@numba.njit`` function ``card(view, legal0, legal1, options)
-> int`` compiled for `CARD_SIGNATURE`: the seat's ``SeatView`` (``engine.kernels.view``;
its arrays read-only, but for ``rng``, the deal's random stream, which a player may draw
from), its legal cards as the two ``uint64`` words of a card set, its strategy's ``params``
as a read-only ``float64`` array, and the card id it plays.

The game receives the functions as the addresses of their compiled code in a
`Users` argument (arrays only: its type is the same whatever the functions) and
calls each as a Numba first-class function of one type,
`CARD_FUNCTION` (``card_function``): the game is compiled once for every user
function, and each new function compiles alone, once (``@numba.njit(cache=True)`` keeps
it across processes). Runs without user players pass ``None`` and compile none of this.

A user's bidder is the same for the auction: ``bid(view, options) -> int``
(`BID_SIGNATURE`), the contract the seat wishes to play with its hand as dealt
(0 pass, 1 prise … 4 garde contre); it bids that wish when it beats the bid so far, as
every bid policy does. Its seat has the bid code ``BID_USER + j``.

A seat played by a user function has the card-play code ``PLAY_USER + j``, ``j`` its slot
of ``Users`` (at most `USER_SLOTS` functions in a run). The deal machine (``players.kernels.machine``: ``choose``,
``play_tricks``), given ``users``, asks ``user_card`` for its cards and ``user_bid`` for its
wish; without, it raises.

A card that is not legal is never played silently: ``user_card`` notes the first one in
``Users.fault`` (slots ``F_*``) and plays the lowest legal card instead so that the deal
ends; ``runs.kernels.batch.play_block`` stops at its next deal, every block after it too, and the caller raises
(``runs.runner``), naming the seat, the deal, the decision and the legal cards.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import types
from numba.core import cgutils
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic

from tarotsim._jit import njit
from tarotsim.engine.cards import N_CARDS, N_SUIT_CARDS
from tarotsim.engine.kernels.bits import ZERO, lowest_bit
from tarotsim.engine.kernels.rules import card_bit
from tarotsim.engine.kernels.state import I_TRICK, I_TRICK_LEN, MAX_SEATS
from tarotsim.engine.kernels.view import SeatView

PLAY_USER = 64
"""The card-play code of a run's user function in slot 0; slot ``j`` has ``PLAY_USER + j``.
Above every code of the registry (``policies.codes``)."""
BID_USER = 64
"""The bid code of a run's user bidder in slot 0; slot ``j`` has ``BID_USER + j``."""
MAX_WISH = 4
"""The highest wish a bidder may return: garde contre (0 pass, 1 prise, 2 garde, 3 garde sans)."""
USER_SLOTS = 2 * MAX_SEATS
"""User functions a run can hold: one per seat and side."""

F_SEAT, F_TRICK, F_POSITION, F_CARD, F_LEGAL0, F_LEGAL1, F_DEAL, F_ROW, F_SLOT = range(9)
"""Slots of ``Users.fault`` (int64): the seat whose function returned an illegal card or
wish (-1: none), the trick (0-based) and the card's place in it (-1 for a bid), the card
or wish returned, the legal cards (the two words, as int64 bit patterns), the deal, the row
of the configuration table and the user slot."""
N_FAULT = 9


def _ro(ndim: int, dtype: types.Type, readonly: bool = True) -> types.Array:
    return types.Array(dtype, ndim, "C", readonly=readonly)


VIEW_TYPE = types.NamedTuple(
    (
        types.int64,  # seat
        types.boolean,  # attack
        *(types.uint64,) * 6,  # hand0 hand1 ecart0 ecart1 chien0 chien1
        _ro(1, types.int64),  # info
        _ro(1, types.uint64),  # played
        _ro(1, types.int64),  # trick
        _ro(2, types.uint64),  # shown
        _ro(2, types.int64),  # history
        _ro(1, types.int64),  # bids
        _ro(1, types.uint64, readonly=False),  # rng: a player may draw from the deal's stream
    ),
    SeatView,
)
"""The Numba type of the ``SeatView`` a user function receives."""
OPTIONS_TYPE = _ro(1, types.float64)
"""The type of its ``options``: the strategy's ``params``, read-only float64[n]."""
CARD_SIGNATURE = types.int64(VIEW_TYPE, types.uint64, types.uint64, OPTIONS_TYPE)
"""``card(view, legal0, legal1, options) -> int``, as Numba types."""
CARD_FUNCTION = types.FunctionType(CARD_SIGNATURE)
"""The first-class function type of a user card player."""
SIGNATURE_TEXT = (
    "card(view: SeatView, legal0: uint64, legal1: uint64, options: float64[:]) -> int (a card id)"
)
"""The expected signature, as the error messages write it."""
BID_SIGNATURE = types.int64(VIEW_TYPE, OPTIONS_TYPE)
"""``bid(view, options) -> int``, as Numba types."""
BID_FUNCTION = types.FunctionType(BID_SIGNATURE)
"""The first-class function type of a user bidder."""
BID_SIGNATURE_TEXT = "bid(view: SeatView, options: float64[:]) -> int (0 pass, 1 prise … 4 garde contre)"
"""The expected signature of a bidder, as the error messages write it."""


A_WRAPPER, A_JIT = 0, 1
"""Columns of ``Users.addresses``: a compiled function's C wrapper and its Numba entry point."""


class Users(NamedTuple):
    """The user card players of a run (``players.users.UserRun`` makes it)."""

    addresses: np.ndarray  # int64[USER_SLOTS, 2]: slot j's compiled code (columns A_*; 0: no function)
    params: np.ndarray  # float64[n]: every slot's params, one after the other
    starts: np.ndarray  # int64[USER_SLOTS + 1]: slot j's params are params[starts[j]:starts[j + 1]]
    fault: np.ndarray  # int64[N_FAULT]: the first illegal card returned (slots F_*; F_SEAT -1: none)


@intrinsic
def read_only(typingctx, array):  # type: ignore[no-untyped-def]
    """The same array typed read-only (no copy): what a user function may not write."""
    result = array.copy(readonly=True)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return impl_ret_borrowed(context, builder, signature.return_type, args[0])

    return result(array), codegen


def _function_at(kind: types.FunctionType):  # type: ignore[no-untyped-def]
    """An intrinsic turning the addresses of a compiled function of type ``kind`` (int64:
    its C wrapper and its Numba entry point, which calls go through) into that function."""

    def at(typingctx, wrapper, entry):  # type: ignore[no-untyped-def]
        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            function = cgutils.create_struct_proxy(kind)(context, builder)
            function.c_addr = builder.inttoptr(args[0], cgutils.voidptr_t)
            function.py_addr = cgutils.voidptr_t(None)
            function.jit_addr = builder.inttoptr(args[1], cgutils.voidptr_t)
            return function._getvalue()

        return kind(types.int64, types.int64), codegen

    return intrinsic(at)


card_function = _function_at(CARD_FUNCTION)
"""``card_function(wrapper, entry)``: a user card player, from its addresses."""
bid_function = _function_at(BID_FUNCTION)
"""``bid_function(wrapper, entry)``: a user bidder, from its addresses."""


@njit(inline="always")
def user_view(v: SeatView) -> SeatView:
    """``v`` with its arrays read-only, but for the random stream."""
    return SeatView(
        v.seat,
        v.attack,
        v.hand0,
        v.hand1,
        v.ecart0,
        v.ecart1,
        v.chien0,
        v.chien1,
        read_only(v.info),
        read_only(v.played),
        read_only(v.trick),
        read_only(v.shown),
        read_only(v.history),
        read_only(v.bids),
        v.rng,
    )


@njit(inline="always")
def user_card(users: Users, code: int, v: SeatView, legal0: np.uint64, legal1: np.uint64) -> int:
    """The card the user function of card-play code ``code`` plays for the seat of ``v``
    from its legal cards; an illegal answer is noted in ``users.fault`` (the first one) and
    replaced by the lowest legal card, so that the deal ends and the run can stop."""
    slot = code - PLAY_USER
    options = read_only(users.params[users.starts[slot] : users.starts[slot + 1]])
    play = card_function(users.addresses[slot, A_WRAPPER], users.addresses[slot, A_JIT])
    card = play(user_view(v), legal0, legal1, options)
    if 0 <= card < N_CARDS:
        bit0, bit1 = card_bit(card)
        if (legal0 & bit0) != ZERO or (legal1 & bit1) != ZERO:
            return card
    fault = users.fault
    if fault[F_SEAT] < 0:
        fault[F_TRICK] = v.info[I_TRICK]
        fault[F_POSITION] = v.info[I_TRICK_LEN]
        fault[F_CARD] = card
        fault[F_LEGAL0] = np.int64(legal0)
        fault[F_LEGAL1] = np.int64(legal1)
        fault[F_SLOT] = slot
        fault[F_SEAT] = v.seat
    return lowest_bit(legal0) if legal0 != ZERO else N_SUIT_CARDS + lowest_bit(legal1)


@njit(inline="always")
def user_bid(users: Users, code: int, v: SeatView) -> int:
    """The wish of the user bidder of bid code ``code`` for the seat of ``v``; a wish that is
    no contract code is noted in ``users.fault`` (the first one) and replaced by a pass."""
    slot = code - BID_USER
    options = read_only(users.params[users.starts[slot] : users.starts[slot + 1]])
    bid = bid_function(users.addresses[slot, A_WRAPPER], users.addresses[slot, A_JIT])
    wish = bid(user_view(v), options)
    if 0 <= wish <= MAX_WISH:
        return wish
    fault = users.fault
    if fault[F_SEAT] < 0:
        fault[F_TRICK] = -1
        fault[F_POSITION] = -1
        fault[F_CARD] = wish
        fault[F_LEGAL0] = 0
        fault[F_LEGAL1] = 0
        fault[F_SLOT] = slot
        fault[F_SEAT] = v.seat
    return 0
