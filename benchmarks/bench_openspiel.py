"""OpenSpiel's Python IS-MCTS against the heuristic and against pimc: writes reports/openspiel.md.

Duplicate duels (``tarotsim.duel``: the same deals, the IS-MCTS seat rotated through the
table, the heuristic in the other seats): IS-MCTS plays the cards
(``Strategy(play=tarotsim.interfaces.openspiel.ismcts_player(…), ecart="expert")``, a Python player;
the auction, the écart and the announcements by the same built-in policies as its
opponents), at a fixed number of simulations per decision, each from a deal drawn by the
exact resampler and evaluated by one uniformly random playout. ``pimc`` cannot sit at a
table of Python players (a searching built-in needs the kernels' game loop), so it meets
IS-MCTS through the heuristic: ``pimc`` against the heuristic on the same deals, and the
difference of the two edges deal by deal (paired). The deals come in rounds of four (seeds
``seed``, ``seed + 1``, …, deals 0-3 of each: every dealer), until the CPU budget is spent;
the report is rewritten after every round. No round starts once the CPU or the wall-clock
budget is spent.

Intervals: 95 %, normal approximation over deals (the duel's own: mean ± 1.96 standard
errors of the per-deal edges, an edge being A's mean score over the rotations), for each
edge and for the paired difference. Times per decision are CPU seconds
(``time.process_time``): IS-MCTS's measured around each decision, pimc's its duel's time
over its card decisions (the heuristic seats' time included, a small part).

    nice -n 10 .venv/bin/python benchmarks/bench_openspiel.py [--simulations 100] [--cpu-minutes 25] [--wall-minutes 60]
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numpy as np
import pandas as pd

import tarotsim
from tarotsim.bench.timing import machine
from tarotsim.engine.labels import TABLE_SIZES
from tarotsim.interfaces.openspiel import ismcts_player

REPORTS = Path(__file__).resolve().parent.parent / "reports"
HEURISTIC = "play=heuristic,ecart=expert"
PIMC = "play=pimc,ecart=expert"
ROUND = 4


def per_deal_edges(result: tarotsim.DuelResult, seed: int) -> pd.Series:
    """A's mean score over the rotations, per deal (indexed by (seed, deal))."""
    records = result.records
    scores = records[[f"score_{s}" for s in range(result.players)]].to_numpy()
    a_scores = scores[np.arange(len(records)), records["a_seat"].to_numpy()]
    edges = pd.Series(a_scores, index=records["deal"].to_numpy()).groupby(level=0).mean()
    edges.index = pd.MultiIndex.from_product([[seed], edges.index], names=["seed", "deal"])
    return edges


def interval(values: np.ndarray) -> tuple[float, float, float]:
    """Mean and its 95 % normal-approximation interval."""
    mean = float(values.mean())
    if len(values) < 2:
        return mean, math.nan, math.nan
    half = 1.96 * float(values.std(ddof=1)) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def card_decisions(result: tarotsim.DuelResult) -> int:
    """A's card decisions in a duel: a hand's worth per rotation played out."""
    hand, _ = TABLE_SIZES[result.players]
    return int((result.records["thrown_in"] == "none").sum()) * hand


