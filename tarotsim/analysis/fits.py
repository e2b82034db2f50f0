"""Smooth thresholds: fitted curves of success and of expected score against one hand feature.

For each contract and group of hands (by default the taker's bouts), the records are summed
up by the value of one feature `x` (trump length, hand points): deals, contracts made, mean
taker score and its variance. Values of `x` with at least ``min_n`` deals are fitted with
statsmodels, as polynomials of `x` (standardised) of degree up to 3:

- **success**: a binomial GLM with a logit link on the made / failed counts, the same fit
  as a logistic regression on the deals themselves;
- **expected score**: a Gaussian GLM on the mean scores weighted by ``n / s²``, each mean's
  own sampling variance (weighted least squares with known variances).

When the fitted curve misses the cells by more than their sampling noise (Pearson χ² per
degree of freedom above 1), the covariance of the coefficients is multiplied by that ratio
(quasi-likelihood), so the intervals widen with the misfit.

That widening is not enough where a polynomial over the whole range cannot follow the
cells: its crossing is then biased, not just noisy (a cubic over hand points 0-71 misses the
1M-deal study's cells by about 43 times their noise and puts the Prise break-even outside
the interval that local fits agree on). So where `x` takes `LOCAL_FROM` values or more,
each crossing is fitted **locally** (`local_crossing`): on the values of `x` nearest
the crossing, the widest window on which a line passes the Pearson χ² goodness-of-fit test
(`GOOD_FIT_P`) is kept, and a quadratic fitted on it gives the crossing and its
interval (a degree above the line that chose the window, so that what the test cannot see
does not bias the crossing), its covariance again multiplied by its χ² per degree of
freedom when above 1, and the interval widened to hold the crossings of the windows one
value away (the window's choice carried into it). The note says which fit gave each threshold, and when a fit does not
fit its cells. `coverage_study` checks on a known law that the intervals cover the
true crossing about 95 % of the time (``benchmarks/bench_fit_coverage.py`` writes
``reports/fit-coverage.md``).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from numpy.polynomial import polynomial as P

from tarotsim.analysis.moments import cell_table

MAX_DEGREE = 3
"""Highest polynomial degree fitted; fewer values of `x` get a lower degree (cells − 2)."""

MIN_CELLS = 3
"""Fewest values of `x` with enough deals for a fit (a line and one degree of freedom)."""

GOOD_FIT_P = 0.05
"""A fit whose Pearson χ² goodness-of-fit p-value is below this does not fit its cells."""
MIN_LOCAL_CELLS = 5
"""Fewest values of `x` in a local fit's window."""
LOCAL_FROM = 10
"""Values of `x` from which crossings are fitted locally (`local_crossing`)."""

FIT_COLUMNS = [
    "threshold", "threshold_low", "threshold_high", "break_even", "break_even_low",
    "break_even_high", "fitted_from", "fitted_to", "n_total", "cells", "degree", "note",
]  # fmt: skip
"""Columns of the fitted thresholds after the contract and the group columns."""

NOT_REACHED = "not reached over"
"""How a note says that a fitted curve stays below its target over the whole fitted range."""

WINDOW_WIDENED = "interval widened to hold the crossings of the windows one value away"
"""How a note says that a local fit's interval was widened by the choice of its window."""

PASSED_ALREADY = "passed already at"
"""How a note says that a fitted curve is above its target over the whole fitted range."""


