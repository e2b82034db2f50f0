"""Strength and speed of the card-play policies: writes reports/players.md.

Measures, with Chavey bidding throughout and the same deals for every pairing (one seed):

- taker success rate and mean taker score for heuristic or random attack against heuristic
  or random defence (the four pairings), with the expert écart and with the simple one;
- the contract mix and the success per contract of Chavey bidding with heuristic play;
- the effect of the écart, poignée and chelem policies on the heuristic taker, and the
  value of a shown poignée to the side that shows it (``always`` against ``smart``);
- complete heuristic and random deals per second on one thread (JIT warmed up first).

    .venv/bin/python benchmarks/bench_players.py [--deals 200000] [--mix-deals 1000000]
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numba
import numpy as np

from tarotsim.base.seeding import run_key
from tarotsim.bench.timing import interleave, machine
from tarotsim.bench.works import engine_work
from tarotsim.engine.kernels.score import ATTACK, DEFENCE
from tarotsim.engine.kernels.state import (
    L_POIGNEE,
    R_ATTACK_HALF,
    R_CHELEM,
    R_CHELEM_ANNOUNCED,
    R_CONTRACT,
    R_MADE,
    R_N_POIGNEES,
    R_PETIT_AU_BOUT,
    R_SCORE,
    R_TAKER,
    R_THROWN_IN,
)
from tarotsim.engine.labels import CONTRACT_NAMES
from tarotsim.players.config import RunConfig
from tarotsim.runs.runner import play_deals, using_threads

REPORTS = Path(__file__).resolve().parent.parent / "reports"
PAIRINGS = [
    ("heuristic", "random"),
    ("random", "heuristic"),
    ("heuristic", "heuristic"),
    ("random", "random"),
]


def played(records: np.ndarray) -> np.ndarray:
    return records[records[:, R_THROWN_IN] == 0]


def taker_scores(p: np.ndarray) -> np.ndarray:
    return p[np.arange(len(p)), R_SCORE + p[:, R_TAKER]].astype(np.float64)


def rate_ci(hits: np.ndarray) -> str:
    """Mean of a 0/1 array in percent with a 95% interval."""
    n = len(hits)
    if n == 0:
        return "–"
    p = float(hits.mean())
    half = 1.96 * math.sqrt(max(p * (1 - p), 1e-12) / n)
    return f"{100 * p:.2f} ± {100 * half:.2f}"


def mean_ci(values: np.ndarray) -> str:
    n = len(values)
    if n < 2:
        return "–"
    half = 1.96 * float(values.std(ddof=1)) / math.sqrt(n)
    return f"{values.mean():.1f} ± {half:.1f}"


def run(deals: int, seed: int, **config: object) -> np.ndarray:
    cfg = RunConfig(**config).to_array()  # type: ignore[arg-type]
    return play_deals(0, deals, run_key(seed), cfg)


def pairing_table(deals: int, seed: int, ecart: str) -> tuple[list[str], dict[tuple[str, str], float]]:
    lines = [
        "| attack | defence | played deals | taker success % | mean taker score | attack points |",
        "|---|---|---:|---:|---:|---:|",
    ]
    success: dict[tuple[str, str], float] = {}
    for attack, defence in PAIRINGS:
        p = played(run(deals, seed, attack_policy=attack, defence_policy=defence, ecart_policy=ecart))
        success[(attack, defence)] = float(p[:, R_MADE].mean())
        lines.append(
            f"| {attack} | {defence} | {len(p):,} | {rate_ci(p[:, R_MADE])} | {mean_ci(taker_scores(p))} | "
            f"{p[:, R_ATTACK_HALF].mean() / 2:.2f} |"
        )
        print(lines[-1], flush=True)
    return lines, success


def contract_mix(deals: int, seed: int) -> tuple[list[str], float]:
    records = run(deals, seed, policy="heuristic", ecart_policy="expert")
    p = played(records)
    thrown = records[:, R_THROWN_IN]
    lines = [
        f"{deals:,} deals: {len(p):,} played, {int((thrown == 1).sum()):,} petit sec, "
        f"{int((thrown == 2).sum()):,} all passed.",
        "",
        "| contract | share of played deals % | taker success % | mean taker score | petit au bout attack / defence % |",
        "|---|---:|---:|---:|---:|",
    ]
    for code in range(1, 5):
        c = p[p[:, R_CONTRACT] == code]
        if not len(c):
            continue
        lines.append(
            f"| {CONTRACT_NAMES[code]} | {100 * len(c) / len(p):.2f} | {rate_ci(c[:, R_MADE])} | "
            f"{mean_ci(taker_scores(c))} | {100 * (c[:, R_PETIT_AU_BOUT] == ATTACK).mean():.2f} / "
            f"{100 * (c[:, R_PETIT_AU_BOUT] == DEFENCE).mean():.2f} |"
        )
    lines.append(
        f"| all | 100 | {rate_ci(p[:, R_MADE])} | {mean_ci(taker_scores(p))} | "
        f"{100 * (p[:, R_PETIT_AU_BOUT] == ATTACK).mean():.2f} / {100 * (p[:, R_PETIT_AU_BOUT] == DEFENCE).mean():.2f} |"
    )
    for line in lines:
        print(line, flush=True)
    return lines, len(p) / deals


def poignee_value(deals: int, seed: int, **config: object) -> tuple[float, float, int]:
    """Mean value of a shown poignée to the side that showed it (points each of its
    players' D moves by: +bonus when that side wins the deal, -bonus when it loses),
    for the taker's and for the defenders' poignées, and how many were shown."""
    from tarotsim.engine.kernels.score import POIGNEE_BONUS
    from tarotsim.runs.trace import traced_block

    cfg = RunConfig(**config).to_array()  # type: ignore[arg-type]
    key = run_key(seed)
    values: dict[bool, list[float]] = {True: [], False: []}
    chunk = 20_000
    for start in range(0, deals, chunk):
        n = min(chunk, deals - start)
        out, logs, _ = traced_block(start, n, key, cfg)
        ok = out[:, R_THROWN_IN] == 0
        made = np.where(out[:, R_MADE] == 1, 1.0, -1.0)
        for seat in range(4):
            size = logs[:, L_POIGNEE + seat]
            shown = ok & (size > 0)
            is_taker = out[:, R_TAKER] == seat
            bonus = POIGNEE_BONUS[size[shown]] * made[shown]
            values[True] += list(bonus[is_taker[shown]])
            values[False] += list(-bonus[~is_taker[shown]])
    mean = [float(np.mean(values[side])) if values[side] else float("nan") for side in (True, False)]
    return mean[0], mean[1], len(values[True]) + len(values[False])


def poignee_table(deals: int, seed: int) -> list[str]:
    lines = [
        "| poignée policy (heuristic play, expert écart) | poignées shown | value to the taker's side, per taker poignée | value to the defence, per defender poignée |",
        "|---|---:|---:|---:|",
    ]
    for policy in ("always", "smart"):
        taker, defender, count = poignee_value(
            deals, seed, policy="heuristic", ecart_policy="expert", poignee_policy=policy
        )
        lines.append(f"| {policy} | {count:,} | {taker:+.2f} | {defender:+.2f} |")
        print(lines[-1], flush=True)
    return lines


def options_table(deals: int, seed: int) -> list[str]:
    """The heuristic on both sides under the écart, poignée and chelem options."""
    variants = [
        ("écart simple", {"ecart_policy": "simple"}),
        ("écart expert", {"ecart_policy": "expert"}),
        ("écart expert, poignée never", {"ecart_policy": "expert", "poignee_policy": "never"}),
        ("écart expert, poignée smart", {"ecart_policy": "expert", "poignee_policy": "smart"}),
        (
            "écart expert, chelem overwhelming (110)",
            {"ecart_policy": "expert", "chelem_policy": "overwhelming"},
        ),
        (
            "écart expert, chelem overwhelming at 85",
            {"ecart_policy": "expert", "chelem_policy": "overwhelming", "chelem_threshold": 85},
        ),
    ]
    lines = [
        "| options (heuristic play on both sides) | taker success % | mean taker score | poignées shown per deal | chelems announced / made by the attack |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, extra in variants:
        p = played(run(deals, seed, policy="heuristic", **extra))
        lines.append(
            f"| {name} | {rate_ci(p[:, R_MADE])} | {mean_ci(taker_scores(p))} | {p[:, R_N_POIGNEES].mean():.4f} | "
            f"{int(p[:, R_CHELEM_ANNOUNCED].sum())} / {int((p[:, R_CHELEM] == ATTACK).sum())} |"
        )
        print(lines[-1], flush=True)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200_000, help="paired deals per pairing")
    parser.add_argument("--mix-deals", type=int, default=1_000_000, help="deals for the contract mix")
    parser.add_argument("--speed-deals", type=int, default=400_000, help="deals per speed measurement")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--out", type=Path, default=REPORTS / "players.md")
    args = parser.parse_args()
    started = time.perf_counter()

    speed = {}
    for policy in ("heuristic", "random"):
        work = {policy: engine_work(args.speed_deals, policy=policy, threads=1)}
        speed[policy] = interleave(work, repeats=5).spread(policy).median
        print(f"{policy}: {speed[policy]:,.0f} complete deals/s on one thread", flush=True)

    with using_threads(numba.config.NUMBA_NUM_THREADS):
        expert, success = pairing_table(args.deals, args.seed, "expert")
        simple, _ = pairing_table(args.deals, args.seed, "simple")
        mix, played_share = contract_mix(args.mix_deals, args.seed)
        options = options_table(args.deals, args.seed)
        poignees = poignee_table(args.deals, args.seed)

    about = machine()
    text = [
        "# Card-play policies: strength and speed",
        "",
        "Written by `benchmarks/bench_players.py "
        f"--deals {args.deals} --mix-deals {args.mix_deals} --seed {args.seed}` "
        f"in {time.perf_counter() - started:.0f} s.",
        "",
        "Machine: " + ", ".join(f"{k} {v}" for k, v in about.items()) + ".",
        "",
        "Every table uses Chavey bidding (default bands) and 4 players. Within a table every",
        "row plays the same deals (same seed): the rows differ only by the policies named.",
        "Intervals are 95% (normal approximation). The taker's score is its settlement",
        "(3 × what each defender pays).",
        "",
        "## Speed (one thread, JIT warmed up, best of 5)",
        "",
        "| card play | complete deals/s | of which played out |",
        "|---|---:|---:|",
        f"| heuristic (expert écart) | {speed['heuristic']:,.0f} | {speed['heuristic'] * played_share:,.0f} |",
        f"| random (simple écart) | {speed['random']:,.0f} | {speed['random'] * played_share:,.0f} |",
        "",
        "Complete deals count thrown-in deals (petit sec, all pass) as deals, as a run does;",
        f"{100 * played_share:.1f}% of deals are played out under Chavey bidding (contract mix below).",
        "",
        f"## Attack against defence, {args.deals:,} paired deals, expert écart",
        "",
        *expert,
        "",
        f"Heuristic attack against random attack: {100 * (success[('heuristic', 'random')] - success[('random', 'random')]):+.1f} "
        f"points of success against random defence, {100 * (success[('heuristic', 'heuristic')] - success[('random', 'heuristic')]):+.1f} "
        "against heuristic defence. Heuristic defence against random defence: "
        f"{100 * (success[('random', 'heuristic')] - success[('random', 'random')]):+.1f} points against random attack, "
        f"{100 * (success[('heuristic', 'heuristic')] - success[('heuristic', 'random')]):+.1f} against heuristic attack.",
        "",
        f"## The same with the simple écart, {args.deals:,} paired deals",
        "",
        *simple,
        "",
        f"## Contract mix, Chavey bidding and heuristic play, {args.mix_deals:,} deals (expert écart)",
        "",
        *mix,
        "",
        f"## Écart, poignée and chelem options, heuristic play, {args.deals:,} paired deals",
        "",
        *options,
        "",
        "The mean taker score hardly tells poignée policies apart (the bonus only moves",
        "points between the sides); what a policy is for is the value of the poignées a side",
        "shows to that side, a bonus of 20, 30 or 40 won or lost with the deal:",
        "",
        *poignees,
        "",
    ]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(text), encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
