"""A duel's statistics from its records: strategy A's edge over B with its interval, by role and by contract.

A duel's records hold ``players`` rows per deal: on row ``k`` strategy A sits in seat ``k``
(``a_seat``) and B in the others, on the same cards. A's **edge** on a deal is A's mean
score over its rows (game points per deal); the deal's luck cancels, for every seat's
cards are played once by A and ``players − 1`` times by B. Thrown-in rows score 0 for
every seat and count as such.

By role (taker, partner at 5 players, defender, thrown in): A's mean score over the rows
where A held the role, against B's mean score over the (row, seat) pairs where a seat of B
held it, and their difference. These describe where the edge shows; they do not split it
into an attacking and a defending skill: when B takes, A is among the defenders, so B's
scores as taker hold A's defence too (with the same bidding, every score of a deal follows
from what A makes as taker and what B makes against a defence with A).

Intervals are two-sided 95 % normal approximations over deals, the deal being the unit
that is drawn: ``mean ± z · sd / sqrt(n)`` of the per-deal edges; for a mean over rows (a
ratio of per-deal sums to per-deal counts, rows of one deal being correlated) the same
with the ratio's delta-method deviations. With 100,000 deals the t quantile would differ
from the normal one in the sixth digit.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import pandas as pd

from tarotsim.analysis.loading import require_columns
from tarotsim.base.intervals import Z95, check_z, paired_interval
from tarotsim.engine.labels import CONTRACTS, ThrownIn

ROLES = ("taker", "partner", "defender", "thrown_in")
"""A seat's role on a row: taker, partner (5 players), defender, or none (the deal was thrown in)."""
_TAKER, _PARTNER, _DEFENDER, _THROWN_IN = range(len(ROLES))


class DuelStats(NamedTuple):
    """A duel's edge and its breakdowns (see `duel_stats`)."""

    n: int
    edge: float
    low: float
    high: float
    by_role: pd.DataFrame
    by_contract: pd.DataFrame


class _Rows(NamedTuple):
    """A duel's records as arrays, rows in (deal, a_seat) order; R rows, n seats, D deals."""

    a_score: np.ndarray  # float[R]: A's score
    a_role: np.ndarray  # int64[R]: ROLES index of A's seat
    role_count: np.ndarray  # float[len(ROLES), R]: seats of the row in each role
    role_sum: np.ndarray  # float[len(ROLES), R]: their scores summed
    taker_score: np.ndarray  # float[R]: the taker's score, 0 when thrown in
    b_takes: np.ndarray  # bool[R]: a seat of B took
    contract: np.ndarray  # int64[R]: index in CONTRACTS, -1 when thrown in
    made: np.ndarray  # bool[R]


def _rows(records: pd.DataFrame, players: int) -> _Rows:
    seats = [f"score_{s}" for s in range(players)]
    require_columns(
        records, ["deal", "a_seat", "thrown_in", "taker", "contract", "made", *seats], what="a duel"
    )
    if len(records) % players:
        raise ValueError(f"a duel's records hold {players} rows per deal, got {len(records)} rows")
    deal = records["deal"].to_numpy()
    a_seat = records["a_seat"].to_numpy().astype(np.int64)
    in_order = bool((a_seat == np.arange(len(a_seat)) % players).all() and (np.diff(deal) >= 0).all())
    order = slice(None) if in_order else np.lexsort((a_seat, deal))
    deal, a_seat = deal[order], a_seat[order]
    if (a_seat.reshape(-1, players) != np.arange(players)).any() or (
        np.ptp(deal.reshape(-1, players), axis=1) != 0
    ).any():
        raise ValueError(f"a duel's records hold each deal once with A in each of the {players} seats")
    scores = records[seats].to_numpy(np.float64)[order]
    taker = records["taker"].to_numpy(np.int64, na_value=-1)[order]
    partner = (
        records["partner"].to_numpy(np.int64, na_value=-1)[order]
        if "partner" in records
        else np.full(len(taker), -1)
    )
    played = (records["thrown_in"] == ThrownIn.NONE.label).to_numpy()[order]
    rows = np.arange(len(taker))
    a_role = np.where(
        taker == a_seat,
        _TAKER,
        np.where(partner == a_seat, _PARTNER, np.where(played, _DEFENDER, _THROWN_IN)),
    )
    taker_score = np.where(played, scores[rows, np.maximum(taker, 0)], 0.0)
    has_partner = partner >= 0
    partner_score = np.where(has_partner, scores[rows, np.maximum(partner, 0)], 0.0)
    # every row: one taker, at most one partner, the other seats defend; scores are zero-sum
    role_count = np.stack(
        [played * 1.0, has_partner * 1.0, played * (players - 1.0 - has_partner), (~played) * float(players)]
    )
    role_sum = np.stack([taker_score, partner_score, -(taker_score + partner_score), np.zeros(len(rows))])
    contract = pd.Categorical(records["contract"], categories=list(CONTRACTS)).codes.astype(np.int64)[order]
    return _Rows(
        scores[rows, a_seat],
        a_role,
        role_count,
        role_sum,
        taker_score,
        played & (taker != a_seat),
        contract,
        records["made"].to_numpy(bool, na_value=False)[order],
    )


def _by_deal(values: np.ndarray, players: int) -> np.ndarray:
    """float[D]: a value per row (float[R]) summed over each deal's rows."""
    return values.reshape(-1, players) @ np.ones(players)


