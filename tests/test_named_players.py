"""User players named by import path (``play=module:attribute``): specs that round-trip, the
command line, run directories that resume, Dask tasks, and one-line errors for bad paths."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from tarotsim import Strategy, duel, simulate
from tarotsim.players.config import RunConfig
from tarotsim.players.hooks import import_name
from tarotsim.runs.spec import RunSpec
from tarotsim.runs.store import execute, load_records
from tests import players_for_tests as mine

HERE = "tests.players_for_tests"


@pytest.mark.parametrize(
    ("strategy", "spec"),
    [
        (Strategy(play=mine.first), f"play={HERE}:first"),
        (Strategy(act=mine.last, name="L"), f"act={HERE}:last,name=L"),
        (Strategy(act=mine.first, play="greedy"), f"play=greedy,act={HERE}:first"),
        (
            Strategy(play=mine.lowest, params=[1, 0.1, 1 / 3]),
            f"play={HERE}:lowest,params=1/0.1/0.3333333333333333",
        ),
        (
            Strategy(bid=mine.prise_from, params=[7], ecart="simple"),
            f"play=heuristic,bid={HERE}:prise_from,ecart=simple,params=7",
        ),
    ],
)
def test_a_spec_names_the_player_by_import_path_and_parses_back(strategy: Strategy, spec: str) -> None:
    assert str(strategy) == spec
    assert Strategy.parse(spec) == strategy
    assert strategy.unnamed_players() == []


def test_an_object_is_named_by_the_module_attribute_that_holds_it() -> None:
    assert import_name(mine.last) == f"{HERE}:last"
    assert import_name(mine.Last()) is None  # made on the fly: nothing names it
    assert Strategy.parse(f"play={HERE}:first").player is mine.first
    loaded = Strategy.parse(f"act={HERE}:twin")  # its class lives in tarotsim.interfaces.python_players
    assert loaded.player is mine.twin and str(loaded) == f"act={HERE}:twin"


def test_a_player_without_an_import_path_plays_in_memory_but_not_in_a_run_directory(tmp_path) -> None:
    def local(observation):  # type: ignore[no-untyped-def]
        return observation.legal_actions[0]

    strategy = Strategy(play=local)
    assert strategy.unnamed_players() == [local.__qualname__] and str(strategy).endswith("<locals>.local")
    records = simulate(2, seed=1, strategies=[strategy, "play=heuristic", "play=heuristic", "play=heuristic"])
    assert len(records) == 2
    with pytest.raises(ValueError, match=r"^player \S+<locals>.local needs an importable name") as error:
        duel(strategy, "play=heuristic", 4, seed=1, out=tmp_path / "run")
    assert "\n" not in str(error.value) and not (tmp_path / "run").exists()


@pytest.mark.parametrize(
    ("spec", "error", "message"),
    [
        ("play=nosuch_module_x:f", ValueError, "cannot import nosuch_module_x"),
        (f"play={HERE}:nope", ValueError, f"module {HERE} has no nope"),
        (f"play={HERE}:NOT_A_PLAYER", TypeError, "is not a player"),
        (f"play={HERE}:Last", TypeError, "is not a player"),
        (f"bid={HERE}:first", TypeError, "is not a Numba bidder"),
        (f"act={HERE}:lowest", TypeError, "is not a Python player"),
        ("play=:first", ValueError, "import path is module:attribute"),
        ("play=__main__:first", ValueError, "put the player in an importable module"),
        (f"play={HERE}:lowest,params=1/x", ValueError, "params are numbers separated by '/'"),
    ],
)
def test_a_bad_import_path_is_a_one_line_error(spec: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message) as raised:
        Strategy.parse(spec)
    assert "\n" not in str(raised.value)


def test_a_duel_of_a_python_player_writes_every_chunk_and_resumes(tmp_path) -> None:
    a = Strategy(play=mine.first)
    memory = duel(a, "play=heuristic", 40, seed=1)
    out = tmp_path / "duel"
    on_disk = duel(a, "play=heuristic", 40, seed=1, out=out, chunk_deals=10)
    pd.testing.assert_frame_equal(on_disk.records, memory.records)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["run"]["duel"] == [f"play={HERE}:first", "play=heuristic"]
    assert len(manifest["chunks"]) == 4
    (out / "chunks" / "chunk-00002.parquet").unlink()  # an interrupted duel
    resumed = duel(f"play={HERE}:first", "play=heuristic", 40, seed=1, out=out, chunk_deals=10)
    pd.testing.assert_frame_equal(resumed.records, memory.records)


def test_a_simulation_of_numba_players_writes_every_chunk_and_resumes(tmp_path) -> None:
    seats = [
        Strategy(play=mine.lowest),
        "play=heuristic",
        Strategy(bid=mine.prise_from, params=[6]),
        "play=greedy",
    ]
    memory = simulate(60, seed=3, strategies=seats)
    spec = RunSpec(kind="simulate", seed=3, deals=60, chunk_deals=20, config=RunConfig(strategies=seats))
    assert RunSpec.from_identity(json.loads(json.dumps(spec.identity()))) == spec
    out = tmp_path / "sim"
    execute(out, spec)
    pd.testing.assert_frame_equal(load_records(out), memory)
    (out / "chunks" / "chunk-00001.parquet").unlink()  # an interrupted run
    execute(out, spec)
    pd.testing.assert_frame_equal(load_records(out), memory)


def test_the_command_line_names_players_by_import_path(tmp_path, capsys) -> None:
    from tarotsim.cli import main

    out = tmp_path / "duel"
    argv = ["duel", "--a", f"play={HERE}:first", "--b", "play=heuristic", "--deals", "6", "--seed", "2"]
    assert main([*argv, "--out", str(out), "--quiet"]) == 0
    assert duel(Strategy(play=mine.first), "play=heuristic", 6, seed=2).records.equals(load_records(out))
    seats = ["--seat", f"1=act={HERE}:last", "--seat", f"2=play={HERE}:first"]
    assert (
        main(["simulate", "--deals", "4", "--seed", "2", *seats, "--out", str(tmp_path / "sim"), "--quiet"])
        == 0
    )
    capsys.readouterr()
    assert main(["duel", "--a", f"play={HERE}:nope", "--b", "play=heuristic", "--deals", "6"]) == 2
    with pytest.raises(SystemExit) as bad:
        main(["simulate", "--deals", "4", "--seat", "1=play=nosuch_module_x:f"])
    assert bad.value.code == 2
    errors = capsys.readouterr().err.strip().splitlines()
    assert len(errors) == 2, errors
    assert errors[0].endswith(f"play={HERE}:nope: module {HERE} has no nope")
    assert "cannot import nosuch_module_x" in errors[1]


def test_a_dask_chunk_task_loads_the_player_by_name(tmp_path) -> None:
    pytest.importorskip("distributed")
    from tarotsim.runs.distributed import make_chunk

    spec = RunSpec(
        kind="duel",
        seed=2,
        deals=20,
        chunk_deals=10,
        config=RunConfig(),
        duel=(Strategy(play=mine.first), Strategy()),
    )
    identity = json.loads(json.dumps(spec.identity()))  # as the scheduler ships it
    result = make_chunk(identity, 1, None)
    pd.testing.assert_frame_equal(result["frame"], spec.compute_chunk(1))
