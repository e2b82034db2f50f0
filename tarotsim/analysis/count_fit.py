"""Chavey's count refitted on a sweep, and the ``learned`` bidder fitted from the same data.

A sweep (``tarotsim sweep``, run kind ``"sweep"``) plays every deal once per contract with
the same seat taking. Its records keep hand features but not the cards, so the cards of
the taking seat are dealt again from the run's seed (``engine.kernels.redeal``: the same streams
as the run) and turned into the features Chavey's count scores (``engine.kernels.features``,
named in ``engine.labels.HAND_FEATURES``). Each re-dealt hand is checked against the records:
Chavey's count recomputed from its features must equal the recorded ``hand_points``.

**Bounded memory.** A fit reads a fixed, seeded sample of the run's deals
(``sample`` deals drawn without replacement by ``numpy.random.default_rng(sample_seed)``,
all of them when the run is smaller), streaming the run directory one chunk at a time
(``runs.store.iter_records``, each chunk checked by size and row count, not by its whole
SHA-256, which on a 10,000,000-deal sweep would take longer than the fit) and keeping only
the sampled rows: memory grows with the sample, not with the run (a million-deal sample
of a 10,000,000-deal sweep holds 4,000,000 rows of six columns, and the 10,000,000 deal
numbers while drawing).

Fits are statsmodels' (never a hand-written solver): ordinary least squares with
heteroskedasticity-robust (HC1) covariance for the taker's score, and a binomial GLM with a
logit link for success. [`fit_count`][tarotsim.analysis.count_fit.fit_count] reports the weights in Chavey's units, scaled so
that the 21 is worth 10: ``w_k = 10 b_k / b_21``, with 95 % intervals from the delta
method on the fitted covariance (the 21 itself is exactly 10 by construction).
[`fit_bidder`][tarotsim.analysis.count_fit.fit_bidder] keeps each contract's score regression in game points.
"""

from __future__ import annotations

import math
import os
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from tarotsim.analysis.loading import Data
from tarotsim.base.defaults import OUTCOMES, SAMPLE_DEALS, SAMPLE_SEED
from tarotsim.base.intervals import Z95
from tarotsim.base.seeding import run_key
from tarotsim.engine.kernels.features import FIRST_MAJOR, N_FEATURES, feature_rows
from tarotsim.engine.kernels.redeal import dealt_hands
from tarotsim.engine.kernels.state import DEALING_SHUFFLED
from tarotsim.engine.labels import (
    CHAVEY_WEIGHTS,
    CONTRACTS,
    DEALINGS,
    DISTRIBUTION_CONTRACTS,
    DISTRIBUTION_FEATURES,
    HAND_FEATURES,
    TABLE_SIZES,
    ThrownIn,
)
from tarotsim.players.bidder import INTERCEPT, Bidder
from tarotsim.runs import store

MIN_DEALS = 1_000
"""Fewest played deals a fit needs."""
ANCHOR = "trump_21"
"""The feature whose weight sets the scale of Chavey's units."""
ANCHOR_WEIGHT = 10
"""The 21's weight in Chavey's units."""
_COLUMNS = ["deal", "contract", "thrown_in", "taker_score", "made", "hand_points"]
_PLAYED = ThrownIn.NONE.label
SHUFFLED = next(name for name, code in DEALINGS.items() if code == DEALING_SHUFFLED)


class SweepSample(NamedTuple):
    """A sample of a sweep's deals: the taking seat's hand features and each contract's outcome.

    Attributes
    ----------
    features : pandas.DataFrame
        One row per sampled deal played (index ``deal``), one int column per hand feature
        (``engine.labels.HAND_FEATURES``).
    outcomes : pandas.DataFrame
        One row per sampled deal played and contract: ``deal``, ``contract`` (label),
        ``taker_score`` (game points), ``made`` (bool).
    identity : dict
        Where the sample comes from: ``run``, ``seed``, ``deals``, ``players``, ``seat``,
        ``sample``, ``sample_seed``.
    """

    features: pd.DataFrame
    outcomes: pd.DataFrame
    identity: dict[str, Any]


