"""What every command of the ``tarotsim`` command line shares: its error, its parser class,
the types of its arguments, the option groups several commands take, and ``emit``, which
prints a table and writes it to a file.

The command modules (:mod:`tarotsim.cli.running`, :mod:`tarotsim.cli.analysis`,
:mod:`tarotsim.cli.learned`) import this one and never each other. It imports the engine's
names (configuration, labels) only in the functions that need them, since ``tarotsim --help``
imports it.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Mapping, Sequence
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    import pandas as pd

    from tarotsim.config import RunConfig

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


_NUMBER_LIST = re.compile(r"-?\d[\d_]*(,\s*-?\d[\d_]*)*")
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


def _published_bands() -> str:
    """Chavey's published bands, ``P,G,GS,GC``."""
    from tarotsim.labels import CONTRACTS, PUBLISHED_BANDS

    return ",".join(str(PUBLISHED_BANDS[c]) for c in CONTRACTS)


def bid_thresholds(text: str) -> tuple[int, ...]:
    """A ``--bid-thresholds``: four whole numbers, comma-separated."""
    try:
        values = tuple(int(part.replace("_", "")) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected four whole numbers such as {_published_bands()}, got {text!r}"
        ) from None
    if len(values) != 4:
        raise argparse.ArgumentTypeError(
            f"expected four numbers (Prise, Garde, Garde sans, Garde contre), got {text!r}"
        )
    return values


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


def add_config_options(parser: argparse.ArgumentParser, defaults: Mapping[str, Any] | None = None) -> None:
    """The options of ``RunConfig``, each ``--name`` for the field ``name``; defaults are
    ``RunConfig``'s, then ``defaults``."""
    from tarotsim.config import RunConfig
    from tarotsim.labels import (
        BID_POLICIES,
        CHELEM_POLICIES,
        DEALINGS,
        ECART_POLICIES,
        PLAY_POLICIES,
        POIGNEE_POLICIES,
    )

    default = {f.name: f.default for f in fields(RunConfig)} | dict(defaults or {})

    def names(table: Mapping[str, int]) -> str:
        return ", ".join(table)

    parser.add_argument(
        "--players",
        type=int,
        default=default["players"],
        help=f"players at the table: 3, 4 or 5 (default {default['players']})",
    )
    parser.add_argument(
        "--policy",
        default=default["policy"],
        help=f"card-play policy of every seat: {names(PLAY_POLICIES)} (default {default['policy']})",
    )
    parser.add_argument(
        "--attack-policy",
        default=default["attack_policy"],
        help="card-play policy of the attack (default --policy)",
    )
    parser.add_argument(
        "--defence-policy",
        default=default["defence_policy"],
        help="card-play policy of the defence (default --policy)",
    )
    parser.add_argument(
        "--bid-policy",
        default=default["bid_policy"],
        help=f"bidding policy: {names(BID_POLICIES)} (default {default['bid_policy']})",
    )
    parser.add_argument(
        "--bidder",
        default=None,
        metavar="FILE.json",
        help="bidder file of --bid-policy learned (tarotsim fit-bidder)",
    )
    for option, table, text in (
        ("ecart_policy", ECART_POLICIES, "écart policy: {names} (default {default})"),
        ("poignee_policy", POIGNEE_POLICIES, "poignée policy: {names} (default {default})"),
        ("chelem_policy", CHELEM_POLICIES, "chelem announcement policy: {names} (default {default})"),
        ("dealing", DEALINGS, "dealing: {names} (unshuffled: casual tables; default {default})"),
    ):
        parser.add_argument(
            "--" + option.replace("_", "-"),
            default=default[option],
            help=text.format(names=names(table), default=default[option]),
        )
    parser.add_argument(
        "--bid-thresholds",
        type=bid_thresholds,
        default=default["bid_thresholds"],
        metavar="P,G,GS,GC",
        help=f"Chavey counts for Prise, Garde, Garde sans, Garde contre (default {_published_bands()} "
        "at 4 players, scaled by hand size)",
    )
    parser.add_argument(
        "--chelem-threshold",
        type=int,
        default=default["chelem_threshold"],
        help=f"count from which the overwhelming chelem policy announces (default {default['chelem_threshold']})",
    )


def run_config(args: argparse.Namespace) -> RunConfig:
    """The run configuration of a command: every parsed option named as a ``RunConfig`` field."""
    from tarotsim.config import RunConfig

    given = vars(args)
    return RunConfig(**{f.name: given[f.name] for f in fields(RunConfig) if f.name in given})


def add_run_options(
    parser: argparse.ArgumentParser, *, out_required: bool, deals: int = DEFAULT_DEALS, out: str | None = None
) -> None:
    """The options of a command that makes a run: its size, seed, run directory, threads and cluster."""
    from tarotsim.run.spec import DEFAULT_CHUNK_DEALS

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
