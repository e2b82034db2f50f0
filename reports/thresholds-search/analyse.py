"""The tables of reports/thresholds-search from the sweeps of run.sh.

    python reports/thresholds-search/analyse.py RUNS_ROOT [RUNS_ROOT ...] [--players 4 5] [--n-boot 200]
        [--reproduce ROOT4]

Each RUNS_ROOT holds ``<P>p/<play>/roundR-boutsB`` for the plays ``heuristic``, ``pimc-table``
(today's pimc) and ``search`` (the top rung): each a stratified sweep of one bout count over its
trump lengths, the plays on the same deals (same seed, same cells). Several roots hold the same
runs under other contracts (``run.sh`` with ``CONTRACTS``): a run of one name deals the same cards
in every root (checked), so the roots' records of a run are one set of deals under more contracts.
Rounds finished under every play are pooled and fitted, and each step of the ladder is resampled
pair by pair, with the
functions of ``reports/thresholds-pimc/analyse.py`` (imported, not copied). At 4 players the
heuristic's and today's pimc's cells are checked against ``reports/thresholds-pimc/cells.csv``
(the same seeds and cells): every cell this root deals as often as that study did must hold the
same sums. Writes report.md and ``cells-<P>p.csv`` (every cell's counts and sums under each play)
next to this file.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd

from tarotsim.analysis import thresholds

HERE = Path(__file__).resolve().parent
PIMC_STUDY = HERE.parent / "thresholds-pimc"
_spec = importlib.util.spec_from_file_location("thresholds_pimc", PIMC_STUDY / "analyse.py")
assert _spec is not None and _spec.loader is not None
study = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(study)

PLAYS = ("heuristic", "pimc-table", "search")
"""The rungs, weakest first: the heuristic, today's pimc, the top rung (run.sh's specs)."""
STEPS = (("heuristic", "pimc-table"), ("pimc-table", "search"))
"""The ladder's steps whose threshold moves are resampled: (lower rung, higher rung)."""
CONVERGED = 0.2
"""A threshold has converged when the last step's paired interval lies within ± this (trumps)."""
OLD_NAME = {"heuristic": "heuristic", "pimc-table": "pimc"}
"""The name each play has in reports/thresholds-pimc/cells.csv."""


def finished_runs(root: Path) -> list[str]:
    """Runs finished under every play (same name, same cells, same seed)."""
    done = []
    if not (root / PLAYS[-1]).is_dir():
        return done
    for path in sorted((root / PLAYS[-1]).iterdir()):
        both = [root / play / path.name / "manifest.json" for play in PLAYS]
        if all(p.is_file() and json.loads(p.read_text()).get("complete") for p in both):
            done.append(path.name)
    return done


def all_finished(root: Path, play: str) -> list[str]:
    """Every finished run of one play (none where it has no folder)."""
    if not (root / play).is_dir():
        return []
    return [
        p.name
        for p in sorted((root / play).iterdir())
        if (p / "manifest.json").is_file() and json.loads((p / "manifest.json").read_text()).get("complete")
    ]


def reproduction(root: Path) -> list[str]:
    """Each play of reports/thresholds-pimc against its cells.csv: the cells dealt here as often as
    there (all of its runs of those cells re-run), and how many hold the same counts and sums."""
    old = pd.read_csv(PIMC_STUDY / "cells.csv")
    keys = ["contract", "taker_bouts", "taker_trumps"]
    lines = []
    for play, name in OLD_NAME.items():
        runs = all_finished(root, play)
        if not runs:
            continue
        new = study.cell_sums({play: study.pooled(root, play, runs)})
        new["contract"] = new["contract"].astype(str)
        both = new.merge(old[old["play"] == name], on=keys, suffixes=("", "_old"))
        covered = both[both["deals"] == both["deals_old"]]
        same = (covered[["made", "score_sum", "score_sq_sum"]].to_numpy()
                == covered[["made_old", "score_sum_old", "score_sq_sum_old"]].to_numpy()).all(axis=1)  # fmt: skip
        lines.append(
            f"`{play}` ({len(runs)} runs re-run): {len(covered)} cells (contract, bouts, trumps) dealt as "
            f"often as in `thresholds-pimc`, {int(same.sum())} of them with the same successes, score sum "
            "and sum of squares" + ("" if same.all() else f"; differing: {_cells(covered[~same])}") + "."
        )
    return lines


def _cells(frame: pd.DataFrame) -> str:
    """The first cells of ``frame`` as ``contract bouts/trumps``, and how many more."""
    shown = ", ".join(f"{r.contract} {r.taker_bouts}/{r.taker_trumps}" for r in frame.head(6).itertuples())
    return shown + (f" and {len(frame) - 6} more" if len(frame) > 6 else "")


def _runs_in_words(names: list[str], every: list[str]) -> str:
    """``names`` among ``every`` run, in words."""
    return "every run" if names == every else f"{len(names)} runs ({', '.join(names)})"


