"""The ``learned`` bidder's file: a versioned, human-readable JSON model, and its place in ``cfg``.

A bidder file (written by ``tarotsim fit-bidder``, [`tarotsim.analysis.fit_bidder`][tarotsim.analysis.fit_bidder])
holds, for each contract, a linear prediction of the taker's score (game points) from the
features of the hand as dealt (``engine.labels.HAND_FEATURES``): an intercept and one coefficient
per feature. The ``learned`` bid policy wishes the contract with the highest prediction,
and passes when none is above 0 (``kernels.policies.bidding.learned_wish``).

The file, e.g.::

    {
      "format": "tarotsim-bidder",
      "version": 1,
      "players": 4,
      "hand_cards": 18,
      "unit": "taker score, game points per deal",
      "features": ["petit_short", ...],
      "coefficients": {"prise": {"intercept": -31.2, "petit_short": 4.1, ...}, ...},
      "source": {"run": "...", "seed": 2024, "deals": 10000000, "sample": 1000000, ...}
    }

`load_bidder` checks all of it and raises a one-line ``ValueError`` a player
understands for a missing, unreadable or malformed file; `Bidder.check` refuses a
file made for another table size.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from tarotsim.engine.labels import CONTRACTS, HAND_FEATURES, TABLE_SIZES

FORMAT = "tarotsim-bidder"
"""The ``format`` field of every bidder file."""
VERSION = 1
"""The version of the bidder file this tarotsim reads and writes."""
INTERCEPT = "intercept"
"""The name of each contract's constant term in a bidder file."""
UNIT = "taker score, game points per deal"
"""What a bidder's coefficients predict."""


