"""Strategies: how one seat plays — one policy per decision (card play, bidding, the king
call, écart, poignée, chelem announcement) and the options those policies read.

A [`Strategy`][tarotsim.players.strategy.Strategy] is frozen and compares by value. It reads and writes a one-line spec of
``key=value`` pairs; ``str()`` names the card play and every choice that departs from the
defaults, and parses back:

>>> s = Strategy.parse("play=heuristic, bid_thresholds=40/56/71/81")
>>> str(s)
'play=heuristic,bid_thresholds=40/56/71/81'
>>> Strategy.parse(str(s)) == s
True
>>> Strategy(follow_min_defence=8).label
'play=heuristic,follow_min_defence=8'

The policies, the options, their ranges and defaults are those of the registry,
`tarotsim.players.policies`: this module checks a strategy against it and writes the seat's
block of the kernels' ``cfg`` array (slots ``engine.kernels.state.P_*``, [`Strategy.block`][tarotsim.players.strategy.Strategy.block]).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from tarotsim.engine.labels import BANDS_HAND_CARDS, CONTRACTS, PUBLISHED_BANDS, TABLE_SIZES, Side
from tarotsim.players import policies as R
from tarotsim.players.bidder import load_bidder
from tarotsim.players.policies import (
    DECISIONS,
    DEFAULT_BID_ROLLOUT,
    DEFAULT_BID_WORLDS,
    DEFAULT_DROP,
    DEFAULT_ENDGAME,
    DEFAULT_WORLDS,
    DEFAULTS,
    OPTIONS,
    WORLDS_GAIN_ENOUGH,
    Option,
    check_policy_name,
    policy_names,
)

__all__ = [
    "DEFAULT_BID_ROLLOUT",
    "DEFAULT_BID_WORLDS",
    "DEFAULT_DROP",
    "DEFAULT_ENDGAME",
    "DEFAULT_WORLDS",
    "KEYS",
    "TUNABLES",
    "WORLDS_GAIN_ENOUGH",
    "Strategy",
    "default_bid_thresholds",
    "to_strategy",
]

POLICY_DEFAULTS: dict[str, str] = DEFAULTS
"""The policies of ``Strategy()`` (``policies.DEFAULTS``), the same for every run."""

DECISION_KEYS: tuple[str, ...] = tuple(DECISIONS)
"""The decisions a strategy chooses a policy for (``policies.DECISIONS``): its first keys."""
SIDE_KEYS = ("attack_play", "defence_play")
"""Card play on one side only, overriding ``play``."""

KEYS: tuple[str, ...] = (
    *DECISION_KEYS,
    "act",
    "params",
    *SIDE_KEYS,
    *(name for name, option in OPTIONS.items() if option.decision != "play"),
    "name",
    *(name for name, option in OPTIONS.items() if option.decision == "play"),
)
"""Every key of a strategy spec, in the order ``str()`` writes them: the decisions, the
Python player of every decision, a Numba player's numbers, the side overrides, the options
of the registry (``tarotsim.players.policies.OPTIONS``) and ``name``."""

CARD_STAND_IN = "random"
"""The card-play policy name a strategy with a Numba card player holds as ``play`` (no
option reads it, it searches nothing): its seats play by the function
(``Strategy.card_function``), but on a side given a named policy (``attack_play``,
``defence_play``)."""
BID_STAND_IN = "chavey"
"""The bid policy name a strategy with a Numba bidder holds as ``bid`` (it searches
nothing); its seats bid by the function (``Strategy.bid_function``)."""

ATTACK = Side.ATTACK.label
DEFENCE = Side.DEFENCE.label

TUNABLES: dict[str, Option] = {name: o for name, o in OPTIONS.items() if o.side is not None}
"""The card-play options read on one side (the heuristic's tunable constants)."""


def default_bid_thresholds(players: int) -> tuple[int, int, int, int]:
    """Chavey's published bands (``engine.labels.PUBLISHED_BANDS``) scaled by the cards in a hand.

    >>> default_bid_thresholds(3)
    (53, 75, 95, 108)
    """
    hand = TABLE_SIZES[players][0]
    bands = tuple(round(PUBLISHED_BANDS[c] * hand / BANDS_HAND_CARDS) for c in CONTRACTS)
    return cast("tuple[int, int, int, int]", bands)


def _policy(key: str, name: object) -> str:
    """A decision's policy, or a side's card play, checked against the registry's names."""
    return check_policy_name(key, name, policy_names("play" if key in SIDE_KEYS else key))


def _bidder(bid: str, value: object) -> str | None:
    """The ``bidder`` option: a readable bidder file's path, given exactly when ``bid=learned``."""
    learned = bid == "learned"
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
    """How one seat plays: a policy per decision and their options, checked when made.

    Parameters
    ----------
    play, bid, call, ecart, poignee, chelem : str
        The policy of each decision, by name (``tarotsim.players.policies``; defaults
        `POLICY_DEFAULTS`: heuristic play, Chavey's bids, the expert écart). ``play``
        may also be a Python player (``tarotsim.interfaces.python_players``) or a Numba card player, a
        ``@numba.njit`` function ``card(view, legal0, legal1, options) -> int``
        (``docs/player.md``), compiled for that signature here; ``bid`` may be a Numba
        bidder, ``bid(view, options) -> int`` (the contract it wishes to play, 0 pass … 4
        garde contre). Either may be named by import path, ``"mypkg.players:cautious"``
        (``module:attribute``; ``tarotsim.players.hooks.load_player``), and ``str()`` writes such
        a player's import path back (``hooks.import_name``), so that a run directory or a
        Dask worker can load it.
    act : player, optional
        A Python player that takes every decision (or its import path).

    **options
        ``attack_play``, ``defence_play`` (card play on one side, overriding ``play``),
        ``name`` (a short label for records and reports), ``params`` (a Numba player's
        numbers, its ``options`` argument: float64[n]), and the options of the registry
        (``tarotsim.players.policies.OPTIONS``, listed in ``docs/policies.md``): the heuristic's
        tunable constants (`TUNABLES`), the ``pimc`` options (``worlds``, ``endgame``,
        ``rollout``, ``drop``, ``knowledge``, ``infer``), the bidders' (``bid_thresholds``, ``bid_worlds``,
        ``bid_rollout``, ``bid_rollout_worlds``, ``bidder``) and ``chelem_threshold``. An option departing from its
        default needs a policy that reads it (on its side, for a one-side option).

    Raises
    ------
    ValueError
        For an unknown key or policy name (the message lists the valid ones), a value out
        of its range, an option set without a policy that reads it, ``bid_rollout_worlds``
        without ``bid_rollout=pimc``, ``bid_rollout=pimc`` with ``infer=heuristic``, ``bid=learned``
        without a readable ``bidder`` file, a ``bidder`` without ``bid=learned``, or an
        import path whose module cannot be imported or has no such attribute.
    TypeError
        For a value of the wrong type, a Numba card player of the wrong signature, or an
        import path naming something that is not a player of its key.
    """

    play: str
    bid: str
    call: str
    ecart: str
    poignee: str
    chelem: str
    attack_play: str | None
    defence_play: str | None
    bid_thresholds: tuple[int, int, int, int] | None
    bid_worlds: int
    bid_rollout: str
    bid_rollout_worlds: int
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
    knowledge: str
    infer: str
    player: Any  # a Python player (tarotsim.interfaces.python_players), None for the built-in policies alone
    acts_all: bool  # whether the Python player takes every decision (act=) or the card play (play=)
    card_function: Any  # a Numba card player (tarotsim.players.users), None for the built-in card play
    bid_function: Any  # a Numba bidder (tarotsim.players.users), None for the built-in bid policy
    params: tuple[float, ...]  # the Numba functions' numbers, their ``options`` argument

    def __init__(
        self,
        play: Any = DEFAULTS["play"],
        bid: Any = DEFAULTS["bid"],
        call: str = DEFAULTS["call"],
        ecart: str = DEFAULTS["ecart"],
        poignee: str = DEFAULTS["poignee"],
        chelem: str = DEFAULTS["chelem"],
        act: Any = None,
        **options: Any,
    ) -> None:
        player, acts_all, card, bidding = None, False, None, None
        params = options.pop("params", None)
        from tarotsim.players.hooks import is_import_path, is_numba_function, load_player

        play, bid, act = (
            load_player(value, key) if is_import_path(value) else value
            for key, value in (("play", play), ("bid", bid), ("act", act))
        )
        if is_numba_function(bid):
            from tarotsim.players.users import BID, check_params, user_code

            bidding, params = bid, check_params(params)
            user_code(bidding, params, BID)  # compiles it for the bid signature: a TypeError if it cannot
            bid = BID_STAND_IN
        if act is None and is_numba_function(play):
            from tarotsim.players.users import CARD, check_params, user_code

            card, params = play, check_params(params)
            user_code(card, params, CARD)  # compiles it for the card signature: a TypeError if it cannot
            play = CARD_STAND_IN
        elif act is not None or not isinstance(play, str):
            from tarotsim.players.hooks import split_player

            player, acts_all, play = split_player(play, act, DEFAULTS["play"])
        if card is None and bidding is None and params is not None:
            raise ValueError("params= goes with a Numba player (play= or bid= a @numba.njit function)")
        for key in options:
            if key not in KEYS:
                raise ValueError(f"unknown strategy option {key!r}; valid keys: {', '.join(KEYS)}")
        given = {"play": play, "bid": bid, "call": call, "ecart": ecart, "poignee": poignee, "chelem": chelem}
        values: dict[str, Any] = {key: _policy(key, given[key]) for key in DECISION_KEYS}
        for key in SIDE_KEYS:
            side = options.get(key)
            same = card is None and side is not None and _policy(key, side) == values["play"]
            values[key] = None if side is None or same else _policy(key, side)
        values["name"] = None if options.get("name") is None else _name(options["name"])
        values["player"], values["acts_all"] = player, acts_all
        values["card_function"], values["bid_function"] = card, bidding
        values["params"] = () if card is None and bidding is None else params
        for key, option in OPTIONS.items():
            if key == "bidder":
                values[key] = _bidder(values["bid"], options.get(key))
            elif key in options and options[key] is not None:
                values[key] = option.check(options[key])
            else:
                values[key] = option.default_for(self._reader_policy(option, values)[0])
        for key, value in values.items():
            object.__setattr__(self, key, value)
        for option in OPTIONS.values():
            self._check_read(option)
        self._check_bid_rollout()

    @staticmethod
    def _reader_policy(option: Option, values: dict[str, Any]) -> list[str]:
        """The seat's policies of ``option``'s decision that could read it (both sides' card
        plays for a card-play option of no side)."""
        if option.decision != "play":
            return [values[option.decision]]
        sides = {ATTACK: values["attack_play"], DEFENCE: values["defence_play"]}
        wanted = [option.side] if option.side is not None else [ATTACK, DEFENCE]
        return [values["play"] if sides[side] is None else sides[side] for side in wanted]

    def _check_read(self, option: Option) -> None:
        """Refuse ``option`` away from its default when no policy of the seat reads it."""
        policies = self._reader_policy(option, vars(self))
        value = getattr(self, option.name)
        if any(option.read_by(p) for p in policies) or value == option.default_for(policies[0]):
            return
        readers = " or ".join(p.name for p in option.readers())
        meaning = DECISIONS[option.decision]
        if option.decision == "play":
            plays = " and ".join(sorted(set(policies)))
            where = f"plays {plays}" + (f" on the {option.side}" if option.side is not None else "")
        else:
            where = f"has {option.decision}={policies[0]}"
        raise ValueError(f"{option.name} tunes {readers} {meaning}, but this strategy {where}")

    def _check_bid_rollout(self) -> None:
        """Refuse what the ``montecarlo`` bidder's playouts cannot combine: ``bid_rollout_worlds``
        without ``pimc`` playouts, and ``pimc`` playouts weighing their worlds by an auction
        (``infer=heuristic``) that a playout does not hold."""
        if self.bid_rollout != "pimc":
            if self.bid_rollout_worlds != OPTIONS["bid_rollout_worlds"].default:
                raise ValueError(
                    f"bid_rollout_worlds sets the worlds of the bidder's pimc playouts: it needs "
                    f"bid_rollout=pimc, not bid_rollout={self.bid_rollout}"
                )
        elif self.infer != "none":
            raise ValueError(
                f"bid_rollout=pimc cannot be combined with infer={self.infer}: the bidder's playouts "
                "start after the auction, so their pimc has no bids to weigh its worlds by"
            )

    def side_play(self, side: str) -> str:
        """The card-play policy of the seat on ``side`` (``"attack"`` or ``"defence"``)."""
        override = self.attack_play if side == ATTACK else self.defence_play
        return self.play if override is None else override

    @property
    def searches(self) -> bool:
        """Whether one of the seat's policies searches (``pimc`` play, the ``montecarlo``
        bidder: the registry's ``searches`` flag)."""
        chosen = [("play", self.side_play(ATTACK)), ("play", self.side_play(DEFENCE))]
        chosen += [(d, getattr(self, d)) for d in DECISION_KEYS if d != "play"]
        return any(R.policy(decision, name).searches for decision, name in chosen)

    @staticmethod
    def parse(spec: str) -> Strategy:
        """The strategy of a spec such as ``"play=heuristic,bid=chavey,bid_thresholds=40/56/71/81"``.

        ``key=value`` pairs separated by commas (spaces ignored); an empty spec is
        ``Strategy()``. Numbers are whole numbers; ``bid_thresholds`` are four separated
        by ``/``.

        Raises
        ------
        ValueError
            For text that is not ``key=value`` pairs, an empty item, a key given twice, an
            unknown key or value, or a value out of its range.
        """
        items = spec_items(spec)
        return Strategy(**{key: _parse_value(key, text) for key, text in items.items()})

    def __str__(self) -> str:
        return self._spec(with_name=True)

    def _spec(self, *, with_name: bool) -> str:
        """The spec of ``str()``: the card play, then every choice departing from its default
        (the ``name`` only ``with_name``)."""
        from tarotsim.players.hooks import spec_name

        card = self.card_function if self.player is None else self.player
        users = {"act": self.player} if self.acts_all else {"play": card}
        users["bid"] = self.bid_function
        parts = []
        for key in KEYS:
            if users.get(key) is not None:
                parts.append(f"{key}={spec_name(users[key])}")
            elif key == "params":
                if self.params:
                    parts.append("params=" + "/".join(map(_number_text, self.params)))
            elif key == "play" and not self.acts_all:
                parts.append(f"play={self.play}")  # always written, however it plays
            elif key != "act" and (key != "name" or with_name):
                value = getattr(self, key)
                if key in DECISION_KEYS:
                    default: Any = DEFAULTS[key]
                elif key in OPTIONS:
                    option = OPTIONS[key]
                    default = option.default_for(self._reader_policy(option, vars(self))[0])
                else:
                    default = None
                if value != default:
                    text = "/".join(map(str, value)) if isinstance(value, tuple) else str(value)
                    parts.append(f"{key}={text}")
        return ",".join(parts)

    def unnamed_players(self) -> list[str]:
        """The short names of the seat's user players that have no import path
        (``hooks.import_name``): ``str()`` names them, but does not load them back."""
        from tarotsim.players.hooks import import_name, player_name

        users = (self.player, self.card_function, self.bid_function)
        return [player_name(u) for u in users if u is not None and import_name(u) is None]

    @property
    def label(self) -> str:
        """The short label of records and reports: the ``name``, else the spec (``str()``)."""
        return self.name if self.name is not None else str(self)

    @property
    def description(self) -> str:
        """The strategy for a reader of a summary: the ``name`` and then the choices it stands
        for, ``"bold (play=heuristic,ecart=expert,draw_trumps_min=2)"``; without a name, the
        spec (``str()``)."""
        return str(self) if self.name is None else f"{self.name} ({self._spec(with_name=False)})"

    def check(self, players: int) -> None:
        """Raise a ``ValueError`` if the strategy cannot be played at ``players`` players.

        Options counting trumps in a hand must not exceed the cards in a hand there.
        """
        if players not in TABLE_SIZES:
            raise ValueError(f"players must be 3, 4 or 5, got {players}")
        hand = TABLE_SIZES[players][0]
        for key, option in OPTIONS.items():
            value = getattr(self, key)
            if option.kind == "count" and option.high is None and value > hand:
                raise ValueError(
                    f"{key}={value} cannot be met at {players} players ({hand} cards in a hand); "
                    f"use 0 to {hand}"
                )
        if self.bidder is not None:
            load_bidder(self.bidder).check(players, path=self.bidder)

    def block(self, players: int) -> np.ndarray:
        """The seat's block of the kernels' ``cfg`` at ``players`` players: int64[N_SEAT_CFG],
        each policy's code and each option in its slot ``engine.kernels.state.P_*`` (the registry's
        ``Option.slot``).

        Raises
        ------
        ValueError
            If the strategy cannot be played at that table size ([`check`][tarotsim.players.strategy.Strategy.check]).
        """
        from tarotsim.engine.kernels import state as S

        self.check(players)
        out = np.zeros(S.N_SEAT_CFG, dtype=np.int64)
        for slot, side, override in (
            (S.P_PLAY_ATTACK, ATTACK, self.attack_play),
            (S.P_PLAY_DEFENCE, DEFENCE, self.defence_play),
        ):
            if self.card_function is not None and override is None:
                from tarotsim.players.users import CARD, user_code

                out[slot] = user_code(self.card_function, self.params, CARD)
            else:
                out[slot] = R.policy("play", self.side_play(side)).code
        for decision, slot in R.POLICY_SLOTS.items():
            if decision != "play":
                out[getattr(S, slot)] = R.policy(decision, getattr(self, decision)).code
        if self.bid_function is not None:
            from tarotsim.players.users import BID, user_code

            out[S.P_BID_POLICY] = user_code(self.bid_function, self.params, BID)
        for key, option in OPTIONS.items():
            index = option.index
            value = getattr(self, key)
            if option.kind == "count":
                out[index] = value
            elif option.kind == "policy":
                out[index] = R.policy("play", value).code
            elif option.kind == "choice":
                out[index] = option.names().index(value)
            elif option.kind == "thresholds":
                out[index : index + len(CONTRACTS)] = (
                    default_bid_thresholds(players) if value is None else value
                )
            elif value is not None:  # the learned bidder's model
                learned = load_bidder(value).slots()
                out[index : index + len(learned)] = learned
        return out


def spec_items(spec: str) -> dict[str, str]:
    """The ``key=value`` items of a spec, in order, each value as written.

    Raises
    ------
    ValueError
        For text that is not ``key=value`` pairs, an empty item, a key given twice or an
        unknown key.
    """
    if not isinstance(spec, str):
        raise TypeError(f"a strategy spec must be text such as 'play=heuristic', got {spec!r}")
    items: dict[str, str] = {}
    if not spec.strip():
        return items
    for part in (p.strip() for p in spec.split(",")):
        if not part:
            raise ValueError(f"a strategy spec has an empty item (two commas, or one at an end) in {spec!r}")
        key, sep, text = (s.strip() for s in part.partition("="))
        if not sep or not key or not text:
            raise ValueError(
                f"a strategy spec is key=value pairs separated by commas, got {part!r} in {spec!r}"
            )
        if key in items:
            raise ValueError(f"{key} is given twice in {spec!r}")
        if key not in KEYS:
            raise ValueError(f"unknown strategy option {key!r}; valid keys: {', '.join(KEYS)}")
        items[key] = text
    return items


def merge_specs(base: str, over: str) -> str:
    """The spec of ``base`` with the keys of ``over`` set over it (``--strategy`` under a
    duel's ``--a`` and ``--b``).

    >>> merge_specs("play=heuristic,ecart=simple", "play=pimc")
    'play=pimc,ecart=simple'
    """
    items = spec_items(base) | spec_items(over)
    return ",".join(f"{key}={text}" for key, text in items.items())


def _parse_value(key: str, text: str) -> Any:
    """The Python value of ``key`` written as ``text`` in a spec (``Option.parse``)."""
    if key == "params":
        try:
            return tuple(float(word) for word in text.split("/"))
        except ValueError:
            raise ValueError(
                f"params are numbers separated by '/', such as params=0.5/3, got {text!r}"
            ) from None
    return OPTIONS[key].parse(text) if key in OPTIONS else text


def _number_text(value: float) -> str:
    """``value`` as a spec writes it: short (``1``, ``0.5``) where that reads back exactly."""
    short = f"{value:g}"
    return short if float(short) == value else repr(value)


def to_strategy(value: Strategy | str) -> Strategy:
    """``value`` itself, or the strategy its spec describes ([`Strategy.parse`][tarotsim.players.strategy.Strategy.parse])."""
    if isinstance(value, Strategy):
        return value
    if isinstance(value, str):
        return Strategy.parse(value)
    from tarotsim.players.hooks import is_numba_function, is_player

    if is_numba_function(value):
        return Strategy(play=value)
    if is_player(value):
        return Strategy(act=value)
    raise TypeError(f"a strategy is a Strategy, a spec such as 'play=heuristic' or a player, got {value!r}")
