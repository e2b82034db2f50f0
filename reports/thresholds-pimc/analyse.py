"""The tables of reports/thresholds-pimc from the sweeps of run.sh.

    python reports/thresholds-pimc/analyse.py RUNS_ROOT [--cpu-seconds S]

RUNS_ROOT holds ``pimc/roundR-boutsB`` and ``heuristic/roundR-boutsB``: each a stratified sweep
of one bout count over its trump lengths, the two plays on the same deals (same seed, same
cells). Rounds finished under both plays are pooled: a cell's weight is its probability over
its deals in all rounds (each round's weight divided by the rounds). Writes report.md and
cells.csv (each cell's counts and sums under both plays, enough to fit again) next to this file.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd

from tarotsim.analysis import Z95, best_contract, success_table, thresholds
from tarotsim.analysis.loading import load_records

HERE = Path(__file__).resolve().parent
PLAYS = ("heuristic", "pimc")
TARGET = 0.3
"""The precision asked of each fitted threshold: ± this many trumps (95 %)."""


def pooled(root: Path, play: str, runs: list[str]) -> pd.DataFrame:
    """The records of `runs` (run names under ``root/play``), deals renumbered, each cell's weight
    its probability over its deals in all the runs: a cell (bouts, trump length) of probability
    ``p`` dealt ``n`` times in a run carries ``p / n`` there, so ``p`` is read back from any run."""
    frames = []
    offset = 0
    for name in runs:
        records = load_records(root / play / name)
        records["deal"] = records["deal"] + offset
        offset = int(records["deal"].max()) + 1
        frames.append(records)
    out = pd.concat(frames, ignore_index=True)
    first = out.drop_duplicates("deal")
    keys = ["taker_bouts", "taker_trumps"]
    cell = first.groupby(keys, observed=True).agg(deals=("deal", "size"), mass=("weight", "sum"))
    per_run = first.groupby([*keys, first["deal"].map(_run_of(frames))], observed=True)["weight"].sum()
    probability = per_run.groupby(level=keys).mean()  # the same p from every run that deals the cell
    assert np.allclose(per_run.groupby(level=keys).max(), per_run.groupby(level=keys).min(), rtol=1e-9)
    weight = (probability / cell["deals"]).rename("pooled")
    out = out.drop(columns="weight").merge(weight, left_on=keys, right_index=True, how="left")
    return (
        out.rename(columns={"pooled": "weight"}).sort_values(["deal"], kind="stable").reset_index(drop=True)
    )


def _run_of(frames: list[pd.DataFrame]) -> dict[int, int]:
    """The run (its position in `frames`) of each renumbered deal."""
    return {int(d): i for i, frame in enumerate(frames) for d in frame["deal"].unique()}


def finished_runs(root: Path) -> list[str]:
    """Runs finished under both plays (same name, same cells, same seed)."""
    done = []
    for path in sorted((root / "pimc").iterdir()):
        both = [root / play / path.name / "manifest.json" for play in PLAYS]
        if all(p.is_file() and json.loads(p.read_text()).get("complete") for p in both):
            done.append(path.name)
    return done


def conditions(root: Path, runs: list[str]) -> list[str]:
    """Each run's seed and ``--where``, as its manifest records them."""
    from tarotsim.runs.strata import where_text

    out = []
    for name in runs:
        run = json.loads((root / "pimc" / name / "manifest.json").read_text())["run"]
        where = tuple(tuple(item) for item in run["condition"]["where"])
        out.append(f"`{name}`: seed {run['seed']}, `--where {where_text(where)}`, {run['deals']:,} deals")
    return out


def fmt(value: float, low: float, high: float, digits: int = 1, sign: bool = False) -> str:
    if math.isnan(value):
        return "—"
    f = f"+.{digits}f" if sign else f".{digits}f"
    text = f"{value:{f}} ({low:{f}} to {high:{f}})"
    return text.replace("-", "−")


