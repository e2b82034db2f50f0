"""Bit helpers on ``uint64`` words, lowered to LLVM intrinsics.

``llvm.ctpop``, ``llvm.cttz`` and ``llvm.ctlz`` become single ``popcnt``/``tzcnt``/``lzcnt`` instructions on CPUs
that have them; on CPUs without them LLVM emits its own portable bit-twiddling
sequence, so the same code runs everywhere and the choice is made when the kernel is
compiled for the host CPU.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from tarotsim._jit import njit


@intrinsic
def _ctpop64(typingctx, word):  # type: ignore[no-untyped-def]
    if word != types.uint64:
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


@intrinsic
def _cttz64(typingctx, word):  # type: ignore[no-untyped-def]
    if word != types.uint64:
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.uint64(types.uint64), codegen


@intrinsic
def _ctlz64(typingctx, word):  # type: ignore[no-untyped-def]
    if word != types.uint64:
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.uint64(types.uint64), codegen


@njit(inline="always")
def popcount(word: np.uint64) -> int:
    """Number of set bits of a uint64 word."""
    return np.int64(_ctpop64(np.uint64(word)))


@njit(inline="always")
def lowest_bit(word: np.uint64) -> int:
    """Index of the lowest set bit (64 when the word is 0)."""
    return np.int64(_cttz64(np.uint64(word)))


@njit(inline="always")
def kth_bit(word: np.uint64, k: int) -> int:
    """Index of the k-th lowest set bit (k counts from 0); the word must hold more than k bits."""
    w = np.uint64(word)
    for _ in range(k):
        w &= w - np.uint64(1)
    return np.int64(_cttz64(w))


@njit(inline="always")
def highest_bit(word: np.uint64) -> int:
    """Index of the highest set bit (-1 when the word is 0)."""
    return 63 - np.int64(_ctlz64(np.uint64(word)))
