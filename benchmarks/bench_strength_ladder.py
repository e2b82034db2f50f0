"""The strength ladder: random, greedy, heuristic, today's pimc, pimc with every rule
inference, pimc with inference and the full search player, at 3, 4 and 5 players.

Writes ``reports/strength-ladder.md`` and ``reports/strength-ladder.json``:

    python benchmarks/bench_strength_ladder.py [--seed 2027] [--keep DIR]

Each table size is played as two ladders of `tarotsim.tournament` on the same deals (the
seed): the cheap rungs (random, greedy, heuristic) on ``--cheap-deals`` deals per duel, the
search rungs (heuristic and up) until a sequential test of each edge is decided
(``--edge``, error rates 0.05, a look every ``--look-every`` deals) or ``--deals`` deals;
then the top rung against today's pimc directly (`tarotsim.duel`, same deals, a fixed
``--direct-deals`` deals, for the goal's interval). Each rung's cost is its CPU time per
deal with every seat playing it, on one thread, over the heuristic's, timed in
``--cost-rounds`` interleaved rounds (`tarotsim.bench.timing.interleave`), each rung on
enough deals to take about ``--cost-seconds`` CPU s (the tournament's own timing gives
every strategy the same deal count, too few for the heuristic or too many for pimc: it is
run at its minimum and not reported).

``--select`` plays the duels that chose the top rung instead (``SELECTION``, on
``--seed 100``) and prints their table. With ``--keep DIR`` every duel's run directory is
kept there and a later call reads finished duels back.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import tarotsim
from tarotsim.bench.timing import interleave, machine
from tarotsim.bench.works import strategy_works

REPORTS = Path(__file__).resolve().parent.parent / "reports"
PIMC = "play=pimc"
TOP = "play=pimc,bid=montecarlo,ecart=search,poignee=search,chelem=search"
RUNGS = (
    ("random", "play=random"),
    ("greedy", "play=greedy"),
    ("heuristic", "play=heuristic"),
    ("pimc-table", "play=pimc,knowledge=table"),
    ("pimc", PIMC),
    ("pimc-infer", "play=pimc,infer=heuristic"),
    ("search", TOP),
)
"""The rungs, weakest first: name and strategy spec. ``pimc-table`` is today's pimc (its
worlds before the rule inferences), ``search`` the top rung chosen by ``SELECTION``."""
CHEAP = ("random", "greedy", "heuristic")
NOTES = "## Reading the ladder"
"""The heading of the report's text written by hand (how the top rung was chosen, what each
step gave), which a new run keeps."""
TODAY = "pimc-table"
SELECTION = (
    (4, 800, f"{PIMC},bid=montecarlo", PIMC, "the montecarlo bidder"),
    (4, 400, TOP, f"{PIMC},bid=montecarlo", "the searched écart, poignée and chelem"),
)
"""The duels that chose the top rung, on the selection seed: players, deals, A, B, the step."""


def rung_costs(players: int, *, seconds: float, rounds: int, seed: int) -> dict[str, dict[str, Any]]:
    """Each rung's CPU time per deal with every seat playing it, over the heuristic's.

    One thread; each rung on enough deals to take about ``seconds`` CPU s (sized on a first
    timed run), all timed once per round in alternating order. Returns per rung ``cost``
    (median over the rounds of the ratio to the heuristic's time in the same round),
    ``cost_low``, ``cost_high`` (its 95 % distribution-free interval, None under 6 rounds)
    and ``deals_per_cpu_s`` (median).
    """

    sized = strategy_works(dict(RUNGS), players=players, seconds=seconds, seed=seed, cheap=CHEAP)
    timed = interleave(sized, repeats=rounds).on_cpu()
    out = {}
    for name, _ in RUNGS:
        cost = timed.ratio("heuristic", name)
        out[name] = {
            "cost": cost.median,
            "cost_low": cost.low,
            "cost_high": cost.high,
            "deals_per_cpu_s": timed.spread(name).median,
            "cost_deals": sized[name].deals,
        }
    return out


def play_ladder(players: int, args: argparse.Namespace) -> tuple[pd.DataFrame, Any]:
    """Both ladders of one table size and the direct duel: the tournaments' table, and the
    direct duel's result."""
    specs = dict(RUNGS)
    keep = None if args.keep is None else Path(args.keep) / f"{players}p"
    common = {"seed": args.seed, "table_sizes": (players,), "cost_deals": 2, "cost_repeats": 1,
              "threads": args.threads, "progress": False}  # fmt: skip
    cheap = tarotsim.tournament(
        {n: specs[n] for n in CHEAP},
        args.cheap_deals,
        **common,
        out=None if keep is None else keep / "cheap",
    )
    search = tarotsim.tournament(
        {n: specs[n] for n in ("heuristic", *[n for n, _ in RUNGS if n not in CHEAP])},
        args.deals[players],
        until_decided=tuple(args.edge),
        look_every=args.look_every,
        **common,
        out=None if keep is None else keep / "search",
    )
    direct = tarotsim.duel(
        specs["search"],
        specs[TODAY],
        args.direct_deals[players],
        seed=args.seed,
        players=players,
        threads=args.threads,
        out=None if keep is None else keep / f"direct-search-vs-{TODAY}",
        progress=False,
    )
    return pd.concat([cheap, search], ignore_index=True), direct


def _number(value: object) -> float | None:
    if value is None:
        return None
    number = float(value)  # type: ignore[arg-type]
    return None if np.isnan(number) else number


def entries(players: int, table: pd.DataFrame, direct: Any, costs: dict[str, dict[str, Any]]) -> list[dict]:
    """One JSON entry per rung at this table size: its edges (each duel where it is A) and cost."""
    names = [n for n, _ in RUNGS]
    out = []
    for index, (name, spec) in enumerate(RUNGS):
        edges = []
        for _, row in table[table["a"] == name].iterrows():
            edges.append(
                {
                    "against": row["b"],
                    "kind": "below" if index and row["b"] == names[index - 1] else "reference",
                    "deals": int(row["deals"]),
                    "edge": _number(row["edge"]),
                    "low": _number(row["edge_low"]),
                    "high": _number(row["edge_high"]),
                    "verdict": row["verdict"],
                }
            )
        if name == "search":
            edges.append(
                {
                    "against": TODAY,
                    "kind": "today's pimc, direct",
                    "deals": int(direct.n),
                    "edge": float(direct.edge),
                    "low": float(direct.low),
                    "high": float(direct.high),
                    "verdict": None,
                }
            )
        cost = costs[name]
        out.append(
            {
                "name": name,
                "spec": spec,
                "players": players,
                "edges": edges,
                "cost": cost["cost"],
                "cost_low": cost["cost_low"],
                "cost_high": cost["cost_high"],
            }
        )
    return out


def _edge_text(edge: dict | None) -> str:
    if edge is None or edge["edge"] is None:
        return "—"
    text = f"{edge['edge']:+.2f} ({edge['low']:+.2f} to {edge['high']:+.2f}), {edge['deals']:,} deals"
    if edge["verdict"] is not None:
        text += f", {edge['verdict']}" if edge["verdict"] == "not decided" else f", decided {edge['verdict']}"
    return text.replace("-", "−")


def _cost_text(entry: dict) -> str:
    def text(value: float) -> str:
        return f"{value:,.0f}" if value >= 100 else f"{value:.2f}"

    if entry["cost_low"] is None:
        return text(entry["cost"])
    return f"{text(entry['cost'])} ({text(entry['cost_low'])} to {text(entry['cost_high'])})"


def markdown(
    report: list[dict], args: argparse.Namespace, command: str, seconds: float, costs: dict[int, dict]
) -> str:
    lines = [
        "# The strength ladder",
        "",
        f"Written by `{command}` in {seconds:,.0f} s (wall).",
        "",
        f"Machine: {json.dumps(machine())}.",
        "",
        "Duplicate duels (`tarotsim.tournament`, `tarotsim.duel`): each deal played once with A in "
        "each seat and B in the others, on the same cards and random stream; A's edge is its mean "
        "score per deal over the rotations (game points) with its 95 % interval, the normal "
        "approximation over deals (the duel's own; approximate after a sequential stop). Every duel of "
        f"a table size plays the same deals (seed {args.seed}). The cheap rungs' duels hold "
        f"{args.cheap_deals:,} deals; the search rungs' duels stop when a sequential test (SPRT, H0: "
        f"A's edge ≤ {args.edge[0]:g}, H1: ≥ {args.edge[1]:g} points per deal, error rates 0.05, a look "
        f"every {args.look_every:,} deals) is decided, at most "
        + ", ".join(f"{d:,} deals at {p} players" for p, d in sorted(args.deals.items()))
        + "; the top rung against today's pimc is a fixed "
        + ", ".join(f"{d:,} at {p}" for p, d in sorted(args.direct_deals.items()))
        + " deals (no stop). Cost: CPU time per deal with every seat on the rung, one thread, in "
        f"heuristic deals, the median over {args.cost_rounds} interleaved rounds of the ratio to the "
        "heuristic's time in the same round, with its 95 % distribution-free interval; each rung timed "
        f"on about {args.cost_seconds:g} CPU s of deals a round.",
        "",
        "Rungs:",
        "",
        *[f"- `{name}`: `{spec}`" for name, spec in RUNGS],
        "",
    ]
    for players in sorted(args.deals):
        rows = [e for e in report if e["players"] == players]
        lines += [
            f"## {players} players",
            "",
            "| rung | edge over the rung below | edge over the heuristic | cost (heuristic deals) |",
            "| --- | --- | --- | --- |",
        ]
        for entry in rows:
            below = next((e for e in entry["edges"] if e["kind"] == "below"), None)
            ref = next((e for e in entry["edges"] if e["against"] == "heuristic"), None)
            if entry["name"] == "heuristic":
                ref = None
            lines.append(
                f"| {entry['name']} | {_edge_text(below)} | {_edge_text(ref)} | {_cost_text(entry)} |"
            )
        top = rows[-1]
        today = next(e for e in rows if e["name"] == TODAY)
        direct = next(e for e in top["edges"] if e["kind"] == "today's pimc, direct")
        ratio = top["cost"] / today["cost"]
        lines += [
            "",
            f"Top rung against today's pimc (`{TODAY}`), directly: **{_edge_text(direct)}**; its cost "
            f"is {ratio:.2f} times today's pimc's (the ratio of the two medians).",
            "",
        ]
    lines += ["## The goal", ""]
    for players in sorted(args.deals):
        rows = [e for e in report if e["players"] == players]
        direct = next(e for e in rows[-1]["edges"] if e["kind"] == "today's pimc, direct")
        ratio = rows[-1]["cost"] / next(e for e in rows if e["name"] == TODAY)["cost"]
        want = 4.0 if players == 4 else 0.0
        met = direct["edge"] >= want and direct["low"] > 0 and ratio <= 3
        lines.append(
            f"- {players} players: edge {_edge_text(direct)} (asked: ≥ {want:+g}, interval above 0), "
            f"cost ratio {ratio:.2f} (asked ≤ 3): **{'met' if met else 'not met'}**."
        )
    lines += [
        "",
        "Per-deal costs, deals per CPU s (median of the rounds) and deals timed a round: "
        + "; ".join(
            f"{p} players: "
            + ", ".join(
                f"{n} {c['deals_per_cpu_s']:,.0f}/s ({c['cost_deals']:,})" for n, c in costs[p].items()
            )
            for p in sorted(costs)
        )
        + ".",
    ]
    return "\n".join(lines) + "\n"


def select(args: argparse.Namespace) -> None:
    """Play the duels of ``SELECTION`` and print their table."""
    print("| players | step | A | B | deals | A's edge | 95 % interval | CPU s |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for index, (players, deals, a, b, what) in enumerate(SELECTION):
        started = time.process_time()
        result = tarotsim.duel(
            a,
            b,
            deals,
            seed=args.seed,
            players=players,
            threads=args.threads,
            out=None if args.keep is None else Path(args.keep) / f"select-{index}",
            progress=False,
        )
        print(
            f"| {players} | {what} | `{a}` | `{b}` | {result.n:,} | {result.edge:+.2f} | "
            f"{result.low:+.2f} to {result.high:+.2f} | {time.process_time() - started:,.0f} |",
            flush=True,
        )


def _sizes(text: str) -> dict[int, int]:
    """``3=1000,4=2000,5=1000`` as a mapping of table size to deals."""
    out = {}
    for part in text.split(","):
        players, deals = part.split("=")
        out[int(players)] = int(deals)
    return out


def main() -> None:
    import shlex
    import sys

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--deals", type=_sizes, default=_sizes("3=1200,4=2000,5=1200"),
                        help="most deals of each search rung's duel, per table size")  # fmt: skip
    parser.add_argument("--direct-deals", type=_sizes, default=_sizes("3=1000,4=1500,5=1000"))
    parser.add_argument("--cheap-deals", type=int, default=50_000)
    parser.add_argument("--edge", type=lambda s: [float(x) for x in s.split(",")], default=[0.0, 2.0])
    parser.add_argument("--look-every", type=int, default=250)
    parser.add_argument("--cost-rounds", type=int, default=6)
    parser.add_argument("--cost-seconds", type=float, default=1.0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--keep", type=Path, default=None)
    parser.add_argument("--select", action="store_true", help="play the selection duels instead")
    args = parser.parse_args()
    if args.select:
        select(args)
        return
    if set(args.deals) != set(args.direct_deals):
        raise SystemExit("--deals and --direct-deals name the same table sizes")
    started = time.perf_counter()
    report: list[dict] = []
    costs = {}
    for players in sorted(args.deals, key=lambda p: (p != 4, p)):  # the goal's table size first
        table, direct = play_ladder(players, args)
        costs[players] = rung_costs(
            players, seconds=args.cost_seconds, rounds=args.cost_rounds, seed=args.seed
        )
        report += entries(players, table, direct, costs[players])
        print(f"{players} players done, {time.perf_counter() - started:,.0f} s", flush=True)
    order = {name: index for index, (name, _) in enumerate(RUNGS)}
    report.sort(key=lambda e: (order[e["name"]], e["players"]))  # the top rung last
    shown = [a for i, a in enumerate(sys.argv[1:]) if a != "--keep" and sys.argv[i : i + 1] != ["--keep"]]
    command = "python benchmarks/bench_strength_ladder.py " + shlex.join(shown)
    seconds = time.perf_counter() - started
    document = {
        "command": command.strip(),
        "seed": args.seed,
        "machine": machine(),
        "rungs": report,
    }
    (REPORTS / "strength-ladder.json").write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    path = REPORTS / "strength-ladder.md"
    kept = ""  # the text written by hand after the measured tables, kept when they are made again
    if path.is_file() and NOTES in (text := path.read_text(encoding="utf-8")):
        kept = "\n" + text[text.index(NOTES) :]
    path.write_text(markdown(report, args, command.strip(), seconds, costs) + kept, encoding="utf-8")
    print((REPORTS / "strength-ladder.md").read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
