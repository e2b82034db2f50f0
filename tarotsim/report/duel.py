"""A duel's small report: A's edge, its parts by role with intervals (a figure), and the tables.

:func:`write_duel_report` writes ``duel.md``, a standalone ``duel.html`` and the figure
``edge_by_role.png`` into a folder, from a :class:`~tarotsim.duel.DuelResult`, with the
document model of :mod:`tarotsim.report.document` and the figure helpers of
:mod:`tarotsim.report.style`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from tarotsim.report.document import Code, Document
from tarotsim.report.figures import Drawn
from tarotsim.report.style import DPI, deals_text, new_figure, write_caption

if TYPE_CHECKING:
    from tarotsim.duel import DuelResult

FIGURE_FILE = "edge_by_role.png"
_ROLE_NAMES = {"taker": "as taker", "partner": "as partner", "defender": "as defender"}
_EDGE = "#0072B2"
_PART = "#56B4E9"


def edge_by_role_chart(result: DuelResult) -> Drawn:
    """A's edge and its parts by A's role (taker, partner at 5 players, defender), with 95 % intervals.

    Returns
    -------
    Drawn
        ``data``: one row per bar, ``part`` (``"edge"`` or the role), ``points`` (game
        points per deal), ``low``, ``high``.
    """
    roles = result.by_role[result.by_role["role"].isin(list(_ROLE_NAMES))]
    data = pd.DataFrame({
        "part": ["edge", *roles["role"]],
        "points": [result.edge, *roles["edge"]],
        "low": [result.low, *roles["edge_low"]],
        "high": [result.high, *roles["edge_high"]],
    })
    labels = ["A's edge (all deals)", *(_ROLE_NAMES[r] for r in roles["role"])]
    fig = new_figure(6.4, 1.2 + 0.5 * len(data))
    ax = fig.add_subplot()
    y = np.arange(len(data))[::-1]
    points = data["points"].to_numpy()
    errors = np.vstack([points - data["low"].to_numpy(), data["high"].to_numpy() - points])
    ax.barh(y, points, color=[_EDGE] + [_PART] * (len(data) - 1), height=0.6,
            xerr=np.nan_to_num(errors), capsize=4, error_kw={"elinewidth": 1.2, "ecolor": "#333333"})
    ax.axvline(0.0, color="#555555", linewidth=0.8)
    ax.set_yticks(y, labels)
    ax.set_xlabel("game points per deal (A's mean score over the rotations)")
    ax.set_title(f"{result.a.label} against {result.b.label}", fontsize=10)
    caption = (f"A's edge and its parts by A's role, 95% intervals; {deals_text(result.n)}, "
               f"{result.players} players, each deal played once with A in each seat.")
    write_caption(fig, caption)
    return Drawn(fig, data, caption)


def duel_document(result: DuelResult, caption: str, figure_file: str = FIGURE_FILE) -> Document:
    """The duel's report as a :class:`~tarotsim.report.document.Document`; its figure
    (:func:`edge_by_role_chart`) is ``figure_file``, under ``caption``."""
    from tarotsim.duel import INTERVAL

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
        f"A's edge: {result.edge:+.2f} game points per deal, 95% interval [{result.low:+.2f}, {result.high:+.2f}] "
        f"({INTERVAL}). It is A's mean score over the rotations of a deal: positive when A scores more "
        "in its seat than B does in the same seats. Thrown-in deals count 0 for both."
    )
    doc.figure(figure_file, caption, "A's edge by role")
    doc.heading(2, "By role")
    doc.paragraph(
        "Per role: how many rows (deal and rotation) A held it (", Code("a_n"), "), how often (", Code("a_rate"),
        ") and A's mean score in it (", Code("a_mean"), "), against how often a seat of B held it and B's mean "
        "score there (", Code("b_rate"), ", ", Code("b_mean"), "); then the role's part of A's edge: on the "
        "rows where A held the role, A's score against B's in the same seat of the same deal, in points per "
        "deal with its interval (the parts add up to the edge, and are all 0 when A and B are the same)."
    )
    doc.table(result.by_role, floatfmt=".3f")
    doc.heading(2, "By contract")
    doc.paragraph(
        "How often A and a seat of B take each contract (", Code("a_rate"), ", ", Code("b_rate"),
        "), how often they make it (", Code("a_made"), ", ", Code("b_made"), "), their mean score as its "
        "taker, and the part of A's edge that comes from the deals A took with it."
    )
    doc.table(result.by_contract, floatfmt=".3f")
    return doc


def write_duel_report(result: DuelResult, folder: str | os.PathLike[str]) -> Path:
    """Write the duel's report into ``folder`` (made if needed): ``duel.md``, ``duel.html``
    and the figure; returns the folder.

    Raises
    ------
    ValueError
        If the folder cannot be made or written.
    """
    root = Path(folder)
    try:
        root.mkdir(parents=True, exist_ok=True)
        drawn = edge_by_role_chart(result)
        drawn.figure.savefig(root / FIGURE_FILE, dpi=DPI)
        doc = duel_document(result, drawn.caption)
        (root / "duel.md").write_text(doc.markdown(), encoding="utf-8")
        (root / "duel.html").write_text(doc.html(), encoding="utf-8")
    except OSError as err:
        raise ValueError(f"cannot write the duel report into {root}: {err.strerror or err}") from None
    return root
