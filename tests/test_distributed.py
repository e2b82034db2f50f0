"""Runs on a Dask cluster: identical records to a local run, resume, a killed worker, no Dask needed locally."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

from tarotsim.analysis import load_records
from tarotsim.players.config import RunConfig
from tarotsim.runs.spec import RunSpec
from tarotsim.runs.store import execute

distributed = pytest.importorskip("distributed")

from tarotsim.runs.distributed import MISSING_DASK, _check_workers, execute_distributed, make_chunk  # noqa: E402

pytestmark = pytest.mark.usefixtures("compiled_game")  # the workers load the compiled game

# The cluster's worker processes log through `logging`, not `warnings`; nothing here needs filtering
# under -W error. Should a distributed release warn on shutdown, filter that one message here, by text.


def spec(**overrides):
    base = dict(kind="simulate", seed=11, deals=20_000, config=RunConfig(policy="random"), chunk_deals=2_000)
    base.update(overrides)
    return RunSpec(**base)


@pytest.fixture(scope="module")
def local_run(tmp_path_factory):
    """The reference: the same run made on this process's threads."""
    out = tmp_path_factory.mktemp("local") / "run"
    execute(out, spec())
    return load_records(out)


@pytest.fixture(scope="module")
def cluster():
    """Two single-threaded worker processes, shut down at the end of the module."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        yield cluster


def chunk_workers(run):
    return {index: chunk["worker"] for index, chunk in run.manifest["chunks"].items()}


@pytest.mark.parametrize("write_on", ["workers", "client"])
def test_local_cluster_gives_the_local_records(tmp_path, local_run, write_on):
    run = execute_distributed(tmp_path / "run", spec(), workers=2, write_on=write_on)
    assert run.manifest["complete"] and run.manifest["counts"]["deals"] == 20_000
    assert len(run.manifest["chunks"]) == 10
    assert all(worker.startswith("tcp://") for worker in chunk_workers(run).values())
    assert not list((tmp_path / "run" / "chunks").glob("*.tmp*"))
    pd.testing.assert_frame_equal(load_records(tmp_path / "run"), local_run)


def test_sweep_on_a_cluster_equals_the_local_sweep(tmp_path, cluster):
    sweep = spec(kind="sweep", deals=3_000, chunk_deals=1_000, contracts=("prise", "garde_sans"), seat=1)
    execute(tmp_path / "local", sweep)
    execute_distributed(tmp_path / "dask", sweep, scheduler=cluster.scheduler_address, write_on="client")
    pd.testing.assert_frame_equal(load_records(tmp_path / "dask"), load_records(tmp_path / "local"))


def test_resume_submits_only_the_missing_chunks(tmp_path, cluster, local_run):
    out = tmp_path / "run"
    first = execute(out, spec(), threads=1)
    for index in (3, 7):  # lost chunks, e.g. a disk cleaned up by hand
        (out / "chunks" / f"chunk-{index:05d}.parquet").unlink()
    run = execute_distributed(out, spec(), scheduler=cluster.scheduler_address)
    workers = chunk_workers(run)
    assert {i for i, w in workers.items() if w.startswith("tcp://")} == {"3", "7"}
    for index, chunk in first.manifest["chunks"].items():
        if index not in ("3", "7"):
            assert run.manifest["chunks"][index] == chunk
    pd.testing.assert_frame_equal(load_records(out), local_run)
    again = execute_distributed(out, spec(), scheduler=cluster.scheduler_address)  # nothing left: no task
    assert again.manifest["chunks"] == run.manifest["chunks"]


@pytest.mark.parametrize(
    "seats",
    [
        ("play=tests.players_for_tests:first", "play=heuristic"),  # a Python player: a duel
        ("play=tests.players_for_tests:lowest", "play=heuristic", "play=greedy", "play=heuristic"),  # Numba
    ],
)
def test_workers_load_user_players_by_import_path(tmp_path, cluster, seats):
    if len(seats) == 2:
        run = RunSpec(kind="duel", seed=4, deals=60, chunk_deals=20, config=RunConfig(), duel=seats)
    else:
        run = spec(deals=60, chunk_deals=20, config=RunConfig(strategies=seats))
    execute(tmp_path / "local", run)
    dask = execute_distributed(tmp_path / "dask", run, scheduler=cluster.scheduler_address)
    assert all(worker.startswith("tcp://") for worker in chunk_workers(dask).values())
    pd.testing.assert_frame_equal(load_records(tmp_path / "dask"), load_records(tmp_path / "local"))


def test_a_killed_worker_costs_only_its_chunks(tmp_path):
    killed = spec(deals=40_000, chunk_deals=400)  # 100 small tasks, so the kill lands mid-run
    out = tmp_path / "run"
    seen = {}

    def kill_one_worker_mid_run(client):
        manifest = out / "manifest.json"
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                done = len(json.loads(manifest.read_text())["chunks"])
            except (OSError, ValueError, KeyError):
                done = 0
            if done >= 5:
                break
            time.sleep(0.005)
        pids = client.run(os.getpid)
        busy = client.processing()
        address = max(pids, key=lambda a: len(busy.get(a, ())))
        seen.update(address=address, in_flight=len(busy.get(address, ())), done=done)
        os.kill(pids[address], signal.SIGKILL)

    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        killer = threading.Thread(target=kill_one_worker_mid_run, args=(client,))
        killer.start()
        run = execute_distributed(out, killed, scheduler=cluster.scheduler_address)
        killer.join()
    assert seen["in_flight"] >= 1, "the killed worker had no chunk in flight"
    assert 5 <= seen["done"] < 100, "the run ended before the kill"
    assert run.manifest["complete"] and len(run.manifest["chunks"]) == 100
    workers = set(chunk_workers(run).values())
    assert (
        len(workers) >= 2 and seen["address"] in workers
    )  # it made chunks before it died, others made the rest
    reference = tmp_path / "local"
    execute(reference, killed)
    pd.testing.assert_frame_equal(load_records(out), load_records(reference))


def test_a_chunk_task_is_idempotent(tmp_path):
    run_dir = tmp_path / "run"
    execute(run_dir, spec(deals=3_000))
    path = run_dir / "chunks" / "chunk-00001.parquet"
    before = path.read_bytes()
    for _ in range(2):
        result = make_chunk(spec(deals=3_000).identity(), 1, str(run_dir))
        assert path.read_bytes() == before
        assert len(result["frame"]) == 1_000 and list(result["frame"].columns) == ["thrown_in"]
    assert sorted(p.name for p in (run_dir / "chunks").iterdir()) == [
        "chunk-00000.parquet",
        "chunk-00001.parquet",
    ]


def test_missing_dask_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` now raises ImportError
    with pytest.raises(
        ValueError, match=r"Dask is needed for --scheduler/--workers: pip install 'dask\[distributed\]'"
    ):
        execute_distributed(tmp_path / "run", spec(), workers=2)
    assert not (tmp_path / "run").exists()
    assert MISSING_DASK.startswith("Dask is needed")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({}, "needs a scheduler address or a number of local workers"),
        ({"scheduler": "tcp://x:8786", "workers": 2}, "not both"),
        ({"workers": 0}, "workers must be at least 1"),
        ({"scheduler": " "}, "must be like tcp://host:8786"),
        ({"workers": 2, "write_on": "nfs"}, "write_on must be 'workers' or 'client'"),
    ],
)
def test_bad_options_are_refused(tmp_path, options, message):
    with pytest.raises(ValueError, match=message):
        execute_distributed(tmp_path / "run", spec(), **options)


def test_workers_with_other_versions_or_no_shared_directory_are_refused():
    from tarotsim.runs.store import versions

    good = {"versions": versions(), "sees_run": True}
    _check_workers({"tcp://a:1": good}, "/shared/run")
    with pytest.raises(ValueError, match="tcp://b:2 runs other versions.*numba 0.1 there"):
        _check_workers(
            {"tcp://a:1": good, "tcp://b:2": {**good, "versions": {**versions(), "numba": "0.1"}}}, None
        )
    with pytest.raises(
        ValueError, match="tcp://a:1 cannot write the run directory /shared/run.*--write-on client"
    ):
        _check_workers({"tcp://a:1": {**good, "sees_run": False}}, "/shared/run")
    with pytest.raises(ValueError, match="no workers"):
        _check_workers({}, None)


def test_a_local_run_never_imports_dask(tmp_path):
    code = (
        "import sys\n"
        "import tarotsim.runs.distributed\n"
        "from tarotsim.cli import main\n"
        f"assert main(['simulate', '--deals', '2000', '--chunk-deals', '500', '--out', {str(tmp_path / 'run')!r},"
        " '--quiet']) == 0\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed'))\n"
        "assert not loaded, loaded\n"
    )
    root = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
    subprocess.run([sys.executable, "-c", code], check=True, stdout=subprocess.DEVNULL, env=env)


def _cli_has_cluster_options():
    from tarotsim.cli import build_parser

    return not build_parser().parse_known_args(["simulate", "--workers", "2"])[1]


@pytest.mark.skipif(not _cli_has_cluster_options(), reason="tarotsim.cli has no --scheduler/--workers yet")
def test_cli_runs_on_a_local_cluster(tmp_path, capsys, monkeypatch):
    from tarotsim.cli import main

    common = [
        "sweep",
        "--deals",
        "4000",
        "--chunk-deals",
        "1000",
        "--seed",
        "2",
        "--policy",
        "random",
        "--ecart-policy",
        "simple",
        "--contracts",
        "prise,garde",
        "--quiet",
    ]
    assert main([*common, "--out", str(tmp_path / "local")]) == 0
    assert main([*common, "--out", str(tmp_path / "dask"), "--workers", "2", "--write-on", "client"]) == 0
    pd.testing.assert_frame_equal(load_records(tmp_path / "dask"), load_records(tmp_path / "local"))
    capsys.readouterr()
    assert main([*common, "--out", str(tmp_path / "x"), "--workers", "2", "--threads", "2"]) == 2
    assert "--threads is for local runs" in capsys.readouterr().err
    assert main([*common, "--out", str(tmp_path / "x"), "--write-on", "client"]) == 2
    assert "--write-on goes with --scheduler or --workers" in capsys.readouterr().err
    assert main(["simulate", "--deals", "100", "--workers", "2"]) == 2
    assert "need --out" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "distributed", None)
    assert main([*common, "--out", str(tmp_path / "y"), "--workers", "2"]) == 2
    assert (
        "Dask is needed for --scheduler/--workers: pip install 'dask[distributed]'" in capsys.readouterr().err
    )
