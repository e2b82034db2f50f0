"""Run directories: chunks, manifest, determinism, resume after a real kill, refusals."""

import json
import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

from tarotsim.analysis import load_records
from tarotsim.players.config import RunConfig
from tarotsim.runs.simulate import simulate, sweep
from tarotsim.runs.spec import RunSpec
from tarotsim.runs.store import execute


def spec(**overrides):
    base = dict(kind="simulate", seed=5, deals=5000, config=RunConfig(), chunk_deals=1200)
    base.update(overrides)
    return RunSpec(**base)


def test_run_directory_equals_in_memory_simulation(tmp_path):
    run = execute(tmp_path / "run", spec())
    assert run.manifest["complete"] and run.manifest["counts"]["deals"] == 5000
    assert sorted(p.name for p in (tmp_path / "run" / "chunks").iterdir()) == [
        f"chunk-{i:05d}.parquet" for i in range(5)
    ]
    on_disk = load_records(tmp_path / "run")
    in_memory = simulate(5000, seed=5)
    pd.testing.assert_frame_equal(on_disk, in_memory, check_like=False)


def test_chunking_and_threads_do_not_change_records(tmp_path):
    a = execute(tmp_path / "a", spec(chunk_deals=5000), threads=1)
    b = execute(tmp_path / "b", spec(chunk_deals=700), threads=2)
    assert a.manifest["counts"] == b.manifest["counts"]
    pd.testing.assert_frame_equal(load_records(tmp_path / "a"), load_records(tmp_path / "b"))


def test_sweep_run_matches_sweep_api(tmp_path):
    contracts = ("prise", "garde_contre")
    execute(
        tmp_path / "s",
        spec(
            kind="sweep",
            contracts=contracts,
            seat=2,
            config=RunConfig(policy="random", ecart_policy="simple"),
        ),
    )
    on_disk = load_records(tmp_path / "s")
    direct = sweep(5000, seed=5, contracts=contracts, seat=2, policy="random", ecart_policy="simple")
    pd.testing.assert_frame_equal(on_disk, direct)
    assert (on_disk.taker == 2).sum() == (on_disk.thrown_in == "none").sum()
    assert list(on_disk.contract[:2]) == ["prise", "garde_contre"]


def test_a_different_configuration_is_refused(tmp_path):
    execute(tmp_path / "run", spec())
    with pytest.raises(ValueError, match="another run.*seed 5 there, 6 here"):
        execute(tmp_path / "run", spec(seed=6))
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("x")
    with pytest.raises(ValueError, match="not a tarotsim run"):
        execute(tmp_path / "other", spec())


def test_rerun_of_a_finished_run_changes_nothing(tmp_path):
    first = execute(tmp_path / "run", spec())
    chunks = dict(first.manifest["chunks"])
    again = execute(tmp_path / "run", spec())
    assert again.manifest["chunks"] == chunks


@pytest.mark.usefixtures("compiled_game")  # the processes it starts load the compiled game
def test_resume_after_kill_gives_the_uninterrupted_records(tmp_path):
    out = tmp_path / "killed"
    argv = [
        sys.executable,
        "-m",
        "tarotsim",
        "simulate",
        "--deals",
        "100000",
        "--seed",
        "9",
        "--chunk-deals",
        "1000",
        "--out",
        str(out),
        "--quiet",
    ]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    manifest = out / "manifest.json"
    deadline = time.time() + 120
    done = 0
    while time.time() < deadline and proc.poll() is None:
        if manifest.exists():
            try:
                done = len(json.loads(manifest.read_text())["chunks"])
            except (json.JSONDecodeError, KeyError):
                done = 0
            if done >= 3:
                break
        time.sleep(0.01)
    assert proc.poll() is None, "the run finished before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    partial = json.loads(manifest.read_text())
    assert not partial["complete"] and 3 <= len(partial["chunks"]) < 100
    with pytest.raises(ValueError, match="not finished"):
        load_records(out)
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    final = json.loads(manifest.read_text())
    assert final["complete"] and final["counts"]["deals"] == 100000
    for index, chunk in partial["chunks"].items():  # finished chunks were kept, not redone
        assert final["chunks"][index] == chunk
    straight = tmp_path / "straight"
    execute(straight, spec(seed=9, deals=100000, chunk_deals=1000))
    pd.testing.assert_frame_equal(load_records(out), load_records(straight))


