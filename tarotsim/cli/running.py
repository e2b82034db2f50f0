"""The commands that play deals: ``simulate``, ``study``, ``sweep``, ``duel``, ``tournament``,
``match``, ``bench`` and ``trace``; ``NAME_options`` adds the options of the command NAME."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tarotsim.base.defaults import LOOK_EVERY, SPRT_EDGE, SPRT_ERROR_RATE
from tarotsim.bench.headline import HEADLINE_DEALS, HEADLINE_REPEATS
from tarotsim.cli.common import (
    DEFAULT_DEALS,
    DEFAULT_SEED,
    MAX_CHUNK_DEALS,
    STUDY_REPORT,
    CliError,
    add_config_options,
    add_run_options,
    add_strategy_options,
    describe_play,
    edge_pair,
    emit,
    error_rate,
    name_list,
    out_path,
    positive_int,
    run_config,
    seed_number,
    spec_text,
    taker_seat,
    threads_number,
    whole,
    writable,
    writable_folder,
)
from tarotsim.engine.labels import CONTRACTS, ThrownIn
from tarotsim.players.config import RunConfig

if TYPE_CHECKING:
    import pandas as pd

    from tarotsim.analysis.sequential import Sprt
    from tarotsim.contests.duel import DuelResult
    from tarotsim.runs.spec import RunSpec


def cmd_trace(args: argparse.Namespace) -> int:
    from tarotsim.base.seeding import run_key
    from tarotsim.runs.trace import write_trace_file

    config = run_config(args)
    out = Path(args.out)
    writable(out)
    written = write_trace_file(out, args.deals, run_key(args.seed), config)
    print(f"wrote {written} deals to {out}")
    return 0


MAX_TRACE_DEALS = 10**7
"""The most deals one trace holds (about 3 KB a deal: 30 GB)."""
MAX_MATCH_DEALS = 10**5
"""The most deals of a match, which prints one line per deal."""
MAX_BENCH_DEALS = 10**8
"""The most deals of one timed bench run (its records are held in memory)."""


def summary_table(frame: pd.DataFrame | str) -> str:
    """A terminal table of contract success by bout count, with the thrown-in counts.

    ``frame`` is a record frame or a run directory."""
    from tarotsim.analysis import success_table
    from tarotsim.analysis.tables import format_table

    table = success_table(frame, by=("taker_bouts",))
    shown = table[["contract", "taker_bouts", "n", "rate", "rate_low", "rate_high", "mean_score"]]
    thrown = table.attrs.get("thrown_in_by_reason", {})
    reasons = ", ".join(
        f"{reason.label.replace('_', ' ')} {int(thrown.get(reason.label, 0))}"
        for reason in ThrownIn
        if reason != ThrownIn.NONE
    )
    lines = [format_table(shown), f"played deals: {int(table['n'].sum()):,}; thrown in: {reasons}"]
    return "\n".join(lines)


def show_progress(args: argparse.Namespace) -> bool:
    """Whether a command shows a progress bar: on a terminal, unless ``--quiet``."""
    return not args.quiet and sys.stderr.isatty()


def make_run(args: argparse.Namespace, spec: RunSpec) -> None:
    """Make (or resume) the run ``spec`` in ``args.out``, here or on a Dask cluster, and say what was made."""
    started = time.perf_counter()
    if args.scheduler is not None or args.workers is not None:
        if args.threads is not None:
            raise CliError(
                "--threads is for local runs; a Dask worker runs one chunk per thread (dask worker --nthreads)"
            )
        from tarotsim.runs.distributed import execute_distributed

        run = execute_distributed(
            args.out,
            spec,
            scheduler=args.scheduler,
            workers=args.workers,
            write_on=args.write_on or "workers",
            progress=show_progress(args),
            allow_version_change=args.allow_version_change,
        )
    else:
        if args.write_on is not None:
            raise CliError("--write-on goes with --scheduler or --workers")
        from tarotsim.runs.store import execute

        run = execute(
            args.out,
            spec,
            threads=args.threads,
            progress=show_progress(args),
            allow_version_change=args.allow_version_change,
        )
    elapsed = time.perf_counter() - started
    for note in run.notes():
        print(note)
    counts = run.manifest["counts"]
    print(
        f"{spec.kind} run in {args.out}: {counts['deals']:,} deals ({counts['rows']:,} records), "
        f"seed {spec.seed}; {elapsed:.1f} s this time, {run.manifest['wall_time_s']:.1f} s in all"
    )
    if spec.kind != "duel":
        print(
            f"next: tarotsim table {args.out}; tarotsim thresholds {args.out}; tarotsim report {args.out} --out FOLDER"
        )


def run_spec(args: argparse.Namespace, config: RunConfig, kind: str, **sweep: Any) -> RunSpec:
    """The run a command makes in its run directory (``--out``)."""
    from tarotsim.runs.spec import RunSpec

    return RunSpec(
        kind=kind, seed=args.seed, deals=args.deals, config=config, chunk_deals=args.chunk_deals, **sweep
    )


def cmd_simulate(args: argparse.Namespace) -> int:
    config = run_config(args)
    if args.out is None and (args.scheduler is not None or args.workers is not None):
        raise CliError("--scheduler and --workers need --out DIR, the run directory the chunks go to")
    if args.out is not None:
        make_run(args, run_spec(args, config, "simulate"))
        print()
        print(summary_table(args.out))
        return 0
    from tarotsim.runs.simulate import simulate

    started = time.perf_counter()
    frame = simulate(
        args.deals, seed=args.seed, config=config, threads=args.threads, progress=show_progress(args)
    )
    elapsed = time.perf_counter() - started
    print(
        f"{args.deals} deals, seed {frame.attrs['seed']}, {config.players} players, "
        f"{describe_play(config)}; {elapsed:.1f} s\n"
    )
    print(
        "Contract success by bouts in the taker's hand (rate with its 95% Wilson interval, "
        "mean taker score in points):\n"
    )
    print(summary_table(frame))
    return 0


def cmd_sweep(args: argparse.Namespace) -> int:
    from tarotsim.engine.dealing import parse_where_option
    from tarotsim.runs.simulate import stratified_deals
    from tarotsim.runs.strata import canonical_where, check_stratify

    config = run_config(args)
    seat = taker_seat(args)
    if args.per_cell is not None and args.deals != DEFAULT_DEALS:
        raise CliError("give --per-cell (deals in each cell) or --deals, not both")
    if args.per_cell is not None and not args.stratify:
        raise CliError("--per-cell goes with --stratify: the deals of each cell")
    where = canonical_where(parse_where_option(args.where), config.players)
    stratify = check_stratify(args.stratify or ())
    if args.per_cell is not None:
        args.deals = stratified_deals(
            None, args.per_cell, stratify, seed=args.seed, seat=seat, where=where, config=config
        )
    spec = run_spec(
        args, config, "sweep", contracts=args.contracts, seat=seat, where=where, stratify=stratify
    )
    if spec.strata is not None:
        strata = spec.strata
        left_out = f"; {strata.skipped} cells left out (no deal falls in them)" if strata.skipped else ""
        total = sum(c.probability.value for c in strata.cells)
        print(f"{len(strata.cells)} cells of probability {total:.6g} in all{left_out}")
    make_run(args, spec)
    return 0


def cmd_duel(args: argparse.Namespace) -> int:
    """A duplicate duel of two strategies: the edge with its interval and the breakdowns;
    with ``--out``, a resumable run directory and a report in ``DIR/report``."""
    from tarotsim.contests.duel_report import duel_tables, write_duel_report
    from tarotsim.players.strategy import merge_specs

    a, b = (x if args.strategy is None else merge_specs(str(args.strategy), x) for x in (args.a, args.b))
    check_sequential_options(args)
    result = duel_until_decided(args, a, b) if args.until_decided else duel_fixed(args, a, b)
    print(f"{result.summary()}\n")
    emit(duel_tables(result), None)
    if args.out is not None:
        folder = write_duel_report(result, Path(args.out) / "report", run=args.out)
        print(f"report: {folder / 'duel.md'} (and duel.html beside it)")
    return 0


def check_sequential_options(args: argparse.Namespace) -> None:
    """Refuse the options of ``--until-decided``'s test without it."""
    if args.until_decided:
        return
    given = (
        (args.edge, "--edge"),
        (args.alpha, "--alpha"),
        (args.beta, "--beta"),
        (args.look_every, "--look-every"),
    )
    for value, option in given:
        if value is not None:
            raise CliError(f"{option} goes with --until-decided, the sequential test it sets")


