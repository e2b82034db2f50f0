"""The ``hand`` command: one hand analysed ([`tarotsim.analysis.hand.analyse_hand`][tarotsim.analysis.hand.analyse_hand]).

Listed in `tarotsim.cli.COMMANDS` (``hand_options`` adds its options); `tarotsim.cli.main`
handles its errors like every command's: one line, exit status 2.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tarotsim.cli.common import out_path, positive_int, seed_number, spec_text, writable_folder


def cmd_hand(args: argparse.Namespace) -> int:
    from tarotsim.analysis.hand import analyse_hand

    if args.out is not None:
        writable_folder(Path(args.out))
    result = analyse_hand(
        args.cards,
        players=args.players,
        position=args.position,
        strategy=args.strategy,
        deals=args.deals,
        seed=args.seed,
        bidder=args.bidder,
        threads=args.threads,
        notation=args.notation,
    )
    print(result.to_json() if args.json else result.text())
    if args.out is not None:
        page = result.write_page(args.out)
        if not args.json:
            print(f"page written: {page}")
    return 0


def hand_options(hand: argparse.ArgumentParser) -> None:
    """The options of ``tarotsim hand``."""
    from tarotsim.base.defaults import HAND_DEALS as DEFAULT_DEALS
    from tarotsim.engine.cards import NOTATIONS

    hand.description = (
        "Deal the unseen cards again N times around the hand and play each deal once per contract "
        "(the hand's seat takes), every seat playing the strategy, and announcing the chelem too where "
        "the hand makes it; print each choice's success rate, mean score and chance of losing more "
        "than 100 points with 95% intervals, the best choice and why it is decided or not, the King "
        "called at 5 players, Chavey's count and what the bidders would bid."
    )
    hand.add_argument(
        "cards",
        help='the hand, e.g. "T21 T18 T15 T12 T9 T7 T4 T2 EX KH QH 5H KS 8S 3S 9D 2D 4C" '
        "(French notation too: RP, DCo, VCa, 10T, R♣, 21, 1, Excuse)",
    )
    hand.add_argument("--players", type=int, default=4, help="players at the table: 3, 4 or 5 (default 4)")
    hand.add_argument(
        "--position",
        type=int,
        default=None,
        help="the seat's turn to speak: 0 first (leads the first trick) … players-1 the dealer "
        "(default: every position in turn)",
    )
    hand.add_argument(
        "--strategy",
        type=spec_text,
        metavar="SPEC",
        default=None,
        help="every seat's strategy (default: heuristic play, the expert écart, Chavey's bids; e.g. play=pimc)",
    )
    hand.add_argument(
        "--deals",
        type=positive_int,
        default=DEFAULT_DEALS,
        help=f"deals of the unseen cards (default {DEFAULT_DEALS:,})",
    )
    hand.add_argument("--seed", type=seed_number, default=0, help="random seed (default 0)")
    hand.add_argument(
        "--bidder", default=None, metavar="FILE", help="a learned bidder file: report its bid too"
    )
    hand.add_argument(
        "--notation",
        choices=NOTATIONS,
        default=None,
        help="write the cards in this notation (default: the one the hand is written in)",
    )
    hand.add_argument("--threads", type=positive_int, default=None, help="threads (default: all)")
    hand.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    hand.add_argument(
        "--out",
        type=out_path,
        default=None,
        metavar="DIR",
        help="write hand.md and its figure scores.png here",
    )
    hand.set_defaults(func=cmd_hand)