def _sweep_identity(run: Data) -> dict[str, Any]:
    """Seed, deals, table, seat and contracts of a sweep: a run directory or ``tarotsim.sweep()``'s frame."""
    if isinstance(run, pd.DataFrame):
        attrs = run.attrs
        if "contracts" not in attrs or "seed" not in attrs or "config" not in attrs:
            raise ValueError(
                "the records are not a sweep's (make them with tarotsim.sweep or tarotsim sweep)"
            )
        config = attrs["config"]
        deals = int(run["deal"].max()) + 1 if len(run) else 0
        return {"run": "records in memory", "kind": "sweep", "seed": attrs["seed"], "deals": deals,
                "config": config, "contracts": list(attrs["contracts"]), "seat": attrs["seat"]}  # fmt: skip
    if not isinstance(run, (str, os.PathLike)):
        raise TypeError(f"run must be a sweep's run directory or its records, got {type(run).__name__}")
    identity = dict(store.read_manifest(run)["run"])
    identity["run"] = os.fspath(run)
    if identity.get("kind") != "sweep":
        raise ValueError(
            f"{os.fspath(run)!r} holds a {identity.get('kind')} run, not a sweep (make one with tarotsim sweep)"
        )
    return identity


def _check_sample(sample: object, sample_seed: object) -> tuple[int, int]:
    for name, value in (("sample", sample), ("sample_seed", sample_seed)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"{name} must be a whole number, got {value!r}")
    if int(sample) < MIN_DEALS:  # type: ignore[call-overload]
        raise ValueError(f"sample must be at least {MIN_DEALS:,} deals, got {sample}")
    if int(sample_seed) < 0:  # type: ignore[call-overload]
        raise ValueError(f"sample_seed must be zero or more, got {sample_seed}")
    return int(sample), int(sample_seed)  # type: ignore[call-overload]


def _sampled_rows(run: Data, chosen: np.ndarray) -> pd.DataFrame:
    """The played rows of the deals ``chosen`` (sorted), read chunk by chunk."""
    frames = (
        [run[[c for c in _COLUMNS if c in run.columns]]]
        if isinstance(run, pd.DataFrame)
        else store.iter_records(run, _COLUMNS, verify="size")
    )
    kept = []
    for frame in frames:
        deal = frame["deal"].to_numpy()
        at = np.minimum(np.searchsorted(chosen, deal), len(chosen) - 1)
        keep = (chosen[at] == deal) & (frame["thrown_in"] == _PLAYED).to_numpy(dtype=bool)
        kept.append(frame.loc[keep])
    rows = pd.concat(kept, ignore_index=True)
    rows["contract"] = rows["contract"].to_numpy(dtype=object)
    return rows


def sweep_sample(run: Data, *, sample: int = SAMPLE_DEALS, sample_seed: int = SAMPLE_SEED) -> SweepSample:
    """A seeded sample of a sweep's deals: the taking seat's dealt-hand features and the outcomes.

    Parameters
    ----------
    run : str, os.PathLike or pandas.DataFrame
        A sweep's run directory (read chunk by chunk), or the records ``tarotsim.sweep()``
        returned.
    sample : int
        Deals to draw (without replacement; all of them when the sweep has fewer), at least
        `MIN_DEALS`.
    sample_seed : int
        Seed of the draw: the same seed draws the same deals.

    Raises
    ------
    ValueError
        If ``run`` is not a finished sweep, was dealt unshuffled, has too few played deals,
        or its deals do not deal again as recorded (another tarotsim's dealing).
    """
    sample, sample_seed = _check_sample(sample, sample_seed)
    identity = _sweep_identity(run)
    config = identity["config"]
    if DEALINGS[config.get("dealing", SHUFFLED)] != DEALING_SHUFFLED:
        raise ValueError("the sweep was dealt unshuffled; its hands cannot be dealt again without its play")
    deals = int(identity["deals"])
    if deals < MIN_DEALS:
        raise ValueError(f"the sweep has {deals:,} deals; a fit needs at least {MIN_DEALS:,}")
    if sample >= deals:
        chosen = np.arange(deals, dtype=np.int64)
    else:
        chosen = np.sort(np.random.default_rng(sample_seed).choice(deals, size=sample, replace=False))
    rows = _sampled_rows(run, chosen.astype(np.int64))
    played = np.unique(rows["deal"].to_numpy(dtype=np.int64))
    if len(played) < MIN_DEALS:
        raise ValueError(f"the sample holds {len(played):,} played deals; a fit needs at least {MIN_DEALS:,}")
    players = int(config["players"])
    hands = np.zeros((len(played), 2), dtype=np.uint64)
    dealt_hands(
        run_key(int(identity["seed"])), played, players, TABLE_SIZES[players][0], int(identity["seat"]), hands
    )
    values = np.zeros((len(played), N_FEATURES), dtype=np.int64)
    feature_rows(hands, values)
    features = pd.DataFrame(values, columns=list(HAND_FEATURES), index=pd.Index(played, name="deal"))
    _check_against_records(features, rows)
    outcomes = pd.DataFrame(
        {
            "deal": rows["deal"].to_numpy(dtype=np.int64),
            "contract": rows["contract"].to_numpy(dtype=object),
            "taker_score": rows["taker_score"].to_numpy(dtype=float),
            "made": rows["made"].to_numpy(dtype=bool),
        }
    )
    identity = {k: identity[k] for k in ("run", "seed", "deals", "seat")} | {
        "players": players, "sample": min(sample, deals), "sample_seed": sample_seed}  # fmt: skip
    return SweepSample(features, outcomes, identity)


