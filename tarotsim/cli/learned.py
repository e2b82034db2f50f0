"""The commands of the refitted count and the learned bidder: ``fit-count`` and ``fit-bidder``.

`tarotsim.cli.COMMANDS` lists them (``NAME_options`` adds their options) and `tarotsim.cli.main`
handles their errors like every command's: one line, exit status 2.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tarotsim.cli.common import emit, positive_int, seed_number, table_file, writable
from tarotsim.engine.labels import CONTRACTS

SAMPLE_HELP = (
    "deals drawn from the sweep, without replacement, by a seeded generator (default {default:,}; "
    "all of them when the sweep is smaller): the run is read one chunk at a time and only "
    "the sampled rows are kept, so memory grows with the sample, not the run"
)


def _bidder_file(text: str) -> str:
    if Path(text).suffix != ".json":
        raise argparse.ArgumentTypeError(f"must end in .json, got {text!r}")
    return text


def _add_sample_options(parser: argparse.ArgumentParser) -> None:
    """The run and sample options of both fitting commands."""
    from tarotsim.base.defaults import SAMPLE_DEALS, SAMPLE_SEED

    parser.add_argument("run", help="a sweep's run directory (tarotsim sweep)")
    parser.add_argument(
        "--sample", type=positive_int, default=SAMPLE_DEALS, help=SAMPLE_HELP.format(default=SAMPLE_DEALS)
    )
    parser.add_argument(
        "--sample-seed",
        type=seed_number,
        default=SAMPLE_SEED,
        help=f"seed of the sample of deals (default {SAMPLE_SEED})",
    )


def cmd_fit_count(args: argparse.Namespace) -> int:
    from tarotsim.analysis.count_fit import fit_count, verdict

    writable(Path(args.out))
    table = fit_count(
        args.run,
        contract=args.contract,
        outcome=args.outcome,
        sample=args.sample,
        sample_seed=args.sample_seed,
    )
    shown = table.assign(verdict=table.apply(verdict, axis=1))
    what = "taker's score (OLS, HC1)" if args.outcome == "score" else "success (logit GLM)"
    title = (
        f"Chavey's count refitted on the {args.contract}'s {what}: {table.attrs['n']:,} deals "
        f"sampled from {table.attrs['run']} (sample seed {args.sample_seed}), weights scaled so the 21 "
        "is worth 10, 95% delta-method intervals"
    )
    emit([(shown, title)], args.out)
    return 0


def cmd_fit_bidder(args: argparse.Namespace) -> int:
    from tarotsim.analysis.count_fit import fit_bidder

    out = Path(args.out)
    writable(out)
    bidder = fit_bidder(args.run, sample=args.sample, sample_seed=args.sample_seed)
    bidder.save(out)
    print(bidder.summary())
    print(
        f"\nbidder file: {out}; play it with --bid-policy learned --bidder {out}, or bid=learned,bidder={out}"
    )
    return 0


def fit_count_options(count: argparse.ArgumentParser) -> None:
    """The options of ``tarotsim fit-count``."""
    from tarotsim.base.defaults import OUTCOMES

    _add_sample_options(count)
    count.add_argument("--out", type=table_file, required=True, help="write the table to FILE.md or FILE.csv")
    count.add_argument(
        "--contract",
        choices=CONTRACTS,
        default=CONTRACTS[0],
        help=f"contract fitted (default {CONTRACTS[0]})",
    )
    count.add_argument(
        "--outcome",
        choices=OUTCOMES,
        default=OUTCOMES[0],
        help="fit the taker's score (OLS) or success (logit GLM) (default score)",
    )
    count.set_defaults(func=cmd_fit_count)


def fit_bidder_options(bidder: argparse.ArgumentParser) -> None:
    """The options of ``tarotsim fit-bidder``."""
    _add_sample_options(bidder)
    bidder.add_argument("--out", type=_bidder_file, required=True, help="the bidder file to write (.json)")
    bidder.set_defaults(func=cmd_fit_bidder)
