"""Speed of the OpenSpiel game against OpenSpiel's own Python game: writes reports/openspiel-speed.md.

Random playouts, the same loop for every game, in interleaved rounds of one process
(``tarotsim.bench.timing.interleave``): from ``game.new_initial_state()``, each chance node
draws an outcome by its probabilities, each decision node a uniformly random legal action,
until the state is terminal. Timed by the process's CPU time (``time.process_time``),
everything included (the chance nodes, ``legal_actions``, ``apply_action``), and counted in
decisions (the players' moves, not the chance outcomes): decisions per CPU second is the
figure compared, the games' lengths differing (``python_kuhn_poker``: 2 or 3 decisions per
game; ``python_french_tarot``: the auction, the écart, the announcements and every card,
about 80 at 4 players). Beside them the C++ ``tarok``, ``hearts`` and ``kuhn_poker`` of
OpenSpiel, through the same Python loop.

    .venv/bin/python benchmarks/bench_openspiel_speed.py [--games 40] [--rounds 5]
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import pyspiel
from open_spiel.python.games import kuhn_poker  # noqa: F401 - registers python_kuhn_poker

import tarotsim.interfaces.openspiel  # noqa: F401 - registers python_french_tarot
from tarotsim.bench.timing import Spread, Work, interleave, machine

REPORTS = Path(__file__).resolve().parent.parent / "reports"
COMMAND = ".venv/bin/python benchmarks/bench_openspiel_speed.py"
SEED = 2026
KUHN_GAMES_PER_TAROT = 40
"""Kuhn games per tarot deal in a round, so that each figure's round lasts a similar time."""


def playouts(game: pyspiel.Game, n: int, rng: random.Random) -> int:
    """``n`` random playouts of ``game``; the decisions made."""
    decisions = 0
    for _ in range(n):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                draw = rng.random()
                outcomes = state.chance_outcomes()
                action = outcomes[-1][0]
                for outcome, probability in outcomes:
                    draw -= probability
                    if draw < 0:
                        action = outcome
                        break
            else:
                legal = state.legal_actions()
                action = legal[int(rng.random() * len(legal))]
                decisions += 1
            state.apply_action(action)
    return decisions


def playout_work(name: str, params: dict[str, int], n: int) -> Work:
    """``n`` random playouts of the game ``name`` per run, counted in decisions."""
    game = pyspiel.load_game(name, params)
    rng = random.Random(SEED)
    decisions = playouts(game, n, random.Random(SEED))
    return Work(lambda: playouts(game, n, rng), decisions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="tarot deals per timed round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    kuhn = args.games * KUHN_GAMES_PER_TAROT
    works = {
        "python_french_tarot (4 players)": playout_work("python_french_tarot", {"players": 4}, args.games),
        "python_kuhn_poker": playout_work("python_kuhn_poker", {}, kuhn),
        "kuhn_poker (C++)": playout_work("kuhn_poker", {}, kuhn),
        "tarok (C++, 4 players)": playout_work("tarok", {"players": 4}, args.games),
        "hearts (C++)": playout_work("hearts", {}, args.games),
    }
    per_game = {
        name: work.deals / (args.games if "kuhn" not in name else kuhn) for name, work in works.items()
    }
    rounds = interleave(works, repeats=args.rounds).on_cpu()
    info = machine()
    tarot = "python_french_tarot (4 players)"
    ratio = rounds.ratio(tarot, "python_kuhn_poker")
    lines = [
        "# The OpenSpiel game: speed against OpenSpiel's own Python game",
        "",
        f"`{COMMAND} --games {args.games} --rounds {args.rounds}`: random playouts, the same loop",
        "for every game (each chance node an outcome drawn by its probabilities, each decision a",
        "uniformly random legal action, to the end), timed by the process's CPU time",
        "(`time.process_time`), everything included (chance nodes, `legal_actions`,",
        "`apply_action`), counted in decisions (the players' moves, not the chance outcomes).",
        "Medians, their 95 % intervals (distribution-free, from the order statistics of the rounds)",
        f"and min–max of {args.rounds} interleaved rounds (`tarotsim.bench.timing.interleave`);",
        f"a round plays {args.games} tarot deals and {kuhn} Kuhn games.",
        "",
        f"Machine: {info['cpu']}, {info['cores']} cores shared with other work; load average (1 min)",
        f"{info['load_average']:.2f} at the end; one thread. Versions: "
        + ", ".join(f"{k} {v}" for k, v in info["versions"].items())
        + f", open_spiel {_open_spiel_version()}.",
        "",
        "| game | decisions per game | decisions/CPU s, median | 95 % interval | min–max | games/CPU s |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name in works:
        spread = rounds.spread(name)
        lines.append(
            f"| {name} | {per_game[name]:.1f} | {_cells(spread)} | {spread.median / per_game[name]:,.0f} |"
        )
    lines += [
        "",
        f"**python_french_tarot / python_kuhn_poker, decisions per CPU second: {ratio.median:.2f}**, the",
        f"median of each round's own ratio (95 % interval of the median {ratio.low or float('nan'):.2f}–"
        f"{ratio.high or float('nan'):.2f}, min–max {ratio.min:.2f}–{ratio.max:.2f}); the goal: at least 0.5,",
        "within twice the Python game's time per decision.",
        "",
        "A tarot decision costs more than a Kuhn one for reasons the game has and Kuhn has not:",
        "the deal is 78 explicit chance nodes (one per card, each its outcomes' list), and every",
        "decision goes through the kernels (`tarotsim.Game`, compiled with Numba) whose calls from",
        "Python cost microseconds each, where Kuhn's state is a few Python lists.",
        "",
    ]
    REPORTS.mkdir(exist_ok=True)
    (REPORTS / "openspiel-speed.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


def _cells(spread: Spread, digits: int = 0) -> str:
    """``median | 95 % interval | min–max`` of a spread (– for an interval with too few rounds)."""
    interval = "–" if spread.low is None else f"{spread.low:,.{digits}f}–{spread.high:,.{digits}f}"
    return f"{spread.median:,.{digits}f} | {interval} | {spread.min:,.{digits}f}–{spread.max:,.{digits}f}"


def _open_spiel_version() -> str:
    from importlib.metadata import version

    return version("open_spiel")


if __name__ == "__main__":
    main()
