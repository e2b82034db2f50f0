"""The per-deal records: the kernels' record array ↔ a pandas DataFrame, column by column.

``COLUMNS`` is the registry of every column a record frame can hold: its name, pandas
dtype, unit and meaning, and the record-array slot it is read from. :func:`to_frame`
builds frames from it, :func:`add_matches` adds the match columns, and
:func:`columns_markdown` writes the table of the README.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pandas as pd

from tarotsim.kernels import state as S
from tarotsim.labels import CONTRACTS, SIDE_NAMES, THROWN_IN_NAMES, Contract, Side, ThrownIn

PER_SEAT = "<seat>"
"""Stands for the seat number in the name of a column that every seat has."""
FIVE_PLAYERS = "5 players"
MATCHES = "matches"
STRATEGIES = "strategies"
DUELS = "duels"

_THROWN_IN = pd.CategoricalDtype(list(THROWN_IN_NAMES))
_CONTRACT = pd.CategoricalDtype(list(CONTRACTS), ordered=True)
_SIDE = pd.CategoricalDtype(list(SIDE_NAMES))


@dataclass(frozen=True)
class Column:
    """One column of the records.

    ``slot`` is where the kernels put it in a record (``kernels.state.R_*``; seat 0's
    for a column per seat), None for a column computed from others. A categorical
    column's values are the kernels' codes, from ``first_code`` for its first category;
    lower codes are missing values. ``half_points`` columns hold half points in the
    record array. ``only`` says when the column is present: every frame (None), with 5
    players (``FIVE_PLAYERS``), in matches (``MATCHES``, ``simulate(match_deals=…)``), with
    a strategy per seat (``STRATEGIES``: ``simulate(strategies=…)`` and duels), or in duels
    (``DUELS``). A ``strategy_<seat>`` column's categories are the labels of the run's strategies.
    """

    name: str
    dtype: str | pd.CategoricalDtype
    unit: str
    meaning: str
    slot: int | None = None
    first_code: int = 0
    half_points: bool = False
    only: str | None = None

    @property
    def per_seat(self) -> bool:
        """Whether the column is one column per seat (``score_0``, ``score_1`` …)."""
        return self.name.endswith(PER_SEAT)


COLUMNS: tuple[Column, ...] = (
    Column("deal", "int64", "deal", "deal number in the run, from 0; a sweep has one row per contract, a duel one per seat of A"),
    Column("dealer", "int16", "seat", "seat that dealt; seats are numbered in playing order", S.R_DEALER),
    Column("thrown_in", _THROWN_IN, "label", f"why the deal was not played (`{ThrownIn.NONE.label}`: it was played)",
           S.R_THROWN_IN, first_code=ThrownIn.NONE),
    Column("taker", "int16", "seat", "seat of the taker, -1 when thrown in", S.R_TAKER),
    Column("contract", _CONTRACT, "label", "contract played; missing when thrown in",
           S.R_CONTRACT, first_code=Contract.PRISE),
    Column("taker_trumps", "int16", "cards",
           "trumps 1-21 in the taker's hand as dealt, before the chien (the Excuse is not a trump)",
           S.R_TAKER_TRUMPS),
    Column("taker_bouts", "int16", "cards", "bouts in the taker's hand as dealt", S.R_TAKER_BOUTS),
    Column("taker_kings", "int16", "cards", "Kings in the taker's hand as dealt", S.R_TAKER_KINGS),
    Column("hand_points", "int32", "Chavey points", "Chavey's count of the taker's hand as dealt", S.R_HAND_POINTS),
    Column("attack_points", "float64", "points", "card points the attack ends with (half points allowed)",
           S.R_ATTACK_HALF, half_points=True),
    Column("attack_bouts", "int16", "cards", "bouts the attack ends with", S.R_ATTACK_BOUTS),
    Column("made", "bool", "yes/no", "the attack reached its target", S.R_MADE),
    Column("margin", "int32", "points", "distance of the attack's points from its target, rounded up", S.R_MARGIN),
    Column("petit_au_bout", _SIDE, "side", "side that scored the petit au bout; missing if none",
           S.R_PETIT_AU_BOUT, first_code=Side.ATTACK),
    Column("chelem", _SIDE, "side", "side that won every trick; missing if none", S.R_CHELEM, first_code=Side.ATTACK),
    Column("chelem_announced", "bool", "yes/no", "the taker announced a chelem", S.R_CHELEM_ANNOUNCED),
    Column("poignee_points", "int32", "points", "sum of the poignée bonuses shown, by either side", S.R_POIGNEE_POINTS),
    Column("poignees", "int16", "count", "poignées shown", S.R_N_POIGNEES),
    Column("attack_tricks", "int16", "tricks", "tricks won by the attack", S.R_ATTACK_TRICKS),
    Column("per_defender", "int32", "points", "D of RULES.md §8: what each defender pays the attack", S.R_PER_DEFENDER),
    Column(f"score_{PER_SEAT}", "int32", "points", "the seat's score for the deal (zero-sum)", S.R_SCORE),
    Column("taker_score", "int32", "points", "the taker's score, 0 when thrown in"),
    Column("partner", "int16", "seat", "the taker's partner (holder of the called card), -1 when alone or thrown in",
           S.R_PARTNER, only=FIVE_PLAYERS),
    Column("called_card", "int16", "card id", "the card the taker called (ids of `tarotsim.cards`), -1 when thrown in",
           S.R_CALLED_CARD, only=FIVE_PLAYERS),
    Column("match", "int64", "match", "match number, from 0", only=MATCHES),
    Column(f"total_{PER_SEAT}", "int64", "points", "the seat's running score within its match", only=MATCHES),
    Column(f"strategy_{PER_SEAT}", "category", "label", "label of the strategy the seat played (`Strategy.label`)",
           only=STRATEGIES),
    Column("a_seat", "int16", "seat", "the seat strategy A played on this row: a duel plays each deal once with A "
           "in each seat, B in the others", only=DUELS),
)


def frame_columns(
    players: int, *, matches: bool = False, strategies: bool = False, duel: bool = False
) -> Iterator[tuple[str, Column, int]]:
    """(name, column, seat) of every column of a record frame at ``players`` players, in
    order; seat is 0 for a column that is not per seat. A duel's frame has strategies too."""
    present = {None: True, FIVE_PLAYERS: players == 5, MATCHES: matches, STRATEGIES: strategies or duel, DUELS: duel}
    for column in COLUMNS:
        if not present[column.only]:
            continue
        if column.per_seat:
            for seat in range(players):
                yield column.name.replace(PER_SEAT, str(seat)), column, seat
        else:
            yield column.name, column, 0


