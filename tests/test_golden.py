"""Golden files: a fixed seed gives the records and traces committed under ``tests/golden``.

Regenerate with ``python -m tests.golden.regenerate`` only for a change meant to alter deals.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.golden.cases import (
    RECORD_CASES,
    TRACE_CASES,
    TRACE_DIGEST_DEALS,
    readable_traces,
    run_records,
    run_traces,
)
from tests.golden.regenerate import record_digests, trace_digest

# The first tests to play the searching game are here and in tests/test_montecarlo_bidder.py;
# one worker runs both modules (the Makefile's --dist loadgroup), so that game is compiled once,
# not twice at once.
pytestmark = pytest.mark.xdist_group("search_game")

GOLDEN = Path(__file__).resolve().parent / "golden"
DIGESTS = json.loads((GOLDEN / "digests.json").read_text(encoding="utf-8"))
BASIC = json.loads((GOLDEN / "basic.json").read_text(encoding="utf-8"))
"""The heuristic cases' digests as committed before issue 13's heuristic; never regenerated."""


@pytest.mark.parametrize("name", sorted(RECORD_CASES))
def test_record_columns_match_golden_digests(name: str) -> None:
    expected = DIGESTS["records"][name]
    found = record_digests(run_records(name))
    changed = sorted(column for column in expected if found.get(column) != expected[column])
    assert not changed, f"{name}: columns changed from the golden run: {changed}"


@pytest.mark.parametrize("name", sorted(TRACE_CASES))
def test_traces_match_golden_digests(name: str) -> None:
    assert trace_digest(run_traces(name, TRACE_DIGEST_DEALS)) == DIGESTS["traces"][name]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_readable_traces_match_golden_files(players: int) -> None:
    lines = (GOLDEN / f"traces-{players}p.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == readable_traces(players)


@pytest.mark.parametrize("name", sorted(BASIC["records"]))
def test_basic_plays_as_the_heuristic_did_before_issue_13(name: str) -> None:
    """``play=basic`` is the heuristic of before: same records as its frozen golden digests."""
    expected = BASIC["records"][name]
    found = record_digests(run_records(name, policy="basic"))
    changed = sorted(column for column in expected if found.get(column) != expected[column])
    assert not changed, f"{name} with basic play: columns changed from the old heuristic: {changed}"


@pytest.mark.parametrize("name", sorted(BASIC["traces"]))
def test_basic_traces_match_the_old_heuristic(name: str) -> None:
    assert trace_digest(run_traces(name, TRACE_DIGEST_DEALS, policy="basic")) == BASIC["traces"][name]
