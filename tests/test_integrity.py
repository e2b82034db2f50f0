"""A run directory is what its manifest says, or it is refused; one writer at a time."""

import errno
import json
import os
import shlex
import socket
import subprocess
import sys

import pandas as pd
import pytest

from tarotsim.cli import build_parser
from tarotsim.cli.common import run_config, taker_seat
from tarotsim.cli.running import run_spec
from tarotsim.players.config import RunConfig
from tarotsim.runs import store
from tarotsim.runs.lock import LOCK, WriterLock
from tarotsim.runs.spec import FORMAT, RunSpec
from tarotsim.runs.store import Run, chunk_path, execute, load_records, read_manifest


def spec(**overrides):
    base = dict(kind="simulate", seed=5, deals=3000, config=RunConfig(), chunk_deals=1000)
    base.update(overrides)
    return RunSpec(**base)


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """A finished run and its records, to compare damaged and repaired copies with."""
    root = tmp_path_factory.mktemp("clean") / "run"
    execute(root, spec())
    return root, load_records(root)


def copy_run(clean, tmp_path):
    import shutil

    root = tmp_path / "run"
    shutil.copytree(clean[0], root)
    return root


def repair_command(message):
    """The command a chunk's error names, parsed back into the run it makes."""
    command = message.split("repeat `", 1)[1].split("`", 1)[0]
    words = shlex.split(command)
    assert words[0] == "tarotsim"
    args = build_parser().parse_args(words[1:])

    kind = args.command
    extra = {"contracts": args.contracts, "seat": taker_seat(args)} if kind == "sweep" else {}
    return args.out, run_spec(args, run_config(args), kind, **extra)


def test_the_manifest_lists_each_chunk_with_its_rows_size_and_checksum(clean):
    root, _ = clean
    manifest = read_manifest(root)
    for index, entry in manifest["chunks"].items():
        path = chunk_path(root, int(index))
        assert entry["bytes"] == path.stat().st_size
        assert entry["sha256"] == store.file_sha256(path)
        assert entry["rows"] == len(pd.read_parquet(path))
    assert (
        manifest["run"]["format"] == FORMAT
        and manifest["run"]["tarotsim"] == manifest["versions"]["tarotsim"]
    )


def test_a_deleted_chunk_is_named_with_the_command_that_repairs_it(clean, tmp_path):
    root = copy_run(clean, tmp_path)
    chunk_path(root, 1).unlink()
    for verify in ("sha256", "size"):
        with pytest.raises(
            ValueError,
            match=r"chunk chunks/chunk-00001.parquet of run .* is missing; repeat `tarotsim simulate",
        ) as info:
            load_records(root, verify=verify)
        assert "\n" not in str(info.value)
    out, repaired = repair_command(str(info.value))
    assert out == str(root) and repaired.identity() == spec().identity()
    run = execute(out, repaired)
    assert [index for index, _ in run.remade] == [1]
    pd.testing.assert_frame_equal(load_records(root), clean[1])


def test_a_stray_chunk_from_another_run_is_refused(clean, tmp_path):
    root = copy_run(clean, tmp_path)
    other = tmp_path / "other"
    execute(other, spec(seed=6, deals=5000))
    os.link(chunk_path(other, 4), chunk_path(root, 4))
    with pytest.raises(ValueError, match=r"chunk-00004.parquet is not one of the 3 chunks .*: remove it"):
        load_records(root)


@pytest.mark.parametrize("offset", [4, 200, 1000, 3000, -300, -12])
def test_a_flipped_bit_anywhere_is_found_and_resume_makes_the_chunk_again(clean, tmp_path, offset):
    root = copy_run(clean, tmp_path)
    path = chunk_path(root, 0)
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x10
    path.write_bytes(bytes(data))
    with pytest.raises(
        ValueError, match="chunk-00000.parquet .* does not match its checksum in the manifest"
    ):
        load_records(root)
    run = execute(root, spec())
    assert run.remade == [(0, "does not match its checksum in the manifest (altered)")]
    pd.testing.assert_frame_equal(load_records(root), clean[1])


def test_a_truncated_chunk_is_refused_even_on_the_fast_path_and_resume_remakes_it(clean, tmp_path):
    root = copy_run(clean, tmp_path)
    path = chunk_path(root, 2)
    path.write_bytes(path.read_bytes()[:-100])
    with pytest.raises(ValueError, match=r"chunk-00002.parquet .* \(truncated or altered\)"):
        load_records(root, verify="size")
    run = execute(root, spec())
    assert [index for index, _ in run.remade] == [2] and run.manifest["complete"]
    pd.testing.assert_frame_equal(load_records(root), clean[1])


