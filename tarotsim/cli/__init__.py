"""The ``tarotsim`` command (``python -m tarotsim`` works too).

``build_parser`` registers every command from its module: :mod:`tarotsim.cli.running` (the
commands that play deals), :mod:`tarotsim.cli.analysis` (those that read run directories) and
:mod:`tarotsim.cli.learned` (the refitted count and the learned bidder), all built on
:mod:`tarotsim.cli.common`. ``main`` runs one command and turns every error a user can cause
into one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from tarotsim.cli import analysis, learned, running
from tarotsim.cli.common import CliError, Parser, join_number_lists

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The parser of the ``tarotsim`` command and all its subcommands, in the order ``--help`` lists them."""
    parser = Parser(
        prog="tarotsim",
        description="Monte Carlo simulator of French Tarot under the FFT rules.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    running.add_simulate(sub)
    running.add_study(sub)
    running.add_sweep(sub)
    running.add_duel(sub)
    analysis.add_commands(sub)
    running.add_match(sub)
    running.add_bench(sub)
    running.add_trace(sub)
    learned.add_commands(sub)
    return parser


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so that the flush at exit does not fail on the closed pipe again."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command ``argv`` (default ``sys.argv[1:]``); return its exit status."""
    parser = build_parser()
    args = parser.parse_args(join_number_lists(sys.argv[1:] if argv is None else argv))
    if args.command is None:
        parser.print_help()
        return 2
    try:
        status = int(args.func(args))
        sys.stdout.flush()  # here, where a closed pipe is caught, not at exit
        return status
    except BrokenPipeError:  # the reader went away (| head): stop quietly
        _quiet_stdout()
        return 0
    except (CliError, ValueError, TypeError) as err:
        print(f"tarotsim: error: {err}", file=sys.stderr)
        return 2
    except MemoryError:
        print(
            "tarotsim: error: out of memory; write the run to a directory in chunks (--out DIR)",
            file=sys.stderr,
        )
        return 2
    except OSError as err:
        where = f" ({err.filename})" if err.filename else ""
        print(f"tarotsim: error: {err.strerror or err}{where}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("tarotsim: interrupted; repeat the same command to resume a run directory", file=sys.stderr)
        return 130