def _contracts(records: pd.DataFrame) -> str:
    """The contracts the records were played under, in words."""
    played = records.loc[records["thrown_in"] == "none", "contract"].astype(str).unique()
    names = [c.replace("_", " ").capitalize() for c in played]
    return names[0] + " only" if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def paired_intervals(boot: pd.DataFrame) -> dict[tuple[str, int, str], tuple[float, float]]:
    """The 2.5 and 97.5 percentiles of each threshold's resampled difference, where at most 5 %
    of the resamples found no threshold under a play (the rule of thresholds-pimc)."""
    out = {}
    for key, part in boot.groupby(["contract", "bouts", "kind"], sort=False):
        drawn = part["diff"].to_numpy()
        if len(drawn) and np.isnan(drawn).mean() <= 0.05:
            low, high = np.quantile(drawn[~np.isnan(drawn)], [0.025, 0.975])
            out[(str(key[0]), int(key[1]), str(key[2]))] = (float(low), float(high))
    return out


def table(fits: dict[str, pd.DataFrame], steps: dict[tuple[str, str], dict]) -> pd.DataFrame:
    """One row per contract, bout count and kind: each play's threshold, each step's paired move,
    and whether the last step's interval lies within ± `CONVERGED`."""
    rows = []
    merged = fits[PLAYS[0]][["contract", "taker_bouts"]]
    for _, head in merged.iterrows():
        contract, bouts = str(head["contract"]), int(head["taker_bouts"])
        for kind, col in (("50% success", "threshold"), ("break-even", "break_even")):
            row: dict[str, object] = {"contract": contract, "bouts": bouts, "kind": kind}
            values = {}
            for play in PLAYS:
                fit = fits[play].set_index(["contract", "taker_bouts"]).loc[(contract, bouts)]
                v, lo, hi = float(fit[col]), float(fit[f"{col}_low"]), float(fit[f"{col}_high"])
                values[play] = v
                row[play] = study.fmt(v, lo, hi) if not math.isnan(v) else study._why(fit["note"], col)
            row["± search"] = f"{(hi - lo) / 2:.2f}" if not math.isnan(v) else "—"
            last = None
            for lower, higher in STEPS:
                diff = values[higher] - values[lower]
                interval = steps[(lower, higher)].get((contract, bouts, kind))
                text = "—"
                if not math.isnan(diff) and interval is not None:
                    text = study.fmt(diff, *interval, sign=True)
                    last = interval
                else:
                    last = None
                row[f"{higher} − {lower}"] = text
            row["converged"] = (
                "—" if last is None else ("yes" if -CONVERGED < last[0] and last[1] < CONVERGED else "no")
            )
            rows.append(row)
    return pd.DataFrame(rows)


def _deals(run: Path) -> int:
    """How many deals a finished run dealt (its manifest's count)."""
    return int(json.loads((run / "manifest.json").read_text())["counts"]["deals"])


def records_of(roots: list[Path]) -> tuple[dict[str, pd.DataFrame], dict[Path, list[str]]]:
    """Each play's records over every root, and each root's runs finished under every play.

    Within a root the runs are pooled as ``thresholds-pimc`` pools them (each cell weighted by its
    probability over its deals there); the deals are then numbered by run, the same run the same
    numbers in every root, so the paired resampling draws a deal once for all its contracts. A run
    found in two roots must deal the same cards (checked on each deal's bouts and trump length).
    """
    runs = {root: finished_runs(root) for root in roots}
    order = sorted({name for names in runs.values() for name in names})
    first = {name: next(root for root in roots if name in runs[root]) for name in order}
    sizes = [_deals(first[name] / PLAYS[0] / name) for name in order]
    start = dict(zip(order, np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(int), strict=True))
    out: dict[str, list[pd.DataFrame]] = {play: [] for play in PLAYS}
    seen: dict[str, pd.DataFrame] = {}
    for root, names in runs.items():
        if not names:
            continue
        local = np.concatenate([[0], np.cumsum([_deals(root / PLAYS[0] / n) for n in names])])
        shift = np.repeat([start[n] - local[i] for i, n in enumerate(names)], np.diff(local))
        for play in PLAYS:
            part = study.pooled(root, play, names)
            assert int(part["deal"].max()) < local[-1], "a run's deals are numbered 0 to its count - 1"
            part["deal"] = part["deal"] + shift[part["deal"].to_numpy()]
            out[play].append(part)
            hands = part.drop_duplicates("deal").set_index("deal")[["taker_bouts", "taker_trumps"]]
            if play in seen:
                both = seen[play].merge(hands, left_index=True, right_index=True, suffixes=("", "_other"))
                same = (both[["taker_bouts", "taker_trumps"]].to_numpy()
                        == both[["taker_bouts_other", "taker_trumps_other"]].to_numpy())  # fmt: skip
                assert same.all(), f"{root}: a run deals other cards than in another root"
                hands = pd.concat([seen[play], hands[~hands.index.isin(seen[play].index)]])
            seen[play] = hands
    records = {
        play: pd.concat(parts, ignore_index=True).sort_values("deal", kind="stable").reset_index(drop=True)
        for play, parts in out.items()
        if parts
    }
    return records, runs


