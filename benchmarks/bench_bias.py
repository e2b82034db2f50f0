"""How far the heuristic's card play biases the published tables: the contract sweep played
with heuristic play and with ``pimc`` for every seat on the same deals; writes reports/bias.md.

The sweeps use the same seed (the same deals, the same taking seat) and the sweep defaults
(the one default: the expert écart …); only the card play differs: the heuristic,
``basic`` (tarotsim 0.1.0's heuristic, which played the published 100M sweep) and
``pimc`` (at its default options, or those of ``--pimc``) for every seat. The report sets side by side, with 95 %
intervals:

- findings read off the tables below them;
- the success rate, attack card points and taker score by contract, and by contract and
  bouts, as paired differences deal by deal (normal interval of the per-deal differences, as
  ``analysis.compare``), and each play's success by bouts (Wilson intervals);
- the cells of contract, bouts and trumps whose success moves (with the count expected by
  chance and a Bonferroni count);
- the trump thresholds by bouts (``analysis.thresholds``, fitted curves, delta-method
  intervals) and their differences (conservative interval);
- pimc and the heuristic against ``basic``;
- the best-contract map by bouts and trumps (``analysis.best_contract``) and the cells whose
  best choice differs;
- the wall and CPU time of each sweep.

The ``pimc`` sweep runs in chunks (``--chunk``); with ``--keep DIR`` every sweep and chunk is
kept there and read back, so a stopped study resumes and its report is rewritten without a rerun.

    .venv/bin/python benchmarks/bench_bias.py [--deals 300] [--pimc worlds=24,drop=0] [--seed 2026]
        [--keep DIR] [--chunk 2500] [--out reports/bias.md]
"""

from __future__ import annotations

import argparse
import datetime
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import norm

import tarotsim
from tarotsim.analysis import best_contract, success_table, thresholds
from tarotsim.analysis.same_play import PLAY_COLUMNS
from tarotsim.analysis.tables import to_markdown
from tarotsim.base.seeding import resolve_seed
from tarotsim.bench.timing import machine
from tarotsim.engine.labels import CONTRACTS
from tarotsim.players.config import RunConfig, check_threads
from tarotsim.players.policies import PLAY_POLICIES
from tarotsim.players.strategy import DEFAULT_DROP, DEFAULT_WORLDS
from tarotsim.runs.spec import RunSpec

REPORTS = Path(__file__).resolve().parent.parent / "reports"
TARGET_DEALS = 50_000
Z95 = 1.959963984540054
MIN_CELL = 200
"""Fewest paired deals a cell of contract, bouts and trumps needs to be listed among the moves."""


def _kept(
    stored: Path | None, compute: Callable[[], pd.DataFrame], label: str
) -> tuple[pd.DataFrame, float, float]:
    """``compute()`` or, when ``stored`` exists, its rows read back; with its wall and CPU seconds
    (kept beside the rows in ``.seconds``)."""
    if stored is not None and stored.exists():
        wall, cpu = (float(v) for v in stored.with_suffix(".seconds").read_text().split())
        print(label, "read from", stored, flush=True)
        return pd.read_parquet(stored), wall, cpu
    started, started_cpu = time.perf_counter(), time.process_time()
    frame = compute()
    wall, cpu = time.perf_counter() - started, time.process_time() - started_cpu
    if stored is not None:
        stored.parent.mkdir(parents=True, exist_ok=True)
        frame.to_parquet(stored)
        stored.with_suffix(".seconds").write_text(f"{wall:.3f} {cpu:.3f}")
    print(label, f"{wall:.0f} s wall, {cpu:.0f} s CPU", flush=True)
    return frame, wall, cpu


def pimc_spec(pimc_options: str) -> str:
    """The strategy spec of the ``pimc`` seats: ``pimc_options`` and the expert écart."""
    return f"play=pimc,{pimc_options},ecart=expert"