def sequential_test(args: argparse.Namespace) -> Sprt:
    """The sequential test of ``--until-decided``, from ``--edge``, ``--alpha`` and ``--beta``."""
    from tarotsim.analysis.sequential import Sprt

    edge0, edge1 = SPRT_EDGE if args.edge is None else args.edge
    return Sprt(
        edge0,
        edge1,
        alpha=SPRT_ERROR_RATE if args.alpha is None else args.alpha,
        beta=SPRT_ERROR_RATE if args.beta is None else args.beta,
    )


def duel_until_decided(args: argparse.Namespace, a: str, b: str) -> DuelResult:
    """``tarotsim duel --until-decided``: the duel, stopped once its sequential test is decided."""
    from tarotsim.base.defaults import DEFAULT_CHUNK_DEALS
    from tarotsim.contests.duel import duel

    if args.scheduler is not None or args.workers is not None or args.write_on is not None:
        raise CliError("--until-decided runs on this machine's threads, not on Dask (--scheduler, --workers)")
    if args.chunk_deals != DEFAULT_CHUNK_DEALS:
        raise CliError(
            "--until-decided makes chunks of --look-every deals: give --look-every, not --chunk-deals"
        )
    if args.allow_version_change:
        raise CliError(
            "--allow-version-change finishes a fixed duel; a duel until decided is made by one version"
        )
    started = time.perf_counter()
    result = duel(
        a,
        b,
        args.deals,
        seed=args.seed,
        players=args.players,
        threads=args.threads,
        out=args.out,
        until_decided=sequential_test(args),
        look_every=LOOK_EVERY if args.look_every is None else args.look_every,
        progress=show_progress(args),
    )
    if args.out is not None:
        print(
            f"duel run in {args.out}: {result.n:,} deals ({result.n * result.players:,} records), seed {result.seed}; "
            f"{time.perf_counter() - started:.1f} s"
        )
    return result


