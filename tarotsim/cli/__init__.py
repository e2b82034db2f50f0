"""The ``tarotsim`` command (``python -m tarotsim`` works too).

``COMMANDS`` lists every command with the module that holds it: `tarotsim.cli.running`
(the commands that play deals), `tarotsim.cli.analysis` (those that read run
directories), `tarotsim.cli.learned` (the refitted count and the learned bidder),
`tarotsim.cli.hand` (one hand analysed) and `tarotsim.cli.deal` (dealing with conditions), all
built on `tarotsim.cli.common`. A command's options are added, and its module imported,
only once the command is named, so that ``tarotsim --help`` loads neither Numba nor pandas.
``main`` runs one command and turns every error a user can cause into one line on stderr and
exit status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib import import_module
from typing import Any, cast

from tarotsim.base.notices import compile_notices
from tarotsim.cli.common import CliError, Parser, join_number_lists
from tarotsim.runs.compiling import RUN_COMPILES

__all__ = ["COMMANDS", "build_parser", "main"]

COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("simulate", "running", "simulate deals; print contract success, or write a run directory"),
    ("study", "running", "the main job: a one-million-deal contract sweep and its report"),
    ("sweep", "running", "play every deal once per contract by one seat (for thresholds)"),
    ("duel", "running", "duplicate duel: strategy A in each seat in turn, B in the others, same deals"),
    (
        "tournament",
        "running",
        "duels of named strategies in a ladder or a round robin: edges, verdicts and costs",
    ),
    ("table", "analysis", "success table of a run directory (a duel's: by strategy and role)"),
    ("thresholds", "analysis", "bidding thresholds and best contracts of a run directory"),
    ("compare", "analysis", "paired comparison of two runs of the same deals"),
    ("report", "analysis", "figures and a Markdown/HTML report of a run directory (or a duel's)"),
    ("match", "running", "play a match: deals with the dealer rotating, cumulative scores"),
    ("bench", "running", "measure deals per second on this machine (under a minute)"),
    ("trace", "running", "write every card of every deal as JSON Lines"),
    (
        "fit-count",
        "learned",
        "Chavey's count refitted on a sweep, weight by weight, against the published one",
    ),
    ("fit-bidder", "learned", "fit the learned bidder on a sweep: bid=learned,bidder=FILE.json plays it"),
    ("hand", "hand", "one hand analysed: success, mean score and risk of passing and of each contract"),
    ("deal", "deal", "deal with conditions (cards given, ranges on a hand) and the condition's probability"),
)
"""Every command, in the order ``--help`` lists them: its name, the module of
``tarotsim.cli`` that holds it (with ``NAME_options(parser)``, which adds its options and its
``func``), and its line in ``tarotsim --help``."""


class _Commands(argparse._SubParsersAction):
    """The subcommands, each given its options, and its module imported, once it is named."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pending: dict[str, str] = {}
        """Each command whose options are not added yet → the module that adds them."""

    def add_command(self, name: str, module: str, summary: str) -> None:
        """Register command ``name``, held by the module ``module`` of the command line, listed with ``summary``."""
        self.add_parser(name, help=summary)
        self.pending[name] = module

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        name = values[0]
        module = self.pending.pop(name, None)
        if module is not None:
            add_options = getattr(
                import_module(f"tarotsim.cli.{module}"), name.replace("-", "_") + "_options"
            )
            add_options(self._name_parser_map[name])
        super().__call__(parser, namespace, values, option_string)


_FIRST_RUN = (
    f"The first run on a machine compiles {RUN_COMPILES[False][0]} once, about "
    f"{RUN_COMPILES[False][1]} of CPU, and {RUN_COMPILES[True][0]} on the first run that needs them, "
    f"about {RUN_COMPILES[True][1]} more; each says so on stderr (--quiet hides it). Later runs load "
    "them from a cache in about a second (measured on a fresh clone: reports/compile.md)."
)
"""What ``tarotsim --help`` says of the first run's wait."""


def build_parser() -> argparse.ArgumentParser:
    """The parser of the ``tarotsim`` command and all its subcommands (``COMMANDS``)."""
    parser = Parser(
        prog="tarotsim",
        description="Monte Carlo simulator of French Tarot under the FFT rules.",
        epilog=_FIRST_RUN,
    )
    commands = cast(_Commands, parser.add_subparsers(dest="command", metavar="COMMAND", action=_Commands))
    for name, module, summary in COMMANDS:
        commands.add_command(name, module, summary)
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
        with compile_notices(not getattr(args, "quiet", False)):
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
