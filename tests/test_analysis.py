"""Tests of tarotsim.analysis on small hand-built records with known answers."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tarotsim import analysis
from tarotsim.engine import labels
from tarotsim.players.config import RunConfig
from tarotsim.runs import store
from tarotsim.runs.spec import RunSpec

CONTRACT_DTYPE = pd.CategoricalDtype(["prise", "garde", "garde_sans", "garde_contre"])


def cell(
    contract: str | None,
    n: int,
    made: int,
    *,
    bouts: int = 1,
    trumps: int = 8,
    score_made: int = 90,
    score_failed: int = -60,
    margin: int = 5,
    hand_points: int = 50,
    deal0: int = 0,
    thrown_in: str = "none",
) -> pd.DataFrame:
    """`n` records of one cell, the first `made` of them made, deals numbered from `deal0`."""
    ok = np.arange(n) < made
    return pd.DataFrame(
        {
            "deal": np.arange(deal0, deal0 + n, dtype=np.int64),
            "contract": [contract] * n,
            "thrown_in": [thrown_in] * n,
            "taker_trumps": np.full(n, trumps, dtype=np.int64),
            "taker_bouts": np.full(n, bouts, dtype=np.int64),
            "taker_kings": np.ones(n, dtype=np.int64),
            "hand_points": np.full(n, hand_points, dtype=np.int64),
            "attack_points": np.full(n, 45.0),
            "attack_bouts": np.full(n, bouts, dtype=np.int64),
            "made": ok,
            "margin": np.full(n, margin, dtype=np.int64),
            "taker_score": np.where(ok, score_made, score_failed).astype(np.int64),
        }
    )


def records(*parts: pd.DataFrame, categorical: bool = True) -> pd.DataFrame:
    """Concatenate cells, renumbering deals 0..n-1 unless they were set by hand."""
    df = pd.concat(parts, ignore_index=True)
    if categorical:
        df["contract"] = df["contract"].astype(CONTRACT_DTYPE)
        df["thrown_in"] = df["thrown_in"].astype("category")
    return df


def renumber(*parts: pd.DataFrame) -> list[pd.DataFrame]:
    out, start = [], 0
    for p in parts:
        p = p.copy()
        p["deal"] = np.arange(start, start + len(p), dtype=np.int64)
        start += len(p)
        out.append(p)
    return out


def wilson_by_hand(k: float, n: float, z: float = 1.959963984540054) -> tuple[float, float]:
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


# --------------------------------------------------------------------------- wilson


def test_wilson_8_of_10_matches_the_formula_by_hand() -> None:
    low, high = analysis.wilson_interval(8, 10)
    assert isinstance(low, float) and isinstance(high, float)
    assert low == pytest.approx(0.4902, abs=1e-4)
    assert high == pytest.approx(0.9433, abs=1e-4)
    # p = 0.8, z^2/n = 0.384146; centre = 0.992073 / 1.384146 = 0.716740,
    # half = 1.959964 / 1.384146 * sqrt(0.016 + 0.009604) = 1.416010 * 0.160011 = 0.226578
    assert (low, high) == pytest.approx((0.716740 - 0.226578, 0.716740 + 0.226578), abs=1e-5)


def test_wilson_is_vectorised_with_nan_for_no_trials() -> None:
    k = np.array([0, 8, 10, 0, 37])
    n = np.array([10, 10, 10, 0, 120])
    low, high = analysis.wilson_interval(k, n)
    assert low.shape == high.shape == (5,)
    assert low[0] == 0.0 and high[2] == 1.0
    assert math.isnan(low[3]) and math.isnan(high[3])
    for i in (0, 1, 2, 4):
        assert (low[i], high[i]) == pytest.approx(wilson_by_hand(k[i], n[i]), abs=1e-12)
    # a wider z gives a wider interval
    low99, high99 = analysis.wilson_interval(8, 10, z=2.5758293035489)
    assert low99 < low[1] and high99 > high[1]


@pytest.mark.parametrize(("k", "n", "z"), [(11, 10, 1.96), (-1, 10, 1.96), (0, -1, 1.96), (5, 10, 0.0)])
def test_wilson_rejects_bad_input(k: int, n: int, z: float) -> None:
    with pytest.raises(ValueError):
        analysis.wilson_interval(k, n, z)


# --------------------------------------------------------------------------- success table


def test_success_table_counts_rates_scores_and_signed_margin() -> None:
    df = records(
        *renumber(
            cell("garde", 4, 3, bouts=2, trumps=9, score_made=100, score_failed=-50, margin=6),
            cell("garde", 2, 0, bouts=1, trumps=7, score_failed=-80, margin=4),
            cell("prise", 3, 3, bouts=2, trumps=9, score_made=40, margin=2),
            cell(None, 5, 0, thrown_in="all_pass"),
            cell(None, 1, 0, thrown_in="petit_sec"),
        )
    )
    table = analysis.success_table(df)
    assert list(table.columns) == [
        "contract", "taker_bouts", "taker_trumps", "n", "made", "rate", "rate_low",
        "rate_high", "mean_score", "score_se", "mean_margin",
    ]  # fmt: skip
    # contracts low to high, then by bouts
    assert list(zip(table["contract"], table["taker_bouts"], strict=True)) == [
        ("prise", 2), ("garde", 1), ("garde", 2)
    ]  # fmt: skip
    g2 = table.iloc[2]
    assert (g2["n"], g2["made"], g2["rate"]) == (4, 3, 0.75)
    assert (g2["rate_low"], g2["rate_high"]) == pytest.approx(wilson_by_hand(3, 4))
    assert g2["mean_score"] == pytest.approx((3 * 100 - 50) / 4)
    assert g2["score_se"] == pytest.approx(np.std([100, 100, 100, -50], ddof=1) / 2)
    # signed margin: +6 three times, -6 once
    assert g2["mean_margin"] == pytest.approx((6 + 6 + 6 - 6) / 4)
    g1 = table.iloc[1]
    assert (g1["n"], g1["made"], g1["rate"], g1["mean_margin"]) == (2, 0, 0.0, -4.0)
    assert g1["score_se"] == 0.0
    prise = table.iloc[0]
    assert prise["rate"] == 1.0 and prise["rate_high"] == 1.0
    # thrown-in rows are left out and counted apart
    assert table["n"].sum() == 9
    assert table.attrs["thrown_in"] == 6
    assert table.attrs["thrown_in_by_reason"] == {"all_pass": 5, "petit_sec": 1}


def test_success_table_filters_one_contract_and_groups_by_any_columns() -> None:
    df = records(
        *renumber(
            cell("garde", 4, 3, bouts=2, trumps=9),
            cell("garde", 2, 0, bouts=1, trumps=7),
            cell("prise", 3, 3, bouts=2, trumps=9),
        ),
        categorical=False,
    )
    table = analysis.success_table(df, "taker_bouts", contract="garde")
    assert list(table["contract"]) == ["garde", "garde"]
    assert list(table["taker_bouts"]) == [1, 2]
    assert list(table["n"]) == [2, 4]
    one = analysis.success_table(df, by=())
    assert list(one["contract"]) == ["prise", "garde"]
    assert list(one["n"]) == [3, 6]
    assert math.isnan(analysis.success_table(cell("prise", 1, 1))["score_se"].iloc[0])


def test_success_table_reports_missing_columns_and_bad_values() -> None:
    df = cell("prise", 3, 1).drop(columns=["margin", "taker_score"])
    with pytest.raises(ValueError, match="'margin', 'taker_score'"):
        analysis.success_table(df)
    with pytest.raises(ValueError, match="contract must be one of"):
        analysis.success_table(cell("prise", 3, 1), contract="petite")
    with pytest.raises(ValueError, match="unknown contract value"):
        analysis.success_table(cell("chelem", 3, 1))
    with pytest.raises(TypeError, match="run directory"):
        analysis.success_table(42)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- thresholds


def threshold_records() -> pd.DataFrame:
    return records(
        *renumber(
            # one bout: 5 trumps 30 %, 6 trumps 80 % but only 10 deals, 7 trumps 60 %
            cell("prise", 40, 12, bouts=1, trumps=5),
            cell("prise", 10, 8, bouts=1, trumps=6),
            cell("prise", 40, 24, bouts=1, trumps=7),
            cell("prise", 40, 30, bouts=1, trumps=8),
            # two bouts: 4 trumps already 90 % of 100
            cell("prise", 100, 90, bouts=2, trumps=4),
            # no bout: enough deals only where the rate is low; 100 % on 5 deals
            cell("prise", 40, 8, bouts=0, trumps=8),
            cell("prise", 5, 5, bouts=0, trumps=9),
            # three bouts: plenty of deals, never 50 %
            cell("prise", 40, 4, bouts=3, trumps=3),
            cell("prise", 40, 19, bouts=3, trumps=4),
            # garde, one bout: only small cells that never reach it
            cell("garde", 10, 1, bouts=1, trumps=6),
        )
    )


def test_thresholds_pick_the_smallest_big_enough_cell() -> None:
    t = analysis.thresholds(threshold_records(), method="first")
    assert list(t.columns) == [
        "contract", "taker_bouts", "threshold", "n", "made", "rate", "rate_low",
        "rate_high", "confident", "n_total", "note",
    ]  # fmt: skip
    t = t.set_index(["contract", "taker_bouts"])
    one = t.loc[("prise", 1)]
    assert one["threshold"] == 7.0  # 6 trumps reaches 80 % but has n = 10 < 30
    assert (one["n"], one["made"], one["rate"]) == (40, 24, 0.6)
    assert (one["rate_low"], one["rate_high"]) == pytest.approx(wilson_by_hand(24, 40))
    assert one["rate_low"] < 0.5 and not one["confident"]
    assert one["n_total"] == 130 and one["note"] == ""
    two = t.loc[("prise", 2)]
    assert two["threshold"] == 4.0 and two["confident"]
    assert two["rate_low"] == pytest.approx(wilson_by_hand(90, 100)[0])


def test_thresholds_notes_say_why_nothing_was_found() -> None:
    t = analysis.thresholds(threshold_records(), method="first").set_index(["contract", "taker_bouts"])
    zero = t.loc[("prise", 0)]
    assert math.isnan(zero["threshold"]) and math.isnan(zero["rate"])
    # 45 deals in all: reached, but only in the 5-deal cell; not "too few deals"
    assert zero["n_total"] == 45 and zero["note"] == "reached only in cells of fewer than 30 deals"
    assert not zero["confident"] and zero["n"] == 0
    three = t.loc[("prise", 3)]
    assert math.isnan(three["threshold"]) and three["note"] == "not reached"
    garde = t.loc[("garde", 1)]
    assert garde["n_total"] == 10 and garde["note"] == "too few deals (n<30)"
    # "too few deals" only ever on a group that holds fewer than min_n deals
    for min_n in (5, 30, 41, 200):
        table = analysis.thresholds(threshold_records(), method="first", min_n=min_n)
        few = table["note"].str.contains("too few deals")
        assert (table.loc[few, "n_total"] < min_n).all()
        assert (table.loc[~few & table["threshold"].isna(), "n_total"] >= min_n).all()
    # with a lower bar on n, the small cell counts; with a higher rate, nothing does
    low_n = analysis.thresholds(threshold_records(), method="first", min_n=5)
    low_n = low_n.set_index(["contract", "taker_bouts"])
    assert low_n.loc[("prise", 1), "threshold"] == 6.0
    assert low_n.loc[("prise", 0), "threshold"] == 9.0
    assert low_n.loc[("garde", 1), "note"] == "not reached"
    strict = analysis.thresholds(threshold_records(), min_rate=0.95, contract="prise", method="first")
    assert strict["threshold"].isna().all()
    assert set(strict["contract"]) == {"prise"}


def test_thresholds_reject_bad_options() -> None:
    with pytest.raises(ValueError, match="min_rate"):
        analysis.thresholds(threshold_records(), min_rate=1.5)
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        analysis.thresholds(threshold_records(), min_rate=1.0)
    with pytest.raises(ValueError, match="min_n"):
        analysis.thresholds(threshold_records(), min_n=0)
    with pytest.raises(TypeError, match="min_n"):
        analysis.thresholds(threshold_records(), min_n=2.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="method must be one of fit, first"):
        analysis.thresholds(threshold_records(), method="smooth")
    with pytest.raises(ValueError, match=r"needs column\(s\) 'bouts_held'"):
        analysis.thresholds(threshold_records(), by=("bouts_held",))
    with pytest.raises(ValueError, match="numeric"):
        analysis.thresholds(threshold_records().assign(label="x"), x="label")


def logistic_records(seed: int = 7) -> tuple[pd.DataFrame, float, float]:
    """Sweep-like records whose success follows a known logistic law in trump length.

    With one bout, P(made | t trumps) = 1 / (1 + exp(-0.9 (t - 8.3))): success crosses 50 %
    at 8.3 trumps. A made contract scores 100, a failed one -80, so the expected score
    180 p - 80 crosses 0 where p = 4/9, at 8.3 + logit(4/9) / 0.9 trumps.
    """
    rng = np.random.default_rng(seed)
    trumps = np.repeat(np.arange(3, 15), 1500)
    p = 1.0 / (1.0 + np.exp(-0.9 * (trumps - 8.3)))
    made = rng.random(len(trumps)) < p
    n = len(trumps)
    df = pd.DataFrame(
        {
            "deal": np.arange(n),
            "contract": "prise",
            "thrown_in": "none",
            "taker_trumps": trumps,
            "taker_bouts": 1,
            "hand_points": 30 + 2 * trumps,
            "attack_points": np.where(made, 50.0, 40.0),
            "attack_bouts": 1,
            "made": made,
            "margin": 5,
            "taker_score": np.where(made, 100, -80),
        }
    )
    break_even = 8.3 + math.log((4 / 9) / (5 / 9)) / 0.9
    return df, 8.3, break_even


def test_fitted_thresholds_recover_a_known_logistic_law() -> None:
    df, true_threshold, true_break_even = logistic_records()
    t = analysis.thresholds(df)
    assert list(t.columns) == [
        "contract", "taker_bouts", "threshold", "threshold_low", "threshold_high", "break_even",
        "break_even_low", "break_even_high", "fitted_from", "fitted_to", "n_total", "cells",
        "degree", "note",
    ]  # fmt: skip
    row = t.iloc[0]
    assert (row["fitted_from"], row["fitted_to"]) == (3.0, 14.0)
    assert (row["contract"], row["taker_bouts"], row["n_total"], row["cells"]) == ("prise", 1, 18000, 12)
    assert row["degree"] == 3 and row["note"].startswith("success 50%: local quadratic on 3–14 (12 values")
    assert row["threshold_low"] < true_threshold < row["threshold_high"]
    assert row["threshold"] == pytest.approx(true_threshold, abs=0.15)
    assert row["threshold_high"] - row["threshold_low"] < 0.6
    assert row["break_even_low"] < true_break_even < row["break_even_high"]
    assert row["break_even"] == pytest.approx(true_break_even, abs=0.15)
    # another rate, read off the same fit: 80 % at 8.3 + logit(0.8) / 0.9
    t80 = analysis.thresholds(df, min_rate=0.8).iloc[0]
    assert t80["threshold_low"] < 8.3 + math.log(4.0) / 0.9 < t80["threshold_high"]
    # the same law in hand points (2 per trump): the threshold doubles its offset
    hp = analysis.thresholds(df, x="hand_points", by=()).iloc[0]
    assert hp["threshold_low"] < 30 + 2 * true_threshold < hp["threshold_high"]


def test_fitted_thresholds_over_many_seeds_cover_the_truth() -> None:
    df, true_threshold, _ = logistic_records()
    covered = 0
    for seed in range(20):
        row = analysis.thresholds(logistic_records(seed)[0]).iloc[0]
        covered += bool(row["threshold_low"] < true_threshold < row["threshold_high"])
    assert covered >= 16  # 95 % intervals: 19 of 20 expected, 16 or fewer has chance < 2 %


def test_fitted_thresholds_notes_and_too_few_deals() -> None:
    df, _, _ = logistic_records()
    # never reached over the range: a note with the fitted rate at its end
    short = df[df["taker_trumps"] <= 6]
    row = analysis.thresholds(short).iloc[0]
    assert math.isnan(row["threshold"])
    assert row["note"].startswith("success 50% not reached over taker_trumps 3–6: fitted ")
    # already passed at the start of the range
    long = df[df["taker_trumps"] >= 10]
    row = analysis.thresholds(long).iloc[0]
    assert math.isnan(row["threshold"]) and "50% passed already at taker_trumps 10" in row["note"]
    # a group with too few values to fit is noted, not fitted, and "too few deals" is not said
    mixed = pd.concat([df, df.head(40).assign(taker_bouts=2, deal=lambda d: d["deal"] + 10**6)])
    two = analysis.thresholds(mixed).set_index("taker_bouts").loc[2]
    assert two["degree"] == 0 and two["note"].startswith("not fitted: 1 value(s) of taker_trumps hold")
    # never made, or always made, over the whole range: said so, nothing fitted
    never = analysis.thresholds(short.assign(made=False)).iloc[0]
    assert math.isnan(never["threshold"]) and never["note"].startswith(
        "success 50% not reached over taker_trumps 3–6: never made"
    )
    always = analysis.thresholds(long.assign(made=True)).iloc[0]
    assert always["note"].startswith(
        "success 50% passed already at taker_trumps 10, the lowest fitted: always made"
    )
    # nothing to fit at all: one line
    with pytest.raises(ValueError, match="too few deals to fit") as err:
        analysis.thresholds(df.head(100))
    assert "\n" not in str(err.value)


def test_same_play_rows_are_explained() -> None:
    df, _, _ = logistic_records()
    garde = df.assign(contract="garde", taker_score=2 * df["taker_score"])
    sweep = pd.concat([df, garde], ignore_index=True)
    for method in ("fit", "first"):
        t = analysis.thresholds(sweep, method=method).set_index("contract")
        assert t.loc["garde", "threshold"] == t.loc["prise", "threshold"]
        assert "same play as prise: same success" in t.loc["garde", "note"]
        assert "same play" not in t.loc["prise", "note"]
    # one deal played differently: no longer the same play
    garde.loc[5, "attack_points"] += 1.0
    t = analysis.thresholds(pd.concat([df, garde], ignore_index=True)).set_index("contract")
    assert "same play" not in t.loc["garde", "note"]


# --------------------------------------------------------------------------- best contract


def sweep_records() -> pd.DataFrame:
    """Deals 0-39 (1 bout, 8 trumps) and 40-49 (2 bouts, 12 trumps), each under three contracts."""
    weak = range(40)
    strong = range(40, 50)
    parts = []
    for contract, weak_made, weak_win, weak_loss, strong_win, points in (
        ("prise", 16, 80, -70, 60, 45.0),  # mean weak: (16*80 - 24*70)/40 = -10
        ("garde", 16, 160, -140, 120, 45.0),  # mean weak: -20
        ("garde_sans", 0, 0, -300, 200, 52.0),  # mean weak: -300
    ):
        w = cell(contract, 40, weak_made, bouts=1, trumps=8, score_made=weak_win,
                 score_failed=weak_loss)  # fmt: skip
        w["deal"] = np.array(weak)
        s = cell(contract, 10, 10, bouts=2, trumps=12, score_made=strong_win)
        s["deal"] = np.array(strong)
        s["attack_points"] = points
        parts += [w, s]
    parts.append(cell(None, 3, 0, deal0=50, thrown_in="petit_sec"))
    return records(*parts)


def test_best_contract_compares_means_with_passing() -> None:
    best = analysis.best_contract(sweep_records())
    assert list(best.columns[:13]) == [
        "taker_bouts", "taker_trumps", "best", "best_score", "runner_up", "runner_up_score",
        "diff", "diff_low", "diff_high", "decided", "same_play", "n", "low_n",
    ]  # fmt: skip
    assert {"score_prise", "score_garde", "score_garde_sans"} <= set(best.columns)
    weak, strong = best.iloc[0], best.iloc[1]
    assert (weak["taker_bouts"], weak["taker_trumps"]) == (1, 8)
    assert weak["best"] == "pass" and weak["best_score"] == 0.0
    assert weak["runner_up"] == "prise" and weak["runner_up_score"] == pytest.approx(-10.0)
    # pass - prise, deal by deal: -80 on the 16 made, +70 on the 24 failed
    d = np.array([-80.0] * 16 + [70.0] * 24)
    half = 1.959963984540054 * d.std(ddof=1) / math.sqrt(40)
    assert weak["diff"] == pytest.approx(10.0)
    assert (weak["diff_low"], weak["diff_high"]) == pytest.approx((10 - half, 10 + half))
    assert weak["diff_low"] < 0 and not weak["decided"] and not weak["same_play"]
    assert weak["n"] == 40 and not weak["low_n"]
    assert weak["score_garde_sans"] == -300.0
    assert strong["best"] == "garde_sans" and strong["best_score"] == 200.0
    assert strong["runner_up"] == "garde" and strong["diff"] == 80.0
    assert strong["diff_low"] == strong["diff_high"] == 80.0  # the same 80 on every deal
    assert strong["n"] == 10 and strong["low_n"] and not strong["decided"]  # too few deals
    assert not strong["same_play"]  # garde sans took 52 points, garde 45


def test_best_contract_decides_only_clear_cells_and_never_the_same_play() -> None:
    n = 60
    prise = cell("prise", n, 45, score_made=60, score_failed=-40)  # mean 35: beats pass
    garde = prise.assign(contract="garde", taker_score=2 * prise["taker_score"])  # same play
    best = analysis.best_contract(records(prise, garde)).iloc[0]
    assert (best["best"], best["runner_up"]) == ("garde", "prise")
    assert best["diff"] == pytest.approx(35.0) and best["diff_low"] > 0  # far from 0 ...
    assert best["same_play"] and not best["decided"]  # ... but the same play: not a decision
    alone = analysis.best_contract(records(prise)).iloc[0]
    assert (alone["best"], alone["runner_up"]) == ("prise", "pass")
    assert alone["decided"] and not alone["same_play"] and alone["diff_low"] > 0
    # played differently on a single deal: no longer the same play, and decided
    garde.loc[0, "attack_points"] = 46.0
    differs = analysis.best_contract(records(prise, garde)).iloc[0]
    assert not differs["same_play"] and differs["decided"]


def test_best_contract_ties_go_to_pass_and_plain_runs_are_refused() -> None:
    df = records(
        cell("prise", 2, 1, score_made=50, score_failed=-50),
        cell("garde", 2, 1, score_made=50, score_failed=-50),
    )
    best = analysis.best_contract(df, by="taker_bouts", min_n=1)
    assert best["best"].iloc[0] == "pass" and best["runner_up"].iloc[0] == "prise"
    assert best["diff"].iloc[0] == 0.0 and not best["decided"].iloc[0]
    # a single contract is compared with passing only; all thrown in gives no cells
    alone = analysis.best_contract(cell("garde", 3, 2, score_made=90, score_failed=-60), min_n=1)
    assert (alone["best"].iloc[0], alone["runner_up"].iloc[0]) == ("garde", "pass")
    assert alone["diff"].iloc[0] == 40.0
    assert analysis.best_contract(cell(None, 3, 0, thrown_in="all_pass")).empty
    plain = records(*renumber(cell("prise", 3, 3), cell("garde", 3, 0)))
    with pytest.raises(ValueError, match="sweep"):
        analysis.best_contract(plain)
    with pytest.raises(ValueError, match="'deal'"):
        analysis.best_contract(df.drop(columns="deal"))
    with pytest.raises(ValueError, match=r"needs column\(s\) 'bouts_held'") as err:
        analysis.best_contract(df, by=("bouts_held", "taker_trumps"))
    assert "\n" not in str(err.value)
    flipped = df.assign(made=np.where(df["contract"] == "garde", ~df["made"], df["made"]))
    with pytest.raises(ValueError, match="differ between the contracts of a deal"):
        analysis.best_contract(flipped, by="made")


def test_best_contract_groups_by_any_hand_column() -> None:
    df = sweep_records()
    df["bouts_held"] = np.where(df["taker_bouts"] == 1, "21", "21+EX")
    best = analysis.best_contract(df, by=("bouts_held", "taker_trumps"), min_n=1)
    assert list(best["bouts_held"]) == ["21", "21+EX"]
    assert list(best["best"]) == ["pass", "garde_sans"]


# --------------------------------------------------------------------------- hand points


def test_hand_points_thresholds_on_a_known_sweep() -> None:
    # deals by hand points: 30 at 38, 30 at 44, 30 at 60 and 30 at 74 points, each under
    # prise and garde, with these fixed scores (all rows of a bin score the same)
    scores = {
        "prise": {38: -30, 44: 20, 60: 60, 74: 70},
        "garde": {38: -80, 44: -10, 60: 100, 74: 150},
    }
    parts = []
    for contract, by_points in scores.items():
        for i, (hp, score) in enumerate(by_points.items()):
            c = cell(contract, 30, 30, hand_points=hp, score_made=score, deal0=30 * i)
            parts.append(c)
    df = records(*parts)
    table = analysis.hand_points_table(df, bins=[36, 40, 50, 70, 80], min_n=30)
    assert list(table.columns) == [
        "contract",
        "bin_low",
        "bin_high",
        "n",
        "mean_score",
        "score_se",
        "low_n",
    ]
    assert len(table) == 8 and list(table["n"]) == [30] * 8
    assert table.loc[table["contract"] == "garde", "mean_score"].tolist() == [-80, -10, 100, 150]

    out = analysis.hand_points_thresholds(df, bins=[36, 40, 50, 70, 80])
    assert list(out.columns) == [
        "contract", "positive_from", "positive_from_low", "positive_from_high", "best_from",
        "best_from_low", "best_from_high", "best_to", "published_from", "note",
    ]  # fmt: skip
    assert list(out["contract"]) == ["prise", "garde"]
    prise, garde = out.iloc[0], out.iloc[1]
    assert prise["positive_from"] == 40.0
    assert (prise["best_from"], prise["best_to"]) == (40.0, 50.0)
    assert prise["published_from"] == 40
    assert garde["positive_from"] == 50.0
    assert (garde["best_from"], garde["best_to"]) == (50.0, 80.0)
    assert garde["published_from"] == 56
    # every deal of a bin scores the same: the bootstrap cannot move the thresholds
    assert (prise["positive_from_low"], prise["positive_from_high"]) == (40.0, 40.0)
    assert (garde["best_from_low"], garde["best_from_high"]) == (50.0, 50.0)
    # both contracts made every deal with the same points: the same play, said once each
    assert garde["note"].startswith("same play as prise at 2× its multiplier")
    assert prise["note"] == ""  # prise is best somewhere here, so "never best" is not said
    assert (
        analysis.hand_points_thresholds(df, bins=[36, 40, 50, 70, 80], n_boot=0)["positive_from_low"]
        .isna()
        .all()
    )

    # default bins are 2 hand points wide, on even edges
    default = analysis.hand_points_table(df)
    assert default["bin_low"].min() == 38.0 and default["bin_high"].max() == 76.0
    assert set(default["bin_high"] - default["bin_low"]) == {2.0}
    # a bin needs min_n deals: with min_n above 30 nothing counts
    none = analysis.hand_points_thresholds(df, bins=4, min_n=31)
    assert none[["positive_from", "best_from", "best_to"]].isna().all().all()


def noisy_hand_points_sweep(seed: int = 3) -> pd.DataFrame:
    """A sweep of prise and garde sans whose mean score rises with hand points, with noise."""
    rng = np.random.default_rng(seed)
    n = 6000
    hp = rng.integers(30, 80, n)
    made = rng.random(n) < 1.0 / (1.0 + np.exp(-(hp - 46.0) / 4.0))
    frames = []
    for contract, multiplier, points in (("prise", 1, 0.0), ("garde_sans", 4, 3.0)):
        frames.append(
            pd.DataFrame(
                {
                    "deal": np.arange(n),
                    "contract": contract,
                    "thrown_in": "none",
                    "taker_trumps": 8,
                    "taker_bouts": 1,
                    "hand_points": hp,
                    "hand_points_dist": hp + 3,
                    "attack_points": np.where(made, 50.0, 40.0) + points,
                    "attack_bouts": 1,
                    "made": made,
                    "margin": 5,
                    "taker_score": multiplier * np.where(made, 30, -30) + (hp - 60) * (multiplier - 1) * 6,
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def test_hand_point_crossings_get_bootstrap_intervals() -> None:
    df = noisy_hand_points_sweep()
    out = analysis.hand_points_thresholds(df, bins=4, min_n=30).set_index("contract")
    for con in ("prise", "garde_sans"):
        row = out.loc[con]
        for name in ("positive_from", "best_from"):
            assert row[f"{name}_low"] <= row[name] <= row[f"{name}_high"]
    assert out.loc["prise", "positive_from_high"] > out.loc["prise", "positive_from_low"]
    # the same seed gives the same intervals; another seed may not
    again = analysis.hand_points_thresholds(df, bins=4, min_n=30).set_index("contract")
    pd.testing.assert_frame_equal(out, again)
    # the garde sans band was made on the count with the distribution bonus: refused here ...
    assert math.isnan(out.loc["garde_sans", "published_from"])
    assert (
        "published 71 counts with the distribution bonus (hand_points_dist)" in out.loc["garde_sans", "note"]
    )
    assert out.loc["prise", "published_from"] == 40
    # ... and compared on that count, where prise's is refused
    dist = analysis.hand_points_thresholds(df, bins=4, scale="hand_points_dist").set_index("contract")
    assert dist.loc["garde_sans", "published_from"] == 71 and math.isnan(dist.loc["prise", "published_from"])
    assert "not compared on hand_points_dist" in dist.loc["prise", "note"]
    # without the column the comparison on that count is refused in one line
    with pytest.raises(ValueError, match=r"scale 'hand_points_dist' needs column\(s\) 'hand_points_dist'"):
        analysis.hand_points_thresholds(df.drop(columns="hand_points_dist"), scale="hand_points_dist")
    with pytest.raises(ValueError, match="scale must be"):
        analysis.hand_points_thresholds(df, scale="points")
    with pytest.raises(ValueError, match="n_boot"):
        analysis.hand_points_thresholds(df, n_boot=-1)


def test_hand_points_bins_are_checked() -> None:
    df = cell("prise", 3, 1)
    with pytest.raises(ValueError, match="increasing"):
        analysis.hand_points_table(df, bins=[10, 5])
    with pytest.raises(ValueError, match="width"):
        analysis.hand_points_table(df, bins=0)
    with pytest.raises(TypeError, match="bins"):
        analysis.hand_points_table(df, bins="wide")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- compare


def test_compare_gives_paired_differences() -> None:
    a = records(
        cell("prise", 4, 3, score_made=50, score_failed=-40),
        cell("garde", 2, 2, score_made=100, deal0=0),
    )
    b = records(
        cell("prise", 4, 1, score_made=30, score_failed=-40),
        cell("garde", 2, 0, score_failed=-100, deal0=0),
    )
    b = b.iloc[::-1].reset_index(drop=True)  # order does not matter
    out = analysis.compare(a, b)
    assert list(out.columns) == [
        "contract", "n", "rate_a", "rate_b", "rate_diff", "rate_diff_low", "rate_diff_high",
        "mean_score_a", "mean_score_b", "score_diff", "score_diff_low", "score_diff_high",
    ]  # fmt: skip
    prise, garde = out.iloc[0], out.iloc[1]
    assert prise["contract"] == "prise" and prise["n"] == 4
    assert (prise["rate_a"], prise["rate_b"], prise["rate_diff"]) == (0.75, 0.25, 0.5)
    # per-deal differences of made: 0, 1, 1, 0 -> sd = 0.57735, se = 0.288675
    d = np.array([0.0, 1.0, 1.0, 0.0])
    half = 1.959963984540054 * d.std(ddof=1) / 2
    assert (prise["rate_diff_low"], prise["rate_diff_high"]) == pytest.approx((0.5 - half, 0.5 + half))
    # scores a: 50 50 50 -40, b: 30 -40 -40 -40 -> differences 20 90 90 0
    s = np.array([20.0, 90.0, 90.0, 0.0])
    assert prise["score_diff"] == pytest.approx(50.0)
    assert prise["mean_score_a"] == pytest.approx(27.5)
    assert prise["mean_score_b"] == pytest.approx(-22.5)
    half = 1.959963984540054 * s.std(ddof=1) / 2
    assert (prise["score_diff_low"], prise["score_diff_high"]) == pytest.approx((50 - half, 50 + half))
    # garde: differences are all 200 and all 1 -> zero-width intervals
    assert (garde["rate_diff"], garde["rate_diff_low"], garde["rate_diff_high"]) == (1, 1, 1)
    assert garde["score_diff"] == 200.0 and garde["score_diff_low"] == 200.0


def test_compare_without_contract_column_and_thrown_in_rows() -> None:
    a = records(cell("prise", 3, 3), cell(None, 2, 0, deal0=3, thrown_in="petit_sec"))
    b = records(cell("prise", 3, 0), cell(None, 2, 0, deal0=3, thrown_in="petit_sec"))
    out = analysis.compare(a.drop(columns="contract"), b.drop(columns="contract"))
    assert list(out["contract"]) == ["all"]
    assert out["n"].iloc[0] == 3 and out["rate_diff"].iloc[0] == 1.0
    single = analysis.compare(cell("prise", 1, 1), cell("prise", 1, 0))
    assert single["rate_diff"].iloc[0] == 1.0 and math.isnan(single["rate_diff_low"].iloc[0])


def test_compare_refuses_runs_of_different_deals() -> None:
    a = cell("prise", 5, 3)
    b = cell("prise", 3, 1, deal0=1)
    with pytest.raises(ValueError, match=r"2 played .* of run_a are missing from run_b and 0"):
        analysis.compare(a, b)
    with pytest.raises(ValueError, match="repeats"):
        analysis.compare(pd.concat([a, a]), a)
    with pytest.raises(ValueError, match=r"compare \(run_b\).*'made'"):
        analysis.compare(a, a.drop(columns="made"))


# --------------------------------------------------------------------------- loading


def write_run(root: Path, parts: list[pd.DataFrame]) -> Path:
    deals = sum(map(len, parts))
    spec = RunSpec(
        kind="simulate",
        seed=7,
        deals=deals,
        config=RunConfig(),
        chunk_deals=max(1, len(parts[0]) if parts else 1),
    )
    with store.Run(root, spec) as run:
        # written out of order: reading must follow the chunks' order
        for i in reversed(range(len(parts))):
            run.save_chunk(i, parts[i], worker="test", seconds=0.0)
        run.finish()
    return root


def test_load_records_reads_chunks_in_deal_order(tmp_path: Path) -> None:
    first = cell("prise", 3, 2, deal0=0)
    second = cell("garde", 3, 1, deal0=3)
    run = write_run(tmp_path / "run", [first, second])
    df = analysis.load_records(run)
    assert list(df["deal"]) == list(range(6))
    assert list(df.index) == list(range(6))
    assert list(df["contract"]) == ["prise"] * 3 + ["garde"] * 3
    # every public function takes the directory too, as str or Path
    table = analysis.success_table(str(run))
    assert list(table["n"]) == [3, 3]
    pd.testing.assert_frame_equal(
        analysis.compare(run, str(run))[["contract", "n"]],
        pd.DataFrame({"contract": ["prise", "garde"], "n": [3, 3]}).astype({"n": np.int64}),
        check_dtype=False,
    )
    # a DataFrame comes back as it is
    assert analysis.load_records(first) is first


def test_load_records_explains_what_is_missing(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="does not exist"):
        analysis.load_records(tmp_path / "nowhere")
    (tmp_path / "bare").mkdir()
    with pytest.raises(ValueError, match=r"no manifest\.json"):
        analysis.load_records(tmp_path / "bare")
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "manifest.json").write_text("{}", encoding="utf-8")
    with pytest.raises(ValueError, match="does not describe a tarotsim run"):
        analysis.load_records(tmp_path / "empty")
    write_run(tmp_path / "nochunks", [])
    with pytest.raises(ValueError, match=r"chunks/chunk-\*\.parquet"):
        analysis.load_records(tmp_path / "nochunks")
    with pytest.raises(TypeError, match="DataFrame"):
        analysis.load_records([1, 2, 3])  # type: ignore[arg-type]


# --------------------------------------------------------------------------- markdown


def test_to_markdown_formats_a_github_table() -> None:
    df = pd.DataFrame(
        {
            "contract": ["prise", "garde|x"],
            "n": [3, 40],
            "rate": [0.5, 0.123456],
            "threshold": [7.0, np.nan],
            "ok": [True, False],
        }
    )
    assert analysis.to_markdown(df) == (
        "| contract | n | rate | threshold | ok |\n"
        "| --- | ---: | ---: | ---: | --- |\n"
        "| prise | 3 | 0.500 | 7 | True |\n"
        "| garde\\|x | 40 | 0.123 |  | False |\n"
    )
    indexed = analysis.to_markdown(df.set_index("contract")[["n"]], floatfmt=".1f")
    assert indexed.splitlines()[0] == "| contract | n |"
    assert indexed.splitlines()[2] == "| prise | 3 |"
    with pytest.raises(TypeError):
        analysis.to_markdown("not a table")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="floatfmt"):
        analysis.to_markdown(df, floatfmt="q")


def test_names_and_bands_come_from_the_labels() -> None:
    assert analysis.CONTRACTS == labels.CONTRACTS
    assert analysis.PUBLISHED_HAND_POINTS == labels.PUBLISHED_BANDS
    assert analysis.PASS == labels.Contract.PASS.label
    assert list(analysis.PUBLISHED_HAND_POINTS) == list(analysis.CONTRACTS)
