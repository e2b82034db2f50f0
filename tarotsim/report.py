"""A run directory → a report folder: PNG figures, ``report.md`` and a standalone ``report.html``.

:func:`write_report` reads a run (``manifest.json`` plus its Parquet chunks, see
:mod:`tarotsim.run.store`), computes the tables of :mod:`tarotsim.analysis` and draws one PNG per
figure. Both documents show the same text, tables and figures; the figures are PNG files
beside them in the report folder, referenced by relative path (``src="heatmap_garde.png"``),
so the folder can be moved or published as a whole.

Each figure has its own function, which takes records (a DataFrame or a run directory) and
returns a :class:`Drawn`: the :class:`matplotlib.figure.Figure`, the table it plotted and a
one-line caption. matplotlib is imported only inside those functions, and only its
object-oriented API (``Figure`` with the Agg canvas) is used: no pyplot, no global state, no
window.

A ``sweep`` run (every deal played under every contract by the same seat) gets every figure.
A ``simulate`` run (one contract per deal, chosen by bidding) has no like-for-like comparison
of contracts, so the best-contract map and the hand-point thresholds are left out, and the
report says so.
"""

from __future__ import annotations

import html
import math
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import pandas as pd

from tarotsim import analysis
from tarotsim.run import store

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "CONTRACT_COLOURS",
    "CONTRACT_LABELS",
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

DPI = 110

#: How contracts are named in figures and text.
CONTRACT_LABELS: dict[str, str] = {
    "pass": "pass",
    "prise": "prise",
    "garde": "garde",
    "garde_sans": "garde sans",
    "garde_contre": "garde contre",
}

#: One colour per choice, the same in every figure (Okabe-Ito, colour-blind safe).
CONTRACT_COLOURS: dict[str, str] = {
    "pass": "#b8b8b8",
    "prise": "#0072B2",
    "garde": "#009E73",
    "garde_sans": "#E69F00",
    "garde_contre": "#D55E00",
}

#: Short labels written in the cells of the best-contract map.
_SHORT = {"pass": "–", "prise": "P", "garde": "G", "garde_sans": "GS", "garde_contre": "GC"}

#: Points the attack needs, by the bouts it ends with (RULES.md §7).
TARGETS = np.array([56.0, 51.0, 41.0, 36.0])

_BOUTS = (0, 1, 2, 3)
_BOUT_COLOURS = ("#440154", "#31688e", "#35b779", "#e5a000")  # viridis-like, last one darker
_THIN_FACE = "#e6e6e6"
_THIN_EDGE = "#8c8c8c"


class Drawn(NamedTuple):
    """One figure of the report.

    Attributes
    ----------
    figure : matplotlib.figure.Figure
        The figure (Agg canvas), with its caption written along its foot.
    data : pandas.DataFrame
        The values plotted, one row per cell, point or bar.
    caption : str
        One line: what the figure shows and from how many deals.
    """

    figure: Figure
    data: pd.DataFrame
    caption: str


# --------------------------------------------------------------------------- reading


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
    """Rows of played deals, with ``contract`` as plain strings (computed once per frame)."""
    if df.attrs.get("played_only"):
        return df
    keep = df["contract"].notna().to_numpy()
    if "thrown_in" in df.columns:
        keep = keep & (df["thrown_in"].astype(object) == "none").to_numpy()
    out = df.loc[keep].copy()
    out["contract"] = out["contract"].astype(object)
    out.attrs["played_only"] = True
    return out


def _contracts(played: pd.DataFrame) -> list[str]:
    seen = set(played["contract"].unique())
    return [c for c in analysis.CONTRACTS if c in seen]


def _check_min_n(min_n: int) -> None:
    if isinstance(min_n, bool) or not isinstance(min_n, (int, np.integer)):
        raise TypeError(f"min_n must be an int, got {type(min_n).__name__}")
    if min_n < 1:
        raise ValueError(f"min_n must be at least 1, got {min_n}")


def _deals(n: int) -> str:
    return f"{n:,} deal" + ("" if n == 1 else "s")


# --------------------------------------------------------------------------- drawing helpers


def _figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=DPI, layout="constrained")