def report(
    args: argparse.Namespace,
    ismcts: pd.Series,
    pimc: pd.Series,
    times: dict[str, float],
    cpu_minutes: float,
    wall_minutes: float,
) -> str:
    diff = (ismcts - pimc).to_numpy()
    rows = [
        ("IS-MCTS against the heuristic", interval(ismcts.to_numpy())),
        ("pimc against the heuristic", interval(pimc.to_numpy())),
        ("IS-MCTS minus pimc (paired by deal)", interval(diff)),
    ]
    info = machine()
    lines = [
        "# OpenSpiel's IS-MCTS against the heuristic and pimc",
        "",
        f"A small first anchor: **{len(ismcts)} deals** ({len(ismcts) * args.players} seatings each), "
        f"{args.players} players, what {cpu_minutes:.0f} CPU minutes ({wall_minutes:.0f} minutes of wall time) "
        "gave on a machine shared with other work. "
        "The intervals are wide; the figures place IS-MCTS roughly, no more.",
        "",
        "- IS-MCTS: `open_spiel.python.algorithms.ismcts.ISMCTSBot` through "
        "`tarotsim.interfaces.openspiel.ismcts_player`, "
        f"**{args.simulations} simulations per decision**, UCT constant {args.uct_c:g} points, one uniformly "
        "random playout per evaluation, each simulation from a deal drawn by the exact resampler; it plays "
        "the cards, the auction, écart and announcements being the built-in policies of its opponents "
        f"(`{HEURISTIC}`).",
        f"- Opponents: `{HEURISTIC}` in the other seats. pimc (`{PIMC}`, its default options) cannot sit "
        "at a table of Python players, so it is compared through the heuristic: its duel on the same deals, "
        "and the difference of the two edges deal by deal.",
        f"- Deals: rounds of {ROUND} (deals 0-{ROUND - 1} of seeds {args.seed}, {args.seed + 1}, …), "
        "duplicate: every deal played once per seat of the tested player.",
        "- Intervals: 95 %, normal approximation over deals (mean ± 1.96 standard errors of the per-deal "
        "edges), as `tarotsim.duel` makes them; the difference is paired by deal.",
        "",
        "| comparison | edge (points per deal) | 95 % interval |",
        "|---|---:|---:|",
    ]
    for label, (mean, low, high) in rows:
        lines.append(f"| {label} | {mean:+.1f} | {low:+.1f} to {high:+.1f} |")
    lines += [
        "",
        "| player | CPU seconds per card decision |",
        "|---|---:|",
        f"| IS-MCTS, {args.simulations} simulations | {times['ismcts']:.3f} |",
        f"| pimc (default options) | {times['pimc']:.4f} |",
        "",
        f"Machine: {info['cpu']}, {info['cores']} cores shared with other work (load average "
        f"{info['load_average']} at the end), one thread, `nice -n 10`; "
        + ", ".join(f"{name} {version}" for name, version in info["versions"].items())
        + f", open_spiel {_open_spiel_version()}.",
        "",
        "Made by:",
        "",
        "```",
        f"nice -n 10 python benchmarks/bench_openspiel.py --simulations {args.simulations} "
        f"--cpu-minutes {args.cpu_minutes:g} --wall-minutes {args.wall_minutes:g} --seed {args.seed} "
        f"--players {args.players}",
        "```",
        "",
    ]
    return "\n".join(lines)


def _open_spiel_version() -> str:
    from importlib.metadata import version

    return version("open_spiel")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulations", type=int, default=100, help="IS-MCTS simulations per decision")
    parser.add_argument("--uct-c", type=float, default=200.0, help="UCT exploration constant, points")
    parser.add_argument("--cpu-minutes", type=float, default=25.0, help="stop starting rounds after this")
    parser.add_argument("--wall-minutes", type=float, default=60.0, help="… or after this much wall time")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--out", type=Path, default=REPORTS / "openspiel.md")
    args = parser.parse_args()
    player = ismcts_player(args.simulations, uct_c=args.uct_c, seed=args.seed)
    ismcts_strategy = tarotsim.Strategy(play=player, ecart="expert", name=f"ismcts{args.simulations}")
    tarotsim.duel(PIMC, HEURISTIC, 1, seed=0, players=args.players, threads=1, progress=False)  # warm up
    started = time.process_time()
    wall = time.perf_counter()
    ismcts_edges, pimc_edges = [], []
    pimc_seconds, pimc_decisions = 0.0, 0
    seed = args.seed
    while (
        time.process_time() - started < args.cpu_minutes * 60
        and time.perf_counter() - wall < args.wall_minutes * 60
    ):
        result = tarotsim.duel(
            ismcts_strategy, HEURISTIC, ROUND, seed=seed, players=args.players, threads=1, progress=False
        )
        ismcts_edges.append(per_deal_edges(result, seed))
        t0 = time.process_time()
        result = tarotsim.duel(
            PIMC, HEURISTIC, ROUND, seed=seed, players=args.players, threads=1, progress=False
        )
        pimc_seconds += time.process_time() - t0
        pimc_decisions += card_decisions(result)
        pimc_edges.append(per_deal_edges(result, seed))
        seed += 1
        times = {
            "ismcts": player.seconds / max(player.decisions, 1),
            "pimc": pimc_seconds / max(pimc_decisions, 1),
        }
        spent = (time.process_time() - started) / 60, (time.perf_counter() - wall) / 60
        text = report(args, pd.concat(ismcts_edges), pd.concat(pimc_edges), times, *spent)
        args.out.write_text(text, encoding="utf-8")
        print(f"{len(ismcts_edges) * ROUND} deals, {time.process_time() - started:.0f} CPU s", flush=True)
    print(args.out.read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
