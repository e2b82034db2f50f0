"""Where a report's numbers come from: the run (or duel) it reads, the command that makes it
again, and when and where the report was made.

Every report ends with a provenance table of two text columns, ``field`` and ``value``:
[`provenance_table`][tarotsim.report.provenance.provenance_table] for a run directory (from its manifest) and
``tarotsim.contests.duel_report.duel_provenance`` for a duel, each followed by [`made_here`][tarotsim.report.provenance.made_here] (the date, this machine and the versions
the report was written with).
"""

from __future__ import annotations

import os
import platform
import shlex
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import pandas as pd

from tarotsim.analysis.loading import Data
from tarotsim.analysis.moments import Counts
from tarotsim.analysis.reduction import plan, reduce_records

_OPTIONS = {
    "players": "--players",
    "policy": "--policy",
    "attack_policy": "--attack-policy",
    "defence_policy": "--defence-policy",
    "bid_policy": "--bid-policy",
    "bidder": "--bidder",
    "ecart_policy": "--ecart-policy",
    "poignee_policy": "--poignee-policy",
    "chelem_policy": "--chelem-policy",
    "dealing": "--dealing",
    "bid_thresholds": "--bid-thresholds",
    "chelem_threshold": "--chelem-threshold",
}
"""Configuration keys of a manifest and the command-line options that set them."""

_UNSET = {"forced_taker": -1, "forced_contract": None}
"""Keys a command never sets: the run is made by a command only when they hold these values."""

_VERSIONED = ("tarotsim", "numba", "numpy", "pandas", "pyarrow", "matplotlib", "statsmodels")


def run_command(manifest: dict[str, Any], out: str = "DIR") -> str:
    """The ``tarotsim`` command that makes the run of `manifest` again (into `out`), or ``""``
    when its configuration holds a setting no command-line option gives.

    >>> run_command({"run": {"kind": "simulate", "seed": 5, "deals": 1000,
    ...     "config": {"players": 4, "policy": "random", "attack_policy": None}}})
    'tarotsim simulate --deals 1000 --seed 5 --out DIR --players 4 --policy random'
    """
    run = manifest.get("run", {})
    kind = run.get("kind")
    if kind not in ("simulate", "sweep"):
        return ""
    words = ["tarotsim", kind, "--deals", str(run.get("deals")), "--seed", str(run.get("seed")), "--out", out]
    if kind == "sweep":
        words += ["--seat", str(run.get("seat", 0)), "--contracts", ",".join(run.get("contracts", []))]
    condition = run.get("condition")
    if condition:
        from tarotsim.runs.strata import where_text

        where = tuple(tuple(item) for item in condition.get("where", ()))
        words += [f"--where={word}" for word in where_text(where).split()]
        if condition.get("stratify"):
            words += ["--stratify", ",".join(condition["stratify"])]
    for key, value in (run.get("config") or {}).items():
        if key in _UNSET:
            if value != _UNSET[key]:
                return ""
            continue
        if key not in _OPTIONS:
            return ""
        if value is None:
            continue
        text = ",".join(map(str, value)) if isinstance(value, list | tuple) else str(value)
        words += [_OPTIONS[key], text]
    if run.get("chunk_deals"):
        words += ["--chunk-deals", str(run["chunk_deals"])]
    return shlex.join(words)


def provenance_table(
    manifest: dict[str, Any],
    records: Data | None = None,
    *,
    counts: dict[str, Any] | None = None,
    out: str = "DIR",
) -> pd.DataFrame:
    """Where the run comes from, as a two-column table (``field``, ``value``, both text).

    Seed, deal count, kind, contracts and seat (sweeps), policies, the command that makes
    the run again (writing into `out`), versions, wall time and whether the run is
    complete; with the run's `records` (a DataFrame or the run directory, read chunk by
    chunk) or their `counts` (a `Counts` result), the
    played and thrown-in deal counts.
    """
    if counts is None and records is not None:
        counts = reduce_records(records, plan(Counts()), what="the provenance table")[Counts.key]
    run = manifest.get("run", {})
    config = run.get("config", {}) or {}
    policy = config.get("policy")
    rows: list[tuple[str, object]] = [
        ("kind", run.get("kind")),
        ("seed", run.get("seed")),
        ("deals", f"{run.get('deals', 0):,}"),
    ]
    if counts is not None:
        reasons = sorted(counts["thrown_in_deals"].items(), key=lambda kv: -kv[1])
        rows.append(("played deals", f"{counts['played_deals']:,}"))
        rows.append(("records (rows)", f"{counts['rows']:,}"))
        rows.append(
            ("thrown in", ", ".join(f"{k.replace('_', ' ')} {v:,}" for k, v in reasons if v) or "none")
        )
    if run.get("kind") == "sweep":
        rows.append(("contracts", ", ".join(c.replace("_", " ") for c in run.get("contracts", []))))
        rows.append(("taking seat", run.get("seat")))
    condition = run.get("condition")
    if condition:
        from tarotsim.runs.strata import where_text

        where = tuple(tuple(item) for item in condition.get("where", ()))
        rows.append(("hands dealt", where_text(where) or "every hand"))
        strata = ", ".join(condition.get("stratify", [])) or "no: one cell"
        rows.append(
            (
                "stratified on",
                f"{strata}; every table weighs each deal by its cell's probability over its deals (`weight`)",
            )
        )
    rows += [
        ("players", config.get("players")),
        ("card play", policy),
        ("attack card play", config.get("attack_policy") or policy),
        ("defence card play", config.get("defence_policy") or policy),
        ("bid policy", config.get("bid_policy")),
        ("bid thresholds", ", ".join(map(str, config.get("bid_thresholds", []) or []))),
        ("écart policy", config.get("ecart_policy")),
        ("poignée policy", config.get("poignee_policy")),
        ("chelem policy", config.get("chelem_policy")),
        ("chunk size (deals)", f"{run.get('chunk_deals', 0):,}"),
    ]
    command = run_command(manifest, out)
    if command:
        rows.append(("command", command))
    for name, value in (manifest.get("versions") or {}).items():
        rows.append((f"{name} version", value))
    workers = sorted(
        {str(c.get("worker")) for c in (manifest.get("chunks") or {}).values() if c.get("worker")}
    )
    if workers:
        rows.append(("made by", ", ".join(workers)))
    wall = manifest.get("wall_time_s")
    rows.append(("wall time (s)", "" if wall is None else f"{float(wall):.1f}"))
    rows.append(("complete", "yes" if manifest.get("complete") else "no"))
    return field_table(rows)


def made_here(now: datetime | None = None) -> pd.DataFrame:
    """When, where and with what the report was written (``field``, ``value``): the date
    (UTC), this machine (host, system, processor, cores, Python) and the versions of
    tarotsim and its main libraries, in one row each."""
    when = (now or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M UTC")
    machine = (
        f"{platform.node() or 'unknown host'}: {platform.system()} {platform.machine()}, "
        f"{os.cpu_count() or '?'} cores, Python {platform.python_version()}"
    )
    from tarotsim._version import __version__

    versions = [f"tarotsim {__version__}"]
    for name in _VERSIONED[1:]:
        try:
            versions.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            continue
    rows: list[tuple[str, object]] = [
        ("report made", when),
        ("report made on", machine),
        ("report made with", ", ".join(versions)),
    ]
    return field_table(rows)


def field_table(rows: list[tuple[str, object]]) -> pd.DataFrame:
    """``(field, value)`` rows as a provenance table: two text columns, an empty value for None."""
    return pd.DataFrame(
        {"field": [r[0] for r in rows], "value": ["" if r[1] is None else str(r[1]) for r in rows]}
    )