def _caption(fig: Figure, caption: str) -> None:
    """Write the caption along the foot of the figure, leaving room for it."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    height = fig.get_figheight()
    foot = 0.32 / height
    fig.get_layout_engine().set(rect=(0.0, foot, 1.0, 1.0 - foot))  # type: ignore[call-arg, union-attr]
    # shrink the type if needed so that the caption stays on one line within the figure
    size = 8.0
    width_pt = TextToPath().get_text_width_height_descent(
        caption, FontProperties(size=size, style="italic"), ismath=False
    )[0]
    room_pt = (fig.get_figwidth() - 0.2) * 72.0
    if width_pt > room_pt:
        size = max(5.0, size * room_pt / width_pt)
    fig.text(
        0.5,
        0.08 / height,
        caption,
        ha="center",
        va="bottom",
        fontsize=size,
        style="italic",
        color="#333333",
        gid="caption",
    )


def _percent_axis(axis: Any) -> None:
    from matplotlib.ticker import PercentFormatter

    axis.set_major_formatter(PercentFormatter(xmax=1.0, decimals=0))


def _trump_range(played: pd.DataFrame) -> np.ndarray:
    trumps = played["taker_trumps"].to_numpy()
    return np.arange(int(trumps.min()), int(trumps.max()) + 1)


def _grid_axes(ax: Axes, columns: np.ndarray) -> None:
    ax.set_xticks(np.arange(len(columns)), [str(t) for t in columns])
    ax.set_yticks(np.arange(len(_BOUTS)), [str(b) for b in _BOUTS])
    ax.set_xlabel("taker's trump length (trumps 1–21 in hand, cards)")
    ax.set_ylabel("taker's bouts (cards)")
    ax.set_xticks(np.arange(len(columns) + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(len(_BOUTS) + 1) - 0.5, minor=True)
    ax.grid(which="minor", color="white", linewidth=1.0)
    ax.tick_params(which="minor", length=0)


def _thin_patch(ax: Axes, col: int, row: int, *, face: str = _THIN_FACE, edge: str = _THIN_EDGE) -> None:
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


def _cell_image(ax: Axes, grid: np.ndarray, cmap: Any, vmin: float, vmax: float) -> Any:
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


def _text_colour(rgba: Sequence[float]) -> str:
    r, g, b = rgba[:3]
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.5 else "white"


# --------------------------------------------------------------------------- success


def success_heatmap(data: analysis.Data, contract: str, *, min_n: int = 30) -> Drawn:
    """Heatmap of the success rate of `contract` by the taker's bouts and trump length.

    Rows are bouts 0–3, columns the trump lengths seen in the played deals. Each cell of
    :func:`tarotsim.analysis.success_table` gets one annotation: its rate in percent, or,
    when it holds fewer than `min_n` deals, a grey hatched square marked ``n<MIN_N`` (with
    its rate in small type). Cells without a deal stay blank.

    Returns
    -------
    Drawn
        ``data`` is the success table of `contract` (columns of
        :func:`~tarotsim.analysis.success_table`) plus ``low_n`` (``n < min_n``).
    """
    from matplotlib import colormaps

    _check_min_n(min_n)
    df = analysis.load_records(data)
    played = _played(df)
    table = analysis.success_table(df, contract=contract).reset_index(drop=True)
    table["low_n"] = table["n"] < min_n
    columns = _trump_range(played)
    grid = np.full((len(_BOUTS), len(columns)), np.nan)
    for row in table.itertuples(index=False):
        if not row.low_n:
            grid[int(row.taker_bouts), int(row.taker_trumps) - columns[0]] = row.rate
    cmap = colormaps["RdYlGn"].with_extremes(bad="white")
    fig = _figure(max(6.0, 0.5 * len(columns) + 2.2), 3.9)
    ax = fig.add_subplot()
    image = _cell_image(ax, grid, cmap, 0.0, 1.0)
    for row in table.itertuples(index=False):
        x, y = int(row.taker_trumps) - columns[0], int(row.taker_bouts)
        if row.low_n:
            _thin_patch(ax, x, y)
            ax.text(
                x,
                y,
                f"n<{min_n}\n{row.rate:.0%}",
                ha="center",
                va="center",
                fontsize=6.5,
                color="#444444",
                zorder=3,
                bbox={"facecolor": _THIN_FACE, "edgecolor": "none", "pad": 0.6, "alpha": 0.9},
            )
        else:
            ax.text(
                x,
                y,
                f"{row.rate:.0%}",
                ha="center",
                va="center",
                fontsize=7.5,
                color=_text_colour(cmap(row.rate)),
                zorder=3,
            )
    _grid_axes(ax, columns)
    label = CONTRACT_LABELS[contract]
    ax.set_title(f"{label.capitalize()}: success rate by bouts and trump length")
    bar = fig.colorbar(image, ax=ax, fraction=0.04, pad=0.02)
    bar.set_label("success rate (%)")
    _percent_axis(bar.ax.yaxis)
    n = int(table["n"].sum())
    caption = (
        f"Share of {label} contracts made, by the taker's bouts and trumps as dealt, from "
        f"{_deals(n)}; hatched grey cells hold fewer than {min_n} deals."
    )
    _caption(fig, caption)
    return Drawn(fig, table, caption)


def success_lines(data: analysis.Data, contract: str, *, min_n: int = 30) -> Drawn:
    """Success rate of `contract` against trump length, one line per bout count.

    Each line joins the cells of :func:`tarotsim.analysis.success_table` with at least
    `min_n` deals, with its 95 % Wilson interval as a band (``rate_low`` to ``rate_high``);
    thinner cells are shown as small hollow markers off the line.

    Returns
    -------
    Drawn
        ``data`` is the success table of `contract` plus ``low_n``. The line of ``b``
        bouts has the label ``"b bouts"`` (``"1 bout"``) and the table's ``rate`` of its
        cells with ``n >= min_n``, in trump order, as y data.
    """
    _check_min_n(min_n)
    df = analysis.load_records(data)
    table = analysis.success_table(df, contract=contract).reset_index(drop=True)
    table["low_n"] = table["n"] < min_n
    fig = _figure(8.0, 4.6)
    ax = fig.add_subplot()
    thin_drawn = False
    for bouts, colour in zip(_BOUTS, _BOUT_COLOURS, strict=True):
        mine = table[table["taker_bouts"] == bouts].sort_values("taker_trumps")
        good = mine[~mine["low_n"]]
        thin = mine[mine["low_n"]]
        if len(good):
            x = good["taker_trumps"].to_numpy(dtype=float)
            ax.fill_between(
                x,
                good["rate_low"].to_numpy(),
                good["rate_high"].to_numpy(),
                color=colour,
                alpha=0.18,
                linewidth=0,
            )
            ax.plot(
                x,
                good["rate"].to_numpy(),
                marker="o",
                markersize=3.5,
                color=colour,
                label=f"{bouts} bout" + ("" if bouts == 1 else "s"),
            )
        if len(thin):
            ax.plot(
                thin["taker_trumps"].to_numpy(dtype=float),
                thin["rate"].to_numpy(),
                linestyle="none",
                marker="o",
                markersize=3.5,
                markerfacecolor="none",
                markeredgecolor=colour,
                alpha=0.6,
            )
            thin_drawn = True
    if thin_drawn:  # one legend entry for the hollow markers of every bout count, listed last
        ax.plot(
            [],
            [],
            linestyle="none",
            marker="o",
            markersize=3.5,
            markerfacecolor="none",
            markeredgecolor="#555555",
            label=f"cell with n<{min_n} (off the line)",
        )
    ax.axhline(0.5, color="#777777", linewidth=0.8, linestyle=":")
    label = CONTRACT_LABELS[contract]
    ax.set_title(f"{label.capitalize()}: success rate against trump length (95% Wilson bands)")
    ax.set_xlabel("taker's trump length (trumps 1–21 in hand, cards)")
    ax.set_ylabel("success rate (%)")
    ax.set_ylim(-0.02, 1.02)
    _percent_axis(ax.yaxis)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize=8, frameon=True)
    n = int(table["n"].sum())
    caption = (
        f"Share of {label} contracts made against the taker's trumps, by bouts, with 95% "
        f"Wilson intervals, from {_deals(n)}; lines join cells of at least {min_n} deals."
    )
    _caption(fig, caption)
    return Drawn(fig, table, caption)


# --------------------------------------------------------------------------- best contract


def best_contract_map(data: analysis.Data, *, min_n: int = 30) -> Drawn:
    """Map of the best choice (pass or a contract) by the taker's bouts and trump length.

    Colours are those of :data:`CONTRACT_COLOURS`; each cell of
    :func:`tarotsim.analysis.best_contract` is labelled with a short name (``–`` pass,
    ``P``, ``G``, ``GS``, ``GC``) and hatched when it holds fewer than `min_n` deals.
    Needs sweep records (:func:`~tarotsim.analysis.best_contract` raises otherwise).

    Returns
    -------
    Drawn
        ``data`` is the :func:`~tarotsim.analysis.best_contract` table.
    """
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    _check_min_n(min_n)
    df = analysis.load_records(data)
    table = analysis.best_contract(df, min_n=min_n)
    played = _played(df)
    present = _contracts(played)
    choices = [analysis.PASS, *present]
    columns = _trump_range(played)
    grid = np.full((len(_BOUTS), len(columns)), np.nan)
    for row in table.itertuples(index=False):
        grid[int(row.taker_bouts), int(row.taker_trumps) - columns[0]] = choices.index(row.best)
    cmap = ListedColormap([CONTRACT_COLOURS[c] for c in choices]).with_extremes(bad="white")
    fig = _figure(max(6.0, 0.5 * len(columns) + 2.6), 3.9)
    ax = fig.add_subplot()
    _cell_image(ax, grid, cmap, -0.5, len(choices) - 0.5)
    for row in table.itertuples(index=False):
        x, y = int(row.taker_trumps) - columns[0], int(row.taker_bouts)
        if row.low_n:
            _thin_patch(ax, x, y, face="none", edge="white")
        colour = CONTRACT_COLOURS[row.best]
        ax.text(
            x,
            y,
            _SHORT[row.best],
            ha="center",
            va="center",
            fontsize=7.5,
            zorder=3,
            color=_text_colour(_rgba(colour)),
            fontweight="bold",
        )
    _grid_axes(ax, columns)
    ax.set_title("Best choice by bouts and trump length (highest mean taker score, pass = 0)")
    handles = [
        Patch(facecolor=CONTRACT_COLOURS[c], label=f"{_SHORT[c]}  {CONTRACT_LABELS[c]}") for c in choices
    ]
    handles.append(Patch(facecolor="#cccccc", edgecolor="white", hatch="///", label=f"n<{min_n} deals"))
    ax.legend(
        handles=handles,
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        fontsize=8,
        title="best choice",
        title_fontsize=8,
        frameon=False,
    )
    n = int(table["n"].sum())
    caption = (
        f"Contract with the highest mean taker score (or pass, which scores 0) for each "
        f"hand shape, all contracts played on the same {_deals(n)}; hatched: n<{min_n}."
    )
    _caption(fig, caption)
    return Drawn(fig, table, caption)


def _rgba(colour: str) -> tuple[float, float, float, float]:
    from matplotlib.colors import to_rgba

    return to_rgba(colour)


# --------------------------------------------------------------------------- hand points


def hand_points_plot(
    data: analysis.Data,
    *,
    min_n: int = 30,
    bins: int | Sequence[float] | None = None,
) -> Drawn:
    """Mean taker score of each contract against the hand-point count (Chavey).

    One line per contract through the bins of :func:`tarotsim.analysis.hand_points_table`
    with at least `min_n` deals, plotted at the bin centre, with a ±1.96 standard-error
    band; the published bands (40, 56, 71, 81 hand points, where each contract is usually
    bid from) are dashed vertical lines in the contract's colour.

    Returns
    -------
    Drawn
        ``data`` is the :func:`~tarotsim.analysis.hand_points_table` with ``bin_mid``
        (bin centre, the x data of the lines) added. The line of a contract has its
        label (:data:`CONTRACT_LABELS`) and the ``mean_score`` of its counted bins as y data.
    """
    _check_min_n(min_n)
    df = analysis.load_records(data)
    table = analysis.hand_points_table(df, bins, min_n)
    table["bin_mid"] = (table["bin_low"] + table["bin_high"]) / 2.0
    fig = _figure(9.0, 5.0)
    ax = fig.add_subplot()
    present = list(dict.fromkeys(table["contract"]))
    for con in present:
        mine = table[(table["contract"] == con) & ~table["low_n"]].sort_values("bin_low")
        if not len(mine):
            continue
        x = mine["bin_mid"].to_numpy()
        y = mine["mean_score"].to_numpy()
        half = analysis.Z95 * mine["score_se"].fillna(0.0).to_numpy()
        ax.fill_between(x, y - half, y + half, color=CONTRACT_COLOURS[con], alpha=0.18, linewidth=0)
        ax.plot(x, y, color=CONTRACT_COLOURS[con], linewidth=1.6, label=CONTRACT_LABELS[con])
    ax.axhline(0.0, color="black", linewidth=0.8, label="pass (scores 0)")
    top = 0.98
    for con in present:
        at = analysis.PUBLISHED_HAND_POINTS[con]
        ax.axvline(at, color=CONTRACT_COLOURS[con], linestyle="--", linewidth=1.1, gid=f"published_{con}")
        ax.text(
            at,
            top,
            f" {at}",
            transform=ax.get_xaxis_transform(),
            color=CONTRACT_COLOURS[con],
            ha="left",
            va="top",
            fontsize=8,
        )
    ax.plot(
        [],
        [],
        color="#555555",
        linestyle="--",
        linewidth=1.1,
        label="published band start\n(40 / 56 / 71 / 81)",
    )
    ax.set_title("Expected taker score against hand points, by contract")
    ax.set_xlabel("hand points (Chavey count of the dealt hand, bin centre)")
    ax.set_ylabel("mean taker score (game points)")
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize=8)
    per = table.groupby("contract", sort=False)["n"].sum()
    if per.nunique() == 1:
        dealt = f"{_deals(int(per.iloc[0]))} per contract"
    else:
        dealt = ", ".join(f"{CONTRACT_LABELS[c]} {int(v):,}" for c, v in per.items()) + " deals"
    caption = (
        f"Mean taker score (±95% band) by hand-point bin for each contract, from {dealt}; "
        f"bins with fewer than {min_n} deals are left out."
    )
    _caption(fig, caption)
    return Drawn(fig, table, caption)


# --------------------------------------------------------------------------- distributions


def taker_score_histogram(data: analysis.Data) -> Drawn:
    """Histogram of the taker's score, one panel per contract (thrown-in deals left out).

    Returns
    -------
    Drawn
        ``data`` has one row per bar: ``contract``, ``bin_low``, ``bin_high`` (game
        points) and ``count`` (deals); the counts of a contract sum to its played deals.
    """
    df = analysis.load_records(data)
    played = _played(df)
    present = _contracts(played)
    ncols = min(2, len(present))
    nrows = -(-len(present) // ncols)
    fig = _figure(5.0 * ncols, 3.0 * nrows + 0.7)
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    rows = []
    for ax, con in zip(axes, present, strict=False):
        scores = played.loc[played["contract"] == con, "taker_score"].to_numpy(dtype=float)
        counts, edges = np.histogram(scores, bins=_score_edges(scores))
        ax.stairs(counts, edges, fill=True, color=CONTRACT_COLOURS[con], alpha=0.85)
        ax.axvline(0.0, color="black", linewidth=0.8)
        ax.axvline(
            scores.mean(), color="black", linewidth=1.0, linestyle="--", label=f"mean {scores.mean():+.0f}"
        )
        ax.set_title(f"{CONTRACT_LABELS[con]} ({_deals(len(scores))})", fontsize=10)
        ax.set_xlabel("taker score (game points)")
        ax.set_ylabel(f"deals (per {edges[1] - edges[0]:g}-point bin)")
        ax.legend(loc="upper right", fontsize=8)
        ax.grid(alpha=0.3)
        rows.append(
            pd.DataFrame(
                {
                    "contract": con,
                    "bin_low": edges[:-1],
                    "bin_high": edges[1:],
                    "count": counts.astype(np.int64),
                }
            )
        )
    for ax in axes[len(present) :]:
        ax.set_visible(False)
    fig.suptitle("Distribution of the taker's score")
    n = played["deal"].nunique()
    caption = (
        f"Taker's score per played deal for each contract (thrown-in deals left out), "
        f"from {_deals(n)}; the dashed line is the mean."
    )
    _caption(fig, caption)
    table = pd.concat(rows, ignore_index=True)
    return Drawn(fig, table, caption)


def _score_edges(scores: np.ndarray) -> np.ndarray:
    lo, hi = float(scores.min()), float(scores.max())
    span = max(hi - lo, 1.0)
    # a round bin width (1, 2, 5, 10, 20, 50 … game points) giving 25 to 60 bins
    raw = span / 60.0
    width = 1.0
    for step in (10.0**k * m for k in range(6) for m in (1.0, 2.0, 5.0)):
        width = step
        if step >= raw:
            break
    start = math.floor(lo / width) * width
    return np.arange(start, hi + width + width / 2, width)


def attack_margin_histogram(data: analysis.Data) -> Drawn:
    """Histogram of the attack's points minus its target (56/51/41/36 by bouts).

    Bins are one card point wide and start on whole numbers, so a contract made by a half
    point (+0.5) and one failed by a half point (−0.5) fall either side of 0.

    Returns
    -------
    Drawn
        ``data`` has one row per bin and contract: ``contract``, ``bin_low``,
        ``bin_high`` (card points) and ``count`` (deals).
    """
    df = analysis.load_records(data)
    played = _played(df)
    present = _contracts(played)
    diff = (
        played["attack_points"].to_numpy(dtype=float)
        - TARGETS[played["attack_bouts"].to_numpy(dtype=np.int64)]
    )
    edges = np.arange(math.floor(diff.min()), math.floor(diff.max()) + 2, 1.0)
    fig = _figure(9.0, 4.6)
    ax = fig.add_subplot()
    rows = []
    contract = played["contract"].to_numpy()
    for con in present:
        counts, _ = np.histogram(diff[contract == con], bins=edges)
        # lower contracts get wider lines, so that identical histograms (prise and garde
        # in a sweep: the same play) still show both colours
        width = 1.3 + 0.6 * (len(analysis.CONTRACTS) - 1 - analysis.CONTRACTS.index(con))
        ax.stairs(counts, edges, color=CONTRACT_COLOURS[con], linewidth=width, label=CONTRACT_LABELS[con])
        rows.append(
            pd.DataFrame(
                {
                    "contract": con,
                    "bin_low": edges[:-1],
                    "bin_high": edges[1:],
                    "count": counts.astype(np.int64),
                }
            )
        )
    ax.axvline(0.0, color="black", linewidth=1.0, linestyle="--", label="target (made from 0 up)")
    ax.set_title("Attack points minus target")
    ax.set_xlabel("attack points − target (card points; target 56 / 51 / 41 / 36 for 0–3 bouts)")
    ax.set_ylabel("deals (per 1-point bin)")
    ax.grid(alpha=0.3)
    ax.legend(loc="upper right", fontsize=8)
    n = played["deal"].nunique()
    caption = (
        f"How far the attack ends above or below its target, by contract, from {_deals(n)} "
        "(thrown-in deals left out); right of the dashed line the contract is made."
    )
    _caption(fig, caption)
    return Drawn(fig, pd.concat(rows, ignore_index=True), caption)


_EVENTS = (
    ("petit au bout\nattack", lambda p: p["petit_au_bout"].astype(object) == "attack"),
    ("petit au bout\ndefence", lambda p: p["petit_au_bout"].astype(object) == "defence"),
    ("poignée shown\n(any side)", lambda p: p["poignees"].to_numpy() > 0),
    ("chelem\nattack", lambda p: p["chelem"].astype(object) == "attack"),
    ("chelem\ndefence", lambda p: p["chelem"].astype(object) == "defence"),
    ("chelem\nannounced", lambda p: p["chelem_announced"].to_numpy(dtype=bool)),
)


def events_chart(data: analysis.Data) -> Drawn:
    """Bar chart of how often the bonuses happen: petit au bout (by side), poignées, chelems.

    Returns
    -------
    Drawn
        ``data`` has one row per bar: ``event`` (one line), ``contract``, ``count``
        (deals), ``n`` (played deals of the contract) and ``share`` (``count / n``, the
        height of the bar).
    """
    df = analysis.load_records(data)
    played = _played(df)
    present = _contracts(played)
    rows = []
    for con in present:
        mine = played[played["contract"] == con]
        for name, test in _EVENTS:
            count = int(np.asarray(test(mine), dtype=bool).sum())
            rows.append(
                {
                    "event": name.replace("\n", " "),
                    "contract": con,
                    "count": count,
                    "n": len(mine),
                    "share": count / len(mine),
                }
            )
    table = pd.DataFrame(rows, columns=["event", "contract", "count", "n", "share"])
    fig = _figure(9.0, 4.6)
    ax = fig.add_subplot()
    width = 0.8 / len(present)
    x = np.arange(len(_EVENTS))
    for i, con in enumerate(present):
        mine = table[table["contract"] == con]
        bars = ax.bar(
            x + (i - (len(present) - 1) / 2) * width,
            mine["share"].to_numpy(),
            width,
            color=CONTRACT_COLOURS[con],
            label=CONTRACT_LABELS[con],
        )
        ax.bar_label(bars, labels=[f"{s:.1%}" for s in mine["share"]], fontsize=6, padding=1, rotation=90)
    ax.set_xticks(x, [name for name, _ in _EVENTS], fontsize=8)
    ax.set_title("How often the bonuses happen")
    ax.set_xlabel("event (petit au bout and chelem by the side that scored it)")
    ax.set_ylabel("share of played deals (%)")
    _percent_axis(ax.yaxis)
    ax.margins(y=0.18)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(loc="upper right", fontsize=8)
    n = played["deal"].nunique()
    caption = (
        f"Share of played deals with a petit au bout, a poignée shown or a chelem, by "
        f"contract, from {_deals(n)}."
    )
    _caption(fig, caption)
    return Drawn(fig, table, caption)


# --------------------------------------------------------------------------- provenance


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


# --------------------------------------------------------------------------- documents


class _Doc:
    """The report as a list of blocks, written out as Markdown and as HTML."""

    def __init__(self) -> None:
        self.blocks: list[tuple[str, ...]] = []
        self.figures = 0

    def heading(self, level: int, text: str) -> None:
        self.blocks.append(("h", str(level), text))

    def para(self, text: str) -> None:
        self.blocks.append(("p", text))

    def table(self, df: pd.DataFrame, floatfmt: str = ".3f") -> None:
        self.blocks.append(("table", analysis.to_markdown(df, index=False, floatfmt=floatfmt)))

    def figure(self, name: str, drawn: Drawn) -> None:
        self.figures += 1
        title = drawn.figure.get_suptitle() or drawn.figure.axes[0].get_title()
        self.blocks.append(("fig", name, f"Figure {self.figures}. {drawn.caption}", title))

    def markdown(self) -> str:
        out = []
        for block in self.blocks:
            kind = block[0]
            if kind == "h":
                out.append("#" * int(block[1]) + " " + block[2])
            elif kind == "p":
                out.append(block[1])
            elif kind == "table":
                out.append(block[1].rstrip("\n"))
            else:
                _, name, caption, title = block
                out.append(f"![{title}]({name})\n\n*{caption}*")
        return "\n\n".join(out) + "\n"

    def html(self, title: str) -> str:
        body = []
        for block in self.blocks:
            kind = block[0]
            if kind == "h":
                body.append(f"<h{block[1]}>{html.escape(block[2])}</h{block[1]}>")
            elif kind == "p":
                body.append(f"<p>{_inline_html(block[1])}</p>")
            elif kind == "table":
                body.append(_table_html(block[1]))
            else:
                _, name, caption, alt = block
                body.append(
                    f'<figure>\n<img src="{html.escape(name)}" alt="{html.escape(alt)}">\n'
                    f"<figcaption>{html.escape(caption)}</figcaption>\n</figure>"
                )
        return (
            '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{html.escape(title)}</title>\n<style>\n{_CSS}</style>\n</head>\n<body>\n"
            + "\n".join(body)
            + "\n</body>\n</html>\n"
        )


_CSS = """\
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; max-width: 1100px;
       margin: 2em auto; padding: 0 1em; color: #222; line-height: 1.45; }