def test_cli_simulate_and_sweep_write_runs(tmp_path, capsys):
    from tarotsim.cli import main

    assert (
        main(["simulate", "--deals", "3000", "--seed", "2", "--out", str(tmp_path / "sim"), "--quiet"]) == 0
    )
    assert (
        main(
            [
                "sweep",
                "--deals",
                "2000",
                "--seed",
                "2",
                "--out",
                str(tmp_path / "sw"),
                "--quiet",
                "--policy",
                "random",
                "--ecart-policy",
                "simple",
                "--contracts",
                "prise,garde",
            ]
        )
        == 0
    )
    assert main(["table", str(tmp_path / "sw"), "--out", str(tmp_path / "t.csv")]) == 0
    assert pd.read_csv(tmp_path / "t.csv").contract.isin(["prise", "garde"]).all()
    assert main(["thresholds", str(tmp_path / "sw"), "--out", str(tmp_path / "th.md")]) == 0
    assert "Best contract" in (tmp_path / "th.md").read_text()
    assert (
        main(
            [
                "sweep",
                "--deals",
                "2000",
                "--seed",
                "3",
                "--out",
                str(tmp_path / "sw"),
                "--quiet",
                "--policy",
                "random",
                "--ecart-policy",
                "simple",
                "--contracts",
                "prise,garde",
            ]
        )
        == 2
    )
    assert "holds another run (seed 2 there, 3 here)" in capsys.readouterr().err
    assert (
        main(
            ["sweep", "--deals", "20", "--seed", "3", "--out", str(tmp_path / "bad"), "--contracts", "petite"]
        )
        == 2
    )
    assert "unknown contract 'petite'" in capsys.readouterr().err


def test_simulate_and_sweep_take_one_configuration_or_its_fields_as_keywords():
    from dataclasses import fields

    from tarotsim.players.config import RunOptions

    assert list(RunOptions.__annotations__) == [f.name for f in fields(RunConfig)]
    config = RunConfig(players=3, policy="heuristic", chelem_policy="overwhelming", chelem_threshold=80)
    by_keywords = simulate(
        300, seed=4, players=3, policy="heuristic", chelem_policy="overwhelming", chelem_threshold=80
    )
    pd.testing.assert_frame_equal(simulate(300, seed=4, config=config), by_keywords)
    assert by_keywords.attrs["config"] == config.as_dict()
    swept = sweep(200, seed=4, contracts=("garde",), config=RunConfig())
    pd.testing.assert_frame_equal(swept, sweep(200, seed=4, contracts="garde"))
    assert sweep(0, seed=4).empty and simulate(0, seed=4).empty
    assert RunConfig(bid_thresholds=[40, 56, 71, 81]) == RunConfig()


def test_sweep_takes_the_simulate_options():
    plain = sweep(400, seed=6, contracts=("garde_sans",), chelem_policy="overwhelming")
    bold = sweep(400, seed=6, contracts=("garde_sans",), chelem_policy="overwhelming", chelem_threshold=70)
    assert bold.chelem_announced.sum() > plain.chelem_announced.sum()
    assert bold.attrs["config"]["chelem_threshold"] == 70
    thresholds = sweep(
        400, seed=6, contracts=("garde_sans",), chelem_policy="overwhelming", bid_thresholds=(1, 2, 3, 4)
    )
    # the sweep sets the taker and the contract: the thresholds only say what the other seats would bid
    pd.testing.assert_frame_equal(thresholds.drop(columns="others_bid"), plain.drop(columns="others_bid"))
    assert (thresholds["others_bid"] == "garde_contre").all() and (
        plain["others_bid"] != "garde_contre"
    ).any()


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: sweep(10, seed=1, dealing="unshuffled"), ValueError, "a sweep .* needs shuffled dealing"),
        (
            lambda: sweep(10, seed=1, forced_contract="garde", forced_taker=1),
            ValueError,
            "leave forced_contract unset",
        ),
        (lambda: sweep(10, seed=1, seat=4), ValueError, "taking seat must be 0 to 3"),
        (lambda: sweep(10, seed=1, contracts="garde,garde"), ValueError, "appears twice"),
        (lambda: simulate(10, seed=1, config=RunConfig(), players=3), TypeError, "not both"),
        (lambda: simulate(10, seed=1, player=3), TypeError, "unknown option 'player'"),
        (lambda: simulate(10, seed=1, config={"players": 3}), TypeError, "config must be a RunConfig"),
        (
            lambda: RunConfig(bid_thresholds=(40, 56.5, 71, 81)),
            ValueError,
            "bid_thresholds must be whole numbers",
        ),
        (
            lambda: RunConfig(bid_thresholds=(40, 56, 71, 2**64)),
            ValueError,
            "bid threshold must be 0 to 1000",
        ),
        (
            lambda: RunConfig(bid_thresholds=("40", 56, 71, 81)),
            ValueError,
            "bid_thresholds must be whole numbers",
        ),
        (lambda: RunConfig(bid_thresholds=(81, 71, 56, 40)), ValueError, "four increasing Chavey counts"),
        (lambda: RunConfig(bid_thresholds=(40, 56)), ValueError, "four increasing Chavey counts"),
        (lambda: RunConfig(chelem_threshold="high"), TypeError, "chelem_threshold must be a whole number"),
        (
            lambda: RunConfig(forced_contract="garde", forced_taker=4),
            ValueError,
            "taking seat must be 0 to 3",
        ),
        (lambda: RunConfig(forced_contract="pass", forced_taker=0), ValueError, "unknown contract 'pass'"),
    ],
)
def test_bad_configurations_are_explained(call, error, message):
    with pytest.raises(error, match=message):
        call()


