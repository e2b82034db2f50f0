"""From a user's seed to the run key the kernels use."""

from __future__ import annotations

import numpy as np

SeedLike = int | np.random.Generator | None


def resolve_seed(seed: SeedLike) -> int:
    """The integer seed a run records: the seed itself, one drawn from a Generator, or fresh entropy."""
    if seed is None:
        entropy = np.random.SeedSequence().entropy
        assert isinstance(entropy, int)
        return entropy % (1 << 63)
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(0, 1 << 63))
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an integer, a numpy Generator or None, got {seed!r}")
    if seed < 0:
        raise ValueError(f"seed must be zero or positive, got {seed}")
    return int(seed)


def run_key(seed: int) -> np.ndarray:
    """The run key, uint64[4], drawn from ``numpy.random.SeedSequence(seed)``."""
    return np.random.SeedSequence(seed).generate_state(4, np.uint64)
