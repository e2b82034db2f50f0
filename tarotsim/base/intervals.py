"""Confidence intervals: Wilson for success rates, normal for paired differences; the normal quantile.

Intervals are two-sided at 95 % by default (``z =`` [`Z95`][tarotsim.base.intervals.Z95]).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

Z95 = 1.959963984540054
"""Two-sided 95 % normal quantile."""


def wilson_interval(
    successes: float | np.ndarray | pd.Series,
    n: float | np.ndarray | pd.Series,
    z: float = Z95,
) -> tuple[float, float] | tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for a binomial proportion.

    Parameters
    ----------
    successes : int or array_like
        Number of successes (made contracts), ``0 <= successes <= n``.
    n : int or array_like
        Number of trials (deals). Broadcasts against `successes`.
    z : float, optional
        Normal quantile; the default gives a two-sided 95 % interval.

    Returns
    -------
    (low, high) : tuple of float or of numpy.ndarray
        Bounds of the success rate, as fractions in [0, 1]. Floats for scalar
        input, float arrays of the broadcast shape otherwise. ``n == 0`` gives NaN.

    Raises
    ------
    ValueError
        If ``n < 0``, ``successes < 0``, ``successes > n`` or ``z <= 0``.

    Examples
    --------
    >>> low, high = wilson_interval(8, 10)
    >>> round(low, 4), round(high, 4)
    (0.4902, 0.9433)
    """
    check_z(z)
    k = np.asarray(successes, dtype=float)
    m = np.asarray(n, dtype=float)
    if np.any(m < 0):
        raise ValueError("n must be non-negative")
    if np.any(k < 0) or np.any(k > m):
        raise ValueError("successes must lie between 0 and n")
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / m
        z2n = z * z / m
        denom = 1.0 + z2n
        centre = (p + z2n / 2.0) / denom
        half = z / denom * np.sqrt(p * (1.0 - p) / m + z2n / (4.0 * m))
    # the bounds are exactly 0 at k = 0 and exactly 1 at k = n; keep them so despite rounding
    low = np.where(k == 0, 0.0, np.clip(centre - half, 0.0, 1.0))
    high = np.where(k == m, 1.0, np.clip(centre + half, 0.0, 1.0))
    low = np.where(m > 0, low, np.nan)
    high = np.where(m > 0, high, np.nan)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def check_z(z: float) -> None:
    """Check that the normal quantile `z` is a positive number."""
    if not np.isfinite(z) or z <= 0:
        raise ValueError(f"z must be a positive number, got {z!r}")


def paired_interval(differences: np.ndarray, z: float) -> tuple[float, float, float]:
    """Mean of paired differences and its normal-approximation interval (used by the duel's edge).

    Parameters
    ----------
    differences : numpy.ndarray
        float[n], one difference per pair.
    z : float
        Normal quantile of the interval.

    Returns
    -------
    (mean, low, high) : tuple of float
        ``mean ± z · std(ddof=1) / sqrt(n)``; all NaN when ``n == 0``, the bounds NaN
        when ``n < 2``.
    """
    n = len(differences)
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = float(differences.mean())
    if n < 2:
        return mean, math.nan, math.nan
    half = z * float(differences.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half
