"""The run configuration: every choice besides the seed that decides a run's deals, validated here.

Its names (policies, contracts, dealings) come from :mod:`tarotsim.labels`; ``RunConfig.to_array``
is the ``cfg`` array a run hands the kernels.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, cast

import numpy as np

from tarotsim.kernels import state as C
from tarotsim.labels import (
    BANDS_HAND_CARDS,
    BID_POLICIES,
    CHELEM_POLICIES,
    CONTRACTS,
    DEALINGS,
    DEFAULT_CHELEM_THRESHOLD,
    ECART_POLICIES,
    PLAY_POLICIES,
    POIGNEE_POLICIES,
    PUBLISHED_BANDS,
    TABLE_SIZES,
    parse_contract,
)


def default_bid_thresholds(players: int) -> tuple[int, int, int, int]:
    """Chavey's published bands (``labels.PUBLISHED_BANDS``) scaled by the cards in a hand.

    >>> default_bid_thresholds(3)
    (53, 75, 95, 108)
    """
    hand = TABLE_SIZES[players][0]
    bands = tuple(round(PUBLISHED_BANDS[c] * hand / BANDS_HAND_CARDS) for c in CONTRACTS)
    return cast("tuple[int, int, int, int]", bands)


def _pick(kind: str, name: str, table: dict[str, int]) -> int:
    if not isinstance(name, str):
        raise TypeError(f"{kind} must be a policy name (a string), got {name!r}")
    if name not in table:
        valid = ", ".join(sorted(table))
        raise ValueError(f"unknown {kind} {name!r}; valid names: {valid}")
    return table[name]


def check_players(players: Any) -> int:
    """The number of players as an int, or a ``ValueError`` a player understands."""
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)):
        raise TypeError(f"players must be an integer (3, 4 or 5), got {players!r}")
    players = int(players)
    if players not in TABLE_SIZES:
        raise ValueError(f"players must be 3, 4 or 5, got {players}")
    return players


@dataclass(frozen=True)
class RunConfig:
    """Everything besides the seed that decides a run's deals.

    ``policy`` sets the card play of every seat; ``attack_policy`` and
    ``defence_policy`` override it by side.
    """

    players: int = 4
    policy: str = "random"
    attack_policy: str | None = None
    defence_policy: str | None = None
    bid_policy: str = "chavey"
    ecart_policy: str = "simple"
    poignee_policy: str = "always"
    chelem_policy: str = "never"
    bid_thresholds: tuple[int, int, int, int] | None = None
    chelem_threshold: int = DEFAULT_CHELEM_THRESHOLD
    forced_taker: int = -1
    forced_contract: str | None = None
    dealing: str = "shuffled"

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", check_players(self.players))
        if self.bid_thresholds is None:
            object.__setattr__(self, "bid_thresholds", default_bid_thresholds(self.players))
        self.to_array()  # validates every name

    def to_array(self) -> np.ndarray:
        """The int64 ``cfg`` array of ``tarotsim.kernels.config``."""
        cfg = np.zeros(C.N_CFG, dtype=np.int64)
        hand, chien = TABLE_SIZES[self.players]
        cfg[C.C_PLAYERS] = self.players
        cfg[C.C_HAND] = hand
        cfg[C.C_CHIEN] = chien
        play = _pick("policy", self.policy, PLAY_POLICIES)
        cfg[C.C_PLAY_ATTACK] = play if self.attack_policy is None else _pick("attack policy", self.attack_policy, PLAY_POLICIES)
        cfg[C.C_PLAY_DEFENCE] = play if self.defence_policy is None else _pick("defence policy", self.defence_policy, PLAY_POLICIES)
        cfg[C.C_BID_POLICY] = _pick("bid policy", self.bid_policy, BID_POLICIES)
        cfg[C.C_ECART_POLICY] = _pick("ecart policy", self.ecart_policy, ECART_POLICIES)
        cfg[C.C_POIGNEE_POLICY] = _pick("poignee policy", self.poignee_policy, POIGNEE_POLICIES)
        cfg[C.C_CHELEM_POLICY] = _pick("chelem policy", self.chelem_policy, CHELEM_POLICIES)
        thresholds = tuple(int(t) for t in self.bid_thresholds)
        if len(thresholds) != 4 or list(thresholds) != sorted(thresholds):
            raise ValueError(
                "bid_thresholds must be four increasing Chavey counts (Prise, Garde, Garde sans, "
                f"Garde contre), got {self.bid_thresholds!r}"
            )
        cfg[C.C_BID_PRISE : C.C_BID_GARDE_CONTRE + 1] = thresholds
        cfg[C.C_CHELEM_THRESHOLD] = int(self.chelem_threshold)
        cfg[C.C_DEALING] = _pick("dealing", self.dealing, DEALINGS)
        if self.forced_contract is None:
            cfg[C.C_FORCED_TAKER] = -1
            cfg[C.C_FORCED_CONTRACT] = 0
        else:
            contract = parse_contract(self.forced_contract)
            if not 0 <= int(self.forced_taker) < self.players:
                raise ValueError(
                    f"the taking seat must be 0 to {self.players - 1}, got {self.forced_taker}"
                )
            cfg[C.C_FORCED_TAKER] = int(self.forced_taker)
            cfg[C.C_FORCED_CONTRACT] = contract
        return cfg

    def as_dict(self) -> dict[str, Any]:
        """Plain dict for manifests and comparisons (tuples become lists)."""
        out = asdict(self)
        out["bid_thresholds"] = list(self.bid_thresholds)
        return out
