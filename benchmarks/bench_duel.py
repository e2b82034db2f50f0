"""Duplicate duels at 4 players: edges with intervals, and what a duel costs: writes reports/duels.md.

Measures, on the same deals (one seed) for every duel:

- heuristic card play against random card play (A = heuristic), both with the expert écart;
- variants of the heuristic's tunable options (``tarotsim.players.strategy.TUNABLES``) against the
  default heuristic, each edge with its 95 % interval, and A's and B's success and scores as taker;
- the cost of a duel against ``simulate`` with the same strategies (A in seat 0, B in the
  others), one thread, measured interleaved (simulate, duel, simulate, duel …), best of
  ``--repeats``, in CPU time (and wall time): a duel plays each deal 4 times, so it should
  cost 4 simulations.

    .venv/bin/python benchmarks/bench_duel.py [--deals 200000] [--speed-deals 50000] [--seed 2024]
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numba
import numpy as np

import tarotsim
from tarotsim.base.seeding import run_key
from tarotsim.bench.timing import machine
from tarotsim.contests.duel import DuelResult, duel_spec
from tarotsim.players.config import RunConfig
from tarotsim.players.strategy import TUNABLES, Strategy
from tarotsim.runs.runner import play_deals, using_threads

REPORTS = Path(__file__).resolve().parent.parent / "reports"
PLAYERS = 4
HEURISTIC = "play=heuristic,ecart=expert"
RANDOM = "play=random,ecart=expert"
VARIANTS = [
    (
        "follow_min_attack=8",
        "the attack counts on a defender following a suit only while 8 or more of its cards are out",
    ),
    (
        "follow_min_defence=0",
        "the defence counts on the taker following, like the attack does on the defence",
    ),
    ("worth_trump_attack=4", "the attack spends a trump that wins for sure on any trick of 2 points or more"),
    ("worth_trump_defence=12", "the defence keeps its sure trumps for tricks of 6 points or more"),
    ("draw_trumps_min=2", "the attack draws trumps from 2 trumps (as many as are out), not 4"),
    ("draw_trumps_min=7", "the attack draws trumps only from 7 trumps"),
    ("hunt_petit_min=5", "the defence hunts the Petit only from 5 trumps, not 2"),
]
"""Variants of the default heuristic (A = HEURISTIC plus the option), with what each changes."""


def made_rate(by_contract, side: str) -> float:
    """Taker success of side ``a`` or ``b`` over every contract."""
    n = by_contract[f"{side}_n"].to_numpy()
    made = np.nan_to_num(by_contract[f"{side}_made"].to_numpy())
    return float((made * n).sum() / n.sum())


def edge_row(label: str, result: DuelResult) -> str:
    taker = result.by_role.set_index("role").loc["taker"]
    return (
        f"| {label} | {result.edge:+.2f} | [{result.low:+.2f}, {result.high:+.2f}] | {100 * taker.a_rate:.1f} | "
        f"{100 * made_rate(result.by_contract, 'a'):.1f} | {100 * made_rate(result.by_contract, 'b'):.1f} | "
        f"{taker.a_mean:+.1f} | {taker.b_mean:+.1f} |"
    )


def edges(deals: int, seed: int) -> list[str]:
    lines = [
        "| A (B: the default heuristic unless named) | edge | 95% interval | takes % | A made % | B made % "
        "| A as taker | B as taker |",
        "|---|---:|---|---:|---:|---:|---:|---:|",
    ]
    runs = [("heuristic against random (B: `" + RANDOM + "`)", HEURISTIC, RANDOM)]
    runs += [(f"`{option}`", f"{HEURISTIC},{option}", HEURISTIC) for option, _ in VARIANTS]
    for label, a, b in runs:
        started = time.perf_counter()
        result = tarotsim.duel(a, b, deals, seed=seed, players=PLAYERS, progress=False)
        lines.append(edge_row(label, result))
        print(lines[-1], f"({time.perf_counter() - started:.1f} s)", flush=True)
    return lines


def duel_cfg(a: str, b: str) -> np.ndarray:
    """The kernels' configuration of a duel: one cfg per rotation, int64[PLAYERS, N_CFG]."""
    spec = duel_spec(a, b, 1, seed=0, players=PLAYERS)
    return np.stack([RunConfig(strategies=spec.rotation(k)).to_array() for k in range(PLAYERS)])