class Curve(NamedTuple):
    """A fitted polynomial curve ``η(u) = Σ coef[d] · u^d`` of ``u = (x − centre) / spread``.

    Attributes
    ----------
    coef : numpy.ndarray
        float[degree + 1], on the link scale (logit of success, or game points).
    cov : numpy.ndarray
        float[degree + 1, degree + 1]: covariance of `coef`, inflated by the lack of fit.
    centre, spread : float
        Standardisation of `x` (units of `x`).
    x_low, x_high : float
        The fitted range of `x`: its smallest and largest values with enough deals.
    chi2_dof, fit_p : float
        Pearson χ² per residual degree of freedom, and the goodness-of-fit p-value (1 when
        no degree of freedom is left).
    """

    coef: np.ndarray
    cov: np.ndarray
    centre: float
    spread: float
    x_low: float
    x_high: float
    chi2_dof: float = 1.0
    fit_p: float = 1.0

    def value(self, x: float) -> float:
        """The fitted curve at `x`, on the link scale."""
        return float(P.polyval((x - self.centre) / self.spread, self.coef))

    def crossing(self, target: float, z: float) -> tuple[float, float, float, str]:
        """Where the curve last crosses `target` going up within the fitted range.

        Returns
        -------
        (x, low, high, why) : tuple
            The crossing and its delta-method interval (units of `x`), or NaN with `why`
            saying ``'below'`` (the curve ends below target), ``'above'`` (above target
            over the whole range); ``why`` is ``'several'`` when the curve crosses the
            target more than once (the last upward crossing is given), else ``''``.
        """
        u_low = (self.x_low - self.centre) / self.spread
        u_high = (self.x_high - self.centre) / self.spread
        if P.polyval(u_high, self.coef) < target:
            return math.nan, math.nan, math.nan, "below"
        shifted = self.coef.copy()
        shifted[0] -= target
        roots = P.polyroots(shifted)
        real = np.sort(roots[np.abs(roots.imag) < 1e-9].real)
        inside = real[(real >= u_low) & (real <= u_high)]
        if not len(inside):
            return math.nan, math.nan, math.nan, "above"
        u = float(inside[-1])
        basis = u ** np.arange(len(self.coef))
        slope = float(P.polyval(u, P.polyder(self.coef)))
        se_u = math.sqrt(max(float(basis @ self.cov @ basis), 0.0)) / abs(slope) if slope else math.inf
        x = self.centre + self.spread * u
        half = z * self.spread * se_u
        return x, x - half, x + half, "several" if len(inside) > 1 else ""


class Cells(NamedTuple):
    """Values of `x` of one group with enough deals, and what they hold (all float[k])."""

    x: np.ndarray
    n: np.ndarray
    made: np.ndarray
    mean_score: np.ndarray
    score_var: np.ndarray


def _design(cells: Cells, degree: int) -> tuple[np.ndarray, float, float]:
    centre = float(np.average(cells.x, weights=cells.n))
    spread = float(cells.x.max() - cells.x.min()) / 2.0 or 1.0
    return P.polyvander((cells.x - centre) / spread, degree), centre, spread


def _lack_of_fit(result: Any) -> float:
    """Pearson χ² per residual degree of freedom of a statsmodels GLM result, at least 1."""
    df = float(result.df_resid)
    return max(1.0, float(result.pearson_chi2) / df) if df > 0 else 1.0


def _goodness(result: Any) -> tuple[float, float]:
    """(Pearson χ² per residual degree of freedom, its goodness-of-fit p-value) of a GLM result."""
    from scipy import stats

    df = float(result.df_resid)
    if df <= 0:
        return 1.0, 1.0
    chi2 = float(result.pearson_chi2)
    return chi2 / df, float(stats.chi2.sf(chi2, df))


def _curve(result: Any, centre: float, spread: float, cells: Cells) -> Curve:
    chi2_dof, fit_p = _goodness(result)
    cov = np.asarray(result.cov_params()) * _lack_of_fit(result)
    return Curve(
        np.asarray(result.params),
        cov,
        centre,
        spread,
        float(cells.x.min()),
        float(cells.x.max()),
        chi2_dof,
        fit_p,
    )


def fit_success(cells: Cells, degree: int) -> Curve | None:
    """Logistic curve of success against `x`; ``None`` when the fit does not converge.

    The cells must hold both made and failed contracts (else there is no curve to fit).
    """
    from statsmodels.genmod import families
    from statsmodels.genmod.generalized_linear_model import GLM
    from statsmodels.tools.sm_exceptions import ConvergenceWarning, PerfectSeparationWarning

    exog, centre, spread = _design(cells, degree)
    endog = np.column_stack([cells.made, cells.n - cells.made])
    # the logit's exp overflows on the way to a separated fit, which is refused just below
    with warnings.catch_warnings(), np.errstate(over="ignore"):
        warnings.simplefilter("error", PerfectSeparationWarning)
        warnings.simplefilter("error", ConvergenceWarning)
        try:
            result = GLM(endog, exog, family=families.Binomial()).fit()
        except (PerfectSeparationWarning, ConvergenceWarning):
            return None
    return _curve(result, centre, spread, cells)


