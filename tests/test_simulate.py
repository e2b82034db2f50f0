"""Whole simulated deals: invariants, agreement with the reference, determinism, dealing laws."""

import json
import math
import os
import subprocess
import sys

import numba
import numpy as np
import pandas as pd
import pytest

import tarotsim
from tarotsim.base.seeding import run_key
from tarotsim.engine.kernels.deal import deal_pack, shuffle_pack
from tarotsim.engine.kernels.rng import seed_stream
from tarotsim.runs.trace import trace_records
from tests import reference as ref

N_CHECKED = 5_000


@pytest.fixture(scope="module")
def traces():
    return trace_records(N_CHECKED, 99)


@pytest.fixture(scope="module")
def frame():
    return tarotsim.simulate(N_CHECKED, seed=99)


def test_every_traced_deal_passes_the_reference(traces):
    # check_trace re-derives legality of every card, each card played once, trick winners,
    # the Excuse, 91 points, bouts, petit au bout, poignées, chelem and the scores
    for trace in traces:
        ref.check_trace(trace)
    played = [t for t in traces if t["thrown_in"] is None]
    assert len(played) > N_CHECKED // 2
    assert {t["contract"] for t in played} >= {"prise", "garde"}
    assert any(t["poignees"] for t in played)
    assert any(t["petit_au_bout"] for t in played)
    assert any(t["thrown_in"] == "petit_sec" for t in traces)


def test_records_equal_the_traces(frame, traces):
    for trace, row in zip(traces, frame.itertuples(index=False), strict=True):
        assert row.deal == trace["deal"] and row.dealer == trace["dealer"]
        assert row.thrown_in == (trace["thrown_in"] or "none")
        assert [getattr(row, f"score_{s}") for s in range(4)] == trace["scores"]
        if trace["thrown_in"] is None:
            assert (row.taker, row.contract) == (trace["taker"], trace["contract"])
            assert (row.attack_points, row.attack_bouts, row.made, row.margin) == (
                trace["attack_points"],
                trace["attack_bouts"],
                trace["made"],
                trace["margin"],
            )
            hand = trace["hands"][trace["taker"]]
            assert row.taker_trumps == sum(ref.is_trump(c) for c in hand)
            assert row.taker_bouts == sum(ref.is_bout(c) for c in hand)


def test_record_invariants(frame):
    scores = frame[[f"score_{s}" for s in range(4)]].to_numpy()
    assert (scores.sum(axis=1) == 0).all()
    played = frame[frame.thrown_in == "none"]
    thrown = frame[frame.thrown_in != "none"]
    assert (thrown[[f"score_{s}" for s in range(4)]].to_numpy() == 0).all()
    assert played.attack_points.between(0, 91).all()
    assert ((played.attack_points * 2) % 1 == 0).all()
    targets = played.attack_bouts.map({0: 56, 1: 51, 2: 41, 3: 36})
    assert (played.made == (played.attack_points >= targets)).all()
    assert (played.taker_score == 3 * played.per_defender).all()
    assert (frame.dealer == frame.deal % 4).all()
    assert set(frame.contract.dropna().unique()) <= {"prise", "garde", "garde_sans", "garde_contre"}


def test_same_seed_same_records_with_one_and_two_threads():
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("needs two threads")
    one = tarotsim.simulate(5000, seed=3, threads=1)
    two = tarotsim.simulate(5000, seed=3, threads=2)
    pd.testing.assert_frame_equal(one, two)
    other = tarotsim.simulate(5000, seed=4, threads=2)
    assert not one.equals(other)


@pytest.mark.usefixtures("compiled_game")  # the processes it starts load the compiled game
@pytest.mark.parametrize("threads", ["1", "2"])
def test_numba_num_threads_env_gives_identical_records(threads, tmp_path):
    code = "import sys, tarotsim; df = tarotsim.simulate(3000, seed=12); df.to_csv(sys.argv[1], index=False)"
    out = tmp_path / f"t{threads}.csv"
    env = {**os.environ, "NUMBA_NUM_THREADS": threads}
    subprocess.run([sys.executable, "-c", code, str(out)], check=True, env=env)
    reference_csv = tmp_path / "inproc.csv"
    tarotsim.simulate(3000, seed=12).to_csv(reference_csv, index=False)
    assert out.read_bytes() == reference_csv.read_bytes()


