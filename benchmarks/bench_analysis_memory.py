"""Peak memory and time of the commands that read a run, at two run sizes and on the 10M sweep.

Writes reports/analysis-memory.md: for ``report``, ``table``, ``thresholds`` and ``compare``,
the peak resident memory (``/usr/bin/time -v``, maximum RSS of the process) and the wall time
on a sweep of ``--small`` and of ``--large`` chunks, and their ratio; then the wall time of
reading the whole source run (``table`` and ``report``), with the load average before and after
each command (the machine is shared).

The two runs are the first chunks of ``--source`` (a sweep made with ``--chunk-deals``),
written again by the run store as run directories of their own: a run's deals are drawn from
its seed and their number only, so they hold exactly what ``tarotsim sweep`` with that seed,
chunk size and deal count writes, at a fraction of the cost. ``compare`` pairs a run with
itself (every difference is 0; it reads both sides in full).

    nice -n 5 .venv/bin/python benchmarks/bench_analysis_memory.py \\
        --source /work/main/runs/sweep-10M --work /tmp/analysis-memory

Costs about 15 minutes on the 2-core development machine.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import platform
import re
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from tarotsim.analysis import to_markdown
from tarotsim.runs import store
from tarotsim.runs.spec import RunSpec

ROOT = Path(__file__).resolve().parent.parent
REPORTS = ROOT / "reports"
TARGET_MB = 500.0
"""The bound on any reader's peak memory."""
TARGET_GROWTH = 0.10
"""The bound on the growth of peak memory from the small run to the large one."""
TARGET_S = 60.0
"""The bound on reading a 10M-deal sweep."""


def prefix_run(source: Path, dest: Path, chunks: int) -> Path:
    """A run directory of the first `chunks` chunks of the run `source` (made once, resumable)."""
    manifest = store.read_manifest(source)
    spec = RunSpec.from_identity(manifest["run"])
    spec = dataclasses.replace(spec, deals=min(spec.deals, chunks * spec.chunk_deals))
    paths = store.chunk_paths(source, manifest, verify="size")
    with store.Run(dest, spec) as made:
        for index in made.missing():
            entry = manifest["chunks"][str(index)]
            frame = pd.read_parquet(paths[index])
            made.save_chunk(index, frame, worker=f"copied from {source}", seconds=float(entry["seconds"]))
        made.finish()
    return dest


def cpu_name() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
        return next(line.split(":", 1)[1].strip() for line in out.splitlines() if "Model name" in line)
    except (OSError, subprocess.CalledProcessError, StopIteration):
        return platform.processor() or "unknown"


def measure(args: list[str]) -> dict[str, object]:
    """Run ``tarotsim ARGS`` under ``/usr/bin/time -v``: peak RSS (MB), wall time (s), load averages."""
    tarotsim = str(Path(sys.executable).parent / "tarotsim")
    before = os.getloadavg()[0]
    started = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-v", tarotsim, *args], capture_output=True, text=True)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"tarotsim {' '.join(args)} failed: {done.stderr.strip().splitlines()[-1:]}")

    def field(name: str) -> float:
        return float(re.search(rf"{re.escape(name)}: ([\d.]+)", done.stderr).group(1))  # type: ignore[union-attr]

    return {
        "peak_mb": field("Maximum resident set size (kbytes)") / 1024,
        "wall_s": wall,
        "cpu_s": field("User time (seconds)") + field("System time (seconds)"),
        "load_before": before,
        "load_after": os.getloadavg()[0],
    }


