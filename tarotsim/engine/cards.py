"""Card ids, the text notation of docs/rules.md §1, half-point values and card-set masks.

Card ids run 0-77: the four suits spades, hearts, diamonds, clubs (14 cards each,
ranks 1 … 10, J, C, Q, K from low to high) take ids ``14 * suit + rank_index``;
trumps 1-21 take ids 56-76 (``55 + trump``); the Excuse is 77.

A card set is two ``uint64`` words: word 0 holds the 56 suit cards (bit = card id),
word 1 holds trumps 1-21 in bits 0-20 and the Excuse in bit 21 (bit = id - 56).

>>> parse_card("KS"), parse_card("10H"), parse_card("CC"), parse_card("T21"), parse_card("EX")
(13, 23, 53, 76, 77)
>>> format_card(53)
'CC'
>>> card_points(parse_card("T1")), card_points(parse_card("QD")), card_points(parse_card("7C"))
(4.5, 3.5, 0.5)
>>> format_cards(parse_cards("EX T1 KS"))
['KS', 'T1', 'EX']

A card's suit, rank and worth, for a player reading card names (or ids):

>>> suit_of("QD"), rank_of("QD"), card_points("QD"), is_trump("T5"), is_bout("EX")
('D', 13, 3.5, True, True)

French notation is read too: ranks ``R``, ``D``, ``C``, ``V`` (Roi, Dame, Cavalier, Valet)
beside ``K``, ``Q``, ``C``, ``J``; suits ``♠♥♦♣`` or ``P``, ``Co``, ``Ca``, ``T`` (Pique,
Cœur, Carreau, Trèfle) beside ``S``, ``H``, ``D``, ``C``; a trump as its number alone
(``21``, ``1``), the Excuse as ``Excuse`` or ``Exc``.

>>> parse_card("RP"), parse_card("DCo"), parse_card("VCa"), parse_card("10T"), parse_card("R♣")
(13, 26, 38, 51, 55)
>>> parse_card("21"), parse_card("1"), parse_card("Excuse")
(76, 56, 77)

Names are written in either notation (`NOTATIONS`); `notation_of` tells which one
a hand is written in:

>>> format_cards(parse_cards("RP 10Co 21 Excuse"), notation="french")
['RP', '10Co', '21', 'Excuse']
>>> notation_of("RP 10Co 21 Excuse"), notation_of("KS 10H T21 EX")
('french', 'english')
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

N_CARDS = 78
N_SUIT_CARDS = 56
N_SUITS = 4
SUIT_LEN = 14
SUIT_LETTERS = ("S", "H", "D", "C")
RANK_NAMES = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K")
JACK, KNIGHT, QUEEN, KING = 10, 11, 12, 13  # rank indices

N_TRUMPS = 21
FIRST_TRUMP = N_SUIT_CARDS  # id of trump 1, the Petit
PETIT = FIRST_TRUMP
TRUMP_21 = FIRST_TRUMP + N_TRUMPS - 1
EXCUSE = N_CARDS - 1

# Suit codes used by the kernels for "suit of a card" and "suit led": 0-3 the suits,
# 4 the trumps, 5 the Excuse (which has no suit), -1 none.
TRUMP_SUIT = 4
EXCUSE_SUIT = 5
NO_SUIT = -1

U64 = np.uint64
SUIT_MASK = U64((1 << SUIT_LEN) - 1)  # the 14 bits of one suit, shifted by 14 * suit
TRUMPS_MASK = U64((1 << N_TRUMPS) - 1)  # word 1: trumps 1-21
EXCUSE_BIT = U64(1 << N_TRUMPS)  # word 1: the Excuse
PETIT_BIT = U64(1)  # word 1: trump 1
TRUMP_21_BIT = U64(1 << (N_TRUMPS - 1))  # word 1: trump 21
BOUTS_MASK_1 = PETIT_BIT | TRUMP_21_BIT | EXCUSE_BIT  # word 1: the three bouts
MAJOR_TRUMPS_MASK = TRUMPS_MASK & ~U64((1 << 15) - 1)  # word 1: trumps 16-21


def _rank_mask(rank_index: int) -> np.uint64:
    return U64(sum(1 << (SUIT_LEN * suit + rank_index) for suit in range(N_SUITS)))


KINGS_MASK = _rank_mask(KING)  # word 0
QUEENS_MASK = _rank_mask(QUEEN)
KNIGHTS_MASK = _rank_mask(KNIGHT)
JACKS_MASK = _rank_mask(JACK)
FULL_WORD0 = U64((1 << N_SUIT_CARDS) - 1)
PIPS_MASK = FULL_WORD0 & ~(KINGS_MASK | QUEENS_MASK | KNIGHTS_MASK | JACKS_MASK)
FULL_WORD1 = TRUMPS_MASK | EXCUSE_BIT


def _half_points_table() -> np.ndarray:
    table = np.ones(N_CARDS, dtype=np.int64)
    for suit in range(N_SUITS):
        base = SUIT_LEN * suit
        table[base + KING] = 9
        table[base + QUEEN] = 7
        table[base + KNIGHT] = 5
        table[base + JACK] = 3
    table[PETIT] = table[TRUMP_21] = table[EXCUSE] = 9
    return table


HALF_POINTS = _half_points_table()
"""Card value in half points, indexed by card id; the deck sums to 182 (91 points)."""

_NAMES = tuple(
    [rank + suit for suit in SUIT_LETTERS for rank in RANK_NAMES]
    + [f"T{trump}" for trump in range(1, N_TRUMPS + 1)]
    + ["EX"]
)
_IDS = {name: card for card, name in enumerate(_NAMES)}
_FRENCH_RANKS = {"R": "K", "D": "Q", "V": "J", "K": "K", "Q": "Q", "J": "J", "C": "C"}
_FRENCH_SUITS = {"P": "S", "CO": "H", "CA": "D", "T": "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C"}
_FRENCH_SUITS |= {letter: letter for letter in SUIT_LETTERS}
_FRENCH_CARD = re.compile(r"(10|[1-9]|[RDVKQJC])(CO|CA|[SHDCPT♠♥♦♣])")
_EXCUSE_NAMES = ("EXCUSE", "EXC")
NOTATIONS = ("english", "french")
"""The notations card names are written in: ``KS 10H T21 EX`` or ``RP 10Co 21 Excuse``."""
_FRENCH_NAMES = tuple(
    [
        {"J": "V", "Q": "D", "K": "R"}.get(rank, rank) + suit
        for suit in ("P", "Co", "Ca", "T")
        for rank in RANK_NAMES
    ]
    + [str(trump) for trump in range(1, N_TRUMPS + 1)]
    + ["Excuse"]
)
_WRITTEN = {"english": _NAMES, "french": _FRENCH_NAMES}


def _french_name(name: str) -> str | None:
    """The English name of a card in French notation (or with suit symbols), None if none."""
    if name.isdigit() and 1 <= int(name) <= N_TRUMPS:
        return f"T{int(name)}"
    if name in _EXCUSE_NAMES:
        return "EX"
    match = _FRENCH_CARD.fullmatch(name.replace("\ufe0f", ""))
    if match is None:
        return None
    rank, suit = match.groups()
    return _FRENCH_RANKS.get(rank, rank) + _FRENCH_SUITS[suit]


def card_names() -> tuple[str, ...]:
    """All 78 card names in id order."""
    return _NAMES


def parse_card(name: str) -> int:
    """Card id of a card name such as ``KS``, ``10H``, ``CC``, ``T21`` or ``EX``.

    Lower case and the French notation (module docstring: ``RP``, ``DCo``, ``21``,
    ``Excuse``) are accepted. Raises ``ValueError`` naming the card when it is not a card.
    """
    if not isinstance(name, str):
        raise TypeError(f"a card name must be a string such as 'KS' or 'T21', got {name!r}")
    text = name.strip().upper()
    card = _IDS.get(text)
    if card is None:
        card = _IDS.get(_french_name(text) or "")
    if card is None:
        raise ValueError(
            f"{name!r} is not a card: use rank+suit (1-10, J, C, Q, K with S, H, D, C, e.g. 'KS', "
            "'10H', 'CC'; or R, D, C, V with P, Co, Ca, T or ♠♥♦♣), a trump T1-T21 (or 1-21), "
            "or EX (Excuse) for the Excuse"
        )
    return card


def check_notation(notation: object) -> str:
    """`notation` if it is one of `NOTATIONS`, else a ``ValueError`` naming them."""
    if notation not in NOTATIONS:
        raise ValueError(f"notation must be {' or '.join(map(repr, NOTATIONS))}, got {notation!r}")
    return str(notation)


def format_card(card: int, *, notation: str = "english") -> str:
    """Name of a card id (0-77) in `notation` (``"english"``: ``KS``, ``"french"``: ``RP``)."""
    names = _WRITTEN[check_notation(notation)]
    if not 0 <= int(card) < N_CARDS:
        raise ValueError(f"card ids run from 0 to {N_CARDS - 1}, got {card}")
    return names[int(card)]


def _card_names(cards: str | Iterable[str]) -> list[str]:
    """The names of a string of cards separated by spaces or commas, or of an iterable."""
    if isinstance(cards, str):
        return cards.replace(",", " ").split()
    return list(cards)


def notation_of(cards: str | Iterable[str]) -> str:
    """The notation most of `cards` are written in: ``"french"`` when more names are French
    (``RP``, ``DCo``, ``21``, ``Excuse``, suit symbols) than English (``KS``, ``T21``, ``EX``),
    else ``"english"``. Names that are not cards count for neither."""
    french = english = 0
    for name in _card_names(cards):
        text = name.strip().upper() if isinstance(name, str) else ""
        if text in _IDS:
            english += 1
        elif _french_name(text) in _IDS:
            french += 1
    return "french" if french > english else "english"


def parse_cards(cards: str | Iterable[str], *, what: str = "hand") -> list[int]:
    """Card ids of several card names (an iterable, or one string separated by spaces/commas).

    Raises ``ValueError`` on a bad name or naming every card that appears more than once.
    """
    ids = [parse_card(name) for name in _card_names(cards)]
    repeated = format_cards({card for card in ids if ids.count(card) > 1})
    if len(repeated) == 1:
        raise ValueError(f"card {repeated[0]} appears twice in the {what}")
    if repeated:
        raise ValueError(f"cards {', '.join(repeated)} appear more than once in the {what}")
    return ids


def format_cards(cards: Iterable[int], *, notation: str = "english") -> list[str]:
    """Card names of card ids in `notation`, sorted by id (suits S, H, D, C low to high,
    then trumps, Excuse)."""
    return [format_card(card, notation=notation) for card in sorted(int(c) for c in cards)]


def card_id(card: int | str) -> int:
    """The id of a card given by its id (0-77) or its name (as `parse_card` reads it).

    >>> card_id("KS"), card_id(13)
    (13, 13)

    Raises ``ValueError`` for an id out of range or a name that is not a card, and
    ``TypeError`` for anything else.
    """
    if isinstance(card, str):
        return parse_card(card)
    if isinstance(card, bool) or not isinstance(card, int | np.integer):
        raise TypeError(f"a card is an id 0-{N_CARDS - 1} or a name such as 'KS', got {card!r}")
    if not 0 <= card < N_CARDS:
        raise ValueError(f"card ids run from 0 to {N_CARDS - 1}, got {card}")
    return int(card)


def card_points(card: int | str) -> float:
    """Value of a card (id or name) in points (4.5, 3.5, 2.5, 1.5 or 0.5)."""
    return float(HALF_POINTS[card_id(card)]) / 2


def suit_of(card: int | str) -> str:
    """The suit of a card (id or name): ``S``, ``H``, ``D``, ``C``; ``T`` for a trump; ``EX``
    for the Excuse, which has no suit (docs/rules.md §1).

    >>> suit_of("10H"), suit_of("T21"), suit_of("EX"), suit_of(13)
    ('H', 'T', 'EX', 'S')
    """
    card = card_id(card)
    if card < N_SUIT_CARDS:
        return SUIT_LETTERS[card // SUIT_LEN]
    return "T" if card < EXCUSE else "EX"


def rank_of(card: int | str) -> int:
    """The rank of a card (id or name) within its own suit, higher beating lower: 1-10 the
    number cards, 11 the Jack, 12 the Knight, 13 the Queen, 14 the King; a trump its number,
    1-21; the Excuse 0 (it has no rank and never beats a card).

    >>> rank_of("7S"), rank_of("CC"), rank_of("KH"), rank_of("T21"), rank_of("EX")
    (7, 12, 14, 21, 0)
    """
    card = card_id(card)
    if card < N_SUIT_CARDS:
        return card % SUIT_LEN + 1
    return card - FIRST_TRUMP + 1 if card < EXCUSE else 0


def is_trump(card: int | str) -> bool:
    """True for trumps 1-21 (the Excuse is not a trump); the card is an id or a name."""
    return FIRST_TRUMP <= card_id(card) < EXCUSE


def is_bout(card: int | str) -> bool:
    """True for the Petit, trump 21 and the Excuse; the card is an id or a name."""
    return card_id(card) in (PETIT, TRUMP_21, EXCUSE)


def to_mask(cards: Iterable[int]) -> tuple[np.uint64, np.uint64]:
    """Card set (word 0, word 1) holding the given card ids."""
    word0 = word1 = 0
    for card in cards:
        card = int(card)
        if card < N_SUIT_CARDS:
            word0 |= 1 << card
        else:
            word1 |= 1 << (card - N_SUIT_CARDS)
    return U64(word0), U64(word1)


def from_mask(word0: int, word1: int) -> list[int]:
    """Card ids in a card set, in id order."""
    w0, w1 = int(word0), int(word1)
    return [c for c in range(N_SUIT_CARDS) if w0 >> c & 1] + [
        N_SUIT_CARDS + b for b in range(N_CARDS - N_SUIT_CARDS) if w1 >> b & 1
    ]
