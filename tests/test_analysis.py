"""Tests of tarotsim.analysis on small hand-built records with known answers."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tarotsim import analysis, labels
from tarotsim.config import RunConfig
from tarotsim.run import store
from tarotsim.run.spec import RunSpec

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


@pytest.mark.parametrize(
    ("k", "n", "z"), [(11, 10, 1.96), (-1, 10, 1.96), (0, -1, 1.96), (5, 10, 0.0)]
)
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
    t = analysis.thresholds(threshold_records())
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


def test_thresholds_notes_when_not_found() -> None:
    t = analysis.thresholds(threshold_records()).set_index(["contract", "taker_bouts"])
    zero = t.loc[("prise", 0)]
    assert math.isnan(zero["threshold"]) and math.isnan(zero["rate"])
    assert zero["note"] == "too few deals (n<30)"
    assert not zero["confident"] and zero["n"] == 0
    three = t.loc[("prise", 3)]
    assert math.isnan(three["threshold"]) and three["note"] == "not reached"
    garde = t.loc[("garde", 1)]
    assert garde["note"] == "too few deals (n<30)"
    # with a lower bar on n, the small cell counts; with a higher rate, nothing does
    low_n = analysis.thresholds(threshold_records(), min_n=5).set_index(["contract", "taker_bouts"])
    assert low_n.loc[("prise", 1), "threshold"] == 6.0
    assert low_n.loc[("prise", 0), "threshold"] == 9.0
    assert low_n.loc[("garde", 1), "note"] == "not reached"
    strict = analysis.thresholds(threshold_records(), min_rate=0.95, contract="prise")
    assert strict["threshold"].isna().all()
    assert set(strict["contract"]) == {"prise"}


def test_thresholds_reject_bad_options() -> None:
    with pytest.raises(ValueError, match="min_rate"):
        analysis.thresholds(threshold_records(), min_rate=1.5)
    with pytest.raises(ValueError, match="min_n"):
        analysis.thresholds(threshold_records(), min_n=0)
    with pytest.raises(TypeError, match="min_n"):
        analysis.thresholds(threshold_records(), min_n=2.5)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- best contract


def sweep_records() -> pd.DataFrame:
    """Deals 0-39 (1 bout, 8 trumps) and 40-49 (2 bouts, 12 trumps), each under three contracts."""
    weak = range(40)
    strong = range(40, 50)
    parts = []
    for contract, weak_made, weak_win, weak_loss, strong_win in (
        ("prise", 16, 80, -70, 60),  # mean weak: (16*80 - 24*70)/40 = -10
        ("garde", 16, 160, -140, 120),  # mean weak: -20
        ("garde_sans", 0, 0, -300, 200),  # mean weak: -300
    ):
        w = cell(contract, 40, weak_made, bouts=1, trumps=8, score_made=weak_win,
                 score_failed=weak_loss)  # fmt: skip
        w["deal"] = np.array(weak)
        s = cell(contract, 10, 10, bouts=2, trumps=12, score_made=strong_win)
        s["deal"] = np.array(strong)
        parts += [w, s]
    parts.append(cell(None, 3, 0, deal0=50, thrown_in="petit_sec"))
    return records(*parts)


def test_best_contract_compares_means_with_passing() -> None:
    best = analysis.best_contract(sweep_records())
    assert list(best.columns[:9]) == [
        "taker_bouts", "taker_trumps", "best", "best_score", "runner_up",
        "runner_up_score", "margin_over_runner_up", "n", "low_n",
    ]  # fmt: skip
    assert {"score_prise", "score_garde", "score_garde_sans"} <= set(best.columns)
    weak, strong = best.iloc[0], best.iloc[1]
    assert (weak["taker_bouts"], weak["taker_trumps"]) == (1, 8)
    assert weak["best"] == "pass" and weak["best_score"] == 0.0
    assert weak["runner_up"] == "prise" and weak["runner_up_score"] == pytest.approx(-10.0)
    assert weak["margin_over_runner_up"] == pytest.approx(10.0)
    assert weak["n"] == 40 and not weak["low_n"]
    assert weak["score_garde_sans"] == -300.0
    assert strong["best"] == "garde_sans" and strong["best_score"] == 200.0
    assert strong["runner_up"] == "garde" and strong["margin_over_runner_up"] == 80.0
    assert strong["n"] == 10 and strong["low_n"]


def test_best_contract_ties_go_to_pass_and_plain_runs_are_refused() -> None:
    df = records(
        cell("prise", 2, 1, score_made=50, score_failed=-50),
        cell("garde", 2, 1, score_made=50, score_failed=-50),
    )
    best = analysis.best_contract(df, by="taker_bouts", min_n=1)
    assert best["best"].iloc[0] == "pass" and best["runner_up"].iloc[0] == "prise"
    # a single contract is compared with passing only; all thrown in gives no cells
    alone = analysis.best_contract(cell("garde", 3, 2, score_made=90, score_failed=-60), min_n=1)
    assert (alone["best"].iloc[0], alone["runner_up"].iloc[0]) == ("garde", "pass")
    assert alone["margin_over_runner_up"].iloc[0] == 40.0
    assert analysis.best_contract(cell(None, 3, 0, thrown_in="all_pass")).empty
    plain = records(*renumber(cell("prise", 3, 3), cell("garde", 3, 0)))
    with pytest.raises(ValueError, match="sweep"):
        analysis.best_contract(plain)
    with pytest.raises(ValueError, match="'deal'"):
        analysis.best_contract(df.drop(columns="deal"))


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
        "contract",
        "positive_from",
        "best_from",
        "best_to",
        "published_from",
    ]
    assert list(out["contract"]) == ["prise", "garde"]
    prise, garde = out.iloc[0], out.iloc[1]
    assert prise["positive_from"] == 40.0
    assert (prise["best_from"], prise["best_to"]) == (40.0, 50.0)
    assert prise["published_from"] == 40
    assert garde["positive_from"] == 50.0
    assert (garde["best_from"], garde["best_to"]) == (50.0, 80.0)
    assert garde["published_from"] == 56

    # default bins are 2 hand points wide, on even edges
    default = analysis.hand_points_table(df)
    assert default["bin_low"].min() == 38.0 and default["bin_high"].max() == 76.0
    assert set(default["bin_high"] - default["bin_low"]) == {2.0}
    # a bin needs min_n deals: with min_n above 30 nothing counts
    none = analysis.hand_points_thresholds(df, bins=4, min_n=31)
    assert none[["positive_from", "best_from", "best_to"]].isna().all().all()


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
    assert (prise["rate_diff_low"], prise["rate_diff_high"]) == pytest.approx(
        (0.5 - half, 0.5 + half)
    )
    # scores a: 50 50 50 -40, b: 30 -40 -40 -40 -> differences 20 90 90 0
    s = np.array([20.0, 90.0, 90.0, 0.0])
    assert prise["score_diff"] == pytest.approx(50.0)
    assert prise["mean_score_a"] == pytest.approx(27.5)
    assert prise["mean_score_b"] == pytest.approx(-22.5)
    half = 1.959963984540054 * s.std(ddof=1) / 2
    assert (prise["score_diff_low"], prise["score_diff_high"]) == pytest.approx(
        (50 - half, 50 + half)
    )
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
    spec = RunSpec(kind="simulate", seed=7, deals=deals, config=RunConfig(), chunk_deals=max(1, len(parts[0]) if parts else 1))
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
