"""Strength ladder of the card-play policies against the heuristic, and the cost of ``pimc``:
writes reports/strength.md.

Measures, on the same deals (one seed) for every rung:

- duplicate duels (``tarotsim.duel``) at 4 players of random, ``basic`` (when the name
  exists in ``labels.PLAY_POLICIES``), the heuristic itself, and ``pimc`` at several
  ``worlds`` (and one ``endgame`` setting), each as A against the heuristic as B: A's edge
  in points per deal with its 95 % interval; a shorter ladder at 3 and 5 players;
- paired differences between the ``pimc`` rungs (same deals: per-deal edges subtracted);
- speed on one thread: deals per CPU second of every policy with all seats playing it,
  measured in interleaved rounds, and the ratio of a ``pimc`` deal's time to a heuristic
  deal's, each round's ratio taken in that round (median over rounds).

    .venv/bin/python benchmarks/bench_strength.py [--deals 400] [--deals-other 150]
        [--worlds 4,16,32] [--endgame 3] [--speed-rounds 3] [--seed 2026]
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import time
from pathlib import Path

import numpy as np

import tarotsim
from tarotsim.bench import machine
from tarotsim.config import RunConfig
from tarotsim.duel import INTERVAL, DuelResult
from tarotsim.labels import PLAY_POLICIES
from tarotsim.run.engine import play, using_threads
from tarotsim.run.seeding import run_key
from tarotsim.strategy import DEFAULT_ENDGAME, DEFAULT_WORLDS

REPORTS = Path(__file__).resolve().parent.parent / "reports"
Z95 = 1.959963984540054
BASE = "ecart=expert"
HEURISTIC = f"play=heuristic,{BASE}"


def spec(play_name: str, **options: int) -> str:
    """The strategy spec of a rung."""
    extra = "".join(f",{k}={v}" for k, v in options.items())
    return f"play={play_name},{BASE}{extra}"


def per_deal_edge(result: DuelResult) -> np.ndarray:
    """A's mean score over the rotations of each deal (points), in deal order."""
    records = result.records.sort_values(["deal", "a_seat"])
    scores = records[[f"score_{s}" for s in range(result.players)]].to_numpy()
    a_scores = scores[np.arange(len(records)), records["a_seat"].to_numpy()]
    return a_scores.reshape(-1, result.players).mean(axis=1)


def mean_interval(values: np.ndarray) -> tuple[float, float, float]:
    """Mean and 95 % normal-approximation interval over deals."""
    mean = float(values.mean())
    half = Z95 * float(values.std(ddof=1)) / np.sqrt(len(values)) if len(values) > 1 else float("nan")
    return mean, mean - half, mean + half


def ladder(players: int, deals: int, seed: int, rungs: list[tuple[str, str]]) -> tuple[list[str], dict]:
    """Duel every rung against the heuristic; the table lines and each rung's per-deal edges."""
    lines = [
        "| A (B: the heuristic) | edge, points per deal | 95% interval | wall s |",
        "|---|---:|---|---:|",
    ]
    edges: dict[str, np.ndarray] = {}
    for label, a in rungs:
        started = time.perf_counter()
        result = tarotsim.duel(a, HEURISTIC, deals, seed=seed, players=players, progress=True)
        edges[label] = per_deal_edge(result)
        lines.append(
            f"| {label} (`{a}`) | {result.edge:+.2f} | [{result.low:+.2f}, {result.high:+.2f}] | "
            f"{time.perf_counter() - started:.0f} |"
        )
        print(players, "players:", lines[-1], flush=True)
    return lines, edges


def differences(edges: dict[str, np.ndarray], pairs: list[tuple[str, str]]) -> list[str]:
    lines = ["| A − A′ (same deals) | difference, points per deal | 95% interval |", "|---|---:|---|"]
    for first, second in pairs:
        mean, low, high = mean_interval(edges[first] - edges[second])
        lines.append(f"| {first} − {second} | {mean:+.2f} | [{low:+.2f}, {high:+.2f}] |")
    return lines


