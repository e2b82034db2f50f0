"""Duplicate duels: same cards every rotation, zero edge for equal strategies, one result whatever the threads."""

from __future__ import annotations

import numba
import numpy as np
import pandas as pd
import pytest

import tarotsim
from tarotsim.analysis.duel import duel_stats
from tarotsim.cli import main
from tarotsim.contests.duel import DuelResult, duel, duel_spec
from tarotsim.players.config import RunConfig
from tarotsim.players.strategy import Strategy
from tarotsim.runs.spec import RunSpec
from tarotsim.runs.store import load_records

HEURISTIC = "play=heuristic"  # with the expert écart, the default


def per_deal_edges(result: DuelResult) -> np.ndarray:
    records = result.records
    scores = records[[f"score_{s}" for s in range(result.players)]].to_numpy()
    a_score = scores[np.arange(len(records)), records["a_seat"].to_numpy()]
    return a_score.reshape(-1, result.players).mean(axis=1)


@pytest.mark.parametrize(
    ("players", "strategy"),
    [(3, HEURISTIC), (4, "play=random"), (5, "play=greedy,bid_thresholds=30/45/60/70")],
)
def test_a_strategy_against_itself_has_an_edge_of_exactly_zero_on_every_deal(
    players: int, strategy: str
) -> None:
    result = duel(strategy, strategy, 600, seed=players, players=players)
    assert result.n == 600 and len(result.records) == 600 * players
    assert (per_deal_edges(result) == 0).all()
    assert result.edge == result.low == result.high == 0.0
    roles = result.by_role.set_index("role")
    assert (roles.a_mean == roles.b_mean).all() and (roles.a_rate == roles.b_rate).all()
    assert np.abs(roles[["a_minus_b", "a_minus_b_low", "a_minus_b_high"]].to_numpy()).max() < 1e-9
    # every rotation is the same game: the same cards and the same random stream
    first = result.records[result.records.a_seat == 0].drop(columns=["a_seat"]).reset_index(drop=True)
    for seat in range(1, players):
        other = result.records[result.records.a_seat == seat].drop(columns=["a_seat"]).reset_index(drop=True)
        pd.testing.assert_frame_equal(other, first)


def test_every_rotation_is_dealt_the_same_cards() -> None:
    result = duel(HEURISTIC, "play=random", 2000, seed=7)
    by_deal = result.records.groupby("deal")
    # a petit sec is in the cards, whoever plays them: a whole deal is thrown in for it or none is
    petit_sec = by_deal["thrown_in"].agg(lambda s: (s == "petit_sec").sum())
    assert set(petit_sec.unique()) == {0, 4}
    assert (by_deal["dealer"].nunique() == 1).all()
    assert list(result.records.a_seat[:8]) == [0, 1, 2, 3, 0, 1, 2, 3]
    a_labels = [result.records.loc[i, f"strategy_{i % 4}"] for i in range(8)]
    assert a_labels == [HEURISTIC] * 8
    assert (result.records.strategy_1.iloc[[0, 2, 3]] == "play=random").all()


def test_the_edge_its_interval_and_the_breakdowns() -> None:
    result = duel(HEURISTIC, "play=random", 3000, seed=11, players=5)
    edges = per_deal_edges(result)
    assert result.edge == pytest.approx(edges.mean())
    half = 1.959963984540054 * edges.std(ddof=1) / np.sqrt(len(edges))
    assert (result.low, result.high) == pytest.approx((edges.mean() - half, edges.mean() + half))
    roles = result.by_role.set_index("role")
    assert list(roles.index) == ["taker", "partner", "defender", "thrown_in"]
    assert roles.a_rate.sum() == pytest.approx(1.0) and roles.b_rate.sum() == pytest.approx(1.0)
    assert roles.a_n.sum() == 3000 * 5 and roles.b_n.sum() == 3000 * 5 * 4
    records = result.records
    a_takes = records[records.taker == records.a_seat]
    assert roles.loc["taker", "a_n"] == len(a_takes)
    assert roles.loc["taker", "a_mean"] == pytest.approx(a_takes.taker_score.mean())
    b_takes = records[(records.taker >= 0) & (records.taker != records.a_seat)]
    assert roles.loc["taker", "b_mean"] == pytest.approx(b_takes.taker_score.mean())
    assert roles.loc["taker", "a_minus_b"] == pytest.approx(
        roles.loc["taker", "a_mean"] - roles.loc["taker", "b_mean"]
    )
    assert roles.loc["thrown_in", "a_mean"] == 0 == roles.loc["thrown_in", "b_mean"]
    assert result.by_contract.a_n.sum() == roles.loc["taker", "a_n"]
    assert result.by_contract.b_n.sum() == roles.loc["taker", "b_n"] == len(b_takes)
    made = a_takes.groupby("contract", observed=True).made.mean()
    assert result.by_contract.set_index("contract").a_made.loc[made.index].to_numpy() == pytest.approx(
        made.to_numpy()
    )
    # a good player beats random play: as taker it scores more than random takers against it
    assert result.low > 0
    assert roles.loc["taker", "a_minus_b_low"] > 0
    assert roles.loc["taker", "a_low"] < roles.loc["taker", "a_mean"] < roles.loc["taker", "a_high"]