def _registry(players, *, matches=False):
    from tarotsim.engine.records import frame_columns

    return [(name, column.dtype) for name, column, _ in frame_columns(players, matches=matches)]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_record_frames_hold_exactly_the_registry_columns_and_dtypes(players, tmp_path):
    frame = simulate(200, seed=3, players=players, match_deals=7)
    assert list(zip(frame.columns, frame.dtypes, strict=True)) == _registry(players, matches=True)
    swept = sweep(
        50, seed=3, players=players, contracts="prise,garde", policy="random", ecart_policy="simple"
    )
    assert list(zip(swept.columns, swept.dtypes, strict=True)) == _registry(players)
    execute(tmp_path / "run", spec(deals=300, chunk_deals=100, config=RunConfig(players=players)))
    on_disk = load_records(tmp_path / "run")
    assert list(zip(on_disk.columns, on_disk.dtypes, strict=True)) == _registry(players)


def test_readme_lists_the_registry_columns():
    from pathlib import Path

    from tarotsim.engine.records import columns_markdown

    readme = (Path(__file__).resolve().parents[1] / "docs" / "records.md").read_text(encoding="utf-8")
    header = columns_markdown().splitlines()[0]
    assert readme.count(header) == 1, "the README should hold one table of record columns"
    start = readme.index(header)
    end = readme.find("\n\n", start)
    table = readme[start : len(readme) if end < 0 else end + 1]
    assert table == columns_markdown(), "regenerate the README's column table with columns_markdown()"


def test_the_column_table_writes_every_category_as_a_code_span():
    """An empty category (``bouts_held``: no bout) is written ``""``, not an empty code span
    that Markdown would pair with the next backtick and garble the row."""
    import re

    from tarotsim.engine.records import COLUMNS, columns_markdown

    rows = {line.split(" | ")[0].strip("| `"): line for line in columns_markdown().splitlines()[2:]}
    for column in COLUMNS:
        if isinstance(column.dtype, pd.CategoricalDtype):
            dtype_cell = rows[column.name].split(" | ")[1]
            spans = re.findall(r"`([^`]*)`", dtype_cell)
            assert spans == [c if c else '""' for c in column.dtype.categories], column.name
    assert '`""`, `P`, `21`,' in rows["bouts_held"]


def test_a_run_with_strategies_has_a_command_line_that_makes_it_again(tmp_path):
    import shlex

    from tarotsim.cli import build_parser
    from tarotsim.cli.common import run_config

    for strategies in (
        ["play=greedy"] * 4,
        ["play=pimc,worlds=4", "play=random", "bid=montecarlo", "ecart=simple"],
    ):
        config = RunConfig(strategies=strategies)
        command = RunSpec(kind="simulate", seed=1, deals=10, config=config).command(tmp_path)
        assert command is not None
        args = build_parser().parse_args(shlex.split(command)[1:])
        assert run_config(args) == config


def test_whether_a_run_searches_is_decided_once_on_its_spec():
    from tarotsim.runs.kernels.batch import SEARCH_BLOCK_DEALS
    from tarotsim.runs.runner import PROGRESS_STEP_DEALS, progress_step

    plain = RunSpec(kind="simulate", seed=1, deals=10, config=RunConfig())
    assert not plain.searches and plain.progress_step == PROGRESS_STEP_DEALS
    for strategy in ("bid=montecarlo", "play=pimc", "play=heuristic,defence_play=pimc"):
        spec = RunSpec(
            kind="simulate", seed=1, deals=10, config=RunConfig(strategies=[strategy] + ["play=random"] * 3)
        )
        assert spec.searches and spec.progress_step == progress_step(True)
        # a progress step fills every thread with blocks of searching deals
        for threads in (1, 2, 16):
            assert progress_step(True, threads) >= 4 * threads * SEARCH_BLOCK_DEALS
    duel = RunSpec(
        kind="duel", seed=1, deals=10, config=RunConfig(), duel=("bid=montecarlo", "play=heuristic")
    )
    assert duel.searches


def test_a_learned_bidder_enters_the_identity_by_its_content(tmp_path):
    from tarotsim.engine.labels import CONTRACTS, HAND_FEATURES
    from tarotsim.players.bidder import Bidder

    def save(intercept: float) -> None:
        zero = dict.fromkeys(HAND_FEATURES, 0.0)
        coefficients = {c: zero | {"intercept": intercept, "trump_21": 1.5} for c in CONTRACTS}
        Bidder(4, coefficients, {"run": "x"}).save(path)

    path = tmp_path / "bidder.json"
    save(-1.0)
    config = RunConfig(strategies=[f"bid=learned,bidder={path}"] + ["play=heuristic"] * 3)
    identity = RunSpec(kind="simulate", seed=1, deals=10, config=config).identity()
    assert list(identity["bidders"]) == [str(path)]
    assert RunSpec.from_identity(identity).identity() == identity
    save(-2.0)
    with pytest.raises(ValueError, match="bidder's file has changed"):
        RunSpec.from_identity(identity)
