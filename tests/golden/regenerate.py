"""Regenerate the golden files: ``python -m tests.golden.regenerate`` from the repository root.

The golden files pin what a fixed seed produces: a few readable traces at 3, 4 and 5
players (``traces-<players>p.jsonl``) and, in ``digests.json``, one SHA-256 per record
column of fixed-seed runs and one per trace file of longer traces. A change of the RNG,
the dealing or a policy changes them, and ``tests/test_golden.py`` says which column
moved. Regenerate only for a change that is meant to alter the deals, and say so in the
commit.

``basic.json`` is not written here: it freezes the heuristic cases' digests as they were
before issue 13's heuristic, which ``play=basic`` must keep reproducing.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pandas as pd

from tests.golden.cases import (
    RECORD_CASES,
    TRACE_CASES,
    TRACE_DIGEST_DEALS,
    readable_traces,
    run_records,
    run_traces,
)

GOLDEN = Path(__file__).resolve().parent


def column_digest(values: pd.Series) -> str:
    """SHA-256 of a column's values written one per line, a missing value as ``null``."""
    text = "\n".join(
        "null" if pd.isna(v) else repr(v.item() if hasattr(v, "item") else v) for v in values.astype(object)
    )
    return hashlib.sha256(text.encode()).hexdigest()


def record_digests(frame: pd.DataFrame) -> dict[str, str]:
    """One digest per column of a record frame."""
    return {name: column_digest(frame[name]) for name in frame.columns}


def trace_digest(traces: list[dict[str, Any]]) -> str:
    """SHA-256 of traces written as JSON Lines."""
    text = "".join(json.dumps(trace) + "\n" for trace in traces)
    return hashlib.sha256(text.encode()).hexdigest()


def digests() -> dict[str, Any]:
    """Every digest of ``digests.json``."""
    return {
        "records": {name: record_digests(run_records(name)) for name in RECORD_CASES},
        "traces": {name: trace_digest(run_traces(name, TRACE_DIGEST_DEALS)) for name in TRACE_CASES},
    }


def main() -> None:
    for players in (3, 4, 5):
        path = GOLDEN / f"traces-{players}p.jsonl"
        path.write_text("".join(json.dumps(t) + "\n" for t in readable_traces(players)), encoding="utf-8")
    (GOLDEN / "digests.json").write_text(
        json.dumps(digests(), indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    print(f"golden files written to {GOLDEN}")


if __name__ == "__main__":
    main()
