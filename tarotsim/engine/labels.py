"""Every name of the simulator, derived from the kernels' constants: the only name table.

Contracts, sides, poignées and thrown-in reasons are small ints inside the kernels
(``kernels.constants``, which holds without Numba the kernels' constants read here; the
policies' names and codes are their registry's, ``tarotsim.players.policies``). This module
turns each into a Python ``IntEnum`` and a lower-case label (``Contract.GARDE_SANS.label``
is ``"garde_sans"``), the only spelling used by the API, the records, the CLI and the
reports. Rule numbers the Python layer shows (multipliers, targets, poignée bonuses,
table sizes, Chavey's published bands) are read from the kernels here too.

>>> Contract.parse("garde_sans")
<Contract.GARDE_SANS: 3>
>>> CONTRACTS
('prise', 'garde', 'garde_sans', 'garde_contre')
>>> MULTIPLIERS["garde_contre"]
6
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, Self

import numpy as np

from tarotsim.engine.kernels import constants as K


class _Named(IntEnum):
    """An IntEnum whose members have a lower-case label and parse from it."""

    @property
    def label(self) -> str:
        """The member's name as the API, the records and the reports spell it."""
        return self.name.lower()

    @classmethod
    def parse(cls, label: str | Self) -> Self:
        """The member labelled ``label``; a ``ValueError`` naming the valid labels otherwise."""
        if isinstance(label, cls):
            return label
        for member in cls:
            if member.label == label:
                return member
        valid = ", ".join(m.label for m in cls)
        raise ValueError(f"unknown {cls.__name__.lower()} {label!r}; valid: {valid}")


class Contract(_Named):
    """Contracts, low to high; the value is the kernels' code (``kernels.score``)."""

    PASS = K.PASS
    PRISE = K.PRISE
    GARDE = K.GARDE
    GARDE_SANS = K.GARDE_SANS
    GARDE_CONTRE = K.GARDE_CONTRE


class Side(_Named):
    """Sides of a deal; ``NONE`` (-1) means neither."""

    NONE = K.SIDE_NONE
    ATTACK = K.ATTACK
    DEFENCE = K.DEFENCE


class Poignee(_Named):
    """Poignée sizes (docs/rules.md §5); ``NONE`` is no poignée shown."""

    NONE = K.POIGNEE_NONE
    SIMPLE = K.POIGNEE_SIMPLE
    DOUBLE = K.POIGNEE_DOUBLE
    TRIPLE = K.POIGNEE_TRIPLE


class ThrownIn(_Named):
    """Why a deal was not played: ``NONE`` when it was played."""

    NONE = K.THROWN_NONE
    PETIT_SEC = K.THROWN_PETIT_SEC
    ALL_PASS = K.THROWN_ALL_PASS


CONTRACT_NAMES: tuple[str, ...] = tuple(c.label for c in Contract)
"""Every contract label, ``pass`` first, indexed by contract code."""

CONTRACTS: tuple[str, ...] = CONTRACT_NAMES[1:]
"""The contracts a taker can play, low to high."""


def parse_contract(label: str | Contract) -> Contract:
    """The contract a taker plays, from its label; a ``ValueError`` for ``pass`` or an unknown label.

    >>> parse_contract("garde")
    <Contract.GARDE: 2>
    """
    if isinstance(label, Contract) and label != Contract.PASS:
        return label
    if label not in CONTRACTS:
        raise ValueError(f"unknown contract {label!r}; valid: {', '.join(CONTRACTS)}")
    return Contract.parse(label)


MULTIPLIERS: dict[str, int] = {c.label: int(K.MULTIPLIER[c]) for c in Contract if c != Contract.PASS}
"""Contract multiplier M of docs/rules.md §8, by contract label."""

TARGETS: dict[int, int] = {bouts: int(half) // 2 for bouts, half in enumerate(K.TARGET_HALF)}
"""Points the attack needs, by the number of bouts it ends with (docs/rules.md §7)."""

SIDE_NAMES: tuple[str, ...] = tuple(s.label for s in Side if s != Side.NONE)
"""Side labels of the records (``attack``, ``defence``); no side is a missing value."""

POIGNEE_NAMES: tuple[str, ...] = tuple(p.label for p in Poignee if p != Poignee.NONE)
"""Poignée labels, smallest first."""

POIGNEE_BONUS: dict[str, int] = {p.label: int(K.POIGNEE_BONUS[p]) for p in Poignee if p != Poignee.NONE}
"""Poignée bonus in points, by label (docs/rules.md §5)."""

THROWN_IN_NAMES: tuple[str, ...] = tuple(t.label for t in ThrownIn)
"""Thrown-in labels of the records, indexed by code (``none`` for a played deal)."""

TABLE_SIZES: dict[int, tuple[int, int]] = {3: (24, 6), 4: (18, 6), 5: (15, 3)}
"""Cards per hand and in the chien, by number of players (docs/rules.md §2)."""


def check_players(players: Any) -> int:
    """The number of players as an int, or a ``ValueError`` a player understands."""
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)):
        raise TypeError(f"players must be an integer (3, 4 or 5), got {players!r}")
    players = int(players)
    if players not in TABLE_SIZES:
        raise ValueError(f"players must be 3, 4 or 5, got {players}")
    return players


