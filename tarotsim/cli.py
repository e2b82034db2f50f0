"""The ``tarotsim`` command (``python -m tarotsim`` works too)."""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from tarotsim.bench import HEADLINE_DEALS, HEADLINE_REPEATS
from tarotsim.config import SWEEP_DEFAULTS, RunConfig
from tarotsim.labels import (
    BID_POLICIES,
    CHELEM_POLICIES,
    CONTRACTS,
    DEALINGS,
    ECART_POLICIES,
    PLAY_POLICIES,
    POIGNEE_POLICIES,
    PUBLISHED_BANDS,
    ThrownIn,
)
from tarotsim.run.compiling import compile_notices
from tarotsim.run.spec import DEFAULT_CHUNK_DEALS, RunSpec

if TYPE_CHECKING:
    import pandas as pd

DEFAULT_DEALS = 100_000
DEFAULT_SEED = 2024


class CliError(Exception):
    """A problem with the user's input, reported as one line and exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse whose errors are one line (``tarotsim simulate: error: …``) and exit status 2;
    the usage is shown by ``--help`` only."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


_NUMBER_LIST = re.compile(r"-?\d[\d_]*(,\s*-?\d[\d_]*)*")
_NUMBER_LIST_OPTIONS = ("--bid-thresholds",)
"""Options whose value is a list of numbers, which argparse takes for an option when it
starts with a minus sign unless written ``--option=value``."""


def _join_number_lists(argv: Sequence[str]) -> list[str]:
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


_PUBLISHED_BANDS_TEXT = ",".join(str(PUBLISHED_BANDS[c]) for c in CONTRACTS)


def _thresholds(text: str) -> tuple[int, ...]:
    try:
        values = tuple(int(part.replace("_", "")) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected four whole numbers such as {_PUBLISHED_BANDS_TEXT}, got {text!r}"
        ) from None
    if len(values) != 4:
        raise argparse.ArgumentTypeError(
            f"expected four numbers (Prise, Garde, Garde sans, Garde contre), got {text!r}"
        )
    return values


def _add_config_options(parser: argparse.ArgumentParser, defaults: Mapping[str, Any] | None = None) -> None:
    """The options of ``RunConfig``, each ``--name`` for the field ``name``; defaults are
    ``RunConfig``'s, then ``defaults``."""
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
        type=_thresholds,
        default=default["bid_thresholds"],
        metavar="P,G,GS,GC",
        help=f"Chavey counts for Prise, Garde, Garde sans, Garde contre (default {_PUBLISHED_BANDS_TEXT} "
        "at 4 players, scaled by hand size)",
    )
    parser.add_argument(
        "--chelem-threshold",
        type=int,
        default=default["chelem_threshold"],
        help=f"count from which the overwhelming chelem policy announces (default {default['chelem_threshold']})",
    )


def _config(args: argparse.Namespace) -> RunConfig:
    """The run configuration of a command: every parsed option named as a ``RunConfig`` field."""
    given = vars(args)
    return RunConfig(**{f.name: given[f.name] for f in fields(RunConfig) if f.name in given})


TABLE_FILES = (".csv", ".md")
STUDY_REPORT = "report"
"""The folder inside its run directory where ``study`` writes its report."""


def _table_file(text: str) -> str:
    """A table's ``--out`` file, checked before any work: it must end in .csv or .md."""
    if Path(text).suffix not in TABLE_FILES:
        raise argparse.ArgumentTypeError(f"must end in .csv or .md, got {text!r}")
    return text


def _writable(path: Path) -> None:
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as err:
        raise CliError(f"cannot write {path}: {err.strerror or err}") from None


def cmd_trace(args: argparse.Namespace) -> int:
    from tarotsim.run.seeding import run_key
    from tarotsim.trace import write_trace_file

    config = _config(args)
    out = Path(args.out)
    _writable(out)
    written = write_trace_file(out, args.deals, run_key(args.seed), config)
    print(f"wrote {written} deals to {out}")
    return 0


