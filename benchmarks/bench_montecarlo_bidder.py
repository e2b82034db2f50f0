"""The ``montecarlo`` bidder against Chavey's count in duplicate duels, and what it costs: writes
reports/montecarlo-bidder.md.

Measures, at 4 players (``--players``), heuristic card play everywhere:

- the world count: a duel ``play=heuristic,bid=montecarlo,bid_worlds=W`` against
  ``play=heuristic`` (Chavey bidding) for each W of ``--worlds`` on ``--study-deals`` deals
  (the same deals for every W), with the duel's CPU time;
- the duel at the default world count (``strategy.DEFAULT_BID_WORLDS``) on ``--deals``
  deals (another seed): the edge with its 95 % interval, how often each side takes, with
  which contract, its success rate (Wilson intervals) and its mean score as taker;
- speed: deals per second of ``simulate`` with every seat bidding ``montecarlo`` (each W)
  and with every seat bidding ``chavey``, on one thread, measured in turn round after
  round; the ratio chavey / montecarlo is taken within each round, its median reported.

    nice -n 5 .venv/bin/python benchmarks/bench_montecarlo_bidder.py [--deals 100000]
        [--study-deals 16000] [--worlds 4,8,16,32,64] [--speed-deals 300] [--rounds 3] [--seed 2024]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numba
import numpy as np

import tarotsim
from tarotsim.base.intervals import Z95, paired_interval, wilson_interval
from tarotsim.bench.timing import machine
from tarotsim.contests.duel import INTERVAL, DuelResult
from tarotsim.players.config import RunConfig
from tarotsim.players.kernels.search.montecarlo import TRIES_PER_WORLD
from tarotsim.players.strategy import DEFAULT_BID_ROLLOUT, DEFAULT_BID_WORLDS, WORLDS_GAIN_ENOUGH
from tarotsim.runs.runner import using_threads

REPORTS = Path(__file__).resolve().parent.parent / "reports"
CHAVEY = "play=heuristic"


def montecarlo(worlds: int) -> str:
    return f"play=heuristic,bid=montecarlo,bid_worlds={worlds}"


def table(spec: str, players: int) -> RunConfig:
    """Every seat of a ``players`` table playing ``spec``."""
    return RunConfig(players=players, strategies=[spec] * players)


def timed_duel(a: str, deals: int, seed: int, players: int) -> tuple[DuelResult, float]:
    started = time.process_time()
    result = tarotsim.duel(a, CHAVEY, deals, seed=seed, players=players, progress=False)
    return result, time.process_time() - started


def taker_line(result: DuelResult) -> tuple[float, float]:
    taker = result.by_role.set_index("role").loc["taker"]
    return float(taker.a_rate), float(taker.b_rate)


def deal_edges(result: DuelResult) -> np.ndarray:
    """A's edge on each deal (float[n], deals in order): its mean score over the rotations."""
    records = result.records.sort_values(["deal", "a_seat"])
    scores = records[[f"score_{s}" for s in range(result.players)]].to_numpy(dtype=float)
    a_score = scores[np.arange(len(records)), records["a_seat"].to_numpy()]
    return a_score.reshape(-1, result.players).mean(axis=1)


def made_interval(n: int, made: float) -> str:
    if n == 0:
        return "–"
    low, high = wilson_interval(round(made * n), n)
    return f"{100 * made:.1f} [{100 * low:.1f}, {100 * high:.1f}]"


def study(worlds: list[int], deals: int, seed: int, players: int) -> tuple[list[str], int | None]:
    """The duels at each world count, and the count the rule picks: the first whose next
    doubling (the next row) gains less than ``WORLDS_GAIN_ENOUGH`` (None if none does)."""
    lines = [
        "| bid_worlds | edge | 95% interval | gain over the row above | 95% interval | montecarlo takes % "
        "| Chavey takes % | duel CPU s | duel deals per CPU s |",
        "|---:|---:|---|---:|---|---:|---:|---:|---:|",
    ]
    previous = None
    picked = None
    for index, w in enumerate(worlds):
        result, cpu = timed_duel(montecarlo(w), deals, seed, players)
        a_rate, b_rate = taker_line(result)
        edges = deal_edges(result)
        gain = "| – | – |"
        if previous is not None:
            mean, low, high = paired_interval(edges - previous, Z95)
            gain = f"| {mean:+.2f} | [{low:+.2f}, {high:+.2f}] |"
            if picked is None and w == 2 * worlds[index - 1] and mean < WORLDS_GAIN_ENOUGH:
                picked = worlds[index - 1]
        previous = edges
        lines.append(
            f"| {w} | {result.edge:+.2f} | [{result.low:+.2f}, {result.high:+.2f}] {gain} {100 * a_rate:.1f} | "
            f"{100 * b_rate:.1f} | {cpu:.0f} | {deals / cpu:,.0f} |"
        )
        print(lines[-1], flush=True)
    return lines, picked


