"""The words a report uses for the records' and the tables' column names, and how it writes numbers.

A report speaks to a person: its prose and its table headers say "trump length" and "mean
taker score", not ``taker_trumps`` and ``mean_score``. `GLOSSARY` is the one place
that maps a column name to those words and to a one-line meaning; the report's tables are
turned into words by `readable`, and each report ends with the entries it used
(`glossary_table`), so a reader can still find the column in the records.

Numbers are written for reading too: a negative number with a real minus sign (U+2212) and
an interval as ``−41.6 to −40.8`` (`number`, `interval`).

>>> words("taker_trumps")
"taker's trump length"
>>> interval(-41.63, -40.8)
'−41.6 to −40.8'
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import NamedTuple

import pandas as pd

from tarotsim.engine.labels import Contract

_CONTRACT_LABELS = frozenset(c.label for c in Contract)

MINUS = "\u2212"
"""The minus sign written before negative numbers (not the hyphen ``-``)."""


class Term(NamedTuple):
    """How a report names a column (`words`) and what it means (`meaning`, one sentence)."""

    words: str
    meaning: str


GLOSSARY: dict[str, Term] = {
    # hands and contracts
    "contract": Term("contract", "the contract played (Prise, Garde, Garde sans, Garde contre)"),
    "taker_bouts": Term(
        "taker's bouts", "bouts (the Petit, the 21, the Excuse) in the taker's hand as dealt"
    ),
    "taker_trumps": Term(
        "taker's trump length", "trumps 1–21 in the taker's hand as dealt, before the chien"
    ),
    "hand_points": Term("hand points", "Chavey's count of the taker's hand as dealt"),
    "hand_points_dist": Term(
        "hand points with the distribution bonus",
        "Chavey's count with 6 for each void and 3 for each singleton, the count the published "
        "Garde sans and Garde contre bands use",
    ),
    "others_bid": Term(
        "other seats' highest wish",
        "the highest contract another seat would bid on its own hand (pass: none would)",
    ),
    "speaker_position": Term(
        "turn to speak", "the taking seat's turn in the auction: 0 speaks first, the dealer last"
    ),
    "uncontested": Term("no other bid", "share of the deals on which no other seat would bid"),
    "deals": Term("deals", "played deals in the row"),
    "n": Term("deals", "played deals in the row"),
    "n_total": Term("deals fitted", "played deals in the cells the curve was fitted on"),
    "cells": Term("cells fitted", "trump lengths (or hand-point bins) the curve was fitted on"),
    "degree": Term("curve degree", "degree of the fitted polynomial (0: too few deals to fit)"),
    "fitted_from": Term("fitted from", "shortest trump length (or lowest count) in the fit"),
    "fitted_to": Term("fitted to", "longest trump length (or highest count) in the fit"),
    "note": Term("note", "what was not found, and why"),
    # thresholds
    "threshold": Term(
        "made half the time from",
        "where the fitted success rate crosses 50% going up, with its 95% interval",
    ),
    "break_even": Term(
        "pays from", "where the fitted mean taker score crosses 0 (passing), with its 95% interval"
    ),
    "positive_from": Term(
        "pays from (bins)",
        "lowest bin from which the mean taker score stays above 0, with its resampled interval",
    ),
    "best_from": Term(
        "best from (bins)",
        "lowest bin from which the contract is the best choice, with its resampled interval",
    ),
    "best_to": Term("best up to (bins)", "highest bin in which the contract is still the best choice"),
    "published_from": Term("published band", "Chavey's published count for the contract, on this count"),
    # the best contract
    "best": Term("best choice", "the choice (pass included) with the highest mean taker score"),
    "best_score": Term("its mean score", "mean taker score of the best choice (pass scores 0)"),
    "runner_up": Term("runner-up", "the second-best choice"),
    "runner_up_score": Term("runner-up's mean score", "mean taker score of the runner-up"),
    "diff": Term(
        "best − runner-up",
        "mean over the cell's deals of the best choice's score minus the runner-up's, with its 95% interval",
    ),
    "decided": Term(
        "decided",
        "the interval of best − runner-up lies above 0, the cell has enough deals, and "
        "the two are not the same play",
    ),
    "same_play": Term("same play", "the best and the runner-up are the same play at another multiplier"),
    "low_n": Term("too few deals", "the cell has fewer deals than the report's minimum"),
    # success tables
    "mean_score": Term("mean taker score", "the taker's mean score for the deal, in game points"),
    "rate": Term("success rate", "share of the deals on which the contract was made"),
    # a duel
    "role": Term("role", "taker, partner (5 players), defender, or a thrown-in deal"),
    "a_n": Term("A's plays", "plays (deal and seat) on which A held the role"),
    "b_n": Term("B's plays", "plays (deal and seat) on which a seat of B took the contract"),
    "a_rate": Term("A's share", "share of A's plays in the role, or taking the contract"),
    "b_rate": Term("B's share", "share of B's plays in the role, or taking the contract"),
    "a_mean": Term("A's mean score", "A's mean score in the role, in game points"),
    "b_mean": Term("B's mean score", "B's mean score in the same role, in game points"),
    "a_minus_b": Term("A − B", "A's mean score minus B's in the role, with its 95% interval"),
    "a_made": Term("A made", "share of A's takes of the contract that were made"),
    "b_made": Term("B made", "share of B's takes of the contract that were made"),
    "players": Term("players", "the table size"),
    "a": Term("A", "strategy A, whose edge over B the row gives"),
    "b": Term("B", "strategy B, in the seats A does not hold"),
    "edge": Term(
        "A's edge", "A's mean score per deal over the rotations, in game points, with its 95% interval"
    ),
    "verdict": Term(
        "verdict",
        "the sequential test's: A (A's edge is E1 or more), B (it is E0 or less), not decided (the cap came first)",
    ),
    "name": Term("strategy", "the strategy's name in the tournament"),
    "cost": Term(
        "cost (heuristic deals)",
        "CPU time per deal with the strategy in every seat over the heuristic's, with the 95% interval of its median",
    ),
}
"""Every column name a report shows, with the words it is shown in and its meaning."""

_SCORE_PREFIX = "score_"
_LOW, _HIGH = "_low", "_high"


def words(column: str) -> str:
    """The words a report writes for the column `column` (a contract's mean-score column included).

    Raises
    ------
    KeyError
        If `column` is not in `GLOSSARY` (nor a ``score_<contract>`` column).
    """
    if column in GLOSSARY:
        return GLOSSARY[column].words
    if column.startswith(_SCORE_PREFIX) and column[len(_SCORE_PREFIX) :] in _CONTRACT_LABELS:
        return f"mean score at {column[len(_SCORE_PREFIX) :].replace('_', ' ')}"
    raise KeyError(f"no words for the column {column!r}: add it to tarotsim.report.glossary.GLOSSARY")


def meaning(column: str) -> str:
    """One sentence on what the column `column` holds (see `words`)."""
    if column in GLOSSARY:
        return GLOSSARY[column].meaning
    words(column)  # raises for an unknown column
    return "mean taker score of the contract in the cell (pass scores 0)"


def in_words(text: str) -> str:
    """`text` with every column name of `GLOSSARY` in it replaced by its words."""
    names = sorted((c for c in GLOSSARY if "_" in c), key=len, reverse=True)
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")
    return pattern.sub(lambda m: GLOSSARY[m.group(1)].words, text)


def number(value: float, fmt: str = ".1f") -> str:
    """`value` written with `fmt`, a negative one with a real minus sign; ``""`` for NaN.

    >>> number(-0.25, ".2f"), number(3.0, "+.1f")
    ('−0.25', '+3.0')
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return format(value, fmt).replace("-", MINUS)


def interval(low: float, high: float, fmt: str = ".1f") -> str:
    """An interval in words: ``"8.3 to 8.5"``, ``"−41.6 to −40.8"``; ``""`` if a bound is missing."""
    low_text, high_text = number(low, fmt), number(high, fmt)
    if not low_text or not high_text:
        return ""
    return f"{low_text} to {high_text}"


def estimate(value: float, low: float, high: float, fmt: str = ".1f") -> str:
    """An estimate and its interval: ``"8.4 (8.3 to 8.5)"``; the estimate alone when the
    interval is missing, ``""`` when there is no estimate."""
    text = number(value, fmt)
    if not text:
        return ""
    bounds = interval(low, high, fmt)
    return f"{text} ({bounds})" if bounds else text


_NEGATIVE = re.compile(r"(?<![\w.\-])-(?=\d)")
"""A hyphen written as the sign of a number in text ("fitted -32 points")."""

_LABELLED = ("contract", "best", "runner_up", "others_bid", "role")
"""Columns holding labels (contracts, roles), written as names: an underscore as a space."""


def readable(frame: pd.DataFrame, floatfmt: str = ".3f") -> pd.DataFrame:
    """`frame` as a person reads it: headers in words, intervals in one cell, labels as names.

    A column ``x`` with ``x_low`` and ``x_high`` beside it becomes one text column,
    ``"8.27 (8.24 to 8.30)"``, written with `floatfmt`; columns of contract labels show
    contract names; yes/no columns show "yes" and "no"; text cells say column names in
    words (`in_words`) and negative numbers with a minus sign; every header is the column's words (`words`).
    Other numbers are left as numbers, for the table writer to format and align.
    """
    out = pd.DataFrame(index=frame.index)
    for column in frame.columns:
        name = str(column)
        if name.endswith((_LOW, _HIGH)) and name.rsplit("_", 1)[0] in frame.columns:
            continue
        values = frame[column]
        if f"{name}{_LOW}" in frame.columns and f"{name}{_HIGH}" in frame.columns:
            lows, highs = frame[f"{name}{_LOW}"], frame[f"{name}{_HIGH}"]
            values = pd.Series(
                [
                    estimate(_float(v), _float(lo), _float(hi), floatfmt)
                    for v, lo, hi in zip(values, lows, highs, strict=True)
                ],
                index=frame.index,
            )
        elif name in _LABELLED:
            values = values.map(_label_name)
        elif pd.api.types.is_bool_dtype(values.dtype):
            values = values.map(lambda v: "" if pd.isna(v) else "yes" if v else "no")
        elif values.dtype == object or isinstance(values.dtype, pd.StringDtype):
            values = values.map(lambda v: _NEGATIVE.sub(MINUS, in_words(v)) if isinstance(v, str) else v)
        out[words(name)] = values
    return out


def glossary_table(columns: Iterable[str]) -> pd.DataFrame:
    """The glossary entries of `columns` (each once, in order): the words, the meaning and the
    column names in the records and tables they stand for (``term``, ``meaning``, ``column``).

    >>> glossary_table(["n", "taker_bouts", "deals"]).values.tolist()[0]
    ['deals', 'played deals in the row', 'n, deals']
    """
    terms: dict[tuple[str, str], list[str]] = {}
    for column in dict.fromkeys(str(c) for c in columns if not str(c).endswith((_LOW, _HIGH))):
        terms.setdefault((words(column), meaning(column)), []).append(column)
    return pd.DataFrame(
        {
            "term": [term for term, _ in terms],
            "meaning": [text for _, text in terms],
            "column": [", ".join(names) for names in terms.values()],
        }
    )


def _float(value: object) -> float:
    return float("nan") if value is None or pd.isna(value) else float(value)  # type: ignore[arg-type]


def _label_name(value: object) -> object:
    return value.replace("_", " ") if isinstance(value, str) else value
