"""The commands that read run directories: ``table``, ``thresholds``, ``compare`` and ``report``.

`tarotsim.cli.COMMANDS` lists them (``NAME_options`` adds their options) and `tarotsim.cli.main`
handles their errors like every command's: one line, exit status 2.
"""

from __future__ import annotations

import argparse
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tarotsim.cli.common import (
    STUDY_REPORT,
    CliError,
    add_output_options,
    add_scheduler_option,
    emit,
    name_list,
    out_path,
    positive_int,
    proportion,
    table_file,
    writable,
    writable_folder,
)

if TYPE_CHECKING:
    import pandas as pd

DEFAULT_BY = ("taker_bouts", "taker_trumps")


def _run(directory: str) -> dict[str, Any]:
    """The identity of the run in ``directory`` (its manifest's ``run``), checked."""
    from tarotsim.runs.store import read_manifest

    return dict(read_manifest(directory)["run"])


def _not_a_duel(directory: str, command: str) -> None:
    """Refuse a duel's run directory for a command that reads simulate and sweep runs."""
    if _run(directory)["kind"] == "duel":
        raise CliError(
            f"{directory} holds a duel: {command}; read a duel by strategy and role with "
            f"tarotsim table {directory} or tarotsim report {directory} --out FOLDER"
        )


def _enough(table: pd.DataFrame, min_n: int, column: str = "n") -> tuple[pd.DataFrame, list[str]]:
    """The rows of ``table`` whose count ``column`` is at least ``min_n``, and a note of what was left out."""
    if column not in table.columns:
        return table, []
    keep = table[column].fillna(0) >= min_n
    left = int((~keep).sum())
    if not left:
        return table, []
    note = f"({left} rows of fewer than {min_n:,} deals left out; --min-n 1 shows them)"
    return table[keep].reset_index(drop=True), [note]


def _print_duel(args: argparse.Namespace) -> int:
    from tarotsim.contests.duel import DuelResult
    from tarotsim.contests.duel_report import duel_tables

    if args.by is not None or args.contract is not None:
        raise CliError(
            f"{args.run} holds a duel, whose tables are by role and by contract, A against B: "
            "--by and --contract apply to simulate and sweep runs"
        )
    result = DuelResult.from_run(args.run)
    if args.format in ("text", "md"):
        print(f"{result.summary()}\n")
    emit(duel_tables(result, terminal=args.format == "text"), args.out, fmt=args.format, wide=args.wide)
    return 0


def _check_out(args: argparse.Namespace) -> None:
    """A table command's ``--out``, checked before the run is read."""
    if args.out is not None:
        writable(Path(args.out))


def cmd_table(args: argparse.Namespace) -> int:
    from tarotsim.analysis import success_table

    _check_out(args)
    if _run(args.run)["kind"] == "duel":
        return _print_duel(args)
    by = args.by or DEFAULT_BY
    table = success_table(args.run, by=by, contract=args.contract, client=args.scheduler)
    shown, notes = _enough(table, args.min_n)
    if args.format == "text":
        notes.append(f"next: tarotsim thresholds {args.run}; tarotsim report {args.run} --out FOLDER")
    title = f"Success by {', '.join(by)}: rate (95% Wilson interval), mean taker score (points)"
    if table.attrs.get("weighted"):
        title += (
            "\nweighted by each deal's cell probability (a stratified sweep): n and made are effective "
            "counts, deals the deals played"
        )
    emit([(shown, title)], args.out, fmt=args.format, wide=args.wide, notes=notes)
    return 0


def cmd_thresholds(args: argparse.Namespace) -> int:
    from tarotsim.analysis import threshold_tables

    _check_out(args)
    _not_a_duel(args.run, "bidding thresholds are read from a sweep (tarotsim sweep) or a simulate run")
    tables = threshold_tables(args.run, args.min_rate, args.min_n, client=args.scheduler)
    thresholds, notes = _enough(tables.thresholds, args.min_n, "n_total")
    outputs = [
        (
            thresholds,
            f"Trump length at which each contract is made {args.min_rate:.0%} of the time (threshold)\n"
            "and scores more than passing (break_even), by bouts: fitted curves, 95% intervals",
        ),
    ]
    if tables.best is not None and tables.hand_points is not None:
        best, left = _enough(tables.best, args.min_n)
        notes += left
        outputs.append((best, "Best contract by bouts and trump length"))
        outputs.append(
            (tables.hand_points, "Chavey count where each contract pays, against the published bands")
        )
    else:
        notes.append(f"(best contract and hand-point thresholds need a sweep run: {tables.not_compared})")
    emit(outputs, args.out, fmt=args.format, wide=args.wide, notes=notes)
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    from tarotsim.analysis import compare

    _check_out(args)
    for run in (args.run_a, args.run_b):
        _not_a_duel(
            run,
            "compare pairs two simulate or sweep runs of the same deals; a duel compares its strategies itself",
        )
    table = compare(args.run_a, args.run_b, client=args.scheduler)
    title = f"{args.run_a} against {args.run_b} (paired, a \u2212 b, 95% intervals)"
    emit([(table, title)], args.out, fmt=args.format, wide=args.wide)
    return 0