def duel_fixed(args: argparse.Namespace, a: str, b: str) -> DuelResult:
    """``tarotsim duel``: a duel of ``--deals`` deals, in memory or in ``--out``."""
    from tarotsim.contests.duel import DuelResult, duel, duel_spec

    spec = duel_spec(a, b, args.deals, seed=args.seed, players=args.players, chunk_deals=args.chunk_deals)
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
            progress=show_progress(args),
        )
    else:
        make_run(args, spec)
        result = DuelResult.from_run(args.out)
    return result


def player_entry(text: str) -> tuple[str, str]:
    """A ``--player NAME=SPEC``: a strategy's name in a tournament, and its spec."""
    from tarotsim.contests.tournament import NAME

    name, _, spec = text.partition("=")
    if not NAME.fullmatch(name) or not spec.strip():
        raise argparse.ArgumentTypeError(
            f"expected NAME=SPEC, such as heuristic=play=heuristic (NAME: letters, digits and _.+-), got {text!r}"
        )
    return name, spec


def table_sizes(text: str) -> tuple[int, ...]:
    """``--players 3,4,5``: table sizes, each once."""
    items = name_list(text)
    if not all(item in ("3", "4", "5") for item in items):
        raise argparse.ArgumentTypeError(f"table sizes are 3, 4 and 5, comma-separated, got {text!r}")
    return tuple(int(item) for item in items)


def cmd_tournament(args: argparse.Namespace) -> int:
    """A ladder or a round robin of duels: the table of edges and verdicts, and each strategy's cost."""
    from tarotsim.analysis.tables import format_table
    from tarotsim.contests.tournament import player_costs, tournament

    names = [name for name, _ in args.player]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise CliError(f"--player {repeated[0]} is given twice: give each strategy its own name")
    if args.format == "round-robin" and args.reference is not None:
        raise CliError("--reference is a ladder's: a round robin plays every pair")
    check_sequential_options(args)
    if args.out is not None:
        writable_folder(Path(args.out))
    started = time.perf_counter()
    frame = tournament(
        dict(args.player),
        args.deals,
        seed=args.seed,
        format=args.format,
        table_sizes=args.players,
        reference=args.reference,
        until_decided=sequential_test(args) if args.until_decided else None,
        look_every=LOOK_EVERY if args.look_every is None else args.look_every,
        cost_deals=args.cost_deals,
        cost_repeats=args.cost_repeats,
        threads=args.threads,
        out=args.out,
        progress=show_progress(args),
    )
    what = "until decided, at most" if args.until_decided else "of"
    print(
        f"{args.format} at {','.join(str(p) for p in args.players)} players, duels {what} {args.deals:,} deals, "
        f"seed {frame.attrs['seed']}; {time.perf_counter() - started:.0f} s\n"
    )
    print("A's edge over B, game points per deal with its 95% interval, and the verdict:\n")
    print(format_table(frame[["players", "a", "b", "deals", "edge", "edge_low", "edge_high", "verdict"]]))
    print("\nCost per deal in heuristic deals (CPU time, median of the rounds, 95% interval):\n")
    print(format_table(player_costs(frame).drop(columns="spec")))
    if args.out is not None:
        print(f"\ntables: {Path(args.out) / 'tournament.md'} and tournament.json beside it")
    return 0