def study_of(roots: list[Path], players: int, n_boot: int, reproduce: Path) -> tuple[list[str], pd.DataFrame]:
    """The report's section for one table size (its runs under ``ROOT/<P>p`` of each root), and its
    cells' sums."""
    records, by_root = records_of(roots)
    runs = sorted({name for names in by_root.values() for name in names})
    if not runs:
        return [f"## {players} players", "", "No run finished under every play.", ""], pd.DataFrame()
    fits = {play: thresholds(records[play]) for play in PLAYS}
    steps = {}
    for lower, higher in STEPS:
        pair = {"heuristic": records[lower], "pimc": records[higher]}  # the names the resampler reads
        steps[(lower, higher)] = paired_intervals(study.bootstrap_differences(pair, n_boot))
    shown = table(fits, steps)
    deals = int(records[PLAYS[0]]["deal"].nunique())
    cells = records[PLAYS[0]].drop_duplicates("deal").groupby(["taker_bouts", "taker_trumps"]).size()
    found = shown[shown["converged"] != "—"]
    lines = [
        f"## {players} players",
        "",
        f"{deals:,} deals in {len(runs)} runs ({', '.join(runs)}), {len(cells)} cells of the taker's bouts "
        f"and trump length, {cells.min()} to {cells.max()} deals per cell; each deal played by seat 0 "
        "with each play in every seat, on the same cards, under "
        + "; ".join(
            f"{_contracts(study.pooled(root, PLAYS[0], names))} in {_runs_in_words(names, runs)}"
            for root, names in by_root.items()
            if names
        )
        + ".",
        "",
        "Deals per cell (bouts × trumps): "
        + "; ".join(
            f"{b} bouts: " + ", ".join(f"{t}: {n}" for (bb, t), n in cells.items() if bb == b)
            for b in sorted({i[0] for i in cells.index})
        )
        + ".",
        "",
    ]
    if players == 4:
        lines += ["Reproduction of `reports/thresholds-pimc` (same seeds and cells):", ""]
        lines += [f"- {line}" for line in reproduction(reproduce)] + [""]
    lines += [
        study._markdown(shown),
        "",
        f"Converged (the last step, search − pimc-table, moves the threshold by less than {CONVERGED} "
        f"trump, its paired interval included): {int((found['converged'] == 'yes').sum())} of {len(found)} "
        "thresholds fitted under every play"
        + (
            ": "
            + ", ".join(
                f"{r.contract} {r.bouts} bouts {r.kind}"
                for r in found[found["converged"] == "yes"].itertuples()
            )
            if (found["converged"] == "yes").any()
            else ""
        )  # fmt: skip
        + ".",
        "",
        "Success and score, search − pimc-table, paired deal by deal (weighted by each cell's "
        "probability; normal 95 % interval from the stratified variance of the differences):",
        "",
    ]
    paired = study.paired_success({"heuristic": records["pimc-table"], "pimc": records["search"]})
    rows = []
    for (con, bouts), part in paired.groupby(["contract", "bouts"], sort=False):
        s = part[part["what"] == "success"].iloc[0]
        c = part[part["what"] == "score"].iloc[0]
        rows.append(
            {
                "contract": con,
                "bouts": bouts,
                "success (points of %)": study.fmt(
                    100 * s["mean"], 100 * s["low"], 100 * s["high"], sign=True
                ),
                "score (points)": study.fmt(c["mean"], c["low"], c["high"], sign=True),
                "deals": s["deals"],
            }
        )
    lines += [study._markdown(pd.DataFrame(rows)), ""]
    return lines, study.cell_sums(records)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("roots", type=Path, nargs="+", metavar="root")
    parser.add_argument("--players", type=int, nargs="+", default=[4, 5])
    parser.add_argument("--n-boot", type=int, default=200)
    parser.add_argument("--reproduce", type=Path, default=None,
                        help="the 4-player root checked against thresholds-pimc (default ROOT/4p)")  # fmt: skip
    parser.add_argument("--preamble", type=Path, default=HERE / "preamble.md",
                        help="the report's text before the tables")  # fmt: skip
    args = parser.parse_args()
    lines = [args.preamble.read_text(encoding="utf-8").rstrip(), ""]
    for players in args.players:
        roots = [root / f"{players}p" for root in args.roots]
        section, sums = study_of(roots, players, args.n_boot, args.reproduce or roots[0])
        lines += section
        if len(sums):
            sums.to_csv(HERE / f"cells-{players}p.csv", index=False)
    (HERE / "report.md").write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")
    print((HERE / "report.md").read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
