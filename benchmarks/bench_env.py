"""Speed of the batched environment: writes reports/env.md.

``tarotsim.VecEnv`` with 4096 games, one thread, the actions drawn at random among the legal
ones with numpy in the benchmark loop (per game: the count of legal actions, one integer
draw below it, and the matching entry of the mask's nonzero positions), observations and
masks included: decisions per CPU second (``time.process_time``) of the whole loop and of
``VecEnv.step`` alone, with every seat an agent and with one agent seat against the
heuristic, each with int64 rows, float32 tensors written by the kernel and their uint8
compact form, and tensors for the card play only of a forced garde; every seat an agent both
with ``copy=True`` (the default: new arrays at every step) and ``copy=False`` (the same
arrays, written in place), and the kernel alone with no observation (the masks only), which
says what the observations cost. Beside them, in the same interleaved rounds, ``simulate``'s
engine with random card play (cards per CPU second: the deals played out × cards per deal).

    .venv/bin/python benchmarks/bench_env.py [--games 4096] [--steps 200] [--rounds 7]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import time
from pathlib import Path
from typing import Any

import numpy as np

from tarotsim import VecEnv
from tarotsim.base.seeding import run_key
from tarotsim.bench.timing import CPU_TICK, Spread, Work, interleave, machine
from tarotsim.bench.works import SEED, _engine_cfg
from tarotsim.engine.kernels.state import C_HAND, C_PLAYERS, N_REC, R_THROWN_IN
from tarotsim.interfaces.game import TENSOR_LENGTH
from tarotsim.interfaces.kernels.vector import N_OBS
from tarotsim.interfaces.vecenv import step_games
from tarotsim.runs.runner import play_deals, using_threads

REPORTS = Path(__file__).resolve().parent.parent / "reports"
COMMAND = ".venv/bin/python benchmarks/bench_env.py"
HEURISTIC = "play=heuristic,ecart=expert"
ENGINE_DEALS = 200_000
GOAL = 1_500_000
"""Decisions per CPU second that ``VecEnv.step`` should reach at 4096 games, one thread, every
seat an agent, with float32 observations."""
GOAL_SETUP = "every seat an agent, float32 tensors, copy=False"
COMPACT_SETUP = "every seat an agent, uint8 compact, copy=False"
KERNEL_TENSORS = "every seat an agent, the kernel alone, float32 tensors and masks"
KERNEL_MASKS = "every seat an agent, the kernel alone, masks only (no observation)"
PGX_NOTE = (
    "pgx (JAX), the batched card-game environments' reference, is not measured beside them: it is "
    "not installed in this environment (it needs JAX, no extra of tarotsim installs it)."
)


def _pgx_versions() -> str:
    from importlib.metadata import version

    return ", ".join(f"{name} {version(name)}" for name in ("pgx", "jax", "jaxlib"))


def random_legal(mask: np.ndarray, rng: np.random.Generator, rows: np.ndarray) -> np.ndarray:
    """One action per row of ``mask`` (bool[n, actions]), uniform among its legal ones;
    ``rows`` is ``arange(n) * actions``."""
    counts = np.count_nonzero(mask, axis=1)
    flat = np.flatnonzero(mask)
    pick = np.cumsum(counts) - counts + (rng.random(len(counts)) * counts).astype(np.int64)
    return flat[pick] - rows


def env_work(
    games: int,
    steps: int,
    agent_seats: tuple[int, ...],
    stats: dict[str, Any],
    kernel: str | None = None,
    **options: Any,
) -> Work:
    """``steps`` steps of a VecEnv of ``games`` games (``options``: VecEnv's), random legal
    actions; ``stats`` counts the deals that end and the decisions, and keeps each run's CPU
    seconds inside ``VecEnv.step`` alone (``step_cpu``, the benchmark's draw left out).
    ``kernel``: instead of ``VecEnv.step``, the kernel's step of the same games
    (``interfaces.vecenv.step_games``) writing into the same arrays at every step the masks only
    (``"masks"``, no observation) or the masks and the float32 observations (``"tensor"``);
    ``step_cpu`` then counts the kernel alone (the codes of the actions are looked up
    outside it)."""
    env = VecEnv(games, 4, agent_seats=agent_seats, opponents=HEURISTIC, seed=SEED, threads=1, **options)
    rng = np.random.default_rng(SEED)
    rows = np.arange(games) * env.n_actions
    state = {"mask": env.reset()[1]}
    stats.update(deals=0, decisions=0, step_cpu=[])
    mask_out = np.zeros((games, env.n_actions), dtype=bool)
    ended = np.full(games, -1, dtype=np.int64)
    records = np.zeros((games, N_REC), dtype=np.int64)
    no_rows = np.zeros((0, N_OBS), dtype=np.int64)
    tensors = np.zeros((games if kernel == "tensor" else 0, TENSOR_LENGTH), dtype=np.float32)

    def step(actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
        """One step of the games: the next masks, the done flags, the CPU seconds counted."""
        if kernel is None:
            started = time.process_time()
            _, mask, _, done = env.step(actions)
            return mask, done, time.process_time() - started
        codes = env._codes[actions]
        ended[:] = -1
        started = time.process_time()
        step_games(
            env._games,
            env._cfgs,
            env._key,
            codes,
            env._index,
            no_rows,
            mask_out,
            ended,
            records,
            1,
            tensors=tensors,
        )
        return mask_out, ended >= 0, time.process_time() - started

    def run() -> None:
        mask = state["mask"]
        finished = 0
        inside = 0.0
        for _ in range(steps):
            mask, done, spent = step(random_legal(mask, rng, rows))
            inside += spent
            finished += int(np.count_nonzero(done))
        state["mask"] = mask
        stats["deals"] += finished
        stats["decisions"] += steps * games
        stats["step_cpu"].append(inside)

    return Work(run, steps * games)


PGX_GAMES = ("kuhn_poker", "leduc_holdem")
"""pgx's card games measured beside VecEnv where pgx is installed (its bridge bidding needs
a table of double-dummy results that is not shipped)."""


def pgx_work(env_id: str, games: int, steps: int) -> Work:
    """``steps`` steps of ``games`` pgx games of ``env_id`` (``jax.vmap`` of the game's
    ``step`` under pgx's ``auto_reset``, jitted), one action per game drawn uniformly among
    the legal ones by ``jax.random.categorical`` on the masked logits, every seat an agent,
    XLA's CPU thread pools held to one thread (unless ``XLA_FLAGS`` says otherwise)."""
    os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset

    env = pgx.make(env_id)
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))

    @jax.jit
    def advance(state: Any, key: Any) -> Any:
        draw, reset = jax.random.split(key)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(draw, logits, axis=-1)
        return step(state, action, jax.random.split(reset, games))

    key = jax.random.PRNGKey(SEED)
    box = {"state": init(jax.random.split(key, games)), "key": key}

    def run() -> None:
        state, key = box["state"], box["key"]
        for _ in range(steps):
            key, sub = jax.random.split(key)
            state = advance(state, sub)
        state.observation.block_until_ready()
        box["state"], box["key"] = state, key

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
    parser.add_argument("--no-pgx", action="store_true", help="leave pgx out even where it is installed")
    args = parser.parse_args()
    garde = {"agent_decisions": ("play",), "taker": 0, "contract": "garde", "observations": "tensor"}
    every = (0, 1, 2, 3)
    reuse = {"copy": False}
    setups: dict[str, tuple[int, tuple[int, ...], dict[str, Any]]] = {
        "every seat an agent, int64 rows, copy=True": (args.steps, every, {}),
        "every seat an agent, int64 rows, copy=False": (args.steps, every, reuse),
        "every seat an agent, float32 tensors, copy=True": (args.steps, every, {"observations": "tensor"}),
        GOAL_SETUP: (args.steps, every, {"observations": "tensor", **reuse}),
        "every seat an agent, uint8 compact, copy=True": (args.steps, every, {"observations": "compact"}),
        "every seat an agent, uint8 compact, copy=False": (
            args.steps,
            every,
            {"observations": "compact", **reuse},
        ),
        KERNEL_TENSORS: (args.steps, every, {"kernel": "tensor"}),
        KERNEL_MASKS: (args.steps, every, {"kernel": "masks"}),
        "seat 0 against the heuristic, int64 rows": (args.steps // 4, (0,), {}),
        "seat 0 against the heuristic, float32 tensors": (args.steps // 4, (0,), {"observations": "tensor"}),
        "seat 0 against the heuristic, uint8 compact": (args.steps // 4, (0,), {"observations": "compact"}),
        "seat 0 playing the cards of a forced garde, float32 tensors": (args.steps // 4, (0,), garde),
    }
    stats: dict[str, dict[str, Any]] = {name: {} for name in setups}
    works = {
        name: env_work(args.games, steps, seats, stats[name], **options)
        for name, (steps, seats, options) in setups.items()
    }
    works["simulate, random play (cards)"] = engine_cards_work(ENGINE_DEALS)
    pgx_names = []
    if importlib.util.find_spec("pgx") is not None and not args.no_pgx:
        for env_id in PGX_GAMES:
            pgx_names.append(f"pgx {env_id}, every seat an agent")
            works[pgx_names[-1]] = pgx_work(env_id, args.games, args.steps)
    rounds = interleave(works, repeats=args.rounds).on_cpu()
    info = machine()

    def cells(spread: Spread, digits: int = 0) -> str:
        interval = "–" if spread.low is None else f"{spread.low:,.{digits}f}–{spread.high:,.{digits}f}"
        return f"{spread.median:,.{digits}f} | {interval} | {spread.min:,.{digits}f}–{spread.max:,.{digits}f}"

    def step_rates(name: str) -> np.ndarray:
        """Decisions per CPU second inside the step alone, round by round (the untimed first
        run left out, so index ``r`` is the round ``r`` of ``rounds``)."""
        steps = setups[name][0]
        return np.array([steps * args.games / max(cpu, CPU_TICK) for cpu in stats[name]["step_cpu"][1:]])

    table = [
        f"| {name} | {cells(rounds.spread(name))} | {cells(Spread.of(step_rates(name)))} |" for name in setups
    ]
    one = stats["seat 0 against the heuristic, int64 rows"]
    deals_per_decision = one["deals"] / one["decisions"]
    heuristic = rounds.spread("seat 0 against the heuristic, int64 rows")
    ratios = [
        (
            "every seat an agent, float32 tensors: copy=False / copy=True",
            GOAL_SETUP,
            "every seat an agent, float32 tensors, copy=True",
        ),
        (
            "every seat an agent, copy=False: float32 tensors / rows",
            GOAL_SETUP,
            "every seat an agent, int64 rows, copy=False",
        ),
        (
            "every seat an agent, copy=False: uint8 compact / rows",
            "every seat an agent, uint8 compact, copy=False",
            "every seat an agent, int64 rows, copy=False",
        ),
        (
            "seat 0 against the heuristic: float32 tensors / rows",
            "seat 0 against the heuristic, float32 tensors",
            "seat 0 against the heuristic, int64 rows",
        ),
        (
            "every seat an agent, rows (copy=True) / simulate's cards",
            "every seat an agent, int64 rows, copy=True",
            "simulate, random play (cards)",
        ),
    ]

    def cost_ns(rates: np.ndarray) -> np.ndarray:
        return 1e9 / rates

    def interval(spread: Spread, digits: int = 0) -> str:
        if spread.low is None:
            return f"{spread.median:,.{digits}f} (too few rounds for an interval)"
        return f"{spread.median:,.{digits}f} ({spread.low:,.{digits}f} to {spread.high:,.{digits}f})"

    def verdict(spread: Spread) -> str:
        if spread.low is None:
            return "too few rounds to say whether it is met"
        if spread.low >= GOAL:
            return "met: the interval of the median lies above it"
        if spread.high < GOAL:
            return "not met: the interval of the median lies below it"
        return "not settled: the interval of the median straddles it"

    goal = Spread.of(step_rates(GOAL_SETUP))
    compact = Spread.of(step_rates(COMPACT_SETUP))
    loop_ns = cost_ns(rounds.rates[GOAL_SETUP])
    parts = [
        (
            "the kernel with the masks only (the action, the built-in decisions, the masks)",
            cost_ns(step_rates(KERNEL_MASKS)),
        ),
        (
            "the float32 observations the kernel writes (the kernel alone, with them less without)",
            cost_ns(step_rates(KERNEL_TENSORS)) - cost_ns(step_rates(KERNEL_MASKS)),
        ),
        (
            f"the float32 observations less the same values as uint8 ({TENSOR_LENGTH * 3:,} bytes fewer;"
            " `VecEnv.step`, copy=False)",
            cost_ns(step_rates(GOAL_SETUP)) - cost_ns(step_rates(COMPACT_SETUP)),
        ),
        (
            "`VecEnv.step` around the kernel (the check and codes of the actions, the final"
            " observations of the deals that end, the rewards; copy=False)",
            cost_ns(step_rates(GOAL_SETUP)) - cost_ns(step_rates(KERNEL_TENSORS)),
        ),
        (
            "new arrays at every step (copy=True less copy=False)",
            cost_ns(step_rates("every seat an agent, float32 tensors, copy=True"))
            - cost_ns(step_rates(GOAL_SETUP)),
        ),
        (
            "the benchmark's numpy draw of the actions (the loop less the step)",
            loop_ns - cost_ns(step_rates(GOAL_SETUP)),
        ),
    ]
    goal_lines = [
        f"**The goal**: at least {GOAL:,} decisions per CPU second in `VecEnv.step` with every seat",
        f"an agent, {args.games} games, one thread, the float32 (or compact uint8) observations written",
        "by the kernel. With `copy=False` (the same",
        f"arrays written in place at every step) the step alone with float32 runs {interval(goal)} decisions per",
        f"CPU second (median, 95 % interval): {verdict(goal)}; with the same observation as uint8 (`compact`)",
        f"{interval(compact)}: {verdict(compact)}.",
        "What a decision costs, in nanoseconds of",
        "CPU time (each part the difference of two figures in the same round, median and 95 %",
        "interval over the rounds):",
        "",
        *(f"- {label}: {interval(Spread.of(values))}" for label, values in parts),
        "",
        f"The encoded observation is {TENSOR_LENGTH} values against the row's {N_OBS} int64: float32",
        f"writes {TENSOR_LENGTH * 4:,} bytes per decision ({TENSOR_LENGTH * 4 * args.games / 2**20:.1f} MiB a step "
        f"at {args.games} games), uint8 {TENSOR_LENGTH:,}, the row {N_OBS * 8}.",
    ]
    lines = [
        "# The batched environment: speed",
        "",
        f"`{COMMAND} --games {args.games} --steps {args.steps} --rounds {args.rounds}`:",
        f"`tarotsim.VecEnv` with {args.games} games, 4 players, one thread; each step draws one action",
        "per game uniformly among the legal ones with numpy in the benchmark loop (the legal count,",
        "one draw below it, the matching nonzero entry of the mask) and returns the observations",
        "(int64 rows; or the encoded observation of `tarotsim.interfaces.game.TENSOR_FIELDS`, "
        f"{TENSOR_LENGTH} values per",
        "decision, which the kernel (`tarotsim.engine.kernels.encode`) writes straight into the batch",
        "array: float32 `tensor`, or the same values as uint8 `compact`), the masks, the rewards",
        "and the done flags. Figures are decisions per second of the process's CPU time",
        "(`time.process_time`) over interleaved rounds (`tarotsim.bench.timing.interleave`): the",
        "median, its 95 % interval (distribution-free, from the order statistics of the rounds;",
        "– with too few rounds) and the min–max; **loop**: the whole benchmark loop (the draw of",
        "the actions included), **step alone**: the CPU time inside `VecEnv.step` only. With every",
        "seat an agent, `copy=True` (the default: new arrays at every step) and `copy=False` (the",
        "same arrays, written in place: nothing allocated per step); the other setups take the",
        "default. **The kernel alone**: `interfaces.kernels.vector.step` on the same games, writing into the",
        "same arrays at every step the masks and the float32 observations, or the masks only.",
        "Beside them `simulate`'s engine with random card play (the simple écart), in cards played.",
        "",
        f"Machine: {info['cpu']}, {info['cores']} cores shared with other work; load average (1 min)",
        f"{info['load_average']:.2f} at the end. Versions: "
        + ", ".join(f"{k} {v}" for k, v in info["versions"].items())
        + ".",
        "",
        "| decisions/CPU s | loop, median | 95 % interval | min–max | step alone, median | 95 % interval | min–max |",
        "|---|---:|---:|---:|---:|---:|---:|",
        *table,
        "",
        f"Seat 0 against the heuristic plays {heuristic.median * deals_per_decision:,.0f} deals per CPU second "
        f"(loop, rows). `simulate` with random play: {cells(rounds.spread('simulate, random play (cards)'))} "
        "cards/CPU s (median | 95 % interval | min–max).",
        "",
        *(
            [
                "pgx's card games in the same rounds (JAX on the CPU, one thread: "
                f"{_pgx_versions()}), every seat an agent, {args.games} games, the loop "
                "(the draw of the actions included, jitted with the step), decisions/CPU s:",
                "",
                "| game | median | 95 % interval | min–max |",
                "|---|---:|---:|---:|",
                *(f"| {name} | {cells(rounds.spread(name))} |" for name in pgx_names),
                "",
            ]
            if pgx_names
            else [PGX_NOTE, ""]
        ),
        "| ratio, same round | median | 95 % interval | min–max |",
        "|---|---:|---:|---:|",
        *(f"| {label} | {cells(rounds.ratio(a, b), 3)} |" for label, a, b in ratios),
        "",
        *goal_lines,
        "",
    ]
    REPORTS.mkdir(exist_ok=True)
    (REPORTS / "env.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