def _deviations(sums: np.ndarray, counts: np.ndarray) -> tuple[float, np.ndarray]:
    """The mean over rows of per-deal ``sums`` and ``counts`` (float[D]), and each deal's
    delta-method deviation from it (float[D]; its mean is 0)."""
    total = counts.sum()
    if total == 0:
        return math.nan, np.full(len(sums), math.nan)
    mean = sums.sum() / total
    return mean, (sums - mean * counts) / (total / len(sums))


def _interval(mean: float, deviations: np.ndarray, z: float) -> tuple[float, float, float]:
    """``mean`` with the interval of its per-deal ``deviations``."""
    if math.isnan(mean) or len(deviations) < 2:
        return mean, math.nan, math.nan
    half = z * float(deviations.std(ddof=1)) / math.sqrt(len(deviations))
    return mean, mean - half, mean + half


def _compare(sides: dict[str, tuple[np.ndarray, np.ndarray]], players: int, z: float) -> dict[str, float]:
    """A's and B's mean scores from per-row sums and counts (float[R] each), their
    difference, with intervals."""
    out: dict[str, float] = {}
    deviations = []
    for side, (sums, counts) in sides.items():
        mean, dev = _deviations(_by_deal(sums, players), _by_deal(counts, players))
        out[f"{side}_mean"], out[f"{side}_low"], out[f"{side}_high"] = _interval(mean, dev, z)
        deviations.append(dev)
    out["a_minus_b"], out["a_minus_b_low"], out["a_minus_b_high"] = _interval(
        out["a_mean"] - out["b_mean"], deviations[0] - deviations[1], z
    )
    return out


def deal_edges(records: pd.DataFrame, players: int) -> np.ndarray:
    """A's edge on each deal of a duel's records (float[D], game points, deals in order): A's
    mean score over the deal's rows.

    Raises
    ------
    ValueError
        As `duel_stats`.
    """
    return _rows(records, players).a_score.reshape(-1, players).mean(axis=1)


def duel_stats(records: pd.DataFrame, players: int, *, z: float = Z95) -> DuelStats:
    """A's edge over B and its breakdowns, from a duel's records.

    Parameters
    ----------
    records : pandas.DataFrame
        A duel's records (``a_seat`` and the record columns), ``players`` rows per deal in
        any order.
    players : int
        The table size.
    z : float, optional
        Normal quantile of the intervals (default 95 %).

    Returns
    -------
    DuelStats
        ``n`` (deals), ``edge``, ``low``, ``high`` (game points per deal); ``by_role`` and
        ``by_contract`` (DataFrames, described below). Rates are fractions: ``a_rate`` per
        row (A holds one seat of a row), ``b_rate`` per seat of B and row.

        ``by_role``, one row per role of `ROLES` (``partner`` at 5 players only):
        ``role``, ``a_n`` (rows where A held it), ``a_rate``, ``a_mean`` (A's mean score
        in it, points), ``a_low``, ``a_high``, ``b_n``, ``b_rate``, ``b_mean``, ``b_low``,
        ``b_high`` (the same for the seats of B), ``a_minus_b``, ``a_minus_b_low``, ``a_minus_b_high``
        (``a_mean - b_mean``).

        ``by_contract``, one row per contract: ``contract``, ``a_n`` (rows where A took
        it), ``a_rate``, ``a_made`` (success rate), ``a_mean`` (A's mean score as its
        taker), and ``b_n``, ``b_rate``, ``b_made``, ``b_mean`` for the takers of B.

    Raises
    ------
    ValueError
        If columns are missing or the records are not ``players`` rows per deal, one per
        seat of A.
    """
    check_z(z)
    rows = _rows(records, players)
    n_rows = len(rows.made)
    b_pairs = n_rows * (players - 1)
    edge, low, high = paired_interval(rows.a_score.reshape(-1, players).mean(axis=1), z)

    by_role = []
    for index, role in enumerate(ROLES):
        if role == "partner" and players != 5:
            continue
        a_count = (rows.a_role == index).astype(float)
        a_sum = np.where(a_count > 0, rows.a_score, 0.0)
        b_count, b_sum = rows.role_count[index] - a_count, rows.role_sum[index] - a_sum
        by_role.append(
            {
                "role": role,
                "a_n": int(a_count.sum()),
                "a_rate": a_count.sum() / n_rows,
                "b_n": int(b_count.sum()),
                "b_rate": b_count.sum() / b_pairs,
                **_compare({"a": (a_sum, a_count), "b": (b_sum, b_count)}, players, z),
            }
        )
    columns = [
        "role",
        "a_n",
        "a_rate",
        "a_mean",
        "a_low",
        "a_high",
        "b_n",
        "b_rate",
        "b_mean",
        "b_low",
        "b_high",
        "a_minus_b",
        "a_minus_b_low",
        "a_minus_b_high",
    ]

    by_contract = []
    for index, name in enumerate(CONTRACTS):
        this = rows.contract == index
        row: dict[str, object] = {"contract": name}
        for side, taken, per in (
            ("a", (rows.a_role == _TAKER) & this, n_rows),
            ("b", rows.b_takes & this, b_pairs),
        ):
            count = int(taken.sum())
            row |= {
                f"{side}_n": count,
                f"{side}_rate": count / per,
                f"{side}_made": float(rows.made[taken].mean()) if count else math.nan,
                f"{side}_mean": float(rows.taker_score[taken].mean()) if count else math.nan,
            }
        by_contract.append(row)
    return DuelStats(
        n_rows // players, edge, low, high, pd.DataFrame(by_role)[columns], pd.DataFrame(by_contract)
    )
