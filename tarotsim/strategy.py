"""Strategies: how one seat plays — its card-play, bidding, écart, poignée and chelem policies,
with their options.

A :class:`Strategy` is frozen and compares by value. It reads and writes a one-line spec of
``key=value`` pairs; ``str()`` names the card play and every choice that departs from the
defaults, and parses back:

>>> s = Strategy.parse("play=heuristic, bid_thresholds=40/56/71/81")
>>> str(s)
'play=heuristic,bid_thresholds=40/56/71/81'
>>> Strategy.parse(str(s)) == s
True
>>> Strategy(play="heuristic", follow_min_defence=8).label
'play=heuristic,follow_min_defence=8'

In the kernels a seat's strategy is its block of the ``cfg`` array (slots
``kernels.state.P_*``), which :meth:`Strategy.block` writes. The policy names come from
:mod:`tarotsim.labels`; the heuristic's defaults are its module constants
(:mod:`tarotsim.kernels.policies.heuristic`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, cast

import numpy as np

from tarotsim.bidder import load_bidder
from tarotsim.kernels import state as S
from tarotsim.kernels.policies import heuristic as H
from tarotsim.kernels.policies.codes import (
    BID_LEARNED,
    BID_MONTECARLO,
    PLAY_BASIC,
    PLAY_HEURISTIC,
    PLAY_PIMC,
    PLAY_RANDOM,
)
from tarotsim.kernels.search.scratch import MAX_WORLDS
from tarotsim.labels import (
    BANDS_HAND_CARDS,
    BID_POLICIES,
    CHELEM_POLICIES,
    CONTRACTS,
    DEFAULT_CHELEM_THRESHOLD,
    ECART_POLICIES,
    PLAY_POLICIES,
    PLAYOUT_POLICIES,
    POIGNEE_POLICIES,
    PUBLISHED_BANDS,
    TABLE_SIZES,
    Side,
)

POLICIES: dict[str, dict[str, int]] = {
    "play": PLAY_POLICIES,
    "bid": BID_POLICIES,
    "ecart": ECART_POLICIES,
    "poignee": POIGNEE_POLICIES,
    "chelem": CHELEM_POLICIES,
}
"""The five policies of a strategy and the names each may take (``labels.*_POLICIES``)."""

POLICY_MEANINGS: dict[str, str] = {
    "play": "card play",
    "bid": "bidding",
    "ecart": "écart",
    "poignee": "poignée",
    "chelem": "chelem announcement",
}
"""What each of the five policies decides, as the README's table says it."""

POLICY_DEFAULTS: dict[str, str] = {
    "play": "random",
    "bid": "chavey",
    "ecart": "simple",
    "poignee": "always",
    "chelem": "never",
}
"""The policies of ``Strategy()``, those of ``RunConfig()``."""

ATTACK = Side.ATTACK.label
DEFENCE = Side.DEFENCE.label
_SUIT_CARDS_OUT_MAX = 15  # more cards of a suit than can be out: never trust the foes to follow
_TRICK_HALF_MAX = 46  # more half points than a trick can hold (5 cards of 9): never worth a trump


class Tunable(NamedTuple):
    """One of the heuristic's tunable constants, as a strategy option.

    ``high`` None means "the cards in a hand" (it depends on the table size); ``side`` is
    the side whose heuristic play reads it. ``basic`` is the option's default under
    ``play=basic`` (the heuristic as it was before issue 13, so today's constant where the
    heuristic has moved on), or None when ``basic`` does not read the option at all.
    """

    slot: int
    default: int
    high: int | None
    side: str
    meaning: str
    basic: int | None

    def default_for(self, play: str) -> int:
        """The option's default for a seat whose card play on the option's side is ``play``."""
        return self.basic if play == "basic" and self.basic is not None else self.default

    def read_by(self, play: str) -> bool:
        """Whether card play ``play`` reads the option."""
        code = PLAY_POLICIES[play]
        return code == PLAY_HEURISTIC or (code == PLAY_BASIC and self.basic is not None)


