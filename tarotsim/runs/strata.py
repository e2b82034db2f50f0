"""A sweep's condition on its hands: the ranges its deals meet, and the cells it is stratified into.

A conditioned sweep plays only deals whose hands meet ranges (``where``, as
`tarotsim.deal` reads them: seats are the table's seats, so seat ``K`` is the taking seat
when the sweep's ``seat`` is ``K``; seat 0 by default). A stratified sweep
(``stratify``: columns of the taking seat's hand, `STRATA`) splits those deals into
cells, one per combination of values of its columns, and plays ``per_cell`` deals in each
cell that some deal falls in, however rare.

Each cell (one cell, the whole condition, when not stratified) is dealt from its own key:
deal ``j`` of cell ``c`` is deal ``j`` of ``tarotsim.deal(where=cell.where, seed=cell.seed)``,
dealt by seat ``j % players``, the taking seat's hand drawn from the exact law of its counts
in the cell (`tarotsim.engine.dealing.count_law`), the other cards dealt uniformly around it:
exactly uniform among the deals of the cell, without rejection. The run's deals take the
cells in turn: deal ``d`` is deal ``d // cells`` of cell ``d % cells``, so any first part of
a run holds every cell about equally.

A record's ``weight`` is its cell's probability divided by the cell's deals in the run: the
weights of a cell's deals add up to its probability, those of the run to the probability
of the condition. A weighted mean over the records estimates the
mean over uniformly dealt hands that meet the condition.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tarotsim.base.seeding import run_key
from tarotsim.engine.dealing import (
    Probability,
    check_players,
    condition_probability,
    condition_rate,
    fixed_words,
    where_ranges,
    wilson_interval,
)

STRATA: dict[str, str] = {"taker_bouts": "bouts", "taker_trumps": "trumps", "taker_kings": "kings"}
"""Columns a sweep may be stratified on (the taking seat's hand), and the feature of
`tarotsim.deal` each one is: their cells' probabilities are counted exactly."""

Where = tuple[tuple[int, str, int, int], ...]
"""A condition in canonical form: sorted (seat, feature, low, high); a suit's length is the
feature ``suit_length:S`` (``H``, ``D``, ``C``)."""


def canonical_where(where: Mapping[Any, Mapping[str, Any]] | Where | None, players: int) -> Where:
    """The ranges of `where` (a mapping as `tarotsim.deal` reads it, or a canonical
    tuple) in canonical form, checked.

    Raises
    ------
    ValueError, TypeError
        As `tarotsim.engine.dealing.where_ranges` does.
    """
    if where is None:
        return ()
    mapping = where_mapping(where) if isinstance(where, (tuple, list)) else where
    low, high, asked = where_ranges(mapping, players)
    names = {v: k for k, v in _feature_columns().items()}
    return tuple(
        (seat, names[column], int(low[seat, column]), int(high[seat, column]))
        for seat in range(players)
        for column in range(asked.shape[1])
        if asked[seat, column]
    )


def _feature_columns() -> dict[str, int]:
    from tarotsim.engine.dealing import _COLUMNS
    from tarotsim.engine.kernels.dealing import W_SUIT_LENGTH

    return {**_COLUMNS, **{f"suit_length:{s}": W_SUIT_LENGTH + i for i, s in enumerate("SHDC")}}


def where_mapping(where: Where | Sequence[Sequence[Any]]) -> dict[int, dict[str, Any]]:
    """The mapping `tarotsim.deal` reads from a canonical condition (or its JSON list of lists)."""
    out: dict[int, dict[str, Any]] = {}
    for item in where:
        if not isinstance(item, (tuple, list)) or len(item) != 4:
            raise ValueError(f"a condition's item is (seat, feature, low, high), got {item!r}")
        seat, feature, low, high = item
        ranges = out.setdefault(int(seat), {})
        if str(feature).startswith("suit_length:"):
            ranges.setdefault("suit_length", {})[str(feature).split(":", 1)[1]] = (int(low), int(high))
        else:
            ranges[str(feature)] = (int(low), int(high))
    return out


def where_text(where: Where) -> str:
    """The condition as ``--where`` options read it: ``0:bouts=2,trumps=8-10``, one word per seat."""
    words: dict[int, list[str]] = {}
    for seat, feature, low, high in where:
        name = feature.split(":", 1)[1] if feature.startswith("suit_length:") else feature
        words.setdefault(seat, []).append(f"{name}={low}" if low == high else f"{name}={low}-{high}")
    return " ".join(f"{seat}:{','.join(parts)}" for seat, parts in words.items())


def check_stratify(stratify: Sequence[str]) -> tuple[str, ...]:
    """`stratify` as a tuple of `STRATA` columns, each once.

    Raises
    ------
    ValueError
        For an unknown column, or one given twice.
    """
    if isinstance(stratify, str):
        stratify = [s.strip() for s in stratify.split(",") if s.strip()]
    columns = tuple(stratify)
    for column in columns:
        if column not in STRATA:
            raise ValueError(f"cannot stratify on {column!r}: use {', '.join(STRATA)}")
    if len(set(columns)) != len(columns):
        raise ValueError(f"a column appears twice in stratify {list(columns)}")
    return columns


def cell_seed(seed: int, index: int) -> int:
    """The seed of cell `index` of a stratified run of seed `seed` (``tarotsim.deal(seed=…)``)."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1, np.uint64)[0] >> np.uint64(1))


@dataclass(frozen=True)
class Cell:
    """One cell of a conditioned sweep.

    Attributes
    ----------
    values : tuple of int
        The values of the stratify columns in the cell (empty when not stratified).
    where : tuple
        The cell's whole condition, canonical (`Where`).
    probability : Probability
        Its probability under uniform dealing (exact, or estimated: only an unstratified
        condition on features that cannot be counted).
    seed : int
        The seed its deals are dealt from (``tarotsim.deal(seed=seed)`` deals them).
    """

    values: tuple[int, ...]
    where: Where
    probability: Probability
    seed: int

    @property
    def key(self) -> np.ndarray:
        """The kernels' key of the cell's deals (uint64[4])."""
        return run_key(self.seed)

    def ranges(self, players: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The cell's ranges as the kernels read them (`tarotsim.engine.dealing.where_ranges`)."""
        return where_ranges(where_mapping(self.where), players)


@dataclass(frozen=True)
class Strata:
    """The cells of a conditioned sweep (`strata`).

    Attributes
    ----------
    cells : tuple of Cell
        The cells played, in the order the run's deals take them.
    skipped : int
        Cells left out: no deal meets them.
    """

    cells: tuple[Cell, ...]
    skipped: int

    def deals_of(self, cell: int, deals: int) -> int:
        """Deals of cell `cell` in a run of `deals` deals (deal ``d`` is in cell ``d % len(cells)``)."""
        return len(range(cell, deals, len(self.cells)))

    def weights(self, deals: int) -> np.ndarray:
        """float64[len(cells)]: each cell's weight per deal in a run of `deals` deals."""
        return np.array(
            [c.probability.value / max(self.deals_of(i, deals), 1) for i, c in enumerate(self.cells)]
        )


def strata(
    *, seed: int, players: int, seat: int, where: Where, stratify: Sequence[str], deals: int
) -> Strata:
    """The cells of a sweep (`_strata`, remembered: a run's spec is made again for each of its chunks)."""
    return _strata(seed, players, seat, tuple(where), tuple(stratify), deals)


@functools.lru_cache(maxsize=64)
def _strata(
    seed: int, players: int, seat: int, where: Where, stratify: tuple[str, ...], deals: int
) -> Strata:
    """The cells of a sweep of `deals` deals taken by `seat`, whose hands meet `where`,
    stratified on the columns `stratify` (none: one cell, the condition).

    Raises
    ------
    ValueError
        When no deal meets the condition; when a stratified condition bounds what cannot be
        counted exactly (a feature besides trumps, bouts, Kings and suit lengths, or a seat
        besides the taking seat); or when an unstratified condition's ranges left to
        rejection are too rare (`tarotsim.engine.dealing.condition_rate`).
    """
    check_players(players)
    mapping = where_mapping(where)
    words = fixed_words(None, players)
    if not stratify:
        ranges = where_ranges(mapping, players)
        rate = condition_rate(seed, words, players, ranges, deals)
        if rate.exact is not None:
            probability = Probability(float(rate.exact), float(rate.exact), float(rate.exact), exact=True)
        else:
            low, high = wilson_interval(rate.met, rate.trials)
            scale = float(rate.drawn)
            probability = Probability(
                scale * rate.rate, scale * float(low), scale * float(high), exact=False, trials=rate.trials
            )
        return Strata((Cell((), where, probability, seed),), 0)
    others = {s for s, *_ in where if s != seat}
    if others:
        raise ValueError(
            f"a stratified sweep's cells need exact probabilities: its --where may bound the taking seat "
            f"({seat}) only, not seat {min(others)}"
        )
    hand_size, _ = check_players(players)
    tops = {"bouts": 3, "trumps": min(21, hand_size), "kings": 4}
    bounds = {f: (lo, hi) for s, f, lo, hi in where}
    features = [STRATA[c] for c in stratify]
    values = [range(bounds.get(f, (0, tops[f]))[0], bounds.get(f, (0, tops[f]))[1] + 1) for f in features]
    cells: list[Cell] = []
    skipped = 0
    for combination in itertools.product(*values):
        cell_where = dict(bounds)
        cell_where.update({f: (v, v) for f, v in zip(features, combination, strict=True)})
        canon = canonical_where({seat: cell_where}, players)
        exact = condition_probability(words, players, *where_ranges(where_mapping(canon), players))
        if exact is None:
            raise ValueError(
                "a stratified sweep's cells need exact probabilities: its --where may bound trumps, bouts, "
                "kings and suit lengths only"
            )
        if exact == 0:
            skipped += 1
            continue
        p = float(exact)
        cells.append(Cell(combination, canon, Probability(p, p, p, exact=True), cell_seed(seed, len(cells))))
    if not cells:
        raise ValueError("no deal meets any cell of this stratified sweep: loosen --where")
    return Strata(tuple(cells), skipped)
