"""The run configuration: every choice besides the seed that decides a run's deals, validated here.

A run is the table (players, dealing, a forced taker and contract for sweeps) plus one
[`Strategy`][tarotsim.players.strategy.Strategy] per seat. The policy keywords of [`RunConfig`][tarotsim.players.config.RunConfig]
(``policy=``, ``ecart_policy=``, ``bid_thresholds=`` …) are a shorthand for one strategy at
every seat, with the same defaults (``tarotsim.players.policies.DEFAULTS``: heuristic play, Chavey's
bids, the expert écart). ``RunConfig.to_array`` is the ``cfg`` array a run hands the kernels.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any, TypedDict

import numpy as np

from tarotsim.engine.labels import DEALINGS, TABLE_SIZES, check_players, parse_contract
from tarotsim.players.policies import DEFAULT_CHELEM_THRESHOLD, DEFAULTS, check_thresholds
from tarotsim.players.strategy import Strategy, default_bid_thresholds, to_strategy

MAX_COUNT = int(np.iinfo(np.int64).max)
"""Largest count the kernels' ``cfg`` array (int64) holds."""


def check_count(value: object, name: str, *, minimum: int = 0, maximum: int = MAX_COUNT) -> int:
    """``value`` as an int from ``minimum`` to ``maximum``, or a ``TypeError``/``ValueError`` naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be a whole number, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    if value > maximum:
        raise ValueError(f"{name} must be at most {maximum}, got {value}")
    return int(value)


def check_threads(threads: int | None) -> int:
    """Number of threads to use: ``threads`` if valid, else every thread Numba may start."""
    import numba  # Numba itself only when threads are chosen: the command line starts without it

    most: int = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]
    if threads is None:
        return most
    threads = check_count(threads, "threads", minimum=1)
    if threads > most:
        raise ValueError(f"threads must be between 1 and {most} on this machine, got {threads}")
    return threads


def _pick(kind: str, name: str, table: dict[str, int]) -> int:
    if not isinstance(name, str):
        raise TypeError(f"{kind} must be a policy name (a string), got {name!r}")
    if name not in table:
        valid = ", ".join(sorted(table))
        raise ValueError(f"unknown {kind} {name!r}; valid names: {valid}")
    return table[name]


@dataclass(frozen=True)
class RunConfig:
    """Everything besides the seed that decides a run's deals; checked when made.

    Parameters
    ----------
    players : int
        Players at the table: 3, 4 or 5.
    policy, attack_policy, defence_policy : str
        Card-play policy of every seat (``policies.PLAY_POLICIES``; default ``heuristic``), and
        overrides for the attack or the defence (None: ``policy``): a strategy's ``play``,
        ``attack_play`` and ``defence_play``.
    bid_policy, ecart_policy, poignee_policy, chelem_policy : str
        Bidding, écart, poignée and chelem-announcement policies (``labels.*_POLICIES``;
        defaults ``chavey``, ``expert``, ``always``, ``never``): a strategy's ``bid``,
        ``ecart``, ``poignee`` and ``chelem``.
    bid_thresholds : tuple of four ints, optional
        Chavey counts from which the ``chavey`` bidder wishes a Prise, a Garde, a Garde
        sans and a Garde contre (default: ``engine.labels.PUBLISHED_BANDS`` at 4 players, scaled
        by the cards in a hand).
    bidder : str, optional
        The bidder file (``tarotsim fit-bidder``) of ``bid_policy="learned"``, which needs
        it; None otherwise.
    chelem_threshold : int
        Count (with the distribution bonus) from which ``chelem_policy="overwhelming"``
        announces a chelem.
    forced_taker, forced_contract : int, str
        With a contract label: that seat takes that contract on every deal, the others
        pass (None: the bidding decides).
    dealing : str
        ``engine.labels.DEALINGS``: a uniformly shuffled pack every deal, or the casual table's
        gathered, cut and unshuffled pack (docs/rules.md §10).
    strategies : sequence of Strategy or str, optional
        One strategy per seat (a [`Strategy`][tarotsim.players.strategy.Strategy] or its spec), in
        place of the policy options above, which then keep their defaults. None: every
        seat plays the policy options.

    Raises
    ------
    ValueError, TypeError
        For an unknown name, a table size other than 3, 4 or 5, thresholds that are not
        four increasing counts, a taking seat off the table, or strategies that are not
        one per seat, not valid at the table size, or given with policy options.
    """

    players: int = 4
    policy: str = DEFAULTS["play"]
    attack_policy: str | None = None
    defence_policy: str | None = None
    bid_policy: str = DEFAULTS["bid"]
    ecart_policy: str = DEFAULTS["ecart"]
    poignee_policy: str = DEFAULTS["poignee"]
    chelem_policy: str = DEFAULTS["chelem"]
    bid_thresholds: tuple[int, int, int, int] | None = None
    bidder: str | None = None
    chelem_threshold: int = DEFAULT_CHELEM_THRESHOLD
    forced_taker: int = -1
    forced_contract: str | None = None
    dealing: str = "shuffled"
    strategies: tuple[Strategy, ...] | None = None

    def __post_init__(self) -> None:
        players = check_players(self.players)
        object.__setattr__(self, "players", players)
        thresholds = self.bid_thresholds
        thresholds = default_bid_thresholds(players) if thresholds is None else check_thresholds(thresholds)
        object.__setattr__(self, "bid_thresholds", thresholds)
        object.__setattr__(self, "chelem_threshold", check_count(self.chelem_threshold, "chelem_threshold"))
        if isinstance(self.bidder, os.PathLike):
            object.__setattr__(self, "bidder", os.fspath(self.bidder))
        if self.forced_contract is not None:
            seat = check_count(self.forced_taker, "the taking seat")
            if seat >= players:
                raise ValueError(f"the taking seat must be 0 to {players - 1}, got {seat}")
            object.__setattr__(self, "forced_taker", seat)
        if self.strategies is not None:
            object.__setattr__(self, "strategies", self._check_strategies(self.strategies))
        self.to_array()  # checks every name

    def _check_strategies(self, strategies: object) -> tuple[Strategy, ...]:
        if isinstance(strategies, (str, Strategy)) or not isinstance(strategies, Sequence):
            raise TypeError(f"strategies must be a list of one strategy per seat, got {strategies!r}")
        if len(strategies) != self.players:
            raise ValueError(
                f"strategies must give one strategy per seat ({self.players} at {self.players} players), "
                f"got {len(strategies)}"
            )
        given = [
            f.name for f in fields(self) if f.name in _POLICY_FIELDS and getattr(self, f.name) != f.default
        ]
        if self.bid_thresholds != default_bid_thresholds(self.players):
            given.append("bid_thresholds")
        if self.chelem_threshold != DEFAULT_CHELEM_THRESHOLD:
            given.append("chelem_threshold")
        if self.bidder is not None:
            given.append("bidder")
        if given:
            raise ValueError(f"strategies set every seat's policies: leave {', '.join(given)} unset")
        checked = tuple(to_strategy(s) for s in strategies)
        for strategy in checked:
            strategy.check(self.players)
        return checked

    def seat_strategies(self) -> tuple[Strategy, ...]:
        """Each seat's strategy: ``strategies``, or the one strategy of the policy options."""
        if self.strategies is not None:
            return self.strategies
        return (self.shorthand_strategy(),) * self.players

    def shorthand_strategy(self) -> Strategy:
        """The strategy the policy options describe (the table's own bid thresholds are
        the strategy's default, so they are left out of it)."""
        thresholds = self.bid_thresholds
        return Strategy(
            play=self.policy,
            bid=self.bid_policy,
            ecart=self.ecart_policy,
            poignee=self.poignee_policy,
            chelem=self.chelem_policy,
            attack_play=self.attack_policy,
            defence_play=self.defence_policy,
            bid_thresholds=None if thresholds == default_bid_thresholds(self.players) else thresholds,
            bidder=self.bidder,
            chelem_threshold=self.chelem_threshold,
        )

    @property
    def searches(self) -> bool:
        """Whether a seat's strategy searches (``Strategy.searches``)."""
        return any(s.searches for s in self.seat_strategies())

    def to_array(self) -> np.ndarray:
        """The kernels' ``cfg`` array: int64[N_CFG], slots ``engine.kernels.state.C_*`` and each
        seat's block (``Strategy.block``)."""
        from tarotsim.engine.kernels import state as C

        cfg = np.zeros(C.N_CFG, dtype=np.int64)
        hand, chien = TABLE_SIZES[self.players]
        cfg[C.C_PLAYERS] = self.players
        cfg[C.C_HAND] = hand
        cfg[C.C_CHIEN] = chien
        for seat, strategy in enumerate(self.seat_strategies()):
            start = C.C_SEATS + seat * C.N_SEAT_CFG
            cfg[start : start + C.N_SEAT_CFG] = strategy.block(self.players)
        cfg[C.C_DEALING] = _pick("dealing", self.dealing, DEALINGS)
        if self.forced_contract is None:
            cfg[C.C_FORCED_TAKER] = -1
            cfg[C.C_FORCED_CONTRACT] = 0
        else:
            cfg[C.C_FORCED_TAKER] = self.forced_taker
            cfg[C.C_FORCED_CONTRACT] = parse_contract(self.forced_contract)
        return cfg

    def as_dict(self) -> dict[str, Any]:
        """Plain dict for manifests and comparisons (tuples become lists)."""
        out = asdict(self)
        out["bid_thresholds"] = list(self.bid_thresholds or ())
        del out["strategies"]
        if self.bidder is None:  # absent, as in the manifests of runs before the learned bidder
            del out["bidder"]
        if self.strategies is not None:  # absent otherwise, as in the manifests of runs before strategies
            out["strategies"] = [str(s) for s in self.strategies]
        return out


