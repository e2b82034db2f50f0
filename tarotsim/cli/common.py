"""What every command of the ``tarotsim`` command line shares: its error, its parser class,
the types of its arguments, the option groups several commands take, and ``emit``, which
prints a table and writes it to a file.

The command modules (:mod:`tarotsim.cli.running`, :mod:`tarotsim.cli.analysis`,
:mod:`tarotsim.cli.learned`) import this one and never each other.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Mapping, Sequence
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from tarotsim.config import RunConfig
from tarotsim.labels import (
    BID_POLICIES,
    CHELEM_POLICIES,
    CONTRACTS,
    DEALINGS,
    ECART_POLICIES,
    PLAY_POLICIES,
    POIGNEE_POLICIES,
    PUBLISHED_BANDS,
)
from tarotsim.policies import DECISIONS, OPTIONS, parse_thresholds
from tarotsim.run.spec import DEFAULT_CHUNK_DEALS
from tarotsim.strategy import Strategy

if TYPE_CHECKING:
    import pandas as pd

DEFAULT_DEALS = 100_000
DEFAULT_SEED = 2024
TABLE_FILES = (".csv", ".md")
STUDY_REPORT = "report"
"""The folder inside its run directory where ``study`` writes its report."""


class CliError(Exception):
    """A problem with the user's input, reported as one line and exit status 2."""


class Parser(argparse.ArgumentParser):
    """argparse whose errors are one line (``tarotsim simulate: error: …``) and exit status 2;
    the usage is shown by ``--help`` only."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


_NUMBER_LIST = re.compile(r"-?\d[\d_]*([,/]\s*-?\d[\d_]*)*")
_NUMBER_LIST_OPTIONS = ("--bid-thresholds",)
"""Options whose value is a list of numbers, which argparse takes for an option when it
starts with a minus sign unless written ``--option=value``."""


def join_number_lists(argv: Sequence[str]) -> list[str]:
    """``argv`` with ``--bid-thresholds -5,10,20,30`` written ``--bid-thresholds=-5,10,20,30``."""
    joined: list[str] = []
    words = iter(argv)
    for word in words:
        if word in _NUMBER_LIST_OPTIONS:
            value = next(words, None)
            if value is not None and _NUMBER_LIST.fullmatch(value):
                joined.append(f"{word}={value}")
                continue
            joined.append(word)
            if value is not None:
                joined.append(value)
            continue
        joined.append(word)
    return joined


def positive_int(text: str) -> int:
    """An argument that is a whole number of at least 1 (``1_000`` allowed)."""
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def seed_number(text: str) -> int:
    """A ``--seed``: a whole number, zero or positive."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be zero or positive, got {value}")
    return value


_PUBLISHED_BANDS_TEXT = "/".join(str(PUBLISHED_BANDS[c]) for c in CONTRACTS)


