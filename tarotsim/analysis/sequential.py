"""A sequential test of a duel's edge: stop as soon as the answer is known (a GSPRT).

The unit is the deal, whose result is A's duplicate edge on it (game points; continuous and
heavy-tailed). The test weighs

- H0: A's mean edge is ``edge0`` or less, against
- H1: A's mean edge is ``edge1`` or more (``edge1 > edge0``: the edge of interest),

with the error rates ``alpha`` (accepting H1 when H0 holds) and ``beta`` (accepting H0 when
H1 holds). An edge between ``edge0`` and ``edge1`` is the zone where either verdict is
acceptable: the nearer it is to one of them, the likelier that one's verdict, and near the
middle the verdict is nearly a coin flip (soon reached when the per-deal edges vary little). To ask which of
two strategies is better, take edges either side of 0 (``-1, 1``); to ask whether A gains at
least ``edge1``, take ``0, edge1``. After ``n`` deals of mean edge ``m`` and variance ``v`` (divided by ``n``), the
log-likelihood ratio of a normal model whose variance is the one measured so far is

    LLR = n · (edge1 − edge0) · (2m − edge0 − edge1) / (2v),

the generalised SPRT that chess engine testing (fishtest, for Stockfish) runs on its
normalised Elo. Wald's bounds stop the test: LLR at or below ``log(beta / (1 − alpha))``
accepts H0, at or above ``log((1 − beta) / alpha)`` accepts H1. A duel looks at the LLR after
each batch of deals, not after every deal: the LLR overshoots a bound a little further,
which keeps the error rates approximately, slightly below the stated ones (conservative);
``tests/test_sequential.py`` checks them by simulation. A duel stopped at its cap of deals
before either bound is reached is not decided.

Each edge (and its 95 % interval) reported after a stop is the fixed-sample one of the deals
played: a stopped sample leans toward the side it stopped on, so it is approximate, and the
verdict, not the interval, carries the stated error rates.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from tarotsim.base.defaults import SPRT_ERROR_RATE

FOR_A = "A"
"""The verdict that accepts H1: A's edge is ``edge1`` or more."""
FOR_B = "B"
"""The verdict that accepts H0: A's edge is ``edge0`` or less (B is as good as A, or better, at ``edge0 = 0``)."""
NOT_DECIDED = "not decided"
"""The verdict of a test stopped at its cap of deals with the LLR between the bounds."""


def _number(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{name} must be a finite number, got {value}")
    return number


@dataclass(frozen=True)
class Sprt:
    """A sequential test of A's edge: H0 ``edge <= edge0`` against H1 ``edge >= edge1``.

    Parameters
    ----------
    edge0, edge1 : float
        A's edges (game points per deal) of H0 and H1; ``edge0 < edge1``. ``(0, 2)`` asks
        whether A is better by 2 points a deal or more, or not better at all.
    alpha, beta : float
        The error rates: accepting H1 when A's edge is ``edge0``, accepting H0 when it is
        ``edge1`` (each strictly between 0 and 0.5; default 0.05).

    Raises
    ------
    ValueError, TypeError
        For edges that are not finite numbers or not in order, or error rates out of range.
    """

    edge0: float
    edge1: float
    alpha: float = SPRT_ERROR_RATE
    beta: float = SPRT_ERROR_RATE

    def __post_init__(self) -> None:
        for name in ("edge0", "edge1", "alpha", "beta"):
            object.__setattr__(self, name, _number(getattr(self, name), name))
        if not self.edge0 < self.edge1:
            raise ValueError(
                f"the edge of H0 must be below that of H1, got {self.edge0:g} and {self.edge1:g} "
                "(for example 0 and 2: not better at all, or better by 2 points a deal)"
            )
        for name in ("alpha", "beta"):
            if not 0 < getattr(self, name) < 0.5:
                raise ValueError(f"{name} is an error rate between 0 and 0.5, got {getattr(self, name):g}")

    @property
    def lower(self) -> float:
        """Wald's lower bound, ``log(beta / (1 - alpha))``: at or below it, H0 is accepted."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """Wald's upper bound, ``log((1 - beta) / alpha)``: at or above it, H1 is accepted."""
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, n: np.ndarray | int, mean: np.ndarray | float, variance: np.ndarray | float) -> np.ndarray:
        """The log-likelihood ratio of H1 to H0 after ``n`` deals of this ``mean`` edge and
        ``variance`` (points²; divided by ``n``); arrays give one LLR per element. With no
        variance at all the data say the edge exactly: ``±inf`` on either side of the
        middle of the two edges, 0 on it."""
        n, mean, variance = (np.asarray(x, dtype=np.float64) for x in (n, mean, variance))
        gap = self.edge1 - self.edge0
        side = 2 * mean - self.edge0 - self.edge1
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(variance > 0, n * gap * side / (2 * variance), np.sign(side) * np.inf)
        return np.where(side == 0, 0.0, ratio)

    def verdict(self, llr: float) -> str | None:
        """`FOR_A` at or above the upper bound, `FOR_B` at or below the lower one, else None (go on)."""
        if llr >= self.upper:
            return FOR_A
        if llr <= self.lower:
            return FOR_B
        return None

    def describe(self) -> str:
        """The test in words, for a summary or a report."""
        return (
            f"H0: A's edge <= {self.edge0:g} against H1: A's edge >= {self.edge1:g} points per deal, "
            f"error rates alpha {self.alpha:g} and beta {self.beta:g}"
        )


class Looks:
    """The running totals of a sequential test, fed a batch of per-deal edges at a time.

    ``add`` returns the verdict after the batch (`FOR_A`, `FOR_B`) or None to go on;
    ``n``, ``llr`` and ``looks`` say where the test stands.
    """

    def __init__(self, test: Sprt) -> None:
        self.test = test
        self.n = 0
        self.looks = 0
        self.llr = 0.0
        self._sum = 0.0
        self._squares = 0.0  # sum of squared deviations from the running mean (Chan et al.)

    def add(self, edges: np.ndarray) -> str | None:
        """Take the per-deal edges of one more batch (float[k], k >= 1) and look."""
        edges = np.asarray(edges, dtype=np.float64)
        if edges.size == 0:
            raise ValueError("a look needs at least one deal")
        k = edges.size
        batch_mean = float(edges.mean())
        batch_squares = float(((edges - batch_mean) ** 2).sum())
        if self.n:
            delta = batch_mean - self._sum / self.n
            self._squares += batch_squares + delta * delta * self.n * k / (self.n + k)
        else:
            self._squares = batch_squares
        self._sum += float(edges.sum())
        self.n += k
        self.looks += 1
        self.llr = float(self.test.llr(self.n, self._sum / self.n, self._squares / self.n))
        return self.test.verdict(self.llr)