def chavey_count(features: pd.DataFrame) -> np.ndarray:
    """Chavey's count (no distribution bonus) from hand features: his weights, plus 2 for the 21
    as a major trump (``engine.labels.CHAVEY_WEIGHTS``)."""
    plain = [f for f in HAND_FEATURES if f not in DISTRIBUTION_FEATURES]
    weights = np.array([CHAVEY_WEIGHTS[f] for f in plain])
    major = CHAVEY_WEIGHTS[f"trump_{FIRST_MAJOR}"]  # the 21 counts as a major trump too
    return features[plain].to_numpy() @ weights + major * features[ANCHOR].to_numpy()


def _check_against_records(features: pd.DataFrame, rows: pd.DataFrame) -> None:
    recorded = rows.drop_duplicates("deal").set_index("deal")["hand_points"].reindex(features.index)
    if not np.array_equal(chavey_count(features), recorded.to_numpy(dtype=np.int64)):
        raise ValueError(
            "the sweep's deals do not deal again as recorded (hand_points differ): it was made by a "
            "tarotsim that dealt differently"
        )


def _design(sample: SweepSample, contract: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    outcomes = sample.outcomes[sample.outcomes["contract"] == contract]
    if len(outcomes) < MIN_DEALS:
        raise ValueError(
            f"the sample holds {len(outcomes):,} played deals of {contract}; a fit needs at least {MIN_DEALS:,}"
        )
    features = sample.features.loc[outcomes["deal"].to_numpy()]
    return features.reset_index(drop=True), outcomes.reset_index(drop=True)


def _fit(features: pd.DataFrame, y: np.ndarray, outcome: str) -> tuple[pd.Series, pd.DataFrame]:
    """Coefficients and their covariance (statsmodels), features without variation left out."""
    import statsmodels.api as sm

    varying = [f for f in features.columns if features[f].nunique() > 1]
    x = sm.add_constant(features[varying].to_numpy(dtype=float), has_constant="add")
    names = [INTERCEPT, *varying]
    if outcome == "score":
        result = sm.OLS(y, x).fit(cov_type="HC1")
    else:
        result = sm.GLM(y.astype(float), x, family=sm.families.Binomial()).fit()
    params = pd.Series(np.asarray(result.params), index=names)
    cov = pd.DataFrame(np.asarray(result.cov_params()), index=names, columns=names)
    return params, cov


def _check_contract(contract: object) -> str:
    if contract not in CONTRACTS:
        raise ValueError(f"contract must be one of {', '.join(CONTRACTS)}, got {contract!r}")
    return str(contract)


def published_weight(feature: str, contract: str) -> float | None:
    """Chavey's published weight of ``feature`` for ``contract``; None where he gives none
    (the voids and singletons below Garde sans, which his count leaves out)."""
    if feature in DISTRIBUTION_FEATURES and contract not in DISTRIBUTION_CONTRACTS:
        return None
    return float(CHAVEY_WEIGHTS[feature])


def count_table(
    sample: SweepSample, *, contract: str = CONTRACTS[0], outcome: str = OUTCOMES[0]
) -> pd.DataFrame:
    """The refitted count of one contract from a `SweepSample` (see [`fit_count`][tarotsim.analysis.count_fit.fit_count])."""
    contract = _check_contract(contract)
    if outcome not in OUTCOMES:
        raise ValueError(f"outcome must be one of {', '.join(OUTCOMES)}, got {outcome!r}")
    features, outcomes = _design(sample, contract)
    y = outcomes["taker_score" if outcome == "score" else "made"].to_numpy(dtype=float)
    params, cov = _fit(features, y, outcome)
    if ANCHOR not in params.index or not params[ANCHOR] > 0:
        raise ValueError(
            f"the 21 does not raise the {contract}'s {outcome} in this sample, so Chavey's units "
            "(the 21 worth 10) are undefined; fit on more deals"
        )
    b21 = params[ANCHOR]
    rows = []
    for feature in HAND_FEATURES:
        weight = low = high = math.nan
        if feature in params.index:
            b = params[feature]
            weight = ANCHOR_WEIGHT * b / b21
            gradient = np.array([ANCHOR_WEIGHT / b21, -ANCHOR_WEIGHT * b / b21**2])
            pair = [feature, ANCHOR]
            se = math.sqrt(max(float(gradient @ cov.loc[pair, pair].to_numpy() @ gradient), 0.0))
            low, high = weight - Z95 * se, weight + Z95 * se
        rows.append((feature, weight, low, high, published_weight(feature, contract)))
    table = pd.DataFrame(rows, columns=["feature", "weight", "low", "high", "published"])
    for column in ("weight", "low", "high", "published"):
        table[column] = pd.array(table[column].to_numpy(dtype=float), dtype="Float64")
        table.loc[table[column].isna(), column] = pd.NA
    table.attrs.update(sample.identity | {"contract": contract, "outcome": outcome, "n": len(y)})
    return table


def fit_count(
    run: Data,
    *,
    contract: str = CONTRACTS[0],
    outcome: str = OUTCOMES[0],
    sample: int = SAMPLE_DEALS,
    sample_seed: int = SAMPLE_SEED,
) -> pd.DataFrame:
    """Chavey's count refitted on a sweep: the weight of each hand feature in Chavey's units.

    The outcome of ``contract`` on each sampled deal (the taker's score, by OLS with HC1
    covariance; or success, by a logit GLM) is regressed on the taking seat's dealt-hand
    features (``engine.labels.HAND_FEATURES``) and an intercept; the coefficients are scaled so
    the 21 is worth 10. Memory is bounded by the sample (module docstring).

    Parameters
    ----------
    run : str, os.PathLike or pandas.DataFrame
        A sweep's run directory, or ``tarotsim.sweep()``'s records.
    contract : str
        The contract whose outcome is fitted (``engine.labels.CONTRACTS``).
    outcome : {"score", "made"}
        Regress the taker's score (game points) or success.
    sample, sample_seed : int
        Deals drawn from the sweep, and the seed of the draw (`sweep_sample`).

    Returns
    -------
    pandas.DataFrame
        One row per feature: ``feature``, ``weight``, ``low``, ``high`` (Chavey units, the
        95 % delta-method interval) and ``published`` (Chavey's weight; null where he has
        none). ``weight`` is null for a feature that never varies in the sample. ``attrs``
        holds the run, its seed, the sample, the contract, the outcome and ``n`` (deals fitted).

    Raises
    ------
    ValueError
        For a run that is not a sweep, too few deals, or an unknown contract or outcome.
    """
    return count_table(
        sweep_sample(run, sample=sample, sample_seed=sample_seed), contract=contract, outcome=outcome
    )


def verdict(row: pd.Series) -> str:
    """A sentence on one weight of [`fit_count`][tarotsim.analysis.count_fit.fit_count]: what the sweep says of the published weight."""
    if pd.isna(row["published"]):
        return "Chavey gives no weight"
    if pd.isna(row["weight"]):
        return "never varies in the sample"
    if row["feature"] == ANCHOR:
        return "the unit (10 by construction)"
    published = float(row["published"])
    if row["low"] <= published <= row["high"]:
        return f"confirmed: {published:g} lies in the interval"
    side = "below" if published < row["low"] else "above"
    return f"contradicted: {published:g} lies {side} the interval"


def fit_bidder(
    run: Data | SweepSample, *, sample: int = SAMPLE_DEALS, sample_seed: int = SAMPLE_SEED
) -> Bidder:
    """The ``learned`` bidder fitted on a sweep: per contract, the taker's score (game points)
    regressed on the dealt-hand features by OLS (statsmodels).

    ``run`` is a sweep's run directory or records, or a `sweep_sample` already drawn
    (``sample`` and ``sample_seed`` are then its own). Every contract must be in the sweep.

    Raises
    ------
    ValueError
        As `sweep_sample`, or when the sweep lacks a contract.
    """
    drawn = run if isinstance(run, SweepSample) else sweep_sample(run, sample=sample, sample_seed=sample_seed)
    coefficients = {}
    for contract in CONTRACTS:
        features, outcomes = _design(drawn, contract)
        params, _ = _fit(features, outcomes["taker_score"].to_numpy(dtype=float), "score")
        coefficients[contract] = {name: float(params.get(name, 0.0)) for name in [INTERCEPT, *HAND_FEATURES]}
    source = dict(drawn.identity) | {"fit": "OLS of the taker's score per contract (statsmodels)"}
    return Bidder(int(drawn.identity["players"]), coefficients, source)