def fit_score(cells: Cells, degree: int) -> Curve:
    """Weighted least-squares curve of the mean taker score against `x`.

    A value of `x` whose deals all scored the same (variance 0) is weighted with the pooled
    variance of the others (1 point² if every variance is 0).
    """
    from statsmodels.genmod import families
    from statsmodels.genmod.generalized_linear_model import GLM

    exog, centre, spread = _design(cells, degree)
    variance = np.nan_to_num(cells.score_var, nan=0.0)
    positive = variance > 0
    pooled = float(np.average(variance[positive], weights=cells.n[positive] - 1)) if positive.any() else 1.0
    variance = np.where(positive, variance, pooled)
    model = GLM(cells.mean_score, exog, family=families.Gaussian(), var_weights=cells.n / variance)
    result = model.fit(scale=1.0)
    return _curve(result, centre, spread, cells)


def _window(cells: Cells, x0: float, k: int) -> Cells:
    """The `k` values of `x` nearest `x0` (ties to the lower), in order of `x`."""
    nearest = np.sort(np.argsort(np.abs(cells.x - x0) + 1e-9 * cells.x, kind="stable")[:k])
    return Cells(*(column[nearest] for column in cells))


def _neighbours(cells: Cells, window: Cells) -> list[Cells]:
    """The windows one value of `x` away from `window` (consecutive values of `cells`): moved by one
    value down or up, one value longer at either end, and one value shorter at either end (never
    under `MIN_LOCAL_CELLS` values)."""
    order = np.argsort(cells.x, kind="stable")
    first = int(np.searchsorted(cells.x[order], window.x.min()))
    k = len(window.x)
    spans = [(first - 1, k), (first + 1, k), (first - 1, k + 1), (first, k + 1)]
    if k > MIN_LOCAL_CELLS:
        spans += [(first + 1, k - 1), (first, k - 1)]
    return [
        Cells(*(column[order[start : start + size]] for column in cells))
        for start, size in spans
        if start >= 0 and start + size <= len(order)
    ]


class Crossing(NamedTuple):
    """A fitted crossing: `x` and its interval (NaN when none), ``why`` as
    `Curve.crossing` says it, the ``note`` on how it was fitted, and whether a local
    fit found a window where a line fits (``fits``)."""

    x: float
    low: float
    high: float
    why: str = ""
    note: str = ""
    fits: bool = False


_NO_CROSSING = Crossing(math.nan, math.nan, math.nan)
LOCAL_SHAPES = ("line", "quadratic")


def local_crossing(
    cells: Cells, fit: Callable[[Cells, int], Curve | None], target: float, z: float, start: float
) -> Crossing:
    """The crossing of `target` by a local fit on the values of `x` nearest `start`.

    The window: the widest of `MIN_LOCAL_CELLS` values or more round `start` on which
    a line (on the link scale) passes the goodness-of-fit test (`GOOD_FIT_P`), else
    the narrowest (``fits`` False). The crossing and its interval: a quadratic, one degree
    above the line that chose the window, fitted on it, so that what the test cannot see
    does not bias the crossing (the "robust bias-corrected" local polynomial), its
    covariance multiplied by its χ² per degree of freedom when above 1. The window's choice
    is carried into the interval: it is widened, where needed, to hold the crossings fitted
    the same way on the windows one value away (`_neighbours`: moved, longer or
    shorter by one value), so that a crossing the window alone moves lies inside it. NaN
    when it does not cross `target` inside the window.
    """
    sizes = sorted(
        {*range(MIN_LOCAL_CELLS, 2 * MIN_LOCAL_CELLS), *(int(MIN_LOCAL_CELLS * 1.25**i) for i in range(20))}
    )
    chosen = MIN_LOCAL_CELLS
    fitted = False
    degree = 1
    for k in (size for size in sizes if size <= len(cells.x)):
        line = fit(_window(cells, start, k), degree)
        if line is not None and line.fit_p >= GOOD_FIT_P:
            chosen, fitted = k, True
        elif fitted:
            break
    window = _window(cells, start, chosen)
    curve = fit(window, degree + 1)
    if curve is None:
        return _NO_CROSSING
    at, low, high, why = curve.crossing(target, z)
    if math.isnan(at):
        return _NO_CROSSING
    widened = f", interval widened by χ²/dof {curve.chi2_dof:.2g}" if curve.chi2_dof > 1 else ""
    others = [
        other.crossing(target, z)[0]
        for other in (fit(part, degree + 1) for part in _neighbours(cells, window))
        if other is not None
    ]
    others = [x for x in others if not math.isnan(x)]
    if others and (min(others) < low or max(others) > high):
        low, high = min(low, *others), max(high, *others)
        widened += f", {WINDOW_WIDENED} ({_fmt(min(others))}–{_fmt(max(others))})"
    shape = LOCAL_SHAPES[degree - 1]
    chosen_by = f"where a {shape} fits" if fitted else f"the narrowest: no {shape} fits"
    note = (
        f"local {LOCAL_SHAPES[degree]} on {_fmt(window.x.min())}–{_fmt(window.x.max())} "
        f"({chosen} values, {chosen_by}{widened})"
    )
    return Crossing(at, low, high, why, note, fitted)