def summary_table(frame: pd.DataFrame | str) -> str:
    """Markdown table of contract success by bout count, with the thrown-in counts.

    ``frame`` is a record frame or a run directory."""
    from tarotsim.analysis import success_table, to_markdown

    table = success_table(frame, by=("taker_bouts",))
    shown = table[["contract", "taker_bouts", "n", "rate", "rate_low", "rate_high", "mean_score"]]
    thrown = table.attrs.get("thrown_in_by_reason", {})
    reasons = ", ".join(
        f"{reason.label.replace('_', ' ')} {int(thrown.get(reason.label, 0))}"
        for reason in ThrownIn
        if reason != ThrownIn.NONE
    )
    lines = [to_markdown(shown), "", f"played deals: {int(table['n'].sum())}; thrown in: {reasons}"]
    return "\n".join(lines)


def _progress(args: argparse.Namespace) -> bool:
    return not args.quiet and sys.stderr.isatty()


def _execute(args: argparse.Namespace, spec: RunSpec) -> None:
    started = time.perf_counter()
    if args.scheduler is not None or args.workers is not None:
        if args.threads is not None:
            raise CliError(
                "--threads is for local runs; a Dask worker runs one chunk per thread (dask worker --nthreads)"
            )
        from tarotsim.run.distributed import execute_distributed

        run = execute_distributed(
            args.out,
            spec,
            scheduler=args.scheduler,
            workers=args.workers,
            write_on=args.write_on or "workers",
            progress=_progress(args),
            allow_version_change=args.allow_version_change,
        )
    else:
        if args.write_on is not None:
            raise CliError("--write-on goes with --scheduler or --workers")
        from tarotsim.run.store import execute

        run = execute(
            args.out,
            spec,
            threads=args.threads,
            progress=_progress(args),
            allow_version_change=args.allow_version_change,
        )
    elapsed = time.perf_counter() - started
    for index, problem in run.remade:
        print(f"chunk {index} {problem}: made again")
    counts = run.manifest["counts"]
    print(
        f"{spec.kind} run in {run.directory}: {counts['deals']} deals ({counts['rows']} records), "
        f"seed {spec.seed}; {elapsed:.1f} s this time, {run.manifest['wall_time_s']:.1f} s in all"
    )


def _run_spec(args: argparse.Namespace, config: RunConfig, kind: str, **sweep: Any) -> RunSpec:
    """The run a command makes in its run directory (``--out``)."""
    return RunSpec(
        kind=kind, seed=args.seed, deals=args.deals, config=config, chunk_deals=args.chunk_deals, **sweep
    )


def cmd_simulate(args: argparse.Namespace) -> int:
    config = _config(args)
    if args.out is None and (args.scheduler is not None or args.workers is not None):
        raise CliError("--scheduler and --workers need --out DIR, the run directory the chunks go to")
    if args.out is not None:
        _execute(args, _run_spec(args, config, "simulate"))
        print()
        print(summary_table(args.out))
        return 0
    from tarotsim.simulate import simulate

    started = time.perf_counter()
    frame = simulate(
        args.deals, seed=args.seed, config=config, threads=args.threads, progress=_progress(args)
    )
    elapsed = time.perf_counter() - started
    print(
        f"{args.deals} deals, seed {frame.attrs['seed']}, {config.players} players, "
        f"card play {config.policy}; {elapsed:.1f} s\n"
    )
    print(
        "Contract success by bouts in the taker's hand (rate with its 95% Wilson interval, "
        "mean taker score in points):\n"
    )
    print(summary_table(frame))
    return 0


def cmd_sweep(args: argparse.Namespace) -> int:
    contracts = tuple(c.strip() for c in args.contracts.split(",") if c.strip())
    _execute(args, _run_spec(args, _config(args), "sweep", contracts=contracts, seat=args.seat))
    return 0


