"""The rules of play in card notation, over the same compiled functions the simulator runs.

>>> sorted(legal_cards(["KS", "3S", "T5", "EX"], ["7S"]))
['3S', 'EX', 'KS']
>>> sorted(legal_cards(["KH", "T5", "T12", "EX"], ["7S", "T8"]))
['EX', 'T12']
>>> sorted(legal_cards(["KS", "3S", "2H"], [], called_card="KS", first_lead=True))
['2H', 'KS']
>>> trick_winner(["EX", "7S", "KS", "T2"])
3
>>> beats_trick("KS", ["7S", "QS"]), beats_trick("KH", ["7S", "QS"]), beats_trick("T1", ["7S", "T2"])
(True, False, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from tarotsim.engine.cards import (
    EXCUSE,
    JACK,
    N_SUIT_CARDS,
    SUIT_LEN,
    format_cards,
    from_mask,
    parse_card,
    parse_cards,
    to_mask,
)
from tarotsim.engine.kernels import rules as K

MAX_TRICK_BEFORE = 4
"""Cards that can precede a player's card in a trick (5 players)."""


def _parse_position(hand: Iterable[str], trick: Sequence[str]) -> tuple[list[int], list[int]]:
    hand_ids = parse_cards(hand, what="hand")
    trick_ids = parse_cards(trick, what="trick")
    both = set(hand_ids) & set(trick_ids)
    if both:
        raise ValueError(f"card {format_cards(both)[0]} is both in the hand and in the trick")
    if len(trick_ids) > MAX_TRICK_BEFORE:
        raise ValueError(f"a trick holds at most 5 cards, so at most 4 before yours; got {len(trick_ids)}")
    return hand_ids, trick_ids


def trick_state(trick_ids: Sequence[int]) -> tuple[int, int]:
    """(suit led, highest trump rank) of a trick given as card ids; see ``kernels.rules.trick_after``."""
    led, hi = -1, 0
    for card in trick_ids:
        led, hi = K.trick_after(led, hi, card)
    return int(led), int(hi)


def _parse_called(called_card: str) -> int:
    card = parse_card(called_card)
    if card >= N_SUIT_CARDS or card % SUIT_LEN < JACK:
        raise ValueError(f"the called card is a King, Queen, Knight or Jack of a suit, not {called_card!r}")
    return card


def legal_cards(
    hand: Iterable[str], trick: Sequence[str], *, called_card: str | None = None, first_lead: bool = False
) -> set[str]:
    """The cards of ``hand`` that may be played to ``trick`` (the cards already played, in order).

    With five players the taker calls a card (``called_card``, e.g. ``"KH"``); on the first
    lead of the deal (``first_lead``: the trick is empty) no card of the called suit may be
    led but the called card itself, unless the leader holds nothing else (docs/rules.md §3).
    Without a called card, or after the first lead, ``called_card`` changes nothing.

    Raises ``ValueError`` for a bad card name, a duplicate, a card both in the hand and
    in the trick, an empty hand, a trick of more than 4 cards, a called card that is not a
    King, Queen, Knight or Jack, or ``first_lead`` with cards already in the trick.
    """
    hand_ids, trick_ids = _parse_position(hand, trick)
    if not hand_ids:
        raise ValueError("the hand is empty: a player with no card has nothing to play")
    called = -1 if called_card is None else _parse_called(called_card)
    if first_lead and trick_ids:
        raise ValueError(
            f"the first lead is the first card of the deal, but the trick holds {len(trick_ids)}"
        )
    led, hi = trick_state(trick_ids)
    word0, word1 = to_mask(hand_ids)
    legal0, legal1 = K.legal_play(word0, word1, led, hi, called, first_lead)
    return set(format_cards(from_mask(legal0, legal1)))


def trick_winner(trick: Sequence[str]) -> int:
    """Index in ``trick`` of the winning card by the ordinary rule (the Excuse never wins)."""
    trick_ids = parse_cards(trick, what="trick")
    if not trick_ids:
        raise ValueError("an empty trick has no winner")
    if len(trick_ids) > MAX_TRICK_BEFORE + 1:
        raise ValueError(f"a trick holds at most 5 cards, got {len(trick_ids)}")
    if trick_ids == [EXCUSE]:
        raise ValueError("a trick holding only the Excuse has no winner yet: the Excuse never wins")
    return int(K.trick_winner(np.array(trick_ids, dtype=np.int64), len(trick_ids)))


def beats_trick(card: str, trick: Sequence[str]) -> bool:
    """Whether ``card``, played now to ``trick`` (the cards already played, in order), would
    be the card winning it so far, by the ordinary rule of `trick_winner`.

    A higher card of the suit led, a trump on a trick without one, or a higher trump beats
    it; a card of another suit never does, nor does the Excuse. Any card but the Excuse wins
    an empty trick, or one holding only the Excuse. Whether ``card`` may be played there is
    `legal_cards`' question.

    Raises ``ValueError`` for a bad card name, a duplicate, ``card`` already in the trick,
    or a trick of more than 4 cards.
    """
    played = parse_card(card)
    trick_ids = parse_cards(trick, what="trick")
    if played in trick_ids:
        raise ValueError(f"card {card!r} is already in the trick")
    if len(trick_ids) > MAX_TRICK_BEFORE:
        raise ValueError(f"a trick holds at most 5 cards, so at most 4 before yours; got {len(trick_ids)}")
    led, _ = trick_state([*trick_ids, played])
    best = max((int(K.winning_key(c, led)) for c in trick_ids), default=K.NEVER_WINS)
    return int(K.winning_key(played, led)) > best
