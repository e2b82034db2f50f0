"""The inference of ``pimc infer=heuristic`` measured by itself: how much probability its worlds
give the true location of each unseen card, against the uniform worlds of ``infer=none``.

Positions: deal ``i`` of the run of ``--seed`` (``tarotsim.Game``) played by heuristic players
(default strategy) to a card decision drawn uniformly among those before the last trick; thrown-in
deals are skipped. At each position the deciding seat draws ``--worlds`` worlds as ``pimc``
does (``worlds.draw_world`` for ``none``; ``likelihood.infer_worlds`` for ``heuristic``:
``INFER_POOL`` candidates per world kept, resampled by likelihood). For each unseen card,
the sampler's probability of its true holder (a hand, the unknown chien or écart) is
estimated from those worlds with add-one smoothing over the holders the card may go to:
``(k + 1) / (worlds + m)`` for a card found at its true holder in ``k`` worlds among ``m``
possible holders (a card with one possible holder gets log 1 = 0 from both samplers).
A position's score is the mean of the log of that over its unseen cards; positions are
the unit, and the 95 % intervals are t-intervals over positions (the difference paired
position by position). Also reported: the effective sample size of the candidates'
weights, ``(sum w)^2 / sum w^2``, out of ``INFER_POOL * worlds``.

    python benchmarks/bench_inference.py [--positions 10000] [--players 4] [--worlds 32]
        [--epsilon 0.8] [--seed 2026] [--every N]

With ``--cost-deals N`` it measures instead what the inference costs: the CPU time of
``tarotsim.simulate`` of N deals with every seat on ``pimc`` and with every seat on
``pimc,infer=heuristic`` (defaults otherwise, one thread), ``--rounds`` rounds interleaved after
a warm-up, and the ratio of their sums.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

import tarotsim
from tarotsim._jit import njit
from tarotsim.base.seeding import run_key
from tarotsim.bench.timing import machine
from tarotsim.engine.cards import N_CARDS
from tarotsim.engine.kernels.rng import seed_substream
from tarotsim.engine.kernels.rules import card_bit
from tarotsim.engine.kernels.state import I_CHIEN_SHOWN, DealState
from tarotsim.engine.kernels.view import seat_view
from tarotsim.interfaces.game import strategy_cfg
from tarotsim.interfaces.testing import card_positions
from tarotsim.players.config import RunConfig
from tarotsim.players.kernels.search.constraints import seat_constraints
from tarotsim.players.kernels.search.likelihood import INFER_EPSILON, INFER_POOL, infer_worlds
from tarotsim.players.kernels.search.scratch import SearchScratch, new_search_scratch
from tarotsim.players.kernels.search.worlds import draw_world, holder_allowed, prepare_worlds

STRATEGY = "play=heuristic"


@njit(inline="always")
def _holds(word: np.ndarray, card: int) -> bool:
    bit0, bit1 = card_bit(card)
    return (word[0] & bit0) != 0 or (word[1] & bit1) != 0


@njit
def position_scores(
    tb: DealState,
    seat: int,
    cfg: np.ndarray,
    sc: SearchScratch,
    key: np.ndarray,
    deal: int,
    worlds: int,
    epsilon: float,
    truth: np.ndarray,
    counts: np.ndarray,
) -> tuple[float, float, float, int]:
    """(mean log-probability of the true holders under the uniform worlds, the same under the
    inferred worlds, the candidates' effective sample size, unseen cards) at the decision of
    ``seat`` on ``tb``; unseen cards 0 when no world can be drawn."""
    v = seat_view(tb, seat)
    seed_substream(sc.rng, key, deal, 1)
    n = seat_constraints(v, cfg, sc.unseen, sc.sizes, sc.voids, sc.known, sc.possible, sc.holder_seat)
    holder_allowed(sc.unseen, sc.voids, sc.known, sc.possible, n, sc.allowed)
    if prepare_worlds(sc.allowed, sc.sizes, n, sc.unseen, sc.worlds) <= 0.0:
        return 0.0, 0.0, 0.0, 0
    for card in range(N_CARDS):  # the true holder of each unseen card
        truth[card] = -1
        if not _holds(sc.unseen, card):
            continue
        for h in range(n):
            s = sc.holder_seat[h]
            if s >= 0:
                if _holds(tb.hands[s], card):
                    truth[card] = h
            elif tb.info[I_CHIEN_SHOWN] == 1:  # a defender: the écart's hidden part
                if _holds(tb.ecart, card):
                    truth[card] = h
            elif _holds(tb.chien, card):  # the chien unseen
                truth[card] = h
    for arm in range(2):
        for card in range(N_CARDS):
            counts[arm, card] = 0
    for _ in range(worlds):
        draw_world(sc.rng, sc.worlds, sc.world)
        for card in range(N_CARDS):
            if truth[card] >= 0 and _holds(sc.world[truth[card]], card):
                counts[0, card] += 1
    pool = infer_worlds(
        v, cfg, sc.rng, sc.worlds, sc.holder_seat, n, sc.world, sc.hands, sc.attack, worlds, epsilon, sc.infer
    )
    total = 0.0
    squares = 0.0
    for i in range(pool):
        total += sc.infer.weight[i]
        squares += sc.infer.weight[i] * sc.infer.weight[i]
    for k in range(worlds):
        row = sc.infer.pick[k]
        for card in range(N_CARDS):
            if truth[card] >= 0 and _holds(sc.infer.pool[row, truth[card]], card):
                counts[1, card] += 1
    uniform = 0.0
    inferred = 0.0
    cards = 0
    for card in range(N_CARDS):
        if truth[card] < 0:
            continue
        holders = 0
        for h in range(n):
            if sc.sizes[h] > 0 and _holds(sc.allowed[h], card):
                holders += 1
        uniform += np.log((counts[0, card] + 1.0) / (worlds + holders))
        inferred += np.log((counts[1, card] + 1.0) / (worlds + holders))
        cards += 1
    return uniform / cards, inferred / cards, total * total / squares, cards


def t_interval(values: np.ndarray) -> tuple[float, float, float]:
    """Mean and its 95 % t-interval (normal quantile: thousands of positions)."""
    mean = float(values.mean())
    half = 1.96 * float(values.std(ddof=1)) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--worlds", type=int, default=32)
    parser.add_argument("--epsilon", type=float, default=INFER_EPSILON)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--every", type=int, default=0, help="also print the table every N positions")
    parser.add_argument("--cost-deals", type=int, default=0, help="measure the cost on N deals instead")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    if args.cost_deals:
        cost(args.players, args.cost_deals, args.rounds, args.seed)
        return
    if not 0.0 < args.epsilon <= 1.0:
        parser.error("--epsilon must be above 0 and at most 1")
    players = args.players
    cfg = strategy_cfg(STRATEGY, players)
    key = run_key(args.seed)
    sc = new_search_scratch(True)
    truth = np.zeros(N_CARDS, dtype=np.int64)
    counts = np.zeros((2, N_CARDS), dtype=np.int64)
    rows: list[tuple[float, float, float]] = []
    deal = 0
    started = time.perf_counter()
    for game, seat, deal in card_positions(players, seed=args.seed, strategy=STRATEGY):
        uniform, inferred, ess, cards = position_scores(
            game._tb, seat, cfg, sc, key, deal, args.worlds, args.epsilon, truth, counts
        )
        if cards:
            rows.append((uniform, inferred, ess))
            if args.every and len(rows) % args.every == 0:
                report(args, rows, deal, time.perf_counter() - started)
        if len(rows) == args.positions:
            break
    report(args, rows, deal, time.perf_counter() - started)


def cost(players: int, deals: int, rounds: int, seed: int) -> None:
    """Print the CPU time of ``deals`` deals with every seat on each ``pimc``, and their ratio."""
    specs = ("play=pimc", "play=pimc,infer=heuristic")
    configs = [RunConfig(players=players, strategies=[spec] * players) for spec in specs]
    for config in configs:  # compile and warm up
        tarotsim.simulate(2, seed=seed, config=config, threads=1, progress=False)
    seconds: list[list[float]] = [[], []]
    for r in range(rounds):
        for k, config in enumerate(configs):
            start = time.process_time()
            tarotsim.simulate(deals, seed=seed + 1 + r, config=config, threads=1, progress=False)
            seconds[k].append(time.process_time() - start)
    about = machine()
    print(
        f"command: python benchmarks/bench_inference.py --players {players} --cost-deals {deals} "
        f"--rounds {rounds} --seed {seed}"
    )
    print(f"machine: {about['cpu']}, {about['cores']} cores, load {about['load_average']}")
    for spec, times in zip(specs, seconds, strict=True):
        print(f"{spec}: " + ", ".join(f"{t:.2f}" for t in times) + f" s CPU per {deals} deals")
    print(f"ratio: {sum(seconds[1]) / sum(seconds[0]):.2f}", flush=True)


def report(
    args: argparse.Namespace, rows: list[tuple[float, float, float]], deal: int, seconds: float
) -> None:
    """Print the table over the positions so far."""
    players = args.players
    data = np.array(rows)
    u = t_interval(data[:, 0])
    i = t_interval(data[:, 1])
    d = t_interval(data[:, 1] - data[:, 0])
    e = t_interval(data[:, 2])
    print(
        f"command: python benchmarks/bench_inference.py --positions {args.positions} --players {players} "
        f"--worlds {args.worlds} --epsilon {args.epsilon} --seed {args.seed}"
    )
    about = machine()
    print(
        f"machine: {about['cpu']}, {about['cores']} cores, load {about['load_average']}; "
        f"{seconds:.0f} s for {len(rows)} positions ({deal} deals dealt)",
        flush=True,
    )
    print("| sampler | mean log-probability of the true holder | 95 % interval |")
    print("|---|---|---|")
    print(f"| uniform (`infer=none`) | {u[0]:.4f} | {u[1]:.4f} to {u[2]:.4f} |")
    print(f"| inferred (`infer=heuristic`, epsilon {args.epsilon}) | {i[0]:.4f} | {i[1]:.4f} to {i[2]:.4f} |")
    print(f"| inferred − uniform (paired) | {d[0]:+.4f} | {d[1]:+.4f} to {d[2]:+.4f} |")
    print(
        f"effective sample size of the {INFER_POOL * args.worlds} candidates' weights: "
        f"{e[0]:.1f} ({e[1]:.1f} to {e[2]:.1f})",
        flush=True,
    )


if __name__ == "__main__":
    main()