def _observed_crossing(x: np.ndarray, values: np.ndarray, target: float) -> float:
    """Midway between the two values of `x` where `values` last step up across `target`, NaN if never."""
    above = values >= target
    ups = np.flatnonzero(~above[:-1] & above[1:])
    return math.nan if not len(ups) else float(x[ups[-1]] + x[ups[-1] + 1]) / 2.0


def honest_crossing(
    cells: Cells,
    curve: Curve,
    fit: Callable[[Cells, int], Curve | None],
    target: float,
    z: float,
    observed: np.ndarray,
) -> Crossing:
    """The crossing of `target`, fitted locally where the cells allow it.

    Where `x` has `LOCAL_FROM` values or more, a local fit (`local_crossing`,
    centred where the cells' `observed` values (on the link scale) last step up across
    `target`, or else on the whole-range crossing, then once more on its own) gives the
    crossing; elsewhere, or when no local fit crosses, the whole-range `curve` does. The
    note says which fit was used and when a fit does not fit its cells (its interval is then
    widened by its χ² per degree of freedom).
    """
    at, low, high, why = curve.crossing(target, z)
    misfit = (
        f"the whole-range fit does not fit its cells (χ²/dof {curve.chi2_dof:.2g}): interval widened by it"
        if curve.fit_p < GOOD_FIT_P
        else ""
    )
    whole = Crossing(at, low, high, why, misfit)
    if math.isnan(at) or len(cells.x) < LOCAL_FROM:
        return whole
    start = _observed_crossing(cells.x, observed, target)
    local = local_crossing(cells, fit, target, z, at if math.isnan(start) else start)
    if not math.isnan(local.x):
        local = local_crossing(cells, fit, target, z, local.x)
    return whole if math.isnan(local.x) else local


def group_cells(sums: pd.DataFrame, contract: str | None, x: str) -> pd.DataFrame:
    """Deals, made, mean score and score variance of each (contract, keys, `x`) cell.

    `sums` is a `CellSums` result whose last key is `x`;
    `x` is made a float, and the cells are sorted by their keys then `x`. Only `contract`'s
    cells when it is given.
    """
    table = cell_table(sums, contract)
    table[x] = table[x].astype(float)
    keys = [c for c in table.columns if c not in ("n", "made", "mean_score", "score_var", "mean_margin")]
    table = table.sort_values(keys, kind="mergesort").reset_index(drop=True)
    return table[[*keys, "n", "made", "mean_score", "score_var"]]


def _fmt(value: float) -> str:
    return f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"


