"""The suite's own schedule under ``make test`` (``-n auto --dist loadgroup``): the tests of one
``xdist_group`` run on one worker, so that a kernel they all compile is compiled once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("xdist")

GROUPED = """
import os

import pytest

pytestmark = pytest.mark.xdist_group("one")


@pytest.mark.parametrize("i", range(6))
def test_grouped(i):
    with open(os.environ["WORKERS_LOG"], "a") as log:
        log.write(f"grouped {os.environ['PYTEST_XDIST_WORKER']}\\n")
"""
FREE = """
import os
import time

import pytest


@pytest.mark.parametrize("i", range(6))
def test_free(i):
    time.sleep(0.05)
    with open(os.environ["WORKERS_LOG"], "a") as log:
        log.write(f"free {os.environ['PYTEST_XDIST_WORKER']}\\n")
"""


def test_the_tests_of_an_xdist_group_run_on_one_worker(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "conftest.py").write_text(
        "from tests.conftest import pytest_collection_modifyitems  # noqa: F401\n"
    )
    (suite / "test_grouped.py").write_text(GROUPED)
    (suite / "test_free.py").write_text(FREE)
    log = tmp_path / "workers.log"
    root = str(Path(__file__).resolve().parents[1])
    env = {
        **{name: value for name, value in os.environ.items() if not name.startswith("PYTEST_")},
        "WORKERS_LOG": str(log),
        "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])),
    }
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2", "--dist", "loadgroup"]
    done = subprocess.run([*argv, str(suite)], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    runs = [line.split() for line in log.read_text().splitlines()]
    assert len(runs) == 12
    assert len({worker for kind, worker in runs if kind == "grouped"}) == 1, runs
