"""The kernels' constants that the Python layer reads when it is imported, in a module
without Numba: ``tarotsim.engine.labels`` and the policy registry build their names and defaults
from these, so that the command line's help and the registries load in a fraction of a
second, Numba only with the first kernel. Each kernel module imports its own from here.

- contract, side and poignée codes and the scoring tables (``engine.kernels.score``);
- the hand features' indices (``engine.kernels.features``);
- the dealing and thrown-in codes (``engine.kernels.state``);
- the heuristic's tunable defaults (``players.kernels.policies.heuristic``);
- the most worlds of a ``pimc`` decision (``players.kernels.search.scratch``) and the codes of its
  ``knowledge`` (``players.kernels.search.constraints``) and its ``infer`` (``players.kernels.search.likelihood``).
"""

from __future__ import annotations

import numpy as np

# --- contracts, sides, poignées and the scoring tables (kernels.score)

SIDE_NONE = -1
ATTACK = 0
DEFENCE = 1

PASS = 0
PRISE = 1
GARDE = 2
GARDE_SANS = 3
GARDE_CONTRE = 4

MULTIPLIER = np.array([0, 1, 2, 4, 6], dtype=np.int64)
"""Contract multiplier M, indexed by contract code."""

TARGET_HALF = np.array([112, 102, 82, 72], dtype=np.int64)
"""Target in half points, indexed by the number of bouts the attack ends with."""

POIGNEE_BONUS = np.array([0, 20, 30, 40], dtype=np.int64)
"""Poignée bonus in points, indexed by size: 0 none, 1 simple, 2 double, 3 triple."""

POIGNEE_NONE = 0
POIGNEE_SIMPLE = 1
POIGNEE_DOUBLE = 2
POIGNEE_TRIPLE = 3

POIGNEE_THRESHOLDS = np.array([[13, 15, 18], [10, 13, 15], [8, 10, 13]], dtype=np.int64)
"""Cards shown for a simple, double, triple poignée; row = players - 3."""


# --- the features of a dealt hand (kernels.features): ``hand_features`` returns them in this order

F_PETIT_SHORT = 0  # the Petit, with 4 trumps or fewer
F_PETIT_5 = 1  # the Petit, with exactly 5 trumps
F_PETIT_6 = 2  # the Petit, with exactly 6 trumps
F_PETIT_7 = 3  # the Petit, with 7 trumps or more
F_TRUMP_21 = 4  # the 21
F_EXCUSE = 5  # the Excuse
F_TRUMPS_SHORT = 6  # trumps 1-21 held, when 4 or fewer (else 0)
F_TRUMPS_LONG = 7  # trumps 1-21 held, when 5 or more (else 0)
F_TRUMP_16 = 8  # trumps 16, 17, 18, 19, 20: one feature each, F_TRUMP_16 + (rank - 16)
F_SEQUENCE = 13  # major trumps (16-21) with a held major just above or below
F_KING_QUEEN = 14  # suits holding both King and Queen
F_KING = 15  # suits holding the King without the Queen
F_QUEEN = 16  # suits holding the Queen without the King
F_KNIGHT = 17  # Knights held
F_JACK = 18  # Jacks held
F_LONG_5 = 19  # suits of exactly 5 cards
F_LONG_6 = 20  # suits of exactly 6 cards
F_LONG_7 = 21  # suits of 7 cards or more
F_VOIDS = 22  # suits not held
F_SINGLETONS = 23  # suits of one card
N_FEATURES = 24

FIRST_MAJOR = 16
"""Lowest major trump."""


# --- dealing and thrown-in deals (kernels.state: C_DEALING, R_THROWN_IN)

DEALING_SHUFFLED = 0
DEALING_UNSHUFFLED = 1

THROWN_NONE = 0
THROWN_PETIT_SEC = 1
THROWN_ALL_PASS = 2


# --- the heuristic's tunable defaults (kernels.policies.heuristic: what each one tunes)

# How many cards of a suit must be out (neither in the seat's hand nor played) for the
# foes still to play to be taken to follow it rather than trump it, for the attack and for
# the defence. A foe that has shown a void in the suit is always taken to trump it, one
# that has shown it holds no trump never. Tuned on 100,000-deal runs (heuristic against
# heuristic and against random play): the taker does best trusting the defenders to
# follow (0: cash masters freely); the defence does best never trusting the taker to
# follow (15: more than can be out), so it keeps its Kings until the taker has played or
# shown no trump.
FOLLOW_MIN_ATTACK = 0
FOLLOW_MIN_DEFENCE = 15
# A trick worth at least this many half points is worth a trump above every unseen trump
# (one that wins for sure) to the attack and to the defence; cheaper tricks get the lowest
# trump. Tuned like FOLLOW_MIN_*: the taker keeps its master trumps for a King or more.
WORTH_TRUMP_HALF_ATTACK = 12
WORTH_TRUMP_HALF_DEFENCE = 4
# Trumps besides the Petit from which the attack draws trumps (``draw_trumps``) and the
# defence hunts the Petit (``hunt_petit``), each also needing as many as are still out.
# Drawing from 1 (as many as are out being then the only condition) beat drawing from 4,
# basic's value, at 3, 4 and 5 players in duplicate duels of 100,000 deals
# (benchmarks/bench_heuristic_gain.py, reports/heuristic.md).
DRAW_TRUMPS_MIN = 1
BASIC_DRAW_TRUMPS_MIN = 4
HUNT_PETIT_MIN = 2
# Cards of a suit out (a foe may hold them) from which the defence leads its King of the suit
# (``lead_king``) at Prise and Garde, and at Garde sans and Garde contre, where the taker made
# no écart and so no void of its choice; more than a suit holds (15): never. Chosen on
# duels of 100,000 deals at 4 players, seeds 7 and 11: 12 gained over never on both
# (11 level with it; 8, 10 and 13 lost); for the blind contracts 6 and 8 gained about
# +0.01 point per deal, with intervals about as wide. A King is thus led only on the
# first round of its suit, where the taker most likely follows.
KING_LEAD_MIN = 12
KING_LEAD_MIN_BLIND = 8


# --- the search (kernels.search.scratch)

MAX_WORLDS = 4096
"""The most worlds a ``pimc`` decision may draw (rows of ``SearchScratch.world_values``)."""

KNOWLEDGE_TABLE = 0
KNOWLEDGE_RULES = 1
KNOWLEDGE_NAMES = ("table", "rules")
"""``pimc``'s ``knowledge`` (``players.kernels.search.constraints``), by code: ``table``, what the table
shows directly, as ``pimc`` knew it before the rules' inferences were added; ``rules``, every
inference the rules allow besides."""

INFER_NONE = 0
INFER_HEURISTIC = 1
INFER_NAMES = ("none", "heuristic")
"""``pimc``'s ``infer`` (``players.kernels.search.likelihood``), by code: ``none``, every consistent world
alike; ``heuristic``, worlds resampled by the likelihood of the other seats' bids, poignées and
cards under a smoothed model of the built-in heuristic."""