def run_sweeps(
    deals: int, seed: int, pimc_options: str, keep: Path | None = None, chunk: int = 2_500
) -> tuple[dict[str, pd.DataFrame], dict[str, tuple[float, float]]]:
    """The sweeps and their (wall, CPU) seconds: the heuristic, ``basic`` (tarotsim 0.1.0's
    heuristic, which played the published 100M sweep; when that policy exists) and
    ``pimc`` with ``pimc_options`` (``key=value`` pairs separated by commas, such as
    ``worlds=24,drop=0``), each on the four contracts.

    The ``pimc`` sweep is computed in chunks of ``chunk`` deals (``RunSpec.compute_chunk``: the
    records of a deal do not depend on the chunking). With ``keep``, every sweep and chunk is
    written there and read back instead of being run again, so a long study resumes where it was
    stopped and its report can be rewritten without a rerun.
    """
    seed = resolve_seed(seed)
    frames: dict[str, pd.DataFrame] = {}
    seconds: dict[str, tuple[float, float]] = {}
    pimc = RunConfig(strategies=[pimc_spec(pimc_options)] * 4)
    cheap = {"heuristic": RunConfig(policy="heuristic", ecart_policy="expert")}
    if "basic" in PLAY_POLICIES:
        cheap["basic"] = RunConfig(policy="basic", ecart_policy="expert")

    def path(name: str) -> Path | None:
        return keep / f"{name}.parquet" if keep else None

    for name, config in cheap.items():
        frame, wall, cpu = _kept(
            path(f"{name}-{deals}-{seed}"),
            lambda config=config: tarotsim.sweep(deals, seed=seed, config=config, progress=False),
            name,
        )
        frames[name], seconds[name] = frame, (wall, cpu)
    spec = RunSpec(kind="sweep", seed=seed, deals=deals, config=pimc, chunk_deals=chunk, contracts=CONTRACTS)
    parts, wall, cpu = [], 0.0, 0.0
    for index in range(-(-deals // chunk)):
        first, count = spec.chunk_range(index)
        part, w, c = _kept(
            path(f"pimc-{seed}-{pimc_options}-{first}-{count}"),
            lambda index=index: spec.compute_chunk(index, progress=False),
            f"pimc deals {first:,}–{first + count - 1:,}",
        )
        parts.append(part)
        wall, cpu = wall + w, cpu + c
    frames["pimc"] = pd.concat(parts, ignore_index=True)
    seconds["pimc"] = (wall, cpu)
    return frames, seconds


def same_play_check(checked: pd.DataFrame) -> tuple[int, int]:
    """(deals, deals whose Prise and Garde differ in made, card points or bouts) in ``checked``."""
    played = checked[checked["thrown_in"] == "none"].set_index(["deal", "contract"])[list(PLAY_COLUMNS)]
    prise = played.xs("prise", level="contract")
    garde = played.xs("garde", level="contract").loc[prise.index]
    return len(prise), int((prise != garde).any(axis=1).sum())


def side_by_side(tables: dict[str, pd.DataFrame], keys: list[str], columns: list[str]) -> pd.DataFrame:
    """The columns of each play's table on one row per key, suffixed by the play."""
    merged = None
    for name, table in tables.items():
        part = table[keys + columns].rename(columns={c: f"{c} ({name})" for c in columns})
        merged = part if merged is None else merged.merge(part, on=keys, how="outer")
    assert merged is not None
    return merged


def safe_thresholds(frame: pd.DataFrame, min_n: int) -> pd.DataFrame | None:
    try:
        return thresholds(frame, min_n=min_n)
    except ValueError:  # too few deals for the fits
        return None


def contract_order(table: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    rank = {name: i for i, name in enumerate(CONTRACTS)}
    return table.sort_values(keys, key=lambda c: c.map(rank) if c.name == "contract" else c).reset_index(
        drop=True
    )


def cell_moves(
    frames: dict[str, pd.DataFrame], by: list[str], a: str = "pimc", b: str = "heuristic", z: float = Z95
) -> pd.DataFrame:
    """``a`` − ``b`` per (contract, *by) cell, paired deal by deal: success rate, attack card
    points and taker score, each with the normal interval of the per-deal differences
    ``mean ± z · sd / sqrt(n)`` (the same interval as ``analysis.compare``)."""
    columns = ["deal", "contract", "made", "attack_points", "taker_score", *by]
    parts = []
    for name in (a, b):
        frame = frames[name]
        played = frame[frame["thrown_in"] == "none"][columns]
        parts.append(played.rename(columns={c: f"{c}_{name}" for c in columns[2:]}))
    both = parts[0].merge(parts[1], on=["deal", "contract"], validate="one_to_one")
    for column in by:  # features of the hand as dealt: the same deal gives the same value
        if not (both[f"{column}_{a}"] == both[f"{column}_{b}"]).all():
            raise ValueError(f"{column} differs between the plays of a deal: not the same deals")
        both[column] = both[f"{column}_{a}"]
    both["d_rate"] = both[f"made_{a}"].astype(int) - both[f"made_{b}"].astype(int)
    both["d_points"] = both[f"attack_points_{a}"] - both[f"attack_points_{b}"]
    both["d_score"] = both[f"taker_score_{a}"] - both[f"taker_score_{b}"]
    both["rate_a"] = both[f"made_{a}"].astype(float)
    both["rate_b"] = both[f"made_{b}"].astype(float)
    grouped = both.groupby(["contract", *by])
    out = grouped.agg(n=("deal", "size"), rate_a=("rate_a", "mean"), rate_b=("rate_b", "mean")).rename(
        columns={"rate_a": f"rate_{a}", "rate_b": f"rate_{b}"}
    )
    for d in ("d_rate", "d_points", "d_score"):
        mean = grouped[d].mean()
        half = z * grouped[d].std(ddof=1) / np.sqrt(grouped[d].size())
        name = d[2:]
        out[f"{name}_diff"] = mean
        out[f"{name}_low"] = mean - half
        out[f"{name}_high"] = mean + half
    return contract_order(out.reset_index(), ["contract", *by])


def threshold_moves(
    found: dict[str, pd.DataFrame | None], a: str = "pimc", b: str = "heuristic"
) -> pd.DataFrame | None:
    """The fitted thresholds and break-evens of two plays side by side, and ``a`` − ``b`` with
    a conservative interval: the two half-widths added in quadrature, as for independent
    estimates (both fits are on the same deals, so positively correlated: the true interval of the
    difference is narrower)."""
    first, second = found[b], found[a]
    if first is None or second is None:
        return None
    keys = ["contract", "taker_bouts"]
    rows = first[keys].copy()
    index = pd.MultiIndex.from_frame(rows)
    for what in ("threshold", "break_even"):
        for name in (b, a):
            table = found[name].set_index(keys).reindex(index)
            rows[f"{what} ({name})"] = table[what].to_numpy()
            rows[f"_{what}_half_{name}"] = ((table[f"{what}_high"] - table[f"{what}_low"]) / 2).to_numpy()
        rows[f"{what} diff"] = rows[f"{what} ({a})"] - rows[f"{what} ({b})"]
        half = np.sqrt(rows[f"_{what}_half_{a}"] ** 2 + rows[f"_{what}_half_{b}"] ** 2)
        rows[f"{what} diff low"] = rows[f"{what} diff"] - half
        rows[f"{what} diff high"] = rows[f"{what} diff"] + half
    return rows[[c for c in rows.columns if not c.startswith("_")]]


def excludes_zero(table: pd.DataFrame, what: str) -> pd.Series:
    return (table[f"{what}_low"] > 0) | (table[f"{what}_high"] < 0)


def interval(mean: float, low: float, high: float, scale: float = 1.0, unit: str = "") -> str:
    return f"{mean * scale:+.2f}{unit} [{low * scale:+.2f}, {high * scale:+.2f}]"


def pp(value: float) -> str:
    """A difference of rates in percentage points."""
    return f"{100 * value:.1f} percentage points"


MARGIN_BINS = [-np.inf, -10, -5, 0, 5, 10, np.inf]
MARGIN_LABELS = [
    "failed by > 10",
    "failed by 5–10",
    "failed by < 5",
    "made by 0–5",
    "made by 5–10",
    "made by ≥ 10",
]


def margins(frames: dict[str, pd.DataFrame], names: tuple[str, ...] = ("heuristic", "pimc")) -> pd.DataFrame:
    """Share of played deals by signed margin (card points past the target: made ≥ 0, failed < 0),
    per contract and play: where a change of success comes from."""
    rows = []
    for name in names:
        frame = frames[name][frames[name]["thrown_in"] == "none"]
        signed = np.where(frame["made"].to_numpy(dtype=bool), frame["margin"], -frame["margin"])
        bins = pd.cut(signed, MARGIN_BINS, right=False, labels=MARGIN_LABELS)
        shares = pd.crosstab(frame["contract"].to_numpy(), bins, normalize="index")
        shares.insert(0, "play", name)
        rows.append(shares.reset_index(names="contract"))
    table = pd.concat(rows, ignore_index=True)
    table.columns = [str(c) for c in table.columns]
    return contract_order(table, ["contract", "play"])


def trust(
    by_contract: pd.DataFrame, moved_thresholds: pd.DataFrame | None, best_both: pd.DataFrame
) -> list[str]:
    """How far the heuristic's tables can be trusted, in the units they are published in."""
    moved = by_contract[excludes_zero(by_contract, "rate")]
    bound = max(by_contract["rate_low"].abs().max(), by_contract["rate_high"].abs().max())
    text = (
        f"**How far the heuristic's tables can be trusted.** With every seat on pimc, {len(moved)} of "
        f"{len(by_contract)} contracts' success rates move beyond their interval"
    )
    if len(moved):
        text += (
            " ("
            + "; ".join(
                f"{row.contract} {interval(row.rate_diff, row.rate_low, row.rate_high, 100)}"
                for row in moved.itertuples()
            )
            + " percentage points)"
        )
    text += f"; every contract's difference lies within ±{100 * bound:.1f} percentage points (95%). "
    if moved_thresholds is not None:
        fitted = moved_thresholds.dropna(subset=["threshold diff"])
        if len(fitted):
            t_bound = max(fitted["threshold diff low"].abs().max(), fitted["threshold diff high"].abs().max())
            apart = ((fitted["threshold diff low"] > 0) | (fitted["threshold diff high"] < 0)).sum()
            text += (
                f"The {len(fitted)} trump thresholds fitted under both plays agree within ±{t_bound:.1f} trumps "
                f"(conservative 95% bounds; {apart} differ beyond their interval; "
                f"{int((fitted['threshold diff'] < 0).sum())} of {len(fitted)} are lower under pimc). "
            )
    decided = best_both[
        best_both["decided (heuristic)"].fillna(False).astype(bool)
        & best_both["decided (pimc)"].fillna(False).astype(bool)
    ]
    flipped = decided[decided["best (heuristic)"] != decided["best (pimc)"]]
    text += (
        f"Of the best-contract cells decided under both plays, {len(flipped)} of {len(decided)} change their answer. "
        "These bounds measure the move to one stronger card play, not the distance to perfect play: pimc is "
        "itself imperfect (see Remaining biases), and a stronger player could move the tables further."
    )
    return [text]


def findings(
    by_contract: pd.DataFrame,
    by_bouts: pd.DataFrame,
    cells: pd.DataFrame,
    z_family: float,
    moved_thresholds: pd.DataFrame | None,
    best_both: pd.DataFrame,
    published: pd.DataFrame | None,
) -> list[str]:
    """The findings, each sentence read off the tables below it."""
    lines = []
    for row in by_contract.itertuples():
        moved = "moves" if row.rate_low > 0 or row.rate_high < 0 else "does not move (its interval holds 0)"
        lines.append(
            f"- **{row.contract}**: success {row.rate_heuristic:.1%} with the heuristic, {row.rate_pimc:.1%} "
            f"with pimc, difference {interval(row.rate_diff, row.rate_low, row.rate_high, 100)} percentage "
            f"points: it {moved}; attack card points {interval(row.points_diff, row.points_low, row.points_high)}, "
            f"taker score {interval(row.score_diff, row.score_low, row.score_high)} game points per deal."
        )
    largest = by_contract.loc[by_contract["rate_diff"].abs().idxmax()]
    sized = by_bouts[by_bouts["n"] >= MIN_CELL]
    lines.append(
        f"- Over the contracts the success rate moves by at most {pp(abs(largest.rate_diff))} "
        f"({largest.contract}); by contract and bouts (cells of at least {MIN_CELL} deals) by at most "
        f"{pp(sized['rate_diff'].abs().max())}, and {excludes_zero(sized, 'rate').sum()} of {len(sized)} such "
        "cells have an interval that excludes 0."
    )
    big = cells[cells["n"] >= MIN_CELL]
    family = (big["rate_diff"] - z_family * (big["rate_diff"] - big["rate_low"]) / Z95 > 0) | (
        big["rate_diff"] + z_family * (big["rate_high"] - big["rate_diff"]) / Z95 < 0
    )
    if len(big):
        lines.append(
            f"- By contract, bouts and trumps ({len(big)} cells of at least {MIN_CELL} deals): "
            f"{excludes_zero(big, 'rate').sum()} cells' success interval excludes 0 at 95% "
            f"(about {0.05 * len(big):.0f} would by chance if nothing moved), {int(family.sum())} at the "
            f"family-wise 95% level (Bonferroni, z = {z_family:.2f}); the largest move is "
            f"{pp(big['rate_diff'].abs().max())}."
        )
    if moved_thresholds is not None:
        fitted = moved_thresholds.dropna(subset=["threshold diff"])
        if len(fitted):
            row = fitted.loc[fitted["threshold diff"].abs().idxmax()]
            apart = ((fitted["threshold diff low"] > 0) | (fitted["threshold diff high"] < 0)).sum()
            lines.append(
                f"- Trump thresholds (50% success) fitted under both plays: {len(fitted)}; they move by at most "
                f"{abs(row['threshold diff']):.2f} trumps ({row.contract}, {row.taker_bouts} bouts: "
                f"{row['threshold (heuristic)']:.2f} → {row['threshold (pimc)']:.2f}, difference "
                f"{interval(row['threshold diff'], row['threshold diff low'], row['threshold diff high'])}); "
                f"{apart} of {len(fitted)} differences have a conservative interval that excludes 0."
            )
        else:
            lines.append("- No trump threshold was fitted under both plays.")
    decided = best_both[
        best_both["decided (heuristic)"].fillna(False).astype(bool)
        & best_both["decided (pimc)"].fillna(False).astype(bool)
    ]
    flipped = decided[decided["best (heuristic)"] != decided["best (pimc)"]]
    differ = best_both[best_both["best (heuristic)"] != best_both["best (pimc)"]]
    lines.append(
        f"- Best-contract map: {len(differ)} of {len(best_both)} cells name a different best choice; "
        f"{len(flipped)} of the {len(decided)} cells decided under both plays do."
    )
    if published is not None:
        parts = [
            f"{row.contract} {interval(row.rate_diff, row.rate_low, row.rate_high, 100)}"
            for row in published.itertuples()
        ]
        lines.append(
            "- The published 100M sweep was played by tarotsim 0.1.0's heuristic, today's `basic` (the 10M one by today's heuristic): "
            "pimc − basic in success, percentage points: " + "; ".join(parts) + "."
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--deals", type=int, default=300, help="deals of each sweep (the study aims at ≥ 50,000)"
    )
    parser.add_argument(
        "--pimc",
        default=f"worlds={DEFAULT_WORLDS},drop={DEFAULT_DROP}",
        help="the pimc seats' options, key=value pairs separated by commas (default: pimc's defaults)",
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=REPORTS / "bias.md")
    parser.add_argument(
        "--keep", type=Path, default=None, help="folder to keep each sweep's rows in and reuse them from"
    )
    parser.add_argument("--chunk", type=int, default=2_500, help="deals per chunk of the pimc sweep")
    args = parser.parse_args()
    frames, seconds = run_sweeps(args.deals, args.seed, args.pimc, args.keep, args.chunk)
    check_deals, check_differ = same_play_check(frames["pimc"])
    threads = check_threads(None)
    min_n = 30 if args.deals >= 5_000 else 10
    by_contract = cell_moves(frames, [])
    by_bouts = cell_moves(frames, ["taker_bouts"])
    cells = cell_moves(frames, ["taker_bouts", "taker_trumps"])
    big = cells[cells["n"] >= MIN_CELL]
    z_family = float(norm.ppf(1 - 0.025 / max(len(big), 1)))
    pair = {name: frames[name] for name in ("heuristic", "pimc")}
    success = side_by_side(
        {name: success_table(frame, by="taker_bouts") for name, frame in pair.items()},
        ["contract", "taker_bouts"],
        ["n", "rate", "rate_low", "rate_high"],
    )
    found = {name: safe_thresholds(frame, min_n) for name, frame in frames.items()}
    moved_thresholds = threshold_moves(found)
    has_basic = "basic" in frames
    published = cell_moves(frames, [], "pimc", "basic") if has_basic else None
    basic_moves = cell_moves(frames, [], "heuristic", "basic") if has_basic else None
    basic_thresholds = threshold_moves(found, "pimc", "basic") if has_basic else None
    best = {name: best_contract(frame, min_n=min_n) for name, frame in pair.items()}
    keys = ["taker_bouts", "taker_trumps"]
    best_both = side_by_side(best, keys, ["best", "decided", "n"])
    differ = best_both[best_both["best (heuristic)"] != best_both["best (pimc)"]]
    per_deal = {name: seconds[name][0] / args.deals for name in frames}
    about = machine()
    full = args.deals >= TARGET_DEALS
    shown_cells = big[excludes_zero(big, "rate")]
    text = [
        "# Bias study: the contract sweep with heuristic play and with `pimc` on the same deals",
        "",
        f"Written by `.venv/bin/python benchmarks/bench_bias.py --deals {args.deals} --pimc {args.pimc} "
        f"--seed {args.seed} --chunk {args.chunk} --keep DIR` (NUMBA_NUM_THREADS=1; the sweeps kept in DIR "
        "as they finished, and read back to write this report) on "
        f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC.",
        "",
        "Machine: " + ", ".join(f"{k} {v}" for k, v in about.items()) + ".",
        "",
        f"Every sweep: {args.deals:,} deals (each played once per contract with seat 0 taking), seed {args.seed},",
        "the sweep defaults (the expert écart); card play of every seat: the heuristic (tarotsim "
        f"{about['versions']['tarotsim']}), "
        + ("`basic` (0.1.0's heuristic, which played the published 100M sweep), " if has_basic else "")
        + f"or `{pimc_spec(args.pimc)}` (the four seats search, attack and defence alike).",
        f"Time of the sweeps on {threads} thread(s) of a shared {about['cores']}-core machine, wall / CPU: "
        + ", ".join(f"{name} {seconds[name][0]:,.0f} s / {seconds[name][1]:,.0f} s" for name in frames)
        + f" ({per_deal['pimc']:.3f} s of wall time per deal of four contracts with pimc).",
        "",
        "Prise and Garde take the same chien and make the same écart. The heuristic plays them alike; pimc",
        f"does not always: of {check_deals:,} played deals, {check_differ:,} ({check_differ / max(check_deals, 1):.1%})",
        "end with a different made, card points or bouts under Prise than under Garde: its search weighs the",
        "final score of the contract played, which is not in every respect Prise's doubled (the poignée and",
        "chelem bonuses are not multiplied), so close choices may break differently; the cause on each deal",
        "is not examined here.",
        "",
    ]
    if not full:
        text += [
            f"**Size.** The study aims at ≥ {TARGET_DEALS:,} deals; this study holds {args.deals:,}. At the CPU",
            f"cost measured here ({seconds['pimc'][1] / args.deals:.3f} CPU s per pimc deal of four contracts, one thread),",
            f"{TARGET_DEALS:,} deals take {seconds['pimc'][1] / args.deals * TARGET_DEALS / 3600:.1f} CPU hours;"
            " rerun with `--deals 50000 --keep DIR` (the chunks kept are reused) to complete it.",
            "Its intervals are wider than a 50,000-deal study's would be by about "
            f"√({TARGET_DEALS:,}/{args.deals:,}) = {(TARGET_DEALS / max(args.deals, 1)) ** 0.5:.2f}×.",
            "",
        ]
    text += [
        "## Findings",
        "",
        "Each line is read off the tables below; differences are pimc − heuristic, paired deal by deal,",
        "with 95% intervals.",
        "",
        *findings(by_contract, by_bouts, cells, z_family, moved_thresholds, best_both, published),
        "",
        *trust(by_contract, moved_thresholds, best_both),
        "",
        "## Success, attack points and taker score by contract",
        "",
        "Rates are fractions, points card points (of 91), scores game points; intervals are 95% normal",
        "intervals of the per-deal differences (as `tarotsim.analysis.compare`).",
        "",
        to_markdown(by_contract, index=False),
        "",
        "Where a change of success comes from: the share of played deals by the taker's signed margin",
        "(card points past the target; made at 0 or more), by contract and play.",
        "",
        to_markdown(margins(frames), index=False),
        "",
        "## By contract and bouts (paired)",
        "",
        to_markdown(by_bouts, index=False),
        "",
        "Wilson 95% intervals of each play's success (`tarotsim.analysis.success_table`):",
        "",
        to_markdown(contract_order(success, ["contract", "taker_bouts"]), index=False),
        "",
        "## Cells of contract, bouts and trumps whose success moves",
        "",
        f"The cells of at least {MIN_CELL} deals whose paired 95% interval of the success difference excludes 0",
        f"({len(shown_cells)} of {len(big)}; with that many cells about {0.05 * len(big):.0f} would by chance; a",
        f"family-wise 95% interval over all {len(big)} cells uses z = {z_family:.2f} instead of 1.96).",
        "",
        to_markdown(shown_cells, index=False) if len(shown_cells) else "(none)",
        "",
        "## Trump thresholds by bouts",
        "",
        "Fitted success and score curves (`tarotsim.analysis.thresholds`, statsmodels, cells of at least",
        f"{min_n} deals): `threshold` is where the fitted success reaches 50%, `break_even` where the fitted",
        "mean taker score reaches 0 (passing). The difference's interval adds the two delta-method",
        "half-widths in quadrature, as if the fits were independent; they are on the same deals, so it is",
        "conservative. The `note` column of each play's own table says why a value is missing.",
        "",
    ]
    if moved_thresholds is None:
        text += ["Not enough deals to fit the curves under both plays.", ""]
    else:
        text += [to_markdown(moved_thresholds, index=False), ""]
    for name, table in found.items():
        if table is not None and name in pair:
            text += [
                f"<details><summary>{name}: the fits</summary>",
                "",
                to_markdown(table, index=False),
                "",
                "</details>",
                "",
            ]
    if has_basic:
        assert published is not None and basic_moves is not None
        text += [
            "## The published tables' play (`basic`)",
            "",
            "The 100M sweep in reports/ was played by tarotsim 0.1.0's heuristic, kept as `basic`; the 10M sweep by today's heuristic.",
            "pimc − basic, then heuristic − basic, paired by deal:",
            "",
            to_markdown(published, index=False),
            "",
            to_markdown(basic_moves, index=False),
            "",
        ]
        if basic_thresholds is not None:
            text += ["Trump thresholds, pimc − basic:", "", to_markdown(basic_thresholds, index=False), ""]
    text += [
        "## Best contract by bouts and trumps",
        "",
        "`tarotsim.analysis.best_contract` (mean taker score against passing; `decided` when the paired",
        f"95% interval against the runner-up lies above 0 with at least {min_n} deals). Cells whose best",
        f"choice differs between the two plays: {len(differ)} of {len(best_both)}.",
        "",
        to_markdown(differ, index=False) if len(differ) else "(none)",
        "",
        "## Remaining biases",
        "",
        "- `pimc` is itself an imperfect player: uniform worlds (not weighed by the bids and the cards",
        "  played), heuristic playouts, strategy fusion (each world is played as if every card were",
        "  seen). The difference measures how much the tables move when every seat plays a stronger card",
        "  play (its edge over the heuristic is in reports/strength.md), not the distance to perfect play.",
        "- Every seat searches, attack and defence alike: a table that does not move may hide a",
        "  stronger attack cancelled by a stronger defence. The study does not split the two.",
        "- The bidding and the écart are the same in both sweeps (a sweep sets the taker and the",
        "  contract; the écart is the expert rule): only the card play differs.",
        "- A sweep forces seat 0 to take every contract: its rows are not the deals where a seat",
        "  would bid, as in every sweep of tarotsim.",
        "- Many cells are tested at once: a few intervals exclude 0 by chance (counted above).",
        "",
    ]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(text), encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