def fitted_thresholds(
    table: pd.DataFrame,
    *,
    x: str,
    by: Sequence[str],
    min_rate: float,
    min_n: int,
    z: float,
    same_play: dict[str, str],
    n_played: int,
) -> pd.DataFrame:
    """Fitted success and break-even thresholds in `x`, per contract and `by` group.

    See [`tarotsim.analysis.thresholds`][tarotsim.analysis.thresholds] (``method="fit"``), which checks the input and
    documents the result. `table` is `group_cells`; `same_play` maps a contract to a
    lower one played identically; `n_played` is the played records, named when nothing
    can be fitted.
    """
    keys = ["contract", *by]
    target = math.log(min_rate / (1.0 - min_rate))
    what = f"success {min_rate:.0%}"
    rows = []
    fitted = 0
    for group, part in table.groupby(keys, sort=True, observed=True):
        counted = part[part["n"] >= min_n]
        row: dict[str, object] = dict(zip(keys, group, strict=True))
        row.update({c: math.nan for c in FIT_COLUMNS[:8]})
        row.update(n_total=int(part["n"].sum()), cells=len(counted), degree=0)
        notes = []
        if len(counted) < MIN_CELLS:
            notes.append(
                f"not fitted: {len(counted)} value(s) of {x} hold at least {min_n} deals, "
                f"a fit needs {MIN_CELLS}"
            )
        else:
            fitted += 1
            cells = Cells(
                *(counted[c].to_numpy(dtype=float) for c in (x, "n", "made", "mean_score", "score_var"))
            )
            degree = min(MAX_DEGREE, len(counted) - 2)
            row.update(degree=degree, fitted_from=cells.x.min(), fitted_to=cells.x.max())
            span = f"{_fmt(cells.x.min())}–{_fmt(cells.x.max())}"
            success = None
            if not cells.made.any():
                notes.append(f"{what} {NOT_REACHED} {x} {span}: never made")
            elif np.all(cells.made == cells.n):
                notes.append(
                    f"{what} {PASSED_ALREADY} {x} {_fmt(cells.x.min())}, the lowest fitted: always made"
                )
            else:
                success = fit_success(cells, degree)
                if success is None:
                    notes.append(
                        f"{what}: the logistic fit does not converge (success jumps from 0% to 100%)"
                    )
            if success is not None:
                rates = np.clip(cells.made / cells.n, 1e-9, 1.0 - 1e-9)
                observed = np.log(rates / (1.0 - rates))
                found = honest_crossing(cells, success, fit_success, target, z, observed)
                row.update(threshold=found.x, threshold_low=found.low, threshold_high=found.high)
                notes += _crossing_note(found.why, what, x, success, _rate_at, span)
                notes += [f"{what}: {found.note}"] if found.note else []
            score = fit_score(cells, degree)
            found = honest_crossing(cells, score, fit_score, 0.0, z, cells.mean_score)
            row.update(break_even=found.x, break_even_low=found.low, break_even_high=found.high)
            notes += _crossing_note(found.why, "break-even", x, score, _score_at, span)
            notes += [f"break-even: {found.note}"] if found.note else []
        lower = same_play.get(str(group[0]))
        if lower is not None:
            notes.append(f"same play as {lower}: same success, by construction")
        row["note"] = "; ".join(notes)
        rows.append(row)
    if fitted == 0:
        raise ValueError(
            f"too few deals to fit thresholds: no contract and {', '.join(by) or 'contract'} group has "
            f"{MIN_CELLS} values of {x} with at least {min_n} deals ({n_played:,} played records); "
            "play more deals, lower min_n or use method='first'"
        )
    return pd.DataFrame(rows, columns=[*keys, *FIT_COLUMNS])


def _rate_at(curve: Curve, x: float) -> str:
    return f"{1.0 / (1.0 + math.exp(-curve.value(x))):.0%}"


def _score_at(curve: Curve, x: float) -> str:
    return f"{curve.value(x):+.0f} points"


def _crossing_note(
    why: str, what: str, x: str, curve: Curve, at: Callable[[Curve, float], str], span: str
) -> list[str]:
    """The note for a crossing that was not found, or found several times (else none)."""
    if why == "below":
        return [f"{what} {NOT_REACHED} {x} {span}: fitted {at(curve, curve.x_high)} at {_fmt(curve.x_high)}"]
    if why == "above":
        return [f"{what} {PASSED_ALREADY} {x} {_fmt(curve.x_low)}, the lowest fitted"]
    if why == "several":
        return [f"the fitted {what} curve crosses several times; the last upward crossing is given"]
    return []


