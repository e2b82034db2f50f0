"""Speed of players written outside the package: writes reports/players-api.md.

Two comparisons, each in interleaved rounds of the same run (A B, then B A, …) after one
warm-up each, one thread, deals per CPU second (``time.process_time``), the ratio taken
round by round and its median reported:

- a trivial Python card player (``Strategy(play=lowest)``: the lowest legal card) dueled
  against the heuristic, beside a heuristic-against-heuristic duel (4 players);
- the same player written as a Numba function, beside the built-in ``greedy``: each in
  every seat of a 4-player run (``simulate``), and each dueled against the heuristic.

``--compile`` adds what a Numba player costs to compile, measured in fresh processes on an
empty Numba cache (``NUMBA_CACHE_DIR``): the game, then the game for Numba players, then a
new function; and in a second process on that cache, the same run again.

    .venv/bin/python benchmarks/bench_players_api.py [--rounds 5] [--deals 200] [--builtin-deals 20000]
        [--numba-deals 20000] [--compile]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numba

import tarotsim
from tarotsim.interfaces.game import Observation
from tarotsim.players.view import lowest_card

REPORTS = Path(__file__).resolve().parent.parent / "reports"
HEURISTIC = "play=heuristic,ecart=expert"


def lowest(observation: Observation) -> str:
    """The lowest legal card (card id order)."""
    return observation.legal_actions[0]


@numba.njit(cache=True)
def lowest_nb(view, legal0, legal1, options):  # type: ignore[no-untyped-def]
    """The lowest legal card, as a Numba card player."""
    return lowest_card(legal0, legal1)


def rate(run: Callable[[int], object], deals: int) -> float:
    """Deals per CPU second of ``run(deals)``."""
    start = time.process_time()
    run(deals)
    return deals / (time.process_time() - start)


def interleaved(a: tuple[Callable[[int], object], int], b: tuple[Callable[[int], object], int], rounds: int):
    """Rates of ``a`` and ``b`` (each ``(run, deals)``) and their ratios, in interleaved rounds."""
    for run, _ in (a, b):
        run(50)
    rates_a, rates_b, ratios = [], [], []
    for r in range(rounds):
        pair = [("a", a), ("b", b)]
        if r % 2:
            pair.reverse()
        got = {name: rate(run, deals) for name, (run, deals) in pair}
        rates_a.append(got["a"])
        rates_b.append(got["b"])
        ratios.append(got["a"] / got["b"])
    return rates_a, rates_b, ratios


def _row(label: str, rates: list[float]) -> str:
    return f"| {label} | {statistics.median(rates):,.0f} | {min(rates):,.0f}–{max(rates):,.0f} |"


STEP_NAMES = {
    "builtin": "the game (built-in policies), first run",
    "function": "a new Numba function",
    "numba_game": "the game for Numba players, first run with one",
    "second_function": "a second new Numba function, in a run",
}

_COMPILE_STEPS = r"""
import json, sys, time
import numba
import tarotsim
from tarotsim.players.view import highest_card, lowest_card
steps = sys.argv[1].split(",")
out = {}
def timed(name, f):
    start = time.process_time()
    f()
    out[name] = time.process_time() - start
@numba.njit(cache=True)
def lowest_nb(view, legal0, legal1, options):
    return lowest_card(legal0, legal1)
@numba.njit(cache=True)
def highest_nb(view, legal0, legal1, options):
    return highest_card(legal0, legal1)
if "builtin" in steps:
    timed("builtin", lambda: tarotsim.simulate(10, seed=1, strategies=["play=greedy"] * 4, progress=False))
timed("function", lambda: tarotsim.Strategy(play=lowest_nb))
timed("numba_game", lambda: tarotsim.simulate(10, seed=1, strategies=[tarotsim.Strategy(play=lowest_nb)] * 4, progress=False))
if "second" in steps:
    timed("second_function", lambda: tarotsim.simulate(10, seed=1, strategies=[tarotsim.Strategy(play=highest_nb)] * 4, progress=False))