@dataclass(frozen=True)
class Bidder:
    """A learned bidder: per contract, an intercept and one coefficient per hand feature.

    Attributes
    ----------
    players : int
        The table size the model was fitted at (3, 4 or 5).
    coefficients : dict[str, dict[str, float]]
        Contract label → {``"intercept"`` and each name of ``engine.labels.HAND_FEATURES``: game
        points of predicted taker score}.
    source : dict
        Where the model comes from (run directory, seed, deals, sample, …), kept as written.
    """

    players: int
    coefficients: dict[str, dict[str, float]]
    source: dict[str, Any] = field(default_factory=dict)

    def predict(self, features: np.ndarray) -> np.ndarray:
        """Predicted taker score (points) of each contract: ``features`` int[n, N_FEATURES] →
        float[n, 4], columns in ``engine.labels.CONTRACTS`` order."""
        weights = np.array([[self.coefficients[c][f] for f in HAND_FEATURES] for c in CONTRACTS])
        intercepts = np.array([self.coefficients[c][INTERCEPT] for c in CONTRACTS])
        return np.asarray(features, dtype=float) @ weights.T + intercepts

    def slots(self) -> np.ndarray:
        """The model as the kernels read it: int64[N_LEARNED_CONTRACTS * LEARNED_ROW], the
        slots from ``P_LEARNED_0`` of a seat's block, in fixed point (``LEARNED_SCALE``)."""
        from tarotsim.engine.kernels import state as S

        out = np.zeros(S.N_LEARNED_CONTRACTS * S.LEARNED_ROW, dtype=np.int64)
        for c, contract in enumerate(CONTRACTS):
            row = self.coefficients[contract]
            out[c * S.LEARNED_ROW] = round(row[INTERCEPT] * S.LEARNED_SCALE)
            for name, k in HAND_FEATURES.items():
                out[c * S.LEARNED_ROW + 1 + k] = round(row[name] * S.LEARNED_SCALE)
        return out

    def check(self, players: int, *, path: str | os.PathLike[str] = "the bidder file") -> None:
        """Raise a ``ValueError`` if the model was fitted at another table size than ``players``."""
        if players != self.players:
            raise ValueError(
                f"{path} was fitted at {self.players} players and cannot bid at {players}; "
                f"fit one from a {players}-player sweep (tarotsim fit-bidder)"
            )

    def to_json(self) -> dict[str, Any]:
        """The file's contents as a JSON-ready dict (see the module docstring)."""
        hand = TABLE_SIZES[self.players][0]
        return {
            "format": FORMAT,
            "version": VERSION,
            "players": self.players,
            "hand_cards": hand,
            "unit": UNIT,
            "features": list(HAND_FEATURES),
            "coefficients": {
                c: {INTERCEPT: self.coefficients[c][INTERCEPT]}
                | {f: self.coefficients[c][f] for f in HAND_FEATURES}
                for c in CONTRACTS
            },
            "source": self.source,
        }

    def summary(self, *, top: int = 3) -> str:
        """A few lines for a person: what the model predicts, and per contract its intercept
        and the ``top`` features that weigh most (game points per unit of the feature)."""
        source = self.source
        fitted = ", ".join(
            f"{name} {source[key]:,}"
            if isinstance(source[key], int) and key != "seed"
            else f"{name} {source[key]}"
            for key, name in (("deals", "deals"), ("sample", "sampled"), ("seed", "seed"))
            if key in source
        )
        lines = [
            f"learned bidder, {self.players} players: each contract's predicted taker score (points) "
            f"from {len(HAND_FEATURES)} hand features;",
            "it bids the contract predicted best, and passes when none is above 0",
        ]
        if "run" in source:
            lines.append(f"fitted on the sweep {source['run']} ({fitted})")
        for contract in CONTRACTS:
            row = self.coefficients[contract]
            heaviest = sorted(HAND_FEATURES, key=lambda f: -abs(row[f]))[:top]
            weights = ", ".join(f"{f} {_number_text(row[f], '+.1f')}" for f in heaviest)
            lines.append(f"  {contract:<13} starts at {_number_text(row[INTERCEPT]):>6}; heaviest: {weights}")
        return "\n".join(lines)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the bidder file at ``path`` (indented JSON), whole or not at all.

        Raises
        ------
        ValueError
            If it cannot be written; ``path`` is then left as it was.
        """
        from tarotsim.base.files import write_text_atomic

        write_text_atomic(path, json.dumps(self.to_json(), indent=2) + "\n")


def _number_text(value: float, fmt: str = ".1f") -> str:
    """``value`` formatted for people, with a true minus sign."""
    return format(value, fmt).replace("-", "\u2212")


def _malformed(path: str | os.PathLike[str], what: str) -> ValueError:
    return ValueError(f"{path} is not a usable bidder file: {what} (make one with tarotsim fit-bidder)")


def from_json(data: object, path: str | os.PathLike[str] = "the bidder file") -> Bidder:
    """The bidder a parsed bidder file describes; a one-line ``ValueError`` for anything amiss."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _malformed(path, f"its format is not {FORMAT!r}")
    if data.get("version") != VERSION:
        raise _malformed(
            path, f"it is version {data.get('version')!r}, this tarotsim reads version {VERSION}"
        )
    players = data.get("players")
    if isinstance(players, bool) or players not in TABLE_SIZES:
        raise _malformed(path, f"players must be 3, 4 or 5, got {players!r}")
    if data.get("hand_cards") != TABLE_SIZES[players][0]:
        raise _malformed(path, f"hand_cards {data.get('hand_cards')!r} does not match {players} players")
    if data.get("features") != list(HAND_FEATURES):
        raise _malformed(path, "its features are not this tarotsim's hand features (labels.HAND_FEATURES)")
    table = data.get("coefficients")
    if not isinstance(table, dict) or sorted(table) != sorted(CONTRACTS):
        raise _malformed(path, f"coefficients must give one row per contract ({', '.join(CONTRACTS)})")
    from tarotsim.engine.kernels import state as S

    names = [INTERCEPT, *HAND_FEATURES]
    coefficients: dict[str, dict[str, float]] = {}
    for contract in CONTRACTS:
        row = table[contract]
        if not isinstance(row, dict) or sorted(row) != sorted(names):
            raise _malformed(path, f"the {contract} row must give the intercept and every feature")
        values = {}
        for name in names:
            value = row[name]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise _malformed(path, f"{contract} {name} must be a finite number, got {value!r}")
            if abs(value) * S.LEARNED_SCALE >= 2**40:
                raise _malformed(path, f"{contract} {name} = {value} is out of range")
            values[name] = float(value)
        coefficients[contract] = values
    source = data.get("source", {})
    if not isinstance(source, dict):
        raise _malformed(path, "source must be an object")
    return Bidder(players, coefficients, source)


def load_bidder(path: str | os.PathLike[str]) -> Bidder:
    """The bidder in the file ``path``.

    Raises
    ------
    ValueError
        One line naming the file: missing, unreadable, not JSON, or not a bidder file of
        this version (see `from_json`).
    """
    resolved = Path(path)
    try:
        stat = resolved.stat()
    except OSError:
        raise ValueError(f"bidder file {str(path)!r} not found (make one with tarotsim fit-bidder)") from None
    return _load(str(resolved.resolve()), stat.st_mtime_ns, stat.st_size, str(path))


@lru_cache(maxsize=16)
def _load(resolved: str, mtime_ns: int, size: int, shown: str) -> Bidder:
    """Read and check a bidder file once per version of it on disk (the key holds its mtime and size)."""
    try:
        text = Path(resolved).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ValueError(f"bidder file {shown!r} cannot be read ({type(err).__name__})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"bidder file {shown!r} is not JSON ({err.msg}, line {err.lineno})") from None
    return from_json(data, repr(shown))
