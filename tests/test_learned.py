"""The refitted count and the learned bidder: features, re-dealing, fits, the bidder file, the policy."""

from __future__ import annotations

import json
import random

import numpy as np
import pandas as pd
import pytest

import tarotsim
from tarotsim.analysis.count_fit import (
    SweepSample,
    chavey_count,
    count_table,
    fit_bidder,
    fit_count,
    sweep_sample,
    verdict,
)
from tarotsim.base.seeding import run_key
from tarotsim.cli import main
from tarotsim.engine.cards import parse_cards, to_mask
from tarotsim.engine.kernels.chavey import distribution_points, hand_points
from tarotsim.engine.kernels.features import N_FEATURES, feature_rows, hand_features
from tarotsim.engine.kernels.redeal import dealt_hands
from tarotsim.engine.kernels.state import N_CFG, P_BID_POLICY, seat_slot
from tarotsim.engine.labels import CHAVEY_WEIGHTS, CONTRACTS, HAND_FEATURES, TABLE_SIZES
from tarotsim.players.bidder import INTERCEPT, Bidder, from_json, load_bidder
from tarotsim.players.kernels.policies.bidding import learned_wish
from tarotsim.players.strategy import Strategy
from tests import reference as ref

SWEEP_DEALS = 3000


@pytest.fixture(scope="module")
def small_sweep() -> pd.DataFrame:
    return tarotsim.sweep(SWEEP_DEALS, seed=5, progress=False)


@pytest.fixture(scope="module")
def sweep_dir(tmp_path_factory, small_sweep) -> str:
    out = tmp_path_factory.mktemp("sweep") / "run"
    assert main(["sweep", "--deals", str(SWEEP_DEALS), "--seed", "5", "--out", str(out), "--quiet"]) == 0
    return str(out)


def _features(hand: list[str]) -> np.ndarray:
    w0, w1 = to_mask(parse_cards(hand))
    return np.array(hand_features(w0, w1))


def test_features_give_chaveys_count_and_bonus_of_the_reference_on_random_hands() -> None:
    rng = random.Random(1)
    for _ in range(2000):
        hand = rng.sample(ref.ALL_CARDS, rng.choice([15, 18, 24]))
        f = pd.DataFrame([_features(hand)], columns=list(HAND_FEATURES))
        assert chavey_count(f)[0] == ref.chavey_count(hand)
        bonus = CHAVEY_WEIGHTS["voids"] * f["voids"][0] + CHAVEY_WEIGHTS["singletons"] * f["singletons"][0]
        assert bonus == ref.distribution_bonus(hand)
        lengths = ref.suit_lengths(hand)
        trumps = sum(ref.is_trump(c) and c != "EX" for c in hand)
        assert f["trumps_short"][0] + f["trumps_long"][0] == trumps
        assert f["long_5"][0] == sum(n == 5 for n in lengths.values())


def test_features_of_a_hand_made_hand() -> None:
    hand = "T21 T20 T19 T17 T1 EX KS QS KH CH JH 2D 3D 4D 5D 6D 7D 8D".split()
    f = dict(zip(HAND_FEATURES, _features(hand), strict=True))
    assert f["petit_5"] == 1 and f["petit_short"] == f["petit_6"] == f["petit_7"] == 0
    assert f["trumps_long"] == 5 and f["trumps_short"] == 0
    assert (f["trump_20"], f["trump_19"], f["trump_18"], f["trump_17"], f["trump_16"]) == (1, 1, 0, 1, 0)
    assert f["sequence"] == 3  # 21, 20, 19
    assert (f["king_queen"], f["king"], f["queen"], f["knight"], f["jack"]) == (1, 1, 0, 1, 1)
    assert (f["long_7"], f["voids"], f["singletons"]) == (1, 1, 0)


