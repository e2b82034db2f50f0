"""The per-deal record array of the kernels ↔ a pandas DataFrame with named, typed columns."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from tarotsim.kernels import state as S
from tarotsim.labels import CONTRACTS, SIDE_NAMES, THROWN_IN_NAMES


@dataclass(frozen=True)
class Column:
    """One column of the records: where the kernels put it, its name, and its unit."""

    name: str
    index: int
    unit: str
    doc: str


COLUMNS = (
    Column("dealer", S.R_DEALER, "seat", "seat that dealt; seats are numbered in playing order"),
    Column("thrown_in", S.R_THROWN_IN, "label", "why the deal was not played, none when it was"),
    Column("taker", S.R_TAKER, "seat", "seat of the taker, -1 when thrown in"),
    Column("contract", S.R_CONTRACT, "label", "the contract played; missing when thrown in"),
    Column("taker_trumps", S.R_TAKER_TRUMPS, "cards", "trumps 1-21 in the taker's hand as dealt (the Excuse is not a trump)"),
    Column("taker_bouts", S.R_TAKER_BOUTS, "cards", "bouts in the taker's hand as dealt"),
    Column("taker_kings", S.R_TAKER_KINGS, "cards", "Kings in the taker's hand as dealt"),
    Column("hand_points", S.R_HAND_POINTS, "Chavey points", "Chavey's count of the taker's hand as dealt"),
    Column("attack_points", S.R_ATTACK_HALF, "points", "card points the attack ends with (half points allowed)"),
    Column("attack_bouts", S.R_ATTACK_BOUTS, "cards", "bouts the attack ends with"),
    Column("made", S.R_MADE, "bool", "attack points >= target"),
    Column("margin", S.R_MARGIN, "points", "|attack points - target| rounded up"),
    Column("petit_au_bout", S.R_PETIT_AU_BOUT, "label", "side that scored the petit au bout, missing if none"),
    Column("chelem", S.R_CHELEM, "label", "side that won every trick, missing if none"),
    Column("chelem_announced", S.R_CHELEM_ANNOUNCED, "bool", "the taker announced a chelem"),
    Column("poignee_points", S.R_POIGNEE_POINTS, "points", "sum of the poignée bonuses shown, by either side"),
    Column("poignees", S.R_N_POIGNEES, "count", "number of poignées shown"),
    Column("attack_tricks", S.R_ATTACK_TRICKS, "tricks", "tricks won by the attack"),
    Column("per_defender", S.R_PER_DEFENDER, "points", "D of RULES.md §8: what each defender pays the attack"),
)

_SIDES = np.array([None, *SIDE_NAMES], dtype=object)  # index side + 1


def _side_labels(values: np.ndarray) -> pd.Categorical:
    return pd.Categorical(_SIDES[values + 1], categories=list(SIDE_NAMES))


def to_frame(rec: np.ndarray, first_deal: int, players: int, *, per_deal: int = 1) -> pd.DataFrame:
    """DataFrame of a record array ``rec`` (int32[n, N_REC]) for deals from ``first_deal`` on.

    ``per_deal`` rows belong to each deal (a sweep plays every deal once per contract).
    """
    n = rec.shape[0]
    deals = first_deal + np.arange(n, dtype=np.int64) // per_deal
    data: dict[str, object] = {"deal": deals}
    for col in COLUMNS:
        values = rec[:, col.index]
        if col.name == "thrown_in":
            data[col.name] = pd.Categorical(
                np.array(THROWN_IN_NAMES, dtype=object)[values], categories=list(THROWN_IN_NAMES)
            )
        elif col.name == "contract":
            labels = np.array([None, *CONTRACTS], dtype=object)[values]
            data[col.name] = pd.Categorical(labels, categories=list(CONTRACTS), ordered=True)
        elif col.name in ("petit_au_bout", "chelem"):
            data[col.name] = _side_labels(values)
        elif col.unit == "bool":
            data[col.name] = values.astype(bool)
        elif col.name == "attack_points":
            data[col.name] = values.astype(np.float64) / 2.0
        else:
            data[col.name] = values.astype(np.int16 if col.unit in ("seat", "cards", "count", "tricks") else np.int32)
    for seat in range(players):
        data[f"score_{seat}"] = rec[:, S.R_SCORE + seat].astype(np.int32)
    taker = rec[:, S.R_TAKER]
    rows = np.arange(n)
    data["taker_score"] = np.where(taker >= 0, rec[rows, S.R_SCORE + np.maximum(taker, 0)], 0).astype(np.int32)
    if players == 5:
        data["partner"] = rec[:, S.R_PARTNER].astype(np.int16)
        data["called_card"] = rec[:, S.R_CALLED_CARD].astype(np.int16)
    return pd.DataFrame(data)
