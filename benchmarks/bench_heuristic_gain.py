"""The heuristic against ``basic`` (its play before 0.2.0) in duplicate duels: writes reports/heuristic.md.

Measures, each duel on the same deals (one seed):

- the gain at 3, 4 and 5 players: ``heuristic`` (A) against ``basic`` (B), both with the
  expert écart, edge in game points per deal with its 95 % interval;
- what each change gained at 4 players, one step at a time in the order they were made:
  step k is the heuristic with the options of the changes after k set back to their
  ``basic`` values, duelled against step k - 1 (step 0 is ``basic``). The first step is
  the knowledge alone (where the shown chien and poignées are), which no option switches
  off; the later ones are options of ``tarotsim.players.strategy.TUNABLES`` whose heuristic
  default differs from what ``basic`` plays.

    .venv/bin/python benchmarks/bench_heuristic_gain.py [--deals 100000] [--other-deals 100000] [--seed 13]
"""

from __future__ import annotations

import argparse
import datetime
import time
from pathlib import Path

import numba

import tarotsim
from tarotsim.bench.timing import machine
from tarotsim.contests.duel import INTERVAL, DuelResult
from tarotsim.players.strategy import TUNABLES
from tarotsim.runs.runner import using_threads

REPORTS = Path(__file__).resolve().parent.parent / "reports"
HEURISTIC = "play=heuristic,ecart=expert"
BASIC = "play=basic,ecart=expert"
NEVER = 15  # king_lead_min*: more cards than a suit holds, never
STEPS: list[tuple[str, dict[str, int], str]] = [
    (
        "king lead at Prise and Garde",
        {"king_lead_min": NEVER},
        "the defence leads its King of a suit while `king_lead_min` of its cards are out and no foe "
        "has shown a void in it (`lead_king`)",
    ),
    (
        "king lead at Garde sans and Garde contre",
        {"king_lead_min_blind": NEVER},
        "the same at the contracts where the taker made no écart (`king_lead_min_blind`)",
    ),
    (
        "draw trumps from fewer trumps",
        {"draw_trumps_min": TUNABLES["draw_trumps_min"].default_for("basic")},
        "the attack leads its master trump from `draw_trumps_min` trumps (and as many as are out)",
    ),
]
"""The changes switched by an option, in the order they were made: (name, the option's value
that undoes it, what it changes). A change whose heuristic default equals that value is not
in the heuristic, and is left out of the report."""


VARIANTS: list[tuple[str, str]] = [
    (
        "follow_min_attack=3",
        "the attack counts on a defender following a suit only while 3 or more of its cards are out",
    ),
    ("worth_trump_defence=0", "the defence takes any trick with a trump that wins for sure"),
]
"""Options tried on the heuristic and not adopted, measured against it at every table size."""


def spec(options: dict[str, int]) -> str:
    return HEURISTIC + "".join(f",{k}={v}" for k, v in options.items())


def row(label: str, result: DuelResult, seconds: float) -> str:
    roles = result.by_role.set_index("role")
    taker, defender = roles.loc["taker"], roles.loc["defender"]
    return (
        f"| {label} | {result.n:,} | {result.edge:+.3f} | [{result.low:+.3f}, {result.high:+.3f}] | "
        f"{taker.a_minus_b:+.2f} [{taker.a_minus_b_low:+.2f}, {taker.a_minus_b_high:+.2f}] | "
        f"{defender.a_minus_b:+.2f} [{defender.a_minus_b_low:+.2f}, {defender.a_minus_b_high:+.2f}] | {seconds:.0f} |"
    )


