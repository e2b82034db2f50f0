"""The engine's benchmark suite: rewrites reports/benchmarks.md, reports/benchmarks.csv and
reports/benchmarks.png.

Every comparison is measured the way ``tarotsim bench`` does it (``tarotsim.bench``, the timing library):
the figures compared are timed in interleaved rounds (A B C, C B A, …) after a warm-up;
each is reported as the median of its rounds with a distribution-free 95% interval and the
min–max, and each ratio or difference from the pairs of a round. One-thread figures are
timed by the process's CPU time, so that a loaded machine stretches them less.
Comparisons: the engine (random and heuristic play, the bare playout loop, ``simulate()``,
records and Parquet chunks); heuristic / random in interleaved pairs; the cost of each stage
of a random and a heuristic deal (``tarotsim.bench.stages``); table sizes 3, 4 and 5; the 2-thread
scaling; the pure-Python rules of tests/reference.py. Then cold and cached start-up and the
peak memory of a one-million-deal run on disk.

    .venv/bin/python benchmarks/bench_engine.py [--deals 50000] [--repeats 9] [--pairs 15] [--stage-rounds 25]

Run it at normal priority (``nice`` would starve the timed process on a loaded machine).
"""

from __future__ import annotations

import argparse
import csv
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numba

from tarotsim.bench.headline import HEADLINE_RATIOS, headline_works
from tarotsim.bench.stages import STAGES
from tarotsim.bench.timing import CONFIDENCE, Rounds, Spread, interleave, machine
from tarotsim.bench.works import (
    chunk_write_work,
    engine_work,
    records_work,
    reference_work,
    stage_work,
    startup_seconds,
)
from tarotsim.engine.labels import TABLE_SIZES
from tarotsim.runs.spec import DEFAULT_CHUNK_DEALS

REPORTS = Path(__file__).resolve().parent.parent / "reports"
COMMAND = ".venv/bin/python benchmarks/bench_engine.py"
REFERENCE_DEALS = 300
"""Deals per timed run of the pure-Python rules (about 0.2 s)."""
STARTS = 4
"""Start-ups timed: the first with an empty compilation cache, the others with it filled."""
MEMORY_DEALS = 1_000_000
DEALS = 50_000
"""Deals per timed engine run by default (half as many for the table sizes)."""
SCALING_THREADS = 2
"""Threads of the scaling comparison (against 1), where Numba may start that many."""
STAGE_ROUNDS = 25
"""Rounds of the stage costs by default: a stage adds a tenth of a deal or less, so its cost,
the difference of two runs, needs more rounds than a whole deal's speed."""
CPU_RATE = "deals/CPU s"
"""The unit of the one-thread figures: deals per second of the process's CPU time."""
CPU_NS = "CPU ns/deal"
"""The unit of costs: nanoseconds of the process's CPU time per deal."""


@dataclass(frozen=True)
class Row:
    """One line of the report: a measure, its spread, unit and thread count."""

    section: str
    measure: str
    spread: Spread
    unit: str
    threads: int | None = None


def peak_memory_mb(deals: int) -> float:
    """Peak resident memory (MB) of a fresh process writing a ``deals``-deal run directory."""
    code = (
        "import resource, sys\nfrom tarotsim.cli import main\n"
        "main(sys.argv[1:])\nprint(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                code,
                "simulate",
                "--deals",
                str(deals),
                "--seed",
                "1",
                "--out",
                str(Path(tmp) / "run"),
                "--quiet",
            ],
            check=True,
            capture_output=True,
            text=True,
        )
    return int(done.stdout.split()[-1]) / 1024


ENGINE = "engine, 4 players"
RATIO = "heuristic / random, 4 players, interleaved pairs"
COSTS = "cost per deal, 4 players"
HEADLINE_GOALS = {
    "simulate / random": "; goal ≥ 0.85",
    "random / bare": "",
}
"""The headline ratios of the engine section, and the project's goal for each (heuristic / random
has its own section of pairs)."""
LABELS = {
    "random": "random play, engine",
    "heuristic": "heuristic play, engine",
    "bare": "bare playout loop (deal + random legal cards)",
    "simulate": "simulate(), random play",
    "records": "records → DataFrame (to_frame)",
    "chunk": "records → Parquet chunk (write_chunk)",
}
POLICIES = ("random", "heuristic")


