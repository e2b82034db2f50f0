"""Conditioned and stratified sweeps: their cells, their weights, and weighted tables that agree
with an ordinary sweep's on the same question.

The sweeps compared are recorded (tests/fixtures): these tests play no deal.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from tarotsim.analysis import best_contract, success_table, thresholds
from tarotsim.cli import main
from tarotsim.engine.dealing import condition_probability, fixed_words, where_ranges
from tarotsim.players.config import RunConfig
from tarotsim.runs.spec import RunSpec
from tarotsim.runs.strata import canonical_where, strata, where_mapping, where_text
from tests.fixtures.runs import RUNS, run_file

TRUMPS = (3, 10)
"""The condition of the recorded stratified sweep: the taking seat holds 3 to 10 trumps."""


@pytest.fixture(scope="module")
def stratified() -> pd.DataFrame:
    return pd.read_parquet(run_file("stratified-heuristic"))


@pytest.fixture(scope="module")
def ordinary() -> pd.DataFrame:
    """An ordinary sweep of the same players, kept to the hands the stratified one deals."""
    records = pd.read_parquet(run_file("chunked-heuristic"))
    return records[records["taker_trumps"].between(*TRUMPS)].reset_index(drop=True)


def test_the_cells_add_up_to_the_condition_and_each_cell_is_dealt_in_turn():
    spec = RUNS["stratified-heuristic"]
    cells = spec.strata
    assert cells is not None
    words = fixed_words(None, 4)
    whole = condition_probability(words, 4, *where_ranges({0: {"trumps": TRUMPS}}, 4))
    total = sum(Fraction(c.probability.value) for c in cells.cells)
    assert float(total) == pytest.approx(float(whole), rel=1e-12)
    assert {c.values for c in cells.cells} <= {(b, t) for b in range(4) for t in range(3, 11)}
    weights = cells.weights(spec.deals)
    assert np.allclose(weights * [cells.deals_of(i, spec.deals) for i in range(len(cells.cells))],
                       [c.probability.value for c in cells.cells])  # fmt: skip


def test_records_carry_the_weight_of_their_cell(stratified):
    spec = RUNS["stratified-heuristic"]
    cells = spec.strata
    k = len(cells.cells)
    by_deal = stratified.drop_duplicates("deal").set_index("deal")
    cell = by_deal.index.to_numpy() % k
    values = np.array([c.values for c in cells.cells])[cell]
    assert (by_deal["taker_bouts"].to_numpy() == values[:, 0]).all()
    assert (by_deal["taker_trumps"].to_numpy() == values[:, 1]).all()
    assert np.allclose(by_deal["weight"].to_numpy(), cells.weights(spec.deals)[cell])
    assert by_deal["weight"].sum() == pytest.approx(1.0 - 0.0, abs=1.0) and by_deal["weight"].notna().all()
    assert by_deal["weight"].sum() == pytest.approx(sum(c.probability.value for c in cells.cells))


def _agree(a: pd.DataFrame, b: pd.DataFrame, value: str, low: str, high: str) -> None:
    """Each row's estimates differ by less than their 95 % intervals allow (both half-widths, in
    quadrature, times 1.5 for the many rows compared)."""
    for (_, x), (_, y) in zip(a.iterrows(), b.iterrows(), strict=True):
        if math.isnan(x[value]) or math.isnan(y[value]):
            continue
        half = math.hypot(x[high] - x[low], y[high] - y[low]) / 2.0
        assert abs(x[value] - y[value]) <= 1.5 * half, (x.to_dict(), y.to_dict())


def test_weighted_success_rates_agree_with_an_ordinary_sweep(stratified, ordinary):
    weighted = success_table(stratified, by=("taker_bouts",))
    plain = success_table(ordinary, by=("taker_bouts",))
    assert weighted.attrs["weighted"] and not plain.attrs.get("weighted")
    keys = ["contract", "taker_bouts"]
    both = weighted.merge(plain, on=keys, suffixes=("", "_plain"))
    assert len(both) == 16
    _agree(both[["rate", "rate_low", "rate_high"]],
           both[["rate_plain", "rate_low_plain", "rate_high_plain"]].set_axis(["rate", "rate_low", "rate_high"], axis=1),
           "rate", "rate_low", "rate_high")  # fmt: skip
    # a stratified sweep over-samples the rare long hands: its weighted rate is not its raw share
    raw = stratified[stratified["contract"] == "prise"].groupby("taker_bouts")["made"].mean()
    one = weighted[weighted["contract"] == "prise"].set_index("taker_bouts")["rate"]
    assert (raw - one).abs().max() > 0.02
    assert (weighted["deals"] > 0).all() and (weighted["n"] <= weighted["deals"] + 1e-9).all()


def test_weighted_overall_rate_agrees_and_its_interval_is_honest(stratified, ordinary):
    weighted = success_table(stratified, by=())
    plain = success_table(ordinary, by=())
    for (_, w), (_, p) in zip(weighted.iterrows(), plain.iterrows(), strict=True):
        half = math.hypot(w["rate_high"] - w["rate_low"], p["rate_high"] - p["rate_low"]) / 2.0
        assert abs(w["rate"] - p["rate"]) <= half
        se = math.hypot(w["score_se"], p["score_se"])
        assert abs(w["mean_score"] - p["mean_score"]) <= 1.96 * se


def test_thresholds_agree_with_an_ordinary_sweeps(stratified, ordinary):
    mine = thresholds(stratified, contract="prise")
    theirs = thresholds(ordinary, contract="prise")
    both = mine.merge(theirs, on=["contract", "taker_bouts"], suffixes=("", "_plain"))
    found = both.dropna(subset=["threshold", "threshold_plain"])
    assert len(found) >= 1
    for _, row in found.iterrows():
        half = math.hypot(row["threshold_high"] - row["threshold_low"],
                          row["threshold_high_plain"] - row["threshold_low_plain"]) / 2.0  # fmt: skip
        assert abs(row["threshold"] - row["threshold_plain"]) <= 1.5 * half


def test_constant_weights_change_no_table(ordinary):
    weighted = ordinary.assign(weight=1.0 / len(ordinary))
    for table in (success_table, best_contract):
        a, b = table(ordinary), table(weighted)
        numbers = [c for c in a.columns if a[c].dtype.kind in "fi"]
        assert np.allclose(a[numbers].to_numpy(float), b[numbers].to_numpy(float), equal_nan=True, atol=1e-9)
    a, b = thresholds(ordinary), thresholds(weighted)
    assert np.allclose(a["threshold"], b["threshold"], equal_nan=True, atol=1e-6)


def test_a_condition_reads_back_as_it_was_given():
    where = {0: {"bouts": 2, "trumps": (8, 10), "suit_length": {"S": (0, 1)}}}
    canon = canonical_where(where, 4)
    assert where_text(canon) == "0:trumps=8-10,bouts=2,S=0-1"
    assert canonical_where(where_mapping(canon), 4) == canon
    spec = RunSpec(kind="sweep", seed=1, deals=10, config=RunConfig(), contracts=("prise",), where=where)
    assert RunSpec.from_identity(spec.identity()) == spec
    assert "--where=0:trumps=8-10,bouts=2,S=0-1" in (spec.command("out") or "")


def test_a_stratified_run_of_another_size_is_another_run():
    spec = RUNS["stratified-heuristic"]
    bigger = RunSpec(**{**{f: getattr(spec, f) for f in ("kind", "seed", "config", "contracts", "where",
                                                         "stratify")}, "deals": spec.deals + 32})  # fmt: skip
    assert spec.identity()["condition"] != bigger.identity()["condition"]
    assert "condition" not in RUNS["chunked-heuristic"].identity()


def test_impossible_cells_are_left_out_and_rare_ones_kept():
    """Cells are drawn from their counts, so a cell is left out only when no deal falls in it
    (3 bouts with fewer than 2 trumps or with 18, 2 bouts without a trump); the rarest are kept."""
    cells = strata(seed=0, players=4, seat=0, where=(), stratify=("taker_bouts", "taker_trumps"), deals=0)
    impossible = {(3, 0), (3, 1), (2, 0), (3, 18)}
    assert cells.skipped == len(impossible) and not {c.values for c in cells.cells} & impossible
    assert len(cells.cells) == 4 * 19 - len(impossible)
    assert min(c.probability.value for c in cells.cells) < 1e-12
    whole = sum(Fraction(c.probability.value) for c in cells.cells)
    assert float(whole) == pytest.approx(1.0, rel=1e-12)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--where", "0:bouts=9"], "bouts: the range must satisfy"),
        (["--where", "0:bouts2"], "--where ranges read"),
        (["--where", "0:colour=2"], "unknown feature"),
        (["--stratify", "hand_points", "--per-cell", "5"], "cannot stratify on 'hand_points'"),
        (["--stratify", "taker_bouts", "--where", "1:trumps=3-9", "--per-cell", "5"], "the taking seat"),
        (["--per-cell", "5"], "--per-cell goes with --stratify"),
        (["--stratify", "taker_bouts", "--per-cell", "5", "--deals", "50"], "not both"),
        (["--where", "0:hand_points=150-200"], "too rare"),
        (["--where", "0:trumps=1,bouts=3"], "no deal meets"),
    ],
)
def test_a_bad_condition_is_a_one_line_error(tmp_path, capsys, args, message):
    assert main(["sweep", "--out", str(tmp_path / "run"), *args]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err
    assert not (tmp_path / "run").exists()


def test_only_a_sweep_is_conditioned():
    with pytest.raises(ValueError, match="only a sweep"):
        RunSpec(kind="simulate", seed=1, deals=10, config=RunConfig(), where={0: {"bouts": 1}})


def test_each_cell_deals_what_tarotsim_deal_deals_with_its_seed(stratified):
    import tarotsim
    from tarotsim.engine.cards import format_cards

    spec = RUNS["stratified-heuristic"]
    cells = spec.strata
    k = len(cells.cells)
    by_deal = stratified.drop_duplicates("deal").set_index("deal")
    for c in (0, k - 1):
        cell = cells.cells[c]
        mine = by_deal.loc[range(c, spec.deals, k)]
        dealt = tarotsim.deal(len(mine), seed=cell.seed, where=where_mapping(cell.where))
        points = [tarotsim.evaluate_hand(format_cards(hand[0])) for hand in dealt.hands]
        assert mine["hand_points"].tolist() == points
        assert mine["dealer"].tolist() == dealt.dealer.tolist()