def speed(seed: int, rounds: int, budget_s: float, policies: list[tuple[str, str]]) -> list[str]:
    """Deals per CPU second with every seat on each policy, one thread, interleaved rounds;
    the deals of each measurement are sized from a first pass to take about ``budget_s``."""
    key = run_key(seed)
    cfgs = {label: RunConfig(strategies=[s] * 4).to_array() for label, s in policies}
    sizes: dict[str, int] = {}
    with using_threads(1):
        for label, cfg in cfgs.items():  # compile, then size each measurement
            play(0, 1, key, cfg)
            started = time.process_time()
            n = 1
            while time.process_time() - started < budget_s / 4:
                play(0, n, key, cfg)
                n *= 2
            per_deal = (time.process_time() - started) / (2 * n - 1)
            sizes[label] = max(2, int(budget_s / per_deal))
        per_round: dict[str, list[float]] = {label: [] for label in cfgs}
        for r in range(rounds):
            for label, cfg in cfgs.items():
                first = (r + 1) * 100_000
                started = time.process_time()
                play(first, sizes[label], key, cfg)
                per_round[label].append((time.process_time() - started) / sizes[label])
    lines = [
        "| every seat plays | deals per measurement | deals per CPU s (median) | deal time / heuristic deal time (median of rounds) |",
        "|---|---:|---:|---:|",
    ]
    heuristic_label = next(label for label, s in policies if s == HEURISTIC)
    for label in cfgs:
        ratios = [t / h for t, h in zip(per_round[label], per_round[heuristic_label], strict=True)]
        lines.append(
            f"| {label} | {sizes[label]:,} | {1 / statistics.median(per_round[label]):,.2f} | "
            f"{statistics.median(ratios):,.1f} |"
        )
        print(lines[-1], flush=True)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=400, help="deals per duel at 4 players")
    parser.add_argument("--deals-other", type=int, default=150, help="deals per duel at 3 and 5 players")
    parser.add_argument("--worlds", default="8,16,24", help="the pimc rungs' worlds (the default is added)")
    parser.add_argument(
        "--endgame", type=int, default=3, help="an endgame setting tried at the default worlds"
    )
    parser.add_argument("--speed-rounds", type=int, default=3, help="interleaved rounds of the speed table")
    parser.add_argument("--speed-seconds", type=float, default=4.0, help="CPU seconds per speed measurement")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=REPORTS / "strength.md")
    args = parser.parse_args()
    started = time.perf_counter()
    worlds = sorted({int(w) for w in args.worlds.split(",")} | {DEFAULT_WORLDS})
    basic = [("basic", spec("basic"))] if "basic" in PLAY_POLICIES else []
    rungs = [("random", spec("random")), *basic, ("heuristic", HEURISTIC)]
    pimc_rungs = [(f"pimc worlds={w}", spec("pimc", worlds=w)) for w in worlds]
    endgame_label = f"pimc worlds={DEFAULT_WORLDS} endgame={args.endgame}"
    pimc_rungs.append((endgame_label, spec("pimc", worlds=DEFAULT_WORLDS, endgame=args.endgame)))
    default_label = f"pimc worlds={DEFAULT_WORLDS}"

    lines4, edges4 = ladder(4, args.deals, args.seed, rungs + pimc_rungs)
    pairs = [(label, default_label) for label, _ in pimc_rungs if label != default_label]
    diff_lines = differences(edges4, pairs)
    short = [("random", spec("random")), (default_label, spec("pimc", worlds=DEFAULT_WORLDS))]
    lines3, _ = ladder(3, args.deals_other, args.seed, short)
    lines5, _ = ladder(5, args.deals_other, args.seed, short)
    speed_policies = [
        ("random", spec("random")),
        *basic,
        ("heuristic", HEURISTIC),
        *[(label, s) for label, s in pimc_rungs],
    ]
    speed_lines = speed(args.seed, args.speed_rounds, args.speed_seconds, speed_policies)
    about = machine()
    command = (
        f"benchmarks/bench_strength.py --deals {args.deals} --deals-other {args.deals_other} "
        f"--worlds {','.join(map(str, worlds))} --endgame {args.endgame} --speed-rounds {args.speed_rounds} "
        f"--speed-seconds {args.speed_seconds} --seed {args.seed}"
    )
    text = [
        "# Strength of the card-play policies, and the cost of `pimc`",
        "",
        f"Written by `.venv/bin/python {command}` on "
        f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC in {time.perf_counter() - started:.0f} s.",
        "",
        "Machine: " + ", ".join(f"{k} {v}" for k, v in about.items()) + ".",
        "",
        "Every rung is a duplicate duel (`tarotsim.duel`) of A against B = the heuristic: each deal is",
        "played once with A in each seat and B in the others, on the same cards and random stream, so",
        "luck cancels. A's edge is its mean score per deal over the rotations (game points), with a",
        f"95% interval ({INTERVAL}). All rungs use the same seed, so they are played on the same",
        "deals, and two rungs are compared by the per-deal difference of their edges (a paired 95%",
        "normal interval over deals). Every strategy bids with Chavey's bands and makes the expert",
        f"écart. `pimc` defaults: `worlds={DEFAULT_WORLDS}`, `endgame={DEFAULT_ENDGAME}`, `rollout=heuristic`.",
        "",
        f"## Ladder, 4 players, {args.deals:,} deals per duel",
        "",
        *lines4,
        "",
        "Paired differences between the `pimc` rungs (the same deals):",
        "",
        *diff_lines,
        "",
        f"## Shorter ladders, 3 and 5 players, {args.deals_other:,} deals per duel",
        "",
        "3 players:",
        "",
        *lines3,
        "",
        "5 players:",
        "",
        *lines5,
        "",
        "## Speed, one thread, 4 players",
        "",
        f"Every seat plays the policy; {args.speed_rounds} interleaved rounds (each policy once per round,",
        "on fresh deals), CPU time of the process, each measurement sized to take about",
        f"{args.speed_seconds:g} CPU s. The ratio is taken within each round (the machine is shared, so",
        "its speed drifts between rounds) and its median reported; the issue's target is a `pimc` deal",
        "at its default costing at most 3,000 heuristic deals.",
        "",
        *speed_lines,
        "",
        "## Remaining biases",
        "",
        "- The duels are small (the machine is shared by several engineers and a long simulation):",
        "  rerun with larger `--deals` for narrower intervals; the intervals above are the honest",
        "  width of what was measured.",
        "- Normal intervals over deals: per-deal edges are bounded and roughly symmetric, and the",
        "  counts are in the hundreds; they are approximate for the shortest runs.",
        "- `pimc` samples worlds uniformly over the deals consistent with what the seat knows; it",
        "  does not weigh them by how likely the bids and cards played make them, and its playouts",
        "  treat every seat as seeing all cards (strategy fusion). Its edge over the heuristic is",
        "  measured with the heuristic as opponent and as rollout policy: against other players the",
        "  edge may differ.",
        "- All rungs share the bidding and the écart; card play alone differs.",
        "",
    ]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(text), encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