def bootstrap_differences(records: dict[str, pd.DataFrame], n_boot: int, seed: int = 0) -> pd.DataFrame:
    """pimc − heuristic of every fitted threshold, refitted on `n_boot` paired resamples: each deal
    drawn a Poisson(1) number of times, the same under both plays (the deals are shared), within
    its cell. Returns one row per replicate and (contract, bouts, kind): ``diff`` (NaN where either
    fit found none)."""
    from tarotsim.analysis.fits import fitted_thresholds

    keys = ["contract", "taker_bouts", "taker_trumps"]
    played = {}
    for play, rec in records.items():
        part = rec[rec["thrown_in"] == "none"][["deal", *keys, "made", "taker_score"]].copy()
        part["contract"] = part["contract"].astype(str)
        part["made"] = part["made"].astype(float)
        part["taker_score"] = part["taker_score"].astype(float)
        played[play] = part
    deals = np.sort(records["pimc"]["deal"].unique())
    rng = np.random.default_rng(seed)
    out = []
    for b in range(n_boot):
        times = pd.Series(rng.poisson(1.0, len(deals)).astype(float), index=deals)
        found = {}
        for play, part in played.items():
            m = times.reindex(part["deal"]).to_numpy()
            frame = part.assign(m=m, mm=m * part["made"], ms=m * part["taker_score"],
                                mss=m * part["taker_score"] ** 2)  # fmt: skip
            cells = frame.groupby(keys, sort=True)[["m", "mm", "ms", "mss"]].sum().reset_index()
            cells = cells[cells["m"] > 1]
            mean = cells["ms"] / cells["m"]
            table = pd.DataFrame(
                {
                    "contract": cells["contract"],
                    "taker_bouts": cells["taker_bouts"].astype(int),
                    "taker_trumps": cells["taker_trumps"].astype(float),
                    "n": cells["m"],
                    "made": cells["mm"],
                    "mean_score": mean,
                    "score_var": (cells["mss"] - cells["m"] * mean**2) / (cells["m"] - 1),
                }
            ).reset_index(drop=True)
            fit = fitted_thresholds(table, x="taker_trumps", by=["taker_bouts"], min_rate=0.5, min_n=30,
                                    z=Z95, same_play={}, n_played=int(cells["m"].sum()))  # fmt: skip
            found[play] = fit.set_index(["contract", "taker_bouts"])
        for kind, col in (("50% success", "threshold"), ("break-even", "break_even")):
            diff = found["pimc"][col] - found["heuristic"][col]
            for (con, bouts), value in diff.items():
                out.append(
                    {"replicate": b, "contract": con, "bouts": int(bouts), "kind": kind, "diff": value}
                )
    return pd.DataFrame(out)


def threshold_rows(fits: dict[str, pd.DataFrame], boot: pd.DataFrame) -> pd.DataFrame:
    """One row per contract, bout count and kind (50 % success, break-even): both plays, the
    difference with its paired bootstrap interval (percentiles of `boot`'s replicates; none when
    more than 5 % of them found no threshold under a play), and each half-width."""
    rows = []
    spread = {
        key: part["diff"].to_numpy() for key, part in boot.groupby(["contract", "bouts", "kind"], sort=False)
    }
    h, p = fits["heuristic"], fits["pimc"]
    both = h.merge(p, on=["contract", "taker_bouts"], suffixes=("_h", "_p"))
    for _, row in both.iterrows():
        for kind, col in (("50% success", "threshold"), ("break-even", "break_even")):
            values = {}
            for play, s in (("heuristic", "_h"), ("pimc", "_p")):
                values[play] = (row[col + s], row[f"{col}_low{s}"], row[f"{col}_high{s}"], row[f"note{s}"])
            (vh, lh, hh, nh), (vp, lp, hp, np_) = values["heuristic"], values["pimc"]
            diff = vp - vh
            drawn = spread.get((row["contract"], int(row["taker_bouts"]), kind), np.array([]))
            paired = "—"
            if not math.isnan(diff) and len(drawn) and np.isnan(drawn).mean() <= 0.05:
                low, high = np.quantile(drawn[~np.isnan(drawn)], [0.025, 0.975])
                paired = fmt(diff, float(low), float(high), sign=True)
            rows.append(
                {
                    "contract": row["contract"],
                    "bouts": int(row["taker_bouts"]),
                    "kind": kind,
                    "heuristic": fmt(vh, lh, hh) if not math.isnan(vh) else _why(nh, col),
                    "pimc": fmt(vp, lp, hp) if not math.isnan(vp) else _why(np_, col),
                    "pimc − heuristic": paired,
                    "± pimc": f"{(hp - lp) / 2:.2f}" if not math.isnan(vp) else "—",
                    "± heuristic": f"{(hh - lh) / 2:.2f}" if not math.isnan(vh) else "—",
                    "half_p": (hp - lp) / 2,
                }
            )
    return pd.DataFrame(rows)


def _why(note: str, col: str) -> str:
    """``> 12`` or ``≤ 3`` from a fit's note, else ``—``."""
    what = "success" if col == "threshold" else "break-even"
    for part in str(note).split("; "):
        if part.startswith(what) and "not reached over" in part:
            return "> " + part.split("–")[1].split(":")[0]
        if part.startswith(what) and "passed already at" in part:
            return "≤ " + part.split("at taker_trumps ")[1].split(",")[0]
    return "—"


