"""The ``tarotsim`` command (``python -m tarotsim`` works too)."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

DEFAULT_DEALS = 100_000
DEFAULT_SEED = 2024


class CliError(Exception):
    """A problem with the user's input, reported as one line and exit status 2."""


def _positive_int(text: str) -> int:
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be zero or positive, got {value}")
    return value


def _add_table_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=4, help="players at the table (default 4)")
    parser.add_argument("--policy", default="random", help="card-play policy of every seat (default random)")
    parser.add_argument("--attack-policy", default=None, help="card-play policy of the attack (default --policy)")
    parser.add_argument("--defence-policy", default=None, help="card-play policy of the defence (default --policy)")
    parser.add_argument("--bid-policy", default="chavey", help="bidding policy (default chavey)")
    parser.add_argument("--ecart-policy", default="simple", help="écart policy (default simple)")
    parser.add_argument("--poignee-policy", default="always", help="poignée policy (default always)")
    parser.add_argument("--chelem-policy", default="never", help="chelem announcement policy (default never)")


def _config(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from tarotsim.policies import RunConfig

    return RunConfig(
        players=args.players,
        policy=args.policy,
        attack_policy=args.attack_policy,
        defence_policy=args.defence_policy,
        bid_policy=args.bid_policy,
        ecart_policy=args.ecart_policy,
        poignee_policy=args.poignee_policy,
        chelem_policy=args.chelem_policy,
    )


def _writable(path: Path) -> None:
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as err:
        raise CliError(f"cannot write {path}: {err.strerror or err}") from None


def cmd_trace(args: argparse.Namespace) -> int:
    from tarotsim.seeding import run_key
    from tarotsim.trace import write_trace_file

    config = _config(args)
    out = Path(args.out)
    _writable(out)
    written = write_trace_file(out, args.deals, run_key(args.seed), config)
    print(f"wrote {written} deals to {out}")
    return 0


def summary_table(frame) -> str:  # type: ignore[no-untyped-def]
    """Markdown table of contract success by bout count, with the thrown-in counts."""
    from tarotsim.analysis import success_table, to_markdown

    table = success_table(frame, by=("taker_bouts",))
    shown = table[["contract", "taker_bouts", "n", "rate", "rate_low", "rate_high", "mean_score"]]
    thrown = frame["thrown_in"].value_counts()
    lines = [
        to_markdown(shown),
        "",
        f"deals: {len(frame)}; thrown in: petit sec {int(thrown.get('petit_sec', 0))}, "
        f"all pass {int(thrown.get('all_pass', 0))}",
    ]
    return "\n".join(lines)


def cmd_simulate(args: argparse.Namespace) -> int:
    from tarotsim.simulate import simulate

    config = _config(args)
    started = time.perf_counter()
    frame = simulate(
        args.deals,
        seed=args.seed,
        players=config.players,
        policy=config.policy,
        attack_policy=config.attack_policy,
        defence_policy=config.defence_policy,
        bid_policy=config.bid_policy,
        ecart_policy=config.ecart_policy,
        poignee_policy=config.poignee_policy,
        chelem_policy=config.chelem_policy,
        threads=args.threads,
        progress=False if args.quiet else None,
    )
    elapsed = time.perf_counter() - started
    print(f"{args.deals} deals, seed {frame.attrs['seed']}, {config.players} players, "
          f"play policy {config.policy}; {elapsed:.1f} s\n")
    print("Contract success by bouts in the taker's hand (rate with its 95% Wilson interval, "
          "mean taker score in points):\n")
    print(summary_table(frame))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tarotsim",
        description="Monte Carlo simulator of French Tarot under the FFT rules.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    sim = sub.add_parser("simulate", help="simulate deals and print contract success by bout count")
    sim.add_argument("--deals", type=_positive_int, default=DEFAULT_DEALS, help=f"deals to play (default {DEFAULT_DEALS})")
    sim.add_argument("--seed", type=_seed, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})")
    sim.add_argument("--threads", type=_positive_int, default=None, help="threads (default: all cores)")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    _add_table_options(sim)
    sim.set_defaults(func=cmd_simulate)

    trace = sub.add_parser("trace", help="write every card of every deal as JSON Lines")
    trace.add_argument("--deals", type=_positive_int, required=True, help="deals to trace")
    trace.add_argument("--seed", type=_seed, required=True, help="random seed")
    trace.add_argument("--out", required=True, help="output file (.jsonl)")
    _add_table_options(trace)
    trace.set_defaults(func=cmd_trace)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        return int(args.func(args))
    except (CliError, ValueError, TypeError) as err:
        print(f"tarotsim: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("tarotsim: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
