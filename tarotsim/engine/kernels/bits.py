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
from numba.core import cgutils
from numba.extending import intrinsic

from tarotsim._jit import njit

ONE = np.uint64(1)
ZERO = np.uint64(0)
"""The uint64 constants of bit arithmetic, shared by every kernel (a plain ``1`` would make a
Numba expression mixing it with a uint64 a float)."""


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
        w &= w - ONE
    return np.int64(_cttz64(w))


@njit(inline="always")
def highest_bit(word: np.uint64) -> int:
    """Index of the highest set bit (-1 when the word is 0)."""
    return 63 - np.int64(_ctlz64(np.uint64(word)))


@njit(inline="always")
def take_lowest(word: np.uint64, count: int) -> np.uint64:
    """The ``count`` lowest set bits of ``word`` (all of them when it holds fewer)."""
    taken = ZERO
    for _ in range(count):
        if not word:
            break
        low = word & (~word + ONE)
        taken |= low
        word ^= low
    return taken


@njit(inline="always")
def take_highest(word: np.uint64, count: int) -> np.uint64:
    """The ``count`` highest set bits of ``word`` (all of them when it holds fewer)."""
    taken = ZERO
    for _ in range(count):
        if not word:
            break
        high = ONE << np.uint64(highest_bit(word))
        taken |= high
        word ^= high
    return taken


def _fast_pdep() -> bool:
    """Whether this CPU has BMI2's ``pdep`` as a fast instruction.

    Intel CPUs since Haswell and AMD CPUs since Zen 3 (family 25) run it in a few cycles;
    earlier AMD CPUs microcode it (hundreds of cycles), and other CPUs lack it.
    ``TAROTSIM_NO_PDEP=1`` forces the portable loop.
    """
    import os
    import platform

    if os.environ.get("TAROTSIM_NO_PDEP") or platform.machine() not in ("x86_64", "AMD64"):
        return False
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            text = info.read(8192)
    except OSError:
        return False
    fields = dict(
        (key.strip(), value.strip())
        for key, _, value in (line.partition(":") for line in text.splitlines())
        if key.strip() in ("vendor_id", "cpu family", "flags")
    )
    if "bmi2" not in fields.get("flags", "").split():
        return False
    if fields.get("vendor_id") == "AuthenticAMD":
        return int(fields.get("cpu family", "0") or 0) >= 25
    return True


FAST_PDEP = _fast_pdep()
"""Chosen when the kernels are compiled for this machine (the on-disk cache is per CPU)."""


@intrinsic
def _pdep64(typingctx, source, mask):  # type: ignore[no-untyped-def]
    if source != types.uint64 or mask != types.uint64:
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pdep.64")
        return builder.call(fn, args)

    return types.uint64(types.uint64, types.uint64), codegen


@njit(inline="always")
def select_bit(word: np.uint64, k: int) -> int:
    """Index of the k-th lowest set bit (k from 0): one ``pdep`` where it is fast, else a loop."""
    if FAST_PDEP:
        return np.int64(_cttz64(_pdep64(ONE << np.uint64(k), np.uint64(word))))
    return kth_bit(word, k)