def test_redealt_hands_are_the_hands_the_sweep_recorded(small_sweep) -> None:
    rows = small_sweep[small_sweep["contract"] == CONTRACTS[0]]
    deals = rows["deal"].to_numpy(dtype=np.int64)
    hands = np.zeros((len(deals), 2), dtype=np.uint64)
    dealt_hands(run_key(5), deals, 4, TABLE_SIZES[4][0], 0, hands)
    for (w0, w1), (_, row) in zip(hands, rows.iterrows(), strict=True):
        assert hand_points(w0, w1) == row["hand_points"]
        assert hand_points(w0, w1) + distribution_points(w0) == row["hand_points_dist"]
        assert bin(int(w1) & ((1 << 21) - 1)).count("1") == row["taker_trumps"]
    values = np.zeros((len(deals), N_FEATURES), dtype=np.int64)
    feature_rows(hands, values)
    bouts = values[:, [HAND_FEATURES[f] for f in ("petit_short", "petit_5", "petit_6", "petit_7")]].sum(1)
    bouts += values[:, HAND_FEATURES["trump_21"]] + values[:, HAND_FEATURES["excuse"]]
    assert np.array_equal(bouts, rows["taker_bouts"].to_numpy(dtype=np.int64))


def test_a_run_directory_and_the_records_give_the_same_sample(small_sweep, sweep_dir) -> None:
    a = sweep_sample(small_sweep, sample=2000, sample_seed=3)
    b = sweep_sample(sweep_dir, sample=2000, sample_seed=3)
    pd.testing.assert_frame_equal(a.features, b.features)
    pd.testing.assert_frame_equal(a.outcomes, b.outcomes)
    assert len(a.features) <= 2000 and a.identity["sample"] == 2000


def _synthetic(weights: dict[str, float], n: int, seed: int, logit: bool = False) -> SweepSample:
    """Random hands whose outcome is a known linear function of the features, plus noise."""
    rng = np.random.default_rng(seed)
    hands = np.zeros((n, 2), dtype=np.uint64)
    for i in range(n):
        w0, w1 = to_mask(rng.choice(78, size=18, replace=False).tolist())
        hands[i] = (w0, w1)
    values = np.zeros((n, N_FEATURES), dtype=np.int64)
    feature_rows(hands, values)
    features = pd.DataFrame(values, columns=list(HAND_FEATURES), index=pd.Index(np.arange(n), name="deal"))
    eta = -20 + features.to_numpy() @ np.array([weights[f] for f in HAND_FEATURES])
    if logit:
        made = rng.random(n) < 1 / (1 + np.exp(-eta / 10))
        score = np.zeros(n)
    else:
        score = eta + rng.normal(0, 5, n)
        made = score > 0
    outcomes = pd.DataFrame(
        {"deal": np.arange(n), "contract": CONTRACTS[0], "taker_score": score, "made": made}
    )
    identity = {
        "run": "synthetic",
        "seed": seed,
        "deals": n,
        "seat": 0,
        "players": 4,
        "sample": n,
        "sample_seed": 0,
    }
    return SweepSample(features, outcomes, identity)


def test_the_fit_recovers_known_weights_in_chaveys_units() -> None:
    weights = {f: float(CHAVEY_WEIGHTS[f]) * 0.5 for f in HAND_FEATURES}  # 21 worth 5 points: scale 2
    table = count_table(_synthetic(weights, 20000, 1), contract=CONTRACTS[0])
    assert list(table.columns) == ["feature", "weight", "low", "high", "published"]
    truth = table["feature"].map(CHAVEY_WEIGHTS).to_numpy(dtype=float)
    weight, low, high = (table[c].to_numpy(dtype=float) for c in ("weight", "low", "high"))
    assert np.all(np.abs(weight - truth) <= high - low)  # within about 4 standard errors
    assert ((truth < low) | (truth > high)).sum() <= 3  # about 1 in 20 of the 95% intervals miss
    assert table.set_index("feature").loc["trump_21", "weight"] == 10
    assert pd.isna(table.set_index("feature").loc["voids", "published"])  # no bonus for a Prise
    assert table.apply(verdict, axis=1).str.startswith("contradicted").sum() <= 3


def test_the_logit_fit_recovers_the_ranking_of_known_weights() -> None:
    weights = {f: 0.0 for f in HAND_FEATURES} | {"trump_21": 10.0, "excuse": 5.0, "king": 2.0}
    table = count_table(_synthetic(weights, 20000, 2, logit=True), outcome="made").set_index("feature")
    assert table.loc["excuse", "low"] <= 5 <= table.loc["excuse", "high"]
    assert table.loc["king", "low"] <= 2 <= table.loc["king", "high"]