def cmd_duel(args: argparse.Namespace) -> int:
    """A duplicate duel of two strategies: the edge with its interval and the breakdowns;
    with ``--out``, a resumable run directory and a report in ``DIR/report``."""
    from tarotsim.analysis import to_markdown
    from tarotsim.duel import DuelResult, duel, duel_spec
    from tarotsim.report.duel import TABLE_COLUMNS, write_duel_report

    spec = duel_spec(
        args.a, args.b, args.deals, seed=args.seed, players=args.players, chunk_deals=args.chunk_deals
    )
    if args.out is None:
        if args.scheduler is not None or args.workers is not None:
            raise CliError("--scheduler and --workers need --out DIR, the run directory the chunks go to")
        if args.write_on is not None:
            raise CliError("--write-on goes with --scheduler or --workers")
        result = duel(
            spec.duel[0],
            spec.duel[1],
            args.deals,
            seed=args.seed,
            players=args.players,
            threads=args.threads,
            progress=_progress(args),
        )
    else:
        _execute(args, spec)
        result = DuelResult.from_run(args.out)
    print(f"{result.summary()}\n")
    print(
        f"By role: A's and B's rates and mean scores (points), and A - B with its 95% interval:\n\n"
        f"{to_markdown(result.by_role[TABLE_COLUMNS['by_role']])}"
    )
    print(
        f"Contracts taken by A and by a seat of B:\n\n{to_markdown(result.by_contract[TABLE_COLUMNS['by_contract']])}"
    )
    if args.out is not None:
        folder = write_duel_report(result, Path(args.out) / "report")
        print(f"report: {folder / 'duel.md'} (and duel.html beside it)")
    return 0


def cmd_study(args: argparse.Namespace) -> int:
    """The main job: a contract sweep on the embedded defaults, then its report."""
    from tarotsim.report import write_report

    spec = _run_spec(args, _config(args), "sweep", contracts=CONTRACTS, seat=0)
    print(
        f"Sweeping {args.deals:,} deals: seat 0 takes each of the {len(CONTRACTS)} contracts on every deal "
        f"({args.policy} play); re-running this command resumes an interrupted run."
    )
    started = time.perf_counter()
    _execute(args, spec)
    folder = write_report(args.out, Path(args.out) / STUDY_REPORT)
    print(
        f"\nreport: {folder / 'report.html'} (Markdown: {folder / 'report.md'}); "
        f"{time.perf_counter() - started:.0f} s in all"
    )
    return 0


def cmd_match(args: argparse.Namespace) -> int:
    import pandas as pd

    from tarotsim.simulate import simulate

    config = _config(args)
    frame = simulate(args.deals, seed=args.seed, config=config, match_deals=args.deals, progress=False)
    seats = range(config.players)
    print(
        f"match of {args.deals} deals, seed {args.seed}, {config.players} players, {config.dealing} dealing\n"
    )
    header = "deal dealer  taker contract      " + "".join(f"{'seat ' + str(s):>9}" for s in seats)
    print(header)
    for row in frame.itertuples(index=False):
        what = row.contract if row.thrown_in == ThrownIn.NONE.label else f"({row.thrown_in})"
        taker = "" if pd.isna(row.taker) else str(row.taker)
        totals = "".join(f"{getattr(row, f'total_{s}'):>9}" for s in seats)
        print(f"{row.deal:>4} {row.dealer:>6} {taker:>6} {what:<14}{totals}")
    final = [int(frame[f"total_{s}"].iloc[-1]) for s in seats]
    best = max(final)
    winners = [str(s) for s, total in zip(seats, final, strict=True) if total == best]
    print(f"\nfinal scores: {final}; winner: seat {' and '.join(winners)} with {best}")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    import json

    from tarotsim.bench import headline

    result = headline(deals=args.deals, repeats=args.repeats, threads=args.threads)
    print(json.dumps(result.as_json(), indent=2) if args.json else result.text())
    return 0


