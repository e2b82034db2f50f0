"""What every command of the ``tarotsim`` command line shares: its error, its parser class,
the types of its arguments, the option groups several commands take, and ``emit``, which
prints a table and writes it to a file.

The command modules (`tarotsim.cli.running`, `tarotsim.cli.analysis`,
`tarotsim.cli.learned`) import this one and never each other. It imports the engine's
names (configuration, labels) only in the functions that need them, since ``tarotsim --help``
imports it.
"""

from __future__ import annotations

import argparse
import math
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    import pandas as pd

    from tarotsim.players.config import RunConfig
    from tarotsim.players.strategy import Strategy

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


_NUMBER_LIST = re.compile(r"-?\d[\d_]*(\.\d+)?([,/]\s*-?\d[\d_]*(\.\d+)?)*")
_NUMBER_LIST_OPTIONS = ("--bid-thresholds", "--edge")
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


MAX_DEALS = 10**12
"""The most deals a run may hold (about a year of one fast machine)."""
MAX_SEED = 2**63 - 1
"""The largest seed: what every tool that reads a manifest holds as a 64-bit integer."""
MAX_THREADS = 1024
MAX_CHUNK_DEALS = 1 << 24


def whole(minimum: int = 1, maximum: int = MAX_DEALS) -> Callable[[str], int]:
    """The type of an option that is a whole number from ``minimum`` to ``maximum`` (``1_000`` allowed);
    argparse names the option in the error."""

    def parse(text: str) -> int:
        try:
            value = int(text.replace("_", ""))
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum:,}, got {value:,}")
        if value > maximum:
            raise argparse.ArgumentTypeError(f"must be at most {maximum:,}, got {value:,}")
        return value

    return parse


positive_int = whole(1, MAX_DEALS)
"""A count of at least 1 and at most `MAX_DEALS`."""
seed_number = whole(0, MAX_SEED)
"""A ``--seed``: a whole number from 0 to `MAX_SEED`."""
threads_number = whole(1, MAX_THREADS)
"""A ``--threads`` or ``--workers``: 1 to `MAX_THREADS`."""


def proportion(text: str) -> float:
    """An option that is a number strictly between 0 and 1, such as a success rate."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must lie strictly between 0 and 1, got {text}")
    return value


def edge_pair(text: str) -> tuple[float, float]:
    """``--edge E0,E1``: the edges (points per deal) of a sequential test's H0 and H1."""
    parts = text.split(",")
    try:
        edge0, edge1 = (float(part) for part in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected two numbers E0,E1 (points per deal), such as 0,2, got {text!r}"
        ) from None
    if not (math.isfinite(edge0) and math.isfinite(edge1)) or not edge0 < edge1:
        raise argparse.ArgumentTypeError(f"E0 must be below E1, both finite, got {text!r}")
    return edge0, edge1


def error_rate(text: str) -> float:
    """``--alpha``, ``--beta``: an error rate strictly between 0 and 0.5."""
    value = proportion(text)
    if value >= 0.5:
        raise argparse.ArgumentTypeError(f"an error rate lies below 0.5, got {text}")
    return value


def name_list(text: str) -> tuple[str, ...]:
    """A comma-separated list of names (``--contracts``, ``--by``); an empty item is refused."""
    items = tuple(item.strip() for item in text.split(","))
    if any(not item for item in items):
        raise argparse.ArgumentTypeError(f"a list item is empty in {text!r}: write the names comma-separated")
    if len(set(items)) != len(items):
        raise argparse.ArgumentTypeError(f"a name appears twice in {text!r}")
    return items


def _published_bands() -> str:
    """Chavey's published bands, ``P/G/GS/GC``."""
    from tarotsim.engine.labels import CONTRACTS, PUBLISHED_BANDS

    return "/".join(str(PUBLISHED_BANDS[c]) for c in CONTRACTS)


