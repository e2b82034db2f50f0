"""The engine's benchmark suite: writes reports/benchmarks.md, reports/benchmarks.csv and
reports/benchmarks.png.

Measures (JIT warmed up first, best of three): complete deals per second for random-legal
and heuristic play at 3, 4 and 5 players on one thread and on every thread; the same deals
played by the pure-Python rules of tests/reference.py; the bare playout loop and stage-
isolated kernels (deal, deal + bid); cold compile and cached start-up; peak memory of a
one-million-deal run on disk.

    .venv/bin/python benchmarks/bench_engine.py [--deals 1000000]
"""

from __future__ import annotations

import argparse
import csv
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import numba

from tarotsim.bench import (
    Measure,
    engine_rate,
    machine,
    reference_rate,
    stage_rate,
    startup_seconds,
)
from tarotsim.kernels.baseline import STAGE_BID, STAGE_DEAL, STAGE_PLAYOUT
from tarotsim.labels import PLAY_POLICIES

REPORTS = Path(__file__).resolve().parent.parent / "reports"


def peak_memory_mb(deals: int) -> float:
    """Peak resident memory (MB) of a child process writing a ``deals``-deal run directory."""
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [sys.executable, "-m", "tarotsim", "simulate", "--deals", str(deals), "--seed", "1",
             "--out", str(Path(tmp) / "run"), "--quiet"],
            check=True, stdout=subprocess.DEVNULL,
        )
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000, help="deals per engine measurement")
    args = parser.parse_args()
    deals = args.deals
    most = numba.config.NUMBA_NUM_THREADS
    figures: list[Measure] = []

    def add(name: str, value: float, unit: str, threads: int | None = None) -> float:
        figures.append(Measure(name, value, unit, threads))
        print(f"{name:<48} {value:>14,.2f} {unit} {'' if threads is None else f'({threads} thr)'}", flush=True)
        return value

    rates: dict[tuple[str, int, int], float] = {}
    for policy in [p for p in ("random", "heuristic") if p in PLAY_POLICIES]:
        for players in (3, 4, 5):
            n = deals if players == 4 else deals // 4
            for threads in sorted({1, most}):
                rate = engine_rate(n, policy=policy, threads=threads, players=players)
                rates[(policy, players, threads)] = add(f"{policy} deals/s, {players} players", rate, "deals/s", threads)
            if most > 1:
                add(f"{policy} scaling {most}/1 threads, {players} players",
                    rates[(policy, players, most)] / rates[(policy, players, 1)], "x", most)

    ref = add("pure-Python reference (tests/reference.py)", reference_rate(300), "deals/s", 1)
    add("random engine / pure-Python reference", rates[("random", 4, 1)] / ref, "x", 1)
    bare = add("bare playout loop (deal + random legal cards)", stage_rate(STAGE_PLAYOUT, deals), "deals/s", 1)
    add("random engine / bare playout loop", rates[("random", 4, 1)] / bare, "fraction", 1)
    deal_rate = add("stage: deal only", stage_rate(STAGE_DEAL, deals), "deals/s", 1)
    bid_rate = add("stage: deal + bid", stage_rate(STAGE_BID, deals), "deals/s", 1)
    add("cost: deal", 1e9 / deal_rate, "ns/deal", 1)
    add("cost: bid (four hand counts)", 1e9 / bid_rate - 1e9 / deal_rate, "ns/deal", 1)
    add("cost: play, bare (72 random legal cards)", 1e9 / bare - 1e9 / deal_rate, "ns/deal", 1)
    add("cost: full random deal (écart, count, score, records)", 1e9 / rates[("random", 4, 1)], "ns/deal", 1)
    if ("heuristic", 4, 1) in rates:
        add("cost: full heuristic deal", 1e9 / rates[("heuristic", 4, 1)], "ns/deal", 1)
    add("cold start to first deal (empty compile cache)", startup_seconds(cold=True), "s")
    add("cached start to first deal", startup_seconds(cold=False), "s")
    add("peak memory, 1,000,000-deal run to disk", peak_memory_mb(1_000_000), "MB")

    REPORTS.mkdir(exist_ok=True)
    with open(REPORTS / "benchmarks.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["measure", "value", "unit", "threads"])
        for m in figures:
            writer.writerow([m.name, f"{m.value:.4g}", m.unit, "" if m.threads is None else m.threads])
    info = machine()
    lines = [
        "# tarotsim benchmarks",
        "",
        "Made by `python benchmarks/bench_engine.py` (JIT warmed up, best of three runs).",
        "",
        "| machine | |",
        "| --- | --- |",
        *[f"| {k} | {v} |" for k, v in info.items()],
        "",
        "| measure | value | unit | threads |",
        "| --- | ---: | --- | ---: |",
        *[f"| {m.name} | {m.value:,.2f} | {m.unit} | {'' if m.threads is None else m.threads} |" for m in figures],
        "",
        "![deals per second](benchmarks.png)",
        "",
    ]
    (REPORTS / "benchmarks.md").write_text("\n".join(lines), encoding="utf-8")
    draw(rates, bare, most)
    print(f"wrote {REPORTS / 'benchmarks.md'}")


def draw(rates: dict[tuple[str, int, int], float], bare: float, most: int) -> None:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(8, 4.5), dpi=110)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    labels, one, every = [], [], []
    for (policy, players, threads), rate in sorted(rates.items()):
        if threads == 1:
            labels.append(f"{policy}\n{players}p")
            one.append(rate / 1000)
            every.append(rates.get((policy, players, most), rate) / 1000)
    xs = range(len(labels))
    ax.bar([x - 0.2 for x in xs], one, width=0.4, label="1 thread")
    ax.bar([x + 0.2 for x in xs], every, width=0.4, label=f"{most} threads")
    ax.axhline(bare / 1000, color="grey", linestyle="--", label="bare playout loop, 1 thread")
    ax.set_xticks(list(xs), labels)
    ax.set_ylabel("complete deals per second (thousands)")
    ax.set_title("tarotsim engine speed")
    ax.legend()
    fig.tight_layout()
    fig.savefig(REPORTS / "benchmarks.png")


if __name__ == "__main__":
    main()
