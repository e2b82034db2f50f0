"""The ``montecarlo`` bidder evaluating its contracts with the search player's own play.

Duels, at 4 players, the top rung of the strength ladder (``bench_strength_ladder.TOP``: ``pimc``
play, the ``montecarlo`` bidder with heuristic playouts, the searched écart, poignée and chelem)
with its bidder's playouts played otherwise (``--variants``, each a few options added to the top
rung's spec: ``bid_rollout=pimc``, ``bid_rollout=net`` …) against the top rung itself, and times
each with every seat playing it against the heuristic (the ladder's cost, ``rung_costs``):

    python benchmarks/bench_bid_rollout.py [--seed 4041] [--deals 600] [--cost-seconds 0.5]

Each duel is duplicate (`tarotsim.duel`: every deal played with the variant in each seat and
the top rung in the others), stopped by a sequential test (``--edge``, error rates 0.05, a look
every ``--look-every`` deals) or at ``--deals`` deals; the variant's edge is its mean score per
deal with its 95 % interval (normal, over deals). Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import time

import tarotsim
from tarotsim.bench.timing import interleave, machine
from tarotsim.bench.works import strategy_works

TOP = "play=pimc,bid=montecarlo,ecart=search,poignee=search,chelem=search"
"""The top rung of ``reports/strength-ladder.md`` (``bench_strength_ladder.TOP``)."""
TODAY = "play=pimc,knowledge=table"
"""Today's pimc, the ladder's measure of the cost bound (3 times its cost)."""
VARIANTS = (
    "bid_rollout=net",
    "bid_rollout=pimc,bid_worlds=8,bid_rollout_worlds=2",
)
"""The default variants: options added to the top rung's spec."""


def costs(specs: dict[str, str], *, seconds: float, rounds: int, seed: int) -> dict[str, tuple]:
    """Each spec's CPU time per deal, every seat playing it, one thread, over the heuristic's:
    per name (median, low, high) of the ratio over ``rounds`` interleaved rounds (its 95 %
    distribution-free interval, None under 6 rounds), each timed on about ``seconds`` CPU s."""

    sized = strategy_works(
        {"heuristic": "play=heuristic", **specs}, players=4, seconds=seconds, seed=seed, cheap=("heuristic",)
    )
    timed = interleave(sized, repeats=rounds).on_cpu()
    out = {}
    for name in specs:
        ratio = timed.ratio("heuristic", name)
        out[name] = (ratio.median, ratio.low, ratio.high)
    return out


def _cost(c: tuple) -> str:
    median, low, high = c
    interval = "" if low is None else f" ({low:,.0f} to {high:,.0f})"
    return f"{median:,.0f}{interval}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=4041)
    parser.add_argument("--deals", type=int, default=600, help="most deals of each duel")
    parser.add_argument("--edge", type=lambda s: tuple(float(x) for x in s.split(",")), default=(0.0, 2.0))
    parser.add_argument("--look-every", type=int, default=100)
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS))
    parser.add_argument("--cost-seconds", type=float, default=0.5)
    parser.add_argument("--cost-rounds", type=int, default=6)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--no-duels", action="store_true", help="time the costs only")
    args = parser.parse_args()

    specs = {"today's pimc": TODAY, "top rung": TOP} | {v: f"{TOP},{v}" for v in args.variants}
    print(f"Machine: {json.dumps(machine())}", flush=True)
    timed = costs(specs, seconds=args.cost_seconds, rounds=args.cost_rounds, seed=args.seed)
    rows = []
    for variant in args.variants:
        edge = "—"
        if not args.no_duels:
            started = time.process_time()
            result = tarotsim.duel(
                specs[variant],
                TOP,
                args.deals,
                seed=args.seed,
                players=4,
                threads=args.threads,
                until_decided=args.edge,
                look_every=args.look_every,
                progress=False,
            )
            verdict = "not decided" if result.decision is None else result.decision.verdict
            decided = verdict if verdict == "not decided" else f"decided {verdict}"
            edge = (
                f"{result.edge:+.2f} ({result.low:+.2f} to {result.high:+.2f}), {result.n:,} deals, "
                f"{decided}, {time.process_time() - started:,.0f} CPU s"
            )
        ratio = timed[variant][0] / timed["today's pimc"][0]
        rows.append(f"| `{variant}` | {edge} | {_cost(timed[variant])} | {ratio:.2f} |")
        print(rows[-1], flush=True)
    print()
    print(
        "| added to the top rung | edge over the top rung (95 %) | cost (heuristic deals) | × today's pimc |"
    )
    print("| --- | --- | --- | --- |")
    today = timed["today's pimc"][0]
    for name in ("today's pimc", "top rung"):
        print(f"| {name} (`{specs[name]}`) | — | {_cost(timed[name])} | {timed[name][0] / today:.2f} |")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