TUNABLES: dict[str, Tunable] = {
    "follow_min_attack": Tunable(
        S.P_FOLLOW_MIN_ATTACK,
        H.FOLLOW_MIN_ATTACK,
        _SUIT_CARDS_OUT_MAX,
        ATTACK,
        "cards of a suit still out from which the attack counts on a foe to follow it rather than "
        "trump it (0: always, 15: never)",
        H.FOLLOW_MIN_ATTACK,
    ),
    "follow_min_defence": Tunable(
        S.P_FOLLOW_MIN_DEFENCE,
        H.FOLLOW_MIN_DEFENCE,
        _SUIT_CARDS_OUT_MAX,
        DEFENCE,
        "the same for the defence",
        H.FOLLOW_MIN_DEFENCE,
    ),
    "worth_trump_attack": Tunable(
        S.P_WORTH_TRUMP_ATTACK,
        H.WORTH_TRUMP_HALF_ATTACK,
        _TRICK_HALF_MAX,
        ATTACK,
        "half points a trick must hold for the attack to take it with a trump that wins for sure "
        "(a cheaper trick gets its lowest trump; 46: never)",
        H.WORTH_TRUMP_HALF_ATTACK,
    ),
    "worth_trump_defence": Tunable(
        S.P_WORTH_TRUMP_DEFENCE,
        H.WORTH_TRUMP_HALF_DEFENCE,
        _TRICK_HALF_MAX,
        DEFENCE,
        "the same for the defence",
        H.WORTH_TRUMP_HALF_DEFENCE,
    ),
    "draw_trumps_min": Tunable(
        S.P_DRAW_TRUMPS_MIN,
        H.DRAW_TRUMPS_MIN,
        None,
        ATTACK,
        "trumps besides the Petit from which the attack leads its master trump to draw the foes' "
        "trumps (it also needs as many as are still out)",
        H.BASIC_DRAW_TRUMPS_MIN,
    ),
    "hunt_petit_min": Tunable(
        S.P_HUNT_PETIT_MIN,
        H.HUNT_PETIT_MIN,
        None,
        DEFENCE,
        "trumps besides the Petit from which the defence leads its highest trump to hunt the "
        "Petit (it also needs as many as are still out)",
        H.HUNT_PETIT_MIN,
    ),
    "king_lead_min": Tunable(
        S.P_KING_LEAD_MIN,
        H.KING_LEAD_MIN,
        _SUIT_CARDS_OUT_MAX,
        DEFENCE,
        "cards of a suit still out from which the defence leads its King of the suit at Prise and "
        "Garde, when no foe has shown a void in it (15: never; `basic` never does)",
        None,
    ),
    "king_lead_min_blind": Tunable(
        S.P_KING_LEAD_MIN_BLIND,
        H.KING_LEAD_MIN_BLIND,
        _SUIT_CARDS_OUT_MAX,
        DEFENCE,
        "the same at Garde sans and Garde contre, where the taker made no écart",
        None,
    ),
}
"""The heuristic's tunable constants: name → slot, default (today's constant), range, side, meaning.

The range is 0 to ``high``, or to the cards in a hand (24, 18, 15 at 3, 4, 5 players)
when ``high`` is None: a seat cannot hold more trumps than that, so a larger count is
refused at that table size."""

DEFAULT_BID_WORLDS = 32
"""Worlds the ``montecarlo`` bidder samples per decision, chosen by measurement
(``benchmarks/bench_montecarlo_bidder.py``, ``reports/montecarlo-bidder.md``): the smallest
count whose doubling gains less than ``WORLDS_GAIN_ENOUGH`` points per deal in duels against
Chavey's count (4 players, heuristic play; each doubling doubles the cost). Measured on 16,000
deals: 16 → 32 worlds gained +0.83 [+0.45, +1.22], 32 → 64 +0.31 [+0.01, +0.62]."""
WORLDS_GAIN_ENOUGH = 0.5
"""Points per deal a doubling of the montecarlo bidder's worlds must gain to be worth its cost."""
MAX_BID_WORLDS = 4096
"""The most worlds a ``montecarlo`` decision may sample (each costs up to four playouts)."""
DEFAULT_BID_ROLLOUT = "heuristic"
"""The card play of the ``montecarlo`` bidder's playouts."""

