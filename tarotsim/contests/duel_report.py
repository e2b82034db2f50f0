"""A duel's small report: A's edge and the scores by role with intervals (a figure), and the tables.

`write_duel_report` writes ``duel.md``, a standalone ``duel.html`` and the figure
``edge_by_role.png`` into a folder, from a [`DuelResult`][tarotsim.contests.duel.DuelResult], with the
document model of `tarotsim.report.document` and the figure helpers of
`tarotsim.report.style`.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from tarotsim.report.document import Code, Document
from tarotsim.report.figures import Drawn
from tarotsim.report.glossary import interval, number
from tarotsim.report.provenance import field_table, made_here
from tarotsim.report.style import DPI, deals_text, drop_caption, new_figure, write_caption

if TYPE_CHECKING:
    from tarotsim.contests.duel import DuelResult

FIGURE_FILE = "edge_by_role.png"
_ROLES_SHOWN = ("taker", "partner", "defender")
_COLOURS = {"edge": "#009E73", "A": "#0072B2", "B": "#E69F00"}  # Okabe-Ito
TABLE_COLUMNS = {
    "by_role": [
        "role",
        "a_n",
        "a_rate",
        "a_mean",
        "b_rate",
        "b_mean",
        "a_minus_b",
        "a_minus_b_low",
        "a_minus_b_high",
    ],
    "by_contract": ["contract", "a_n", "a_rate", "a_made", "a_mean", "b_n", "b_rate", "b_made", "b_mean"],
}
"""The columns of ``DuelResult.by_role`` and ``.by_contract`` that the report and the command line show."""
TERMINAL_HEADERS = {
    "a_n": "A n",
    "a_rate": "A rate",
    "a_made": "A made",
    "a_mean": "A mean",
    "b_n": "B n",
    "b_rate": "B rate",
    "b_made": "B made",
    "b_mean": "B mean",
    "a_minus_b": "A\u2212B",
    "a_minus_b_low": "A\u2212B_low",
    "a_minus_b_high": "A\u2212B_high",
}
"""Short headers of the duel's tables on a terminal (the interval columns merge into ``A−B (95%)``)."""


def duel_provenance(result: DuelResult, out: str | None = None) -> pd.DataFrame:
    """Where a duel's numbers come from (``field``, ``value``): its strategies, table, seed,
    deals and the command that plays it again (into `out`, when it was written to a run
    directory)."""
    command = [
        "tarotsim",
        "duel",
        "--a",
        str(result.a),
        "--b",
        str(result.b),
        "--players",
        str(result.players),
        "--deals",
        str(result.n),
        "--seed",
        str(result.seed),
    ]
    decision = result.decision
    if decision is not None:  # the same duel until decided: the cap, the test, the looks
        test = decision.test
        command[command.index("--deals") + 1] = str(decision.cap)
        command += [
            "--until-decided",
            f"--edge={test.edge0:g},{test.edge1:g}",
            "--alpha",
            f"{test.alpha:g}",
            "--beta",
            f"{test.beta:g}",
            "--look-every",
            str(decision.look_every),
        ]
    if out is not None:
        command += ["--out", out]
    rows: list[tuple[str, object]] = [
        ("kind", "duel"),
        ("strategy A", str(result.a)),
        ("strategy B", str(result.b)),
        ("players", result.players),
        ("seed", result.seed),
        ("deals", f"{result.n:,}"),
        ("plays", f"{result.n * result.players:,} (each deal once with A in each seat)"),
        *(
            []
            if decision is None
            else [("until decided", f"{decision.test.describe()}; at most {decision.cap:,} deals")]
        ),
        ("command", shlex.join(command)),
    ]
    return field_table(rows)


def duel_tables(result: DuelResult, *, terminal: bool = True) -> list[tuple[pd.DataFrame, str]]:
    """The duel's tables, by role and by contract, each with its title: what ``tarotsim duel``
    and ``tarotsim table`` print. ``terminal``: short headers (`TERMINAL_HEADERS`)."""
    names = TERMINAL_HEADERS if terminal else {}
    return [
        (
            result.by_role[TABLE_COLUMNS["by_role"]].rename(columns=names),
            "By role, the deal as the unit: A's and B's rates and mean scores (points), and A \u2212 B "
            "with its 95% interval",
        ),
        (
            result.by_contract[TABLE_COLUMNS["by_contract"]].rename(columns=names),
            "Contracts taken by A and by a seat of B: rate, share made, mean taker score (points)",
        ),
    ]