def test_seed_is_recorded_and_generators_are_accepted():
    df = tarotsim.simulate(10, seed=np.random.default_rng(5))
    again = tarotsim.simulate(10, seed=df.attrs["seed"])
    pd.testing.assert_frame_equal(df, again)
    assert tarotsim.simulate(0, seed=1).empty


def _dealt_hands(deals, seed):
    key = run_key(seed)
    state = np.zeros(4, dtype=np.uint64)
    pack = np.zeros(78, dtype=np.int64)
    hands = np.zeros((5, 2), dtype=np.uint64)
    chien = np.zeros(2, dtype=np.uint64)
    for deal in range(deals):
        seed_stream(state, key, deal)
        shuffle_pack(state, pack)
        deal_pack(pack, hands, chien, 4, 18)
        yield hands, chien


def _chi_square_p_value_upper(stat: float, dof: int) -> float:
    """Upper tail of the chi-square law (Wilson-Hilferty normal approximation)."""
    z = ((stat / dof) ** (1 / 3) - (1 - 2 / (9 * dof))) / math.sqrt(2 / (9 * dof))
    return 0.5 * math.erfc(z / math.sqrt(2))


def test_trump_length_of_a_seat_follows_the_hypergeometric_law():
    deals = 100_000
    counts = np.zeros(22, dtype=np.int64)
    petit_sec = 0
    for hands, _ in _dealt_hands(deals, 2024):
        counts[bin(int(hands[0, 1]) & ((1 << 21) - 1)).count("1")] += 1
        petit_sec += any((int(hands[s, 1]) & ((1 << 22) - 1)) == 1 for s in range(4))
    law = np.array(
        [math.comb(21, k) * math.comb(57, 18 - k) / math.comb(78, 18) if k <= 18 else 0.0 for k in range(22)]
    )
    expected = law * deals
    keep = expected >= 5
    observed = np.append(counts[keep], counts[~keep].sum())
    expect = np.append(expected[keep], expected[~keep].sum())
    stat = float(((observed - expect) ** 2 / expect).sum())
    assert _chi_square_p_value_upper(stat, len(observed) - 1) > 1e-3, (stat, observed, expect)
    # petit sec: one seat holds the Petit with 17 suit cards (only one seat can hold it)
    p = 4 * math.comb(56, 17) / math.comb(78, 18)
    assert abs(petit_sec - p * deals) < 4.5 * math.sqrt(deals * p * (1 - p))


def test_the_chien_and_hands_are_disjoint_and_complete():
    for hands, chien in _dealt_hands(200, 1):
        words0 = [int(hands[s, 0]) for s in range(4)] + [int(chien[0])]
        words1 = [int(hands[s, 1]) for s in range(4)] + [int(chien[1])]
        assert sum(bin(w).count("1") for w in words0 + words1) == 78
        assert np.bitwise_or.reduce(words0) == (1 << 56) - 1
        assert np.bitwise_or.reduce(words1) == (1 << 22) - 1


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        (dict(deals=-5, seed=1), ValueError, "at least 0"),
        (dict(deals=10, seed=1, players=6), ValueError, "3, 4 or 5"),
        (dict(deals=10, seed=1, policy="clever"), ValueError, "valid names: .*random"),
        (dict(deals=10, seed="x"), TypeError, "seed"),
        (dict(deals=10, seed=-1), ValueError, "seed"),
        (dict(deals=10.5, seed=1), TypeError, "whole number"),
        (dict(deals=10, seed=1, threads=0), ValueError, "threads"),
    ],
)
def test_bad_input_is_explained(kwargs, error, message):
    deals = kwargs.pop("deals")
    with pytest.raises(error, match=message):
        tarotsim.simulate(deals, **kwargs)


def test_trace_is_json_and_byte_identical(tmp_path):
    from tarotsim.cli import main

    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert main(["trace", "--deals", "30", "--seed", "8", "--out", str(a)]) == 0
    assert main(["trace", "--deals", "30", "--seed", "8", "--out", str(b)]) == 0
    assert a.read_bytes() == b.read_bytes()
    lines = a.read_text().splitlines()
    assert len(lines) == 30
    first = json.loads(lines[0])
    assert list(first) == list(ref.TRACE_KEYS)
    for line in lines:
        ref.check_trace(json.loads(line))
