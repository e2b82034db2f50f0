"""Strength ladder of the card-play policies against the heuristic, and the cost of ``pimc``:
writes reports/strength.md.

Measures, on the same deals (one seed) for every rung:

- duplicate duels (``tarotsim.duel``) at 4 players of random, ``basic`` (when the name
  exists in ``players.policies.PLAY_POLICIES``), the heuristic itself, ``pimc`` at its defaults and
  at each set of options given by ``--pimc``, each as A against the heuristic as B: A's edge
  in points per deal with its 95 % interval; a shorter ladder at 3 and 5 players;
- paired differences between the ``pimc`` rungs (same deals: per-deal edges subtracted);
- speed on one thread: deals per CPU second of every policy with all seats playing it,
  measured in interleaved rounds, and the ratio of a ``pimc`` deal's time to a heuristic
  deal's, each round's ratio taken in that round (median over rounds).

    .venv/bin/python benchmarks/bench_strength.py [--deals 400] [--deals-other 150]
        [--pimc "worlds=8,drop=0;worlds=32,drop=0"] [--speed-rounds 3] [--seed 2026]
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import time
from pathlib import Path

import numpy as np

import tarotsim
from tarotsim.base.seeding import run_key
from tarotsim.bench.timing import machine, median_interval
from tarotsim.contests.duel import INTERVAL, DuelResult
from tarotsim.players.config import RunConfig
from tarotsim.players.policies import PLAY_POLICIES
from tarotsim.players.strategy import DEFAULT_DROP, DEFAULT_ENDGAME, DEFAULT_WORLDS, Strategy
from tarotsim.runs.runner import play_deals, using_threads

REPORTS = Path(__file__).resolve().parent.parent / "reports"
Z95 = 1.959963984540054
BASE = "ecart=expert"
HEURISTIC = f"play=heuristic,{BASE}"


PIMC_RUNGS = "worlds=8,drop=0;worlds=16,drop=0;worlds=24,drop=0;worlds=32,drop=0"
"""``--pimc`` by default: the ``pimc`` rungs besides its defaults, one set of options each."""


def spec(play_name: str, options: str = "") -> str:
    """The strategy spec of a rung: ``play_name`` card play, the expert écart, ``options``
    (``key=value`` pairs separated by commas)."""
    return f"play={play_name},{BASE}" + (f",{options}" if options else "")


def pimc_rungs(option_sets: str) -> tuple[str, list[tuple[str, str]]]:
    """The default rung's label and every ``pimc`` rung (label, spec): the defaults first,
    then each set of ``option_sets`` (separated by ``;``) that differs from them."""
    default_options = f"worlds={DEFAULT_WORLDS},drop={DEFAULT_DROP}"
    if DEFAULT_ENDGAME:
        default_options += f",endgame={DEFAULT_ENDGAME}"
    default_label = f"pimc {default_options.replace(',', ' ')} (default)"
    rungs = [(default_label, spec("pimc", default_options))]
    default = Strategy.parse(rungs[0][1])
    for options in (part.strip() for part in option_sets.split(";")):
        if options and Strategy.parse(spec("pimc", options)) != default:
            rungs.append((f"pimc {options.replace(',', ' ')}", spec("pimc", options)))
    return default_label, rungs


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


def ladder(
    players: int,
    deals: int,
    seed: int,
    rungs: list[tuple[str, str]],
    first: tuple[str, ...] = (),
    keep: Path | None = None,
) -> tuple[list[str], dict]:
    """Duel every rung against the heuristic; the table lines and each rung's per-deal edges.

    The rungs labelled in ``first`` are played first (the table keeps the order of ``rungs``), so
    a run stopped early has measured them. With ``keep``, each rung's per-deal edges and figures
    are written there and read back instead of being played again.
    """
    order = sorted(rungs, key=lambda rung: rung[0] not in first)
    edges: dict[str, np.ndarray] = {}
    rows: dict[str, str] = {}
    for label, a in order:
        stored = keep / f"{players}p-{deals}-{seed}-{a}.npz" if keep else None
        if stored is not None and stored.exists():
            kept = np.load(stored)
            edges[label] = kept["edges"]
            edge, low, high, wall = (float(v) for v in kept["figures"])
        else:
            started = time.perf_counter()
            result = tarotsim.duel(a, HEURISTIC, deals, seed=seed, players=players, progress=True)
            edges[label] = per_deal_edge(result)
            edge, low, high, wall = result.edge, result.low, result.high, time.perf_counter() - started
            if stored is not None:
                stored.parent.mkdir(parents=True, exist_ok=True)
                np.savez(stored, edges=edges[label], figures=np.array([edge, low, high, wall]))
        rows[label] = f"| {label} (`{a}`) | {edge:+.2f} | [{low:+.2f}, {high:+.2f}] | {wall:.0f} |"
        print(players, "players:", rows[label], flush=True)
    lines = [
        "| A (B: the heuristic) | edge, points per deal | 95% interval | wall s |",
        "|---|---:|---|---:|",
        *(rows[label] for label, _ in rungs),
    ]
    return lines, edges


def differences(edges: dict[str, np.ndarray], pairs: list[tuple[str, str]]) -> list[str]:
    lines = ["| A − A′ (same deals) | difference, points per deal | 95% interval |", "|---|---:|---|"]
    for first, second in pairs:
        mean, low, high = mean_interval(edges[first] - edges[second])
        lines.append(f"| {first} − {second} | {mean:+.2f} | [{low:+.2f}, {high:+.2f}] |")
    return lines


def target(edges: dict[str, np.ndarray], default_label: str, pimc_labels: list[str]) -> list[str]:
    """The strength target read off the ladder: the default's edge against +5 points per deal."""
    mean, low, high = mean_interval(edges[default_label])
    best = max(pimc_labels, key=lambda label: float(edges[label].mean()))
    verdict = "met" if mean >= 5 and low > 0 else "not met"
    strict = "lies entirely above" if low >= 5 else ("lies entirely below" if high < 5 else "holds")
    lines = [
        f"**Target** (pimc in one seat against three heuristics gains ≥ +5 points per deal, interval "
        f"above 0, at its default `{default_label}`): edge {mean:+.2f} [{low:+.2f}, {high:+.2f}], "
        f"{verdict} as written (point estimate ≥ +5 and interval above 0); the interval "
        f"{strict} +5."
    ]
    if best != default_label:
        b_mean, b_low, b_high = mean_interval(edges[best] - edges[default_label])
        lines.append(
            f"The rung with the highest edge is `{best}` ({float(edges[best].mean()):+.2f}); its "
            f"paired difference to the default is {b_mean:+.2f} [{b_low:+.2f}, {b_high:+.2f}]."
        )
    return [" ".join(lines)]