def _from_slot(values: np.ndarray, column: Column) -> object:
    """A column's values from its record-array values (int32)."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        codes = values.astype(np.int64) - column.first_code
        return pd.Categorical.from_codes(np.where(codes < 0, -1, codes), dtype=column.dtype)
    if column.half_points:
        return values.astype(np.float64) / 2.0
    return values.astype(column.dtype)


def to_frame(rec: np.ndarray, first_deal: int, players: int, *, per_deal: int = 1) -> pd.DataFrame:
    """DataFrame of a record array ``rec`` (int32[n, N_REC]) for deals from ``first_deal`` on.

    ``per_deal`` rows belong to each deal (a sweep plays every deal once per contract).
    The columns are those of ``frame_columns(players)``.
    """
    rows = np.arange(rec.shape[0], dtype=np.int64)
    taker = rec[:, S.R_TAKER]
    derived = {
        "deal": first_deal + rows // per_deal,
        "taker_score": np.where(taker >= 0, rec[rows, S.R_SCORE + np.maximum(taker, 0)], 0).astype(np.int32),
    }
    data: dict[str, object] = {}
    for name, column, seat in frame_columns(players):
        if column.slot is None:
            data[name] = derived[name]
        else:
            data[name] = _from_slot(rec[:, column.slot + seat], column)
    return pd.DataFrame(data)


def add_matches(frame: pd.DataFrame, match_deals: int, players: int) -> None:
    """Add ``match`` and each seat's running score ``total_<seat>`` within its match, in place."""
    dtypes = {column.name: column.dtype for column in COLUMNS if column.only == MATCHES}
    frame["match"] = (frame["deal"] // match_deals).astype(dtypes["match"])
    grouped = frame.groupby("match", sort=False)
    for seat in range(players):
        frame[f"total_{seat}"] = grouped[f"score_{seat}"].cumsum().astype(dtypes[f"total_{PER_SEAT}"])


def add_strategies(frame: pd.DataFrame, labels: list[str], codes: np.ndarray) -> None:
    """Add each seat's ``strategy_<seat>``, in place: row r, seat s played ``labels[codes[r, s]]``.

    ``codes`` is an int array [rows, players] (a row of it broadcasts to every row).
    """
    codes = np.broadcast_to(codes, (len(frame), np.shape(codes)[-1]))
    dtype = pd.CategoricalDtype(list(dict.fromkeys(labels)))
    index = np.array([dtype.categories.get_loc(label) for label in labels], dtype=np.int8)
    for seat in range(codes.shape[1]):
        frame[f"strategy_{seat}"] = pd.Categorical.from_codes(index[codes[:, seat]], dtype=dtype)


def add_duel_seats(frame: pd.DataFrame, players: int) -> None:
    """Add ``a_seat``, in place, to a duel's records: row i of each deal's ``players`` rows has A in seat i."""
    dtypes = {column.name: column.dtype for column in COLUMNS if column.only == DUELS}
    frame["a_seat"] = (np.arange(len(frame)) % players).astype(dtypes["a_seat"])


def _dtype_text(dtype: str | pd.CategoricalDtype) -> str:
    if isinstance(dtype, pd.CategoricalDtype):
        kind = "ordered category" if dtype.ordered else "category"
        return f"{kind}: " + ", ".join(f"`{c}`" for c in dtype.categories)
    return dtype


def columns_markdown() -> str:
    """The registry as a Markdown table: column, dtype, unit, meaning, when present."""
    present = {None: "always", FIVE_PLAYERS: "5 players", MATCHES: "`simulate(..., match_deals=K)`",
               STRATEGIES: "`simulate(..., strategies=...)`, duels", DUELS: "duels"}
    lines = ["| column | dtype | unit | meaning | present |", "| --- | --- | --- | --- | --- |"]
    for column in COLUMNS:
        lines.append(f"| `{column.name}` | {_dtype_text(column.dtype)} | {column.unit} | {column.meaning} "
                     f"| {present[column.only]} |")
    return "\n".join(lines) + "\n"
