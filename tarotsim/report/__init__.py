"""A run directory → a report folder: PNG figures, ``report.md`` and a standalone ``report.html``.

The package, one job per module:

- `style`: contract names and colours, the Agg ``Figure`` helpers;
- `figures`: the success, best-contract and hand-point figures, records
  (or their tables) in, a [`Drawn`][tarotsim.report.Drawn] out;
- `distributions`: the histograms and the bonus chart, from tallies;
- `document`: the document model, written as Markdown and as HTML;
- `summary`: every table of a run from one pass over its chunks;
- `glossary`: the words for column names, and numbers and intervals in words;
- `provenance`: where a report's numbers come from;
- `assembly`: [`write_report`][tarotsim.report.write_report], which puts the report together.

matplotlib is imported only when a figure is drawn, and only its object-oriented API
(``Figure`` with the Agg canvas): no pyplot, no global state, no window.
"""

from tarotsim.report.assembly import write_report
from tarotsim.report.distributions import attack_margin_histogram, events_chart, taker_score_histogram
from tarotsim.report.document import Code, Document, Link
from tarotsim.report.figures import (
    Drawn,
    best_contract_map,
    hand_points_plot,
    success_heatmap,
    success_lines,
)
from tarotsim.report.provenance import made_here, provenance_table
from tarotsim.report.style import CONTRACT_COLOURS, CONTRACT_LABELS, DPI, SHORT_LABELS
from tarotsim.report.summary import RunSummary, summarise_run

__all__ = [
    "CONTRACT_COLOURS",
    "CONTRACT_LABELS",
    "DPI",
    "SHORT_LABELS",
    "Code",
    "Link",
    "Document",
    "Drawn",
    "RunSummary",
    "attack_margin_histogram",
    "best_contract_map",
    "events_chart",
    "hand_points_plot",
    "made_here",
    "provenance_table",
    "success_heatmap",
    "success_lines",
    "summarise_run",
    "taker_score_histogram",
    "write_report",
]
