"""A run directory → a report folder: PNG figures, ``report.md`` and a standalone ``report.html``.

[`write_report`][tarotsim.report.assembly.write_report] reads a run once, chunk by chunk (`tarotsim.report.summary`), draws
the figures of `tarotsim.report.figures` and `tarotsim.report.distributions` from
its tables, and lays them out with those tables in a
[`Document`][tarotsim.report.document.Document], written once as Markdown and once as HTML.
Both documents show the same text, tables and figures; the figures are PNG files beside them
in the report folder, referenced by relative path (``src="heatmap_garde.png"``), so the folder
can be moved or published as a whole.

The report opens with its findings and ends with the run's provenance. A ``sweep`` run (every
deal played under every contract by the same seat) gets every figure.
A ``simulate`` run (one contract per deal, chosen by bidding) has no like-for-like comparison
of contracts, so the best-contract map and the hand-point thresholds are left out, and the
report says so.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pandas as pd

from tarotsim.analysis.hand_points import N_BOOT
from tarotsim.analysis.loading import check_min_n
from tarotsim.base.files import folder_written, write_atomic, write_text_atomic
from tarotsim.report import findings
from tarotsim.report.distributions import (
    draw_attack_margin_histogram,
    draw_events_chart,
    draw_taker_score_histogram,
)
from tarotsim.report.document import Code, Document
from tarotsim.report.figures import (
    Drawn,
    draw_best_contract_map,
    draw_hand_points_plot,
    draw_success_heatmap,
    draw_success_lines,
)
from tarotsim.report.glossary import words
from tarotsim.report.provenance import made_here, provenance_table
from tarotsim.report.style import DPI, contract_name, deals_text, drop_caption
from tarotsim.report.summary import RunSummary, summarise_run


def _add_figure(doc: Document, drawn: Drawn, out_dir: Path, name: str) -> None:
    """Save `drawn` as the PNG file `name` in `out_dir` and add it to `doc`."""
    drop_caption(drawn.figure)  # the document writes it under the figure: each caption once
    write_atomic(
        out_dir / name, lambda tmp: drawn.figure.savefig(tmp, format="png", dpi=DPI, facecolor="white")
    )
    title = drawn.figure.get_suptitle() or drawn.figure.axes[0].get_title()
    doc.figure(name, drawn.caption, title)


def write_report(
    run_dir: str | os.PathLike[str],
    out_dir: str | os.PathLike[str],
    *,
    min_n: int = 30,
    client: Any = None,
) -> Path:
    """Write the report of a run: PNG figures, ``report.md`` and ``report.html``.

    The report opens with its findings (thresholds, the best contract by hand shape, the
    published bands set against the run on the count each was made on, each with its
    interval), then why contracts that are the same play are shown once, what the players
    are and how that biases the numbers, then the tables and figures behind the findings,
    and ends with the run's provenance.

    Parameters
    ----------
    run_dir : str or os.PathLike
        A run directory (``manifest.json`` and ``chunks/chunk-*.parquet``) of a ``sweep``
        or a ``simulate`` run.
    out_dir : str or os.PathLike
        The report folder, created if needed; files of the same names are overwritten.
        Reports on the players (``strength.md``, ``bias.md``) in it or beside it are linked.
    min_n : int, optional
        Fewest played deals a cell (bouts × trumps, or a hand-point bin) needs to be
        counted in thresholds and drawn as a full cell or line point. Default 30.
    client : distributed.Client or str, optional
        Reduce the run's chunks on this Dask cluster (a client, or a scheduler address);
        by default they are read here. Either way the run is read once, chunk by chunk
        ([`summarise_run`][tarotsim.report.summary.summarise_run]), in memory that does not grow
        with its size.

    Returns
    -------
    pathlib.Path
        The report folder. It holds ``report.md``, ``report.html`` (standalone: inline CSS,
        no script; tables scroll inside their own box, so the page never scrolls sideways)
        and the PNG figures they both reference by relative path:
        ``heatmap_<contract>.png`` and ``success_<contract>.png`` once per play (contracts
        played identically share the lowest one's), ``best_contract.png`` (sweeps only),
        ``hand_points.png``, ``taker_score.png``, ``attack_margin.png`` and ``events.png``.

    Raises
    ------
    ValueError
        If `run_dir` is not a run directory or holds no played deal, `min_n` < 1, or the
        report cannot be written (what it wrote is then removed again).
    """
    check_min_n(min_n)
    summary = summarise_run(run_dir, min_n, client=client)
    with folder_written(out_dir, what="the report folder") as out:  # a failed write leaves nothing
        _write_report(summary, run_dir, out, min_n)
    return out


def _write_report(summary: RunSummary, run_dir: str | os.PathLike[str], out: Path, min_n: int) -> None:
    """The figures, ``report.md`` and ``report.html`` of `write_report`, into ``out``."""
    manifest = summary.manifest
    run = manifest["run"]
    kind = run["kind"]
    config = run.get("config", {}) or {}
    contracts = summary.contracts
    sweep = kind == "sweep"
    n_played = summary.counts["played_deals"]
    same = summary.same_play
    groups = findings.same_play_groups(contracts, same)

    doc = Document(
        f"tarotsim report: {kind} run, seed {run.get('seed')}, {deals_text(int(run.get('deals', 0)))}"
    )
    doc.heading(1, doc.title)
    policy = Code(f"{config.get('policy')}")
    if sweep:
        doc.paragraph(
            f"Every deal was played under each of {', '.join(contract_name(c) for c in contracts)} "
            f"by seat {run.get('seat')}, with ",
            policy,
            " card play: contracts are compared on the "
            f"same hands. {n_played:,} deals were played; thrown-in deals are left out everywhere.",
        )
    else:
        doc.paragraph(
            "Each deal was bid and played once (",
            policy,
            " card play, ",
            Code(f"{config.get('bid_policy')}"),
            " bidding): each contract is seen only on "
            f"the hands the bidding gave it. {n_played:,} deals were played; thrown-in deals "
            "(all passed or petit sec) are left out everywhere.",
        )
    if not manifest.get("complete", False):
        doc.paragraph("Warning: this run is not complete; the report covers the chunks finished so far.")
    skipped: list[str] = []

    fitted, fit_error, best = summary.fitted, summary.fit_error, summary.best
    points, fitted_points = summary.points, summary.fitted_points

    doc.heading(2, "What this run says")
    doc.paragraph(
        "Answers first; each number is made further down, where its method is said. Intervals are 95%."
    )
    doc.heading(3, "When each contract pays, in trump length")
    if fitted is not None:
        doc.paragraph(
            "Trump length from which each contract is made half the time, and from which its mean "
            "score beats passing (break-even), by the taker's bouts: fitted curves, delta-method "
            "intervals; > n: not reached up to the longest length fitted, ≤ n: reached already at "
            "the shortest."
        )
        doc.table(findings.threshold_grid(fitted, same), in_words=True)
    else:
        doc.paragraph(f"Not fitted: {fit_error}.")
    if best is not None:
        doc.heading(3, "Best choice by hand shape")
        doc.paragraph(
            "Highest mean taker score (pass = 0) in each cell of bouts and trump length; undecided "
            "where the paired 95% interval of best − runner-up includes 0, or the two are the same play:"
        )
        doc.bullets(*findings.best_by_shape(best, min_n))
        doc.heading(3, "Against Chavey's published bands")
        doc.bullets(*findings.band_findings(points, fitted_points, same, contracts))
        _auction_tables(doc, summary)
    if same:
        doc.paragraph(*findings.same_play_paragraph(same))
    doc.paragraph(*findings.players_paragraph(config, kind, out))

    doc.heading(2, "Thresholds in trump length")
    doc.paragraph(
        f"For each contract and bout count, trump lengths holding at least {min_n} deals are fitted "
        "with statsmodels: a logistic curve of success (binomial GLM) and a weighted least-squares "
        "curve of the mean taker score (each length weighted by its deals over its score variance), "
        f"polynomials of degree up to 3. \u201c{words('threshold').capitalize()}\u201d is where the fitted "
        f"success crosses 50% going up, \u201c{words('break_even')}\u201d where the fitted mean score "
        "crosses 0 (passing). Intervals are 95%, from the delta method on each fit's covariance, "
        "widened when the curve misses the cells by more than their noise. The note says what was "
        "not found and why.",
    )
    if fitted is not None:
        doc.table(fitted, floatfmt=".2f")
    else:
        doc.paragraph(f"Not fitted: {fit_error}.")

    doc.heading(2, "Success rate by bouts and trump length")
    doc.paragraph(f"Cells with fewer than {min_n} played deals are hatched grey and marked n<{min_n}.")
    for group in groups:
        _add_figure(
            doc,
            draw_success_heatmap(summary.success, group[0], min_n=min_n, name=_play_name(group)),
            out,
            f"heatmap_{group[0]}.png",
        )
    doc.heading(2, "Success rate against trump length")
    for group in groups:
        _add_figure(
            doc,
            draw_success_lines(summary.success, group[0], min_n=min_n, name=_play_name(group)),
            out,
            f"success_{group[0]}.png",
        )

    doc.heading(2, "Best contract")
    if best is not None:
        drawn = draw_best_contract_map(best, min_n=min_n)
        _add_figure(doc, drawn, out, "best_contract.png")
        doc.paragraph(
            f"Per cell: \u201c{words('diff')}\u201d is the mean of the best choice's score minus the "
            "runner-up's over the cell's deals (the same deals under both), with its 95% normal "
            f"interval; the cell is decided when that interval lies above 0, it holds at least {min_n} "
            "deals and the two are not the same play.",
        )
        doc.table(drawn.data, floatfmt=".1f")
    else:
        doc.paragraph(
            "Skipped: the best-contract map needs a sweep run (every deal played under every "
            "contract); in a simulate run the contracts are played on different hands."
        )
        skipped.append("best-contract map and table")

    doc.heading(2, "Hand points")
    _add_figure(doc, draw_hand_points_plot(summary.hand_points, min_n=min_n), out, "hand_points.png")
    if sweep:
        doc.paragraph(
            "Where each contract's mean score turns positive and where it is the best choice, "
            "in bins of 2 hand points, against the published bands made on the same count "
            "(a band made on the other count is left blank and the note says why). Intervals: "
            f"percentiles over {N_BOOT} resamples of the bins' mean scores, each bin's means drawn "
            "from their normal law over its deals (the large-sample Bayesian bootstrap; fixed seed), "
            "so they move by whole bins."
        )
        for scale, table in points.items():
            doc.paragraph(f"On the count of {words(scale)}:")
            doc.table(table, floatfmt=".0f")
    else:
        doc.paragraph(
            "In a simulate run each contract's line covers only the hands the bidding chose it "
            "for, so the lines are not a like-for-like comparison. Skipped: the hand-point "
            "thresholds table, which needs a sweep run."
        )
        skipped.append("hand-point thresholds table")

    doc.heading(2, "Distributions")
    _add_figure(doc, draw_taker_score_histogram(summary.scores, n_played), out, "taker_score.png")
    _add_figure(doc, draw_attack_margin_histogram(summary.ends, n_played), out, "attack_margin.png")
    _add_figure(doc, draw_events_chart(summary.events, n_played), out, "events.png")
    if skipped:
        doc.heading(2, "Left out")
        doc.paragraph(f"This is a {kind} run, so these parts were left out: {'; '.join(skipped)}.")

    doc.heading(2, "Words used")
    doc.paragraph("What the tables' headers mean, and the column of the records or tables each one shows.")
    doc.glossary()
    doc.heading(2, "Provenance")
    doc.paragraph(
        "The run this report reads, the command that makes it again, and where the report was made."
    )
    provenance = provenance_table(manifest, counts=summary.counts, out=str(run_dir))
    doc.table(pd.concat([provenance, made_here()], ignore_index=True), in_words=True)

    write_text_atomic(out / "report.md", doc.markdown())
    write_text_atomic(out / "report.html", doc.html())


def _play_name(group: list[str]) -> str | None:
    """The display name of contracts played identically (``None`` for a contract alone)."""
    if len(group) == 1:
        return None
    return " and ".join(contract_name(c) for c in group) + " (the same play)"


def _auction_tables(doc: Document, summary: RunSummary) -> None:
    """A sweep's mean scores by the other seats' wishes and by the taking seat's turn to speak."""
    if summary.by_others_bid is None or summary.by_position is None:
        return
    doc.heading(3, "When no other seat would bid, and by turn to speak")
    doc.paragraph(
        "The sweep's seat takes every deal, but in a real auction another seat could outbid it. "
        f"The {words('others_bid')} is the highest contract any other seat would bid on its own hand "
        "under its bid policy (before or after the taking seat); on the pass row nobody else would "
        "bid, so the deal is the taking seat's to take whatever its turn. Mean taker score "
        "(pass = 0), 95% interval:",
    )
    by_bid = findings.auction_table(summary.by_others_bid, "others_bid")
    doc.table(findings.auction_headers(by_bid), in_words=True, terms=by_bid.columns)
    doc.paragraph(
        "By the taking seat's turn to speak (0 speaks first and leads the first trick unless a "
        f"chelem is announced), all deals; \u201c{words('uncontested')}\u201d is the share of them on "
        "which no other seat would bid:",
    )
    by_turn = findings.auction_table(summary.by_position, "speaker_position", uncontested=summary.uncontested)
    doc.table(findings.auction_headers(by_turn), in_words=True, terms=by_turn.columns)