def bid_thresholds(text: str) -> tuple[int, ...]:
    """A ``--bid-thresholds``: four counts written as in a spec, ``40/56/71/81`` (the old
    ``40,56,71,81`` is accepted too)."""
    from tarotsim.players.policies import parse_thresholds

    try:
        return parse_thresholds(text.replace("_", ""))
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def chelem_threshold(text: str) -> int:
    """A ``--chelem-threshold``: a count, bounded as in a spec."""
    from tarotsim.players.policies import OPTIONS

    try:
        return OPTIONS["chelem_threshold"].parse(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def strategy_spec(text: str) -> Strategy:
    """A ``--strategy``: a strategy spec such as ``play=pimc,worlds=16``; an empty one is
    refused (leaving the option out gives the default)."""
    from tarotsim.players.strategy import Strategy

    try:
        return Strategy.parse(spec_text(text))
    except (TypeError, ValueError) as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def spec_text(text: str) -> str:
    """A strategy spec kept as written (``duel --a``/``--b``, ``hand --strategy``, which
    check the rest with their own words): an empty one is refused."""
    if not text.strip():
        raise argparse.ArgumentTypeError(
            "the strategy spec is empty: write key=value pairs such as play=pimc, "
            "or leave the option out for the default strategy"
        )
    return text


def seat_spec(text: str) -> tuple[int, Strategy | None]:
    """A ``--seat K=SPEC``: seat K's strategy; a bare ``K`` is a sweep's taking seat (its
    older spelling of ``--taker K``)."""
    seat, sep, spec = text.partition("=")
    if not seat.strip().isdigit() or len(seat.strip()) > 2:
        raise argparse.ArgumentTypeError(
            f"expected K=SPEC, a seat and its strategy such as 2=play=random, got {text!r}"
        )
    if sep and not spec.strip():
        raise argparse.ArgumentTypeError(
            f"seat {int(seat)}'s strategy is empty in {text!r}: write K=SPEC such as {int(seat)}=play=random"
        )
    return int(seat), strategy_spec(spec) if sep else None


def table_file(text: str) -> str:
    """A table's ``--out`` file, checked before any work: it must end in .csv or .md."""
    if Path(text).suffix not in TABLE_FILES:
        raise argparse.ArgumentTypeError(f"must end in .csv or .md, got {text!r}")
    return text


def out_path(text: str) -> str:
    """An ``--out`` that names a file or a folder: an empty one is refused (it would write
    into the current folder)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("the path is empty: name the file or folder to write")
    return text


def writable_folder(path: Path) -> None:
    """Raise ``CliError`` unless the folder ``path`` can be made or written into, before any
    work (nothing is created)."""
    if path.exists() and not path.is_dir():
        raise CliError(f"cannot write into {path}: it is a file; name a folder")
    existing = next((p for p in (path, *path.parents) if p.exists()), Path("."))
    if not existing.is_dir():
        raise CliError(f"cannot make the folder {path}: {existing} is a file")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise CliError(f"cannot write into {path}: permission denied")


def writable(path: Path) -> None:
    """Raise ``CliError`` unless ``path`` can be written, before any work (nothing is created)."""
    folder = path.parent
    if path.is_dir():
        raise CliError(f"cannot write {path}: it is a folder")
    if not folder.is_dir():
        raise CliError(f"cannot write {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise CliError(f"cannot write {path}: permission denied")


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
    from tarotsim.players.strategy import Strategy

    every = "every seat's strategy" if seats else "the strategy under both --a and --b"
    parser.add_argument(
        "--strategy",
        type=strategy_spec,
        default=None,
        metavar="SPEC",
        help=f"{every}, e.g. play=pimc,worlds=16 or play=mypkg.players:cautious, a player of your own "
        f"by import path (keys and defaults: docs/policies.md; players: docs/player.md; default {Strategy()})",
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
    from tarotsim.engine.labels import DEALINGS
    from tarotsim.players.config import RunConfig
    from tarotsim.players.policies import (
        BID_POLICIES,
        CHELEM_POLICIES,
        DECISIONS,
        ECART_POLICIES,
        PLAY_POLICIES,
        POIGNEE_POLICIES,
    )

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
        f"{_published_bands()} at 4 players, scaled by hand size)",
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
    from tarotsim.players.config import RunConfig
    from tarotsim.players.strategy import Strategy

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
        if any(seat == other for other, _ in seats):
            raise CliError(f"--seat {seat}=… is given twice: give each seat's strategy once")
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
    from tarotsim.base.defaults import DEFAULT_CHUNK_DEALS

    parser.add_argument(
        "--deals",
        type=positive_int,
        default=deals,
        help=f"deals to play (default {deals:,}); more, with the same --out, extends a finished run",
    )
    parser.add_argument(
        "--seed", type=seed_number, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})"
    )
    where = f" (default {out})" if out else ""
    parser.add_argument(
        "--out",
        type=out_path,
        required=out_required,
        default=out,
        help=f"run directory for Parquet chunks and manifest.json{where}; re-run the same command to resume",
    )
    parser.add_argument("--threads", type=threads_number, default=None, help="threads (default: all cores)")
    parser.add_argument(
        "--chunk-deals",
        type=whole(1, MAX_CHUNK_DEALS),
        default=DEFAULT_CHUNK_DEALS,
        help=f"deals per chunk on disk (default {DEFAULT_CHUNK_DEALS})",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar, no compile notice")
    parser.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="make the chunks on the Dask cluster at ADDRESS, e.g. tcp://host:8786 (pip install 'dask[distributed]')",
    )
    parser.add_argument(
        "--workers",
        type=threads_number,
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


FORMATS = ("text", "md", "csv", "json")
"""``--format``'s choices: those of ``analysis.tables.format_table``, named here so that ``--help``
does not import the analysis (and pandas)."""
TERMINAL_WIDTH = 100
"""The width of a text table unless ``--wide``: ``analysis.tables.TERMINAL_WIDTH``."""


def add_output_options(parser: argparse.ArgumentParser, *, min_n: bool = False) -> None:
    """``--format`` and ``--wide`` of a command that prints tables; ``--min-n`` when it has counts."""
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default=FORMATS[0],
        help="print the tables as aligned text (default), Markdown, CSV or JSON (every column, full precision)",
    )
    parser.add_argument(
        "--wide",
        action="store_true",
        help=f"let text tables take the width they need (default {TERMINAL_WIDTH})",
    )
    if min_n:
        parser.add_argument(
            "--min-n",
            type=whole(1, MAX_DEALS),
            default=30,
            help="leave out rows of fewer deals than this (default 30)",
        )


def _notes_below(table: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """A table's ``note`` column taken out and written below it, one wrapped line per row that
    has a note, named by the row's first columns."""
    import textwrap

    if "note" not in table.columns:
        return table, []
    keys = [c for c in table.columns[:2] if c != "note"]
    lines = []
    for _, row in table.iterrows():
        note = row["note"]
        if isinstance(note, str) and note:
            name = " ".join(str(row[k]) for k in keys)
            lines += textwrap.wrap(f"{name}: {note}", TERMINAL_WIDTH, subsequent_indent="    ")
    return table.drop(columns="note"), lines


def emit(
    tables: Sequence[tuple[pd.DataFrame, str]],
    out: str | None,
    *,
    fmt: str = "text",
    wide: bool = False,
    notes: Sequence[str] = (),
) -> None:
    """Print tables, each under its title (a bare table for ``csv`` and ``json``), then ``notes``;
    with ``out``, also write them, whole or not at all: FILE.md holds every table under its
    title, FILE.csv the first one and FILE-1.csv, FILE-2.csv … the others."""
    from tarotsim.analysis import to_markdown
    from tarotsim.analysis.tables import format_table
    from tarotsim.base.files import write_text_atomic

    for table, title in tables:
        shown, footnotes = _notes_below(table) if fmt == "text" else (table, [])
        text = format_table(shown, fmt, wide=wide)
        print(text if fmt in ("csv", "json") else f"{title}\n\n{text}")
        if footnotes:
            print("\n".join(footnotes) + "\n")
    if fmt not in ("csv", "json"):
        for note in notes:
            print(note)
    if out is None:
        return
    path = Path(out)
    if path.suffix == ".csv":
        for index, (table, _) in enumerate(tables):
            target = path if index == 0 else path.with_name(f"{path.stem}-{index}.csv")
            write_text_atomic(target, str(table.to_csv(index=False)))
    else:
        write_text_atomic(path, "".join(f"## {title}\n\n{to_markdown(table)}\n" for table, title in tables))