class RunOptions(TypedDict, total=False):
    """The fields of [`RunConfig`][tarotsim.players.config.RunConfig] as keywords, which ``simulate`` and ``sweep`` take
    in place of a ``config``."""

    players: int
    policy: str
    attack_policy: str | None
    defence_policy: str | None
    bid_policy: str
    ecart_policy: str
    poignee_policy: str
    chelem_policy: str
    bid_thresholds: tuple[int, int, int, int] | None
    bidder: str | None
    chelem_threshold: int
    forced_taker: int
    forced_contract: str | None
    dealing: str
    strategies: Sequence[Strategy | str] | None


_POLICY_FIELDS = (
    "policy",
    "attack_policy",
    "defence_policy",
    "bid_policy",
    "ecart_policy",
    "poignee_policy",
    "chelem_policy",
)
"""The policy fields that ``strategies`` replace (besides the thresholds)."""


def make_config(config: RunConfig | None, options: Mapping[str, Any]) -> RunConfig:
    """The configuration of a call that takes either ``config`` or the options as keywords.

    Parameters
    ----------
    config : RunConfig, optional
        The configuration, used as it is.
    options : mapping
        Instead of ``config``: fields of ``RunConfig`` by name.

    Raises
    ------
    TypeError
        For an option that is not a field of ``RunConfig``, a ``config`` that is not a
        ``RunConfig``, or a ``config`` given together with options.
    ValueError
        For an invalid option (see ``RunConfig``).
    """
    names = [f.name for f in fields(RunConfig)]
    for name in options:
        if name not in names:
            raise TypeError(f"unknown option {name!r}; valid options: {', '.join(names)}")
    if config is None:
        return RunConfig(**options)
    if not isinstance(config, RunConfig):
        raise TypeError(f"config must be a RunConfig, got {config!r}")
    if options:
        raise TypeError(f"give either config or options such as {next(iter(options))}=, not both")
    return config
