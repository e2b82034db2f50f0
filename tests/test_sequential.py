"""The sequential test of a duel's edge: its error rates hold, checked by simulation (no game)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tarotsim.analysis.sequential import FOR_A, FOR_B, Looks, Sprt

SEQUENCES = 3000
LOOK = 20
LOOKS = 100


def simulate_verdicts(test: Sprt, edge: float, *, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The verdicts (+1 for A, −1 for B, 0 not decided) and deals played of `SEQUENCES` duels
    whose per-deal edges are heavy-tailed (Student's t, 3 degrees of freedom, standard deviation
    10 points) around ``edge``, looked at every `LOOK` deals up to `LOOKS` looks."""
    rng = np.random.default_rng(seed)
    scale = 10 / math.sqrt(3)  # t with 3 degrees of freedom has variance 3
    n = np.zeros(SEQUENCES)
    total = np.zeros(SEQUENCES)
    squares = np.zeros(SEQUENCES)
    verdict = np.zeros(SEQUENCES, dtype=np.int64)
    played = np.zeros(SEQUENCES, dtype=np.int64)
    for _ in range(LOOKS):
        going = verdict == 0
        draws = edge + scale * rng.standard_t(3, size=(SEQUENCES, LOOK))
        n += going * LOOK
        total += going * draws.sum(axis=1)
        squares += going * (draws**2).sum(axis=1)
        mean = total / n
        llr = test.llr(n, mean, squares / n - mean**2)
        decided = going & ((llr >= test.upper) | (llr <= test.lower))
        verdict[decided] = np.where(llr[decided] >= test.upper, 1, -1)
        played[going] = n[going]
    return verdict, played


@pytest.mark.parametrize(("alpha", "beta"), [(0.05, 0.05), (0.1, 0.02)])
def test_the_stated_error_rates_hold_on_heavy_tailed_edges(alpha: float, beta: float) -> None:
    test = Sprt(0.0, 2.0, alpha=alpha, beta=beta)
    margin = 3 * math.sqrt(0.25 / SEQUENCES)  # three standard errors of a rate, at most
    at_h0, played_h0 = simulate_verdicts(test, 0.0, seed=1)
    at_h1, _ = simulate_verdicts(test, 2.0, seed=2)
    false_positive = (at_h0 == 1).mean()
    false_negative = (at_h1 == -1).mean()
    assert false_positive <= alpha + margin
    assert false_negative <= beta + margin
    # the test decides, and mostly right, well before the cap: it is not a test that never stops
    assert (at_h0 == -1).mean() > 0.9 and (at_h1 == 1).mean() > 0.9
    assert np.median(played_h0) < LOOK * LOOKS / 4


def test_looser_error_rates_give_more_false_positives() -> None:
    """The simulation can tell error rates apart: at alpha 0.3 the false positives pass 0.1."""
    verdict, _ = simulate_verdicts(Sprt(0.0, 2.0, alpha=0.3, beta=0.3), 0.0, seed=3)
    assert (verdict == 1).mean() > 0.1


def test_looks_in_batches_give_the_totals_of_the_whole_sequence() -> None:
    rng = np.random.default_rng(4)
    edges = 3 + 20 * rng.standard_t(3, size=1000)
    test = Sprt(0.0, 2.0)
    looks = Looks(test)
    for batch in np.array_split(edges, 7):
        looks.add(batch)
    assert looks.n == 1000 and looks.looks == 7
    expected = float(test.llr(1000, edges.mean(), edges.var()))
    assert looks.llr == pytest.approx(expected, rel=1e-9)


def test_the_verdict_and_the_bounds() -> None:
    test = Sprt(-1.0, 1.0, alpha=0.05, beta=0.1)
    assert test.upper == pytest.approx(math.log(0.9 / 0.05))
    assert test.lower == pytest.approx(math.log(0.1 / 0.95))
    assert test.verdict(test.upper) == FOR_A and test.verdict(test.lower) == FOR_B
    assert test.verdict(0.0) is None
    # no variance: the edge is known exactly
    assert float(test.llr(10, 0.5, 0.0)) == math.inf
    assert float(test.llr(10, -0.5, 0.0)) == -math.inf
    assert float(test.llr(10, 0.0, 0.0)) == 0.0
    assert Looks(test).add(np.zeros(5)) is None  # an edge of exactly 0, the middle: go on


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        ((2.0, 0.0), ValueError, "below that of H1"),
        ((0.0, math.inf), ValueError, "finite"),
        ((0.0, 2.0, 0.0), ValueError, "alpha is an error rate"),
        ((0.0, 2.0, 0.05, 0.5), ValueError, "beta is an error rate"),
        (("0", 2.0), TypeError, "edge0 must be a number"),
    ],
)
def test_bad_tests_are_explained(args, error, message) -> None:
    with pytest.raises(error, match=message):
        Sprt(*args)
    with pytest.raises(ValueError, match="at least one deal"):
        Looks(Sprt(0.0, 2.0)).add(np.zeros(0))
