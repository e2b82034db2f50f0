"""How far the heuristic's card play biases the published tables: the contract sweep played
with heuristic play and with ``pimc`` for every seat on the same deals; writes reports/bias.md.

Both sweeps use the same seed (the same deals, the same taking seat) and the sweep defaults
(``SWEEP_DEFAULTS``: the expert écart …); only the card play differs. The report sets side
by side, with 95 % intervals:

- the success rate and mean taker score by contract, and their paired differences deal by
  deal (``analysis.compare``: normal interval of the per-deal differences);
- the success table by contract and bouts (``analysis.success_table``, Wilson intervals);
- the trump thresholds by bouts (``analysis.thresholds``, fitted curves, delta-method
  intervals; cells too thin to fit are left out);
- the best-contract map by bouts and trumps (``analysis.best_contract``) and the cells whose
  best choice differs;
- the measured cost per deal of each sweep, to plan the issue's full run (≥ 50,000 deals).

    .venv/bin/python benchmarks/bench_bias.py [--deals 300] [--worlds 16] [--seed 2026]
"""

from __future__ import annotations

import argparse
import datetime
import time
from pathlib import Path

import pandas as pd

import tarotsim
from tarotsim.analysis import best_contract, compare, success_table, thresholds
from tarotsim.analysis.tables import to_markdown
from tarotsim.bench import machine
from tarotsim.config import RunConfig
from tarotsim.run.engine import check_threads
from tarotsim.strategy import DEFAULT_WORLDS

REPORTS = Path(__file__).resolve().parent.parent / "reports"
TARGET_DEALS = 50_000


def run_sweeps(deals: int, seed: int, worlds: int) -> tuple[dict[str, pd.DataFrame], dict[str, float]]:
    """The two sweeps and their wall times (s)."""
    frames: dict[str, pd.DataFrame] = {}
    seconds: dict[str, float] = {}
    plays = {
        "heuristic": RunConfig(policy="heuristic", ecart_policy="expert"),
        "pimc": RunConfig(strategies=[f"play=pimc,worlds={worlds},ecart=expert"] * 4),
    }
    for name, config in plays.items():
        started = time.perf_counter()
        frames[name] = tarotsim.sweep(deals, seed=seed, config=config, progress=True)
        seconds[name] = time.perf_counter() - started
        print(name, f"{seconds[name]:.0f} s", flush=True)
    return frames, seconds


def side_by_side(tables: dict[str, pd.DataFrame], keys: list[str], columns: list[str]) -> pd.DataFrame:
    """The columns of each play's table on one row per key, suffixed by the play."""
    merged = None
    for name, table in tables.items():
        part = table[keys + columns].rename(columns={c: f"{c} ({name})" for c in columns})
        merged = part if merged is None else merged.merge(part, on=keys, how="outer")
    assert merged is not None
    return merged


def safe_thresholds(frame: pd.DataFrame) -> pd.DataFrame | str:
    try:
        return thresholds(frame, min_n=20)
    except ValueError as err:  # too few deals for the fits
        return f"not enough deals to fit: {err}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--deals", type=int, default=300, help="deals of each sweep (the issue asks ≥ 50,000)"
    )
    parser.add_argument("--worlds", type=int, default=DEFAULT_WORLDS, help="the pimc seats' worlds")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=REPORTS / "bias.md")
    args = parser.parse_args()
    started = time.perf_counter()
    frames, seconds = run_sweeps(args.deals, args.seed, args.worlds)
    threads = check_threads(None)
    paired = compare(frames["pimc"], frames["heuristic"])
    success = side_by_side(
        {name: success_table(frame, by="taker_bouts") for name, frame in frames.items()},
        ["contract", "taker_bouts"],
        ["n", "rate", "rate_low", "rate_high"],
    )
    found = {name: safe_thresholds(frame) for name, frame in frames.items()}
    best = {name: best_contract(frame, min_n=10) for name, frame in frames.items()}
    keys = ["taker_bouts", "taker_trumps"]
    best_both = side_by_side(best, keys, ["best", "decided"])
    moved = best_both[best_both["best (heuristic)"] != best_both["best (pimc)"]]
    per_deal = {name: seconds[name] / args.deals for name in frames}
    projected_h = per_deal["pimc"] * TARGET_DEALS / 3600
    about = machine()
    text = [
        "# Bias study: the contract sweep with heuristic play and with `pimc` on the same deals",
        "",
        f"Written by `.venv/bin/python benchmarks/bench_bias.py --deals {args.deals} --worlds {args.worlds} "
        f"--seed {args.seed}` on {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC in "
        f"{time.perf_counter() - started:.0f} s.",
        "",
        "Machine: " + ", ".join(f"{k} {v}" for k, v in about.items()) + ".",
        "",
        f"Both sweeps: {args.deals:,} deals (each played once per contract by seat 0), seed {args.seed},",
        "the sweep defaults; card play of every seat: the heuristic, or "
        f"`play=pimc,worlds={args.worlds},ecart=expert`.",
        "",
        f"**Size.** The issue asks for ≥ {TARGET_DEALS:,} deals. This run is a proof that the study works",
        f"and a measure of its cost: the `pimc` sweep took {per_deal['pimc']:.3f} s of wall time per deal",
        f"(four contracts) on {threads} thread(s) of this shared machine (the heuristic one "
        f"{per_deal['heuristic'] * 1000:.2f} ms),",
        f"so {TARGET_DEALS:,} deals would take about {projected_h:.1f} hours here; divide by the threads of a",
        "larger machine (`tarotsim sweep --policy pimc --out DIR` on Dask splits it into resumable chunks).",
        "At this size the intervals are wide: read the tables as the shape of the study, not as its answer.",
        "",
        "## Success and taker score by contract (pimc − heuristic, paired by deal)",
        "",
        "Rates are fractions, scores game points; intervals are 95% normal intervals of the",
        "per-deal differences (`tarotsim.analysis.compare`).",
        "",
        to_markdown(paired, index=False),
        "",
        "## Success by contract and bouts",
        "",
        "Wilson 95% intervals (`tarotsim.analysis.success_table`).",
        "",
        to_markdown(success, index=False),
        "",
        "## Trump thresholds by bouts",
        "",
        "Fitted success and score curves (`tarotsim.analysis.thresholds`, statsmodels), delta-method",
        "95% intervals widened by lack of fit.",
        "",
    ]
    for name, table in found.items():
        text += [f"### {name}", "", table if isinstance(table, str) else to_markdown(table, index=False), ""]
    text += [
        "## Best contract by bouts and trumps",
        "",
        "`tarotsim.analysis.best_contract` (mean taker score against passing; `decided` when the paired",
        "95% interval against the runner-up lies above 0 with at least 10 deals). Cells whose best",
        f"choice differs between the two plays: {len(moved)} of {len(best_both)}.",
        "",
        to_markdown(moved, index=False) if len(moved) else "(none)",
        "",
        "## Remaining biases",
        "",
        "- `pimc` is itself an imperfect player (uniform worlds, heuristic playouts, strategy",
        "  fusion): the difference measures how much the tables move with a stronger card play, not",
        "  the distance to perfect play.",
        "- A sweep forces seat 0 to take every contract: its rows are not the deals where a seat",
        "  would bid, as in every sweep of tarotsim.",
        "- Small runs: thresholds may not be fitted, cells of the best-contract map are thin.",
        "",
    ]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(text), encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