def cmd_study(args: argparse.Namespace) -> int:
    """The main job: a contract sweep on the embedded defaults, then its report."""
    from tarotsim.report import write_report

    config = run_config(args)
    spec = run_spec(args, config, "sweep", contracts=CONTRACTS, seat=0)
    print(
        f"Sweeping {args.deals:,} deals: seat 0 takes each of the {len(CONTRACTS)} contracts on every deal "
        f"({describe_play(config)}); re-running this command resumes an interrupted run."
    )
    started = time.perf_counter()
    make_run(args, spec)
    folder = write_report(args.out, Path(args.out) / STUDY_REPORT)
    print(
        f"\nreport: {folder / 'report.html'} (Markdown: {folder / 'report.md'}); "
        f"{time.perf_counter() - started:.0f} s in all"
    )
    return 0


def cmd_match(args: argparse.Namespace) -> int:
    import pandas as pd

    from tarotsim.runs.simulate import simulate

    config = run_config(args)
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

    from tarotsim.bench.headline import headline

    result = headline(deals=args.deals, repeats=args.repeats, threads=args.threads)
    print(json.dumps(result.as_json(), indent=2) if args.json else result.text())
    return 0


def simulate_options(sim: argparse.ArgumentParser) -> None:
    """The options of ``tarotsim simulate``."""
    add_run_options(sim, out_required=False)
    add_config_options(sim)
    sim.set_defaults(func=cmd_simulate)


def study_options(study: argparse.ArgumentParser) -> None:
    """The options of ``tarotsim study``."""
    add_run_options(study, out_required=False, deals=1_000_000, out="runs/study")
    add_config_options(study)
    study.set_defaults(func=cmd_study)


def sweep_options(swp: argparse.ArgumentParser) -> None:
    """The options of ``tarotsim sweep``."""
    add_run_options(swp, out_required=True)
    swp.add_argument(
        "--taker",
        type=whole(0, 4),
        default=None,
        help="seat that takes every contract (default 0; also --seat K)",
    )
    swp.add_argument(
        "--contracts",
        type=name_list,
        default=CONTRACTS,
        help=f"contracts to play, comma-separated (default {','.join(CONTRACTS)})",
    )
    swp.add_argument(
        "--where",
        action="append",
        default=[],
        metavar="SEAT:RANGES",
        help="play only deals whose hands meet these ranges, as tarotsim deal reads them: "
        "'0:bouts=2,trumps=8-10' (seats are the table's: the taking seat is --taker, default 0)",
    )
    swp.add_argument(
        "--stratify",
        type=name_list,
        default=None,
        metavar="COLUMNS",
        help="split the deals into cells of these columns of the taking seat's hand, comma-separated "
        "(taker_bouts, taker_trumps, taker_kings), dealt in turn; records then carry a weight",
    )
    swp.add_argument(
        "--per-cell",
        type=positive_int,
        default=None,
        metavar="N",
        help="with --stratify: deals in each cell (in place of --deals)",
    )
    add_config_options(swp)
    swp.set_defaults(func=cmd_sweep)


def duel_options(duel_: argparse.ArgumentParser) -> None:
    """The options of ``tarotsim duel``."""
    duel_.add_argument(
        "--a",
        required=True,
        type=spec_text,
        metavar="SPEC",
        help="strategy A, e.g. play=pimc or play=mypkg.players:cautious (over --strategy)",
    )
    duel_.add_argument(
        "--b",
        required=True,
        type=spec_text,
        metavar="SPEC",
        help="strategy B, e.g. play=random (over --strategy)",
    )
    add_strategy_options(duel_, seats=False)
    duel_.add_argument("--players", type=int, default=4, help="players at the table: 3, 4 or 5 (default 4)")
    add_run_options(duel_, out_required=False)
    add_sequential_options(duel_)
    duel_.set_defaults(func=cmd_duel)