def test_same_seed_same_result_with_one_and_two_threads() -> None:
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("needs two threads")
    one = duel(HEURISTIC, "play=greedy", 2500, seed=3, threads=1)
    two = duel(HEURISTIC, "play=greedy", 2500, seed=3, threads=2)
    pd.testing.assert_frame_equal(one.records, two.records)
    assert (one.edge, one.low, one.high) == (two.edge, two.low, two.high)
    pd.testing.assert_frame_equal(one.by_role, two.by_role)
    assert duel(HEURISTIC, "play=greedy", 2500, seed=4).edge != one.edge


def test_a_run_directory_holds_the_same_duel_and_resumes(tmp_path) -> None:
    memory = duel(HEURISTIC, "play=random", 900, seed=5)
    out = tmp_path / "duel"
    on_disk = duel(HEURISTIC, "play=random", 900, seed=5, out=out, chunk_deals=200, threads=1)
    pd.testing.assert_frame_equal(on_disk.records, memory.records)
    assert (on_disk.edge, on_disk.low, on_disk.high) == (memory.edge, memory.low, memory.high)
    (out / "chunks" / "chunk-00002.parquet").unlink()  # an interrupted duel
    resumed = duel(HEURISTIC, "play=random", 900, seed=5, out=out, chunk_deals=200)
    pd.testing.assert_frame_equal(resumed.records, memory.records)
    with pytest.raises(
        ValueError, match="holds another run \\(strategy B play=random there, play=greedy here\\)"
    ):
        duel(HEURISTIC, "play=greedy", 900, seed=5, out=out, chunk_deals=200)
    from tarotsim.runs.store import execute

    execute(tmp_path / "sim", RunSpec(kind="simulate", seed=1, deals=10, config=RunConfig()))
    with pytest.raises(ValueError, match="holds a simulate run, not a duel"):
        DuelResult.from_run(tmp_path / "sim")


def test_a_duel_chunk_made_by_a_dask_task_equals_the_local_one(tmp_path) -> None:
    pytest.importorskip("distributed")
    from tarotsim.runs.distributed import make_chunk

    spec = duel_spec("play=heuristic,name=H", "play=greedy", 600, seed=2, players=5, chunk_deals=200)
    result = make_chunk(spec.identity(), 1, None)
    pd.testing.assert_frame_equal(result["frame"], spec.compute_chunk(1))
    assert RunSpec.from_identity(spec.identity()) == spec


def test_a_duel_on_a_local_dask_cluster_equals_the_local_duel(tmp_path) -> None:
    pytest.importorskip("distributed")
    local = duel(
        "play=heuristic", "play=greedy", 900, seed=6, players=3, out=tmp_path / "local", chunk_deals=300
    )
    dask = duel(
        "play=heuristic",
        "play=greedy",
        900,
        seed=6,
        players=3,
        out=tmp_path / "dask",
        chunk_deals=300,
        workers=2,
        write_on="client",
    )
    pd.testing.assert_frame_equal(dask.records, local.records)
    assert (dask.edge, dask.low, dask.high) == (local.edge, local.low, local.high)
    with pytest.raises(ValueError, match="threads is for local duels"):
        duel("play=heuristic", "play=greedy", 900, seed=6, out=tmp_path / "x", workers=2, threads=1)