PUBLISHED_BANDS: dict[str, int] = {"prise": 40, "garde": 56, "garde_sans": 71, "garde_contre": 81}
"""Chavey's published bid bands at 4 players (hand points from which each contract is bid).

The Garde sans and Garde contre bands were made on the count *with* the distribution
bonus (voids and singletons); the Prise and Garde bands without it."""

BANDS_HAND_CARDS = 18
"""Cards in the hand that Chavey's bands were made for (4 players)."""

DEALINGS: dict[str, int] = {"shuffled": K.DEALING_SHUFFLED, "unshuffled": K.DEALING_UNSHUFFLED}
"""Dealing modes: a uniformly shuffled pack every deal, or the casual table's gathered,
cut and unshuffled pack (reshuffled every ``kernels.state.SEQUENCE_DEALS`` deals)."""

HAND_FEATURES: dict[str, int] = {
    "petit_short": K.F_PETIT_SHORT,
    "petit_5": K.F_PETIT_5,
    "petit_6": K.F_PETIT_6,
    "petit_7": K.F_PETIT_7,
    "trump_21": K.F_TRUMP_21,
    "excuse": K.F_EXCUSE,
    "trumps_short": K.F_TRUMPS_SHORT,
    "trumps_long": K.F_TRUMPS_LONG,
    **{f"trump_{rank}": K.F_TRUMP_16 + rank - K.FIRST_MAJOR for rank in range(K.FIRST_MAJOR, 21)},
    "sequence": K.F_SEQUENCE,
    "king_queen": K.F_KING_QUEEN,
    "king": K.F_KING,
    "queen": K.F_QUEEN,
    "knight": K.F_KNIGHT,
    "jack": K.F_JACK,
    "long_5": K.F_LONG_5,
    "long_6": K.F_LONG_6,
    "long_7": K.F_LONG_7,
    "voids": K.F_VOIDS,
    "singletons": K.F_SINGLETONS,
}
"""The features of a dealt hand (``kernels.features``), name → index, in index order."""

HAND_FEATURE_MEANINGS: dict[str, str] = {
    "petit_short": "the Petit, with 4 trumps or fewer",
    "petit_5": "the Petit, with 5 trumps",
    "petit_6": "the Petit, with 6 trumps",
    "petit_7": "the Petit, with 7 trumps or more",
    "trump_21": "the 21",
    "excuse": "the Excuse",
    "trumps_short": "each trump, when 4 or fewer",
    "trumps_long": "each trump, when 5 or more",
    **{f"trump_{rank}": f"trump {rank}" for rank in range(K.FIRST_MAJOR, 21)},
    "sequence": "each major trump (16-21) next to another held major",
    "king_queen": "each suit with King and Queen",
    "king": "each King without its Queen",
    "queen": "each Queen without its King",
    "knight": "each Knight",
    "jack": "each Jack",
    "long_5": "each suit of 5 cards",
    "long_6": "each suit of 6 cards",
    "long_7": "each suit of 7 cards or more",
    "voids": "each void suit",
    "singletons": "each singleton",
}
"""What each hand feature counts, as the reports say it."""

CHAVEY_WEIGHTS: dict[str, int] = {
    "petit_short": 0,
    "petit_5": 5,
    "petit_6": 7,
    "petit_7": 9,
    "trump_21": 10,
    "excuse": 8,
    "trumps_short": 0,
    "trumps_long": 2,
    **{f"trump_{rank}": 2 for rank in range(K.FIRST_MAJOR, 21)},
    "sequence": 1,
    "king_queen": 10,
    "king": 6,
    "queen": 3,
    "knight": 2,
    "jack": 1,
    "long_5": 5,
    "long_6": 7,
    "long_7": 9,
    "voids": 6,
    "singletons": 3,
}
"""Chavey's published weight of each hand feature (``kernels.chavey``). His count also adds
2 for the 21 as a major trump (his 21 is worth 12 in all), and the voids and singletons only
to weigh a Garde sans or a Garde contre (his Prise and Garde bands leave them out)."""

DISTRIBUTION_FEATURES: tuple[str, ...] = ("voids", "singletons")
"""The features of Chavey's distribution bonus, counted for Garde sans and Garde contre only."""

DISTRIBUTION_CONTRACTS: tuple[str, ...] = CONTRACTS[2:]
"""The contracts for which Chavey adds the distribution bonus."""
