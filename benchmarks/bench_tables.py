"""Table sizes and dealing: what 3 and 5 players and unshuffled dealing change.

Writes reports/tables.md: for each table size, contract mix and success (Garde with two
bouts especially), and for shuffled against unshuffled dealing the distributions of a
hand's trump length and voids and the contracts' success, each on the same number of
deals with heuristic play.

    .venv/bin/python benchmarks/bench_tables.py [--deals 400000]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from tarotsim.analysis import to_markdown, wilson_interval
from tarotsim.base.seeding import run_key
from tarotsim.engine.kernels import state as S
from tarotsim.players.config import RunConfig
from tarotsim.runs.simulate import simulate
from tarotsim.runs.trace import traced_block

REPORTS = Path(__file__).resolve().parent.parent / "reports"


def dealt_hands(deals: int, config: RunConfig, seed: int) -> np.ndarray:
    """uint64[deals, players, 2]: every seat's hand as dealt."""
    _, _, masks = traced_block(0, deals, run_key(seed), config.to_array())
    words = masks[:, S.M_DEALT : S.M_DEALT + 2 * config.players]
    return words.reshape(deals, config.players, 2)


def popcount(words: np.ndarray) -> np.ndarray:
    return np.bitwise_count(words).astype(np.int64)


def hand_shape(hands: np.ndarray) -> dict[str, float]:
    trumps = popcount(hands[..., 1] & np.uint64((1 << 21) - 1)).ravel()
    suits = np.stack([popcount(hands[..., 0] & np.uint64(((1 << 14) - 1) << (14 * s))) for s in range(4)], -1)
    voids = (suits == 0).sum(-1).ravel()
    longest = suits.max(-1).ravel()
    return {
        "mean trumps": trumps.mean(),
        "sd trumps": trumps.std(),
        "P(trumps >= 8)": (trumps >= 8).mean(),
        "mean voids": voids.mean(),
        "P(at least one void)": (voids > 0).mean(),
        "mean longest suit": longest.mean(),
    }


def success(frame: pd.DataFrame) -> pd.DataFrame:
    played = frame[frame.thrown_in == "none"]
    rows = []
    for contract, group in played.groupby("contract", observed=True):
        low, high = wilson_interval(int(group.made.sum()), len(group))
        rows.append(
            {
                "contract": contract,
                "share of deals": len(group) / len(frame),
                "taken": len(group),
                "success": group.made.mean(),
                "low": low,
                "high": high,
                "mean taker score": group.taker_score.mean(),
            }
        )
    rows.append(
        {
            "contract": "thrown in",
            "share of deals": (frame.thrown_in != "none").mean(),
            "taken": int((frame.thrown_in != "none").sum()),
        }
    )
    return pd.DataFrame(rows)


def garde_two_bouts(frame: pd.DataFrame) -> tuple[int, float, float, float]:
    g = frame[(frame.thrown_in == "none") & (frame.contract == "garde") & (frame.taker_bouts == 2)]
    low, high = wilson_interval(int(g.made.sum()), len(g)) if len(g) else (float("nan"), float("nan"))
    return len(g), (g.made.mean() if len(g) else float("nan")), low, high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=400_000)
    parser.add_argument("--policy", default="heuristic")
    args = parser.parse_args()
    ecart = "expert" if args.policy == "heuristic" else "simple"
    out = [
        "# Table sizes and dealing",
        "",
        f"Made by `python benchmarks/bench_tables.py --deals {args.deals} "
        f"--policy {args.policy}`: Chavey bidding (bands scaled by hand size), {args.policy} card play.",
        "",
    ]

    out += [
        "## Garde with two bouts, by table size",
        "",
        "| players | gardes with 2 bouts | success | 95% interval |",
        "| ---: | ---: | ---: | --- |",
    ]
    frames = {}
    for players in (3, 4, 5):
        frames[players] = simulate(
            args.deals, seed=7, players=players, policy=args.policy, ecart_policy=ecart, progress=False
        )
        n, rate, low, high = garde_two_bouts(frames[players])
        out.append(f"| {players} | {n} | {rate:.3f} | {low:.3f}–{high:.3f} |")
    for players in (3, 4, 5):
        out += ["", f"### {players} players: contracts", "", to_markdown(success(frames[players]))]

    pair_deals = min(args.deals, 100_000)
    out += [
        "",
        f"## Player strength at 3 and 5 players ({pair_deals:,} paired deals, seed 2024)",
        "",
        "| players | attack | defence | taker success | mean taker score |",
        "| ---: | --- | --- | ---: | ---: |",
    ]
    for players in (3, 5):
        for attack, defence in (
            ("heuristic", "heuristic"),
            ("heuristic", "random"),
            ("random", "heuristic"),
            ("random", "random"),
        ):
            frame = simulate(
                pair_deals,
                seed=2024,
                players=players,
                attack_policy=attack,
                defence_policy=defence,
                ecart_policy="expert",
                progress=False,
            )
            played = frame[frame.thrown_in == "none"]
            out.append(
                f"| {players} | {attack} | {defence} | {played.made.mean():.3f} | "
                f"{played.taker_score.mean():.1f} |"
            )

    out += [
        "",
        "## Shuffled against unshuffled dealing (4 players)",
        "",
        "Unshuffled: the last deal's tricks are gathered in play order (the écart or chien under them), "
        "cut (3 to 75 cards) and dealt in packets of 3 with the chien set aside one card at a time; "
        "a fresh shuffle every 1,024 deals.",
        "",
    ]
    shapes = {}
    results = {}
    hand_deals = min(args.deals, 200_000)
    for dealing in ("shuffled", "unshuffled"):
        config = RunConfig(policy=args.policy, ecart_policy=ecart, dealing=dealing)
        shapes[dealing] = hand_shape(dealt_hands(hand_deals, config, seed=11))
        results[dealing] = simulate(
            args.deals, seed=11, policy=args.policy, ecart_policy=ecart, dealing=dealing, progress=False
        )
    table = pd.DataFrame(shapes)
    table.index.name = f"hand as dealt ({hand_deals} deals x 4 hands)"
    out += [to_markdown(table.reset_index()), ""]
    for dealing in ("shuffled", "unshuffled"):
        out += [f"### {dealing}: contracts", "", to_markdown(success(results[dealing])), ""]
    REPORTS.mkdir(exist_ok=True)
    (REPORTS / "tables.md").write_text("\n".join(out) + "\n", encoding="utf-8")
    print("\n".join(out))


if __name__ == "__main__":
    main()