print(json.dumps(out))
"""


def compile_costs() -> dict[str, float]:
    """CPU seconds of each compile step, in fresh processes on an empty Numba cache."""
    costs: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as cache:
        script = Path(cache) / "steps.py"
        script.write_text(_COMPILE_STEPS, encoding="utf-8")
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for steps, prefix in (("builtin,second", "first process: "), ("", "second process, on its cache: ")):
            done = subprocess.run(
                [sys.executable, str(script), steps], env=env, capture_output=True, text=True, check=True
            )
            for name, seconds in json.loads(done.stdout.strip().splitlines()[-1]).items():
                costs[prefix + STEP_NAMES[name]] = seconds
    return costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--deals", type=int, default=200, help="deals per round of the Python player's duel")
    parser.add_argument(
        "--builtin-deals", type=int, default=20_000, help="deals per round of the built-in duel"
    )
    parser.add_argument("--numba-deals", type=int, default=20_000, help="deals per round, Numba and greedy")
    parser.add_argument("--compile", action="store_true", help="measure the compile costs too")
    args = parser.parse_args()
    python_player = tarotsim.Strategy(play=lowest, ecart="expert", name="lowest")
    numba_player = tarotsim.Strategy(play=lowest_nb, ecart="expert", name="lowest-numba")
    greedy = tarotsim.Strategy(play="greedy", ecart="expert")

    def duel_of(a: object, deals: int) -> object:
        return tarotsim.duel(a, HEURISTIC, deals, seed=1, threads=1, progress=False)  # type: ignore[arg-type]

    def table_of(a: object, deals: int) -> object:
        return tarotsim.simulate(deals, seed=1, strategies=[a] * 4, threads=1, progress=False)  # type: ignore[list-item]

    py, heur, py_ratio = interleaved(
        (lambda n: duel_of(python_player, n), args.deals),
        (lambda n: duel_of(HEURISTIC, n), args.builtin_deals),
        args.rounds,
    )
    nb_table, greedy_table, table_ratio = interleaved(
        (lambda n: table_of(numba_player, n), args.numba_deals),
        (lambda n: table_of(greedy, n), args.numba_deals),
        args.rounds,
    )
    nb_duel, greedy_duel, duel_ratio = interleaved(
        (lambda n: duel_of(numba_player, n), args.numba_deals),
        (lambda n: duel_of(greedy, n), args.numba_deals),
        args.rounds,
    )
    load = os.getloadavg()[0]
    lines = [
        "# Players written outside the package: speed",
        "",
        "`benchmarks/bench_players_api.py`, one thread, interleaved rounds of the same run (A B, then",
        f"B A, …), {args.rounds} rounds, deals per CPU second (a duel's deal is played once per seat),",
        f"medians; {args.deals} deals a round for the Python player, {args.builtin_deals} for the",
        f"heuristic duel, {args.numba_deals} for the Numba player and greedy. numba {numba.__version__},",
        f"load average (1 min) at the end: {load:.2f} on {os.cpu_count()} cores (other work ran on the",
        "machine: CPU-time rates, not wall-clock).",
        "",
        "## A Python player",
        "",
        'The lowest legal card, `Strategy(play=lowest, ecart="expert")`, dueled against the heuristic,',
        "beside a heuristic-against-heuristic duel, 4 players.",
        "",
        "| figure | median | min–max |",
        "|---|---|---|",
        _row("Python player duel, deals/CPU s", py),
        _row("heuristic duel, deals/CPU s", heur),
        f"| Python / heuristic | 1/{1 / statistics.median(py_ratio):,.0f} | "
        f"1/{1 / min(py_ratio):,.0f}–1/{1 / max(py_ratio):,.0f} |",
        "",
        "The goal is at least 1/40 (aim 1/20). A Python player's deals are stepped many at once",
        "(`interfaces.python_players.play_step_by_step` on `interfaces.kernels.vector`): the kernels play the built-in seats and",
        "only the Python seat's decisions come back, each made into its observation in Python,",
        "asked of the player and checked.",
        "",
        "## A Numba player",
        "",
        "The same player as a `@numba.njit` function (`lowest_card(legal0, legal1)`), beside the",
        "built-in `greedy`: in every seat of a 4-player run, and dueled against the heuristic.",
        "",
        "| figure | median | min–max |",
        "|---|---|---|",
        _row("Numba player in every seat, deals/CPU s", nb_table),
        _row("greedy in every seat, deals/CPU s", greedy_table),
        f"| Numba / greedy, every seat | {statistics.median(table_ratio):.2f} | "
        f"{min(table_ratio):.2f}–{max(table_ratio):.2f} |",
        _row("Numba player vs heuristic duel, deals/CPU s", nb_duel),
        _row("greedy vs heuristic duel, deals/CPU s", greedy_duel),
        f"| Numba / greedy, duel | {statistics.median(duel_ratio):.2f} | "
        f"{min(duel_ratio):.2f}–{max(duel_ratio):.2f} |",
        "",
        "The goal is at least 0.8 of greedy. The trick loop (`players.kernels.machine.play_tricks`) calls a Numba",
        "player's function through a pointer at each of its cards (`players.kernels.user.user_card`,",
        "which checks the card is legal); greedy is inlined in the trick loop. The lowest legal card",
        "is less work than greedy's choice, hence a ratio that can pass 1.",
        "",
    ]
    if args.compile:
        costs = compile_costs()
        lines += [
            "## What a Numba player costs to compile",
            "",
            "CPU seconds, in fresh processes on an empty Numba cache (`NUMBA_CACHE_DIR`): the first",
            "process compiles the game (a greedy run), then a new Numba function, then the game for",
            "Numba players (its first run), then a second new function in a run; the second process",
            "does the function and the Numba run again on the cache the first left.",
            "",
            "| step | CPU s |",
            "|---|---|",
            *(f"| {name} | {seconds:.1f} |" for name, seconds in costs.items()),
            "",
            "The game for Numba players is compiled once for every Numba function (they are passed",
            "as pointers of one type) and kept in the cache; a function written with",
            "`@numba.njit(cache=True)` in a file is kept across processes too.",
            "",
        ]
    REPORTS.mkdir(exist_ok=True)
    (REPORTS / "players-api.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
