"""A run directory → a report folder: PNG figures, ``report.md`` and a standalone ``report.html``.

The package, one job per module:

- :mod:`~tarotsim.report.style`: contract names and colours, the Agg ``Figure`` helpers;
- :mod:`~tarotsim.report.figures`: one function per figure, records in, a :class:`Drawn` out;
- :mod:`~tarotsim.report.document`: the document model, written as Markdown and as HTML;
- :mod:`~tarotsim.report.assembly`: :func:`write_report`, which reads a run and puts it together.

matplotlib is imported only when a figure is drawn, and only its object-oriented API
(``Figure`` with the Agg canvas): no pyplot, no global state, no window.
"""

from tarotsim.report.assembly import REPORT_COLUMNS, provenance_table, read_run, write_report
from tarotsim.report.document import Code, Document, Link
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
from tarotsim.report.style import CONTRACT_COLOURS, CONTRACT_LABELS, DPI, SHORT_LABELS

__all__ = [
    "CONTRACT_COLOURS",
    "CONTRACT_LABELS",
    "DPI",
    "REPORT_COLUMNS",
    "SHORT_LABELS",
    "Code",
    "Link",
    "Document",
    "Drawn",
    "attack_margin_histogram",
    "best_contract_map",
    "events_chart",
    "hand_points_plot",
    "provenance_table",
    "read_run",
    "success_heatmap",
    "success_lines",
    "taker_score_histogram",
    "write_report",
]
