"""Analysis chunk by chunk: the same tables from a whole frame, a run of many chunks, small batches and Dask."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tarotsim import analysis
from tarotsim.analysis import loading, moments, reduction
from tarotsim.players.config import RunConfig
from tarotsim.report.summary import summarise_run
from tarotsim.runs.spec import RunSpec
from tarotsim.runs.store import execute

CONTRACTS = ("prise", "garde", "garde_sans", "garde_contre")
pytestmark = pytest.mark.usefixtures("recorded_runs")  # runs read from tests/fixtures, not played


def make_run(path: Path, **overrides: object) -> Path:
    spec = dict(kind="sweep", seed=3, deals=2400, config=RunConfig(policy="random"), chunk_deals=150,
                contracts=CONTRACTS, seat=0)  # fmt: skip
    spec.update(overrides)
    execute(path, RunSpec(**spec))  # type: ignore[arg-type]
    return path


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A sweep cut into 16 chunks (more than a merge holds at once, see ``small_batches``)."""
    return make_run(tmp_path_factory.mktemp("chunked") / "sweep")


@pytest.fixture(scope="module")
def whole(run_dir: Path) -> pd.DataFrame:
    return analysis.load_records(run_dir)


@pytest.fixture
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Batches of 250 rows, cutting the 600-row chunks between and inside deals, merged 3 at a time."""
    monkeypatch.setattr(loading, "BATCH_ROWS", 250)
    monkeypatch.setattr(reduction, "MERGE_EVERY", 3)


def tables(data: analysis.Data, other: analysis.Data) -> dict[str, pd.DataFrame]:
    """Every table of `tarotsim.analysis`, on records or a run directory."""
    return {
        "success": analysis.success_table(data),
        "success by bouts, garde sans": analysis.success_table(data, by="taker_bouts", contract="garde_sans"),
        "success by kings": analysis.success_table(data, by=("taker_kings", "taker_bouts")),
        "success by others' bid": analysis.success_table(data, by="others_bid"),
        "success by turn to speak": analysis.success_table(data, by="speaker_position"),
        "thresholds": analysis.thresholds(data, min_n=10),
        "first cells": analysis.thresholds(data, min_n=10, method="first"),
        "thresholds in hand points": analysis.thresholds(data, min_n=10, x="hand_points", by=()),
        "best": analysis.best_contract(data, min_n=10),
        "hand points": analysis.hand_points_table(data),
        "hand-point thresholds": analysis.hand_points_thresholds(data, 4, 10),
        "compare": analysis.compare(data, other),
    }


def test_a_run_of_many_chunks_gives_the_tables_of_its_whole_frame(run_dir, whole, small_batches, tmp_path):
    other = make_run(tmp_path / "heuristic", config=RunConfig(policy="heuristic"), chunk_deals=1000)
    from_frame = tables(whole, analysis.load_records(other))
    from_run = tables(run_dir, other)
    for name, expected in from_frame.items():
        # integer sums merge exactly: the same numbers to the last bit, whatever the chunks and batches
        pd.testing.assert_frame_equal(from_run[name], expected, check_exact=True, obj=name)
    assert from_frame["success"].attrs == from_run["success"].attrs
    assert from_frame["success"].attrs["thrown_in"] == int((whole["thrown_in"] != "none").sum())
    assert analysis.same_play_as(run_dir) == analysis.same_play_as(whole) == {"garde": "prise"}


def test_the_tables_equal_pandas_on_the_whole_frame(whole):
    """What the tables held when they were computed in memory with pandas, recomputed here."""
    played = whole[whole["thrown_in"] == "none"].assign(contract=lambda d: d["contract"].astype(str))
    table = analysis.success_table(whole).set_index(["contract", "taker_bouts", "taker_trumps"])
    grouped = played.groupby(["contract", "taker_bouts", "taker_trumps"])
    expected = pd.DataFrame(
        {
            "n": grouped.size(),
            "made": grouped["made"].sum().astype(np.int64),
            "mean_score": grouped["taker_score"].mean(),
            "score_se": grouped["taker_score"].std() / np.sqrt(grouped.size()),
        }
    ).loc[table.index]
    assert (table["n"] == expected["n"]).all() and (table["made"] == expected["made"]).all()
    assert (table["rate"] == expected["made"] / expected["n"]).all()
    # a mean of whole numbers is the exact sum over n, correctly rounded: equal to the last digit
    assert (table["mean_score"] == expected["mean_score"]).all()
    # pandas' standard deviation accumulates rounding; the exact one may differ in the last digits
    np.testing.assert_allclose(table["score_se"], expected["score_se"], rtol=1e-12)

    best = analysis.best_contract(whole, min_n=10).set_index(["taker_bouts", "taker_trumps"])
    wide = played.pivot(index="deal", columns="contract", values="taker_score")
    shape = played.groupby("deal")[["taker_bouts", "taker_trumps"]].first()
    for (bouts, trumps), row in best.iterrows():
        deals = wide[(shape["taker_bouts"] == bouts) & (shape["taker_trumps"] == trumps)]
        assert row["n"] == len(deals)
        assert row["score_garde_sans"] == deals["garde_sans"].mean()
        if row["runner_up"] is not None and row["best"] != "pass" and row["runner_up"] != "pass":
            diff = (deals[row["best"]] - deals[row["runner_up"]]).to_numpy(dtype=float)
            assert row["diff"] == diff.mean()
            if len(diff) > 1:
                half = analysis.Z95 * diff.std(ddof=1) / math.sqrt(len(diff))
                assert row["diff_high"] == pytest.approx(diff.mean() + half, rel=1e-12, abs=1e-12)


def nullable(df: pd.DataFrame) -> pd.DataFrame:
    """The records with result fields as nullable columns, missing where the deal was thrown in."""
    out = df.copy()
    thrown = out["thrown_in"] != "none"
    for column, dtype in (("taker", "Int16"), ("made", "boolean"), ("margin", "Int32"), ("taker_score", "Int32"),
                          ("attack_points", "Float64"), ("attack_bouts", "Int16"), ("poignees", "Int16"),
                          ("chelem_announced", "boolean")):  # fmt: skip
        out[column] = out[column].astype(dtype).mask(thrown)
    return out


def test_nullable_result_fields_give_the_same_tables(whole, tmp_path):
    other = make_run(tmp_path / "again", chunk_deals=800)
    plain = tables(whole, analysis.load_records(other))
    with_nulls = tables(nullable(whole), nullable(analysis.load_records(other)))
    for name, expected in plain.items():
        pd.testing.assert_frame_equal(with_nulls[name], expected, check_exact=True, obj=name)


def test_compare_pairs_runs_cut_into_different_chunks(run_dir, whole, small_batches, tmp_path):
    other = make_run(tmp_path / "other", chunk_deals=333)
    assert analysis.compare(run_dir, other).equals(analysis.compare(whole, analysis.load_records(other)))
    shorter = make_run(tmp_path / "shorter", deals=2000)
    # run directories: their manifests say they are not of the same deals, before any chunk is read
    with pytest.raises(ValueError, match=r"not of the same deals \(deals 2400 against 2000\)"):
        analysis.compare(run_dir, shorter)
    reseeded = make_run(tmp_path / "reseeded", seed=4, chunk_deals=2400)
    with pytest.raises(ValueError, match=r"not of the same deals \(seed 3 against 4\)"):
        analysis.compare(run_dir, reseeded, client="tcp://127.0.0.1:1")  # refused before connecting
    # records: the deals themselves are checked
    with pytest.raises(
        ValueError, match=r"1600 played \(deal, contract\) rows of run_a are missing from run_b"
    ):
        analysis.compare(whole, analysis.load_records(shorter))
    # the same deals, but not every contract: rows are missing
    fewer = make_run(tmp_path / "fewer", contracts=CONTRACTS[:3], chunk_deals=500)
    lost = int(((whole["contract"] == "garde_contre") & (whole["thrown_in"] == "none")).sum())
    with pytest.raises(ValueError, match=rf"{lost} played .* of run_a are missing from run_b and 0 "):
        analysis.compare(run_dir, fewer)


def test_batches_hold_whole_deals_in_order(run_dir, whole, small_batches, tmp_path):
    batches = [b for source in loading.chunk_sources(run_dir) for b in loading.read_batches(source, ["deal"])]
    assert len(batches) > 16
    deals = [b["deal"].to_numpy() for b in batches]
    assert all(a[-1] < b[0] for a, b in zip(deals, deals[1:], strict=False))
    pd.testing.assert_frame_equal(pd.concat(batches, ignore_index=True), whole[["deal"]])
    shuffled = tmp_path / "shuffled.parquet"
    pq.write_table(pa.Table.from_pandas(whole.iloc[::-1], preserve_index=False), shuffled)
    with pytest.raises(ValueError, match="shuffled.parquet is not in deal order"):
        list(loading.read_batches(shuffled))


def test_a_damaged_chunk_is_a_one_line_error(tmp_path):
    run = make_run(tmp_path / "damaged", deals=600, chunk_deals=300)
    chunk = sorted((run / "chunks").glob("*.parquet"))[1]
    data = chunk.read_bytes()
    repair = r"; repeat `tarotsim sweep --out .*damaged --deals 600 .*` to make it again$"
    chunk.write_bytes(data[:-100])  # cut short: its footer is lost
    with pytest.raises(ValueError, match=r"chunk chunks/chunk-00001.parquet of run .* is \d+ bytes where the "
                       r"manifest says \d+ \(truncated or altered\)" + repair):  # fmt: skip
        analysis.success_table(run)
    chunk.write_bytes(b"not parquet".ljust(len(data), b"\0"))  # the same size, other bytes
    with pytest.raises(ValueError, match=r"chunk chunks/chunk-00001.parquet of run .* does not match its "
                       r"checksum in the manifest \(altered\)" + repair):  # fmt: skip
        analysis.compare(run, run)


def test_the_report_reads_the_run_once_and_equals_the_tables(run_dir, whole, small_batches):
    summary = summarise_run(run_dir, 10)
    pd.testing.assert_frame_equal(summary.success, analysis.success_table(whole), check_exact=True)
    pd.testing.assert_frame_equal(summary.best, analysis.best_contract(whole, min_n=10), check_exact=True)
    pd.testing.assert_frame_equal(
        summary.hand_points, analysis.hand_points_table(whole, None, 10), check_exact=True
    )
    pd.testing.assert_frame_equal(summary.fitted, analysis.thresholds(whole, min_n=10), check_exact=True)
    # the auction tables, as the report made them from the whole frame before it read chunks
    played = whole[whole["thrown_in"] == "none"]
    for table, key in ((summary.by_others_bid, "others_bid"), (summary.by_position, "speaker_position")):
        pd.testing.assert_frame_equal(table, analysis.success_table(played, by=key), check_exact=True)
    first = played[played["contract"] == played["contract"].iloc[0]]
    share = (first["others_bid"] == "pass").groupby(first["speaker_position"]).mean()
    assert summary.uncontested is not None and len(summary.uncontested) == len(share) > 1
    assert (summary.uncontested.to_numpy() == share.to_numpy()).all()
    assert (summary.uncontested.index.to_numpy() == share.index.to_numpy()).all()
    assert summary.counts["played_deals"] == played["deal"].nunique()
    assert summary.counts["rows"] == len(whole)
    scores = summary.scores.groupby("contract")["n"].sum()
    assert scores.to_dict() == played["contract"].astype(str).value_counts().to_dict()


def test_threshold_tables_equal_their_functions_from_one_pass(run_dir, whole, tmp_path):
    tables = analysis.threshold_tables(run_dir, 0.5, 10)
    pd.testing.assert_frame_equal(tables.thresholds, analysis.thresholds(whole, 0.5, 10), check_exact=True)
    pd.testing.assert_frame_equal(tables.best, analysis.best_contract(whole, min_n=10), check_exact=True)
    pd.testing.assert_frame_equal(
        tables.hand_points, analysis.hand_points_thresholds(whole, None, 10), check_exact=True
    )
    assert tables.not_compared == ""
    simulate = tmp_path / "simulate"
    execute(
        simulate,
        RunSpec(kind="simulate", seed=4, deals=3000, config=RunConfig(policy="random"), chunk_deals=1000),
    )
    tables = analysis.threshold_tables(simulate, 0.5, 10)
    assert tables.best is None and tables.hand_points is None and "sweep records" in tables.not_compared
    pd.testing.assert_frame_equal(tables.thresholds, analysis.thresholds(simulate, 0.5, 10), check_exact=True)
    with pytest.raises(ValueError, match="min_rate"):
        analysis.threshold_tables(run_dir, 1.5)


@pytest.mark.parametrize(
    "keys",
    [["taker_bouts", "taker_trumps"], ["petit_au_bout", "chelem"], ["attack_points"], ["made", "contract"]],
)
@pytest.mark.parametrize("dropna", [True, False])
def test_cell_codes_number_the_cells_as_a_sorted_groupby(whole, keys, dropna):
    cell, cells = moments.cell_codes([(k, whole[k]) for k in keys], dropna=dropna)
    grouped = whole.groupby(keys, sort=True, observed=True, dropna=dropna)
    pd.testing.assert_frame_equal(cells.to_frame(index=False), grouped.size().index.to_frame(index=False))
    expected = grouped.ngroup().to_numpy(dtype=float)
    np.testing.assert_array_equal(cell, np.where(np.isnan(expected), -1, expected).astype(np.int64))


def test_exact_sums_and_variances_of_large_whole_numbers():
    rng = np.random.default_rng(1)
    values = rng.integers(-(2**30), 2**30, 5000)
    cells = rng.integers(0, 7, 5000)
    sums = moments.exact_bincount(cells, values, 7)
    squares = moments.exact_bincount(cells, values * values, 7)
    assert sums.dtype == np.int64
    for c in range(7):
        mine = [int(v) for v in values[cells == c]]
        assert sums[c] == sum(mine) and squares[c] == sum(v * v for v in mine)
    n = np.bincount(cells, minlength=7)
    variance = moments.exact_variances(n, sums, squares)
    for c in range(7):
        mine = [int(v) for v in values[cells == c]]
        mean = Fraction(sum(mine), len(mine))
        # the exact variance, rounded once
        assert variance[c] == float(sum((v - mean) ** 2 for v in mine) / (len(mine) - 1))
    assert math.isnan(moments.exact_variances(np.array([1]), np.array([5]), np.array([25]))[0])
    assert moments.exact_means(np.array([7, 0]), np.array([3, 0]))[0] == 7 / 3


def test_dask_workers_reduce_the_chunks_to_the_same_tables(run_dir, tmp_path):
    distributed = pytest.importorskip("distributed")
    expected = analysis.success_table(run_dir)
    other = make_run(tmp_path / "other", config=RunConfig(policy="heuristic"), chunk_deals=333)
    fewer = make_run(tmp_path / "fewer", contracts=CONTRACTS[:3], chunk_deals=500)
    played = analysis.load_records(run_dir).query("thrown_in == 'none'")
    lost = int((played["contract"] == "garde_contre").sum())
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as cluster:
        with distributed.Client(cluster) as client:
            pd.testing.assert_frame_equal(
                analysis.success_table(run_dir, client=client), expected, check_exact=True
            )
            summary = summarise_run(run_dir, 10, client=client)
            local = summarise_run(run_dir, 10)
            for field in (
                "success",
                "best",
                "hand_points",
                "scores",
                "ends",
                "events",
                "by_others_bid",
                "by_position",
            ):
                pd.testing.assert_frame_equal(
                    getattr(summary, field), getattr(local, field), check_exact=True
                )
            for scale, table in local.points.items():
                pd.testing.assert_frame_equal(summary.points[scale], table, check_exact=True)
            # two runs cut into different chunks, paired range by range on the workers
            pd.testing.assert_frame_equal(
                analysis.compare(run_dir, other, client=client),
                analysis.compare(run_dir, other),
                check_exact=True,
            )
            with pytest.raises(ValueError, match=rf"{lost} played .* of run_a are missing from run_b and 0 "):
                analysis.compare(run_dir, fewer, client=client)
        # a scheduler address: a client is opened for the call and closed after it
        by_address = analysis.hand_points_thresholds(run_dir, 4, 10, client=cluster.scheduler_address)
        pd.testing.assert_frame_equal(
            by_address, analysis.hand_points_thresholds(run_dir, 4, 10), check_exact=True
        )
    with pytest.raises(ValueError, match="scheduler address"):
        analysis.success_table(run_dir, client=" ")