OTHER_OPTIONS: dict[str, tuple[str, str, str]] = {
    "attack_play": ("a `play` name", "`play`", "card play while the seat plays for the attack"),
    "defence_play": ("a `play` name", "`play`", "card play while the seat defends"),
    "bid_thresholds": (
        "four increasing counts, `40/56/71/81`",
        "the published bands, scaled by the cards in a hand",
        "the `chavey` bidder's Chavey counts for Prise, Garde, Garde sans and Garde contre; for "
        "`montecarlo`, the bands by which it assumes the earlier speakers bid",
    ),
    "bid_worlds": (
        f"1 to {MAX_BID_WORLDS}",
        str(DEFAULT_BID_WORLDS),
        "the `montecarlo` bidder's worlds per decision (the pimc card player's own option is `worlds`)",
    ),
    "bid_rollout": (
        ", ".join(f"`{n}`" for n in PLAYOUT_POLICIES),
        f"`{DEFAULT_BID_ROLLOUT}`",
        "the card play of the `montecarlo` bidder's playouts, every seat",
    ),
    "bidder": (
        "the path of a bidder file",
        "none",
        "the `learned` bidder's model, made by `tarotsim fit-bidder` (needed by `bid=learned`)",
    ),
    "chelem_threshold": (
        "0 or more",
        str(DEFAULT_CHELEM_THRESHOLD),
        "count with the distribution bonus from which `chelem=overwhelming` announces",
    ),
    "name": ("text without `,` or `=`", "the spec", "a short label for records and reports"),
}
"""The options besides the heuristic's: name → (values, default, meaning), as the README shows them."""

ROLLOUT_POLICIES: dict[str, int] = {
    name: code for name, code in PLAY_POLICIES.items() if code in (PLAY_HEURISTIC, PLAY_RANDOM)
}
"""The card-play policies a ``pimc`` seat may play its playouts with."""


DEFAULT_WORLDS = 32
"""``pimc``: worlds per decision by default, chosen with ``DEFAULT_DROP`` by
``benchmarks/bench_strength.py`` (``reports/strength.md``): with dropping, 32 worlds play as
well as 32 worlds without it and a deal stays within the issue's cost of 3,000 heuristic deals,
where 32 worlds without dropping do not."""
DEFAULT_ENDGAME = 0
"""``pimc``: tricks left from which the solver replaces the playouts by default (0 never)."""
DEFAULT_DROP = 15
"""``pimc``: tenths of a standard error behind the best card at which a card is dropped, by
default (0: never). At 32 worlds, dropping at 1.5 standard errors plays out fewer cards than
24 worlds without it and plays as well as 32 worlds without it (``reports/strength.md``)."""
MAX_DROP = 100
"""``pimc``: the largest ``drop`` (10 standard errors: a card is then practically never dropped)."""
MAX_ENDGAME = 8
"""``pimc``: the most tricks left the solver may be asked to search (its cost grows steeply)."""


class SearchOption(NamedTuple):
    """One option of the ``pimc`` card play: its slot, default, values and meaning."""

    slot: int
    default: int | str
    values: str
    meaning: str


PIMC_OPTIONS: dict[str, SearchOption] = {
    "worlds": SearchOption(
        S.P_WORLDS,
        DEFAULT_WORLDS,
        f"1 to {MAX_WORLDS}",
        "pimc: deals of the unseen cards drawn per decision",
    ),
    "endgame": SearchOption(
        S.P_ENDGAME,
        DEFAULT_ENDGAME,
        f"0 to {MAX_ENDGAME}",
        "pimc: tricks left from which the exact solver replaces the playouts (0: never)",
    ),
    "rollout": SearchOption(
        S.P_ROLLOUT,
        "heuristic",
        ", ".join(f"`{name}`" for name in ROLLOUT_POLICIES),
        "pimc: card play of every seat in the playouts",
    ),
    "drop": SearchOption(
        S.P_DROP,
        DEFAULT_DROP,
        f"0 to {MAX_DROP}",
        "pimc: a card whose values fall this many tenths of a standard error behind the best "
        "card's (paired over the worlds drawn) is no longer played out (0: never)",
    ),
}
"""The options of ``pimc`` card play (``kernels.search.pimc``): they need ``pimc`` on some side."""

KEYS: tuple[str, ...] = (*POLICIES, *OTHER_OPTIONS, *TUNABLES, *PIMC_OPTIONS)
"""Every key of a strategy spec, in the order ``str()`` writes them (``name`` among them)."""


