"""A run directory's identity is bound to its chunks; re-running its command repairs it.

These tests write chunks of made-up records (a deal number and the thrown-in column), so
they compile nothing: what they check is the run directory, not the game.
"""

import json

import pandas as pd
import pytest

from tarotsim.engine.labels import THROWN_IN_NAMES
from tarotsim.players.config import RunConfig
from tarotsim.runs import store
from tarotsim.runs.manifest import difference, identity_sha256
from tarotsim.runs.spec import RunSpec
from tarotsim.runs.store import Run, chunk_path, load_records, read_manifest


def spec(**overrides):
    base = dict(kind="simulate", seed=5, deals=250, config=RunConfig(), chunk_deals=100)
    base.update(overrides)
    return RunSpec(**base)


def frame(made, index):
    first, count = made.chunk_range(index)
    return pd.DataFrame(
        {
            "deal": range(first, first + count),
            "seed": made.seed,
            "thrown_in": pd.Categorical([THROWN_IN_NAMES[0]] * count, categories=THROWN_IN_NAMES),
        }
    )


def make(root, made=None, chunks=None):
    """The run ``made`` in ``root``, with ``chunks`` (default: all) finished."""
    made = made or spec()
    with Run(root, made) as run:
        for index in run.missing() if chunks is None else chunks:
            run.save_chunk(index, frame(made, index), worker="test", seconds=0.0)
        run.finish()
        return run


def edit(root, change):
    path = root / "manifest.json"
    manifest = json.loads(path.read_text())
    change(manifest)
    path.write_text(json.dumps(manifest))


@pytest.fixture
def root(tmp_path):
    made = tmp_path / "run"
    make(made)
    return made


def test_the_records_of_made_up_chunks_read_back(root):
    records = load_records(root)
    assert list(records["deal"]) == list(range(250)) and set(records["seed"]) == {5}


@pytest.mark.parametrize(
    "change",
    [
        lambda m: m["run"].update(seed=6),
        lambda m: m["run"]["config"].update(policy="greedy"),
        lambda m: m["run"].update(chunk_deals=50),
    ],
)
def test_an_edited_identity_is_refused_and_the_command_rebuilds_the_manifest(root, change):
    edit(root, change)
    with pytest.raises(ValueError, match="was edited: its run .* no longer matches its checksum") as info:
        load_records(root)
    assert "\n" not in str(info.value) and "rebuild the manifest from its chunks" in str(info.value)
    run = make(root)
    assert run.rebuilt is not None and "checksum" in run.rebuilt
    assert run.manifest["run"]["seed"] == 5 and not run.missing()
    assert run.notes()[0].startswith("manifest.json was edited") and "3 intact chunks" in run.notes()[0]
    assert list(load_records(root)["deal"]) == list(range(250))


def test_an_edit_with_its_checksum_redone_is_refused_by_the_chunks(root):
    def forge(manifest):
        manifest["run"]["seed"] = 6
        manifest["identity_sha256"] = identity_sha256(manifest["run"])

    edit(root, forge)
    with pytest.raises(
        ValueError, match="was made by another run \\(seed 5 in the chunk, 6 in the manifest\\)"
    ):
        load_records(root)
    with pytest.raises(ValueError, match="was made by another run"):
        load_records(root, verify="size")


@pytest.mark.parametrize("damage", ["delete", "truncate", "empty"])
def test_a_lost_or_broken_manifest_is_rebuilt_from_the_chunks(root, damage):
    path = root / "manifest.json"
    if damage == "delete":
        path.unlink()
    else:
        path.write_text(path.read_text()[:40] if damage == "truncate" else "")
    with pytest.raises(ValueError, match="manifest|run directory"):
        load_records(root)
    run = make(root)
    assert run.rebuilt is not None and not run.missing() and run.manifest["complete"]
    assert list(load_records(root)["deal"]) == list(range(250))


def test_chunks_of_another_run_without_a_manifest_are_not_taken(root):
    (root / "manifest.json").unlink()
    with pytest.raises(ValueError, match=r"holds the chunks of another run \(seed 5 there, 7 here\)"):
        make(root, spec(seed=7))
    assert chunk_path(root, 0).exists()


def test_a_repair_keeps_the_intact_chunks_and_remakes_the_rest(root):
    (root / "manifest.json").unlink()
    chunk_path(root, 1).write_bytes(b"not parquet")
    with Run(root, spec()) as run:
        assert run.missing() == [1]
        assert any("chunk-00001.parquet" in what for what in run.removed)


def test_stray_chunk_named_files_are_removed_on_resume(root):
    (root / "chunks" / "chunk-00009.parquet").write_bytes(b"junk")
    (root / "chunks" / "chunk-1.parquet").write_bytes(chunk_path(root, 1).read_bytes())
    other = root.parent / "other"
    make(other, spec(seed=6))
    chunk_path(root, 2).unlink()
    chunk_path(root, 2).write_bytes(chunk_path(other, 2).read_bytes())
    with pytest.raises(ValueError, match="chunk-00009.parquet is not one of the 3 chunks"):
        load_records(root)
    run = make(root)
    removed = " ".join(run.removed)
    assert "chunk-00009.parquet" in removed and "chunk-1.parquet" in removed
    assert [index for index, _ in run.remade] == [2]
    assert sorted(p.name for p in (root / "chunks").iterdir()) == [store.chunk_name(i) for i in range(3)]
    assert list(load_records(root)["deal"]) == list(range(250))


def test_a_whole_chunk_written_but_not_listed_is_kept(tmp_path):
    root = tmp_path / "run"
    made = spec()
    make(root, made, chunks=[0])
    store.write_chunk(root, 1, frame(made, 1), run=made.identity())  # killed before listing it
    with Run(root, made) as run:
        assert run.missing() == [2] and not run.removed


def test_a_new_directory_is_removed_when_the_start_fails(tmp_path):
    root = tmp_path / "new"
    with pytest.raises(RuntimeError), Run(root, spec()):
        raise RuntimeError("no scheduler")
    assert not root.exists()
    make(root, chunks=[0])
    with pytest.raises(RuntimeError), Run(root, spec()):
        raise RuntimeError("stopped")
    assert chunk_path(root, 0).exists()  # a run with work in it stays


def test_a_larger_deal_count_extends_the_run_and_a_smaller_one_is_refused(root):
    with pytest.raises(ValueError, match="holds a run of 250 deals: give --deals 250"):
        make(root, spec(deals=200))
    with Run(root, spec(deals=420)) as run:
        assert run.extended_from == 250 and run.missing() == [2, 3, 4]
        assert not run.remade and not chunk_path(root, 2).exists()
        assert "extended from 250 to 420 deals" in run.notes()
    make(root, spec(deals=420))
    assert list(load_records(root)["deal"]) == list(range(420))
    assert read_manifest(root)["run"]["deals"] == 420


def test_another_run_is_named_by_its_differing_fields_only(root):
    with pytest.raises(ValueError) as info:
        make(root, spec(config=RunConfig(policy="greedy", players=5)))
    message = str(info.value)
    assert "players 4 there, 5 here" in message and "policy heuristic there, greedy here" in message
    assert "{" not in message and len(message.replace(str(root), "")) < 250


def test_the_difference_of_two_runs_names_at_most_four_fields():
    a = spec().identity()
    b = spec(seed=9, deals=10, chunk_deals=3, config=RunConfig(players=3, policy="heuristic")).identity()
    said = difference(a, b)
    assert said.count(" there, ") == 4 and said.startswith("seed 5 there, 9 here") and said.endswith(" more")