def test_bad_duels_are_explained() -> None:
    with pytest.raises(ValueError, match="deals must be at least 1, got 0"):
        duel("play=heuristic", "play=random", 0, seed=1)
    with pytest.raises(ValueError, match="strategy B: unknown play policy 'randm'"):
        duel("play=heuristic", "play=randm", 10, seed=1)
    with pytest.raises(ValueError, match=r"strategy A \(.*\): draw_trumps_min=18 cannot be met at 5 players"):
        duel("play=heuristic,draw_trumps_min=18", "play=random", 10, seed=1, players=5)
    with pytest.raises(ValueError, match="players must be 3, 4 or 5, got 6"):
        duel("play=heuristic", "play=random", 10, seed=1, players=6)
    with pytest.raises(ValueError, match="share the label 'x'"):
        duel("play=heuristic,name=x", "play=random,name=x", 10, seed=1)
    with pytest.raises(ValueError, match="needs out"):
        duel("play=heuristic", "play=random", 10, seed=1, workers=2)
    with pytest.raises(ValueError, match="needs shuffled dealing"):
        RunSpec(
            kind="duel",
            seed=1,
            deals=10,
            config=RunConfig(dealing="unshuffled"),
            duel=(Strategy(), Strategy()),
        )
    with pytest.raises(ValueError, match="gives the table size alone"):
        RunSpec(
            kind="duel", seed=1, deals=10, config=RunConfig(policy="random"), duel=(Strategy(), Strategy())
        )
    with pytest.raises(ValueError, match="two strategies"):
        RunSpec(kind="duel", seed=1, deals=10, config=RunConfig(), duel=(Strategy(),))


def test_duel_stats_refuse_records_that_are_not_a_duel() -> None:
    frame = tarotsim.simulate(10, seed=1)
    with pytest.raises(ValueError, match="'a_seat'"):
        duel_stats(frame, 4)
    records = duel("play=random", "play=random", 10, seed=1).records
    with pytest.raises(ValueError, match="once with A in each of the 4 seats"):
        duel_stats(records.assign(a_seat=0), 4)
    shuffled = records.sample(frac=1.0, random_state=1)
    assert duel_stats(shuffled, 4).n == 10


