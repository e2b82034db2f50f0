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

A threshold is where a fitted curve crosses its target going up for the last time within
the fitted range of `x` (success: the rate asked for; expected score: 0, the break-even
against passing). Its 95 % interval is from the **delta method**: with ``η`` the fitted
curve on the link scale, ``g`` the polynomial basis at the crossing ``x*`` and ``Σ`` the
covariance of the coefficients, ``se(x*) = sqrt(g' Σ g) / |η'(x*)|``.
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

FIT_COLUMNS = [
    "threshold", "threshold_low", "threshold_high", "break_even", "break_even_low",
    "break_even_high", "fitted_from", "fitted_to", "n_total", "cells", "degree", "note",
]  # fmt: skip
"""Columns of the fitted thresholds after the contract and the group columns."""

NOT_REACHED = "not reached over"
"""How a note says that a fitted curve stays below its target over the whole fitted range."""

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
    """

    coef: np.ndarray
    cov: np.ndarray
    centre: float
    spread: float
    x_low: float
    x_high: float

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


def fit_success(cells: Cells, degree: int) -> Curve | None:
    """Logistic curve of success against `x`; ``None`` when the fit does not converge.

    The cells must hold both made and failed contracts (else there is no curve to fit).
    """
    from statsmodels.genmod import families
    from statsmodels.genmod.generalized_linear_model import GLM
    from statsmodels.tools.sm_exceptions import ConvergenceWarning, PerfectSeparationWarning

    exog, centre, spread = _design(cells, degree)
    endog = np.column_stack([cells.made, cells.n - cells.made])
    with warnings.catch_warnings():
        warnings.simplefilter("error", PerfectSeparationWarning)
        warnings.simplefilter("error", ConvergenceWarning)
        try:
            result = GLM(endog, exog, family=families.Binomial()).fit()
        except (PerfectSeparationWarning, ConvergenceWarning):
            return None
    cov = np.asarray(result.cov_params()) * _lack_of_fit(result)
    return Curve(np.asarray(result.params), cov, centre, spread, float(cells.x.min()), float(cells.x.max()))


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
    cov = np.asarray(result.cov_params()) * _lack_of_fit(result)
    return Curve(np.asarray(result.params), cov, centre, spread, float(cells.x.min()), float(cells.x.max()))


def group_cells(sums: pd.DataFrame, contract: str | None, x: str) -> pd.DataFrame:
    """Deals, made, mean score and score variance of each (contract, keys, `x`) cell.

    `sums` is a :class:`~tarotsim.analysis.moments.CellSums` result whose last key is `x`;
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

    See :func:`tarotsim.analysis.thresholds` (``method="fit"``), which checks the input and
    documents the result. `table` is :func:`group_cells`; `same_play` maps a contract to a
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
                at, low, high, why = success.crossing(target, z)
                row.update(threshold=at, threshold_low=low, threshold_high=high)
                notes += _crossing_note(why, what, x, success, _rate_at, span)
            score = fit_score(cells, degree)
            at, low, high, why = score.crossing(0.0, z)
            row.update(break_even=at, break_even_low=low, break_even_high=high)
            notes += _crossing_note(why, "break-even", x, score, _score_at, span)
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
