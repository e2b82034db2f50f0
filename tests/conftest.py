"""Fixtures shared by the test modules."""

from __future__ import annotations

from collections.abc import Iterator

import pandas as pd
import pytest


def _compile_the_game() -> None:
    from tarotsim.base.seeding import run_key
    from tarotsim.players.config import RunConfig
    from tarotsim.runs.runner import play_deals

    play_deals(0, 1, run_key(0), RunConfig().to_array())


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """Under pytest-xdist (``make test``), the controller compiles (or loads) the game once
    before it starts the workers, which would otherwise each compile the same kernels at the
    same time on an empty cache."""
    config = session.config
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        _compile_the_game()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under ``--dist loadgroup`` (``make test``), the tests of one ``xdist_group`` go to one
    worker: pytest-xdist names each ``nodeid@group`` for its scheduler, by setting
    ``item._nodeid``, which pytest 9 no longer reads (a node id is a ``NodeId`` there), so
    the groups were spread over the workers and each compiled their kernels again, side by
    side. The name is set here where xdist's did not take."""
    if not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        names = {
            str(m.args[0] if m.args else m.kwargs.get("name", "default"))
            for m in item.iter_markers("xdist_group")
        }
        nodeid = item.nodeid
        if not names or nodeid.rfind("@") > nodeid.rfind("]"):
            continue  # no group, or named already
        grouped = f"{nodeid}@{'_'.join(sorted(names))}"
        if hasattr(item, "_id"):
            from _pytest.nodeid import NodeId

            item._id = NodeId.parse(grouped)
        else:
            item._nodeid = grouped


@pytest.fixture(scope="session")
def compiled_game() -> None:
    """The run kernel of games without search players compiled (or loaded) in this process
    and so in the on-disk cache, before a test starts other processes (``python -m
    tarotsim``, Dask workers): they load it in a second instead of each compiling it
    (half a minute of CPU), at the same time, on an empty cache."""
    _compile_the_game()


@pytest.fixture(scope="module")
def recorded_runs() -> Iterator[None]:
    """``RunSpec.compute_chunk`` serves the chunks of the runs recorded in
    ``tests/fixtures`` instead of simulating them (any other spec is simulated): for the
    tests of what is done with records, which then neither compile nor play the game."""
    from tarotsim.runs.spec import RunSpec
    from tests.fixtures.runs import recorded_chunk

    original = RunSpec.compute_chunk

    def compute_chunk(self: RunSpec, index: int, *, progress: bool = False) -> pd.DataFrame:
        served = recorded_chunk(self, index)
        return original(self, index, progress=progress) if served is None else served

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(RunSpec, "compute_chunk", compute_chunk)
        yield
