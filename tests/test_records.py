"""Records without fake values: every column of the registry is either a real value or a null."""

import numpy as np
import pandas as pd
import pytest

from tarotsim.base.seeding import run_key
from tarotsim.engine.cards import N_CARDS, format_card, is_bout, is_trump, parse_cards
from tarotsim.engine.records import COLUMNS, HAND, NO_PARTNER, NO_SIDE, THROWN, frame_columns
from tarotsim.players.config import RunConfig
from tarotsim.runs.simulate import simulate, sweep
from tarotsim.runs.trace import iter_traces

RUNS = {
    "random-3p": lambda: simulate(1500, seed=11, players=3),
    "random-4p": lambda: simulate(3000, seed=11),
    "heuristic-5p": lambda: simulate(1500, seed=11, players=5, policy="heuristic"),
    "sweep-4p": lambda: sweep(
        2500, seed=11, contracts="prise,garde_contre", policy="random", ecart_policy="simple"
    ),
    "sweep-5p": lambda: sweep(
        2500, seed=11, players=5, seat=3, contracts="garde", policy="random", ecart_policy="simple"
    ),
    "forced-4p": lambda: simulate(2500, seed=11, forced_taker=1, forced_contract="garde"),
}
_frames: dict[str, pd.DataFrame] = {}


def records(name: str) -> pd.DataFrame:
    if name not in _frames:
        _frames[name] = RUNS[name]()
    return _frames[name]


def test_a_column_that_can_be_null_has_a_nullable_dtype_and_says_when():
    for column in COLUMNS:
        dtype = pd.api.types.pandas_dtype(column.dtype)
        masked = dtype.name in ("Int16", "Int32", "Float64", "boolean")
        assert column.missing in (None, THROWN, HAND, NO_PARTNER, NO_SIDE), column.name
        if column.missing is not None:
            assert masked or isinstance(dtype, pd.CategoricalDtype), column.name
        else:
            assert not masked, column.name


@pytest.mark.parametrize("name", sorted(RUNS))
def test_every_documented_column_holds_a_real_value_or_a_null(name):
    df = records(name)
    players = df.attrs["config"]["players"]
    knows_hand = name.startswith(("sweep", "forced"))
    thrown = (df["thrown_in"] != "none").to_numpy()
    assert thrown.any() and not thrown.all(), "the run should hold played and thrown-in deals"
    for column_name, column, _ in frame_columns(players):
        values = df[column_name]
        null = values.isna().to_numpy()
        if column.missing is None:
            assert not null.any(), column_name
        elif column.missing == THROWN:
            assert (null == thrown).all(), column_name
        elif column.missing == HAND:
            assert (null == (thrown & (not knows_hand))).all(), column_name
        elif column.missing == NO_PARTNER:
            assert (null == (thrown | df["taker_alone"].fillna(True).to_numpy(dtype=bool))).all(), column_name
        else:
            assert null[thrown].all(), column_name
        present = values[~null]
        if column.unit == "seat":  # no -1 for "nobody"
            assert present.between(0, players - 1).all(), column_name
        if column.unit == "card id":
            assert present.between(0, N_CARDS - 1).all(), column_name


@pytest.mark.parametrize("name", ["random-4p", "heuristic-5p"])
def test_thrown_in_deals_leave_no_zero_in_the_hand_and_result_columns(name):
    df = records(name)
    played = df[df["thrown_in"] == "none"]
    by_hand = df.groupby("taker_bouts")["made"].mean()  # what a user would write first
    assert np.allclose(
        by_hand.to_numpy(dtype=float), played.groupby("taker_bouts")["made"].mean().to_numpy(dtype=float)
    )
    assert df["taker_score"].mean() == pytest.approx(played["taker_score"].astype(float).mean())
    for seat in range(df.attrs["config"]["players"]):  # a thrown-in deal scores nothing: a real zero
        assert (df.loc[df["thrown_in"] != "none", f"score_{seat}"] == 0).all()


def test_five_players_taker_alone_is_not_thrown_in():
    df = records("heuristic-5p")
    played = df[df["thrown_in"] == "none"]
    alone = played["taker_alone"].to_numpy(dtype=bool)
    assert alone.any() and not alone.all()
    assert played.loc[alone, "partner"].isna().all() and played.loc[~alone, "partner"].notna().all()
    assert (played.loc[~alone, "partner"] != played.loc[~alone, "taker"]).all()
    assert df.loc[df["thrown_in"] != "none", "taker_alone"].isna().all()


@pytest.mark.parametrize(("name", "seat", "players"), [("sweep-4p", 0, 4), ("sweep-5p", 3, 5)])
def test_a_sweep_records_the_dealt_hand_of_its_seat_on_thrown_in_deals(name, seat, players):
    df = records(name)
    thrown = df[df["thrown_in"] != "none"]
    assert len(thrown) and (thrown["thrown_in"] == "petit_sec").all()
    traces = {
        t["deal"]: t
        for t in iter_traces(int(thrown["deal"].max()) + 1, run_key(11), RunConfig(players=players))
    }
    for row in thrown.itertuples():
        hand = parse_cards(traces[row.deal]["hands"][seat])
        assert row.taker_trumps == sum(is_trump(c) for c in hand)
        assert row.taker_bouts == sum(is_bout(c) for c in hand)
        assert row.taker_kings == sum(format_card(c).startswith("K") for c in hand)


def test_simulate_and_run_directory_records_keep_the_nulls(tmp_path):
    from tarotsim.analysis import load_records
    from tarotsim.runs.spec import RunSpec
    from tarotsim.runs.store import execute

    execute(
        tmp_path / "run", RunSpec(kind="simulate", seed=11, deals=3000, config=RunConfig(), chunk_deals=1000)
    )
    pd.testing.assert_frame_equal(load_records(tmp_path / "run"), records("random-4p"), check_like=False)