def bid_thresholds(text: str) -> tuple[int, ...]:
    """A ``--bid-thresholds``: four counts written as in a spec, ``40/56/71/81`` (the old
    ``40,56,71,81`` is accepted too)."""
    try:
        return parse_thresholds(text.replace("_", ""))
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def chelem_threshold(text: str) -> int:
    """A ``--chelem-threshold``: a count, bounded as in a spec."""
    try:
        return OPTIONS["chelem_threshold"].parse(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def strategy_spec(text: str) -> Strategy:
    """A ``--strategy``: a strategy spec such as ``play=pimc,worlds=16``."""
    try:
        return Strategy.parse(text)
    except (TypeError, ValueError) as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def seat_spec(text: str) -> tuple[int, Strategy | None]:
    """A ``--seat K=SPEC``: seat K's strategy; a bare ``K`` is a sweep's taking seat (its
    older spelling of ``--taker K``)."""
    seat, sep, spec = text.partition("=")
    if not seat.strip().isdigit() or len(seat.strip()) > 2:
        raise argparse.ArgumentTypeError(
            f"expected K=SPEC, a seat and its strategy such as 2=play=random, got {text!r}"
        )
    return int(seat), strategy_spec(spec) if sep else None


def table_file(text: str) -> str:
    """A table's ``--out`` file, checked before any work: it must end in .csv or .md."""
    if Path(text).suffix not in TABLE_FILES:
        raise argparse.ArgumentTypeError(f"must end in .csv or .md, got {text!r}")
    return text


def writable(path: Path) -> None:
    """Raise ``CliError`` unless ``path`` can be written, before any work."""
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as err:
        raise CliError(f"cannot write {path}: {err.strerror or err}") from None


_SHORTHAND = (
    "policy",
    "attack_policy",
    "defence_policy",
    "bid_policy",
    "bidder",
    "ecart_policy",
    "poignee_policy",
    "chelem_policy",
    "bid_thresholds",
    "chelem_threshold",
)
"""The flags that are a shorthand for one strategy at every seat (``RunConfig``'s policy fields)."""


def add_strategy_options(parser: argparse.ArgumentParser, *, seats: bool = True) -> None:
    """``--strategy SPEC`` (every seat) and, with ``seats``, ``--seat K=SPEC`` (one seat,
    repeatable); without ``seats`` (a duel), ``--strategy`` lies under ``--a`` and ``--b``."""
    every = "every seat's strategy" if seats else "the strategy under both --a and --b"
    parser.add_argument(
        "--strategy",
        type=strategy_spec,
        default=None,
        metavar="SPEC",
        help=f"{every}, e.g. play=pimc,worlds=16 (keys and defaults: docs/policies.md; default {Strategy()})",
    )
    if seats:
        parser.add_argument(
            "--seat",
            dest="seat_strategies",
            type=seat_spec,
            action="append",
            default=[],
            metavar="K=SPEC",
            help="seat K's strategy, over --strategy, e.g. --seat 0=play=pimc (repeatable)",
        )


def add_config_options(parser: argparse.ArgumentParser, *, seats: bool = True) -> None:
    """The table's options, ``--strategy`` and ``--seat``, and the older policy flags (a
    shorthand for one strategy at every seat, each ``--name`` for the ``RunConfig`` field
    ``name``): the defaults are the one default strategy's."""
    default = {f.name: f.default for f in fields(RunConfig)}

    def names(table: Mapping[str, int]) -> str:
        return ", ".join(table)

    parser.add_argument(
        "--players",
        type=int,
        default=default["players"],
        help=f"players at the table: 3, 4 or 5 (default {default['players']})",
    )
    parser.add_argument(
        "--dealing",
        default=default["dealing"],
        help=f"dealing: {names(DEALINGS)} (unshuffled: casual tables; default {default['dealing']})",
    )
    add_strategy_options(parser, seats=seats)
    flags = parser.add_argument_group("shorthand for --strategy (every seat)")
    flags.add_argument(
        "--policy",
        default=None,
        help=f"card-play policy: {names(PLAY_POLICIES)} (play=; default {default['policy']})",
    )
    flags.add_argument("--attack-policy", default=None, help="card play of the attack (attack_play=)")
    flags.add_argument("--defence-policy", default=None, help="card play of the defence (defence_play=)")
    flags.add_argument(
        "--bid-policy",
        default=None,
        help=f"bidding policy: {names(BID_POLICIES)} (bid=; default {default['bid_policy']})",
    )
    flags.add_argument(
        "--bidder", default=None, metavar="FILE.json", help="bidder file of --bid-policy learned (bidder=)"
    )
    for option, key, table in (
        ("ecart_policy", "ecart", ECART_POLICIES),
        ("poignee_policy", "poignee", POIGNEE_POLICIES),
        ("chelem_policy", "chelem", CHELEM_POLICIES),
    ):
        flags.add_argument(
            "--" + option.replace("_", "-"),
            default=None,
            help=f"{DECISIONS[key]} policy: {names(table)} ({key}=; default {default[option]})",
        )
    flags.add_argument(
        "--bid-thresholds",
        type=bid_thresholds,
        default=None,
        metavar="P/G/GS/GC",
        help=f"Chavey counts for Prise, Garde, Garde sans, Garde contre (bid_thresholds=; default "
        f"{_PUBLISHED_BANDS_TEXT} at 4 players, scaled by hand size)",
    )
    flags.add_argument(
        "--chelem-threshold",
        type=chelem_threshold,
        default=None,
        help=f"count from which chelem=overwhelming announces (default {default['chelem_threshold']})",
    )


def run_config(args: argparse.Namespace) -> RunConfig:
    """The run configuration of a command: the table, and ``--strategy``/``--seat`` or the
    shorthand flags (not both).

    Raises
    ------
    CliError
        For a shorthand flag given with ``--strategy`` or ``--seat``, or a seat off the table.
    """
    given = vars(args)
    table = {f.name: given[f.name] for f in fields(RunConfig) if f.name in given and f.name not in _SHORTHAND}
    flags = {name: given[name] for name in _SHORTHAND if given.get(name) is not None}
    base: Strategy | None = given.get("strategy")
    seats: list[tuple[int, Strategy]] = []
    for seat, strategy in given.get("seat_strategies") or []:
        if strategy is None:
            if given.get("command") != "sweep":
                raise CliError(f"--seat {seat} needs a strategy: --seat {seat}=SPEC")
            continue  # a sweep's taking seat (taker_seat)
        seats.append((seat, strategy))
    if base is None and not seats:
        return RunConfig(**table, **flags)
    if flags:
        shown = ", ".join("--" + name.replace("_", "-") for name in flags)
        raise CliError(
            f"--strategy and --seat set the policies: leave {shown} out (or write them in the spec)"
        )
    players = RunConfig(**table).players
    strategies = [base or Strategy()] * players
    for seat, strategy in seats:
        if seat >= players:
            raise CliError(f"--seat {seat}=…: the seats are 0 to {players - 1} at {players} players")
        strategies[seat] = strategy
    return RunConfig(**table, strategies=tuple(strategies))


def taker_seat(args: argparse.Namespace) -> int:
    """A sweep's taking seat: ``--taker K``, or the older ``--seat K``."""
    bare = [seat for seat, strategy in args.seat_strategies if strategy is None]
    if len(bare) > 1 or (bare and args.taker is not None):
        raise CliError("give the taking seat once, with --taker K")
    return bare[0] if bare else (args.taker or 0)


def describe_play(config: RunConfig) -> str:
    """The strategies of a run in a few words: ``play=heuristic`` or each seat's label."""
    labels = [s.label for s in config.seat_strategies()]
    if len(set(labels)) == 1:
        return f"every seat {labels[0]}"
    return "; ".join(f"seat {seat} {label}" for seat, label in enumerate(labels))


def add_run_options(
    parser: argparse.ArgumentParser, *, out_required: bool, deals: int = DEFAULT_DEALS, out: str | None = None
) -> None:
    """The options of a command that makes a run: its size, seed, run directory, threads and cluster."""
    parser.add_argument(
        "--deals", type=positive_int, default=deals, help=f"deals to play (default {deals:,})"
    )
    parser.add_argument(
        "--seed", type=seed_number, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})"
    )
    where = f" (default {out})" if out else ""
    parser.add_argument(
        "--out",
        required=out_required,
        default=out,
        help=f"run directory for Parquet chunks and manifest.json{where}; re-run the same command to resume",
    )
    parser.add_argument("--threads", type=positive_int, default=None, help="threads (default: all cores)")
    parser.add_argument(
        "--chunk-deals",
        type=positive_int,
        default=DEFAULT_CHUNK_DEALS,
        help=f"deals per chunk on disk (default {DEFAULT_CHUNK_DEALS})",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="make the chunks on the Dask cluster at ADDRESS, e.g. tcp://host:8786 (pip install 'tarotsim[distributed]')",
    )
    parser.add_argument(
        "--workers",
        type=positive_int,
        default=None,
        metavar="N",
        help="make the chunks on a local Dask cluster of N worker processes, one thread each",
    )
    parser.add_argument(
        "--write-on",
        choices=("workers", "client"),
        default=None,
        help="with --scheduler/--workers, who writes the chunk files: the workers (default; "
        "--out must be a path they all share) or this process",
    )
    parser.add_argument(
        "--allow-version-change",
        action="store_true",
        help="finish a run directory that another tarotsim version started (recorded in its manifest)",
    )


def add_scheduler_option(parser: argparse.ArgumentParser) -> None:
    """``--scheduler`` of the commands that read a run: where its chunks are reduced."""
    parser.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="read the chunks on the Dask cluster at ADDRESS, e.g. tcp://host:8786; its workers must see "
        "the run directory at the same path (default: read here, chunk by chunk)",
    )


def emit(table: pd.DataFrame, out: str | None, title: str, *, append: bool = False) -> None:
    """Print a table as Markdown; with ``out``, also write it as CSV or Markdown (appended when asked)."""
    from tarotsim.analysis import to_markdown

    text = to_markdown(table)
    print(f"{title}\n\n{text}\n")
    if out is None:
        return
    path = Path(out)
    try:
        if path.suffix == ".csv":
            table.to_csv(path, index=False)
        else:
            with open(path, "a" if append else "w", encoding="utf-8") as f:
                f.write(f"## {title}\n\n{text}\n\n")
    except OSError as err:
        raise CliError(f"cannot write {path}: {err.strerror or err}") from None