def default_bid_thresholds(players: int) -> tuple[int, int, int, int]:
    """Chavey's published bands (``labels.PUBLISHED_BANDS``) scaled by the cards in a hand.

    >>> default_bid_thresholds(3)
    (53, 75, 95, 108)
    """
    hand = TABLE_SIZES[players][0]
    bands = tuple(round(PUBLISHED_BANDS[c] * hand / BANDS_HAND_CARDS) for c in CONTRACTS)
    return cast("tuple[int, int, int, int]", bands)


def _policy(key: str, name: object) -> str:
    table = POLICIES["play" if key.endswith("_play") else key]
    if not isinstance(name, str):
        raise TypeError(f"the {key} policy must be a name (a string), got {name!r}")
    if name not in table:
        raise ValueError(f"unknown {key} policy {name!r}; valid names: {', '.join(sorted(table))}")
    return name


def _whole(key: str, value: object, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{key} must be a whole number, got {value!r}")
    if value < 0 or (high is not None and value > high):
        span = "zero or more" if high is None else f"0 to {high}"
        raise ValueError(f"{key} must be {span}, got {value}")
    return int(value)


def _thresholds(value: object) -> tuple[int, int, int, int]:
    message = f"bid_thresholds must be four increasing counts such as 40/56/71/81, got {value!r}"
    if isinstance(value, str) or not isinstance(value, Sequence) or len(value) != 4:
        raise ValueError(message)
    counts = tuple(_whole("a bid threshold", v) for v in value)
    if list(counts) != sorted(counts):
        raise ValueError(message)
    return cast("tuple[int, int, int, int]", counts)


def _playout(key: str, value: object, allowed: Sequence[str]) -> str:
    """The card play of a search's playouts (``rollout`` for pimc, ``bid_rollout`` for the
    montecarlo bidder), checked against the policies it may use."""
    if not isinstance(value, str):
        raise TypeError(f"{key} must be a card-play policy name (a string), got {value!r}")
    if value not in allowed:
        raise ValueError(f"{key} must be one of {', '.join(allowed)}, got {value!r}")
    return value


def _bidder(bid: str, value: object) -> str | None:
    """The ``bidder`` option: a readable bidder file's path, given exactly when ``bid=learned``."""
    learned = BID_POLICIES[bid] == BID_LEARNED
    if value is None:
        if learned:
            raise ValueError("bid=learned needs bidder=PATH, a bidder file made by tarotsim fit-bidder")
        return None
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"bidder must be the path of a bidder file, got {value!r}")
    path = os.fspath(value)
    if not learned:
        raise ValueError(f"bidder={path} is the learned bidder's file: it needs bid=learned, not bid={bid}")
    if "," in path or "=" in path:
        raise ValueError(f"a bidder file's path must not hold ',' or '=', got {path!r}")
    load_bidder(path)
    return path


def _name(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"a strategy name must be a string, got {value!r}")
    name = value.strip()
    if not name or any(c in name for c in ",="):
        raise ValueError(f"a strategy name must be non-empty text without ',' or '=', got {value!r}")
    return name


