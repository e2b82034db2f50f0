"""A duel's statistics from its records: strategy A's edge over B, with intervals, by role and by contract.

A duel's records hold ``players`` rows per deal: row ``k`` has strategy A in seat ``k``
(``a_seat``) and B in the others, on the same cards. A's **edge** on a deal is A's mean
score over its rows (game points per deal); the deal's luck cancels, for every seat held
the same cards once with A and the others with B. Intervals are two-sided 95 % normal
approximations over deals: ``mean ± z · sd / sqrt(n)`` of the per-deal values (with the
100,000 deals of a typical duel, the t quantile differs from the normal one in the sixth
digit). Thrown-in rows score 0 for every seat and count as such.

The edge splits exactly into parts by the role A held (taker, partner at 5 players,
defender, none when thrown in), each comparing A with B in the same seat of the same deal.
On the row where A sits in seat s, A's **gain** is its score minus B's mean score in seat s
over the deal's other rows. The scores being zero-sum, a deal's gains add up to
``players² / (players − 1)`` times its edge; so the part of a role is the sum of A's gains
on the deal's rows where A held that role, times ``(players − 1) / players²``. The parts
add up to the edge deal by deal, each has its own interval, and every part is exactly 0
when A = B.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from tarotsim.analysis.intervals import Z95, check_z, paired_interval
from tarotsim.analysis.loading import require_columns
from tarotsim.labels import CONTRACTS, ThrownIn

ROLES = ("taker", "partner", "defender", "thrown_in")
"""A's role on a row: taker, partner (5 players), defender, or none (the deal was thrown in)."""
_TAKER, _PARTNER, _DEFENDER, _THROWN_IN = range(len(ROLES))


class DuelStats(NamedTuple):
    """A duel's edge and its breakdowns (see :func:`duel_stats`)."""

    n: int
    edge: float
    low: float
    high: float
    by_role: pd.DataFrame
    by_contract: pd.DataFrame


class _Rows(NamedTuple):
    """A duel's records as arrays, rows in (deal, a_seat) order; R rows, n seats."""

    scores: np.ndarray  # int64[R, n]
    gain: np.ndarray  # float[R]: A's score minus B's mean score in A's seat over the deal's other rows
    is_a: np.ndarray  # bool[R, n]: the seat played A
    role: np.ndarray  # int64[R, n]: ROLES index of every seat
    taker: np.ndarray  # int64[R]
    contract: np.ndarray  # int64[R]: index in CONTRACTS, -1 when thrown in
    made: np.ndarray  # bool[R]


def _rows(records: pd.DataFrame, players: int) -> _Rows:
    seats = [f"score_{s}" for s in range(players)]
    require_columns(records, ["deal", "a_seat", "thrown_in", "taker", "contract", "made", *seats], what="a duel")
    if len(records) % players:
        raise ValueError(f"a duel's records hold {players} rows per deal, got {len(records)} rows")
    deal = records["deal"].to_numpy()
    a_seat = records["a_seat"].to_numpy().astype(np.int64)
    order = np.lexsort((a_seat, deal))
    deal, a_seat = deal[order], a_seat[order]
    if (a_seat.reshape(-1, players) != np.arange(players)).any() or (np.ptp(deal.reshape(-1, players), axis=1) != 0).any():
        raise ValueError(f"a duel's records hold each deal once with A in each of the {players} seats")
    scores = records[seats].to_numpy(np.int64)[order]
    taker = records["taker"].to_numpy().astype(np.int64)[order]
    partner = records["partner"].to_numpy().astype(np.int64)[order] if "partner" in records else np.full(len(order), -1)
    played = (records["thrown_in"].astype(object) == ThrownIn.NONE.label).to_numpy()[order]
    seat = np.arange(players)
    role = np.where(played[:, None], _DEFENDER, _THROWN_IN)
    role = np.where(partner[:, None] == seat, _PARTNER, role)
    role = np.where(taker[:, None] == seat, _TAKER, role)
    contract = pd.Categorical(records["contract"], categories=list(CONTRACTS)).codes.astype(np.int64)
    by_rotation = scores.reshape(-1, players, players)  # [deal, rotation (A's seat), seat]
    a_score = by_rotation[:, seat, seat]  # [deal, A's seat]
    b_mean = (by_rotation.sum(axis=1) - a_score) / (players - 1)
    gain = (a_score - b_mean).reshape(-1)
    return _Rows(scores, gain, seat == a_seat[:, None], role, taker, contract[order],
                 records["made"].to_numpy(bool)[order])