def _check_report_folder(run: str, out: str, force: bool) -> None:
    """Refuse a report folder inside the run directory (but its ``report`` folder), a file,
    or a folder that holds files already, unless ``force``."""
    run_dir, folder = Path(run).resolve(), Path(out).resolve()
    if folder == run_dir or (
        run_dir in folder.parents and folder.relative_to(run_dir).parts[0] != STUDY_REPORT
    ):
        raise CliError(
            f"--out {out} is inside the run directory {run}: write the report elsewhere "
            f"(or into {Path(run) / STUDY_REPORT}, where study puts it)"
        )
    if folder.exists() and not folder.is_dir():
        raise CliError(f"--out {out} is a file; the report needs a folder")
    writable_folder(Path(out))
    if folder.is_dir() and any(folder.iterdir()) and not force:
        raise CliError(
            f"--out {out} already holds files (a report?): give --force to write over them, "
            "or choose another folder"
        )


def cmd_report(args: argparse.Namespace) -> int:
    _check_report_folder(args.run, args.out, args.force)
    if _run(args.run)["kind"] == "duel":
        from tarotsim.contests.duel import DuelResult
        from tarotsim.contests.duel_report import write_duel_report

        folder = write_duel_report(DuelResult.from_run(args.run), args.out, run=args.run)
        print(f"duel report written to {folder / 'duel.html'} (and duel.md beside it)")
        return 0
    from tarotsim.report import write_report

    # small runs make the fits warn (a cell without spread); the report says what it could not fit
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        warnings.filterwarnings("ignore", module="statsmodels")
        folder = write_report(args.run, args.out, min_n=args.min_n, client=args.scheduler)
    print(f"report written to {folder / 'report.html'} (and report.md beside it)")
    return 0


def table_options(table: argparse.ArgumentParser) -> None:
    """The options of ``tarotsim table``."""
    table.add_argument("run", help="run directory")
    table.add_argument(
        "--by",
        type=name_list,
        default=None,
        help=f"columns to group by, comma-separated (default {','.join(DEFAULT_BY)})",
    )
    table.add_argument("--contract", default=None, help="only this contract")
    table.add_argument(
        "--out", type=table_file, default=None, help="also write the table to FILE.csv or FILE.md"
    )
    add_output_options(table, min_n=True)
    add_scheduler_option(table)
    table.set_defaults(func=cmd_table)


def thresholds_options(thr: argparse.ArgumentParser) -> None:
    """The options of ``tarotsim thresholds``."""
    thr.add_argument("run", help="run directory (a sweep gives best contracts too)")
    thr.add_argument(
        "--min-rate",
        type=proportion,
        default=0.5,
        help="success rate to reach, between 0 and 1 (default 0.5)",
    )
    thr.add_argument(
        "--min-n", type=positive_int, default=30, help="fewest deals a cell needs to be shown (default 30)"
    )
    thr.add_argument(
        "--out",
        type=table_file,
        default=None,
        help="also write the tables to FILE.csv (one file per table) or FILE.md",
    )
    add_output_options(thr)
    add_scheduler_option(thr)
    thr.set_defaults(func=cmd_thresholds)


def compare_options(cmp_: argparse.ArgumentParser) -> None:
    """The options of ``tarotsim compare``."""
    cmp_.add_argument("run_a", help="run directory A")
    cmp_.add_argument("run_b", help="run directory B")
    cmp_.add_argument(
        "--out", type=table_file, default=None, help="also write the table to FILE.csv or FILE.md"
    )
    add_output_options(cmp_)
    add_scheduler_option(cmp_)
    cmp_.set_defaults(func=cmd_compare)


def report_options(rep: argparse.ArgumentParser) -> None:
    """The options of ``tarotsim report``."""
    rep.add_argument("run", help="run directory (a sweep gives the best-contract map too)")
    rep.add_argument(
        "--out",
        type=out_path,
        required=True,
        help="report folder to write (report.md, report.html, PNG figures), outside the run directory",
    )
    rep.add_argument("--force", action="store_true", help="write over the files of an existing report folder")
    rep.add_argument(
        "--min-n", type=positive_int, default=30, help="fewest deals a cell needs to be shown (default 30)"
    )
    add_scheduler_option(rep)
    rep.set_defaults(func=cmd_report)
