"""The recorded runs of tests/fixtures are what the simulator makes now."""

import pandas as pd
import pytest

from tests.fixtures.runs import RUNS, recorded_chunk


@pytest.mark.parametrize("name", sorted(RUNS))
def test_each_recorded_chunk_is_what_the_simulator_makes(name):
    spec = RUNS[name]
    for index in range(spec.n_chunks):
        recorded, fresh = recorded_chunk(spec, index), spec.compute_chunk(index)
        assert recorded is not None
        pd.testing.assert_frame_equal(recorded, fresh, check_exact=True, obj=f"{name} chunk {index}")
        assert recorded.attrs == fresh.attrs


def test_a_spec_not_recorded_is_not_served():
    spec = RUNS["report-simulate"]
    other = type(spec)(kind="simulate", seed=spec.seed + 1, deals=spec.deals, config=spec.config)
    assert recorded_chunk(other, 0) is None