@dataclass(frozen=True, init=False)
class Strategy:
    """How one seat plays: five policies and their options, checked when made.

    Parameters
    ----------
    play, bid, ecart, poignee, chelem : str
        Card-play, bidding, écart, poignée and chelem-announcement policies, by name
        (``labels.*_POLICIES``); the defaults are those of ``RunConfig()``.
    **options
        ``attack_play``, ``defence_play`` (card play on one side, overriding ``play``),
        ``bid_thresholds`` (four increasing Chavey counts: the ``chavey`` bidder's bands, and
        the bands by which the ``montecarlo`` bidder assumes the earlier speakers bid),
        ``bid_worlds`` and ``bid_rollout`` (the ``montecarlo`` bidder's worlds per decision
        and the card play of its playouts), ``bidder`` (the path of the ``learned`` bidder's
        file, :mod:`tarotsim.bidder`), ``chelem_threshold``, ``name``
        (a short label), and the heuristic's tunable constants of :data:`TUNABLES`
        (``follow_min_attack``, ``follow_min_defence``, ``worth_trump_attack``,
        ``worth_trump_defence``, ``draw_trumps_min``, ``hunt_petit_min``, ``king_lead_min``,
        ``king_lead_min_blind``), which need
        heuristic (or basic) card play on their side, and the ``pimc`` options of
        :data:`PIMC_OPTIONS` (``worlds``, ``endgame``, ``rollout``, ``drop``), which need ``pimc``
        card play on some side.

    Raises
    ------
    ValueError
        For an unknown key or policy name (the message lists the valid ones), a value out
        of its range, a heuristic option without heuristic play on its side, a
        ``pimc`` option without ``pimc`` play, a ``montecarlo`` option without ``bid=montecarlo``, ``bid=learned`` without a readable
        ``bidder`` file, or a ``bidder`` without ``bid=learned``.
    TypeError
        For a value of the wrong type.
    """

    play: str
    bid: str
    ecart: str
    poignee: str
    chelem: str
    attack_play: str | None
    defence_play: str | None
    bid_thresholds: tuple[int, int, int, int] | None
    bid_worlds: int
    bid_rollout: str
    bidder: str | None
    chelem_threshold: int
    name: str | None
    follow_min_attack: int
    follow_min_defence: int
    worth_trump_attack: int
    worth_trump_defence: int
    draw_trumps_min: int
    hunt_petit_min: int
    king_lead_min: int
    king_lead_min_blind: int
    worlds: int
    endgame: int
    rollout: str
    drop: int
    player: Any  # a Python player (tarotsim.players), None for the built-in policies alone
    acts_all: bool  # whether the Python player takes every decision (act=) or the card play (play=)

    def __init__(
        self,
        play: Any = POLICY_DEFAULTS["play"],
        bid: str = POLICY_DEFAULTS["bid"],
        ecart: str = POLICY_DEFAULTS["ecart"],
        poignee: str = POLICY_DEFAULTS["poignee"],
        chelem: str = POLICY_DEFAULTS["chelem"],
        act: Any = None,
        **options: Any,
    ) -> None:
        player, acts_all = None, False
        if act is not None or not isinstance(play, str):
            from tarotsim.hooks import split_player

            player, acts_all, play = split_player(play, act, POLICY_DEFAULTS["play"])
        for key in options:
            if key not in KEYS:
                raise ValueError(f"unknown strategy option {key!r}; valid keys: {', '.join(KEYS)}")
        values: dict[str, Any] = {
            "play": play,
            "bid": bid,
            "ecart": ecart,
            "poignee": poignee,
            "chelem": chelem,
        }
        for key in POLICIES:
            values[key] = _policy(key, values[key])
        for key in ("attack_play", "defence_play"):
            given = options.get(key)
            values[key] = None if given is None or _policy(key, given) == values["play"] else given
        thresholds = options.get("bid_thresholds")
        values["bid_thresholds"] = None if thresholds is None else _thresholds(thresholds)
        values["bid_worlds"] = _whole(
            "bid_worlds", options.get("bid_worlds", DEFAULT_BID_WORLDS), MAX_BID_WORLDS
        )
        if values["bid_worlds"] < 1:
            raise ValueError(f"bid_worlds must be 1 to {MAX_BID_WORLDS}, got {values['bid_worlds']}")
        values["bid_rollout"] = _playout(
            "bid_rollout", options.get("bid_rollout", DEFAULT_BID_ROLLOUT), PLAYOUT_POLICIES
        )
        for key, default in (("bid_worlds", DEFAULT_BID_WORLDS), ("bid_rollout", DEFAULT_BID_ROLLOUT)):
            if values[key] != default and BID_POLICIES[values["bid"]] != BID_MONTECARLO:
                raise ValueError(
                    f"{key} is an option of the montecarlo bidder, but this strategy bids {values['bid']}"
                )
        values["bidder"] = _bidder(values["bid"], options.get("bidder"))
        values["chelem_threshold"] = _whole(
            "chelem_threshold", options.get("chelem_threshold", DEFAULT_CHELEM_THRESHOLD)
        )
        values["name"] = None if options.get("name") is None else _name(options["name"])
        for key, tunable in TUNABLES.items():
            override = values["attack_play" if tunable.side == ATTACK else "defence_play"]
            default = tunable.default_for(values["play"] if override is None else override)
            values[key] = _whole(key, options.get(key, default), tunable.high)
        values["worlds"] = _whole("worlds", options.get("worlds", DEFAULT_WORLDS), MAX_WORLDS)
        if values["worlds"] < 1:
            raise ValueError(f"worlds must be 1 to {MAX_WORLDS}, got {values['worlds']}")
        values["endgame"] = _whole("endgame", options.get("endgame", DEFAULT_ENDGAME), MAX_ENDGAME)
        values["rollout"] = _playout(
            "rollout", options.get("rollout", PIMC_OPTIONS["rollout"].default), tuple(ROLLOUT_POLICIES)
        )
        values["drop"] = _whole("drop", options.get("drop", DEFAULT_DROP), MAX_DROP)
        values["player"], values["acts_all"] = player, acts_all
        for key, value in values.items():
            object.__setattr__(self, key, value)
        self._check_tunables_have_heuristic_play()
        self._check_search_options_have_pimc_play()

    def side_play(self, side: str) -> str:
        """The card-play policy of the seat on ``side`` (``"attack"`` or ``"defence"``)."""
        override = self.attack_play if side == ATTACK else self.defence_play
        return self.play if override is None else override

    def _check_tunables_have_heuristic_play(self) -> None:
        for key, tunable in TUNABLES.items():
            play = self.side_play(tunable.side)
            if getattr(self, key) != tunable.default_for(play) and not tunable.read_by(play):
                reader = "heuristic or basic" if tunable.basic is not None else "heuristic"
                raise ValueError(
                    f"{key} tunes {reader} card play, but this strategy plays {play} on the {tunable.side}"
                )

    def _check_search_options_have_pimc_play(self) -> None:
        plays = {self.side_play(ATTACK), self.side_play(DEFENCE)}
        if any(PLAY_POLICIES[play] == PLAY_PIMC for play in plays):
            return
        for key, option in PIMC_OPTIONS.items():
            if getattr(self, key) != option.default:
                raise ValueError(
                    f"{key} sets pimc card play, but this strategy plays {' and '.join(sorted(plays))}"
                )

    @staticmethod
    def parse(spec: str) -> Strategy:
        """The strategy of a spec such as ``"play=heuristic,bid=chavey,bid_thresholds=40/56/71/81"``.

        ``key=value`` pairs separated by commas (spaces ignored); an empty spec is
        ``Strategy()``. Numbers are whole numbers; ``bid_thresholds`` are four separated
        by ``/``.

        Raises
        ------
        ValueError
            For text that is not ``key=value`` pairs, a key given twice, an unknown key or
            value, or a value out of its range.
        """
        if not isinstance(spec, str):
            raise TypeError(f"a strategy spec must be text such as 'play=heuristic', got {spec!r}")
        options: dict[str, Any] = {}
        for part in (p.strip() for p in spec.split(",")):
            if not part:
                continue
            key, sep, text = (s.strip() for s in part.partition("="))
            if not sep or not key or not text:
                raise ValueError(
                    f"a strategy spec is key=value pairs separated by commas, got {part!r} in {spec!r}"
                )
            if key in options:
                raise ValueError(f"{key} is given twice in {spec!r}")
            if key not in KEYS:
                raise ValueError(f"unknown strategy option {key!r}; valid keys: {', '.join(KEYS)}")
            options[key] = _parse_value(key, text)
        return Strategy(**options)

    def __str__(self) -> str:
        parts = [f"play={self.play}"]
        if self.player is not None:
            from tarotsim.hooks import player_name

            parts = [f"{'act' if self.acts_all else 'play'}={player_name(self.player)}"]
        defaults = Strategy()
        for key in KEYS[1:]:
            value = getattr(self, key)
            if key in TUNABLES:
                default = TUNABLES[key].default_for(self.side_play(TUNABLES[key].side))
            else:
                default = getattr(defaults, key)
            if value != default:
                text = "/".join(map(str, value)) if isinstance(value, tuple) else str(value)
                parts.append(f"{key}={text}")
        return ",".join(parts)

    @property
    def label(self) -> str:
        """The short label of records and reports: the ``name``, else the spec (``str()``)."""
        return self.name if self.name is not None else str(self)

    def check(self, players: int) -> None:
        """Raise a ``ValueError`` if the strategy cannot be played at ``players`` players.

        Options counting trumps in a hand must not exceed the cards in a hand there.
        """
        if players not in TABLE_SIZES:
            raise ValueError(f"players must be 3, 4 or 5, got {players}")
        hand = TABLE_SIZES[players][0]
        for key, tunable in TUNABLES.items():
            value = getattr(self, key)
            if tunable.high is None and value > hand:
                raise ValueError(
                    f"{key}={value} cannot be met at {players} players ({hand} cards in a hand); "
                    f"use 0 to {hand}"
                )
        if self.bidder is not None:
            load_bidder(self.bidder).check(players, path=self.bidder)

    def block(self, players: int) -> np.ndarray:
        """The seat's block of the kernels' ``cfg`` at ``players`` players: int64[N_SEAT_CFG],
        slots ``kernels.state.P_*``.

        Raises
        ------
        ValueError
            If the strategy cannot be played at that table size (:meth:`check`).
        """
        self.check(players)
        out = np.zeros(S.N_SEAT_CFG, dtype=np.int64)
        out[S.P_PLAY_ATTACK] = PLAY_POLICIES[self.side_play(ATTACK)]
        out[S.P_PLAY_DEFENCE] = PLAY_POLICIES[self.side_play(DEFENCE)]
        out[S.P_BID_POLICY] = BID_POLICIES[self.bid]
        thresholds = default_bid_thresholds(players) if self.bid_thresholds is None else self.bid_thresholds
        out[S.P_BID_PRISE : S.P_BID_GARDE_CONTRE + 1] = thresholds
        out[S.P_ECART_POLICY] = ECART_POLICIES[self.ecart]
        out[S.P_POIGNEE_POLICY] = POIGNEE_POLICIES[self.poignee]
        out[S.P_CHELEM_POLICY] = CHELEM_POLICIES[self.chelem]
        out[S.P_CHELEM_THRESHOLD] = self.chelem_threshold
        out[S.P_BID_WORLDS] = self.bid_worlds
        out[S.P_BID_ROLLOUT] = PLAY_POLICIES[self.bid_rollout]
        if self.bidder is not None:
            learned = load_bidder(self.bidder).slots()
            out[S.P_LEARNED_0 : S.P_LEARNED_0 + len(learned)] = learned
        for key, tunable in TUNABLES.items():
            out[tunable.slot] = getattr(self, key)
        out[S.P_WORLDS] = self.worlds
        out[S.P_ENDGAME] = self.endgame
        out[S.P_ROLLOUT] = ROLLOUT_POLICIES[self.rollout]
        out[S.P_DROP] = self.drop
        return out