def add_sequential_options(parser: argparse.ArgumentParser) -> None:
    """``--until-decided`` and the options of its sequential test."""
    parser.add_argument(
        "--until-decided",
        action="store_true",
        help="stop as soon as a sequential test of A's edge is decided (--deals is then the cap): "
        "H0 edge <= E0 against H1 edge >= E1",
    )
    parser.add_argument(
        "--edge",
        type=edge_pair,
        default=None,
        metavar="E0,E1",
        help=f"with --until-decided: A's edges (points per deal) of H0 and H1 "
        f"(default {SPRT_EDGE[0]:g},{SPRT_EDGE[1]:g})",
    )
    for name, what in (("alpha", "accepting H1 when A's edge is E0"), ("beta", "accepting H0 when it is E1")):
        parser.add_argument(
            f"--{name}",
            type=error_rate,
            default=None,
            help=f"with --until-decided: the error rate of {what} (default {SPRT_ERROR_RATE:g})",
        )
    parser.add_argument(
        "--look-every",
        type=whole(1, MAX_CHUNK_DEALS),
        default=None,
        metavar="N",
        help=f"with --until-decided: deals between two looks of the test, and per chunk of --out (default {LOOK_EVERY:,})",
    )


def tournament_options(parser: argparse.ArgumentParser) -> None:
    """The options of ``tarotsim tournament``."""
    from tarotsim.base.defaults import COST_DEALS, COST_REPEATS, REFERENCE, TOURNAMENT_FORMATS

    parser.add_argument(
        "--player",
        action="append",
        required=True,
        type=player_entry,
        metavar="NAME=SPEC",
        help="a strategy and its name, e.g. greedy=play=greedy; repeat it, weakest first for a ladder",
    )
    parser.add_argument(
        "--format",
        choices=TOURNAMENT_FORMATS,
        default="ladder",
        help="ladder: each strategy against the one before it and against --reference; "
        "round-robin: every pair (default ladder)",
    )
    parser.add_argument(
        "--reference",
        type=spec_text,
        default=None,
        metavar="SPEC",
        help=f"a ladder's reference strategy (default {REFERENCE})",
    )
    parser.add_argument(
        "--players", type=table_sizes, default=(4,), help="table sizes, comma-separated: 3,4,5 (default 4)"
    )
    parser.add_argument(
        "--deals",
        type=positive_int,
        default=10_000,
        help="deals of each duel; with --until-decided, the most (default 10,000)",
    )
    parser.add_argument(
        "--seed", type=seed_number, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})"
    )
    add_sequential_options(parser)
    parser.add_argument(
        "--cost-deals",
        type=whole(2, MAX_CHUNK_DEALS),
        default=COST_DEALS,
        help=f"deals timed per strategy and round for its cost (default {COST_DEALS:,})",
    )
    parser.add_argument(
        "--cost-repeats",
        type=whole(1, 1000),
        default=COST_REPEATS,
        help=f"rounds of the cost's timing; 6 or more give it an interval (default {COST_REPEATS})",
    )
    parser.add_argument(
        "--threads", type=threads_number, default=None, help="threads of the duels (default: all cores)"
    )
    parser.add_argument(
        "--out",
        type=out_path,
        default=None,
        help="folder for tournament.json, tournament.md and each duel's run directory; "
        "re-run the same command to resume",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar, no compile notice")
    parser.set_defaults(func=cmd_tournament)


def match_options(match: argparse.ArgumentParser) -> None:
    """The options of ``tarotsim match``."""
    match.add_argument(
        "--deals", type=whole(1, MAX_MATCH_DEALS), default=8, help="deals in the match (default 8)"
    )
    match.add_argument(
        "--seed", type=seed_number, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})"
    )
    add_config_options(match)
    match.set_defaults(func=cmd_match)


def bench_options(bench: argparse.ArgumentParser) -> None:
    """The options of ``tarotsim bench``."""
    bench.add_argument(
        "--deals",
        type=whole(1, MAX_BENCH_DEALS),
        default=HEADLINE_DEALS,
        help=f"deals per timed run (default {HEADLINE_DEALS:,})",
    )
    bench.add_argument(
        "--repeats",
        type=whole(1, 1000),
        default=HEADLINE_REPEATS,
        help=f"interleaved rounds, each timing every figure once (default {HEADLINE_REPEATS})",
    )
    bench.add_argument(
        "--threads", type=threads_number, default=1, help="threads every figure runs on (default 1)"
    )
    bench.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    bench.set_defaults(func=cmd_bench)


def trace_options(trace: argparse.ArgumentParser) -> None:
    """The options of ``tarotsim trace``."""
    trace.add_argument(
        "--deals",
        type=whole(1, MAX_TRACE_DEALS),
        required=True,
        help=f"deals to trace (at most {MAX_TRACE_DEALS:,}: about 3 KB each)",
    )
    trace.add_argument("--seed", type=seed_number, required=True, help="random seed")
    trace.add_argument("--out", type=out_path, required=True, help="output file (.jsonl)")
    add_config_options(trace)
    trace.set_defaults(func=cmd_trace)