def test_fit_count_on_a_sweep_gives_a_positive_scale(sweep_dir) -> None:
    table = fit_count(sweep_dir, contract=CONTRACTS[1], sample=SWEEP_DEALS)
    assert table.attrs["n"] > 2900
    assert table["low"].isna().sum() == table["weight"].isna().sum()
    assert set(table["feature"]) == set(HAND_FEATURES)


def test_bad_fits_are_explained(small_sweep, tmp_path) -> None:
    with pytest.raises(ValueError, match="at least"):
        fit_count(small_sweep, sample=10)
    with pytest.raises(ValueError, match="contract must be"):
        fit_count(small_sweep, contract="pass")
    with pytest.raises(ValueError, match="outcome"):
        fit_count(small_sweep, outcome="points")
    sim = tarotsim.simulate(2000, seed=1, progress=False)
    with pytest.raises(ValueError, match="not a sweep"):
        fit_count(sim)
    with pytest.raises(ValueError, match="deals"):
        fit_count(tarotsim.sweep(500, seed=5, progress=False))


def _bidder(intercepts: dict[str, float]) -> Bidder:
    zero = {f: 0.0 for f in HAND_FEATURES}
    return Bidder(4, {c: zero | {INTERCEPT: intercepts[c], "trump_21": 1.5} for c in CONTRACTS}, {"run": "x"})


def test_the_bidder_file_round_trips_and_is_human_readable(tmp_path) -> None:
    bidder = _bidder(dict(zip(CONTRACTS, (-1.0, -2.0, -3.0, -4.0), strict=True)))
    path = tmp_path / "bidder.json"
    bidder.save(path)
    data = json.loads(path.read_text())
    assert data["format"] == "tarotsim-bidder" and data["version"] == 1 and data["hand_cards"] == 18
    assert data["features"] == list(HAND_FEATURES)
    assert load_bidder(path) == bidder


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="other"), "format"),
        (lambda d: d.update(version=2), "version"),
        (lambda d: d.update(players=6), "players"),
        (lambda d: d.update(hand_cards=24), "hand_cards"),
        (lambda d: d["features"].pop(), "features"),
        (lambda d: d["coefficients"].pop(CONTRACTS[2]), "one row per contract"),
        (lambda d: d["coefficients"][CONTRACTS[0]].update(excuse="x"), "finite number"),
    ],
)
def test_a_malformed_bidder_file_is_one_line(change, message) -> None:
    data = _bidder(dict.fromkeys(CONTRACTS, 0.0)).to_json()
    change(data)
    with pytest.raises(ValueError, match=message) as err:
        from_json(data)
    assert "\n" not in str(err.value)


def test_strategy_options_of_the_learned_bidder(tmp_path) -> None:
    path = tmp_path / "b.json"
    _bidder(dict.fromkeys(CONTRACTS, 0.0)).save(path)
    s = Strategy.parse(f"play=heuristic,bid=learned,bidder={path}")
    assert Strategy.parse(str(s)) == s
    block = s.block(4)
    assert block[P_BID_POLICY] == 1
    with pytest.raises(ValueError, match="needs bidder"):
        Strategy.parse("bid=learned")
    with pytest.raises(ValueError, match="needs bid=learned"):
        Strategy.parse(f"bidder={path}")
    with pytest.raises(ValueError, match="not found"):
        Strategy.parse(f"bid=learned,bidder={tmp_path / 'none.json'}")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(ValueError, match="not JSON"):
        Strategy.parse(f"bid=learned,bidder={tmp_path / 'bad.json'}")
    with pytest.raises(ValueError, match="fitted at 4 players"):
        s.check(5)