h1, h2 { border-bottom: 1px solid #ddd; padding-bottom: .2em; }
table { border-collapse: collapse; margin: 1em 0; font-size: .85em; }
th, td { border: 1px solid #ccc; padding: .25em .6em; }
th { background: #f3f3f3; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 1.5em 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-style: italic; font-size: .9em; color: #444; }
code { background: #f3f3f3; padding: 0 .2em; }
"""


def _inline_html(text: str) -> str:
    """Escape `text`, turning ``code`` spans into ``<code>``."""
    parts = text.split("`")
    return "".join(f"<code>{html.escape(p)}</code>" if i % 2 else html.escape(p) for i, p in enumerate(parts))


_PIPE = re.compile(r"(?<!\\)\|")


def _table_html(markdown: str) -> str:
    """HTML of a Markdown table written by :func:`tarotsim.analysis.to_markdown`."""
    lines = markdown.strip("\n").split("\n")

    def cells(line: str) -> list[str]:
        return [c.strip().replace("\\|", "|") for c in _PIPE.split(line.strip())[1:-1]]

    header, aligns, rows = cells(lines[0]), cells(lines[1]), [cells(x) for x in lines[2:]]
    numeric = [a.endswith(":") for a in aligns]
    out = [
        "<table>",
        "<thead><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in header) + "</tr></thead>",
        "<tbody>",
    ]
    for row in rows:
        out.append(
            "<tr>"
            + "".join(
                f'<td class="num">{html.escape(c)}</td>' if num else f"<td>{html.escape(c)}</td>"
                for c, num in zip(row, numeric, strict=False)
            )
            + "</tr>"
        )
    out += ["</tbody>", "</table>"]
    return "\n".join(out)


def _save(drawn: Drawn, out_dir: Path, name: str) -> str:
    drawn.figure.savefig(out_dir / name, dpi=DPI, facecolor="white")
    return name


# --------------------------------------------------------------------------- the report


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
    _check_min_n(min_n)
    manifest, records = read_run(run_dir)
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ValueError(f"cannot create report folder {str(out)!r}: {err.strerror or err}") from None
    run = manifest["run"]
    kind = run["kind"]
    played = _played(records)
    contracts = _contracts(played)
    sweep = kind == "sweep"
    n_played = played["deal"].nunique()

    doc = _Doc()
    title = f"tarotsim report: {kind} run, seed {run.get('seed')}, {_deals(int(run.get('deals', 0)))}"
    doc.heading(1, title)
    policy = run.get("config", {}).get("policy")
    if sweep:
        doc.para(
            f"Every deal was played under each of {', '.join(CONTRACT_LABELS[c] for c in contracts)} "
            f"by seat {run.get('seat')}, with `{policy}` card play: contracts are compared on the "
            f"same hands. {n_played:,} deals were played; thrown-in deals are left out everywhere."
        )
    else:
        doc.para(
            f"Each deal was bid and played once (`{policy}` card play, "
            f"`{run.get('config', {}).get('bid_policy')}` bidding): each contract is seen only on "
            f"the hands the bidding gave it. {n_played:,} deals were played; thrown-in deals "
            "(all passed or petit sec) are left out everywhere."
        )
    if not manifest.get("complete", False):
        doc.para("Warning: this run is not complete; the report covers the chunks finished so far.")
    skipped: list[str] = []

    doc.heading(2, "Provenance")
    doc.table(provenance_table(manifest, records))

    doc.heading(2, "Success rate by bouts and trump length")
    doc.para(f"Cells with fewer than {min_n} played deals are hatched grey and marked n<{min_n}.")
    for con in contracts:
        drawn = success_heatmap(played, con, min_n=min_n)
        doc.figure(_save(drawn, out, f"heatmap_{con}.png"), drawn)
    doc.heading(2, "Success rate against trump length")
    for con in contracts:
        drawn = success_lines(played, con, min_n=min_n)
        doc.figure(_save(drawn, out, f"success_{con}.png"), drawn)
    doc.heading(3, "Thresholds")
    doc.para(
        f"Smallest trump length whose success rate reaches 50% in a cell of at least {min_n} "
        "deals, per contract and bout count; `confident` when the lower end of the 95% Wilson "
        "interval reaches 50% too."
    )
    doc.table(analysis.thresholds(played, 0.5, min_n))

    doc.heading(2, "Best contract")
    if sweep:
        drawn = best_contract_map(played, min_n=min_n)
        doc.figure(_save(drawn, out, "best_contract.png"), drawn)
        doc.table(drawn.data, floatfmt=".1f")
    else:
        note = (
            "Skipped: the best-contract map needs a sweep run (every deal played under every "
            "contract); in a simulate run the contracts are played on different hands."
        )
        doc.para(note)
        skipped.append("best-contract map and table")

    doc.heading(2, "Hand points")
    drawn = hand_points_plot(played, min_n=min_n)
    doc.figure(_save(drawn, out, "hand_points.png"), drawn)
    if sweep:
        doc.para(
            "Where each contract's mean score turns positive and where it is the best choice, "
            "in hand points, against the published bands:"
        )
        doc.table(analysis.hand_points_thresholds(played, None, min_n), floatfmt=".0f")
    else:
        doc.para(
            "In a simulate run each contract's line covers only the hands the bidding chose it "
            "for, so the lines are not a like-for-like comparison. Skipped: the hand-point "
            "thresholds table, which needs a sweep run."
        )
        skipped.append("hand-point thresholds table")

    doc.heading(2, "Distributions")
    for name, drawn in (
        ("taker_score.png", taker_score_histogram(played)),
        ("attack_margin.png", attack_margin_histogram(played)),
        ("events.png", events_chart(played)),
    ):
        doc.figure(_save(drawn, out, name), drawn)
    if skipped:
        doc.heading(2, "Left out")
        doc.para(f"This is a {kind} run, so these parts were left out: {'; '.join(skipped)}.")

    (out / "report.md").write_text(doc.markdown(), encoding="utf-8")
    (out / "report.html").write_text(doc.html(title), encoding="utf-8")
    return out