@dataclass(frozen=True)
class StageCost:
    """One stage of a deal: nanoseconds per deal it adds, and their share of the whole deal."""

    name: str
    adds: str
    cost: Spread
    share: Spread


def engine_rows(deals: int, repeats: int, scratch: str) -> tuple[list[Row], Rounds]:
    """The engine at 4 players on one thread: the headline figures, records and chunk
    writes, in one set of rounds."""
    works = {
        **headline_works(deals),
        "records": records_work(deals),
        "chunk": chunk_write_work(DEFAULT_CHUNK_DEALS, scratch),
    }
    rounds = interleave(works, repeats=repeats).on_cpu()
    section = ENGINE
    rows = [Row(section, label, rounds.spread(name), CPU_RATE, 1) for name, label in LABELS.items()]
    rows += [Row(section, f"{a} / {b}", rounds.ratio(a, b), "ratio", 1) for a, b in HEADLINE_RATIOS]
    costs = COSTS
    for measure, name, less in (
        ("bare play (deal + 72 random legal cards)", "bare", None),
        ("full random deal", "random", None),
        ("random deal beyond the bare loop", "random", "bare"),
        ("full heuristic deal (expert écart)", "heuristic", None),
        ("heuristic beyond random play", "heuristic", "random"),
        ("records → DataFrame (to_frame)", "records", None),
        ("simulate() beyond the engine (to_frame, set-up)", "simulate", "random"),
        ("records → Parquet chunk (write_chunk)", "chunk", None),
    ):
        rows.append(Row(costs, measure, rounds.cost_ns(name, less), CPU_NS, 1))
    for measure, name in (
        ("records → DataFrame, as a share of a random deal", "records"),
        ("records → Parquet chunk, as a share of a random deal", "chunk"),
    ):
        rows.append(Row(costs, measure, rounds.share(name, None, "random"), "share", 1))
    return rows, rounds


def ratio_rows(deals: int, pairs: int) -> list[Row]:
    """Heuristic against random play, 4 players, 1 thread: ``pairs`` interleaved pairs, by
    CPU time and by the wall clock."""
    timed = interleave(
        {"random": engine_work(deals), "heuristic": engine_work(deals, policy="heuristic")}, repeats=pairs
    )
    rounds = timed.on_cpu()
    return [
        Row(RATIO, "random play", rounds.spread("random"), CPU_RATE, 1),
        Row(RATIO, "heuristic play", rounds.spread("heuristic"), CPU_RATE, 1),
        Row(RATIO, "heuristic / random", rounds.ratio("heuristic", "random"), "ratio", 1),
        Row(RATIO, "heuristic / random, by the wall clock", timed.ratio("heuristic", "random"), "ratio", 1),
    ]


def stage_costs(policy: str, deals: int, repeats: int) -> tuple[list[StageCost], list[Row]]:
    """The cost of each stage of a ``policy`` deal (4 players, 1 thread): the kernels that
    stop after each stage and the engine, timed in the same rounds; a stage's cost is the
    difference from the stage before it within a round, its share that cost over the whole
    (the kernel run to the end)."""
    names = [name for name, _ in STAGES]
    works = {name: stage_work(code, deals, policy=policy) for code, name in enumerate(names)}
    works["engine"] = engine_work(deals, policy=policy)
    rounds = interleave(works, repeats=repeats).on_cpu()
    whole = names[-1]
    costs = []
    for code, (name, adds) in enumerate(STAGES):
        less = names[code - 1] if code else None
        costs.append(StageCost(name, adds, rounds.cost_ns(name, less), rounds.share(name, less, whole)))
    section = f"stages, {policy} play, 4 players"
    rows = [Row(section, f"{c.name}: ns per deal", c.cost, CPU_NS, 1) for c in costs]
    rows += [Row(section, f"{c.name}: share of the deal", c.share, "share", 1) for c in costs]
    rows += [
        Row(section, "whole deal (stage kernel to the end)", rounds.cost_ns(whole), CPU_NS, 1),
        Row(section, "stage kernel to the end / engine", rounds.ratio(whole, "engine"), "ratio", 1),
    ]
    return costs, rows