def speed(
    seed: int, rounds: int, budget_s: float, policies: list[tuple[str, str]]
) -> tuple[list[str], dict[str, list[float]]]:
    """Deals per CPU second with every seat on each policy, one thread, interleaved rounds;
    the deals of each measurement are sized from a first pass to take about ``budget_s``.
    Returns the table's lines and, per policy, its deal time over the heuristic's in each round."""
    key = run_key(seed)
    cfgs = {label: RunConfig(strategies=[s] * 4).to_array() for label, s in policies}
    sizes: dict[str, int] = {}
    with using_threads(1):
        for label, cfg in cfgs.items():  # compile, then size each measurement
            play_deals(0, 1, key, cfg)
            started = time.process_time()
            n = 1
            while time.process_time() - started < budget_s / 4:
                play_deals(0, n, key, cfg)
                n *= 2
            per_deal = (time.process_time() - started) / (2 * n - 1)
            sizes[label] = max(2, int(budget_s / per_deal))
        per_round: dict[str, list[float]] = {label: [] for label in cfgs}
        for r in range(rounds):
            for label, cfg in cfgs.items():
                first = (r + 1) * 100_000
                started = time.process_time()
                play_deals(first, sizes[label], key, cfg)
                per_round[label].append((time.process_time() - started) / sizes[label])
    lines = [
        "| every seat plays | deals per measurement | deals per CPU s (median) | deal time / heuristic "
        "deal time (median of rounds) | 95% interval |",
        "|---|---:|---:|---:|---|",
    ]
    heuristic_label = next(label for label, s in policies if s == HEURISTIC)
    all_ratios: dict[str, list[float]] = {}
    for label in cfgs:
        ratios = [t / h for t, h in zip(per_round[label], per_round[heuristic_label], strict=True)]
        all_ratios[label] = ratios
        interval = median_interval(np.array(ratios))
        span = "too few rounds" if interval is None else f"{interval[0]:,.1f} to {interval[1]:,.1f}"
        lines.append(
            f"| {label} | {sizes[label]:,} | {1 / statistics.median(per_round[label]):,.2f} | "
            f"{statistics.median(ratios):,.1f} | {span} |"
        )
        print(lines[-1], flush=True)
    return lines, all_ratios


COST_BOUND = 3_000
"""The cost bound: a deal with every seat on ``pimc`` at its default, in heuristic deals."""