def main_duel(deals: int, seed: int, players: int) -> tuple[DuelResult, list[str]]:
    result, cpu = timed_duel(montecarlo(DEFAULT_BID_WORLDS), deals, seed, players)
    lines = [
        f"A: `{montecarlo(DEFAULT_BID_WORLDS)}`; B: `{CHAVEY}` (Chavey's count at the published bands).",
        "",
        f"**Edge of the montecarlo bidder: {result.edge:+.2f} points per deal, 95% interval "
        f"[{result.low:+.2f}, {result.high:+.2f}]** ({INTERVAL}; {result.n:,} deals, each played "
        f"{players} times; {cpu:.0f} CPU s).",
        "",
        "By role (A's seat against B's seats on the same deals; rates per seat and row, scores in points):",
        "",
        "| role | A rate % | A mean | B rate % | B mean | A − B | 95% interval |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for row in result.by_role.itertuples():
        lines.append(
            f"| {row.role} | {100 * row.a_rate:.1f} | {row.a_mean:+.1f} | {100 * row.b_rate:.1f} | "
            f"{row.b_mean:+.1f} | {row.a_minus_b:+.1f} | [{row.a_minus_b_low:+.1f}, {row.a_minus_b_high:+.1f}] |"
        )
    lines += [
        "",
        "By contract: how often each side takes it (per seat and row), its success rate (Wilson 95%",
        "interval, takes counted as independent) and its mean score as taker:",
        "",
        "| contract | montecarlo takes % | made % | mean as taker | Chavey takes % | made % | mean as taker |",
        "|---|---:|---|---:|---:|---|---:|",
    ]
    totals = {"a": [0, 0.0], "b": [0, 0.0]}
    for row in result.by_contract.itertuples():
        lines.append(
            f"| {row.contract} | {100 * row.a_rate:.2f} | {made_interval(row.a_n, row.a_made)} | "
            f"{row.a_mean:+.1f} | {100 * row.b_rate:.2f} | {made_interval(row.b_n, row.b_made)} | {row.b_mean:+.1f} |"
        )
        for side in "ab":
            n = getattr(row, f"{side}_n")
            totals[side][0] += n
            totals[side][1] += 0.0 if n == 0 else n * getattr(row, f"{side}_made")
    lines.append(
        f"| every contract | {100 * totals['a'][0] / (result.n * players):.2f} | "
        f"{made_interval(totals['a'][0], totals['a'][1] / max(totals['a'][0], 1))} | | "
        f"{100 * totals['b'][0] / (result.n * players * (players - 1)):.2f} | "
        f"{made_interval(totals['b'][0], totals['b'][1] / max(totals['b'][0], 1))} | |"
    )
    for line in lines:
        print(line, flush=True)
    return result, lines


def speed(worlds: list[int], deals: int, rounds: int, seed: int, players: int) -> list[str]:
    """Every seat bids alike; chavey plays ``deals * 100`` deals a round, montecarlo with W worlds
    ``deals * 16 // W``; the ratio is taken within each round."""
    specs = {"chavey": (CHAVEY, deals * 100)}
    for w in worlds:
        specs[f"montecarlo, bid_worlds={w}"] = (montecarlo(w), max(deals * 16 // w, 20))
    rates: dict[str, list[float]] = {name: [] for name in specs}
    with using_threads(1):
        for spec, _ in specs.values():  # compile and warm up
            tarotsim.simulate(20, seed=seed, config=table(spec, players), threads=1, progress=False)
        for _ in range(rounds):
            for name, (spec, n) in specs.items():
                started = time.process_time()
                tarotsim.simulate(n, seed=seed, config=table(spec, players), threads=1, progress=False)
                rates[name].append(n / (time.process_time() - started))
    lines = [
        "| bidder (every seat) | deals per CPU s (median) | chavey / it, median of the rounds' ratios | min – max |",
        "|---|---:|---:|---|",
    ]
    for name in specs:
        ratios = [c / r for c, r in zip(rates["chavey"], rates[name], strict=True)]
        lines.append(
            f"| {name} | {statistics.median(rates[name]):,.0f} | {statistics.median(ratios):,.0f} | "
            f"{min(ratios):,.0f} – {max(ratios):,.0f} |"
        )
        print(lines[-1], flush=True)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--deals", type=int, default=100_000, help="deals of the duel at the default world count"
    )
    parser.add_argument(
        "--study-deals", type=int, default=16_000, help="deals per duel of the world-count study"
    )
    parser.add_argument("--worlds", default="4,8,16,32,64", help="world counts of the study, comma-separated")
    parser.add_argument(
        "--speed-deals", type=int, default=300, help="montecarlo deals per round at 16 worlds"
    )
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the speed measurement")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--out", type=Path, default=REPORTS / "montecarlo-bidder.md")
    args = parser.parse_args()
    worlds = [int(w) for w in args.worlds.split(",")]
    started = time.perf_counter()
    with using_threads(numba.config.NUMBA_NUM_THREADS):
        study_lines, picked = study(worlds, args.study_deals, args.seed, args.players)
        _, duel_lines = main_duel(args.deals, args.seed + 1, args.players)
    speed_lines = speed(worlds, args.speed_deals, args.rounds, args.seed, args.players)
    about = machine()
    text = [
        "# The montecarlo bidder against Chavey's count",
        "",
        f"Written by `benchmarks/bench_montecarlo_bidder.py --deals {args.deals} --study-deals {args.study_deals} "
        f"--worlds {args.worlds} --speed-deals {args.speed_deals} --rounds {args.rounds} --players {args.players} "
        f"--seed {args.seed}` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, in "
        f"{time.perf_counter() - started:.0f} s.",
        "",
        "Machine: " + ", ".join(f"{k} {v}" for k, v in about.items()) + ".",
        "",
        "The `montecarlo` bidder (`tarotsim/players/kernels/search/montecarlo.py`) deals the cards it cannot",
        "see again `bid_worlds` times, consistently with its hand and the bids heard (the earlier",
        "speakers modelled as bidding by Chavey's count at the published bands; at most",
        f"{TRIES_PER_WORLD} draws per world asked for), plays each contract above the bid heard out with",
        f"`{DEFAULT_BID_ROLLOUT}` play for every seat, and wishes the best mean score if it is positive.",
        f"Duels ({INTERVAL}): A = montecarlo in one seat, B = Chavey in the others, each deal played",
        f"{args.players} times with A in each seat, heuristic card play and the simple écart everywhere.",
        "",
        f"## The world count: {args.study_deals:,} deals per duel, {args.players} players (seed {args.seed})",
        "",
        "Every duel on the same deals; the gain over the row above is the mean of the per-deal",
        "differences of the two edges, with its paired 95% interval (normal approximation over deals).",
        "",
        *study_lines,
        "",
        f"The default is the smallest world count whose doubling gains less than {WORLDS_GAIN_ENOUGH} points per",
        "deal (each doubling doubles the cost): "
        + (
            f"these duels pick `bid_worlds={picked}`"
            if picked
            else "no doubling measured here gains that little"
        )
        + f"; the default is `bid_worlds={DEFAULT_BID_WORLDS}` (`tarotsim.players.strategy.DEFAULT_BID_WORLDS`).",
        "",
        f"## The duel at the default: {args.deals:,} deals, {args.players} players (seed {args.seed + 1})",
        "",
        *duel_lines,
        "",
        f"## Speed, one thread, {args.rounds} rounds",
        "",
        "`simulate` with every seat bidding alike and heuristic play; CPU time of this process (the",
        "machine is shared), each bidder timed in turn within a round and the ratio taken in the round.",
        "",
        *speed_lines,
        "",
        "## Remaining biases",
        "",
        "- The worlds assume the earlier speakers bid by Chavey's count at the published bands; against",
        "  other bidders the bids heard are read with that convention all the same.",
        "- When the cap on draws is hit the mean is over fewer worlds, and with none accepted the seat",
        "  passes (only after bids above Garde are worlds that rare).",
        "- Playouts play every seat with the rollout policy and the bidder's own écart and poignée",
        "  policies: the bidder's estimate is of that table, not of the actual opponents.",
        "- Success-rate intervals treat takes as independent; A's takes on one deal's rotations are",
        "  not quite (the edge's interval is over deals and has no such bias).",
        "",
    ]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(text), encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