def commands(run: Path, out: Path) -> dict[str, list[str]]:
    """The reading commands measured, on `run` (outputs under `out`)."""
    return {
        "report": ["report", str(run), "--out", str(out / f"report-{run.name}"), "--force"],
        "table": ["table", str(run)],
        "thresholds": ["thresholds", str(run)],
        "compare": ["compare", str(run), str(run)],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, required=True, help="a finished sweep run directory")
    parser.add_argument("--work", type=Path, required=True, help="where the two smaller runs are written")
    parser.add_argument("--small", type=int, default=4, help="chunks of the small run (default 4)")
    parser.add_argument("--large", type=int, default=16, help="chunks of the large run (default 16)")
    parser.add_argument("--out", type=Path, default=REPORTS / "analysis-memory.md")
    opts = parser.parse_args()

    source = opts.source.resolve()
    runs = {
        size: prefix_run(source, opts.work / f"sweep-{size}-chunks", size)
        for size in (opts.small, opts.large)
    }
    measure(["table", str(runs[opts.small])])  # warm the file cache and the imports once
    rows = []
    for name in commands(source, opts.work):
        row: dict[str, object] = {"command": name}
        peaks = []
        for run in runs.values():
            deals = store.read_manifest(run)["run"]["deals"]
            found = measure(commands(run, opts.work)[name])
            peaks.append(float(found["peak_mb"]))  # type: ignore[arg-type]
            row[f"peak MB, {deals:,} deals"] = f"{peaks[-1]:.0f}"
            row[f"CPU s, {deals:,}"] = f"{found['cpu_s']:.1f}"
            row[f"wall s (load), {deals:,}"] = (
                f"{found['wall_s']:.0f} ({found['load_before']:.1f}–{found['load_after']:.1f})"
            )
        row["peak large / small"] = f"{peaks[1] / peaks[0]:.3f}"
        row["within target"] = (
            "yes" if peaks[1] / peaks[0] <= 1 + TARGET_GROWTH and max(peaks) <= TARGET_MB else "no"
        )
        rows.append(row)
    sizes = pd.DataFrame(rows)

    deals = store.read_manifest(source)["run"]["deals"]
    whole = []
    for name in ("table", "thresholds", "report"):
        found = measure(commands(source, opts.work)[name])
        cpu, wall = float(found["cpu_s"]), float(found["wall_s"])  # type: ignore[arg-type]
        whole.append(
            {
                "command": name,
                "CPU s (user + system)": f"{cpu:.1f}",
                f"CPU under {TARGET_S:.0f} s": "yes" if cpu < TARGET_S else "no",
                "wall s": f"{wall:.0f}",
                "load average before–after": f"{found['load_before']:.1f}–{found['load_after']:.1f}",
                "peak MB": f"{found['peak_mb']:.0f}",
            }
        )
    reading = pd.DataFrame(whole)

    cmd = " ".join(["nice -n 5 .venv/bin/python benchmarks/bench_analysis_memory.py", *sys.argv[1:]])
    text = f"""# Memory and time of the commands that read a run

Made by `{cmd}` on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {cpu_name()}, {os.cpu_count()} cores
(shared with other work: the load averages are given beside each figure).

Every reader goes through the run chunk by chunk (`tarotsim.analysis.reduction`): memory is one
batch of records plus the per-cell sums. Peak memory is the maximum resident set size of the
whole process (`/usr/bin/time -v`), Python, pandas, Numba and matplotlib included; one
measurement each (peaks hardly vary between runs; times do, with the load). The runs are the
first {opts.small} and {opts.large} chunks of `{source}`, written again as run directories of
their own (the deals of a run are drawn from its seed and their number only, so they hold what
`tarotsim sweep` with the same seed and chunk size writes); `compare` pairs a run with itself.
Targets: peak under {TARGET_MB:.0f} MB, and the larger run's peak within
{TARGET_GROWTH:.0%} of the smaller one's.

{to_markdown(sizes)}

## Reading the whole source run

The same commands on `{source}` ({deals:,} deals, {store.read_manifest(source)["counts"]["rows"]:,} rows):
the CPU time of the whole command (user + system, all threads: start-up, the checksum of every
chunk, reading, the tables, the fits and, for `report`, the bootstrap and the figures) and its
wall time. On a machine this loaded the wall time mostly measures the other work; the CPU time
is what the command costs, and about what it takes on idle cores (most of it runs on one
thread; waits for the disk are not in it, and the chunk files had just been read, so they sat
in the page cache). Target: under {TARGET_S:.0f} s on 2 cores.

{to_markdown(reading)}

Remaining biases: one measurement per figure on a shared machine, so the times carry the load
shown; the peaks include the interpreter and its libraries, which do not grow with the run.
"""
    opts.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
