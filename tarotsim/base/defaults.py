"""Defaults that the command line shows in its help, in a module that imports nothing, so that
``tarotsim COMMAND --help`` loads neither Numba nor pandas; the modules that use them import
them from here.
"""

from __future__ import annotations

DEFAULT_CHUNK_DEALS = 1 << 18
"""Deals per chunk of a run directory (``runs.spec``): 262,144 deals make about 30 MB of
records in memory (four times that for a four-contract sweep), so a run's memory stays
bounded whatever its length."""

HAND_DEALS = 2000
"""Deals of one hand's analysis (``tarotsim.analysis.hand``): the unseen cards dealt again this many times."""

SAMPLE_DEALS = 1_000_000
"""Deals a fit samples from a sweep by default (``analysis.count_fit``)."""
SAMPLE_SEED = 0
"""Seed of a fit's sample of deals by default."""
OUTCOMES = ("score", "made")
"""What ``analysis.count_fit.fit_count`` regresses: the taker's score (OLS) or success (logit GLM)."""

LOOK_EVERY = 1000
"""Deals between two looks of a duel until decided (``tarotsim.duel``), the chunks of its run directory."""
SPRT_EDGE = (0.0, 2.0)
"""A sequential test's edges of H0 and H1 by default (points per deal): A is not better at all,
or better by 2 points a deal (``tarotsim duel --until-decided``, ``tarotsim tournament``)."""
SPRT_ERROR_RATE = 0.05
"""A sequential test's error rates, alpha and beta, by default."""

TOURNAMENT_FORMATS = ("ladder", "round-robin")
"""How a tournament pairs its strategies (``tarotsim.tournament``)."""
REFERENCE = "play=heuristic"
"""The strategy a ladder's rungs are dueled against by default, and the unit of cost: the heuristic."""
COST_DEALS = 2000
"""Deals timed per strategy and round to measure its cost, by default (the heuristic's take
about 20 ms of CPU at 4 players)."""
COST_REPEATS = 6
"""Rounds of the cost's timing by default: the fewest that give its median a 95 % interval."""
