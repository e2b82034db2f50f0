"""A run directory → a report folder: PNG figures, ``report.md`` and a standalone ``report.html``.

:func:`write_report` reads a run through :mod:`tarotsim.run.store`, draws the figures of
:mod:`tarotsim.report.figures`, and lays them out with the tables of :mod:`tarotsim.analysis`
in a :class:`~tarotsim.report.document.Document`, written once as Markdown and once as HTML.
Both documents show the same text, tables and figures; the figures are PNG files beside them
in the report folder, referenced by relative path (``src="heatmap_garde.png"``), so the folder
can be moved or published as a whole.

A ``sweep`` run (every deal played under every contract by the same seat) gets every figure.
A ``simulate`` run (one contract per deal, chosen by bidding) has no like-for-like comparison
of contracts, so the best-contract map and the hand-point thresholds are left out, and the
report says so.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pandas as pd

from tarotsim import analysis
from tarotsim.analysis.loading import check_min_n, contracts_present, played_rows
from tarotsim.report.document import Code, Document
from tarotsim.report.figures import (
    Drawn,
    attack_margin_histogram,
    best_contract_map,
    events_chart,
    hand_points_plot,
    success_heatmap,
    success_lines,
    taker_score_histogram,
)
from tarotsim.report.style import DPI, contract_name, deals_text
from tarotsim.run import store

REPORT_COLUMNS = (
    "deal", "contract", "thrown_in", "taker_trumps", "taker_bouts", "hand_points", "attack_points",
    "attack_bouts", "made", "margin", "taker_score", "petit_au_bout", "chelem", "chelem_announced",
    "poignees", "poignee_points",
)
"""The record columns a report reads (the rest of a run's columns are not loaded)."""


def read_run(run_dir: str | os.PathLike[str]) -> tuple[dict[str, Any], pd.DataFrame]:
    """The manifest and the records of a run directory.

    Raises
    ------
    ValueError
        If `run_dir` is not a run directory (no readable ``manifest.json`` describing a
        run, or no record chunks), or if the run holds no played deal.
    """
    root = Path(run_dir)
    manifest = store.read_manifest(root)
    records = analysis.load_records(root, columns=REPORT_COLUMNS)
    if not len(_played(records)):
        raise ValueError(
            f"run {str(root)!r} has no played deals: all {records['deal'].nunique()} deals were "
            "thrown in, so there is nothing to report"
        )
    return manifest, records


def _played(df: pd.DataFrame) -> pd.DataFrame:
    """Rows of played deals (see :func:`tarotsim.analysis.loading.played_rows`)."""
    return played_rows(df, what="the report")


def provenance_table(manifest: dict[str, Any], records: pd.DataFrame | None = None) -> pd.DataFrame:
    """Where the run comes from, as a two-column table (``field``, ``value``, both text).

    Seed, deal count, kind, contracts and seat (sweeps), policies, versions, wall time and
    whether the run is complete; with `records`, the played and thrown-in deal counts.
    """
    run = manifest.get("run", {})
    config = run.get("config", {}) or {}
    policy = config.get("policy")
    rows: list[tuple[str, object]] = [
        ("kind", run.get("kind")),
        ("seed", run.get("seed")),
        ("deals", f"{run.get('deals', 0):,}"),
    ]
    if records is not None:
        played = _played(records)
        thrown = records.loc[~records["deal"].isin(played["deal"])]
        reasons = thrown.drop_duplicates("deal")["thrown_in"].astype(object).value_counts()
        rows.append(("played deals", f"{played['deal'].nunique():,}"))
        rows.append(("records (rows)", f"{len(records):,}"))
        rows.append(
            (
                "thrown in",
                ", ".join(f"{k.replace('_', ' ')} {int(v):,}" for k, v in reasons.items()) or "none",
            )
        )
    if run.get("kind") == "sweep":
        rows.append(("contracts", ", ".join(run.get("contracts", []))))
        rows.append(("taking seat", run.get("seat")))
    rows += [
        ("players", config.get("players")),
        ("card play", policy),
        ("attack card play", config.get("attack_policy") or policy),
        ("defence card play", config.get("defence_policy") or policy),
        ("bid policy", config.get("bid_policy")),
        ("bid thresholds", ", ".join(map(str, config.get("bid_thresholds", []) or []))),
        ("écart policy", config.get("ecart_policy")),
        ("poignée policy", config.get("poignee_policy")),
        ("chelem policy", config.get("chelem_policy")),
        ("chunk size (deals)", f"{run.get('chunk_deals', 0):,}"),
    ]
    for name, version in (manifest.get("versions") or {}).items():
        rows.append((f"{name} version", version))
    wall = manifest.get("wall_time_s")
    rows.append(("wall time (s)", "" if wall is None else f"{float(wall):.1f}"))
    rows.append(("complete", "yes" if manifest.get("complete") else "no"))
    return pd.DataFrame(
        {"field": [r[0] for r in rows], "value": ["" if r[1] is None else str(r[1]) for r in rows]}
    )


def _add_figure(doc: Document, drawn: Drawn, out_dir: Path, name: str) -> None:
    """Save `drawn` as the PNG file `name` in `out_dir` and add it to `doc`."""
    drawn.figure.savefig(out_dir / name, dpi=DPI, facecolor="white")
    title = drawn.figure.get_suptitle() or drawn.figure.axes[0].get_title()
    doc.figure(name, drawn.caption, title)


def write_report(
    run_dir: str | os.PathLike[str],
    out_dir: str | os.PathLike[str],
    *,
    min_n: int = 30,
) -> Path:
    """Write the report of a run: PNG figures, ``report.md`` and ``report.html``.

    Parameters
    ----------
    run_dir : str or os.PathLike
        A run directory (``manifest.json`` and ``chunks/chunk-*.parquet``) of a ``sweep``
        or a ``simulate`` run.
    out_dir : str or os.PathLike
        The report folder, created if needed; files of the same names are overwritten.
    min_n : int, optional
        Fewest played deals a cell (bouts × trumps, or a hand-point bin) needs to be
        counted in thresholds and drawn as a full cell or line point. Default 30.

    Returns
    -------
    pathlib.Path
        The report folder. It holds ``report.md``, ``report.html`` (standalone: inline CSS,
        no script) and the PNG figures they both reference by relative path:
        ``heatmap_<contract>.png`` and ``success_<contract>.png`` for each contract
        played, ``best_contract.png`` (sweeps only), ``hand_points.png``,
        ``taker_score.png``, ``attack_margin.png`` and ``events.png``.

    Raises
    ------
    ValueError
        If `run_dir` is not a run directory or holds no played deal, or `min_n` < 1.
    """
    check_min_n(min_n)
    manifest, records = read_run(run_dir)
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ValueError(f"cannot create report folder {str(out)!r}: {err.strerror or err}") from None
    run = manifest["run"]
    kind = run["kind"]
    config = run.get("config", {})
    played = _played(records)
    contracts = contracts_present(played)
    sweep = kind == "sweep"
    n_played = played["deal"].nunique()

    doc = Document(f"tarotsim report: {kind} run, seed {run.get('seed')}, {deals_text(int(run.get('deals', 0)))}")
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

    doc.heading(2, "Provenance")
    doc.table(provenance_table(manifest, records))

    doc.heading(2, "Success rate by bouts and trump length")
    doc.paragraph(f"Cells with fewer than {min_n} played deals are hatched grey and marked n<{min_n}.")
    for con in contracts:
        _add_figure(doc, success_heatmap(played, con, min_n=min_n), out, f"heatmap_{con}.png")
    doc.heading(2, "Success rate against trump length")
    for con in contracts:
        _add_figure(doc, success_lines(played, con, min_n=min_n), out, f"success_{con}.png")
    doc.heading(3, "Thresholds")
    doc.paragraph(
        f"Smallest trump length whose success rate reaches 50% in a cell of at least {min_n} "
        "deals, per contract and bout count; ",
        Code("confident"),
        " when the lower end of the 95% Wilson interval reaches 50% too.",
    )
    doc.table(analysis.thresholds(played, 0.5, min_n))

    doc.heading(2, "Best contract")
    if sweep:
        drawn = best_contract_map(played, min_n=min_n)
        _add_figure(doc, drawn, out, "best_contract.png")
        doc.table(drawn.data, floatfmt=".1f")
    else:
        doc.paragraph(
            "Skipped: the best-contract map needs a sweep run (every deal played under every "
            "contract); in a simulate run the contracts are played on different hands."
        )
        skipped.append("best-contract map and table")

    doc.heading(2, "Hand points")
    _add_figure(doc, hand_points_plot(played, min_n=min_n), out, "hand_points.png")
    if sweep:
        doc.paragraph(
            "Where each contract's mean score turns positive and where it is the best choice, "
            "in hand points, against the published bands:"
        )
        doc.table(analysis.hand_points_thresholds(played, None, min_n), floatfmt=".0f")
    else:
        doc.paragraph(
            "In a simulate run each contract's line covers only the hands the bidding chose it "
            "for, so the lines are not a like-for-like comparison. Skipped: the hand-point "
            "thresholds table, which needs a sweep run."
        )
        skipped.append("hand-point thresholds table")

    doc.heading(2, "Distributions")
    _add_figure(doc, taker_score_histogram(played), out, "taker_score.png")
    _add_figure(doc, attack_margin_histogram(played), out, "attack_margin.png")
    _add_figure(doc, events_chart(played), out, "events.png")
    if skipped:
        doc.heading(2, "Left out")
        doc.paragraph(f"This is a {kind} run, so these parts were left out: {'; '.join(skipped)}.")

    (out / "report.md").write_text(doc.markdown(), encoding="utf-8")
    (out / "report.html").write_text(doc.html(), encoding="utf-8")
    return out
