"""The per-deal records: the kernels' record array ↔ a pandas DataFrame, column by column.

``COLUMNS`` is the registry of every column a record frame can hold: its name, pandas
dtype, unit and meaning, and the record-array slot it is read from. `to_frame`
builds frames from it, `add_matches` adds the match columns, and
`columns_markdown` writes the table of the README; `deal_trace` writes one deal as an object of
``tarotsim trace``'s JSON format.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from tarotsim.engine.cards import format_cards, from_mask
from tarotsim.engine.kernels import state as S
from tarotsim.engine.kernels.state import MAX_SEATS
from tarotsim.engine.labels import (
    CONTRACT_NAMES,
    CONTRACTS,
    SIDE_NAMES,
    THROWN_IN_NAMES,
    Contract,
    Poignee,
    Side,
    ThrownIn,
)

PER_SEAT = "<seat>"
"""Stands for the seat number in the name of a column that every seat has."""
FIVE_PLAYERS = "5 players"
MATCHES = "matches"
STRATEGIES = "strategies"
DUELS = "duels"
WEIGHTED = "weighted"

THROWN = "thrown in"
"""``Column.missing``: null on the rows of thrown-in deals (nothing was played)."""
HAND = "hand unknown"
"""``Column.missing``: null on thrown-in rows of a run that bids (no taker, so no taker's hand); a
sweep, or a run with a forced taker, records its taking seat's hand as dealt on every row."""
NO_PARTNER = "no partner"
"""``Column.missing``: null on thrown-in rows and when the taker plays alone."""
NO_SIDE = "no side"
"""``Column.missing``: null when neither side did it, and on thrown-in rows."""
MISSING_TEXT = {
    None: "never",
    THROWN: "thrown in",
    HAND: "thrown in, in a run that bids",
    NO_PARTNER: "thrown in, or the taker alone",
    NO_SIDE: "neither side, or thrown in",
}
"""When a column is null, as the README's table says it."""

BOUT_LABELS: tuple[tuple[int, str], ...] = (
    (S.BOUT_HELD_PETIT, "P"),
    (S.BOUT_HELD_21, "21"),
    (S.BOUT_HELD_EXCUSE, "EX"),
)
"""Bit of each bout in the kernels' ``R_BOUTS_HELD`` code, and its label: the Petit, the 21, the Excuse."""
BOUTS_HELD: tuple[str, ...] = tuple(
    "+".join(label for bit, label in BOUT_LABELS if code & bit) for code in range(8)
)
"""The categories of ``bouts_held``, indexed by the kernels' code (bits of ``BOUT_LABELS``):
``""``, ``P``, ``21``, ``P+21``, ``EX``, ``P+EX``, ``21+EX``, ``P+21+EX``; a label names the
bouts held in the order Petit, 21, Excuse."""

_THROWN_IN = pd.CategoricalDtype(list(THROWN_IN_NAMES))
_CONTRACT = pd.CategoricalDtype(list(CONTRACTS), ordered=True)
_BID = pd.CategoricalDtype(list(CONTRACT_NAMES), ordered=True)
_BOUTS_HELD = pd.CategoricalDtype(list(BOUTS_HELD))
_SIDE = pd.CategoricalDtype(list(SIDE_NAMES))


@dataclass(frozen=True)
class Column:
    """One column of the records.

    ``slot`` is where the kernels put it in a record (``engine.kernels.state.R_*``; seat 0's
    for a column per seat), None for a column computed from others. A categorical
    column's values are the kernels' codes, from ``first_code`` for its first category;
    lower codes are missing values. ``half_points`` columns hold half points in the
    record array. ``missing`` says on which rows the column is null (``THROWN``,
    ``HAND``, ``NO_PARTNER``, ``NO_SIDE``; None: never): a column that can be null has a
    pandas nullable dtype (``Int16``, ``boolean``, ``Float64``, or a category), so no
    number stands for "none". ``only`` says when the column is present: every frame
    (None), with 5 players (``FIVE_PLAYERS``), in matches (``MATCHES``,
    ``simulate(match_deals=…)``), with a strategy per seat (``STRATEGIES``:
    ``simulate(strategies=…)`` and duels), or in duels (``DUELS``). A ``strategy_<seat>``
    column's categories are the labels of the run's strategies.
    """

    name: str
    dtype: str | pd.CategoricalDtype
    unit: str
    meaning: str
    slot: int | None = None
    first_code: int = 0
    half_points: bool = False
    missing: str | None = None
    only: str | None = None

    @property
    def per_seat(self) -> bool:
        """Whether the column is one column per seat (``score_0``, ``score_1`` …)."""
        return self.name.endswith(PER_SEAT)


COLUMNS: tuple[Column, ...] = (
    Column(
        "deal",
        "int64",
        "deal",
        "deal number in the run, from 0; a sweep has one row per contract, a duel one per seat of A",
    ),
    Column("dealer", "int16", "seat", "seat that dealt; seats are numbered in playing order", S.R_DEALER),
    Column(
        "thrown_in",
        _THROWN_IN,
        "label",
        f"why the deal was not played (`{ThrownIn.NONE.label}`: it was played)",
        S.R_THROWN_IN,
        first_code=ThrownIn.NONE,
    ),
    Column("taker", "Int16", "seat", "seat of the taker", S.R_TAKER, missing=THROWN),
    Column(
        "contract",
        _CONTRACT,
        "label",
        "contract played",
        S.R_CONTRACT,
        first_code=Contract.PRISE,
        missing=THROWN,
    ),
    Column(
        "taker_trumps",
        "Int16",
        "cards",
        "trumps 1-21 in the taker's hand as dealt, before the chien (the Excuse is not a trump); "
        "in a sweep, the taking seat's hand, thrown-in deals included",
        S.R_TAKER_TRUMPS,
        missing=HAND,
    ),
    Column(
        "taker_bouts",
        "Int16",
        "cards",
        "bouts in the taker's hand as dealt (as for `taker_trumps`)",
        S.R_TAKER_BOUTS,
        missing=HAND,
    ),
    Column(
        "taker_kings",
        "Int16",
        "cards",
        "Kings in the taker's hand as dealt (as for `taker_trumps`)",
        S.R_TAKER_KINGS,
        missing=HAND,
    ),
    Column(
        "hand_points",
        "Int32",
        "Chavey points",
        "Chavey's count of the taker's hand as dealt (as for `taker_trumps`)",
        S.R_HAND_POINTS,
        missing=HAND,
    ),
    Column(
        "hand_points_dist",
        "Int32",
        "Chavey points",
        "Chavey's count with the distribution bonus (each void 6, each singleton 3), the count the published "
        "Garde sans and Garde contre bands use (as for `taker_trumps`)",
        S.R_HAND_POINTS_DIST,
        missing=HAND,
    ),
    Column(
        "bouts_held",
        _BOUTS_HELD,
        "label",
        "which bouts the taker was dealt: P (Petit), 21, EX (Excuse), joined by + in that order; "
        "empty: none (as for `taker_trumps`)",
        S.R_BOUTS_HELD,
        missing=HAND,
    ),
    Column(
        "taker_trumps_ex",
        "Int16",
        "cards",
        "trumps in the taker's hand as dealt, the Excuse counted (as for `taker_trumps`)",
        S.R_TAKER_TRUMPS_EX,
        missing=HAND,
    ),
    Column(
        "others_bid",
        _BID,
        "label",
        "highest contract another seat wishes to bid from its own hand under its strategy's bid policy, "
        "whether it speaks before or after the taker (`pass`: none would bid); where seats bid, never "
        "above `contract`; a `montecarlo` seat's wish is the one it formed in the auction, from the bids "
        "it heard (in a sweep, an auction held as if nobody were forced) (as for `taker_trumps`)",
        S.R_OTHERS_BID,
        first_code=Contract.PASS,
        missing=HAND,
    ),
    Column(
        "speaker_position",
        "Int16",
        "turn",
        "the taker's turn in the auction: 0 speaks first (the seat after the dealer), players-1 last "
        "(as for `taker_trumps`)",
        S.R_SPEAKER_POSITION,
        missing=HAND,
    ),
    Column(
        "attack_points",
        "Float64",
        "points",
        "card points the attack ends with (half points allowed)",
        S.R_ATTACK_HALF,
        half_points=True,
        missing=THROWN,
    ),
    Column("attack_bouts", "Int16", "cards", "bouts the attack ends with", S.R_ATTACK_BOUTS, missing=THROWN),
    Column("made", "boolean", "yes/no", "the attack reached its target", S.R_MADE, missing=THROWN),
    Column(
        "margin",
        "Int32",
        "points",
        "distance of the attack's points from its target, rounded up",
        S.R_MARGIN,
        missing=THROWN,
    ),
    Column(
        "petit_au_bout",
        _SIDE,
        "side",
        "side that scored the petit au bout",
        S.R_PETIT_AU_BOUT,
        first_code=Side.ATTACK,
        missing=NO_SIDE,
    ),
    Column(
        "chelem",
        _SIDE,
        "side",
        "side that won every trick",
        S.R_CHELEM,
        first_code=Side.ATTACK,
        missing=NO_SIDE,
    ),
    Column(
        "chelem_announced",
        "boolean",
        "yes/no",
        "the taker announced a chelem",
        S.R_CHELEM_ANNOUNCED,
        missing=THROWN,
    ),
    Column(
        "poignee_points",
        "Int32",
        "points",
        "sum of the poignée bonuses shown, by either side",
        S.R_POIGNEE_POINTS,
        missing=THROWN,
    ),
    Column("poignees", "Int16", "count", "poignées shown", S.R_N_POIGNEES, missing=THROWN),
    Column("attack_tricks", "Int16", "tricks", "tricks won by the attack", S.R_ATTACK_TRICKS, missing=THROWN),
    Column(
        "per_defender",
        "Int32",
        "points",
        "D of docs/rules.md §8: what each defender pays the attack",
        S.R_PER_DEFENDER,
        missing=THROWN,
    ),
    Column(
        f"score_{PER_SEAT}",
        "int32",
        "points",
        "the seat's score for the deal (zero-sum; 0 on a thrown-in deal, which scores nothing)",
        S.R_SCORE,
    ),
    Column("taker_score", "Int32", "points", "the taker's score for the deal", missing=THROWN),
    Column(
        "partner",
        "Int16",
        "seat",
        "the taker's partner (holder of the called card)",
        S.R_PARTNER,
        missing=NO_PARTNER,
        only=FIVE_PLAYERS,
    ),
    Column(
        "taker_alone",
        "boolean",
        "yes/no",
        "the called card is in the taker's hand or the chien: the taker plays alone against four",
        missing=THROWN,
        only=FIVE_PLAYERS,
    ),
    Column(
        "called_card",
        "Int16",
        "card id",
        "the card the taker called (ids of `tarotsim.engine.cards`)",
        S.R_CALLED_CARD,
        missing=THROWN,
        only=FIVE_PLAYERS,
    ),
    Column("match", "int64", "match", "match number, from 0", only=MATCHES),
    Column(f"total_{PER_SEAT}", "int64", "points", "the seat's running score within its match", only=MATCHES),
    Column(
        f"strategy_{PER_SEAT}",
        "category",
        "label",
        "label of the strategy the seat played (`Strategy.label`)",
        only=STRATEGIES,
    ),
    Column(
        "weight",
        "float64",
        "probability",
        "a conditioned or stratified sweep's weight of the deal: its cell's probability under uniform dealing "
        "divided by the cell's deals in the run (`tarotsim.runs.strata`); the same on each row of a deal",
        only=WEIGHTED,
    ),
    Column(
        "a_seat",
        "int16",
        "seat",
        "the seat strategy A played on this row: a duel plays each deal once with A "
        "in each seat, B in the others",
        only=DUELS,
    ),
)


def frame_columns(
    players: int,
    *,
    matches: bool = False,
    strategies: bool = False,
    duel: bool = False,
    weighted: bool = False,
) -> Iterator[tuple[str, Column, int]]:
    """(name, column, seat) of every column of a record frame at ``players`` players, in
    order; seat is 0 for a column that is not per seat. A duel's frame has strategies too."""
    present = {
        None: True,
        FIVE_PLAYERS: players == 5,
        MATCHES: matches,
        STRATEGIES: strategies or duel,
        DUELS: duel,
        WEIGHTED: weighted,
    }
    for column in COLUMNS:
        if not present[column.only]:
            continue
        if column.per_seat:
            for seat in range(players):
                yield column.name.replace(PER_SEAT, str(seat)), column, seat
        else:
            yield column.name, column, 0


def _convert(values: np.ndarray, column: Column, missing: np.ndarray | None) -> object:
    """A column's values from its record-array values (int32[n]), null where ``missing``."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        codes = values.astype(np.int8) - np.int8(column.first_code)
        codes[codes < 0] = -1
        if missing is not None:
            codes[missing] = -1
        return pd.Categorical.from_codes(codes, dtype=column.dtype)
    numbers = values / 2.0 if column.half_points else values
    if column.missing is None:
        return numbers.astype(column.dtype)
    dtype = pd.api.types.pandas_dtype(column.dtype)
    mask = np.zeros(len(values), dtype=bool) if missing is None else missing.copy()
    return dtype.construct_array_type()(numbers.astype(dtype.numpy_dtype), mask)


def to_frame(
    rec: np.ndarray, first_deal: int, players: int, *, per_deal: int = 1, hand_known: bool = False
) -> pd.DataFrame:
    """DataFrame of a record array ``rec`` (int32[n, N_REC]) for deals from ``first_deal`` on.

    ``per_deal`` rows belong to each deal (a sweep plays every deal once per contract).
    ``hand_known``: the records hold the taking seat's hand on thrown-in deals too (a
    sweep's, or a run's with a forced taker), so the hand columns are never null.
    The columns are those of ``frame_columns(players)``; no per-row Python work is done.
    """
    rows = np.arange(rec.shape[0], dtype=np.int64)
    taker = rec[:, S.R_TAKER]
    thrown = rec[:, S.R_THROWN_IN] != S.THROWN_NONE
    derived = {
        "deal": first_deal + rows // per_deal,
        "taker_score": rec[rows, S.R_SCORE + np.maximum(taker, 0)],
        "taker_alone": rec[:, S.R_PARTNER] < 0,
    }
    missing = {
        None: None,
        THROWN: thrown,
        HAND: None if hand_known else thrown,
        NO_PARTNER: thrown | (rec[:, S.R_PARTNER] < 0),
        NO_SIDE: thrown,
    }
    data: dict[str, object] = {}
    for name, column, seat in frame_columns(players):
        values = derived[name] if column.slot is None else rec[:, column.slot + seat]
        data[name] = _convert(values, column, missing[column.missing])
    return pd.DataFrame(data, copy=False)


def record_bytes(players: int) -> int:
    """Bytes of memory one record row takes while a frame is made: its row in the kernels'
    record array (int32[N_REC]) and its row in the frame, masks of nullable columns included."""
    frame = 0
    for _, column, _ in frame_columns(players):
        dtype = pd.api.types.pandas_dtype(column.dtype)
        if isinstance(dtype, pd.CategoricalDtype):
            frame += 1  # int8 codes
        else:
            frame += np.dtype(getattr(dtype, "numpy_dtype", dtype)).itemsize + (column.missing is not None)
    return S.N_REC * np.dtype(np.int32).itemsize + frame


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
        # an empty category (``bouts_held``'s "none") as `""`: an empty code span is no Markdown
        return f"{kind}: " + ", ".join(f"`{c}`" if c else '`""`' for c in dtype.categories)
    return dtype


def columns_markdown() -> str:
    """The registry as a Markdown table: column, dtype, unit, meaning, when null, when present."""
    present = {
        None: "always",
        FIVE_PLAYERS: "5 players",
        MATCHES: "`simulate(..., match_deals=K)`",
        STRATEGIES: "`simulate(..., strategies=...)`, duels",
        DUELS: "duels",
        WEIGHTED: "conditioned sweeps (`where`, `stratify`)",
    }
    lines = [
        "| column | dtype | unit | meaning | null when | present |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for column in COLUMNS:
        lines.append(
            f"| `{column.name}` | {_dtype_text(column.dtype)} | {column.unit} | {column.meaning} "
            f"| {MISSING_TEXT[column.missing]} | {present[column.only]} |"
        )
    return "\n".join(lines) + "\n"


def _side(code: int) -> str | None:
    """The label of side ``code``, None for no side."""
    side = Side(code)
    return None if side == Side.NONE else side.label


def _cards(masks: np.ndarray, at: int) -> list[str]:
    return format_cards(from_mask(masks[at], masks[at + 1]))


def deal_trace(
    deal: int, rec: np.ndarray, log: np.ndarray, masks: np.ndarray, players: int, hand_size: int
) -> dict[str, Any]:
    """One deal as an object of ``tarotsim trace``'s JSON format (docs/records.md), from its
    record (int[N_REC]), its log (int[N_LOG]) and its card masks (uint64[N_MASKS]), at a table
    of ``players`` with ``hand_size`` cards per hand: the one writer of that format, for a
    traced run and for ``Game.to_trace``."""
    thrown = int(rec[S.R_THROWN_IN])
    trace: dict[str, Any] = {
        "deal": deal,
        "players": players,
        "dealer": int(rec[S.R_DEALER]),
        "hands": [_cards(masks, S.M_DEALT + 2 * seat) for seat in range(players)],
        "chien": _cards(masks, S.M_CHIEN),
        "thrown_in": None if thrown == S.THROWN_NONE else THROWN_IN_NAMES[thrown],
        "bids": []
        if thrown == S.THROWN_PETIT_SEC
        else [CONTRACT_NAMES[int(b)] for b in log[S.L_BIDS : S.L_BIDS + players]],
        "taker": None,
        "contract": None,
        "called_card": None,
        "partner": None,
        "ecart": [],
        "chelem_announced": False,
        "poignees": [],
        "tricks": [],
        "attack_points": None,
        "attack_bouts": None,
        "made": None,
        "margin": None,
        "petit_au_bout": None,
        "chelem": None,
        "scores": [0] * players,
    }
    if thrown != S.THROWN_NONE:
        return trace
    taker = int(rec[S.R_TAKER])
    trace["taker"] = taker
    trace["contract"] = CONTRACT_NAMES[int(rec[S.R_CONTRACT])]
    if players == 5:
        called = int(rec[S.R_CALLED_CARD])
        partner = int(rec[S.R_PARTNER])
        trace["called_card"] = format_cards([called])[0] if called >= 0 else None
        trace["partner"] = partner if partner >= 0 else None
    trace["ecart"] = _cards(masks, S.M_ECART)
    trace["chelem_announced"] = bool(rec[S.R_CHELEM_ANNOUNCED])
    first_leader = int(log[S.L_LEADERS])
    for j in range(players):
        seat = (first_leader + j) % players
        size = int(log[S.L_POIGNEE + seat])
        if size:
            trace["poignees"].append(
                {"seat": seat, "size": Poignee(size).label, "cards": _cards(masks, S.M_SHOWN + 2 * seat)}
            )
    for t in range(hand_size):
        plays = log[S.L_PLAYS + t * MAX_SEATS : S.L_PLAYS + t * MAX_SEATS + players]
        trace["tricks"].append(
            {
                "leader": int(log[S.L_LEADERS + t]),
                "cards": [format_cards([int(c)])[0] for c in plays],
                "winner": int(log[S.L_WINNERS + t]),
            }
        )
    trace["attack_points"] = int(rec[S.R_ATTACK_HALF]) / 2
    trace["attack_bouts"] = int(rec[S.R_ATTACK_BOUTS])
    trace["made"] = bool(rec[S.R_MADE])
    trace["margin"] = int(rec[S.R_MARGIN])
    trace["petit_au_bout"] = _side(int(rec[S.R_PETIT_AU_BOUT]))
    trace["chelem"] = _side(int(rec[S.R_CHELEM]))
    trace["scores"] = [int(rec[S.R_SCORE + seat]) for seat in range(players)]
    return trace