def table_rows(deals: int, repeats: int) -> tuple[list[Row], Rounds]:
    """Random and heuristic play at every table size, one thread."""
    works = {
        f"{policy} {players}": engine_work(deals, policy=policy, players=players)
        for players in TABLE_SIZES
        for policy in ("random", "heuristic")
    }
    rounds = interleave(works, repeats=repeats).on_cpu()
    section = "table sizes"
    rows = []
    for players in TABLE_SIZES:
        for policy in ("random", "heuristic"):
            rows.append(
                Row(
                    section,
                    f"{policy} play, {players} players",
                    rounds.spread(f"{policy} {players}"),
                    CPU_RATE,
                    1,
                )
            )
        rows.append(
            Row(
                section,
                f"heuristic / random, {players} players",
                rounds.ratio(f"heuristic {players}", f"random {players}"),
                "ratio",
                1,
            )
        )
    return rows, rounds


def scaling_rows(deals: int, repeats: int, most: int) -> list[Row]:
    """Random and heuristic play on one thread and on ``most`` threads, 4 players: deals per
    wall-clock second, their ratio, and the deals per CPU second's ratio (the efficiency of
    each thread: ``most`` times it is the speed-up on ``most`` idle cores)."""
    works = {
        f"{policy} {threads}": engine_work(deals, policy=policy, threads=threads)
        for policy in ("random", "heuristic")
        for threads in (1, most)
    }
    rounds = interleave(works, repeats=repeats)
    cpu = rounds.on_cpu()
    section = "thread scaling, 4 players"
    rows = []
    for policy in ("random", "heuristic"):
        for threads in (1, most):
            rows.append(
                Row(section, f"{policy} play", rounds.spread(f"{policy} {threads}"), "deals/s", threads)
            )
        rows += [
            Row(
                section,
                f"{policy} play, {most} threads / 1, by the wall clock",
                rounds.ratio(f"{policy} {most}", f"{policy} 1"),
                "ratio",
                most,
            ),
            Row(
                section,
                f"{policy} play, {most} threads / 1, per CPU second (efficiency)",
                cpu.ratio(f"{policy} {most}", f"{policy} 1"),
                "ratio",
                most,
            ),
        ]
    return rows