def _add_run_options(
    parser: argparse.ArgumentParser, *, out_required: bool, deals: int = DEFAULT_DEALS, out: str | None = None
) -> None:
    parser.add_argument(
        "--deals", type=_positive_int, default=deals, help=f"deals to play (default {deals:,})"
    )
    parser.add_argument(
        "--seed", type=_seed, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})"
    )
    where = f" (default {out})" if out else ""
    parser.add_argument(
        "--out",
        required=out_required,
        default=out,
        help=f"run directory for Parquet chunks and manifest.json{where}; re-run the same command to resume",
    )
    parser.add_argument("--threads", type=_positive_int, default=None, help="threads (default: all cores)")
    parser.add_argument(
        "--chunk-deals",
        type=_positive_int,
        default=DEFAULT_CHUNK_DEALS,
        help=f"deals per chunk on disk (default {DEFAULT_CHUNK_DEALS})",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar, no compile notice")
    parser.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="make the chunks on the Dask cluster at ADDRESS, e.g. tcp://host:8786 (pip install 'tarotsim[distributed]')",
    )
    parser.add_argument(
        "--workers",
        type=_positive_int,
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


def _add_scheduler_option(parser: argparse.ArgumentParser) -> None:
    """``--scheduler`` of the commands that read a run: where its chunks are reduced."""
    parser.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="read the chunks on the Dask cluster at ADDRESS, e.g. tcp://host:8786; its workers must see "
        "the run directory at the same path (default: read here, chunk by chunk)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="tarotsim",
        description="Monte Carlo simulator of French Tarot under the FFT rules.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    sim = sub.add_parser("simulate", help="simulate deals; print contract success, or write a run directory")
    _add_run_options(sim, out_required=False)
    _add_config_options(sim)
    sim.set_defaults(func=cmd_simulate)

    study = sub.add_parser("study", help="the main job: a one-million-deal contract sweep and its report")
    _add_run_options(study, out_required=False, deals=1_000_000, out="runs/study")
    _add_config_options(study, SWEEP_DEFAULTS)
    study.set_defaults(func=cmd_study)

    swp = sub.add_parser("sweep", help="play every deal once per contract by one seat (for thresholds)")
    _add_run_options(swp, out_required=True)
    swp.add_argument("--seat", type=int, default=0, help="seat that takes every contract (default 0)")
    swp.add_argument(
        "--contracts",
        default=",".join(CONTRACTS),
        help=f"contracts to play, comma-separated (default {','.join(CONTRACTS)})",
    )
    _add_config_options(swp, SWEEP_DEFAULTS)
    swp.set_defaults(func=cmd_sweep)

    duel_ = sub.add_parser(
        "duel", help="duplicate duel: strategy A in each seat in turn, B in the others, same deals"
    )
    duel_.add_argument(
        "--a", required=True, metavar="SPEC", help="strategy A, e.g. play=heuristic,ecart=expert"
    )
    duel_.add_argument("--b", required=True, metavar="SPEC", help="strategy B, e.g. play=random")
    duel_.add_argument("--players", type=int, default=4, help="players at the table: 3, 4 or 5 (default 4)")
    _add_run_options(duel_, out_required=False)
    duel_.set_defaults(func=cmd_duel)

    from tarotsim.cli_analysis import add_commands as add_analysis_commands

    add_analysis_commands(sub)

    match = sub.add_parser("match", help="play a match: deals with the dealer rotating, cumulative scores")
    match.add_argument("--deals", type=_positive_int, default=8, help="deals in the match (default 8)")
    match.add_argument(
        "--seed", type=_seed, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})"
    )
    _add_config_options(match)
    match.set_defaults(func=cmd_match)

    bench = sub.add_parser("bench", help="measure deals per second on this machine (under a minute)")
    bench.add_argument(
        "--deals",
        type=_positive_int,
        default=HEADLINE_DEALS,
        help=f"deals per timed run (default {HEADLINE_DEALS:,})",
    )
    bench.add_argument(
        "--repeats",
        type=_positive_int,
        default=HEADLINE_REPEATS,
        help=f"interleaved rounds, each timing every figure once (default {HEADLINE_REPEATS})",
    )
    bench.add_argument(
        "--threads", type=_positive_int, default=1, help="threads every figure runs on (default 1)"
    )
    bench.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    bench.set_defaults(func=cmd_bench)

    trace = sub.add_parser("trace", help="write every card of every deal as JSON Lines")
    trace.add_argument("--deals", type=_positive_int, required=True, help="deals to trace")
    trace.add_argument("--seed", type=_seed, required=True, help="random seed")
    trace.add_argument("--out", required=True, help="output file (.jsonl)")
    _add_config_options(trace)
    trace.set_defaults(func=cmd_trace)

    from tarotsim.cli_learned import add_commands as add_learned_commands

    add_learned_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(_join_number_lists(sys.argv[1:] if argv is None else argv))
    if args.command is None:
        parser.print_help()
        return 2
    try:
        with compile_notices(not getattr(args, "quiet", False)):
            return int(args.func(args))
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
    except BrokenPipeError:
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
