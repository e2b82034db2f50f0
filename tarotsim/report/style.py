"""How the figures look: contract names and colours, and the Agg ``Figure`` helpers they share.

Names and colours are keyed by `tarotsim.engine.labels.Contract` members, built from the
labels; the figures look them up from the records' contract labels with
`contract_name`, `contract_colour` and `contract_short`. matplotlib is
imported only inside the helpers, and only its object-oriented API (``Figure`` with the Agg
canvas) is used: no pyplot, no global state, no window.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from tarotsim.engine.labels import TARGETS, Contract

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

DPI = 110
"""Resolution of the figures, on screen and in the PNG files (dots per inch)."""

CONTRACT_LABELS: dict[Contract, str] = {c: c.label.replace("_", " ") for c in Contract}
"""How contracts (and passing) are named in figures and text."""

CONTRACT_COLOURS: dict[Contract, str] = {
    Contract.PASS: "#b8b8b8",
    Contract.PRISE: "#0072B2",
    Contract.GARDE: "#009E73",
    Contract.GARDE_SANS: "#E69F00",
    Contract.GARDE_CONTRE: "#D55E00",
}
"""One colour per choice, the same in every figure (Okabe-Ito, colour-blind safe)."""

SHORT_LABELS: dict[Contract, str] = {
    Contract.PASS: "–",
    Contract.PRISE: "P",
    Contract.GARDE: "G",
    Contract.GARDE_SANS: "GS",
    Contract.GARDE_CONTRE: "GC",
}
"""Short names written in the cells of the best-contract map."""

BOUTS = tuple(sorted(TARGETS))
"""Bout counts a taker can hold (0–3): the rows of the bouts × trumps grids."""

BOUT_COLOURS = ("#440154", "#31688e", "#35b779", "#e5a000")  # viridis-like, last one darker
THIN_FACE = "#e6e6e6"
THIN_EDGE = "#8c8c8c"


def contract_name(contract: str | Contract) -> str:
    """Display name of a contract label (``"pass"`` included), from [`CONTRACT_LABELS`][tarotsim.report.style.CONTRACT_LABELS]."""
    return CONTRACT_LABELS[Contract.parse(contract)]


def contract_colour(contract: str | Contract) -> str:
    """Colour of a contract label (``"pass"`` included), from [`CONTRACT_COLOURS`][tarotsim.report.style.CONTRACT_COLOURS]."""
    return CONTRACT_COLOURS[Contract.parse(contract)]


def contract_short(contract: str | Contract) -> str:
    """Short name of a contract label (``"pass"`` included), from [`SHORT_LABELS`][tarotsim.report.style.SHORT_LABELS]."""
    return SHORT_LABELS[Contract.parse(contract)]


def deals_text(n: int) -> str:
    """``"1 deal"``, ``"1,500 deals"``."""
    return f"{n:,} deal" + ("" if n == 1 else "s")


def new_figure(width: float, height: float) -> Figure:
    """An empty Agg figure of `width` × `height` inches, constrained layout."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def write_caption(fig: Figure, caption: str) -> None:
    """Write the caption along the foot of the figure, leaving room for it, shrunk to fit its width."""
    height = fig.get_figheight()
    foot = 0.32 / height
    fig.get_layout_engine().set(rect=(0.0, foot, 1.0, 1.0 - foot))  # type: ignore[call-arg, union-attr]
    text = fig.text(
        0.5,
        0.08 / height,
        caption,
        ha="center",
        va="bottom",
        fontsize=8.0,
        style="italic",
        color="#333333",
        gid="caption",
    )
    # measured as drawn (Agg), so that the caption stays on one line within the figure; glyph
    # widths do not scale exactly with the size, so shrink until it fits (or reaches 5 points)
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    room_px = (fig.get_figwidth() - 0.2) * fig.dpi
    for _ in range(8):
        width_px = text.get_window_extent(renderer=renderer).width
        size = float(text.get_fontsize())
        if width_px <= room_px or size <= 5.0:
            break
        text.set_fontsize(max(5.0, size * 0.98 * room_px / width_px))


def drop_caption(fig: Figure) -> None:
    """Take the caption of `write_caption` off `fig` and give its room back to the plot,
    for a document that writes the caption under the figure itself (each caption once)."""
    for text in [t for t in fig.texts if t.get_gid() == "caption"]:
        text.remove()
    fig.get_layout_engine().set(rect=(0.0, 0.0, 1.0, 1.0))  # type: ignore[call-arg, union-attr]


def percent_axis(axis: Any) -> None:
    """Label `axis` (an x or y axis holding fractions) in whole percent."""
    from matplotlib.ticker import PercentFormatter

    axis.set_major_formatter(PercentFormatter(xmax=1.0, decimals=0))


def trump_range(cells: pd.DataFrame) -> np.ndarray:
    """int[k]: every trump length from the shortest to the longest in a table of cells
    (a ``taker_trumps`` column: the success table of every contract, or the best-contract table)."""
    trumps = cells["taker_trumps"].to_numpy()
    return np.arange(int(trumps.min()), int(trumps.max()) + 1)


def grid_axes(ax: Axes, columns: np.ndarray) -> None:
    """Ticks, labels and white cell borders of a bouts × trumps grid whose columns are `columns`."""
    ax.set_xticks(np.arange(len(columns)), [str(t) for t in columns])
    ax.set_yticks(np.arange(len(BOUTS)), [str(b) for b in BOUTS])
    ax.set_xlabel("taker's trump length (trumps 1–21 in hand, cards)")
    ax.set_ylabel("taker's bouts (cards)")
    ax.set_xticks(np.arange(len(columns) + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(len(BOUTS) + 1) - 0.5, minor=True)
    ax.grid(which="minor", color="white", linewidth=1.0)
    ax.tick_params(which="minor", length=0)


def thin_patch(ax: Axes, col: int, row: int, *, face: str = THIN_FACE, edge: str = THIN_EDGE) -> None:
    """Hatch the grid cell at (col, row): a cell with too few deals to be read."""
    from matplotlib.patches import Rectangle

    ax.add_patch(
        Rectangle(
            (col - 0.5, row - 0.5),
            1.0,
            1.0,
            facecolor=face,
            edgecolor=edge,
            hatch="///",
            linewidth=0.0,
            zorder=2,
        )
    )


def cell_image(ax: Axes, grid: np.ndarray, cmap: Any, vmin: float, vmax: float) -> Any:
    """Draw a bouts × trumps grid of values as coloured cells (missing values left blank)."""
    return ax.imshow(
        np.ma.masked_invalid(grid),
        cmap=cmap,
        vmin=vmin,
        vmax=vmax,
        origin="lower",
        aspect="auto",
        interpolation="nearest",
    )


def text_colour(background: Sequence[float]) -> str:
    """``"black"`` or ``"white"``, whichever reads better on the RGBA colour `background`."""
    r, g, b = background[:3]
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.5 else "white"


def rgba(colour: str) -> tuple[float, float, float, float]:
    """The RGBA fractions of a matplotlib colour spec such as ``"#0072B2"``."""
    from matplotlib.colors import to_rgba

    return to_rgba(colour)