def test_the_fast_path_still_refuses_a_chunk_it_cannot_read(clean, tmp_path):
    root = copy_run(clean, tmp_path)
    path = chunk_path(root, 0)
    data = bytearray(path.read_bytes())
    data[len(data) // 2 : len(data) // 2 + 64] = bytes(64)  # same size, damaged pages
    path.write_bytes(bytes(data))
    try:
        frame = load_records(root, verify="size")
    except ValueError as err:
        assert "chunk-00000.parquet" in str(err) and "\n" not in str(err)
    else:  # the damage fell where Parquet does not look: the default check still sees it
        assert len(frame) == 3000
        with pytest.raises(ValueError, match="checksum"):
            load_records(root)
    with pytest.raises(ValueError, match="verify must be one of sha256, size"):
        load_records(root, verify="none")


def test_a_second_writer_is_refused_while_the_first_holds_the_run(tmp_path):
    root = tmp_path / "run"
    with Run(root, spec()) as first:
        with pytest.raises(ValueError, match=rf"being written by another tarotsim \(pid {os.getpid()} on "):
            execute(root, spec())
        assert first.missing() == [0, 1, 2]
    assert not (root / LOCK).exists()
    assert execute(root, spec()).manifest["complete"]


@pytest.mark.usefixtures("compiled_game")  # the processes it starts load the compiled game
def test_two_processes_writing_one_run_do_not_collide(tmp_path):
    root = tmp_path / "run"
    argv = [
        sys.executable,
        "-m",
        "tarotsim",
        "simulate",
        "--deals",
        "60000",
        "--chunk-deals",
        "2000",
        "--seed",
        "5",
        "--out",
        str(root),
        "--quiet",
    ]
    first = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    second = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    results = [proc.communicate(timeout=300) + (proc.returncode,) for proc in (first, second)]
    codes = sorted(code for _, _, code in results)
    assert codes in ([0, 0], [0, 2]), results  # the second waits its turn, or is refused cleanly
    for _, err, code in results:
        if code == 2:
            assert "being written by another tarotsim" in err and "Traceback" not in err
    assert read_manifest(root)["complete"]
    load_records(root)


def test_a_stale_lock_of_a_dead_process_is_taken_over(tmp_path):
    root = tmp_path / "run"
    root.mkdir()
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    (root / LOCK).write_text(
        json.dumps({"pid": int(dead.stdout), "host": socket.gethostname(), "token": "x"})
    )
    assert execute(root, spec()).manifest["complete"]
    assert not (root / LOCK).exists()


def test_a_lock_held_on_another_host_is_refused_with_what_to_do(tmp_path):
    root = tmp_path / "run"
    root.mkdir()
    (root / LOCK).write_text(json.dumps({"pid": 1234, "host": "elsewhere", "since": "then", "token": "x"}))
    with pytest.raises(ValueError, match=rf"pid 1234 on elsewhere since then.*delete {root / LOCK}"):
        execute(root, spec())


def test_an_empty_lock_file_left_by_a_kill_is_stale_once_old(tmp_path):
    root = tmp_path / "run"
    root.mkdir()
    (root / LOCK).write_text("")
    with pytest.raises(ValueError, match="a writer that is starting"):
        WriterLock(root)
    os.utime(root / LOCK, (0, 0))
    WriterLock(root).release()


def test_a_lock_that_cannot_be_written_is_removed_so_the_repeat_runs_at_once(tmp_path, monkeypatch):
    """On a full disk the lock file was created empty and blocked the repeat for 30 s."""
    import errno
    import types

    import tarotsim.runs.lock as lock

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    root = tmp_path / "run"
    with monkeypatch.context() as patch:
        patch.setattr(lock, "json", types.SimpleNamespace(dump=full, loads=json.loads))
        with pytest.raises(
            ValueError, match=rf"cannot write the lock file {root / LOCK}: No space left on device"
        ):
            execute(root, spec())
    assert not root.exists()  # the new directory is removed again, its lock with it
    assert execute(root, spec()).manifest["complete"]
    assert not (root / LOCK).exists()


def test_a_start_killed_before_its_manifest_leaves_a_directory_taken_as_new(tmp_path):
    root = tmp_path / "run"
    (root / "chunks").mkdir(parents=True)
    (root / "chunks" / "chunk-00000.parquet.tmp-0123abcd").write_bytes(b"half a chunk")
    (root / "manifest.json.tmp-4567").write_text("{")
    assert execute(root, spec()).manifest["complete"]
    assert not list((root / "chunks").glob("*.tmp-*"))


def test_a_directory_with_other_files_or_a_file_is_refused(tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.txt").write_text("x")
    with pytest.raises(ValueError, match="exists and is not a tarotsim run"):
        execute(tmp_path / "notes", spec())
    (tmp_path / "file").write_text("x")
    with pytest.raises(ValueError, match="is a file"):
        execute(tmp_path / "file", spec())


def test_resuming_with_another_version_is_refused_unless_allowed(tmp_path, monkeypatch):
    import re

    import tarotsim._version

    made_by = tarotsim.__version__
    root = tmp_path / "run"
    with Run(root, spec()) as run:
        run.save_chunk(0, spec().compute_chunk(0), worker="test", seconds=0.0)
    monkeypatch.setattr(tarotsim._version, "__version__", "9.9.9")
    with pytest.raises(
        ValueError,
        match=rf"made by tarotsim {re.escape(made_by)} and this is tarotsim 9\.9\.9.*--allow-version-change",
    ):
        execute(root, spec())
    run = execute(root, spec(), allow_version_change=True)
    assert run.manifest["version_changes"] == [{"from": made_by, "to": "9.9.9", "chunks_done": 1}]
    assert run.manifest["versions"]["tarotsim"] == "9.9.9" and run.manifest["run"]["tarotsim"] == made_by
    assert execute(root, spec()).manifest["complete"]  # resumed by 9.9.9 now: no change to allow


@pytest.mark.parametrize("content", ["{}", "[]", '{"run": {"kind": "simulate"}}', '{"run": []}'])
def test_manifests_that_describe_no_run_are_refused(tmp_path, content):
    (tmp_path / "chunks").mkdir()
    (tmp_path / "manifest.json").write_text(content)
    with pytest.raises(ValueError, match="does not describe a tarotsim run|is damaged"):
        read_manifest(tmp_path)


def test_a_run_of_an_older_records_format_is_refused(clean, tmp_path):
    root = copy_run(clean, tmp_path)
    manifest = json.loads((root / "manifest.json").read_text())
    manifest["run"]["format"] = 1
    (root / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(
        ValueError, match=f"made by another tarotsim \\(records format 1; this one reads format {FORMAT}\\)"
    ):
        load_records(root)
    with pytest.raises(ValueError, match="records format 1"):
        execute(root, spec())


def test_a_chunk_list_without_checksums_is_refused(clean, tmp_path):
    root = copy_run(clean, tmp_path)
    manifest = json.loads((root / "manifest.json").read_text())
    del manifest["chunks"]["1"]["sha256"]
    (root / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(ValueError, match="entry of chunk 1 lacks file, rows, bytes, sha256"):
        load_records(root)


def test_a_full_disk_is_a_clean_error_and_leaves_no_temporary_file(tmp_path, monkeypatch):
    import pyarrow.parquet as pq

    def full(table, path, **kwargs):
        with open(path, "wb") as stream:
            stream.write(b"partial")
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    root = tmp_path / "run"
    with monkeypatch.context() as patch:
        patch.setattr(pq, "write_table", full)
        with pytest.raises(
            ValueError, match="cannot write chunk 0 of run .*: No space left on device; free some"
        ):
            execute(root, spec())
    assert not root.exists()  # a new directory without a finished chunk is removed again
    execute(root, spec(), threads=1)
    with monkeypatch.context() as patch:
        patch.setattr(pq, "write_table", full)
        with pytest.raises(ValueError, match="No space left on device"):
            execute(root, spec(deals=4000))
    assert sorted(p.name for p in (root / "chunks").iterdir()) == [f"chunk-0000{i}.parquet" for i in range(3)]
    assert not (root / LOCK).exists()
    assert execute(root, spec(deals=4000)).manifest["complete"]


def test_a_read_only_run_directory_is_a_clean_error(clean, tmp_path, monkeypatch):
    import tarotsim.runs.lock as lock

    root = copy_run(clean, tmp_path)

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(lock.os, "open", read_only)
    with pytest.raises(ValueError, match="cannot write in the run directory .*: Read-only file system"):
        execute(root, spec())


@pytest.mark.parametrize(
    ("other", "differences"),
    [
        (dict(seed=6), "seed 5 against 6"),
        (dict(config=RunConfig(players=3)), "players 4 against 3"),
        (
            dict(deals=2000, config=RunConfig(dealing="unshuffled")),
            "deals 3000 against 2000; dealing shuffled against unshuffled",
        ),
    ],
)
def test_paired_runs_must_hold_the_same_deals(tmp_path, other, differences):
    a = {"run": spec().identity()}
    b = {"run": spec(**other).identity()}
    with pytest.raises(ValueError, match=f"not of the same deals \\({differences}\\)"):
        store.check_paired(a, b)
    store.check_paired(a, {"run": spec(config=RunConfig(policy="heuristic")).identity()})
    sweep = dict(kind="sweep", contracts=("garde",), config=RunConfig(policy="random"))
    with pytest.raises(ValueError, match="taking seat 0 against 2"):
        store.check_paired({"run": spec(**sweep).identity()}, {"run": spec(**sweep, seat=2).identity()})
    with pytest.raises(ValueError, match="manifests of two runs"):
        store.check_paired({}, [])


@pytest.mark.parametrize(
    "run",
    [
        spec(),
        spec(
            config=RunConfig(
                players=5,
                policy="heuristic",
                bid_thresholds=(30, 45, 60, 70),
                chelem_policy="overwhelming",
                chelem_threshold=90,
            )
        ),
        spec(
            kind="sweep",
            contracts=("garde", "prise"),
            seat=2,
            config=RunConfig(policy="random", attack_policy="heuristic"),
        ),
        spec(
            kind="sweep",
            contracts=("prise", "garde", "garde_sans", "garde_contre"),
            config=RunConfig(policy="heuristic", ecart_policy="expert", players=3),
            chunk_deals=1 << 18,
        ),
    ],
)
def test_the_repair_command_makes_the_same_run(run, tmp_path):
    out, parsed = repair_command(f"repeat `{run.command(tmp_path / 'a dir')}` to")
    assert out == str(tmp_path / "a dir") and parsed.identity() == run.identity()
    assert spec(config=RunConfig(forced_taker=1, forced_contract="garde")).command(tmp_path) is None


def test_a_container_memory_limit_bounds_the_memory_available(tmp_path, monkeypatch):
    from tarotsim.runs import runner as engine

    (tmp_path / "max").write_text("1000000000\n")
    (tmp_path / "current").write_text("400000000\n")
    monkeypatch.setattr(engine, "_CGROUP_MEMORY", ((str(tmp_path / "max"), str(tmp_path / "current")),))
    assert engine.available_memory() == 600_000_000
    (tmp_path / "max").write_text("max\n")  # no limit: the machine's memory
    assert engine.available_memory() > 0
    monkeypatch.setattr(engine, "available_memory", lambda: 10**9)
    engine.check_memory(1000, 10**6)
    with pytest.raises(ValueError, match=r"3,000 records need about 3.0 GB of memory \(1000000 bytes each\)"):
        engine.check_memory(3000, 10**6)
    monkeypatch.setattr(engine, "available_memory", lambda: 10**5)
    with pytest.raises(ValueError, match="--out DIR, and a smaller --chunk-deals"):
        spec().check_memory()
    with pytest.raises(ValueError, match="1,000 records need"):
        execute(tmp_path / "run", spec())
    assert not (tmp_path / "run").exists()


def test_a_finished_run_extended_to_more_deals_equals_a_fresh_run_of_that_size(clean, tmp_path):
    root = tmp_path / "run"
    execute(root, spec(deals=2300))  # chunk 2 holds 300 deals, then 1000
    run = execute(root, spec())
    assert run.extended_from == 2300 and not run.remade and run.manifest["complete"]
    assert read_manifest(root)["run"]["deals"] == 3000
    pd.testing.assert_frame_equal(load_records(root), clean[1])
    with pytest.raises(ValueError, match="holds a run of 3,000 deals: give --deals 3000"):
        execute(root, spec(deals=2000))


def test_a_conditioned_sweep_extended_to_more_deals_equals_a_fresh_run_of_that_size(tmp_path):
    """Its weights depend on its deal count: the kept chunks are written again with the larger run's."""

    def sweep(deals):
        return spec(
            kind="sweep", deals=deals, chunk_deals=200, contracts=("prise", "garde"), seat=0,
            config=RunConfig(policy="random"), where={0: {"trumps": (6, 9)}}, stratify=("taker_bouts",),
        )  # fmt: skip

    execute(tmp_path / "fresh", sweep(700))
    root = tmp_path / "run"
    execute(root, sweep(500))  # chunk 2 holds 100 deals, then 200
    before = load_records(root)
    run = execute(root, sweep(700))
    assert run.extended_from == 500 and not run.remade and run.manifest["complete"]
    after, fresh = load_records(root), load_records(tmp_path / "fresh")
    assert not after["weight"].head(len(before)).equals(before["weight"])
    pd.testing.assert_frame_equal(after, fresh)
    assert execute(root, sweep(700)).manifest["complete"]  # resumed as it is: every chunk checks out


def test_an_edited_seed_is_refused_and_the_command_repairs_it(clean, tmp_path):
    root = copy_run(clean, tmp_path)
    manifest = json.loads((root / "manifest.json").read_text())
    manifest["run"]["seed"] = 6
    (root / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(ValueError, match="no longer matches its checksum"):
        load_records(root)
    run = execute(root, spec())
    assert run.rebuilt is not None and not run.remade
    pd.testing.assert_frame_equal(load_records(root), clean[1])