def cost_target(ratios: list[float], default_label: str) -> str:
    """The cost target read off the speed table."""
    median = statistics.median(ratios)
    interval = median_interval(np.array(ratios))
    span = "" if interval is None else f" (95% interval {interval[0]:,.0f} to {interval[1]:,.0f})"
    verdict = "met" if median <= COST_BOUND else "not met"
    return (
        f"**Cost target** (a deal with every seat on `pimc` at its default costs at most {COST_BOUND:,} "
        f"heuristic deals, one thread): `{default_label}` costs {median:,.0f}{span}, {verdict}."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=400, help="deals per duel at 4 players")
    parser.add_argument("--deals-other", type=int, default=150, help="deals per duel at 3 and 5 players")
    parser.add_argument(
        "--pimc",
        default=PIMC_RUNGS,
        help="the pimc rungs besides the defaults: sets of options separated by ';', e.g. "
        "'worlds=8,drop=0;worlds=24,drop=0,endgame=3'",
    )
    parser.add_argument("--speed-rounds", type=int, default=3, help="interleaved rounds of the speed table")
    parser.add_argument("--speed-seconds", type=float, default=4.0, help="CPU seconds per speed measurement")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=REPORTS / "strength.md")
    parser.add_argument(
        "--keep",
        type=Path,
        default=None,
        help="folder to keep each duel's per-deal edges in and reuse them from",
    )
    args = parser.parse_args()
    started = time.perf_counter()
    basic = [("basic", spec("basic"))] if "basic" in PLAY_POLICIES else []
    rungs = [("random", spec("random")), *basic, ("heuristic", HEURISTIC)]
    default_label, pimc = pimc_rungs(args.pimc)
    lines4, edges4 = ladder(4, args.deals, args.seed, rungs + pimc, (default_label,), args.keep)
    pairs = [(label, default_label) for label, _ in pimc if label != default_label]
    diff_lines = differences(edges4, pairs)
    target_lines = target(edges4, default_label, [label for label, _ in pimc])
    short = [("random", spec("random")), pimc[0]]
    lines3, _ = ladder(3, args.deals_other, args.seed, short, keep=args.keep)
    lines5, _ = ladder(5, args.deals_other, args.seed, short, keep=args.keep)
    speed_policies = [
        ("random", spec("random")),
        *basic,
        ("heuristic", HEURISTIC),
        *pimc,
    ]
    speed_lines, ratios = speed(args.seed, args.speed_rounds, args.speed_seconds, speed_policies)
    about = machine()
    command = (
        f"benchmarks/bench_strength.py --deals {args.deals} --deals-other {args.deals_other} "
        f"--pimc '{args.pimc}' --speed-rounds {args.speed_rounds} "
        f"--speed-seconds {args.speed_seconds} --seed {args.seed}" + (" --keep DIR" if args.keep else "")
    )
    kept = (
        " Duels found in the `--keep` folder were read back, not played again: their wall times are"
        " those of the run that played them; the speed table is always measured afresh."
        if args.keep
        else ""
    )
    text = [
        "# Strength of the card-play policies, and the cost of `pimc`",
        "",
        f"Written by `.venv/bin/python {command}` on "
        f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC in {time.perf_counter() - started:.0f} s.{kept}",
        "",
        "Machine: " + ", ".join(f"{k} {v}" for k, v in about.items()) + ".",
        "",
        "Every rung is a duplicate duel (`tarotsim.duel`) of A against B = the heuristic: each deal is",
        "played once with A in each seat and B in the others, on the same cards and random stream, so",
        "luck cancels. A's edge is its mean score per deal over the rotations (game points), with a",
        f"95% interval ({INTERVAL}). All rungs use the same seed, so they are played on the same",
        "deals, and two rungs are compared by the per-deal difference of their edges (a paired 95%",
        "normal interval over deals). Every strategy bids with Chavey's bands and makes the expert",
        f"écart. `pimc` defaults: `worlds={DEFAULT_WORLDS}`, `drop={DEFAULT_DROP}`, "
        f"`endgame={DEFAULT_ENDGAME}`, `rollout=heuristic`.",
        "",
        f"## Ladder, 4 players, {args.deals:,} deals per duel",
        "",
        *lines4,
        "",
        "Paired differences between the `pimc` rungs (the same deals):",
        "",
        *diff_lines,
        "",
        *target_lines,
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
        "its speed drifts between rounds) and its median reported, with a distribution-free 95% interval",
        "of the median over the rounds (`tarotsim.bench.timing.median_interval`; 6 rounds at least); the",
        "target is a `pimc` deal at its default costing at most 3,000 heuristic deals.",
        "",
        *speed_lines,
        "",
        cost_target(ratios[default_label], default_label),
        "",
        "## Remaining biases",
        "",
        f"- Each 4-player duel holds {args.deals:,} deals ({args.deals_other:,} at 3 and 5 players): the",
        "  intervals above are the honest width of what was measured; rungs closer than their paired",
        "  interval are not told apart, and a larger `--deals` narrows them as its square root.",
        "- Normal intervals over deals: per-deal edges are bounded and roughly symmetric, and the",
        "  counts are in the hundreds; they are approximate for the shortest runs.",
        "- `pimc` samples worlds uniformly over the deals consistent with what the seat knows; it",
        "  does not weigh them by how likely the bids and cards played make them, and its playouts",
        "  treat every seat as seeing all cards (strategy fusion). Its edge over the heuristic is",
        "  measured with the heuristic as opponent and as rollout policy: against other players the",
        "  edge may differ.",
        "- Dropping (`drop`) tests each card against the best one at every fourth world from the",
        "  eighth on, with a normal approximation over as few as 8 worlds and no correction for the",
        "  repeated tests: it can drop a card that all the worlds would have chosen. What that costs",
        "  in play is the paired difference between the same worlds with and without dropping above.",
        "- All rungs share the bidding and the écart; card play alone differs.",
        "",
    ]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(text), encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
