"""The ``deal`` command: deals that hold given cards and meet ranges (`tarotsim.engine.dealing.deal`).

Listed in `tarotsim.cli.COMMANDS` (``deal_options`` adds its options); `tarotsim.cli.main`
handles its errors like every command's: one line, exit status 2.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tarotsim.cli.common import out_path, positive_int, seed_number, writable


def cmd_deal(args: argparse.Namespace) -> int:
    from tarotsim.base.files import write_atomic
    from tarotsim.engine.cards import format_card
    from tarotsim.engine.dealing import deal, parse_fixed_option, parse_where_option

    if args.out is not None:
        writable(Path(args.out))
    deals = deal(
        args.deals,
        players=args.players,
        seed=args.seed,
        fixed=parse_fixed_option(args.fixed),
        where=parse_where_option(args.where),
    )
    print(f"probability of the condition: {deals.probability}")
    if args.out is not None:

        def write(path: Path) -> None:
            with open(path, "w", encoding="utf-8") as stream:
                for i in range(len(deals)):
                    row = {
                        "deal": i,
                        "dealer": int(deals.dealer[i]),
                        "hands": [[format_card(c) for c in hand] for hand in deals.hands[i]],
                        "chien": [format_card(c) for c in deals.chien[i]],
                    }
                    stream.write(json.dumps(row) + "\n")

        write_atomic(args.out, write)
        print(f"{len(deals):,} deals written: {args.out}")
    return 0


def deal_options(parser: argparse.ArgumentParser) -> None:
    """The options of ``tarotsim deal``."""
    parser.add_argument("--deals", type=positive_int, default=10, help="deals to draw (default 10)")
    parser.add_argument("--players", type=int, default=4, help="players at the table: 3, 4 or 5 (default 4)")
    parser.add_argument("--seed", type=seed_number, default=0, help="random seed (default 0)")
    parser.add_argument(
        "--fixed",
        action="append",
        default=[],
        metavar="SEAT=CARDS",
        help="cards given to a seat: '0=T21 T1 EX', 'chien=KS'",
    )
    parser.add_argument(
        "--where",
        action="append",
        default=[],
        metavar="SEAT:RANGES",
        help="ranges on a seat's hand: '0:bouts=2,trumps=8-10,S=0-1' (features: trumps, bouts, kings, "
        "hand_points, hand_points_dist, a suit letter for its length)",
    )
    parser.add_argument(
        "--out",
        type=out_path,
        default=None,
        metavar="FILE",
        help="write the deals as JSON Lines (whole or not at all)",
    )
    parser.set_defaults(func=cmd_deal)
