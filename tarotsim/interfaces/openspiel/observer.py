"""What a seat observes: OpenSpiel's observer ([`TarotObserver`][tarotsim.interfaces.openspiel.observer.TarotObserver]) for each observation
type, its tensor made of the named fields of `tarotsim.Observation.tensor` and its strings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from tarotsim.engine.cards import N_CARDS
from tarotsim.engine.kernels.state import MAX_SEATS
from tarotsim.interfaces.game import TENSOR_FIELDS, TENSOR_LENGTH, Observation
from tarotsim.interfaces.openspiel.cardsets import _IDS, _NAMES, _TRUMPS, _ids, _mask, _names
from tarotsim.interfaces.openspiel.spec import MAX_ECART, MAX_TRICKS, _Spec

_PRIVATE_FIELDS = frozenset({"hand", "attack"})
"""Fields of ``Observation.tensor`` that only the seat knows (the écart is mixed: its trumps
are shown, the rest is the taker's)."""


_FIELD_AT: dict[str, tuple[int, int]] = {}
_start = 0
for _name, _size in TENSOR_FIELDS:
    _FIELD_AT[_name] = (_start, _size)
    _start += _size
assert _start == TENSOR_LENGTH
assert _PRIVATE_FIELDS | {"ecart", "seat"} <= set(_FIELD_AT), (
    "the observer splits fields the tensor no longer has"
)


class TarotObserver:
    """OpenSpiel's observer (``game.make_py_observer``) for an observation type.

    The tensor is made of named parts (``observer.dict``): the fields of
    `tarotsim.Observation.tensor` (``tarotsim.interfaces.game.TENSOR_FIELDS``) that the type
    shows — public fields with ``public_info``, the seat's ``hand`` and its side (``attack``)
    with private information, the écart as the seat knows it (its shown trumps alone
    without private information) — then, with ``perfect_recall``, ``trick_of_card``
    (78 × 24: one-hot of the trick in which each card was played) and, with private
    information, ``ecart_order`` (6 × 78: the taker's écart in laying order); with every
    seat's private information, ``deal`` ((MAX_SEATS + 2) × 78: each hand, the chien, the
    écart). The strings: `tarotsim.Observation.info_string` for a seat's own view
    (plus, with perfect recall, the taker's laying order), else its public or private lines.
    """

    def __init__(self, spec: _Spec, iig_obs_type: pyspiel.IIGObservationType, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.spec = spec
        self.public = bool(iig_obs_type.public_info)
        self.private = iig_obs_type.private_info
        self.recall = bool(iig_obs_type.perfect_recall)
        has_private = self.private != pyspiel.PrivateInfoType.NONE
        pieces: list[tuple[str, int, tuple[int, ...]]] = []
        for name, size in TENSOR_FIELDS:
            private = name in _PRIVATE_FIELDS
            if name == "ecart" or name == "seat" or (has_private if private else self.public):
                pieces.append((name, size, (size,)))
        if self.recall and self.public:
            pieces.append(("trick_of_card", N_CARDS * MAX_TRICKS, (N_CARDS, MAX_TRICKS)))
        if self.recall and has_private:
            pieces.append(("ecart_order", MAX_ECART * N_CARDS, (MAX_ECART, N_CARDS)))
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            pieces.append(("deal", (MAX_SEATS + 2) * N_CARDS, (MAX_SEATS + 2, N_CARDS)))
        self.tensor = np.zeros(sum(size for _, size, _ in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, size, shape in pieces:
            self.dict[name] = self.tensor[at : at + size].reshape(shape)
            at += size

    def set_from(self, state: pyspiel.State, player: int) -> None:
        """Fill ``tensor`` (and ``dict``) with ``state`` as ``player`` observes it."""
        self.tensor.fill(0)
        d = self.dict
        if state.tarot is None:
            d["seat"][player] = 1
            if "players" in d:
                d["players"][self.spec.players - 3] = 1
                d["dealer"][(self.spec.dealer - player) % self.spec.players] = 1
            if "hand" in d:
                for card in range(state._next):
                    if state._holder[card] == player:
                        d["hand"][card] = 1
            if "deal" in d:
                for card in range(state._next):
                    d["deal"][state._holder[card], card] = 1
            return
        game = state.tarot
        obs = game.observation(player)
        full = obs.tensor()
        for name, (start, size) in _FIELD_AT.items():
            if name in d:
                d[name][:] = full[start : start + size]
        if self.private == pyspiel.PrivateInfoType.NONE:
            d["ecart"][:] = 0
            for card in _ids(_mask(obs.ecart) & _TRUMPS):
                d["ecart"][card] = 1
        if "trick_of_card" in d:
            for t, (_, cards, _) in enumerate(obs.tricks):
                for name in cards:
                    d["trick_of_card"][_IDS[name], t] = 1
            for name in obs.trick:
                d["trick_of_card"][_IDS[name], len(obs.tricks)] = 1
        if "ecart_order" in d and player == obs.taker and obs.phase != "bid":
            for k, name in enumerate(state.ecart_order()):
                d["ecart_order"][k, _IDS[name]] = 1
        if "deal" in d:
            for h, bits in enumerate(_deal_now(state)):
                for card in _ids(bits):
                    d["deal"][h, card] = 1

    def string_from(self, state: pyspiel.State, player: int) -> str:
        """``state`` as ``player`` observes it, as text."""
        has_private = self.private != pyspiel.PrivateInfoType.NONE
        spec = self.spec
        if state.tarot is None:
            lines = [f"dealing: {state._next} of {N_CARDS} cards dealt"] if self.public else []
            if has_private:
                mine = [_NAMES[c] for c in range(state._next) if state._holder[c] == player]
                lines.append(f"seat {player} hand {' '.join(mine)}")
            return "\n".join(lines)
        obs = state.tarot.observation(player)
        if self.public and self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            text = obs.info_string()
            if self.recall and player == obs.taker and obs.phase != "bid" and state.ecart_order():
                text += "\nlaid " + " ".join(state.ecart_order())
            return text
        lines = []
        if self.public:
            lines += _public_lines(obs)
        if has_private:
            lines.append(f"seat {player} hand {' '.join(obs.hand)} ecart {' '.join(obs.ecart)}")
            lines.append(f"attack {obs.attack} legal {' '.join(obs.legal_actions)}")
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            holders = [*(f"seat {s}" for s in range(spec.players)), "chien", "ecart"]
            lines += [
                f"{h} {' '.join(_names(bits))}" for h, bits in zip(holders, _deal_now(state), strict=False)
            ]
        return "\n".join(lines)


def _public_lines(obs: Observation) -> list[str]:
    shown_ecart = _names(_mask(obs.ecart) & _TRUMPS)
    return [
        f"{obs.players} players, dealer {obs.dealer}, phase {obs.phase}",
        *obs.table_lines(
            chelem_line=f"chelem {obs.chelem_announced}", ecart_line=f"ecart shown {' '.join(shown_ecart)}"
        ),
    ]


def _deal_now(state: pyspiel.State) -> list[int]:
    """Every hand as it stands, then the chien as dealt, then the écart (laid so far)."""
    game = state.tarot
    assert game is not None
    spec = state.spec
    hands = [_mask(game.observation(s).hand) for s in range(spec.players)]
    hands += [0] * (MAX_SEATS - spec.players)
    chien = sum(1 << c for c in range(N_CARDS) if state._holder[c] == spec.players)
    taker = game.observation(0).taker
    ecart = _mask(game.observation(taker).ecart) if taker is not None and game.phase != "bid" else 0
    return [*hands, chien, ecart]
