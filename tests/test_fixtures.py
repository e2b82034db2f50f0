"""The recorded runs of tests/fixtures are what the simulator makes now."""

from dataclasses import replace

import pandas as pd
import pytest

from tarotsim.players.config import RunConfig
from tests.fixtures.runs import RUNS, recorded_chunk


@pytest.mark.parametrize("name", sorted(RUNS))
def test_each_recorded_chunk_is_what_the_simulator_makes(name):
    spec = RUNS[name]
    for index in range(spec.n_chunks):
        recorded, fresh = recorded_chunk(spec, index), spec.compute_chunk(index)
        assert recorded is not None
        pd.testing.assert_frame_equal(recorded, fresh, check_exact=True, obj=f"{name} chunk {index}")
        assert recorded.attrs == fresh.attrs


def test_a_recorded_run_serves_other_chunkings_of_its_deals():
    spec = replace(RUNS["chunked-sweep"], deals=2000, chunk_deals=333)
    for index in (0, spec.n_chunks - 1):
        served = recorded_chunk(spec, index)
        assert served is not None
        pd.testing.assert_frame_equal(served, spec.compute_chunk(index), check_exact=True)


def test_a_spec_not_recorded_is_not_served():
    spec = RUNS["report-simulate"]
    assert recorded_chunk(replace(spec, seed=spec.seed + 1), 0) is None
    assert recorded_chunk(replace(spec, deals=spec.deals + 1), 0) is None
    assert recorded_chunk(replace(spec, config=RunConfig(policy="heuristic")), 0) is None