def reference_rows(deals: int, repeats: int) -> list[Row]:
    """The engine against the pure-Python rules of tests/reference.py, random play."""
    rounds = interleave(
        {"engine": engine_work(deals), "reference": reference_work(REFERENCE_DEALS)}, repeats=repeats
    ).on_cpu()
    section = "pure-Python reference"
    return [
        Row(section, "pure-Python rules (tests/reference.py)", rounds.spread("reference"), CPU_RATE, 1),
        Row(section, "random play, engine", rounds.spread("engine"), CPU_RATE, 1),
        Row(section, "engine / pure-Python rules", rounds.ratio("engine", "reference"), "ratio", 1),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--deals", type=int, default=DEALS, help=f"deals per timed engine run (default {DEALS})"
    )
    parser.add_argument(
        "--repeats", type=int, default=9, help="interleaved rounds per comparison (default 9)"
    )
    parser.add_argument(
        "--pairs", type=int, default=15, help="heuristic/random pairs of the ratio's interval (default 15)"
    )
    parser.add_argument(
        "--stage-rounds",
        type=int,
        default=STAGE_ROUNDS,
        help=f"rounds of the stage costs, half as many deals each (default {STAGE_ROUNDS})",
    )
    args = parser.parse_args()
    if min(args.deals, args.repeats, args.pairs, args.stage_rounds) < 1:
        parser.error("--deals, --repeats, --pairs and --stage-rounds must be at least 1")
    started = time.perf_counter()
    info = machine()
    most = numba.config.NUMBA_NUM_THREADS
    rows: list[Row] = []

    def show(new: list[Row]) -> None:
        for row in new:
            threads = "" if row.threads is None else f"({row.threads} thr)"
            print(
                f"{row.measure:<60} {fmt(row.spread.median, row.unit):>12} "
                f"({fmt(row.spread.min, row.unit)}–{fmt(row.spread.max, row.unit)}) {row.unit} {threads}",
                flush=True,
            )
        rows.extend(new)

    with tempfile.TemporaryDirectory() as scratch:
        engine, engine_rounds = engine_rows(args.deals, args.repeats, scratch)
    show(engine)
    show(ratio_rows(args.deals, args.pairs))
    stages: dict[str, list[StageCost]] = {}
    for policy in POLICIES:
        stages[policy], stage_table = stage_costs(policy, max(1, args.deals // 2), args.stage_rounds)
        show(stage_table)
    tables, table_rounds = table_rows(max(1, args.deals // 2), args.repeats)
    show(tables)
    if most > 1:
        show(scaling_rows(args.deals, args.repeats, min(most, SCALING_THREADS)))
    show(reference_rows(args.deals, max(3, args.repeats // 2)))
    starts = startup_seconds(STARTS)
    show(
        [
            Row("start-up", "cold start to first deal (empty compile cache)", Spread.of(starts[:1]), "s"),
            Row("start-up", "cached start to first deal", Spread.of(starts[1:]), "s"),
        ]
    )
    show(
        [
            Row(
                "memory",
                f"peak memory, {MEMORY_DEALS:,}-deal run to disk (all threads)",
                Spread.of([peak_memory_mb(MEMORY_DEALS)]),
                "MB",
            )
        ]
    )
    minutes = (time.perf_counter() - started) / 60
    write_reports(rows, stages, info, args, minutes)
    draw(engine_rounds, table_rounds)
    print(f"wrote {REPORTS / 'benchmarks.md'} in {minutes:.1f} min")


def fmt(value: float, unit: str) -> str:
    """A value as the report writes it: whole deals/s, ns and MB; a share in per cent; two
    decimals otherwise."""
    if unit == "share":
        return f"{100 * value:.1f}%"
    return f"{value:,.0f}" if unit in ("deals/s", CPU_RATE, CPU_NS, "MB") else f"{value:,.2f}"


def interval(spread: Spread, unit: str) -> str:
    """The 95% interval of a median as the report writes it, empty when there is none."""
    if spread.low is None or spread.high is None:
        return ""
    return f"{fmt(spread.low, unit)}–{fmt(spread.high, unit)}"


def write_reports(
    rows: list[Row], stages: dict[str, list[StageCost]], info: dict[str, Any], args: Any, minutes: float
) -> None:
    """reports/benchmarks.csv and reports/benchmarks.md."""
    REPORTS.mkdir(exist_ok=True)
    with open(REPORTS / "benchmarks.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(
            [
                "section",
                "measure",
                "median",
                "ci95_low",
                "ci95_high",
                "min",
                "max",
                "repeats",
                "unit",
                "threads",
            ]
        )
        for row in rows:
            s = row.spread
            writer.writerow(
                [
                    row.section,
                    row.measure,
                    f"{s.median:.4g}",
                    "" if s.low is None else f"{s.low:.4g}",
                    "" if s.high is None else f"{s.high:.4g}",
                    f"{s.min:.4g}",
                    f"{s.max:.4g}",
                    s.repeats,
                    row.unit,
                    "" if row.threads is None else row.threads,
                ]
            )
    level = f"{CONFIDENCE:.0%}"
    ratio = next(row.spread for row in rows if row.section == RATIO and row.unit == "ratio")
    wall = next(row.spread for row in rows if row.section == RATIO and row.measure.endswith("wall clock"))
    end_load = machine()["load_average"]
    lines = [
        "# tarotsim benchmarks",
        "",
        f"Made by `{COMMAND}` (or `make bench`) in {minutes:.1f} minutes on the machine below, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; rerun it after any change to the kernels. "
        f"Options: `--deals` (default {DEALS}), `--repeats` (default 9), `--pairs` (default 15), "
        f"`--stage-rounds` (default {STAGE_ROUNDS}).",
        "",
        "Method: the figures of each section were timed in the same interleaved rounds (A B C, then C B A, …) "
        f"after one warm-up run each: {args.repeats} rounds of {args.deals:,} deals per engine figure "
        f"({args.deals // 2:,} for table sizes), {args.pairs} pairs for the heuristic / random ratio, "
        f"{args.stage_rounds} rounds of {args.deals // 2:,} deals for the stage costs. "
        "One-thread figures are timed by the CPU time of the process (`time.process_time`, all its threads: "
        "deals per CPU second), which other work on the cores does not stretch as it stretches the wall clock; "
        "the thread scaling is timed by the wall clock too. "
        "Each figure is the median of its rounds; a ratio or a cost difference is taken round by round, "
        "from figures timed moments apart, then summarised the same way. Beside each median: its "
        f"{level} confidence interval, distribution-free (the order statistics of an exact binomial test "
        "of the median, `scipy.stats.quantile_test`; none under 6 rounds), and the min–max of the rounds. "
        "The interval takes the rounds as independent draws; on a shared machine the load drifts from "
        "round to round, which interleaving spreads over all figures but does not remove, and CPU time "
        "still counts the slowdown of caches and memory shared with other work. "
        f"The load average (1 min) was {info['load_average']} at the start and {end_load} at the end "
        f"on {info['cores']} cores: above the core count, other work competed for the cores, and then "
        "absolute speeds and the thread scaling say little, same-thread ratios most. All timed runs ran at "
        "normal priority. `tarotsim bench` measures the first section's headline figures the same way in "
        "under a minute (`--json` for one JSON object).",
        "",
        f"Headline, 4 players, 1 thread, from same-round pairs: heuristic / random **{ratio.median:.2f}** "
        f"({level} CI {interval(ratio, 'ratio')}, min–max {ratio.min:.2f}–{ratio.max:.2f}, {ratio.repeats} pairs "
        f"by CPU time; {wall.median:.2f} by the wall clock; goal ≥ 0.5); "
        + "; ".join(f"{name} {ratio_text(rows, name, goal)}" for name, goal in HEADLINE_GOALS.items())
        + ".",
        "",
        "| machine | |",
        "| --- | --- |",
        f"| cpu | {info['cpu']} |",
        f"| cores | {info['cores']} |",
        f"| numba threads | {info['numba_threads']} |",
        f"| load average (1 min), at the start / at the end | {info['load_average']} / {end_load} |",
        *[f"| {name} | {version} |" for name, version in info["versions"].items()],
    ]
    lines += stage_table(stages, rows, level)
    for section in dict.fromkeys(row.section for row in rows):
        if section.startswith("stages"):
            continue
        lines += [
            "",
            f"## {section}",
            "",
            f"| measure | median | {level} CI | min–max | unit | threads | rounds |",
            "| --- | ---: | ---: | ---: | --- | ---: | ---: |",
        ]
        for row in (r for r in rows if r.section == section):
            s = row.spread
            spread = "" if s.repeats == 1 else f"{fmt(s.min, row.unit)}–{fmt(s.max, row.unit)}"
            lines.append(
                f"| {row.measure} | {fmt(s.median, row.unit)} | {interval(s, row.unit)} | {spread} | {row.unit} "
                f"| {'' if row.threads is None else row.threads} | {s.repeats} |"
            )
    lines += ["", "![deals per second and ratios](benchmarks.png)", ""]
    (REPORTS / "benchmarks.md").write_text("\n".join(lines), encoding="utf-8")


def stage_table(stages: dict[str, list[StageCost]], rows: list[Row], level: str) -> list[str]:
    """The stages section: each stage's cost per deal and share of the whole, by policy."""
    policies = list(stages)
    lines = [
        "",
        "## cost of each stage of a deal, 4 players, 1 thread",
        "",
        "Kernels that stop after each stage (`tarotsim/bench/stages.py`, the deal machine stopped between its phases; "
        "run to the end they give the engine's records, `tests/test_stages.py`) and the engine were timed in "
        "the same rounds, one set of rounds per card-play policy. A stage's cost is its kernel's time per deal "
        "less the previous stage's, round by round; its share, that cost over the whole deal (the kernel run "
        "to the end). Per deal of a run, thrown-in deals included (they stop after the deal or the auction). "
        f"Cells: median ({level} CI).",
        "",
        "| stage | what it adds | " + " | ".join(f"{p}: CPU ns/deal | {p}: share" for p in policies) + " |",
        "| --- | --- | " + " | ".join("---: | ---:" for _ in policies) + " |",
    ]
    for index, (name, adds) in enumerate(STAGES):
        cells = []
        for policy in policies:
            c = stages[policy][index]
            cells.append(f"{fmt(c.cost.median, CPU_NS)} ({interval(c.cost, CPU_NS)})")
            cells.append(f"{fmt(c.share.median, 'share')} ({interval(c.share, 'share')})")
        lines.append(f"| {name} | {adds} | " + " | ".join(cells) + " |")
    costs = {row.measure: row.spread for row in rows if row.section == COSTS}
    frame, chunk = costs["records → DataFrame (to_frame)"], costs["records → Parquet chunk (write_chunk)"]
    frame_share = costs["records → DataFrame, as a share of a random deal"]
    chunk_share = costs["records → Parquet chunk, as a share of a random deal"]
    lines += [
        "",
        "After the deals, the records leave the engine: turning them into a DataFrame (`to_frame`) costs "
        f"{fmt(frame.median, CPU_NS)} ns per deal ({level} CI {interval(frame, CPU_NS)}), "
        f"{fmt(frame_share.median, 'share')} of a random deal, and writing them as a Parquet chunk "
        f"{fmt(chunk.median, CPU_NS)} ns ({interval(chunk, CPU_NS)}), {fmt(chunk_share.median, 'share')} "
        f"(random-play records, a chunk of {DEFAULT_CHUNK_DEALS:,} deals as runs write them; the columns, "
        "and so the cost, are the same for any policy).",
    ]
    return lines


def ratio_text(rows: list[Row], measure: str, note: str = "") -> str:
    """The engine section's ratio ``measure`` as "median (95% CI, min–max``note``)"."""
    s = next(row.spread for row in rows if row.section == ENGINE and row.measure == measure)
    return (
        f"**{s.median:.2f}** ({CONFIDENCE:.0%} CI {interval(s, 'ratio')}, min–max {s.min:.2f}–{s.max:.2f}, "
        f"{s.repeats} rounds{note})"
    )


def draw(engine: Rounds, tables: Rounds) -> None:
    """reports/benchmarks.png: deals/s by table size, and the headline ratios, with min–max bars."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(10, 4.5), dpi=110)
    FigureCanvasAgg(fig)
    speed, ratios = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
    xs = range(len(TABLE_SIZES))
    for shift, policy in ((-0.2, "random"), (0.2, "heuristic")):
        spreads = [tables.spread(f"{policy} {players}") for players in TABLE_SIZES]
        median = [s.median / 1000 for s in spreads]
        below = [(s.median - s.min) / 1000 for s in spreads]
        above = [(s.max - s.median) / 1000 for s in spreads]
        speed.bar(
            [x + shift for x in xs], median, width=0.4, yerr=[below, above], capsize=3, label=f"{policy} play"
        )
    speed.axhline(
        engine.spread("bare").median / 1000,
        color="grey",
        linestyle="--",
        label="bare playout loop, 4 players",
    )
    top = max([engine.spread("bare").median] + [tables.spread(name).max for name in tables.rates]) / 1000
    speed.set_ylim(0, top * 1.35)
    speed.set_xticks(list(xs), [f"{players} players" for players in TABLE_SIZES])
    speed.set_ylabel("complete deals per CPU second (thousands), 1 thread")
    speed.set_title("engine speed: median and min–max of the rounds")
    speed.legend(loc="upper left", fontsize="small")
    names = [f"{a}/{b}" for a, b in HEADLINE_RATIOS]
    spreads = [engine.ratio(a, b) for a, b in HEADLINE_RATIOS]
    ratios.bar(
        names,
        [s.median for s in spreads],
        yerr=[[s.median - s.min for s in spreads], [s.max - s.median for s in spreads]],
        capsize=3,
        color="tab:green",
    )
    ratios.axhline(1, color="grey", linewidth=0.8)
    ratios.set_ylabel("ratio of deals per CPU second, same-round pairs")
    ratios.set_title("ratios, 4 players, 1 thread")
    fig.tight_layout()
    fig.savefig(REPORTS / "benchmarks.png")


if __name__ == "__main__":
    main()
