"""The report's figures of success, best contract and hand points: records in, a [`Drawn`][tarotsim.report.figures.Drawn] out.

Each figure function takes records (a DataFrame or a run directory), computes its table with
[`tarotsim.analysis`][tarotsim.analysis] (chunk by chunk) and hands it to its ``draw_*`` function, which draws
it on an Agg ``Figure`` (see `tarotsim.report.style`) with a one-line caption along its
foot. The report calls the ``draw_*`` functions with the tables of one pass over the run.
Thrown-in deals are left out of every figure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
import pandas as pd

from tarotsim import analysis
from tarotsim.analysis.loading import check_min_n
from tarotsim.engine.labels import CONTRACTS
from tarotsim.report.style import (
    BOUT_COLOURS,
    BOUTS,
    THIN_FACE,
    cell_image,
    contract_colour,
    contract_name,
    contract_short,
    deals_text,
    grid_axes,
    new_figure,
    percent_axis,
    rgba,
    text_colour,
    thin_patch,
    trump_range,
    write_caption,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure


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


# --------------------------------------------------------------------------- success


def success_heatmap(data: analysis.Data, contract: str, *, min_n: int = 30, name: str | None = None) -> Drawn:
    """Heatmap of the success rate of `contract` by the taker's bouts and trump length.

    Rows are bouts 0–3, columns the trump lengths seen in the played deals. Each cell of
    [`tarotsim.analysis.success_table`][tarotsim.analysis.success_table] gets one annotation: its rate in percent, or,
    when it holds fewer than `min_n` deals, a grey hatched square marked ``n<MIN_N`` (with
    its rate in small type). Cells without a deal stay blank. `name` replaces the
    contract's name in the title and caption (for contracts drawn once for several, when
    they are the same play).

    Returns
    -------
    Drawn
        ``data`` is the success table of `contract` (columns of
        [`success_table`][tarotsim.analysis.success_table]) plus ``low_n`` (``n < min_n``).
    """
    check_min_n(min_n)
    return draw_success_heatmap(analysis.success_table(data), contract, min_n=min_n, name=name)


def _contract_cells(success: pd.DataFrame, contract: str, min_n: int) -> pd.DataFrame:
    """The rows of `contract` in a success table of every contract, with ``low_n``."""
    table = success[success["contract"] == contract].reset_index(drop=True)
    table["low_n"] = table["n"] < min_n
    return table


def draw_success_heatmap(
    success: pd.DataFrame, contract: str, *, min_n: int, name: str | None = None
) -> Drawn:
    """The [`success_heatmap`][tarotsim.report.figures.success_heatmap] of `contract` from the success table of every contract
    ([`tarotsim.analysis.success_table`][tarotsim.analysis.success_table] by bouts and trumps, which sets the trump lengths shown)."""
    from matplotlib import colormaps

    table = _contract_cells(success, contract, min_n)
    columns = trump_range(success)
    grid = np.full((len(BOUTS), len(columns)), np.nan)
    for row in table.itertuples(index=False):
        if not row.low_n:
            grid[int(row.taker_bouts), int(row.taker_trumps) - columns[0]] = row.rate
    cmap = colormaps["RdYlGn"].with_extremes(bad="white")
    fig = new_figure(max(6.0, 0.5 * len(columns) + 2.2), 3.9)
    ax = fig.add_subplot()
    image = cell_image(ax, grid, cmap, 0.0, 1.0)
    for row in table.itertuples(index=False):
        x, y = int(row.taker_trumps) - columns[0], int(row.taker_bouts)
        if row.low_n:
            thin_patch(ax, x, y)
            ax.text(
                x,
                y,
                f"n<{min_n}\n{row.rate:.0%}",
                ha="center",
                va="center",
                fontsize=6.5,
                color="#444444",
                zorder=3,
                bbox={"facecolor": THIN_FACE, "edgecolor": "none", "pad": 0.6, "alpha": 0.9},
            )
        else:
            ax.text(
                x,
                y,
                f"{row.rate:.0%}",
                ha="center",
                va="center",
                fontsize=7.5,
                color=text_colour(cmap(row.rate)),
                zorder=3,
            )
    grid_axes(ax, columns)
    label = name or contract_name(contract)
    ax.set_title(f"{label[:1].upper()}{label[1:]}: success rate by bouts and trump length")
    bar = fig.colorbar(image, ax=ax, fraction=0.04, pad=0.02)
    bar.set_label("success rate (%)")
    percent_axis(bar.ax.yaxis)
    n = int(table["n"].sum())
    caption = (
        f"Share of {label} contracts made, by the taker's bouts and trumps as dealt, from "
        f"{deals_text(n)}; hatched grey cells hold fewer than {min_n} deals."
    )
    write_caption(fig, caption)
    return Drawn(fig, table, caption)


def success_lines(data: analysis.Data, contract: str, *, min_n: int = 30, name: str | None = None) -> Drawn:
    """Success rate of `contract` against trump length, one line per bout count.

    Each line joins the cells of [`tarotsim.analysis.success_table`][tarotsim.analysis.success_table] with at least
    `min_n` deals, with its 95 % Wilson interval as a band (``rate_low`` to ``rate_high``);
    thinner cells are shown as small hollow markers off the line. `name` replaces the
    contract's name in the title and caption.

    Returns
    -------
    Drawn
        ``data`` is the success table of `contract` plus ``low_n``. The line of ``b``
        bouts has the label ``"b bouts"`` (``"1 bout"``) and the table's ``rate`` of its
        cells with ``n >= min_n``, in trump order, as y data.
    """
    check_min_n(min_n)
    return draw_success_lines(
        analysis.success_table(data, contract=contract), contract, min_n=min_n, name=name
    )


def draw_success_lines(success: pd.DataFrame, contract: str, *, min_n: int, name: str | None = None) -> Drawn:
    """The [`success_lines`][tarotsim.report.figures.success_lines] of `contract` from a success table holding its cells."""
    from matplotlib.ticker import MaxNLocator

    table = _contract_cells(success, contract, min_n)
    fig = new_figure(8.0, 4.6)
    ax = fig.add_subplot()
    thin_drawn = False
    for bouts, colour in zip(BOUTS, BOUT_COLOURS, strict=True):
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
    label = name or contract_name(contract)
    ax.set_title(f"{label[:1].upper()}{label[1:]}: success rate against trump length (95% Wilson bands)")
    ax.set_xlabel("taker's trump length (trumps 1–21 in hand, cards)")
    ax.set_ylabel("success rate (%)")
    ax.set_ylim(-0.02, 1.02)
    percent_axis(ax.yaxis)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize=8, frameon=True)
    n = int(table["n"].sum())
    caption = (
        f"Share of {label} contracts made against the taker's trumps, by bouts, with 95% "
        f"Wilson intervals, from {deals_text(n)}; lines join cells of at least {min_n} deals."
    )
    write_caption(fig, caption)
    return Drawn(fig, table, caption)


# --------------------------------------------------------------------------- best contract


def best_contract_map(data: analysis.Data, *, min_n: int = 30) -> Drawn:
    """Map of the best choice (pass or a contract) by the taker's bouts and trump length.

    Colours are those of [`CONTRACT_COLOURS`][tarotsim.report.style.CONTRACT_COLOURS]; each cell of
    [`tarotsim.analysis.best_contract`][tarotsim.analysis.best_contract] is labelled with a short name (``–`` pass,
    ``P``, ``G``, ``GS``, ``GC``). A cell that is not ``decided`` is hatched and its label
    marked: ``G=P`` when the best choice and the runner-up are the same play (ahead by its
    multiplier only), ``GS?`` otherwise (the 95 % interval of best − runner-up includes 0,
    or the cell holds fewer than `min_n` deals). Needs sweep records
    ([`best_contract`][tarotsim.analysis.best_contract] raises otherwise).

    Returns
    -------
    Drawn
        ``data`` is the [`best_contract`][tarotsim.analysis.best_contract] table.
    """
    check_min_n(min_n)
    return draw_best_contract_map(analysis.best_contract(data, min_n=min_n), min_n=min_n)


def draw_best_contract_map(table: pd.DataFrame, *, min_n: int) -> Drawn:
    """The [`best_contract_map`][tarotsim.report.figures.best_contract_map] of a [`tarotsim.analysis.best_contract`][tarotsim.analysis.best_contract] table."""
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    present = [c for c in CONTRACTS if f"score_{c}" in table.columns]
    choices = [analysis.PASS, *present]
    columns = trump_range(table)
    grid = np.full((len(BOUTS), len(columns)), np.nan)
    for row in table.itertuples(index=False):
        grid[int(row.taker_bouts), int(row.taker_trumps) - columns[0]] = choices.index(row.best)
    cmap = ListedColormap([contract_colour(c) for c in choices]).with_extremes(bad="white")
    fig = new_figure(max(6.0, 0.5 * len(columns) + 3.4), 3.9)
    ax = fig.add_subplot()
    cell_image(ax, grid, cmap, -0.5, len(choices) - 0.5)
    for row in table.itertuples(index=False):
        x, y = int(row.taker_trumps) - columns[0], int(row.taker_bouts)
        if not row.decided:
            thin_patch(ax, x, y, face="none", edge="white")
        colour = contract_colour(row.best)
        ax.text(
            x,
            y,
            best_cell_label(
                row.best, row.runner_up, decided=bool(row.decided), same_play=bool(row.same_play)
            ),
            ha="center",
            va="center",
            fontsize=7.5 if row.decided else 6.5,
            zorder=3,
            color=text_colour(rgba(colour)),
            fontweight="bold" if row.decided else "normal",
        )
    grid_axes(ax, columns)
    ax.set_title("Best choice by bouts and trump length (highest mean taker score, pass = 0)")
    handles = [
        Patch(facecolor=contract_colour(c), label=f"{contract_short(c)}  {contract_name(c)}") for c in choices
    ]
    handles.append(
        Patch(
            facecolor="#cccccc",
            edgecolor="white",
            hatch="///",
            label=f"GS?  undecided: best − runner-up\n95% interval includes 0, or n<{min_n}",
        )
    )
    handles.append(
        Patch(
            facecolor="#cccccc",
            edgecolor="white",
            hatch="///",
            label="G=P  undecided: the same play as\nthe runner-up, ahead by its multiplier",
        )
    )
    ax.legend(
        handles=handles,
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        fontsize=7,
        title="best choice",
        title_fontsize=8,
        frameon=False,
    )
    n = int(table["n"].sum())
    caption = (
        f"Choice with the highest mean taker score (pass scores 0) by hand shape, all contracts "
        f"played on the same {deals_text(n)}; hatched: not decided (see legend)."
    )
    write_caption(fig, caption)
    return Drawn(fig, table, caption)


def best_cell_label(best: str, runner_up: str | None, *, decided: bool, same_play: bool) -> str:
    """The label of a best-contract map cell: ``"G"``, ``"G=P"`` (same play), ``"GS?"`` (undecided)."""
    if decided:
        return contract_short(best)
    if same_play and runner_up is not None:
        return f"{contract_short(best)}={contract_short(runner_up)}"
    return f"{contract_short(best)}?"


# --------------------------------------------------------------------------- hand points


def hand_points_plot(
    data: analysis.Data,
    *,
    min_n: int = 30,
    bins: int | Sequence[float] | None = None,
    scale: str = "hand_points",
) -> Drawn:
    """Mean taker score of each contract against the hand-point count (Chavey).

    One line per contract through the bins of [`tarotsim.analysis.hand_points_table`][tarotsim.analysis.hand_points_table]
    with at least `min_n` deals, plotted at the bin centre, with a ±1.96 standard-error
    band. The published bands (`tarotsim.engine.labels.PUBLISHED_BANDS`: the hand points
    each contract is usually bid from) made on the count `scale` are dashed vertical lines
    in the contract's colour; bands made on the other count
    ([`tarotsim.analysis.BAND_SCALES`][tarotsim.analysis.BAND_SCALES]) are named in the legend, not drawn.

    Returns
    -------
    Drawn
        ``data`` is the [`hand_points_table`][tarotsim.analysis.hand_points_table] with ``bin_mid``
        (bin centre, the x data of the lines) added. The line of a contract has its
        label ([`CONTRACT_LABELS`][tarotsim.report.style.CONTRACT_LABELS]) and the ``mean_score`` of its counted bins as y data.
    """
    check_min_n(min_n)
    return draw_hand_points_plot(
        analysis.hand_points_table(data, bins, min_n, scale=scale), min_n=min_n, scale=scale
    )


def draw_hand_points_plot(table: pd.DataFrame, *, min_n: int, scale: str = "hand_points") -> Drawn:
    """The [`hand_points_plot`][tarotsim.report.figures.hand_points_plot] of a [`tarotsim.analysis.hand_points_table`][tarotsim.analysis.hand_points_table] on `scale`."""
    table = table.copy()
    table["bin_mid"] = (table["bin_low"] + table["bin_high"]) / 2.0
    fig = new_figure(9.0, 5.0)
    ax = fig.add_subplot()
    present = list(dict.fromkeys(table["contract"]))
    for con in present:
        mine = table[(table["contract"] == con) & ~table["low_n"]].sort_values("bin_low")
        if not len(mine):
            continue
        x = mine["bin_mid"].to_numpy()
        y = mine["mean_score"].to_numpy()
        half = analysis.Z95 * mine["score_se"].fillna(0.0).to_numpy()
        ax.fill_between(x, y - half, y + half, color=contract_colour(con), alpha=0.18, linewidth=0)
        ax.plot(x, y, color=contract_colour(con), linewidth=1.6, label=contract_name(con))
    ax.axhline(0.0, color="black", linewidth=0.8, label="pass (scores 0)")
    top = 0.98
    drawn = [con for con in present if analysis.BAND_SCALES[con] == scale]
    for con in drawn:
        at = analysis.PUBLISHED_HAND_POINTS[con]
        ax.axvline(at, color=contract_colour(con), linestyle="--", linewidth=1.1, gid=f"published_{con}")
        ax.text(
            at,
            top,
            f" {at}",
            transform=ax.get_xaxis_transform(),
            color=contract_colour(con),
            ha="left",
            va="top",
            fontsize=8,
        )
    label = "published band start" + (
        f"\n({' / '.join(str(analysis.PUBLISHED_HAND_POINTS[c]) for c in drawn)})" if drawn else ""
    )
    other = [con for con in present if con not in drawn]
    if other:
        bands = ", ".join(f"{contract_short(c)} {analysis.PUBLISHED_HAND_POINTS[c]}" for c in other)
        label += f"\n{bands}: made on {analysis.BAND_SCALES[other[0]]},\nnot drawn on {scale}"
    ax.plot([], [], color="#555555", linestyle="--", linewidth=1.1, label=label)
    ax.set_title("Expected taker score against hand points, by contract")
    ax.set_xlabel(f"{scale.replace('_', ' ')} (Chavey count of the dealt hand, bin centre)")
    ax.set_ylabel("mean taker score (game points)")
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize=8)
    per = table.groupby("contract", sort=False)["n"].sum()
    if per.nunique() == 1:
        dealt = f"{deals_text(int(per.iloc[0]))} per contract"
    else:
        dealt = ", ".join(f"{contract_name(c)} {int(v):,}" for c, v in per.items()) + " deals"
    caption = (
        f"Mean taker score (±95% band) by hand-point bin for each contract, from {dealt}; "
        f"bins with fewer than {min_n} deals are left out."
    )
    write_caption(fig, caption)
    return Drawn(fig, table, caption)
