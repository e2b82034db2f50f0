"""Speed of the batched environment: writes reports/env.md.

``tarotsim.VecEnv`` with 4096 games, one thread, the actions drawn at random among the legal
ones with numpy in the benchmark loop (per game: the count of legal actions, one integer
draw below it, and the matching entry of the mask's nonzero positions), observations and
masks included: decisions per CPU second (``time.process_time``) with every seat an agent
(int64 rows, float32 tensors written by the kernel, their uint8 compact form), and with one
agent seat against the heuristic: rows, tensors, and tensors for the card play only of a
forced garde. Beside them, in the same interleaved rounds, ``simulate``'s engine with random
card play (cards per CPU second: the deals played out × cards per deal).

    .venv/bin/python benchmarks/bench_env.py [--games 4096] [--steps 200] [--rounds 7]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np

from tarotsim import VecEnv
from tarotsim.bench.timing import Work, interleave, machine
from tarotsim.bench.works import SEED, _engine_cfg
from tarotsim.game import TENSOR_LENGTH
from tarotsim.kernels.state import C_HAND, C_PLAYERS, R_THROWN_IN
from tarotsim.run.engine import play_deals, using_threads
from tarotsim.run.seeding import run_key

REPORTS = Path(__file__).resolve().parent.parent / "reports"
COMMAND = ".venv/bin/python benchmarks/bench_env.py"
HEURISTIC = "play=heuristic,ecart=expert"
ENGINE_DEALS = 200_000
PGX_NOTE = (
    "pgx (JAX), the batched card-game environments' reference, is not measured beside them: it is "
    "not installed in this environment (no JAX), and no pgx game is French Tarot."
)


def random_legal(mask: np.ndarray, rng: np.random.Generator, rows: np.ndarray) -> np.ndarray:
    """One action per row of ``mask`` (bool[n, actions]), uniform among its legal ones;
    ``rows`` is ``arange(n) * actions``."""
    counts = np.count_nonzero(mask, axis=1)
    flat = np.flatnonzero(mask)
    pick = np.cumsum(counts) - counts + (rng.random(len(counts)) * counts).astype(np.int64)
    return flat[pick] - rows


def env_work(
    games: int, steps: int, agent_seats: tuple[int, ...], stats: dict[str, int], **options: Any
) -> Work:
    """``steps`` steps of a VecEnv of ``games`` games (``options``: VecEnv's), random legal
    actions; ``stats`` counts the deals that end."""
    env = VecEnv(games, 4, agent_seats=agent_seats, opponents=HEURISTIC, seed=SEED, threads=1, **options)
    rng = np.random.default_rng(SEED)
    rows = np.arange(games) * env.n_actions
    state = {"mask": env.reset()[1]}

    def run() -> None:
        mask = state["mask"]
        ended = 0
        for _ in range(steps):
            obs, mask, rewards, done = env.step(random_legal(mask, rng, rows))
            ended += int(np.count_nonzero(done))
        state["mask"] = mask
        stats["deals"] = stats.get("deals", 0) + ended
        stats["decisions"] = stats.get("decisions", 0) + steps * games

    return Work(run, steps * games)


def engine_cards_work(deals: int) -> Work:
    """Deals of ``simulate``'s engine with random card play, counted in cards played."""
    cfg = _engine_cfg("random", 4)
    key = run_key(SEED)
    out = play_deals(0, deals, key, cfg)
    cards = int(np.count_nonzero(out[:, R_THROWN_IN] == 0)) * int(cfg[C_HAND]) * int(cfg[C_PLAYERS])

    def run() -> None:
        with using_threads(1):
            play_deals(0, deals, key, cfg)

    return Work(run, cards)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4096)
    parser.add_argument("--steps", type=int, default=200, help="steps per timed round")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    every, one, tensor, play = dict[str, int](), dict[str, int](), dict[str, int](), dict[str, int]()
    garde = {"agent_decisions": ("play",), "taker": 0, "contract": "garde", "observations": "tensor"}
    seats = (0, 1, 2, 3)
    works = {
        "every seat an agent": env_work(args.games, args.steps, seats, every),
        "every seat an agent, tensors": env_work(args.games, args.steps, seats, {}, observations="tensor"),
        "every seat an agent, compact": env_work(args.games, args.steps, seats, {}, observations="compact"),
        "seat 0 against the heuristic": env_work(args.games, args.steps // 4, (0,), one),
        "seat 0, tensors": env_work(args.games, args.steps // 4, (0,), tensor, observations="tensor"),
        "seat 0, card play of a forced garde, tensors": env_work(
            args.games, args.steps // 4, (0,), play, **garde
        ),
        "simulate, random play (cards)": engine_cards_work(ENGINE_DEALS),
    }
    rounds = interleave(works, repeats=args.rounds).on_cpu()
    info = machine()
    all_agents = rounds.spread("every seat an agent")
    all_tensors = rounds.spread("every seat an agent, tensors")
    all_compact = rounds.spread("every seat an agent, compact")
    tensor_ratio = rounds.ratio("every seat an agent, tensors", "every seat an agent")
    heuristic_ratio = rounds.ratio("seat 0, tensors", "seat 0 against the heuristic")
    heuristic = rounds.spread("seat 0 against the heuristic")
    tensors = rounds.spread("seat 0, tensors")
    cards = rounds.spread("seat 0, card play of a forced garde, tensors")
    engine = rounds.spread("simulate, random play (cards)")
    ratio = rounds.ratio("every seat an agent", "simulate, random play (cards)")
    deals_per_decision = one["deals"] / one["decisions"]
    lines = [
        "# The batched environment: speed",
        "",
        f"`{COMMAND} --games {args.games} --steps {args.steps} --rounds {args.rounds}`:",
        f"`tarotsim.VecEnv` with {args.games} games, 4 players, one thread; each step draws one action",
        "per game uniformly among the legal ones with numpy in the benchmark loop (the legal count,",
        "one draw below it, the matching nonzero entry of the mask) and returns the observations",
        "(int64 rows; or, where said, the tensors of `tarotsim.game.TENSOR_FIELDS`, "
        f"{TENSOR_LENGTH} values per",
        "decision that the kernel (`tarotsim.kernels.encode`) writes straight into the batch array:",
        "float32 `tensor`, or uint8 `compact`), the masks, the rewards and the",
        "done flags. Figures per second of the process's CPU time (`time.process_time`), medians",
        "and min–max of interleaved rounds (`tarotsim.bench.timing.interleave`); the engine is",
        "`simulate`'s with random card play (the simple écart), its deals counted in cards played.",
        "",
        f"Machine: {info['cpu']}, {info['cores']} cores shared with other work; load average (1 min)",
        f"{info['load_average']:.2f} at the end. Versions: "
        + ", ".join(f"{k} {v}" for k, v in info["versions"].items())
        + ".",
        "",
        "| figure | median | min–max |",
        "|---|---|---|",
        f"| every seat an agent, decisions/CPU s | {all_agents.median:,.0f} | "
        f"{all_agents.min:,.0f}–{all_agents.max:,.0f} |",
        f"| every seat an agent, float32 tensor observations, decisions/CPU s | {all_tensors.median:,.0f} | "
        f"{all_tensors.min:,.0f}–{all_tensors.max:,.0f} |",
        f"| every seat an agent, uint8 compact observations, decisions/CPU s | {all_compact.median:,.0f} | "
        f"{all_compact.min:,.0f}–{all_compact.max:,.0f} |",
        f"| every seat an agent, tensors / rows | {tensor_ratio.median:.3f} | "
        f"{tensor_ratio.min:.3f}–{tensor_ratio.max:.3f} |",
        f"| seat 0 against the heuristic, agent decisions/CPU s | {heuristic.median:,.0f} | "
        f"{heuristic.min:,.0f}–{heuristic.max:,.0f} |",
        f"| seat 0 against the heuristic, deals/CPU s | {heuristic.median * deals_per_decision:,.0f} | |",
        f"| seat 0 against the heuristic, tensor observations, agent decisions/CPU s | {tensors.median:,.0f} | "
        f"{tensors.min:,.0f}–{tensors.max:,.0f} |",
        f"| seat 0 against the heuristic, tensors / rows | {heuristic_ratio.median:.3f} | "
        f"{heuristic_ratio.min:.3f}–{heuristic_ratio.max:.3f} |",
        f"| seat 0 playing the cards of a forced garde, tensor observations, agent decisions/CPU s | "
        f"{cards.median:,.0f} | {cards.min:,.0f}–{cards.max:,.0f} |",
        f"| simulate, random play, cards/CPU s | {engine.median:,.0f} | "
        f"{engine.min:,.0f}–{engine.max:,.0f} |",
        f"| every seat an agent / simulate's cards | {ratio.median:.3f} | {ratio.min:.3f}–{ratio.max:.3f} |",
        "",
        "The target is at least 1,500,000 decisions per CPU second with every seat an agent,",
        "observation tensors included. A step costs the kernel (`kernels.vector.step`: the action,",
        "the other seats' policies, the observation (row or tensor) and the mask of each game), the",
        "allocation of the returned arrays and the numpy draw of the next actions. The ratios are",
        "of the same round (the spread of a ratio is over the rounds).",
        "",
        PGX_NOTE,
        "",
    ]
    REPORTS.mkdir(exist_ok=True)
    (REPORTS / "env.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