def test_cli_duel_prints_the_edge_and_writes_a_run_and_its_report(tmp_path, capsys) -> None:
    argv = ["duel", "--a", HEURISTIC, "--b", "play=random", "--deals", "1500", "--seed", "3", "--quiet"]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    expected = duel(HEURISTIC, "play=random", 1500, seed=3)
    assert (
        f"A's edge: {expected.edge:+.2f} points per deal, 95% interval "
        f"{expected.low:+.2f} to {expected.high:+.2f}".replace("-", "\u2212")
        in printed
    )
    assert "\ntaker " in printed and "\ngarde " in printed and "A\u2212B (95%)" in printed
    out = tmp_path / "run"
    assert main([*argv, "--out", str(out), "--chunk-deals", "500"]) == 0
    assert capsys.readouterr().out.count(f"{expected.edge:+.2f} points per deal") == 1
    pd.testing.assert_frame_equal(load_records(out), expected.records)
    report = (out / "report" / "duel.md").read_text(encoding="utf-8")
    assert f"{expected.edge:+.2f} game points per deal" in report and "edge_by_role.png" in report
    assert f"--seed 3 --out {out}" in report  # the provenance's command makes the same run again
    assert (out / "report" / "edge_by_role.png").stat().st_size > 0 and (
        out / "report" / "duel.html"
    ).exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--a", "play=heuristic", "--b", "play=clever"],
            "strategy B: unknown play policy 'clever'; valid names",
        ),
        (
            ["--a", "play=heuristic,depth=3", "--b", "play=random"],
            "unknown strategy option 'depth'; valid keys",
        ),
        (
            ["--a", "play=heuristic,draw_trumps_min=16", "--b", "play=random", "--players", "5"],
            "cannot be met at 5 players",
        ),
        (["--a", "play=heuristic", "--b", "play=random", "--players", "6"], "players must be 3, 4 or 5"),
        (["--a", "play=heuristic", "--b", "play=random", "--workers", "2"], "need --out"),
    ],
)
def test_cli_duel_errors_are_one_line(argv, message, capsys) -> None:
    assert main(["duel", "--deals", "10", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_cli_duel_refuses_no_deals(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["duel", "--a", "play=heuristic", "--b", "play=random", "--deals", "0"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "--deals: must be at least 1, got 0" in err and "Traceback" not in err


def test_the_report_figure_shows_the_edge_and_the_scores_by_role(tmp_path) -> None:
    from tarotsim.contests.duel_report import edge_by_role_chart, write_duel_report

    result = duel(HEURISTIC, "play=greedy", 800, seed=1, players=5)
    drawn = edge_by_role_chart(result)
    bars = [
        "A's edge, per deal",
        "A as taker",
        "B as taker",
        "A as partner",
        "B as partner",
        "A as defender",
        "B as defender",
    ]
    assert list(drawn.data.bar) == bars
    assert drawn.data.points.iloc[0] == result.edge
    defender = result.by_role.set_index("role").loc["defender"]
    assert tuple(drawn.data.iloc[-1][["points", "low", "high"]]) == (
        defender.b_mean,
        defender.b_low,
        defender.b_high,
    )
    ax = drawn.figure.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == bars
    assert list(ax.get_yticks()) == list(range(6, -1, -1))  # the edge on top
    assert ax.get_xlabel().startswith("game points") and "800 deals" in drawn.caption
    folder = write_duel_report(result, tmp_path / "report")
    assert (folder / "duel.html").read_text(encoding="utf-8").count("<table>") == 4  # and words, provenance


def test_the_worked_example_runs(capsys) -> None:
    import runpy
    from pathlib import Path

    example = runpy.run_path(str(Path(__file__).resolve().parents[1] / "examples" / "greedy_duel.py"))
    example["main"].__globals__["DEALS"] = 400
    example["main"]()
    printed = capsys.readouterr().out
    assert "def greedy_card" in printed and printed.count("A's edge:") == 2 and "400 deals" in printed


def lowest(observation):
    """A Python card player: the first legal card."""
    return observation.legal_actions[0]


def test_the_summary_shows_a_name_as_a_label_not_as_a_spec_key():
    named = Strategy(play="heuristic", ecart="expert", draw_trumps_min=2, name="bold")
    mine = Strategy(play=lowest, name="mine")
    empty = pd.DataFrame()
    result = DuelResult(named, mine, 4, 1, 10, 0.5, -1.0, 2.0, empty, empty, empty)
    lines = result.summary().splitlines()
    assert lines[:2] == [
        "A: bold (play=heuristic,draw_trumps_min=2)",
        "B: mine (play=tests.test_duel:lowest)",
    ]
    assert "name=" not in result.summary()
    # without a name, the spec itself; the spec still carries the name (it reads back)
    plain = DuelResult(Strategy(play="greedy"), named, 4, 1, 10, 0.5, -1.0, 2.0, empty, empty, empty)
    assert plain.summary().splitlines()[0] == "A: play=greedy"
    assert Strategy.parse(str(named)) == named and ",name=bold," in str(named)


def test_a_duel_until_decided_stops_early_with_the_records_of_a_fixed_duel(tmp_path) -> None:
    """Random loses to the heuristic by far more than 2 points a deal: the first look decides."""
    from tarotsim.analysis.sequential import Sprt

    result = duel("play=random", HEURISTIC, 3000, seed=11, until_decided=Sprt(0.0, 2.0), look_every=100)
    assert result.decision is not None and result.decision.verdict == "B"
    assert result.n == 100 < 3000 and result.decision.looks == 1 and result.decision.cap == 3000
    assert "decided for B: H0, A's edge <= 0, accepted over H1, >= 2 (sequential test" in result.summary()
    fixed = duel("play=random", HEURISTIC, 100, seed=11)
    pd.testing.assert_frame_equal(result.records, fixed.records)
    assert (result.edge, result.low, result.high) == (fixed.edge, fixed.low, fixed.high)
    again = duel("play=random", HEURISTIC, 3000, seed=11, until_decided=(0.0, 2.0), look_every=100, threads=1)
    pd.testing.assert_frame_equal(again.records, result.records)
    assert again.decision == result.decision


def test_a_duel_at_its_cap_is_not_decided_and_its_run_directory_is_that_of_its_deals(tmp_path) -> None:
    from tarotsim.analysis.sequential import Sprt
    from tarotsim.runs.store import read_manifest

    # bounds of ±13.8: an edge of about 10 points in 200 deals is far from them
    strict = Sprt(0.0, 2.0, alpha=1e-6, beta=1e-6)
    out = tmp_path / "duel"
    result = duel(HEURISTIC, "play=greedy", 200, seed=2, until_decided=strict, look_every=100, out=out)
    assert result.decision is not None and result.decision.verdict == "not decided"
    assert result.n == 200 and result.decision.looks == 2
    assert strict.lower < result.decision.llr < strict.upper
    assert "not decided after 200 deals, the cap" in result.summary()
    # a stopped duel's directory is the finished run of the deals it played
    stopped = tmp_path / "stopped"
    early = duel(
        "play=random", HEURISTIC, 3000, seed=11, until_decided=(0.0, 2.0), look_every=100, out=stopped
    )
    manifest = read_manifest(stopped)
    assert manifest["complete"] and manifest["run"]["deals"] == early.n == 100
    assert manifest["run"]["chunk_deals"] == 100
    pd.testing.assert_frame_equal(DuelResult.from_run(stopped).records, early.records)
    pd.testing.assert_frame_equal(load_records(stopped), duel("play=random", HEURISTIC, 100, seed=11).records)
    # the same call again reads it and stops at the same deal; a fixed duel of its size is the same run
    again = duel(
        "play=random", HEURISTIC, 3000, seed=11, until_decided=(0.0, 2.0), look_every=100, out=stopped
    )
    assert again.n == 100 and again.decision == early.decision
    assert read_manifest(stopped)["run"]["deals"] == 100 and read_manifest(stopped)["complete"]
    duel("play=random", HEURISTIC, 300, seed=11, out=stopped, chunk_deals=100)  # extends it
    assert read_manifest(stopped)["run"]["deals"] == 300
    longer = duel(
        "play=random", HEURISTIC, 3000, seed=11, until_decided=(0.0, 2.0), look_every=100, out=stopped
    )
    assert longer.n == 100 and read_manifest(stopped)["run"]["deals"] == 300  # its deals are kept


def test_bad_duels_until_decided_are_explained(tmp_path) -> None:
    with pytest.raises(TypeError, match="until_decided is a Sprt or a pair"):
        duel(HEURISTIC, "play=random", 10, seed=1, until_decided=2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="below that of H1"):
        duel(HEURISTIC, "play=random", 10, seed=1, until_decided=(2.0, 0.0))
    with pytest.raises(ValueError, match="not on Dask"):
        duel(HEURISTIC, "play=random", 10, seed=1, until_decided=(0.0, 2.0), out=tmp_path / "d", workers=2)
    with pytest.raises(ValueError, match="give look_every, not chunk_deals"):
        duel(HEURISTIC, "play=random", 10, seed=1, until_decided=(0.0, 2.0), chunk_deals=5)
    with pytest.raises(ValueError, match="look_every goes with until_decided"):
        duel(HEURISTIC, "play=random", 10, seed=1, look_every=5)


def test_cli_duel_until_decided_prints_the_verdict_and_writes_its_run(tmp_path, capsys) -> None:
    out = tmp_path / "run"
    argv = ["duel", "--a", "play=random", "--b", HEURISTIC, "--deals", "3000", "--seed", "11", "--quiet"]
    sequential = ["--until-decided", "--edge", "0,2", "--look-every", "100", "--out", str(out)]
    assert main([*argv, *sequential]) == 0
    printed = capsys.readouterr().out
    assert "100 deals" in printed and "decided for B" in printed and "1 look of 100" in printed
    report = (out / "report" / "duel.md").read_text(encoding="utf-8")
    assert "Until decided: decided for B" in report
    # the provenance's command makes the same run again
    assert "--until-decided --edge=0,2 --alpha 0.05 --beta 0.05 --look-every 100" in report
    assert main([*argv, *sequential]) == 0
    assert "decided for B" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--edge", "0,2"], "--edge goes with --until-decided"),
        (["--look-every", "10"], "--look-every goes with --until-decided"),
        (["--until-decided", "--workers", "2", "--out", "x"], "not on Dask"),
        (["--until-decided", "--chunk-deals", "10"], "give --look-every, not --chunk-deals"),
        (["--until-decided", "--edge", "2,0"], "E0 must be below E1"),
        (["--until-decided", "--edge", "two"], "expected two numbers E0,E1"),
        (["--until-decided", "--alpha", "0.7"], "an error rate lies below 0.5"),
    ],
)
def test_cli_duel_until_decided_errors_are_one_line(argv, message, capsys) -> None:
    try:  # argparse's errors exit, the command's return
        status = main(["duel", "--a", "play=random", "--b", HEURISTIC, "--deals", "10", *argv])
    except SystemExit as exit_info:
        status = exit_info.code
    assert status == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
