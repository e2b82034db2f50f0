"""Paired comparison of two runs of the same deals (same seed) under different policies."""

from __future__ import annotations

import numpy as np
import pandas as pd

from tarotsim.analysis.intervals import Z95, check_z, paired_interval
from tarotsim.analysis.loading import (
    RECORD_COLUMNS,
    Data,
    load_records,
    played_rows,
    require_columns,
    sort_by_contract,
)
from tarotsim.labels import ThrownIn


def compare(run_a: Data, run_b: Data, *, z: float = Z95) -> pd.DataFrame:
    """Paired comparison of two runs of the same deals under different policies.

    Rows are matched on ``(deal, contract)``, or on ``deal`` alone when either
    run has no ``contract`` column; thrown-in rows are dropped from both first.
    Differences are *a minus b*, with a normal-approximation interval from the
    per-deal differences: ``mean(d) ± z · std(d, ddof=1) / sqrt(n)``, where
    ``d`` is ``made_a - made_b`` (in {-1, 0, 1}) for the rate and
    ``taker_score_a - taker_score_b`` for the score.

    Parameters
    ----------
    run_a, run_b : pandas.DataFrame or str or os.PathLike
        Records or run directories of the two runs (same seed, same deals).
    z : float, optional
        Normal quantile of the intervals (default 95 %).

    Returns
    -------
    pandas.DataFrame
        One row per contract (``'all'`` when matched on deal alone). Columns:
        ``contract``, ``n`` (paired rows), ``rate_a``, ``rate_b``, ``rate_diff``,
        ``rate_diff_low``, ``rate_diff_high`` (fractions), ``mean_score_a``,
        ``mean_score_b``, ``score_diff``, ``score_diff_low``, ``score_diff_high``
        (game points). Intervals are NaN when ``n < 2``.

    Raises
    ------
    ValueError
        If columns are missing, a key repeats within a run, or the two runs do
        not hold the same played deals (the message says how many are missing
        from each).
    """
    check_z(z)
    a = load_records(run_a, columns=RECORD_COLUMNS)
    b = load_records(run_b, columns=RECORD_COLUMNS)
    by_contract = "contract" in a.columns and "contract" in b.columns
    keys = ["deal", "contract"] if by_contract else ["deal"]
    sides = []
    for name, df in (("run_a", a), ("run_b", b)):
        require_columns(df, ["deal", "made", "taker_score"], what=f"compare ({name})")
        if by_contract:
            df = played_rows(df, what=f"compare ({name})")
        elif "thrown_in" in df.columns:
            df = df[df["thrown_in"].astype(object) == ThrownIn.NONE.label]
        dup = df.duplicated(keys)
        if dup.any():
            raise ValueError(f"{name} repeats {int(dup.sum())} key(s) {tuple(keys)}; each must appear once")
        part = df[keys].copy()
        part["made"] = df["made"].astype(bool).astype(np.int64)
        part["taker_score"] = df["taker_score"].astype(float)
        sides.append(part)
    merged = sides[0].merge(sides[1], on=keys, how="outer", suffixes=("_a", "_b"), indicator=True)
    only_a = int((merged["_merge"] == "left_only").sum())
    only_b = int((merged["_merge"] == "right_only").sum())
    if only_a or only_b:
        what = "(deal, contract) rows" if by_contract else "deals"
        raise ValueError(
            f"the runs do not hold the same deals: {only_a} played {what} of run_a are missing "
            f"from run_b and {only_b} of run_b are missing from run_a (same seed and deal count?)"
        )
    if not by_contract:
        merged["contract"] = "all"
    rows = []
    for con, g in merged.groupby("contract", sort=False, observed=True):
        made_a = g["made_a"].to_numpy(dtype=float)
        made_b = g["made_b"].to_numpy(dtype=float)
        score_a = g["taker_score_a"].to_numpy(dtype=float)
        score_b = g["taker_score_b"].to_numpy(dtype=float)
        rate_diff, rate_low, rate_high = paired_interval(made_a - made_b, z)
        score_diff, score_low, score_high = paired_interval(score_a - score_b, z)
        rows.append(
            {
                "contract": con,
                "n": len(g),
                "rate_a": made_a.mean(),
                "rate_b": made_b.mean(),
                "rate_diff": rate_diff,
                "rate_diff_low": rate_low,
                "rate_diff_high": rate_high,
                "mean_score_a": score_a.mean(),
                "mean_score_b": score_b.mean(),
                "score_diff": score_diff,
                "score_diff_low": score_low,
                "score_diff_high": score_high,
            }
        )
    columns = [
        "contract", "n", "rate_a", "rate_b", "rate_diff", "rate_diff_low", "rate_diff_high",
        "mean_score_a", "mean_score_b", "score_diff", "score_diff_low", "score_diff_high",
    ]  # fmt: skip
    out = pd.DataFrame(rows, columns=columns).astype({"n": np.int64})
    return sort_by_contract(out, []) if by_contract else out