def _parse_value(key: str, text: str) -> Any:
    """The Python value of ``key`` written as ``text`` in a spec."""
    if key in POLICIES or key in ("attack_play", "defence_play", "name", "bid_rollout", "bidder", "rollout"):
        return text
    if key == "bid_thresholds":
        parts = text.split("/")
        try:
            return tuple(int(p) for p in parts)
        except ValueError:
            raise ValueError(
                f"bid_thresholds must be four increasing counts such as 40/56/71/81, got {text!r}"
            ) from None
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{key} must be a whole number, got {text!r}") from None


def to_strategy(value: Strategy | str) -> Strategy:
    """``value`` itself, or the strategy its spec describes (:meth:`Strategy.parse`)."""
    if isinstance(value, Strategy):
        return value
    if isinstance(value, str):
        return Strategy.parse(value)
    from tarotsim.hooks import is_player

    if is_player(value):
        return Strategy(act=value)
    raise TypeError(f"a strategy is a Strategy, a spec such as 'play=heuristic' or a player, got {value!r}")


def options_markdown() -> str:
    """Every key of a strategy spec as a Markdown table: key, values or range, default, meaning."""
    defaults = Strategy()
    lines = ["| key | values | default | meaning |", "| --- | --- | --- | --- |"]
    for key, table in POLICIES.items():
        names = ", ".join(f"`{n}`" for n in table)
        lines.append(f"| `{key}` | {names} | `{getattr(defaults, key)}` | {POLICY_MEANINGS[key]} policy |")
    for key, (values, default, meaning) in OTHER_OPTIONS.items():
        lines.append(f"| `{key}` | {values} | {default} | {meaning} |")
    for key, tunable in TUNABLES.items():
        high = "the cards in a hand" if tunable.high is None else str(tunable.high)
        default = str(tunable.default)
        if tunable.basic is not None and tunable.basic != tunable.default:
            default += f" (`basic`: {tunable.basic})"
        lines.append(f"| `{key}` | 0 to {high} | {default} | heuristic: {tunable.meaning} |")
    for key, option in PIMC_OPTIONS.items():
        default = f"`{option.default}`" if isinstance(option.default, str) else str(option.default)
        lines.append(f"| `{key}` | {option.values} | {default} | {option.meaning} |")
    return "\n".join(lines) + "\n"
