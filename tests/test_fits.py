"""Honest fitted crossings: local fits where the whole-range polynomial does not fit, and the
coverage of their intervals on a known law."""

from __future__ import annotations

import numpy as np

from tarotsim.analysis.fits import (
    GOOD_FIT_P,
    LOCAL_FROM,
    Cells,
    KnownLaw,
    _neighbours,
    _window,
    coverage_study,
    fit_score,
    honest_crossing,
    local_crossing,
)

Z95 = 1.959963984540054


def test_intervals_cover_a_known_break_even_about_95_percent() -> None:
    """80 studies of a million deals each from a law no cubic follows over 0-71: the
    whole-range cubic misses its cells (the check fails), the local fits are used, and their
    95 % intervals hold the true break-even in a share whose Wilson interval holds 95 %."""
    study = coverage_study(80, seed=3, law=KnownLaw(width=4.0)).set_index("method")
    checked = study.loc["checked"]
    assert checked["local_share"] > 0.9
    assert checked["coverage_low"] <= 0.95 <= checked["coverage_high"]
    assert abs(checked["bias"]) < abs(study.loc["cubic", "bias"])


def _exact_cells(law: KnownLaw) -> Cells:
    x = np.arange(0.0, 72.0)
    n = np.full(len(x), 500.0)
    return Cells(x, n, np.zeros(len(x)), law.mean(x), np.full(len(x), law.score_sd**2))


def test_local_fit_finds_the_crossing_of_a_curve_a_cubic_misses() -> None:
    law = KnownLaw(width=4.0)
    cells = _exact_cells(law)
    cubic = fit_score(cells, 3)
    assert cubic.fit_p < GOOD_FIT_P
    truth = law.break_even()
    found = honest_crossing(cells, cubic, fit_score, 0.0, Z95, cells.mean_score)
    assert found.note.startswith("local quadratic on") and found.fits
    assert abs(found.x - truth) < 0.02
    assert found.low < truth < found.high
    assert abs(cubic.crossing(0.0, Z95)[0] - truth) > 5 * abs(found.x - truth)


def test_a_whole_range_fit_over_few_values_is_kept() -> None:
    x = np.arange(0.0, LOCAL_FROM - 1.0)
    n = np.full(len(x), 1000.0)
    noise = np.random.default_rng(0).standard_normal(len(x)) * 20.0 / np.sqrt(n)
    means = -30.0 + 5.0 * x + noise  # a line: the whole-range fit passes the test
    cells = Cells(x, n, np.zeros(len(x)), means, np.full(len(x), 400.0))
    curve = fit_score(cells, 3)
    found = honest_crossing(cells, curve, fit_score, 0.0, Z95, cells.mean_score)
    assert curve.fit_p >= GOOD_FIT_P and found.note == ""
    assert found.low < 6.0 < found.high
    local = local_crossing(cells, fit_score, 0.0, Z95, 6.0)
    assert local.fits and local.low < 6.0 < local.high


def test_the_window_choice_is_carried_into_the_interval() -> None:
    """A mean score that bends sharply at 42 (slope 1, then 8), from 200,000 deals a value: the
    quadratic on the chosen window puts the break-even elsewhere than those on the windows one
    value away, beyond its own interval; the interval given holds all of them."""
    x = np.arange(0.0, 72.0)
    n = np.full(len(x), 200_000.0)
    noise = np.random.default_rng(0).standard_normal(len(x)) * 45.0 / np.sqrt(n)
    means = np.where(x < 42.0, x - 40.0, 2.0 + 8.0 * (x - 42.0)) + noise
    cells = Cells(x, n, np.zeros(len(x)), means, np.full(len(x), 45.0**2))
    found = honest_crossing(cells, fit_score(cells, 3), fit_score, 0.0, Z95, cells.mean_score)
    assert "widened to hold the crossings of the windows one value away" in found.note
    size = int(found.note.split("(")[1].split(" values")[0])
    window = _window(cells, found.x, size)
    alone = fit_score(window, 2).crossing(0.0, Z95)
    assert alone[0] == found.x
    others = [fit_score(part, 2).crossing(0.0, Z95)[0] for part in _neighbours(cells, window)]
    assert len(others) >= 4 and all(found.low <= at <= found.high for at in others)
    assert min(others) < alone[1] or max(others) > alone[2]  # the window alone would not hold them
