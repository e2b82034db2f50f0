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

GOLDEN = Path(__file__).resolve().parent / "golden"
DIGESTS = json.loads((GOLDEN / "digests.json").read_text(encoding="utf-8"))


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
