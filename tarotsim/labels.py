"""Every name of the simulator, derived from the kernels' constants: the only name table.

Contracts, sides, poignées, thrown-in reasons and policies are small ints inside the
kernels (``kernels.score``, ``kernels.state``, ``kernels.policies.codes``). This module
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
from typing import Self

from tarotsim.kernels import score as K
from tarotsim.kernels import state as S
from tarotsim.kernels.policies import codes


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
    """Poignée sizes (RULES.md §7); ``NONE`` is no poignée shown."""

    NONE = K.POIGNEE_NONE
    SIMPLE = K.POIGNEE_SIMPLE
    DOUBLE = K.POIGNEE_DOUBLE
    TRIPLE = K.POIGNEE_TRIPLE


class ThrownIn(_Named):
    """Why a deal was not played: ``NONE`` when it was played."""

    NONE = S.THROWN_NONE
    PETIT_SEC = S.THROWN_PETIT_SEC
    ALL_PASS = S.THROWN_ALL_PASS


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
"""Contract multiplier M of RULES.md §8, by contract label."""

TARGETS: dict[int, int] = {bouts: int(half) // 2 for bouts, half in enumerate(K.TARGET_HALF)}
"""Points the attack needs, by the number of bouts it ends with (RULES.md §7)."""

SIDE_NAMES: tuple[str, ...] = tuple(s.label for s in Side if s != Side.NONE)
"""Side labels of the records (``attack``, ``defence``); no side is a missing value."""

POIGNEE_NAMES: tuple[str, ...] = tuple(p.label for p in Poignee if p != Poignee.NONE)
"""Poignée labels, smallest first."""

POIGNEE_BONUS: dict[str, int] = {p.label: int(K.POIGNEE_BONUS[p]) for p in Poignee if p != Poignee.NONE}
"""Poignée bonus in points, by label (RULES.md §7)."""

THROWN_IN_NAMES: tuple[str, ...] = tuple(t.label for t in ThrownIn)
"""Thrown-in labels of the records, indexed by code (``none`` for a played deal)."""

TABLE_SIZES: dict[int, tuple[int, int]] = {3: (24, 6), 4: (18, 6), 5: (15, 3)}
"""Cards per hand and in the chien, by number of players (RULES.md §2)."""

PUBLISHED_BANDS: dict[str, int] = {"prise": 40, "garde": 56, "garde_sans": 71, "garde_contre": 81}
"""Chavey's published bid bands at 4 players (hand points from which each contract is bid).

The Garde sans and Garde contre bands were made on the count *with* the distribution
bonus (voids and singletons); the Prise and Garde bands without it."""

BANDS_HAND_CARDS = 18
"""Cards in the hand that Chavey's bands were made for (4 players)."""

DEFAULT_CHELEM_THRESHOLD = 110
"""Count (with the distribution bonus) from which the ``overwhelming`` policy announces a chelem."""

PLAY_POLICIES: dict[str, int] = {
    "random": codes.PLAY_RANDOM,
    "heuristic": codes.PLAY_HEURISTIC,
    "greedy": codes.PLAY_GREEDY,
    "pimc": codes.PLAY_PIMC,
}
BID_POLICIES: dict[str, int] = {"chavey": codes.BID_CHAVEY}
ECART_POLICIES: dict[str, int] = {"simple": codes.ECART_SIMPLE, "expert": codes.ECART_EXPERT}
POIGNEE_POLICIES: dict[str, int] = {
    "always": codes.POIGNEE_ALWAYS,
    "never": codes.POIGNEE_NEVER,
    "smart": codes.POIGNEE_SMART,
}
CHELEM_POLICIES: dict[str, int] = {"never": codes.CHELEM_NEVER, "overwhelming": codes.CHELEM_OVERWHELMING}

DEALINGS: dict[str, int] = {"shuffled": S.DEALING_SHUFFLED, "unshuffled": S.DEALING_UNSHUFFLED}
"""Dealing modes: a uniformly shuffled pack every deal, or the casual table's gathered,
cut and unshuffled pack (reshuffled every ``kernels.state.SEQUENCE_DEALS`` deals)."""