def duel(a: str, b: str, deals: int, seed: int, players: int) -> tuple[DuelResult, float]:
    started = time.perf_counter()
    result = tarotsim.duel(a, b, deals, seed=seed, players=players, progress=False)
    return result, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000, help="deals per duel at 4 players")
    parser.add_argument("--other-deals", type=int, default=100_000, help="deals per duel at 3 and 5 players")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--out", type=Path, default=REPORTS / "heuristic.md")
    args = parser.parse_args()
    started = time.perf_counter()
    header = [
        "| A against B | deals | edge | 95% interval | A − B as taker | A − B as defender | seconds |",
        "|---|---:|---:|---|---:|---:|---:|",
    ]
    gains, steps, variants = list(header), list(header), list(header)
    kept = [
        (name, undo, meaning)
        for name, undo, meaning in STEPS
        if any(TUNABLES[k].default != v for k, v in undo.items())
    ]
    with using_threads(numba.config.NUMBA_NUM_THREADS):
        for players in (4, 3, 5):
            deals = args.deals if players == 4 else args.other_deals
            result, seconds = duel(HEURISTIC, BASIC, deals, args.seed, players)
            gains.append(row(f"heuristic against basic, {players} players", result, seconds))
            print(gains[-1], flush=True)
        undone: dict[str, int] = {}
        for _name, undo, _meaning in kept:
            undone.update(undo)
        previous, previous_label = BASIC, "basic"
        labels = ["knowledge: where the shown chien and poignées are"] + [name for name, _, _ in kept]
        for k, label in enumerate(labels):
            if k > 0:
                for option in kept[k - 1][1]:
                    undone.pop(option)
            a = spec(undone)
            result, seconds = duel(a, previous, args.deals, args.seed, 4)
            steps.append(row(f"+ {label} (`{a}`) against {previous_label}", result, seconds))
            print(steps[-1], flush=True)
            previous, previous_label = a, "the step before"
        for option, _meaning in VARIANTS:
            for players in (4, 3, 5):
                deals = args.deals if players == 4 else args.other_deals
                result, seconds = duel(f"{HEURISTIC},{option}", HEURISTIC, deals, args.seed, players)
                variants.append(row(f"`{option}` against the heuristic, {players} players", result, seconds))
                print(variants[-1], flush=True)
    about = machine()
    text = [
        "# The heuristic against `basic`, its play before 0.2.0",
        "",
        f"Written by `benchmarks/bench_heuristic_gain.py --deals {args.deals} --other-deals {args.other_deals} "
        f"--seed {args.seed}` on {datetime.date.today().isoformat()} in {time.perf_counter() - started:.0f} s.",
        "",
        "Machine: " + ", ".join(f"{k} {v}" for k, v in about.items()) + ".",
        "",
        "Duplicate duels (`tarotsim.duel`): every deal is played once with A in each seat and B in",
        "the others, on the same cards and random stream, so luck cancels. A's edge is its mean",
        "score per deal over the rotations, in game points; the 95% interval is a "
        f"{INTERVAL} (the per-deal edges are paired by construction). Both sides bid with Chavey's",
        'default bands and make the expert écart, so only card play differs. "A − B as taker"',
        'and "A − B as defender" are the differences of their mean scores in that role, with',
        "their 95% intervals (`DuelResult.by_role`); they are not paired, so wider.",
        "",
        "## The gain",
        "",
        *gains,
        "",
        "## What each change gained, 4 players",
        "",
        "Each step adds one change to the step before and is duelled against it on the same deals.",
        "The changes:",
        "",
        "- knowledge (no option): at Prise and Garde the chien's cards, until played, are with the",
        "  taker or in its écart; a poignée's cards, until played, are in the hand that showed it,",
        "  and a poignée showing the Excuse shows every trump of its hand. Cards known with a",
        "  partner, or with a foe that has already played to the trick, no longer count as a",
        "  threat to a card that wins the trick, nor among the foes' cards when leading",
        "  (`players/kernels/policies/knowledge.py`);",
        *(
            f"- {name}: {meaning}, default {', '.join(f'`{k}={TUNABLES[k].default}`' for k in undo)};"
            for name, undo, meaning in kept
        ),
        "",
        *steps,
        "",
        "## Options tried and not adopted",
        "",
        "Each against the heuristic (its defaults) at every table size; an option that gains at one",
        "size and loses at another stays at its default, which is the same at every size:",
        "",
        *(f"- `{option}`: {meaning};" for option, meaning in VARIANTS),
        "",
        *variants,
        "",
        "## Remaining biases",
        "",
        "- One seed, one set of deals per table size; the intervals hold for these strategies",
        "  against each other, not against stronger players (a gain against `basic` may shrink",
        "  against a defence or attack that plays better).",
        "- Each step is measured once, in the order the changes were made: a change's gain on top",
        "  of the others may differ from its gain alone (interactions are not measured).",
        "- The options' defaults were chosen on duels of 100,000 deals at 4 players with other seeds",
        "  (5, 7 and 11: the working duels of the commits), then confirmed here on another seed; at 3",
        "  and 5 players they were only checked (seed 5), not tuned.",
        "- The knowledge step is measured at 4 players only, where the chien and poignées shown",
        "  rarely decide a card; it was kept as a fix of what the heuristic may know, with no loss.",
        "",
    ]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(text), encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