class KnownLaw(NamedTuple):
    """A known law of hand-point cells for `coverage_study`: deals per value of `x`
    (a binomial law of `x` over 0 … `top`), and a mean taker score whose break-even is known."""

    deals: int = 1_000_000
    top: int = 71
    x_mean: float = 36.0
    score_sd: float = 45.0
    low: float = -70.0
    rise: float = 90.0
    centre: float = 40.0
    width: float = 8.0

    def mean(self, x: np.ndarray) -> np.ndarray:
        """Mean taker score at `x`: a softplus, flat below the centre and rising above."""
        return self.low + self.rise * np.logaddexp(
            0.0, (np.asarray(x, dtype=float) - self.centre) / self.width
        )

    def break_even(self) -> float:
        """Where the mean score crosses 0 (``scipy.optimize.brentq``)."""
        from scipy.optimize import brentq

        return float(brentq(lambda x: float(self.mean(np.array([x]))[0]), 0.0, float(self.top)))

    def cells(self, rng: np.random.Generator) -> Cells:
        """One study's cells: deal counts, mean scores and score variances drawn from the law."""
        from scipy import stats

        x = np.arange(self.top + 1, dtype=float)
        share = stats.binom(self.top, self.x_mean / self.top).pmf(x)
        n = rng.multinomial(self.deals, share / share.sum()).astype(float)
        keep = n >= 30
        x, n = x[keep], n[keep]
        means = self.mean(x) + rng.standard_normal(len(x)) * self.score_sd / np.sqrt(n)
        variances = self.score_sd**2 * rng.chisquare(n - 1) / (n - 1)
        return Cells(x, n, np.zeros(len(x)), means, variances)


def coverage_study(
    replications: int, *, seed: int = 0, law: KnownLaw | None = None, z: float = 1.959963984540054
) -> pd.DataFrame:
    """How often the break-even intervals cover the true break-even of a known law.

    Each replication draws the cells of one study from `law` (default `KnownLaw`:
    a million deals, a smooth score curve that no cubic follows over 0-71) and computes the
    break-even twice: with the whole-range cubic alone (the fit before the goodness-of-fit
    check and the local fits) and as `fitted_thresholds` does (`honest_crossing`).

    Returns
    -------
    pandas.DataFrame
        One row per method (``cubic``: the whole-range cubic alone; ``checked``: as
        `fitted_thresholds` does it): ``coverage`` (share of replications
        whose interval holds the true break-even), ``coverage_low``, ``coverage_high``
        (its Wilson interval), ``bias`` and ``mean_width`` (units of `x`), ``local_share``
        (share of replications where a local fit gave the threshold), ``window_share`` (share
        where the crossings of the windows one value away widened its interval) and ``truth``.
    """
    from tarotsim.base.intervals import wilson_interval

    law = law or KnownLaw()
    truth = law.break_even()
    rng = np.random.default_rng(seed)
    hits = {"cubic": 0, "checked": 0}
    errors: dict[str, list[float]] = {"cubic": [], "checked": []}
    widths: dict[str, list[float]] = {"cubic": [], "checked": []}
    local = widened = 0
    for _ in range(replications):
        cells = law.cells(rng)
        cubic = fit_score(cells, MAX_DEGREE)
        at, low, high, _why = cubic.crossing(0.0, z)
        honest = honest_crossing(cells, cubic, fit_score, 0.0, z, cells.mean_score)
        local += honest.note.startswith("local")
        widened += WINDOW_WIDENED in honest.note
        for name, (x, lo, hi) in (("cubic", (at, low, high)), ("checked", tuple(honest[:3]))):
            hits[name] += bool(lo <= truth <= hi)
            errors[name].append(x - truth)
            widths[name].append(hi - lo)
    rows = []
    for name in ("cubic", "checked"):
        cover_low, cover_high = wilson_interval(hits[name], replications)
        rows.append(
            {
                "method": name,
                "replications": replications,
                "coverage": hits[name] / replications,
                "coverage_low": float(cover_low),
                "coverage_high": float(cover_high),
                "bias": float(np.nanmean(errors[name])),
                "mean_width": float(np.nanmean(widths[name])),
                "local_share": local / replications if name == "checked" else 0.0,
                "window_share": widened / replications if name == "checked" else 0.0,
                "truth": truth,
            }
        )
    return pd.DataFrame(rows)