def test_learned_wish_takes_the_best_positive_prediction(tmp_path) -> None:
    path = tmp_path / "b.json"
    bidder = _bidder(dict(zip(CONTRACTS, (1.0, 2.0, -50.0, -60.0), strict=True)))
    bidder.save(path)
    cfg = tarotsim.RunConfig(bid_policy="learned", bidder=str(path)).to_array()
    assert cfg.shape == (N_CFG,) and cfg[seat_slot(2, P_BID_POLICY)] == 1
    w0, w1 = to_mask(parse_cards("T21 T1 T2 T3 T4 T5 EX KS QS KH CH JH 2D 3D 4D 5D 6D 7D".split()))
    # 21 held: prise 2.5, garde 3.5, garde sans -48.5, garde contre -58.5 → Garde
    assert learned_wish(w0, w1, cfg, 2) == 2
    predicted = bidder.predict(np.array([hand_features(w0, w1)]))
    assert np.argmax(predicted[0]) == 1
    w0, w1 = to_mask(parse_cards("T2 T3 T4 T5 T6 T7 T8 T9 KS QS KH CH JH 2D 3D 4D 5D 6D".split()))
    bidder = _bidder(dict.fromkeys(CONTRACTS, -1.0))
    bidder.save(path)
    cfg = tarotsim.RunConfig(bid_policy="learned", bidder=str(path)).to_array()
    assert learned_wish(w0, w1, cfg, 0) == 0  # no 21, every prediction negative: pass


def test_fit_bidder_and_a_deterministic_duel_with_it(sweep_dir, tmp_path) -> None:
    path = tmp_path / "bidder.json"
    assert main(["fit-bidder", sweep_dir, "--sample", str(SWEEP_DEALS), "--out", str(path)]) == 0
    bidder = load_bidder(path)
    assert bidder.source["deals"] == SWEEP_DEALS and bidder.players == 4
    assert bidder == fit_bidder(sweep_dir, sample=SWEEP_DEALS)
    learned = f"play=heuristic,ecart=expert,bid=learned,bidder={path}"
    one = tarotsim.duel(learned, "play=heuristic,ecart=expert", 800, seed=9, threads=1, progress=False)
    two = tarotsim.duel(learned, "play=heuristic,ecart=expert", 800, seed=9, threads=2, progress=False)
    pd.testing.assert_frame_equal(one.records, two.records)
    assert one.edge == two.edge and np.isfinite(one.low)


def test_cli_fit_count_writes_the_table_and_refuses_bad_input(sweep_dir, tmp_path, capsys) -> None:
    out = tmp_path / "count.csv"
    assert main(["fit-count", sweep_dir, "--sample", str(SWEEP_DEALS), "--out", str(out)]) == 0
    table = pd.read_csv(out)
    assert list(table.columns) == ["feature", "weight", "low", "high", "published", "verdict"]
    md = tmp_path / "count.md"
    assert (
        main(["fit-count", sweep_dir, "--contract", CONTRACTS[1], "--outcome", "made", "--out", str(md)]) == 0
    )
    assert "trump_21" in md.read_text()
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        main(["fit-count", sweep_dir, "--out", str(tmp_path / "x.txt")])
    assert exit_.value.code == 2
    sim = tmp_path / "sim"
    assert main(["simulate", "--deals", "1500", "--seed", "1", "--out", str(sim), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["fit-count", str(sim), "--out", str(tmp_path / "y.md")]) == 2
    err = capsys.readouterr().err
    assert "not a sweep" in err and err.count("\n") == 1
    assert main(["fit-bidder", str(sim), "--out", str(tmp_path / "b.json")]) == 2
    with pytest.raises(SystemExit):
        main(["fit-bidder", str(sim), "--out", str(tmp_path / "b.txt")])


def test_cli_runs_take_the_learned_bidder_and_refuse_it_without_its_file(tmp_path, capsys) -> None:
    path = tmp_path / "b.json"
    _bidder(dict.fromkeys(CONTRACTS, -1.0)).save(path)
    args = ["simulate", "--deals", "300", "--seed", "1", "--bid-policy", "learned", "--quiet"]
    assert main([*args, "--bidder", str(path)]) == 0
    for extra, message in (
        ([], "needs bidder=PATH"),
        (["--bidder", str(tmp_path / "none.json")], "not found"),
        (["--bidder", str(path), "--players", "5"], "fitted at 4 players"),
    ):
        capsys.readouterr()
        assert main([*args, *extra]) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1
