"""Constrained dealing: deals that hold given cards and whose hands meet feature ranges.

`deal` draws deals uniformly among those that satisfy a condition:

- ``fixed``: cards given to a seat or to the chien. The other cards are dealt uniformly
  around them (the pack is shuffled, then the given cards are put in their places and the
  free cards keep their shuffled order: ``kernels.dealing.place_fixed``), which is exactly
  uniform over the deals holding them. A run whose configuration gives the same cards deals
  them the same way (``players.kernels.seats.play_deal``), so deal ``i`` here is deal ``i`` of such a run with
  the same seed.
- ``where``: inclusive ranges on features of a seat's hand as dealt (`FEATURES`).
  One seat's ranges on trumps, bouts, Kings and suit lengths are met without rejection: its
  hand is drawn from the exact law of its counts (`count_law`; the seat with the rarest
  such ranges, `drawn_law`), then the other cards are dealt uniformly around it, so a
  condition of that kind costs about what a plain deal costs however rare it is. Any other
  range (Chavey's count, or another seat's) is met by dealing again from the deal's own
  stream until it holds (rejection sampling, exact too), but only where the share of drawn
  deals that meet it is large enough: estimated first on trial deals; a condition that is
  impossible, whose ranges left to rejection hold in fewer than `MIN_PROBABILITY` of
  the drawn deals, or that would need more than `MAX_TRIALS` trial deals is refused
  with a ``ValueError`` before any long work.

The probability of the condition under uniform dealing comes with the deals
(`Probability`): exact (counted: the given cards, and the ranges of one seat on
trumps, bouts, Kings and suit lengths) or estimated from the trial deals with a 95 % Wilson
interval.

Seats are numbered 0 … players - 1; deal ``i`` is dealt by seat ``i % players`` unless
``dealer`` is given. Deals where a seat holds the Petit alone (a petit sec) are dealt like
any other: a game throws them in.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np

from tarotsim.base.seeding import SeedLike, resolve_seed, run_key
from tarotsim.engine.cards import (
    EXCUSE,
    KING,
    N_CARDS,
    N_SUITS,
    PETIT,
    SUIT_LEN,
    SUIT_LETTERS,
    TRUMP_21,
    format_cards,
    is_trump,
    parse_cards,
    to_mask,
)
from tarotsim.engine.kernels.dealing import (
    CHIEN_ROW,
    N_FIXED,
    N_WHERE,
    W_BOUTS,
    W_HAND_POINTS,
    W_HAND_POINTS_DIST,
    W_KINGS,
    W_SUIT_LENGTH,
    W_TRUMPS,
    WHERE_ASKED,
    WHERE_HIGH,
    WHERE_LOW,
    card_ids,
    deal_where,
)
from tarotsim.engine.kernels.state import (
    C_DRAW_N,
    C_DRAW_SEAT,
    C_DRAW_SUIT,
    C_DRAW_VECTORS,
    C_DRAW_WAYS,
    C_FIXED,
    C_FIXED_ON,
    C_HAND,
    C_PLAYERS,
    C_WHERE,
    C_WHERE_ON,
    DRAW_ONE,
    MAX_HAND,
    MAX_SEATS,
    MAX_VECTORS,
    N_CFG,
    N_DRAW_WAYS,
    N_SUIT_KINGS,
    N_V,
    V_CUMULATIVE,
)
from tarotsim.engine.labels import TABLE_SIZES

FEATURES: dict[str, str] = {
    "trumps": "trumps 1-21 held (the Excuse is not a trump)",
    "bouts": "bouts held: the Petit, the 21, the Excuse (0-3)",
    "kings": "Kings held (0-4)",
    "hand_points": "Chavey's count, without the distribution bonus",
    "hand_points_dist": "Chavey's count with the distribution bonus (voids 6, singletons 3)",
    "suit_length": "cards held in a suit: a mapping of suit (S, H, D, C, or P, Co, Ca, T, ♠♥♦♣) to its range",
}
"""The features ``where`` reads, named as the records' columns of the taker's hand."""

_COLUMNS = {
    "trumps": W_TRUMPS,
    "bouts": W_BOUTS,
    "kings": W_KINGS,
    "hand_points": W_HAND_POINTS,
    "hand_points_dist": W_HAND_POINTS_DIST,
}
_COUNTED = frozenset({W_TRUMPS, W_BOUTS, W_KINGS, *range(W_SUIT_LENGTH, W_SUIT_LENGTH + N_SUITS)})
"""Features whose ranges `condition_probability` counts exactly."""
_SUITS = {"S": 0, "H": 1, "D": 2, "C": 3, "P": 0, "CO": 1, "CA": 2, "T": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3}
_HAND_POINTS_MAX = 200
"""Above any hand's count: the top of a range on Chavey's count."""

MIN_PROBABILITY = 1e-6
"""Ranges left to rejection that fewer drawn deals than this meet are refused: too rare for rejection."""
MAX_TRIALS = 100_000_000
"""Most trial deals rejection may be expected to need (a few minutes of one core at most)."""
PILOT_DEALS = 1 << 17
"""Trial deals that estimate how often a condition is met when it cannot be counted."""


@dataclass(frozen=True)
class Probability:
    """The probability of a deal's condition under uniform dealing.

    Attributes
    ----------
    value : float
        The probability (exact, or the estimate).
    low, high : float
        Its 95 % interval: equal to `value` when exact; else a Wilson interval on the share
        of trial deals that met the ranges left to rejection, times the exact probability of
        the fixed cards and of the drawn seat's ranges (`drawn_law`).
    exact : bool
        Whether `value` was computed (counted) rather than estimated.
    trials : int
        Trial deals behind an estimate (0 when exact).
    """

    value: float
    low: float
    high: float
    exact: bool
    trials: int = 0

    def __str__(self) -> str:
        if self.exact:
            return f"{self.value:.6g} (exact)"
        return f"{self.value:.4g} (estimated from {self.trials:,} trial deals; 95 % {self.low:.4g}-{self.high:.4g})"


@dataclass(frozen=True)
class Deals:
    """Deals drawn by `deal`.

    Attributes
    ----------
    hands : numpy.ndarray
        int16[n, players, hand_size]: each seat's cards as dealt (card ids, sorted).
    chien : numpy.ndarray
        int16[n, chien_size]: the chien's cards (sorted).
    dealer : numpy.ndarray
        int64[n]: the dealing seat of each deal.
    probability : Probability
        The probability of the condition (fixed cards and ranges) under uniform dealing.
    seed : int
        The seed used: the same seed and condition give the same deals.
    tries : numpy.ndarray
        int64[n]: the deals made to get each one (1 when every range is met without rejection).
    """

    hands: np.ndarray
    chien: np.ndarray
    dealer: np.ndarray
    probability: Probability
    seed: int
    tries: np.ndarray

    def __len__(self) -> int:
        return len(self.hands)

    @property
    def players(self) -> int:
        """Seats at the table."""
        return int(self.hands.shape[1])


def check_players(players: int) -> tuple[int, int]:
    """(hand size, chien size) of a table of `players`; ``ValueError`` if it is not 3, 4 or 5."""
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or players not in TABLE_SIZES:
        raise ValueError(f"players must be 3, 4 or 5, got {players!r}")
    return TABLE_SIZES[int(players)]


def _seat(key: Any, players: int, what: str) -> int:
    if isinstance(key, bool) or not isinstance(key, (int, np.integer)) or not 0 <= key < players:
        raise ValueError(
            f"{what} keys are seats 0 to {players - 1}{' or chien' if what == 'fixed' else ''}, got {key!r}"
        )
    return int(key)


def fixed_words(fixed: Mapping[Any, str | Iterable[str]] | None, players: int) -> np.ndarray:
    """The given cards as the kernels read them (int64[N_FIXED]: two card words per seat row,
    then the chien's, ``kernels.dealing``).

    Raises
    ------
    ValueError
        For a key that is not a seat or ``"chien"``, a bad card, a card given twice, or
        more cards than a hand or the chien holds.
    """
    hand_size, chien_size = check_players(players)
    words = np.zeros(N_FIXED, dtype=np.int64)
    if fixed is None:
        return words
    if not isinstance(fixed, Mapping):
        raise TypeError(f"fixed must map seats (or 'chien') to cards, got {type(fixed).__name__}")
    owner: dict[int, str] = {}
    for key, cards in fixed.items():
        if isinstance(key, str) and key.strip().lower() == "chien":
            row, size, name = CHIEN_ROW, chien_size, "the chien"
        else:
            row = _seat(key, players, "fixed")
            size, name = hand_size, f"seat {row}"
        ids = parse_cards(cards, what=f"cards given to {name}")
        for card in ids:
            if card in owner:
                raise ValueError(
                    f"card {format_cards([card])[0]} is given twice (to {owner[card]} and to {name})"
                )
            owner[card] = name
        if len(ids) > size:
            raise ValueError(f"{name} holds {size} cards, but {len(ids)} are given to it")
        word0, word1 = to_mask(ids)
        words[2 * row] |= np.int64(word0)
        words[2 * row + 1] |= np.int64(word1)
    return words


def _range(value: Any, top: int, what: str) -> tuple[int, int]:
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        low = high = int(value)
    elif (
        isinstance(value, (tuple, list))
        and len(value) == 2
        and all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value)
    ):
        low, high = int(value[0]), int(value[1])
    else:
        raise ValueError(f"{what}: a range is a whole number or a pair (low, high), got {value!r}")
    if not 0 <= low <= high <= top:
        raise ValueError(f"{what}: the range must satisfy 0 <= low <= high <= {top}, got ({low}, {high})")
    return low, high


def where_ranges(
    where: Mapping[Any, Mapping[str, Any]] | None, players: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ranges as the kernels read them: (low, high, asked), int64, int64 and bool arrays
    of shape [players, N_WHERE] (columns ``kernels.dealing.W_*``).

    Raises
    ------
    ValueError
        For a key that is not a seat, an unknown feature or suit, or a range that is not
        ``0 <= low <= high <= most`` (most: what a hand of this table can hold).
    """
    hand_size, _ = check_players(players)
    low = np.zeros((players, N_WHERE), dtype=np.int64)
    high = np.zeros((players, N_WHERE), dtype=np.int64)
    asked = np.zeros((players, N_WHERE), dtype=np.bool_)
    if where is None:
        return low, high, asked
    if not isinstance(where, Mapping):
        raise TypeError(f"where must map seats to their feature ranges, got {type(where).__name__}")
    tops = {W_TRUMPS: min(21, hand_size), W_BOUTS: 3, W_KINGS: 4}
    for key, ranges in where.items():
        seat = _seat(key, players, "where")
        if not isinstance(ranges, Mapping):
            raise TypeError(f"where[{seat}] must map features to ranges, got {type(ranges).__name__}")
        for feature, value in ranges.items():
            if feature == "suit_length":
                if not isinstance(value, Mapping):
                    raise ValueError(
                        f"where[{seat}]['suit_length'] maps suits (S, H, D, C) to ranges, got {value!r}"
                    )
                for suit, bounds in value.items():
                    code = _SUITS.get(str(suit).strip().upper())
                    if code is None:
                        raise ValueError(
                            f"unknown suit {suit!r} in where[{seat}]: use S, H, D, C (or P, Co, Ca, T)"
                        )
                    column = W_SUIT_LENGTH + code
                    low[seat, column], high[seat, column] = _range(
                        bounds, min(SUIT_LEN, hand_size), f"seat {seat} suit_length {SUIT_LETTERS[code]}"
                    )
                    asked[seat, column] = True
                continue
            column = _COLUMNS.get(feature, -1)
            if column < 0:
                raise ValueError(f"unknown feature {feature!r} in where[{seat}]: use {', '.join(FEATURES)}")
            low[seat, column], high[seat, column] = _range(
                value, tops.get(column, _HAND_POINTS_MAX), f"seat {seat} {feature}"
            )
            asked[seat, column] = True
    return low, high, asked


def put_where(cfg: np.ndarray, ranges: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
    """Write the ranges of `where_ranges` into a run configuration ``cfg`` (int64[N_CFG],
    its table and given cards set), in place: its deals then meet them (``C_WHERE_ON``), one
    seat's hand drawn from the law of its counts (`drawn_law`, ``C_DRAW_*``), the other
    ranges by dealing again.

    Raises
    ------
    ValueError
        When no hand of the drawn seat meets its ranges.
    """
    low, high, asked = ranges
    cfg[C_WHERE_ON] = int(asked.any())
    for seat in range(asked.shape[0]):
        for part, values in ((WHERE_LOW, low), (WHERE_HIGH, high), (WHERE_ASKED, asked)):
            start = C_WHERE + (3 * seat + part) * N_WHERE
            cfg[start : start + N_WHERE] = values[seat]
    law = drawn_law(cfg[C_FIXED : C_FIXED + N_FIXED], int(cfg[C_PLAYERS]), low, high, asked)
    cfg[C_DRAW_SEAT : C_DRAW_VECTORS + N_V * MAX_VECTORS] = 0
    if law is None:
        return
    total = sum(law.hands)
    if not total:
        raise ValueError("no deal meets this condition: check the ranges against the fixed cards")
    cfg[C_DRAW_SEAT] = law.seat + 1
    cfg[C_DRAW_N] = len(law.vectors)
    cfg[C_DRAW_SUIT : C_DRAW_SUIT + 2 * N_SUITS] = np.ravel(law.suit_cards)
    cfg[C_DRAW_WAYS : C_DRAW_WAYS + N_DRAW_WAYS] = law.ways.ravel()
    below = 0
    for i, (vector, hands) in enumerate(zip(law.vectors, law.hands, strict=True)):
        below += hands
        row = C_DRAW_VECTORS + i * N_V
        cfg[row : row + V_CUMULATIVE] = vector
        cfg[row + V_CUMULATIVE] = below * DRAW_ONE // total


def condition_cfg(
    words: np.ndarray, players: int, ranges: tuple[np.ndarray, np.ndarray, np.ndarray]
) -> np.ndarray:
    """The run configuration (int64[N_CFG]) whose deals hold the cards of `words` and meet `ranges`,
    as ``kernels.dealing.deal_where`` reads it (its table, given cards and ranges; no policy)."""
    hand_size, _ = check_players(players)
    cfg = np.zeros(N_CFG, dtype=np.int64)
    cfg[C_PLAYERS] = players
    cfg[C_HAND] = hand_size
    cfg[C_FIXED_ON] = int(words.any())
    cfg[C_FIXED : C_FIXED + N_FIXED] = words
    put_where(cfg, ranges)
    return cfg


def _rows(words: np.ndarray, players: int) -> list[list[int]]:
    """The given cards of each seat, then of the chien."""
    out = []
    for row in [*range(players), CHIEN_ROW]:
        w0, w1 = int(words[2 * row]), int(words[2 * row + 1])
        out.append([c for c in range(N_CARDS) if (w0 >> c & 1 if c < 56 else w1 >> (c - 56) & 1)])
    return out


def fixed_probability(words: np.ndarray, players: int) -> Fraction:
    """Exact probability that a uniform deal gives every seat and the chien its given cards."""
    hand_size, chien_size = check_players(players)
    given = _rows(words, players)
    sizes = [hand_size] * players + [chien_size]
    free = N_CARDS - sum(len(g) for g in given)
    ways = math.factorial(free)
    total = math.factorial(N_CARDS)
    for size, cards in zip(sizes, given, strict=True):
        ways //= math.factorial(size - len(cards))
        total //= math.factorial(size)
    return Fraction(ways, total)


@dataclass(frozen=True)
class CountLaw:
    """The law of one seat's counts when its hand is dealt uniformly among those that meet its
    ranges on trumps, bouts, Kings and suit lengths (`count_law`), as the kernels draw it
    (``kernels.dealing.draw_counted``).

    The seat's free cards (given to nobody) fall in categories: the Petit and the 21, the
    other trumps, the Excuse, and each suit's King and other cards. The ranges bound sums of
    the counts drawn from them, so the law of the counts is the multivariate hypergeometric
    law cut to the vectors they allow, each weighted by its number of hands (a product of
    binomial coefficients).

    Attributes
    ----------
    seat : int
        The seat.
    vectors : tuple of tuple of int
        Each allowed vector of counts as (Petit and 21 drawn, other trumps, Excuse, Kings,
        suit cards), Kings among the suit cards; the seat's given cards are not counted.
    hands : tuple of int
        The hands of each vector (exact), in the order of `vectors`.
    ways : numpy.ndarray
        int64[N_SUITS + 1, MAX_HAND + 1, N_SUITS + 1]: ``ways[s, m, k]``, the ways to draw
        ``m`` free suit cards, ``k`` of them Kings, from suits ``s`` … 3 within their ranges.
    suit_cards : tuple of (int, int)
        Per suit, the fewest and the most free cards of it the ranges allow.
    subsets : int
        The hands of the seat's free cards, met or not.
    """

    seat: int
    vectors: tuple[tuple[int, int, int, int, int], ...]
    hands: tuple[int, ...]
    ways: np.ndarray
    suit_cards: tuple[tuple[int, int], ...]
    subsets: int

    @property
    def probability(self) -> Fraction:
        """The probability of the ranges given the fixed cards (exact)."""
        return Fraction(sum(self.hands), self.subsets)


def count_law(
    words: np.ndarray, players: int, seat: int, low: np.ndarray, high: np.ndarray, asked: np.ndarray
) -> CountLaw:
    """The law of `seat`'s counts under its ranges of `low`, `high`, `asked` on trumps, bouts,
    Kings and suit lengths (its other ranges, and other seats', are not read), given the cards
    of `words` (`fixed_words`)."""
    hand_size, _ = check_players(players)
    given = _rows(words, players)
    taken = {c for cards in given for c in cards}
    free = [c for c in range(N_CARDS) if c not in taken]
    own = given[seat]
    need = hand_size - len(own)
    bout_free = sum(1 for c in free if c in (PETIT, TRUMP_21))
    trump_free = sum(1 for c in free if is_trump(c)) - bout_free
    excuse_free = int(EXCUSE in free)
    kings_free = [int(s * SUIT_LEN + KING in free) for s in range(N_SUITS)]
    others_free = [
        sum(1 for c in free if c < 56 and c // SUIT_LEN == s) - kings_free[s] for s in range(N_SUITS)
    ]

    def ok(column: int, value: int) -> bool:
        return not asked[seat, column] or low[seat, column] <= value <= high[seat, column]

    suit_cards = []
    for suit in range(N_SUITS):
        base = sum(1 for c in own if c < 56 and c // SUIT_LEN == suit)
        column = W_SUIT_LENGTH + suit
        if asked[seat, column]:
            suit_cards.append((max(0, int(low[seat, column]) - base), int(high[seat, column]) - base))
        else:
            suit_cards.append((0, SUIT_LEN))
    ways = np.zeros((N_SUITS + 1, MAX_HAND + 1, N_SUIT_KINGS), dtype=np.int64)
    ways[N_SUITS, 0, 0] = 1
    for suit in range(N_SUITS - 1, -1, -1):
        fewest, most = suit_cards[suit]
        for m in range(MAX_HAND + 1):
            for k in range(N_SUIT_KINGS):
                total = 0
                for kg in range(min(kings_free[suit], k) + 1):
                    for ot in range(others_free[suit] + 1):
                        if fewest <= kg + ot <= most and kg + ot <= m:
                            total += math.comb(others_free[suit], ot) * int(
                                ways[suit + 1, m - kg - ot, k - kg]
                            )
                ways[suit, m, k] = total
    base_trumps = sum(1 for c in own if is_trump(c))
    base_bouts = sum(1 for c in own if c in (PETIT, TRUMP_21, EXCUSE))
    base_kings = sum(1 for c in own if c < 56 and c % SUIT_LEN == KING)
    vectors, hands = [], []
    for bt, tr, ex, k in itertools.product(
        range(bout_free + 1), range(trump_free + 1), range(excuse_free + 1), range(N_SUIT_KINGS)
    ):
        m = need - bt - tr - ex
        if m < 0 or not (
            ok(W_TRUMPS, base_trumps + bt + tr)
            and ok(W_BOUTS, base_bouts + bt + ex)
            and ok(W_KINGS, base_kings + k)
        ):
            continue
        count = math.comb(bout_free, bt) * math.comb(trump_free, tr) * int(ways[0, m, k])
        if count:
            vectors.append((bt, tr, ex, k, m))
            hands.append(count)
    return CountLaw(seat, tuple(vectors), tuple(hands), ways, tuple(suit_cards), math.comb(len(free), need))


def drawn_law(
    words: np.ndarray, players: int, low: np.ndarray, high: np.ndarray, asked: np.ndarray
) -> CountLaw | None:
    """The seat whose hand the kernels draw from the law of its counts, and that law: of the seats
    with ranges on trumps, bouts, Kings or suit lengths, the one whose ranges are the rarest (the
    first such seat on a tie); None when no seat has such ranges. Its other ranges, and the other
    seats', are met by rejection."""
    laws = [
        count_law(words, players, seat, low, high, asked)
        for seat in range(players)
        if any(asked[seat, column] for column in _COUNTED)
    ]
    return min(laws, key=lambda law: law.probability, default=None)


def condition_probability(
    words: np.ndarray, players: int, low: np.ndarray, high: np.ndarray, asked: np.ndarray
) -> Fraction | None:
    """Exact probability of the ranges given the fixed cards, or None when they cannot be counted.

    Counted: ranges on one seat only, on trumps, bouts, Kings and suit lengths: the number of
    the seat's hands that meet them over the number of its hands (`count_law`).
    """
    seats = [s for s in range(players) if asked[s].any()]
    if not seats:
        return Fraction(1)
    if len(seats) > 1 or not set(np.flatnonzero(asked[seats[0]]).tolist()) <= _COUNTED:
        return None
    return count_law(words, players, seats[0], low, high, asked).probability


def _draw(
    n: int,
    seed: int,
    words: np.ndarray,
    players: int,
    ranges: tuple[np.ndarray, np.ndarray, np.ndarray],
    max_tries: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    hands = np.zeros((n, MAX_SEATS, 2), dtype=np.uint64)
    chien = np.zeros((n, 2), dtype=np.uint64)
    tries = np.zeros(n, dtype=np.int64)
    deal_where(n, run_key(seed), condition_cfg(words, players, ranges), max_tries, hands, chien, tries)
    return hands, chien, tries


def wilson_interval(made: int, n: int) -> tuple[float, float]:
    """95 % Wilson interval of ``made / n`` ([`tarotsim.analysis.wilson_interval`][tarotsim.analysis.wilson_interval], imported
    here on use: the analysis package reads runs, whose sweeps deal through this module)."""
    from tarotsim.base.intervals import wilson_interval as wilson

    low, high = wilson(made, n)
    return float(low), float(high)


def _ids(words: np.ndarray, size: int) -> np.ndarray:
    """Card ids (int16[..., size], sorted) of card words (uint64[..., 2])."""
    flat = np.ascontiguousarray(words).reshape(-1, 2)
    out = np.zeros((len(flat), size), dtype=np.int16)
    card_ids(flat, out)
    return out.reshape(*words.shape[:-1], size)


def deal(
    n: int,
    *,
    players: int = 4,
    seed: SeedLike = 0,
    fixed: Mapping[Any, str | Iterable[str]] | None = None,
    where: Mapping[Any, Mapping[str, Any]] | None = None,
    dealer: int | None = None,
) -> Deals:
    """Deal `n` deals uniformly among those that hold the `fixed` cards and meet `where`.

    Parameters
    ----------
    n : int
        Number of deals (>= 0).
    players : int, optional
        3, 4 or 5 (default 4).
    seed : int, numpy.random.Generator or None, optional
        The same seed and condition give the same deals (default 0).
    fixed : mapping, optional
        Cards given to seats or the chien: ``{0: "T21 T1 EX KS", "chien": "KH"}`` (card
        names as [`tarotsim.engine.cards.parse_cards`][tarotsim.engine.cards.parse_cards] reads them, English or French).
    where : mapping, optional
        Inclusive ranges on a seat's hand as dealt: ``{0: {"bouts": 2, "trumps": (8, 10),
        "suit_length": {"S": (0, 1)}}}``; a whole number is a range of one value. The
        features are those of `FEATURES`: ``trumps``, ``bouts``, ``kings``,
        ``hand_points``, ``hand_points_dist``, ``suit_length`` (per suit).
    dealer : int, optional
        The dealing seat of every deal; default: deal ``i`` is dealt by ``i % players``
        as in a run. It does not change the cards.

    Returns
    -------
    Deals
        ``hands`` int16[n, players, hand_size], ``chien``, ``dealer``, ``probability``
        (exact, or estimated with its interval: see `Probability`), ``seed``,
        ``tries``.

    Raises
    ------
    ValueError
        For a bad card, a card given twice, too many cards for a seat, an unknown feature,
        a range outside what a hand can hold; and for a condition that no deal meets, whose
        ranges left to rejection hold in fewer than `MIN_PROBABILITY` of the drawn
        deals, or that would need more than `MAX_TRIALS` trial deals.

    Examples
    --------
    >>> deals = deal(1000, fixed={0: "T21 T1 EX"}, where={0: {"trumps": (8, 10)}}, seed=1)
    >>> deals.hands.shape, str(deals.probability)
    ((1000, 4, 18), '0.00138618 (exact)')
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"n must be a whole number of deals, 0 or more, got {n!r}")
    hand_size, chien_size = check_players(players)
    if dealer is not None:
        _seat(dealer, players, "dealer")
    used_seed = resolve_seed(seed)
    words = fixed_words(fixed, players)
    ranges = where_ranges(where, players)
    p_fixed = fixed_probability(words, players)
    exact, drawn, met, trials, rate = condition_rate(used_seed, words, players, ranges, n)
    max_tries = int(min(MAX_TRIALS, max(1000.0, 50.0 / rate)))
    hands, chien, tries = _draw(int(n), used_seed, words, players, ranges, max_tries)
    if (tries < 0).any():
        raise ValueError(
            f"a deal met the condition in none of {max_tries:,} trial deals: it is too rare for rejection sampling; "
            "loosen it"
        )
    if exact is not None:
        value = float(p_fixed * exact)
        probability = Probability(value, value, value, exact=True)
    else:
        met += int(n)
        trials += int(tries.sum())
        low, high = wilson_interval(met, trials)
        scale = float(p_fixed * drawn)
        probability = Probability(
            scale * met / trials, scale * float(low), scale * float(high), exact=False, trials=trials
        )
    dealers = (
        np.full(n, dealer, dtype=np.int64) if dealer is not None else np.arange(n, dtype=np.int64) % players
    )
    return Deals(
        hands=_ids(hands[:, :players], hand_size),
        chien=_ids(chien, chien_size),
        dealer=dealers,
        probability=probability,
        seed=used_seed,
        tries=tries,
    )


class Rate(NamedTuple):
    """How often the ranges that rejection meets hold, given the fixed cards (`condition_rate`)."""

    exact: Fraction | None
    """The probability of the whole condition when it is counted, else None."""
    drawn: Fraction
    """The probability of the drawn seat's ranges (`drawn_law`; 1 without one)."""
    met: int
    """Trial deals (drawn as the run draws them) that met the other ranges."""
    trials: int
    """Trial deals (0 when nothing is left to rejection)."""
    rate: float
    """The share of drawn deals that meet every range: 1 when nothing is left to rejection,
    else met / trials."""


def condition_rate(
    seed: int, words: np.ndarray, players: int, ranges: tuple[np.ndarray, np.ndarray, np.ndarray], n: int
) -> Rate:
    """How often deals drawn under the ranges (the drawn seat's from its counts) meet them all,
    checked for drawing `n` deals.

    When the condition is one seat's ranges on trumps, bouts, Kings and suit lengths, every
    drawn deal meets it (rate 1). Else ``PILOT_DEALS`` trial deals of a stream apart estimate
    the share that meets the ranges left to rejection.

    Raises
    ------
    ValueError
        When no deal meets them, when the ranges left to rejection hold in fewer than
        `MIN_PROBABILITY` of the drawn deals, or when `n` deals would need more than
        `MAX_TRIALS` trial deals.
    """
    low, high, asked = ranges
    exact = condition_probability(words, players, low, high, asked)
    law = drawn_law(words, players, low, high, asked)
    drawn = Fraction(1) if law is None else law.probability
    if exact == 0 or drawn == 0:
        raise ValueError("no deal meets this condition: check the ranges against the fixed cards")
    if exact is not None:
        return Rate(exact, drawn, 0, 0, 1.0)
    met, trials = _pilot(seed, words, players, ranges)
    rate = met / trials
    parts = ["hold the fixed cards"] if words.any() else []
    parts += (
        [] if law is None else [f"meet seat {law.seat}'s ranges on trumps, bouts, Kings and suit lengths"]
    )
    _check_rate(rate, n, trials, "the deals" + (" that " + " and ".join(parts) if parts else ""))
    return Rate(exact, drawn, met, trials, rate)


def _pilot(
    seed: int, words: np.ndarray, players: int, ranges: tuple[np.ndarray, np.ndarray, np.ndarray]
) -> tuple[int, int]:
    """(deals meeting the ranges, trial deals) among ``PILOT_DEALS`` deals of a stream apart from the deals'."""
    _, _, tries = _draw(PILOT_DEALS, seed ^ 0x5EED_D1A1, words, players, ranges, 1)
    return int((tries > 0).sum()), PILOT_DEALS


def _check_rate(rate: float, n: int, trials: int, among: str) -> None:
    """Refuse ranges left to rejection that `rate` of `among` (the deals drawn) meet, when too rare."""
    if rate <= 0:
        upper = wilson_interval(0, trials)[1]
        raise ValueError(
            f"none of {trials:,} trial deals met the condition (a share below {upper:.1g} of {among}): too rare "
            "for rejection sampling; loosen it"
        )
    if rate < MIN_PROBABILITY:
        raise ValueError(
            f"the condition holds in {rate:.2g} of {among}, below {MIN_PROBABILITY:g}: too rare for rejection "
            "sampling; loosen it or give cards instead"
        )
    if n / rate > MAX_TRIALS:
        raise ValueError(
            f"the condition holds in {rate:.2g} of {among}: {n:,} deals would need about {n / rate:,.0f} trial "
            f"deals, more than {MAX_TRIALS:,}; ask for fewer deals or loosen it"
        )


def parse_fixed_option(texts: Iterable[str]) -> dict[Any, str]:
    """The ``fixed`` of `deal` from command-line words such as ``"0=T21 T1 EX"`` or
    ``"chien=KS"`` (one per seat).

    Raises
    ------
    ValueError
        For a word without ``=`` or without cards, or a seat that is not a number or ``chien``.
    """
    fixed: dict[Any, str] = {}
    for text in texts:
        seat, sep, cards = text.partition("=")
        seat = seat.strip().lower()
        if not sep or not (seat.isdigit() or seat == "chien"):
            raise ValueError(f"--fixed takes SEAT=CARDS, such as '0=T21 T1 EX' or 'chien=KS', got {text!r}")
        key: Any = "chien" if seat == "chien" else int(seat)
        if not cards.strip():
            raise ValueError(f"--fixed {text!r} gives no card: write SEAT=CARDS, such as '0=T21 T1 EX'")
        if key in fixed:
            raise ValueError(f"--fixed gives seat {seat} twice: put its cards in one --fixed")
        fixed[key] = cards
    return fixed


def parse_where_option(texts: Iterable[str]) -> dict[int, dict[str, Any]]:
    """The ``where`` of `deal` from command-line words such as ``"0:bouts=2,trumps=8-10"``:
    a seat, then comma-separated ``feature=value`` or ``feature=low-high``; a suit letter
    (``S``, ``H``, ``D``, ``C``, or ``P``, ``Co``, ``Ca``, ``T``) as the feature is its length.

    Raises
    ------
    ValueError
        For a word that does not read so (a seat without a range included), or a feature
        given twice for a seat.
    """
    where: dict[int, dict[str, Any]] = {}
    for text in texts:
        seat_text, sep, ranges = text.partition(":")
        if not sep or not seat_text.strip().isdigit():
            raise ValueError(
                f"--where takes SEAT:FEATURE=RANGE,…, such as '0:bouts=2,trumps=8-10', got {text!r}"
            )
        parts = [p.strip() for p in ranges.split(",") if p.strip()]
        if not parts:
            raise ValueError(
                f"--where {text!r} gives no range: write SEAT:FEATURE=RANGE, such as '0:bouts=2'"
            )
        seat = where.setdefault(int(seat_text), {})
        for part in parts:
            name, eq, value = (s.strip() for s in part.partition("="))
            low, dash, high = value.partition("-")
            if not eq or not low.isdigit() or (dash and not high.isdigit()):
                raise ValueError(
                    f"--where ranges read FEATURE=N or FEATURE=LOW-HIGH, got {part!r} in {text!r}"
                )
            bounds = (int(low), int(high)) if dash else int(low)
            suit = name.upper()
            target = seat.setdefault("suit_length", {}) if suit in _SUITS else seat
            key = suit if suit in _SUITS else name
            if key in target:
                raise ValueError(f"--where gives {name} twice for seat {seat_text}")
            target[key] = bounds
    return where
