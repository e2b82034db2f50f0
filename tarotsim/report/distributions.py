"""The report's distributions: taker scores, attack points against target, and bonuses, by contract.

Each figure is drawn from the deals of each distinct value (a tally, `tally`), counted
chunk by chunk: a histogram of a run of any size needs only its distinct values, and its
bars equal those of the deals themselves. As in `tarotsim.report.figures`, each figure
function reads the records and hands its tally to its ``draw_*`` function, which the report
calls with the tallies of its one pass over the run.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from tarotsim import analysis
from tarotsim.analysis.moments import CellSums, Counts, cell_table, exact_means, whole_numbers
from tarotsim.analysis.reduction import Reduction, open_chunks, plan, reduce_records
from tarotsim.engine.labels import CONTRACTS, SIDE_NAMES, TARGETS
from tarotsim.report.figures import Drawn
from tarotsim.report.style import (
    BOUTS,
    contract_colour,
    contract_name,
    deals_text,
    new_figure,
    percent_axis,
    write_caption,
)

_TARGET_POINTS = np.array([TARGETS[bouts] for bouts in BOUTS], dtype=float)
"""Card points the attack needs, indexed by the bouts it ends with."""

_TARGETS_TEXT = " / ".join(f"{points:g}" for points in _TARGET_POINTS)

SCORE_TALLY = ("taker_score",)
"""What the taker-score histogram counts deals by (besides the contract)."""

MARGIN_TALLY = ("attack_points", "attack_bouts")
"""What the attack-margin histogram counts deals by."""

EVENT_TALLY = ("petit_au_bout", "chelem", "poignees", "chelem_announced")
"""What the bonus chart counts deals by (a missing side is a value of its own)."""


def _tally_sums(keys: Sequence[str]) -> CellSums:
    return CellSums(keys, sums=False, dropna=False)


def distributions_plan() -> dict[str, Reduction]:
    """The reductions of the three distributions (what `tally` and the deal count read)."""
    return plan(*(_tally_sums(keys) for keys in (SCORE_TALLY, MARGIN_TALLY, EVENT_TALLY)), Counts())


def tally(results: dict[str, Any], keys: Sequence[str]) -> pd.DataFrame:
    """Played deals of each (contract, *keys*) value from reduced records: ``contract``, the keys, ``n``.

    On weighted records (a conditioned sweep) ``n`` is each value's weight scaled to the played
    deals and rounded: the deals a run of that size dealt uniformly within its condition would
    hold, as the weights estimate them."""
    table = cell_table(results[_tally_sums(keys).key])
    if "deals" in table.columns:
        scale = table.pop("deals").sum() / table["n"].sum() if table["n"].sum() > 0 else 0.0
        table["n"] = np.rint(table["n"] * scale).astype(np.int64)
    return table


def _reduce(data: analysis.Data, keys: Sequence[str], what: str, client: Any) -> dict[str, Any]:
    chunks = open_chunks(data, ["deal", "contract", *keys], what=what)
    return reduce_records(chunks, plan(_tally_sums(keys), Counts()), what=what, client=client)


def taker_score_histogram(data: analysis.Data, *, client: Any = None) -> Drawn:
    """Histogram of the taker's score, one panel per contract (thrown-in deals left out).

    Returns
    -------
    Drawn
        ``data`` has one row per bar: ``contract``, ``bin_low``, ``bin_high`` (game
        points) and ``count`` (deals); the counts of a contract sum to its played deals.
    """
    results = _reduce(data, SCORE_TALLY, "taker_score_histogram", client)
    return draw_taker_score_histogram(tally(results, SCORE_TALLY), results[Counts.key]["played_deals"])


def draw_taker_score_histogram(scores: pd.DataFrame, played_deals: int) -> Drawn:
    """The [`taker_score_histogram`][tarotsim.report.distributions.taker_score_histogram] from the deals of each (contract, taker score)
    (`tally` of `SCORE_TALLY`) and the count of played deals."""
    present = [c for c in CONTRACTS if c in set(scores["contract"])]
    ncols = min(2, len(present))
    nrows = -(-len(present) // ncols)
    fig = new_figure(5.0 * ncols, 3.0 * nrows + 0.7)
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    rows = []
    for ax, con in zip(axes, present, strict=False):
        mine = scores[scores["contract"] == con]
        values, deals = mine["taker_score"].to_numpy(dtype=float), mine["n"].to_numpy(dtype=np.int64)
        counts, edges = _weighted_histogram(values, deals, _score_edges(values))
        mean = float(
            exact_means(
                np.array([(whole_numbers(mine["taker_score"]) * deals).sum().item()], dtype=object),
                np.array([deals.sum()]),
            )[0]
        )
        ax.stairs(counts, edges, fill=True, color=contract_colour(con), alpha=0.85)
        ax.axvline(0.0, color="black", linewidth=0.8)
        ax.axvline(mean, color="black", linewidth=1.0, linestyle="--", label=f"mean {mean:+.0f}")
        ax.set_title(f"{contract_name(con)} ({deals_text(int(deals.sum()))})", fontsize=10)
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
    caption = (
        f"Taker's score per played deal for each contract (thrown-in deals left out), "
        f"from {deals_text(played_deals)}; the dashed line is the mean."
    )
    write_caption(fig, caption)
    table = pd.concat(rows, ignore_index=True)
    return Drawn(fig, table, caption)


def _weighted_histogram(
    values: np.ndarray, deals: np.ndarray, edges: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """int64[len(edges) - 1] deals per bin of `values` held by `deals` deals each, and the edges."""
    counts, edges = np.histogram(values, bins=edges, weights=deals)
    return np.rint(counts).astype(np.int64), edges


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


def attack_margin_histogram(data: analysis.Data, *, client: Any = None) -> Drawn:
    """Histogram of the attack's points minus its target by bouts (`tarotsim.engine.labels.TARGETS`).

    Bins are one card point wide and start on whole numbers, so a contract made by a half
    point (+0.5) and one failed by a half point (−0.5) fall either side of 0.

    Returns
    -------
    Drawn
        ``data`` has one row per bin and contract: ``contract``, ``bin_low``,
        ``bin_high`` (card points) and ``count`` (deals).
    """
    results = _reduce(data, MARGIN_TALLY, "attack_margin_histogram", client)
    return draw_attack_margin_histogram(tally(results, MARGIN_TALLY), results[Counts.key]["played_deals"])


def draw_attack_margin_histogram(ends: pd.DataFrame, played_deals: int) -> Drawn:
    """The [`attack_margin_histogram`][tarotsim.report.distributions.attack_margin_histogram] from the deals of each (contract, attack points,
    attack bouts) (`tally` of `MARGIN_TALLY`) and the count of played deals."""
    present = [c for c in CONTRACTS if c in set(ends["contract"])]
    diff = (
        ends["attack_points"].to_numpy(dtype=float)
        - _TARGET_POINTS[ends["attack_bouts"].to_numpy(dtype=np.int64)]
    )
    deals = ends["n"].to_numpy(dtype=np.int64)
    edges = np.arange(math.floor(diff.min()), math.floor(diff.max()) + 2, 1.0)
    fig = new_figure(9.0, 4.6)
    ax = fig.add_subplot()
    rows = []
    contract = ends["contract"].to_numpy()
    for con in present:
        counts, _ = _weighted_histogram(diff[contract == con], deals[contract == con], edges)
        # lower contracts get wider lines, so that identical histograms (prise and garde
        # in a sweep: the same play) still show both colours
        width = 1.3 + 0.6 * (len(CONTRACTS) - 1 - CONTRACTS.index(con))
        ax.stairs(counts, edges, color=contract_colour(con), linewidth=width, label=contract_name(con))
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
    ax.set_xlabel(f"attack points − target (card points; target {_TARGETS_TEXT} for 0–3 bouts)")
    ax.set_ylabel("deals (per 1-point bin)")
    ax.grid(alpha=0.3)
    ax.legend(loc="upper right", fontsize=8)
    caption = (
        f"How far the attack ends above or below its target, by contract, from {deals_text(played_deals)} "
        "(thrown-in deals left out); right of the dashed line the contract is made."
    )
    write_caption(fig, caption)
    return Drawn(fig, pd.concat(rows, ignore_index=True), caption)


def _scored_by(column: str, side: str) -> Callable[[pd.DataFrame], pd.Series]:
    """The test "the side `side` scored the bonus recorded in `column`" on played rows."""
    return lambda played: played[column].astype(object) == side


_EVENTS = (
    *((f"petit au bout\n{side}", _scored_by("petit_au_bout", side)) for side in SIDE_NAMES),
    ("poignée shown\n(any side)", lambda p: p["poignees"].to_numpy() > 0),
    *((f"chelem\n{side}", _scored_by("chelem", side)) for side in SIDE_NAMES),
    ("chelem\nannounced", lambda p: p["chelem_announced"].to_numpy(dtype=bool)),
)


def events_chart(data: analysis.Data, *, client: Any = None) -> Drawn:
    """Bar chart of how often the bonuses happen: petit au bout (by side), poignées, chelems.

    Returns
    -------
    Drawn
        ``data`` has one row per bar: ``event`` (one line), ``contract``, ``count``
        (deals), ``n`` (played deals of the contract) and ``share`` (``count / n``, the
        height of the bar).
    """
    results = _reduce(data, EVENT_TALLY, "events_chart", client)
    return draw_events_chart(tally(results, EVENT_TALLY), results[Counts.key]["played_deals"])


def draw_events_chart(events: pd.DataFrame, played_deals: int) -> Drawn:
    """The [`events_chart`][tarotsim.report.distributions.events_chart] from the deals of each combination of events by contract
    (`tally` of `EVENT_TALLY`) and the count of played deals."""
    present = [c for c in CONTRACTS if c in set(events["contract"])]
    rows = []
    for con in present:
        mine = events[events["contract"] == con]
        deals = mine["n"].to_numpy(dtype=np.int64)
        for name, test in _EVENTS:
            count = int(deals[np.asarray(test(mine), dtype=bool)].sum())
            rows.append(
                {
                    "event": name.replace("\n", " "),
                    "contract": con,
                    "count": count,
                    "n": int(deals.sum()),
                    "share": count / int(deals.sum()),
                }
            )
    table = pd.DataFrame(rows, columns=["event", "contract", "count", "n", "share"])
    fig = new_figure(9.0, 4.6)
    ax = fig.add_subplot()
    width = 0.8 / len(present)
    x = np.arange(len(_EVENTS))
    for i, con in enumerate(present):
        mine = table[table["contract"] == con]
        bars = ax.bar(
            x + (i - (len(present) - 1) / 2) * width,
            mine["share"].to_numpy(),
            width,
            color=contract_colour(con),
            label=contract_name(con),
        )
        ax.bar_label(bars, labels=[f"{s:.1%}" for s in mine["share"]], fontsize=6, padding=1, rotation=90)
    ax.set_xticks(x, [name for name, _ in _EVENTS], fontsize=8)
    ax.set_title("How often the bonuses happen")
    ax.set_xlabel("event (petit au bout and chelem by the side that scored it)")
    ax.set_ylabel("share of played deals (%)")
    percent_axis(ax.yaxis)
    ax.margins(y=0.18)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(loc="upper right", fontsize=8)
    caption = (
        f"Share of played deals with a petit au bout, a poignée shown or a chelem, by "
        f"contract, from {deals_text(played_deals)}."
    )
    write_caption(fig, caption)
    return Drawn(fig, table, caption)