def edge_by_role_chart(result: DuelResult) -> Drawn:
    """A's edge, then A's and B's mean scores as taker, partner (5 players) and defender, with 95 % intervals.

    Returns
    -------
    Drawn
        ``data``: one row per bar, ``bar`` (``"edge"`` or ``"<A|B> as <role>"``), ``who``
        (``edge``, ``A`` or ``B``), ``points`` (game points: per deal for the edge, per
        row held in the role otherwise), ``low``, ``high``.
    """
    bars = [("A's edge, per deal", "edge", result.edge, result.low, result.high)]
    for row in result.by_role.itertuples(index=False):
        if row.role in _ROLES_SHOWN:
            bars.append((f"A as {row.role}", "A", row.a_mean, row.a_low, row.a_high))
            bars.append((f"B as {row.role}", "B", row.b_mean, row.b_low, row.b_high))
    data = pd.DataFrame(bars, columns=["bar", "who", "points", "low", "high"])
    fig = new_figure(6.4, 1.3 + 0.36 * len(data))
    ax = fig.add_subplot()
    y = np.arange(len(data))[::-1]
    points = data["points"].to_numpy(float)
    errors = np.vstack([points - data["low"].to_numpy(float), data["high"].to_numpy(float) - points])
    ax.barh(
        y,
        np.nan_to_num(points),
        color=[_COLOURS[w] for w in data["who"]],
        height=0.7,
        xerr=np.nan_to_num(errors),
        capsize=3,
        error_kw={"elinewidth": 1.1, "ecolor": "#333333"},
    )
    ax.axvline(0.0, color="#555555", linewidth=0.8)
    ax.set_yticks(y, list(data["bar"]))
    ax.set_xlabel("game points (mean score; the edge per deal, a role per deal held in it)")
    ax.set_title(f"A: {result.a.label}   B: {result.b.label}", fontsize=9)
    caption = (
        f"A's edge over B, and each one's mean score by role, 95% intervals; {deals_text(result.n)}, "
        f"{result.players} players, each deal played once with A in each seat."
    )
    write_caption(fig, caption)
    return Drawn(fig, data, caption)


def duel_document(
    result: DuelResult,
    caption: str,
    figure_file: str = FIGURE_FILE,
    *,
    run: str | os.PathLike[str] | None = None,
) -> Document:
    """The duel's report as a [`Document`][tarotsim.report.document.Document]; its figure
    (`edge_by_role_chart`) is ``figure_file``, under ``caption``; ``run`` is the duel's
    run directory, if it has one (named by the provenance's command)."""
    from tarotsim.contests.duel import INTERVAL

    doc = Document(f"Duel: {result.a.label} against {result.b.label}")
    doc.heading(1, f"Duel: {result.a.label} against {result.b.label}")
    doc.paragraph("A: ", Code(str(result.a)), ". B: ", Code(str(result.b)), ".")
    doc.paragraph(
        f"{result.players} players, {deals_text(result.n)}, seed {result.seed}: every deal was played "
        f"{result.players} times on the same cards and with the same random stream, A in one seat and B in "
        "the others, A's seat going round the table; luck cancels, and what is left is the difference "
        "between the strategies."
    )
    doc.paragraph(
        f"A's edge: {number(result.edge, '+.2f')} game points per deal, 95% interval {interval(result.low, result.high, '+.2f')} "
        f"({INTERVAL}). It is A's mean score over the rotations of a deal: positive when A scores more "
        "in its seat than B does in the same seats. Thrown-in deals count 0 for both."
    )
    if result.decision is not None:
        doc.paragraph(
            f"Until decided: {result.decision.text(result.n)}. The duel looked at a sequential test "
            "(a GSPRT on the per-deal edges, ",
            Code("tarotsim.analysis.sequential"),
            ") after each batch of deals and stopped at the first batch where it was decided; the interval above is that of the "
            "deals played, approximate after such a stop.",
        )
    doc.figure(figure_file, caption, "A's edge, and A's and B's mean scores by role")
    doc.heading(2, "By role")
    doc.paragraph(
        "Per role: how many plays (deal and seat) A held it, how often, and A's mean score in it, "
        "against how often a seat of B held it and B's mean score there, and the difference with its "
        "interval. They show where the edge appears, not an attacking and a defending skill apart: "
        "when B takes, A is among the defenders.",
    )
    doc.table(result.by_role[TABLE_COLUMNS["by_role"]], floatfmt=".3f")
    doc.heading(2, "By contract")
    doc.paragraph(
        "How often A and a seat of B take each contract, how often they make it, and their mean "
        "score as its taker.",
    )
    doc.table(result.by_contract[TABLE_COLUMNS["by_contract"]], floatfmt=".3f")
    doc.heading(2, "Words used")
    doc.glossary()
    doc.heading(2, "Provenance")
    doc.table(
        pd.concat(
            [duel_provenance(result, None if run is None else str(run)), made_here()], ignore_index=True
        ),
        in_words=True,
    )
    return doc


def write_duel_report(
    result: DuelResult, folder: str | os.PathLike[str], *, run: str | os.PathLike[str] | None = None
) -> Path:
    """Write the duel's report into ``folder`` (made if needed): ``duel.md``, ``duel.html``
    and the figure; returns the folder. ``run`` is the duel's run directory, when it has
    one: the provenance's command then writes it again there (``--out``).

    Raises
    ------
    ValueError
        If the folder cannot be made or written (what this call wrote is then removed again).
    """
    from tarotsim.base.files import folder_written, write_atomic, write_text_atomic

    drawn = edge_by_role_chart(result)
    drop_caption(drawn.figure)  # written under the figure by the document: each caption once
    doc = duel_document(result, drawn.caption, run=run)
    with folder_written(folder, what="the duel report folder") as root:  # a failed write leaves nothing
        write_atomic(root / FIGURE_FILE, lambda tmp: drawn.figure.savefig(tmp, format="png", dpi=DPI))
        write_text_atomic(root / "duel.md", doc.markdown())
        write_text_atomic(root / "duel.html", doc.html())
    return root
