"""The commands that read run directories: ``table``, ``thresholds``, ``compare`` and ``report``.

:data:`tarotsim.cli.COMMANDS` lists them (``NAME_options`` adds their options) and :func:`tarotsim.cli.main`
handles their errors like every command's: one line, exit status 2.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tarotsim.cli.common import STUDY_REPORT, CliError, add_scheduler_option, emit, positive_int, table_file


def cmd_table(args: argparse.Namespace) -> int:
    from tarotsim.analysis import success_table

    by = tuple(c.strip() for c in args.by.split(",") if c.strip())
    table = success_table(args.run, by=by, contract=args.contract, client=args.scheduler)
    emit(table, args.out, f"Contract success by {', '.join(by)}")
    return 0


def cmd_thresholds(args: argparse.Namespace) -> int:
    from tarotsim.analysis import threshold_tables

    tables = threshold_tables(args.run, args.min_rate, args.min_n, client=args.scheduler)
    outputs = [
        (
            tables.thresholds,
            f"Trump length at which each contract is made {args.min_rate:.0%} of the time (threshold) and "
            "its mean score beats passing (break_even), by bouts: fitted curves, 95% intervals",
        ),
    ]
    if tables.best is not None and tables.hand_points is not None:
        outputs.append((tables.best, "Best contract by bouts and trump length"))
        outputs.append(
            (tables.hand_points, "Chavey count where each contract pays, against the published bands")
        )
    else:
        print(f"(best contract and hand-point thresholds need a sweep run: {tables.not_compared})\n")
    for index, (table, title) in enumerate(outputs):
        out = args.out
        if out is not None and out.endswith(".csv") and index:
            out = out[: -len(".csv")] + f"-{index}.csv"
        emit(table, out, title, append=index > 0)
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    from tarotsim.analysis import compare

    table = compare(args.run_a, args.run_b, client=args.scheduler)
    emit(table, args.out, f"{args.run_a} against {args.run_b} (paired, a - b, 95% intervals)")
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
    if folder.is_dir() and any(folder.iterdir()) and not force:
        raise CliError(
            f"--out {out} already holds files (a report?): give --force to write over them, "
            "or choose another folder"
        )


def cmd_report(args: argparse.Namespace) -> int:
    from tarotsim.report import write_report

    _check_report_folder(args.run, args.out, args.force)
    folder = write_report(args.run, args.out, min_n=args.min_n, client=args.scheduler)
    print(f"report written to {folder / 'report.html'} (and report.md beside it)")
    return 0


def table_options(table: argparse.ArgumentParser) -> None:
    """The options of ``tarotsim table``."""
    table.add_argument("run", help="run directory")
    table.add_argument(
        "--by",
        default="taker_bouts,taker_trumps",
        help="columns to group by (default taker_bouts,taker_trumps)",
    )
    table.add_argument("--contract", default=None, help="only this contract")
    table.add_argument(
        "--out", type=table_file, default=None, help="also write the table to FILE.csv or FILE.md"
    )
    add_scheduler_option(table)
    table.set_defaults(func=cmd_table)


def thresholds_options(thr: argparse.ArgumentParser) -> None:
    """The options of ``tarotsim thresholds``."""
    thr.add_argument("run", help="run directory (a sweep gives best contracts too)")
    thr.add_argument("--min-rate", type=float, default=0.5, help="success rate to reach (default 0.5)")
    thr.add_argument("--min-n", type=int, default=30, help="fewest deals a cell needs (default 30)")
    thr.add_argument(
        "--out",
        type=table_file,
        default=None,
        help="also write the tables to FILE.csv (one file per table) or FILE.md",
    )
    add_scheduler_option(thr)
    thr.set_defaults(func=cmd_thresholds)


def compare_options(cmp_: argparse.ArgumentParser) -> None:
    """The options of ``tarotsim compare``."""
    cmp_.add_argument("run_a", help="run directory A")
    cmp_.add_argument("run_b", help="run directory B")
    cmp_.add_argument(
        "--out", type=table_file, default=None, help="also write the table to FILE.csv or FILE.md"
    )
    add_scheduler_option(cmp_)
    cmp_.set_defaults(func=cmd_compare)


def report_options(rep: argparse.ArgumentParser) -> None:
    """The options of ``tarotsim report``."""
    rep.add_argument("run", help="run directory (a sweep gives the best-contract map too)")
    rep.add_argument(
        "--out",
        required=True,
        help="report folder to write (report.md, report.html, PNG figures), outside the run directory",
    )
    rep.add_argument("--force", action="store_true", help="write over the files of an existing report folder")
    rep.add_argument(
        "--min-n", type=positive_int, default=30, help="fewest deals a cell needs to be shown (default 30)"
    )
    add_scheduler_option(rep)
    rep.set_defaults(func=cmd_report)