def speed(deals: int, seed: int, repeats: int) -> list[str]:
    """Simulate and duel timed in turn on one thread, for two pairings: the public calls
    (records, frames and the duel's statistics included) and the kernels alone."""
    lines = [
        "| A against B | measured | simulate deals per CPU s | duel deals per CPU s | duel / (4 × simulate), CPU time "
        "| the same, wall time |",
        "|---|---|---:|---:|---:|---:|",
    ]
    key = run_key(seed)
    for a, b in ((HEURISTIC, RANDOM), (f"{HEURISTIC},follow_min_defence=0", HEURISTIC)):
        seats = [Strategy.parse(a)] + [Strategy.parse(b)] * (PLAYERS - 1)
        simulate_cfg, rotations = RunConfig(strategies=seats).to_array(), duel_cfg(a, b)
        calls = {
            "`simulate()` and `duel()`": (
                lambda seats=seats: tarotsim.simulate(
                    deals, seed=seed, strategies=seats, threads=1, progress=False
                ),
                lambda a=a, b=b: tarotsim.duel(
                    a, b, deals, seed=seed, players=PLAYERS, threads=1, progress=False
                ),
            ),
            "kernels alone": (
                lambda cfg=simulate_cfg: play_deals(0, deals, key, cfg),
                lambda cfg=rotations: play_deals(0, deals, key, cfg),
            ),
        }
        for what, (simulate_call, duel_call) in calls.items():
            cpu = {"simulate": float("inf"), "duel": float("inf")}
            wall = dict(cpu)
            with using_threads(1):
                simulate_call()
                duel_call()
                for _ in range(repeats):
                    for name, call in (("simulate", simulate_call), ("duel", duel_call)):
                        started, started_cpu = time.perf_counter(), time.process_time()
                        call()
                        cpu[name] = min(cpu[name], time.process_time() - started_cpu)
                        wall[name] = min(wall[name], time.perf_counter() - started)
            lines.append(
                f"| `{a}` against `{b}` | {what} | {deals / cpu['simulate']:,.0f} | {deals / cpu['duel']:,.0f} | "
                f"{cpu['duel'] / (PLAYERS * cpu['simulate']):.3f} | "
                f"{wall['duel'] / (PLAYERS * wall['simulate']):.3f} |"
            )
            print(lines[-1], flush=True)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200_000, help="deals per duel of the edge table")
    parser.add_argument("--speed-deals", type=int, default=50_000, help="deals per speed measurement")
    parser.add_argument("--repeats", type=int, default=7, help="timed repeats of each speed measurement")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--out", type=Path, default=REPORTS / "duels.md")
    args = parser.parse_args()
    started = time.perf_counter()
    with using_threads(numba.config.NUMBA_NUM_THREADS):
        edge_lines = edges(args.deals, args.seed)
    speed_lines = speed(args.speed_deals, args.seed, args.repeats)
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg()) + f" on {os.cpu_count()} cores"
    about = machine()
    text = [
        "# Duplicate duels: edges with intervals, and their cost",
        "",
        f"Written by `benchmarks/bench_duel.py --deals {args.deals} --speed-deals {args.speed_deals} "
        f"--repeats {args.repeats} --seed {args.seed}` in {time.perf_counter() - started:.0f} s.",
        "",
        "Machine: " + ", ".join(f"{k} {v}" for k, v in about.items()) + ".",
        "",
        f"A duel plays every deal {PLAYERS} times on the same cards and with the same random stream:",
        f"strategy A in seat k, strategy B in the other seats, k = 0 … {PLAYERS - 1}. A's edge on a deal is",
        "its mean score over the rotations (game points per deal): what A wins or loses against B",
        'with luck cancelled. Intervals are 95% normal approximations over deals. "takes" is how often',
        'a seat takes (the same for A and B: they bid alike), "A made" and "B made" the success rates',
        'of A\'s and B\'s takes, "A as taker" and "B as taker" their mean scores per take (B\'s takers',
        "play against a defence that holds A). As A and B bid alike here, every score of a deal follows",
        "from what A makes as taker and what B makes against a defence holding A, so the duel measures",
        "their sum: it does not tell attacking skill from defending skill (`tarotsim.analysis.duel`).",
        "",
        f"## Edges, {PLAYERS} players, {args.deals:,} deals each (same deals for every row)",
        "",
        "Every strategy uses Chavey bidding (default bands) and the expert écart; the default",
        f"heuristic is `{HEURISTIC}`. A variant is the default heuristic with one option",
        "changed (`tarotsim.players.strategy.TUNABLES`; defaults "
        + ", ".join(f"`{k}={t.default}`" for k, t in TUNABLES.items())
        + "):",
        "",
        *(f"- `{option}`: {meaning};" for option, meaning in VARIANTS),
        "",
        *edge_lines,
        "",
        f"## Cost of a duel, {args.speed_deals:,} deals, one thread",
        "",
        "`simulate` plays the deals once with A in seat 0 and B in the others; the duel plays them",
        f"{PLAYERS} times. Measured in turn (simulate, duel, simulate, duel …), best of {args.repeats} for",
        f"each; a ratio of 1 means a duel costs exactly {PLAYERS} simulations, 1.10 would be 10% extra. The",
        "machine is shared (its load average was " + load + " when the measurement ended), so the",
        "process's CPU time is the cost that counts; wall time, which other processes stretch, is",
        "shown for reference. The public calls include building the records' DataFrame and, for",
        "the duel, its statistics (`duel_stats`).",
        "",
        *speed_lines,
        "",
    ]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(text), encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
