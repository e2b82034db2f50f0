"""The kernels' random generator: xoshiro256** seeded per deal.

A run's seed is turned by ``numpy.random.SeedSequence`` into a 4-word key (see
``tarotsim.base.seeding``). Deal ``i`` of the run starts its own xoshiro256** stream from
``splitmix64`` applied to the key and ``i``: every deal's cards and choices depend on
the run key and the deal's index alone, never on the block, the thread or the worker
that plays it.

The state is a ``uint64[4]`` array that the caller owns (one per block of deals).
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit

STREAM_WORDS = 4
"""Words of a stream's state (uint64[STREAM_WORDS])."""
MASK32 = np.uint64(0xFFFFFFFF)
"""The low 32 bits of a word."""

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_SUB_SALT = np.uint64(0xD1B54A32D192ED03)


@njit(inline="always")
def splitmix64(x: np.uint64) -> np.uint64:
    """The splitmix64 finaliser of ``x + golden ratio``: a bijective 64-bit mixer."""
    z = np.uint64(x) + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(inline="always")
def seed_stream(state: np.ndarray, key: np.ndarray, stream: int) -> None:
    """Start ``state`` (uint64[4]) on stream number ``stream`` of the run key ``key`` (uint64[4])."""
    x = np.uint64(stream) * _GOLDEN
    for j in range(STREAM_WORDS):
        x = splitmix64(x ^ key[j])
        state[j] = x
    if state[0] == 0 and state[1] == 0 and state[2] == 0 and state[3] == 0:
        state[0] = _GOLDEN


@njit(inline="always")
def seed_substream(state: np.ndarray, key: np.ndarray, stream: int, sub: int) -> None:
    """Start ``state`` on sub-stream ``sub`` (0 or more) of stream ``stream`` of the run key:
    a stream of its own, apart from the stream itself and from every other sub-stream, for
    work such as a search player's decisions that must not disturb the deal's own draws."""
    seed_stream(state, key, stream)
    x = splitmix64(np.uint64(sub) ^ _SUB_SALT)
    for j in range(STREAM_WORDS):
        x = splitmix64(x ^ state[j])
        state[j] = x
    if state[0] == 0 and state[1] == 0 and state[2] == 0 and state[3] == 0:
        state[0] = _GOLDEN


@njit(inline="always")
def _rotl(x: np.uint64, k: int) -> np.uint64:
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(inline="always")
def next_u64(state: np.ndarray) -> np.uint64:
    """Next 64-bit output of xoshiro256** (Blackman and Vigna, 2018)."""
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    return result


@njit(inline="always")
def bounded(word32: np.uint64, n: int, state: np.ndarray) -> int:
    """Uniform integer in ``[0, n)`` from a uniform 32-bit ``word32``, exactly unbiased.

    Lemire's multiply-and-reject method; a rejected word is replaced by the high 32 bits
    of the next output of ``state``.
    """
    bound = np.uint64(n)
    m = word32 * bound
    low = m & MASK32
    if low < bound:
        threshold = (np.uint64(1 << 32) - bound) % bound
        while low < threshold:
            m = (next_u64(state) >> np.uint64(32)) * bound
            low = m & MASK32
    return np.int64(m >> np.uint64(32))


@njit(inline="always")
def below(state: np.ndarray, n: int) -> int:
    """Uniform integer in ``[0, n)`` for ``1 <= n < 2**32``, exactly unbiased."""
    return bounded(next_u64(state) >> np.uint64(32), n, state)