def paired_success(records: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """pimc − heuristic success rate and mean score by contract and bouts, paired deal by deal:
    the stratified (weighted) mean of the per-deal differences, with its normal 95 % interval."""
    h, p = records["heuristic"], records["pimc"]
    assert (h["deal"].to_numpy() == p["deal"].to_numpy()).all()
    assert (h["taker_trumps"].to_numpy() == p["taker_trumps"].to_numpy()).all()
    out = []
    for what, column in (("success", "made"), ("score", "taker_score")):
        diff = p.copy()
        diff["taker_score"] = p[column].astype("Float64") - h[column].astype("Float64")
        diff["taker_score"] = diff["taker_score"].astype("Int32")
        table = success_table(diff, by=("taker_bouts",))
        for _, row in table.iterrows():
            m, se = row["mean_score"], row["score_se"]
            out.append(
                {
                    "contract": row["contract"],
                    "bouts": int(row["taker_bouts"]),
                    "what": what,
                    "mean": m,
                    "low": m - Z95 * se,
                    "high": m + Z95 * se,
                    "deals": int(row["deals"]),
                }
            )
    return pd.DataFrame(out)


def best_summary(best: pd.DataFrame) -> dict[tuple[int, int], str]:
    out = {}
    for _, row in best.iterrows():
        name = str(row["best"]).replace("_", " ")
        if row["same_play"]:
            name += " = " + str(row["runner_up"]).replace("_", " ")
        elif not row["decided"]:
            name += " or " + str(row["runner_up"]).replace("_", " ") + "?"
        out[(int(row["taker_bouts"]), int(row["taker_trumps"]))] = name
    return out


def cell_sums(records: dict[str, pd.DataFrame]) -> pd.DataFrame:
    frames = []
    for play, rec in records.items():
        played = rec[rec["thrown_in"] == "none"]
        g = played.groupby(["contract", "taker_bouts", "taker_trumps"], observed=True)
        table = pd.DataFrame(
            {
                "deals": g.size(),
                "made": g["made"].sum().astype(int),
                "score_sum": g["taker_score"].sum().astype(int),
                "score_sq_sum": g["taker_score"].apply(lambda s: int((s.astype("int64") ** 2).sum())),
                "weight": g["weight"].first() * g.size(),
            }
        ).reset_index()
        table.insert(0, "play", play)
        frames.append(table)
    return pd.concat(frames, ignore_index=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("root", type=Path)
    parser.add_argument("--cpu-seconds", type=float, default=math.nan)
    parser.add_argument("--per-cell", type=int, default=150)
    parser.add_argument("--n-boot", type=int, default=300)
    args = parser.parse_args()
    runs = finished_runs(args.root)
    if not runs:
        raise SystemExit("no finished run")
    records = {play: pooled(args.root, play, runs) for play in PLAYS}
    fits = {play: thresholds(records[play]) for play in PLAYS}
    best = {play: best_contract(records[play]) for play in PLAYS}
    boot = bootstrap_differences(records, args.n_boot)
    table = threshold_rows(fits, boot)
    paired = paired_success(records)
    sums = cell_sums(records)
    sums.to_csv(HERE / "cells.csv", index=False)
    deals = int(records["pimc"]["deal"].nunique())
    cells = records["pimc"].drop_duplicates("deal").groupby(["taker_bouts", "taker_trumps"]).size()
    lines = [
        "# Thresholds under the search player (pimc), beside the heuristic's, on the same deals",
        "",
        f"{deals:,} deals, stratified: {len(cells)} cells of the taker's bouts and trump length, "
        f"{cells.min()} to {cells.max()} deals per cell, in {len(runs)} runs of {args.per_cell} deals per cell; "
        "each deal played under the four contracts by seat 0, once with `pimc` card play in every seat "
        "(its defaults) and once with the heuristic, on the same cards. "
        + (f"CPU time of the sweeps: {args.cpu_seconds:,.0f} s. " if not math.isnan(args.cpu_seconds) else "")
        + "Made by `run.sh` (the commands) and `analyse.py` (these tables) in this folder; "
        "`cells.csv` holds every cell's counts and sums under both plays.",
        "",
        "Deals per cell (bouts × trumps): "
        + "; ".join(
            f"{b} bouts: " + ", ".join(f"{t}: {n}" for (bb, t), n in cells.items() if bb == b)
            for b in sorted({i[0] for i in cells.index})
        )  # fmt: skip
        + ".",
        "",
        "The runs (`run.sh`; each under both plays): " + "; ".join(conditions(args.root, runs)) + ".",
        "",
        "Cells (trump lengths dealt, by bouts): "
        + "; ".join(
            f"{b} bouts: {cells[b].index.min()}–{cells[b].index.max()}"
            for b in sorted({i[0] for i in cells.index})
        )
        + ". The heuristic's 10,000,000-deal sweep put every threshold in these ranges, and the first runs "
        "showed which lengths hold none (later runs leave them out); longer hands are too rare to deal "
        "(0 bouts with 13 trumps or more, below one deal in a million).",
        "",
        "## Trump length from which each contract is made half the time, and pays (break-even)",
        "",
        "Fitted as `tarotsim thresholds` does (logistic curve of success, weighted least squares of the mean "
        "score, local fits round the crossing, widened where the curve misses the cells), on the cells of one "
        "bout count; 95 % intervals, `± pimc` and `± heuristic` their half-widths. Within a cell every deal "
        "weighs the same, so the stratification changes only how many deals each length gets. "
        f"`pimc − heuristic`: the difference of the two fits, its interval from {args.n_boot} paired "
        "resamples (each deal drawn a Poisson(1) number of times, the same under both plays; both curves "
        "refitted; 2.5 and 97.5 percentiles), `—` where a play has no threshold or more than 5 % of the "
        "resamples found none. `> 12`: not reached over the lengths dealt; `≤ 3`: reached already at the "
        "shortest.",
        "",
    ]
    shown = table.drop(columns="half_p")
    lines.append(_markdown(shown))
    found = table["half_p"].dropna()
    short = table[table["half_p"] > TARGET]
    lines += [
        "",
        f"Precision: {len(found)} thresholds fitted under pimc, half-widths "
        f"{found.min():.2f} to {found.max():.2f} trumps (median {found.median():.2f}). "
        + (
            f"{len(short)} fall short of ±{TARGET} trump: "
            + ", ".join(
                f"{r.contract} {r.bouts} bouts {r.kind} (±{r.half_p:.2f})" for r in short.itertuples()
            )
            + "."
            if len(short)
            else f"Every one reaches ±{TARGET} trump."
        ),
        "",
        "## Success and score, pimc − heuristic, paired deal by deal",
        "",
        "Per bout count over the cells dealt (weighted by each cell's probability, so a mean over the "
        "hands of these trump lengths dealt uniformly): the mean per-deal difference, success in "
        "percentage points and score in points, with a normal 95 % interval from the stratified variance "
        "of the differences.",
        "",
    ]
    paired_rows = []
    for (con, bouts), part in paired.groupby(["contract", "bouts"], sort=False):
        s = part[part["what"] == "success"].iloc[0]
        c = part[part["what"] == "score"].iloc[0]
        paired_rows.append(
            {
                "contract": con,
                "bouts": bouts,
                "success (points of %)": fmt(100 * s["mean"], 100 * s["low"], 100 * s["high"], sign=True),
                "score (points)": fmt(c["mean"], c["low"], c["high"], sign=True),
                "deals": s["deals"],
            }
        )
    lines.append(_markdown(pd.DataFrame(paired_rows)))
    lines += [
        "",
        "## Best choice by hand shape",
        "",
        "Highest mean taker score (pass = 0) in each cell; `a = b`: the same play at two multipliers "
        "(Garde as Prise), `a or b?`: the paired 95 % interval of best − runner-up includes 0.",
        "",
    ]
    bh, bp = best_summary(best["heuristic"]), best_summary(best["pimc"])
    lines.append(
        _markdown(
            pd.DataFrame(
                [
                    {"bouts": k[0], "trumps": k[1], "heuristic": bh[k], "pimc": bp.get(k, "—")}
                    for k in sorted(bh)
                ]
            )
        )
    )
    lines += ["", "## The fits", ""]
    for play in PLAYS:
        cols = ["contract", "taker_bouts", "threshold", "threshold_low", "threshold_high", "break_even",
                "break_even_low", "break_even_high", "cells", "n_total", "note"]  # fmt: skip
        lines += [f"### {play}", "", _markdown(fits[play][cols].round(3)), ""]
    (HERE / "report.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print((HERE / "report.md").read_text(encoding="utf-8"))


def _markdown(frame: pd.DataFrame) -> str:
    head = "| " + " | ".join(map(str, frame.columns)) + " |"
    rule = "| " + " | ".join("---" for _ in frame.columns) + " |"
    body = ["| " + " | ".join("" if (isinstance(v, float) and np.isnan(v)) else str(v) for v in row) + " |"
            for row in frame.itertuples(index=False)]  # fmt: skip
    return "\n".join([head, rule, *body])


if __name__ == "__main__":
    main()