def _per_deal(values: np.ndarray, players: int) -> np.ndarray:
    """float[D]: a per-row value (float[R]) summed over each deal's rows, divided by ``players``."""
    return values.reshape(-1, players).sum(axis=1) / players


def _part(rows: _Rows, mask: np.ndarray, players: int, z: float) -> tuple[float, float, float]:
    """The part of the edge from the rows of ``mask`` (bool[R]), with its interval."""
    gains = _per_deal(np.where(mask, rows.gain, 0.0), players) * (players - 1) / players
    return paired_interval(gains, z)


def _mean(values: np.ndarray) -> float:
    return float(values.mean()) if len(values) else np.nan


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
        ``by_contract`` (DataFrames, described below). Rates are fractions; ``a_*``
        columns are per row (A holds one seat), ``b_*`` per B seat and row.

        ``by_role``, one row per role of :data:`ROLES` (``partner`` at 5 players only):
        ``role``, ``a_n`` (rows where A held it), ``a_rate``, ``a_mean`` (A's mean score
        in it), ``b_rate``, ``b_mean`` (B's), ``edge``, ``edge_low``, ``edge_high`` (the
        role's part of A's edge, against B in the same seats; the parts add up to the edge).

        ``by_contract``, one row per contract: ``contract``, ``a_n`` (rows where A took
        it), ``a_rate``, ``a_made`` (success rate), ``a_mean`` (A's mean score as its
        taker), ``b_n``, ``b_rate``, ``b_made``, ``b_mean`` (the same for B's takers),
        ``edge``, ``edge_low``, ``edge_high`` (the part of A's edge from the deals A took
        with it).

    Raises
    ------
    ValueError
        If columns are missing or the records are not ``players`` rows per deal, one per
        seat of A.
    """
    check_z(z)
    rows = _rows(records, players)
    n_rows = len(rows.taker)
    a_score = rows.scores[rows.is_a]  # one per row: rows are in a_seat order within a deal
    edge, low, high = paired_interval(_per_deal(a_score.astype(float), players), z)
    b_seats = n_rows * (players - 1)

    by_role = []
    for index, role in enumerate(ROLES):
        if role == "partner" and players != 5:
            continue
        in_role = rows.role == index
        a_mask, b_mask = rows.is_a & in_role, ~rows.is_a & in_role
        part = _part(rows, a_mask.any(axis=1), players, z)
        by_role.append({"role": role, "a_n": int(a_mask.sum()), "a_rate": a_mask.sum() / n_rows,
                        "a_mean": _mean(rows.scores[a_mask]), "b_rate": b_mask.sum() / b_seats,
                        "b_mean": _mean(rows.scores[b_mask]), "edge": part[0], "edge_low": part[1], "edge_high": part[2]})

    a_takes = rows.role[np.arange(n_rows), rows.is_a.argmax(axis=1)] == _TAKER
    b_takes = (rows.taker >= 0) & ~a_takes
    taker_score = rows.scores[np.arange(n_rows), np.maximum(rows.taker, 0)]
    by_contract = []
    for index, name in enumerate(CONTRACTS):
        this = rows.contract == index
        a_mask, b_mask = a_takes & this, b_takes & this
        part = _part(rows, a_mask, players, z)
        by_contract.append({
            "contract": name, "a_n": int(a_mask.sum()), "a_rate": a_mask.sum() / n_rows,
            "a_made": _mean(rows.made[a_mask]), "a_mean": _mean(taker_score[a_mask]),
            "b_n": int(b_mask.sum()), "b_rate": b_mask.sum() / b_seats,
            "b_made": _mean(rows.made[b_mask]), "b_mean": _mean(taker_score[b_mask]),
            "edge": part[0], "edge_low": part[1], "edge_high": part[2],
        })
    return DuelStats(n_rows // players, edge, low, high, pd.DataFrame(by_role), pd.DataFrame(by_contract))
