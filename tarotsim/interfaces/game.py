"""A deal step by step: `Game`, the seat's `Observation`, and the actions.

A `Game` holds the kernels' deal state (``engine.kernels.state.DealState``) and drives the
same rule steps as every run (the deal machine, ``players.kernels.machine``): legality, tricks,
count and score all come from the kernels. The caller applies one action at a time for
the seat to act; `Game.ask` says what a built-in strategy would do there, from the
seat's observation only.

Actions are strings (`actions` lists them for a table size):

- the auction: ``"pass"`` or a contract's label (``engine.labels.CONTRACTS``, low to high; each
  seat speaks once, a bid must beat the highest so far);
- five players, the taker's call: ``"call:KH"`` (a King; a Queen when holding all four
  Kings, and so on down);
- Prise and Garde, the écart, one card at a time: ``"ecart:5H"`` (no King, no bout;
  trumps only when the suit cards left cannot make it up);
- the taker's chelem announcement: ``"chelem:yes"``, ``"chelem:no"``;
- before its first card, a seat whose trumps allow a poignée: ``"poignee:none"``,
  ``"poignee:simple"``, ``"poignee:double"``, ``"poignee:triple"`` (up to the largest its
  hand allows; a seat that can show none is not asked);
- the play: the card itself, in the project's notation (``"KS"``, ``"10H"``, ``"T21"``,
  ``"EX"``).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any, NamedTuple

import numpy as np

from tarotsim.base.notices import SEARCH_DECISION_COMPILE, SEARCH_STEP_COMPILE, compile_first
from tarotsim.engine.cards import (
    EXCUSE,
    KING,
    N_CARDS,
    N_SUIT_CARDS,
    PETIT,
    SUIT_LEN,
    TRUMP_21,
    format_card,
    parse_cards,
)
from tarotsim.engine.kernels import state as S
from tarotsim.engine.kernels.encode import FIELDS, N_FEATURES, encode_view
from tarotsim.engine.kernels.rng import STREAM_WORDS
from tarotsim.engine.kernels.state import new_state
from tarotsim.engine.kernels.view import SeatView
from tarotsim.engine.labels import CONTRACT_NAMES, TABLE_SIZES, Poignee, check_players
from tarotsim.interfaces.kernels import vector as V
from tarotsim.players.kernels import machine as M
from tarotsim.players.kernels.search.scratch import note_deal
from tarotsim.players.kernels.search.searching import Search, new_search
from tarotsim.players.kernels.seats import run_until, searched_view
from tarotsim.players.policies import policy
from tarotsim.players.strategy import ATTACK, DEFENCE, Strategy, to_strategy

PHASES: tuple[str, ...] = ("bid", "call", "ecart", "poignee", "chelem", "play", "over")
"""The phases of a deal, indexed by the kernels' code (``engine.kernels.state.PH_*``)."""

_POIGNEES = tuple(f"poignee:{p.label}" for p in Poignee)
_CHELEM = ("chelem:no", "chelem:yes")
_CALLABLE = [SUIT_LEN * suit + rank for rank in range(KING, KING - 4, -1) for suit in range(4)]
_ECARTABLE = [c for c in range(N_SUIT_CARDS) if c % SUIT_LEN != KING] + [
    c for c in range(N_SUIT_CARDS, N_CARDS) if c not in (PETIT, TRUMP_21, EXCUSE)
]


def actions(players: int = 4) -> list[str]:
    """Every action string a seat may ever take at a table of ``players`` (3, 4 or 5).

    In order: the five words of the auction, the calls (five players: the Kings, Queens,
    Knights and Jacks), the cards of an écart (the suit cards but the Kings, trumps 2 to
    20), the four poignée choices, the two chelem choices, then the 78 cards of the play.
    """
    players = check_players(players)
    calls = [f"call:{format_card(c)}" for c in sorted(_CALLABLE)] if players == S.FIVE_PLAYERS else []
    return [
        *CONTRACT_NAMES,
        *calls,
        *(f"ecart:{format_card(c)}" for c in _ECARTABLE),
        *_POIGNEES,
        *_CHELEM,
        *(format_card(c) for c in range(N_CARDS)),
    ]


def action_table(players: int) -> tuple[np.ndarray, np.ndarray]:
    """The kernels' codes of the actions of `actions` (``players``).

    Returns ``(index, codes)``: ``index`` (int64[PH_OVER, 78]) gives, at each phase (a
    ``engine.kernels.state.PH_*`` code) and for each kernels' code there (a card id, a contract,
    poignée or chelem code), the action's position in ``actions(players)``, -1 for none;
    ``codes`` (int64[len(actions(players))]) each action's code, the inverse.
    """
    names = actions(players)
    at = {name: i for i, name in enumerate(names)}
    index = np.full((S.PH_OVER, N_CARDS), -1, dtype=np.int64)
    codes = np.zeros(len(names), dtype=np.int64)
    for phase in range(S.PH_OVER):
        for code in range(N_CARDS):
            if phase in (S.PH_BID, S.PH_POIGNEE, S.PH_CHELEM):
                table = {S.PH_BID: CONTRACT_NAMES, S.PH_POIGNEE: _POIGNEES, S.PH_CHELEM: _CHELEM}[phase]
                name = table[code] if code < len(table) else None
            else:
                name = _action_name(code, phase, 0)
            if name in at:
                index[phase, code] = at[name]
                codes[at[name]] = code
    return index, codes


class _Numbers(NamedTuple):
    """`actions` of a table, and ``action_table``'s arrays as Python lists."""

    names: tuple[str, ...]
    number: list[list[int]]  # per phase, per kernels' code: the action's number
    codes: list[int]  # per action number: its kernels' code


@cache
def _numbers(players: int) -> _Numbers:
    index, codes = action_table(players)
    return _Numbers(tuple(actions(players)), index.tolist(), codes.tolist())


TENSOR_FIELDS: tuple[tuple[str, int], ...] = FIELDS
"""The fields of `Observation.tensor` (and of ``VecEnv``'s tensors), in order, with their
lengths: ``engine.kernels.encode.FIELDS``, whose comments say what each holds."""
TENSOR_LENGTH = N_FEATURES
"""Length of `Observation.tensor`: the same at every table size."""


_NAMES = tuple(format_card(c) for c in range(N_CARDS))


def _bits(word: int, offset: int) -> list[int]:
    """The card ids of the set bits of ``word`` plus ``offset``, lowest first."""
    ids = []
    while word:
        low = word & -word
        ids.append(low.bit_length() - 1 + offset)
        word ^= low
    return ids


def _cards(word0: Any, word1: Any) -> tuple[str, ...]:
    """The names of a card set (word 0, word 1), in card id order."""
    return tuple(_NAMES[c] for c in _bits(int(word0), 0) + _bits(int(word1), N_SUIT_CARDS))


class Observation:
    """What one seat knows at a point of a deal (nothing of the other hands, the unseen
    chien, or the écart beyond its shown trumps).

    An observation is made from the seat's observation row of the kernels
    (``kernels.vector``, int64[N_ROW]); each field is read from it when first asked for.
    Observations are read-only and stay valid once the deal moves on. Two are equal when
    they carry the same information (`info_string`).

    Attributes
    ----------
    seat, players, dealer : int
    phase : str
        One of `PHASES`.
    hand : tuple of str
        The seat's cards (card id order); at the écart, the taker's hand with the chien
        less the cards laid so far.
    trick : tuple of str
        The cards of the trick in play, in play order.
    leader : int or None
        The seat that led the trick in play (None before the play).
    legal_actions : tuple of str
        The seat's legal actions when it is to act, else empty.
    contract : str or None
        The contract (during the auction: the highest bid so far).
    taker : int or None
    bids : tuple of str
        The words said so far, in speaking order from the dealer's right.
    played : tuple of tuple of str
        Per seat, the cards it has played, in order.
    tricks : tuple
        The tricks completed: ``(leader, cards in play order, winner)``.
    chien : tuple of str or None
        The chien once shown (Prise, Garde), else None.
    ecart : tuple of str
        The écart as this seat knows it: all of it (so far) for the taker, its trumps
        (shown) for the others.
    poignees : tuple of tuple of str
        Per seat, the cards of the poignée it showed (empty: none).
    called_card : str or None
        Five players: the card the taker called.
    partner : int or None
        The taker's partner once public (five players: once the called card is played).
    attack : bool
        Whether the seat plays for the attack (a five-player partner knows it).
    chelem_announced : bool
    """

    __slots__ = ("_legal", "_row")

    def __init__(self, row: np.ndarray, legal: tuple[str, ...] | None = None) -> None:
        self._row = row
        self._legal = legal

    def _get(self, slot: int) -> int:
        return int(self._row[slot])

    def _optional(self, slot: int) -> int | None:
        value = int(self._row[slot])
        return None if value < 0 else value

    def _cards(self, slot: int) -> tuple[str, ...]:
        return _cards(self._row[slot], self._row[slot + 1])

    @property
    def seat(self) -> int:
        return self._get(V.O_SEAT)

    @property
    def players(self) -> int:
        return self._get(V.O_PLAYERS)

    @property
    def dealer(self) -> int:
        return self._get(V.O_DEALER)

    @property
    def phase(self) -> str:
        return PHASES[self._get(V.O_PHASE)]

    @property
    def hand(self) -> tuple[str, ...]:
        return self._cards(V.O_HAND)

    @property
    def trick(self) -> tuple[str, ...]:
        row = self._row
        return tuple(_NAMES[c] for c in row[V.O_TRICK : V.O_TRICK + int(row[V.O_TRICK_LEN])].tolist())

    @property
    def leader(self) -> int | None:
        return self._optional(V.O_LEADER)

    @property
    def legal_actions(self) -> tuple[str, ...]:
        if self._legal is None:
            row = self._row
            legal = (
                _legal_names(int(row[V.O_PHASE]), row[V.O_LEGAL : V.O_LEGAL + 2]) if row[V.O_TO_ACT] else ()
            )
            object.__setattr__(self, "_legal", legal)
        return self._legal  # type: ignore[return-value]

    @property
    def contract(self) -> str | None:
        contract = self._get(V.O_CONTRACT)
        return None if contract == 0 else CONTRACT_NAMES[contract]

    @property
    def taker(self) -> int | None:
        return self._optional(V.O_TAKER)

    @property
    def bids(self) -> tuple[str, ...]:
        words = self._row[V.O_BIDS : V.O_BIDS + self._get(V.O_SPOKEN)].tolist()
        return tuple(CONTRACT_NAMES[w] for w in words)

    @property
    def tricks(self) -> tuple[tuple[int, tuple[str, ...], int], ...]:
        row = self._row
        n = int(row[V.O_PLAYERS])
        done = int(row[V.O_TRICKS_DONE])
        history = row[V.O_HISTORY : V.O_HISTORY + done * S.N_HISTORY].reshape(done, S.N_HISTORY).tolist()
        last = int(row[V.O_INFO + S.I_LEADER])
        return tuple(
            (
                trick[S.H_LEADER],
                tuple(_NAMES[c] for c in trick[:n]),
                history[t + 1][S.H_LEADER] if t + 1 < done else last,
            )
            for t, trick in enumerate(history)
        )

    @property
    def played(self) -> tuple[tuple[str, ...], ...]:
        n = self.players
        played: list[list[str]] = [[] for _ in range(n)]
        for first, cards, _ in self.tricks:
            for j, card in enumerate(cards):
                played[(first + j) % n].append(card)
        leader = self.leader
        if leader is not None:
            for j, card in enumerate(self.trick):
                played[(leader + j) % n].append(card)
        return tuple(tuple(p) for p in played)

    @property
    def chien(self) -> tuple[str, ...] | None:
        return self._cards(V.O_CHIEN) if self._row[V.O_CHIEN_SHOWN] else None

    @property
    def ecart(self) -> tuple[str, ...]:
        return self._cards(V.O_ECART)

    @property
    def poignees(self) -> tuple[tuple[str, ...], ...]:
        return tuple(self._cards(V.O_POIGNEES + 2 * s) for s in range(self.players))

    @property
    def called_card(self) -> str | None:
        called = self._get(V.O_CALLED)
        return None if called < 0 else _NAMES[called]

    @property
    def partner(self) -> int | None:
        return self._optional(V.O_PARTNER)

    @property
    def attack(self) -> bool:
        return bool(self._row[V.O_ATTACK])

    @property
    def chelem_announced(self) -> bool:
        return bool(self._row[V.O_CHELEM])

    @property
    def _view(self) -> SeatView:
        """The seat's ``SeatView`` (``engine.kernels.view``), on the arrays of the row."""
        row = self._row
        u = row.view(np.uint64)
        return SeatView(
            int(row[V.O_SEAT]),
            bool(row[V.O_ATTACK]),
            u[V.O_VIEW_HAND],
            u[V.O_VIEW_HAND + 1],
            u[V.O_VIEW_ECART],
            u[V.O_VIEW_ECART + 1],
            u[V.O_VIEW_CHIEN],
            u[V.O_VIEW_CHIEN + 1],
            row[V.O_INFO : V.O_INFO + S.N_INFO],
            u[V.O_ALL_PLAYED : V.O_ALL_PLAYED + 2],
            row[V.O_RAW_TRICK : V.O_RAW_TRICK + S.MAX_SEATS],
            u[V.O_SHOWN : V.O_SHOWN + 2 * S.MAX_SEATS].reshape(S.MAX_SEATS, 2),
            row[V.O_HISTORY : V.O_HISTORY + S.MAX_TRICKS * S.N_HISTORY].reshape(S.MAX_TRICKS, S.N_HISTORY),
            row[V.O_RAW_BIDS : V.O_RAW_BIDS + S.MAX_SEATS],
            u[V.O_RNG : V.O_RNG + STREAM_WORDS],
        )

    @property
    def _decision(self) -> tuple[int, int, int, int, int]:
        """(phase code, highest bid code, legal word 0, legal word 1, écart laid: word 0 | word 1 << 64)."""
        row = self._row
        return (
            int(row[V.O_PHASE]),
            int(row[V.O_CONTRACT]),
            int(row[V.O_LEGAL]),
            int(row[V.O_LEGAL + 1]),
            int(row[V.O_LAID]) | int(row[V.O_LAID + 1]) << 64,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Observation):
            return NotImplemented
        return self.info_string() == other.info_string()

    def __hash__(self) -> int:
        return hash(self.info_string())

    def __repr__(self) -> str:
        return f"Observation(seat={self.seat}, phase={self.phase!r}, hand={' '.join(self.hand)!r})"

    def info_string(self) -> str:
        """A canonical text form: equal strings for observations of equal information."""
        lines = [
            f"seat {self.seat} of {self.players}, dealer {self.dealer}, phase {self.phase}",
            f"hand {' '.join(self.hand)}",
            *self.table_lines(
                chelem_line=f"attack {self.attack} chelem {self.chelem_announced}",
                ecart_line=f"ecart {' '.join(self.ecart)}",
            ),
            f"legal {' '.join(self.legal_actions)}",
        ]
        return "\n".join(lines)

    def table_lines(self, *, chelem_line: str, ecart_line: str) -> list[str]:
        """The lines of `info_string` from the bids to the trick in play, with
        ``chelem_line`` and ``ecart_line`` in their places: `info_string` puts the
        seat's side there and the écart as the seat knows it; OpenSpiel's public observation
        (``tarotsim.interfaces.openspiel``) the chelem alone and the écart's trumps shown."""
        lines = [
            f"bids {' '.join(self.bids)}",
            f"contract {self.contract} taker {self.taker} called {self.called_card} partner {self.partner}",
            chelem_line,
            f"chien {' '.join(self.chien) if self.chien is not None else '-'}",
            ecart_line,
            "poignees " + " | ".join(" ".join(p) for p in self.poignees),
        ]
        lines += [f"trick {leader}: {' '.join(cards)} > {winner}" for leader, cards, winner in self.tricks]
        lines.append(f"in play {self.leader}: {' '.join(self.trick)}")
        return lines

    def tensor(self) -> np.ndarray:
        """The observation as float32[`TENSOR_LENGTH`], fields `TENSOR_FIELDS` in order, the
        same length at every table size: written by the one encoder of what a seat knows
        (``engine.kernels.encode``), as ``VecEnv``'s tensor observations and the OpenSpiel tensors."""
        row = self._row
        out = np.empty(TENSOR_LENGTH, dtype=np.float32)
        phase = int(row[V.O_PHASE])
        encode_view(
            self._view,
            phase,
            int(row[V.O_PLAYERS]),
            int(row[V.O_SPOKEN]),
            int(row[V.O_CONTRACT]),
            int(row[V.O_TAKER]),
            bool(row[V.O_TO_ACT]),
            phase in (S.PH_POIGNEE, S.PH_PLAY) and int(row[V.O_INFO + S.I_TAKER]) >= 0,
            row[V.O_LAID : V.O_LAID + 2].view(np.uint64)[0],
            row[V.O_LAID : V.O_LAID + 2].view(np.uint64)[1],
            out,
        )
        return out


def _phase_code(action: str, phase: int) -> int:
    """The kernels' code of ``action`` (a legal action) at ``phase``."""
    if phase == S.PH_BID:
        return CONTRACT_NAMES.index(action)
    if phase == S.PH_POIGNEE:
        return _POIGNEES.index(action)
    if phase == S.PH_CHELEM:
        return _CHELEM.index(action)
    name = action.split(":", 1)[1] if phase in (S.PH_CALL, S.PH_ECART) else action
    return parse_cards([name])[0]


def _action_name(code: int, phase: int, contract: int) -> str:
    """The action string of the kernels' ``code`` at ``phase`` (a bid code is a wish: a pass
    unless it beats ``contract``, the highest bid so far)."""
    if phase == S.PH_BID:
        return CONTRACT_NAMES[code] if code > contract else "pass"
    if phase == S.PH_POIGNEE:
        return _POIGNEES[code]
    if phase == S.PH_CHELEM:
        return _CHELEM[code]
    if phase == S.PH_CALL:
        return f"call:{format_card(code)}"
    if phase == S.PH_ECART:
        return f"ecart:{format_card(code)}"
    return format_card(code)


def _legal_names(phase: int, legal: np.ndarray) -> tuple[str, ...]:
    if phase == S.PH_OVER:
        return ()
    if phase in (S.PH_BID, S.PH_POIGNEE, S.PH_CHELEM):
        names = {S.PH_BID: CONTRACT_NAMES, S.PH_POIGNEE: _POIGNEES, S.PH_CHELEM: _CHELEM}[phase]
        word = int(legal[0])
        return tuple(name for code, name in enumerate(names) if word >> code & 1)
    cards = _cards(legal[0], legal[1])
    prefix = {S.PH_CALL: "call:", S.PH_ECART: "ecart:"}.get(phase, "")
    return tuple(prefix + c for c in cards) if prefix else cards


_CFG_CACHE: dict[tuple[str, int], np.ndarray] = {}


@cache
def _table_cfg(players: int) -> np.ndarray:
    """The kernels' ``cfg`` of a `Game` of ``players`` (the default strategies), made once
    per table size (building it costs more than a deal's decisions); the games share it and
    never write to it."""
    from tarotsim.players.config import RunConfig

    return RunConfig(players=players).to_array()


def strategy_cfg(strategy: Strategy | str, players: int) -> np.ndarray:
    """The kernels' ``cfg`` of a table of ``players`` where every seat plays ``strategy``."""
    from tarotsim.players.config import RunConfig

    strategy = to_strategy(strategy)
    key = (str(strategy), players)
    if key not in _CFG_CACHE:
        _CFG_CACHE[key] = RunConfig(players=players, strategies=(strategy,) * players).to_array()
    return _CFG_CACHE[key]


def decide(
    observation: Observation, strategy: Strategy | str, *, seed: int | None = None, deal: int = 0
) -> str:
    """The action ``strategy``'s built-in policies take at ``observation`` (the seat must be
    to act), decided from the observation only (the seat's view: ``players.kernels.machine.choose``,
    or ``players.kernels.seats.searched_view`` for a policy that searches).

    A searching policy (``pimc`` play, the ``montecarlo`` bidder, a ``search`` call, écart,
    poignée or chelem) seeds its draws as a run does, from a run key and a deal number: those
    of deal ``deal`` of the run of ``seed`` (it then decides as that run's policy does at this
    point of that deal), or, without ``seed``, the observation's own random stream (the deal's,
    where it stands). The same observation, strategy, seed and deal give the same action. Its
    scratch (some tens of MB) is made once per strategy and table size and reused, and the
    first searching decision of a process compiles the search players once (two to three
    minutes, said on stderr).

    Raises
    ------
    ValueError
        When the seat is not to act, or for a deal number that is not a whole number 0 or more.
    """
    from tarotsim.players.config import check_count

    if not observation.legal_actions:
        raise ValueError(f"seat {observation.seat} has no decision to make in the {observation.phase} phase")
    deal = check_count(deal, "deal")
    strategy = to_strategy(strategy)
    cfg = strategy_cfg(strategy, observation.players)
    phase, contract, legal0, legal1, laid = observation._decision
    view = observation._view
    if not _searches_at(strategy, phase, view.attack):
        code = M.choose(view, cfg, phase, np.uint64(legal0), np.uint64(legal1), *_split(laid))
        return _action_name(int(code), phase, contract)
    from tarotsim.base.seeding import resolve_seed, run_key

    key = view.rng.copy() if seed is None else run_key(resolve_seed(seed))
    search, lock = _search_scratch(str(strategy), observation.players)
    args = (view, cfg, phase, np.uint64(legal0), np.uint64(legal1), *_split(laid), search)
    with lock:
        compile_first(searched_view, args, *SEARCH_DECISION_COMPILE)
        note_deal(search.play, key, deal)
        code = searched_view(*args)
    return _action_name(int(code), phase, contract)


def _searches_at(strategy: Strategy, phase: int, attack: bool) -> bool:
    """Whether ``strategy``'s policy of the decision of ``phase`` (of its card play on the
    attack or the defence) searches (the registry's ``searches`` flag)."""
    decision = PHASES[phase]
    name = (
        strategy.side_play(ATTACK if attack else DEFENCE)
        if decision == "play"
        else getattr(strategy, decision)
    )
    return policy(decision, name).searches


@lru_cache(maxsize=4)
def _search_scratch(spec: str, players: int) -> tuple[Search, threading.Lock]:
    """The search scratch (``searching.Search``) of the strategy ``spec`` at a table of
    ``players``, made once and reused by `decide`, with the lock that keeps two threads from
    using it at once (the kernels release the GIL)."""
    return new_search(np.atleast_2d(strategy_cfg(spec, players))), threading.Lock()


def _split(laid: int) -> tuple[np.uint64, np.uint64]:
    return np.uint64(laid & 0xFFFFFFFFFFFFFFFF), np.uint64(laid >> 64)


class Game:
    """One deal, one decision at a time.

    ``Game(players=4, seed=0, deal=0)``: deal number ``deal`` of the run with ``seed`` (the
    cards ``simulate(…, seed=seed)`` deals for it, dealt by seat ``deal % players``);
    ``Game(players=4, hands=[…], chien=[…], dealer=0)``: the given cards.

    Parameters
    ----------
    players : int
        3, 4 or 5.
    seed : int, optional
        The run's seed (default 0); not with ``hands``.
    deal : int, optional
        The deal number in that run (default 0); not with ``hands``.
    hands : sequence of card lists, optional
        Each seat's hand (card names), ``players`` of them.
    chien : card list, optional
        The chien, with ``hands``.
    dealer : int
        The dealer, with ``hands``.

    Raises
    ------
    ValueError
        For a table size, seed, deal or dealer out of range, or cards that do not make a pack.
    TypeError
        For ``hands`` given together with ``seed`` or ``deal``, or a seed, deal or dealer that
        is not a whole number (an int or a numpy integer; a float, a bool or text is refused).
    """

    def __init__(
        self,
        players: int = 4,
        seed: int | None = None,
        deal: int | None = None,
        *,
        hands: Sequence[Sequence[str] | str] | None = None,
        chien: Sequence[str] | str | None = None,
        dealer: int = 0,
    ) -> None:
        from tarotsim.base.seeding import resolve_seed, run_key
        from tarotsim.players.config import check_count

        self._setup(_table_cfg(check_players(players)))
        hand_size, chien_size = TABLE_SIZES[self.players]
        if hands is None:
            if chien is not None:
                raise TypeError("chien= goes with hands=")
            self.seed: int | None = resolve_seed(0 if seed is None else seed)
            self.deal: int | None = 0 if deal is None else check_count(deal, "deal")
            key = run_key(self.seed)
            M.start(self._tb, self._cfg, self._rec, self._log, key, self.deal, 0)
            return
        if seed is not None or deal is not None:
            raise TypeError("give either hands= (and chien=, dealer=) or seed= and deal=, not both")
        if isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer)):
            raise TypeError(f"dealer must be a seat 0 to {self.players - 1} (a whole number), got {dealer!r}")
        if not 0 <= dealer < self.players:
            raise ValueError(f"dealer must be a seat 0 to {self.players - 1}, got {dealer}")
        dealer = int(dealer)
        if len(hands) != self.players:
            raise ValueError(f"give {self.players} hands, got {len(hands)}")
        seen: set[int] = set()
        for seat, hand in enumerate(hands):
            ids = parse_cards(hand, what=f"hand of seat {seat}")
            if len(ids) != hand_size:
                raise ValueError(f"seat {seat}'s hand has {len(ids)} cards, {hand_size} expected")
            self._put(self._tb.dealt[seat], ids, seen)
        ids = parse_cards(chien if chien is not None else [], what="chien")
        if len(ids) != chien_size:
            raise ValueError(f"the chien has {len(ids)} cards, {chien_size} expected")
        self._put(self._tb.chien, ids, seen)
        self.seed = None
        self.deal = None
        key = np.zeros(4, dtype=np.uint64)
        M.start(self._tb, self._cfg, self._rec, self._log, key, -1, dealer)

    def _setup(self, cfg: np.ndarray) -> None:
        """The arrays of a deal at the table of ``cfg`` (whose policies decide for ``players.kernels.seats.run_until``)."""
        self.players = int(cfg[S.C_PLAYERS])
        self._cfg = cfg
        self._tb = new_state()
        self._rec = np.zeros(S.N_REC, dtype=np.int64)
        self._log = np.zeros(S.N_LOG, dtype=np.int64)
        self._seen = np.zeros((S.MAX_SEATS, 2), dtype=np.uint64)  # scratch of vector.observe
        # legal_numbers of the last (phase, legal word 0, legal word 1) it was asked at
        self._numbers: tuple[tuple[int, int, int], list[int]] | None = None
        self._callers = M.EVERY_SEAT  # bit per seat whose decisions the caller makes (``_for_run``)
        self._search: Search | None = None
        self._key = np.zeros(STREAM_WORDS, dtype=np.uint64)

    @classmethod
    def _for_run(
        cls,
        cfg: np.ndarray,
        key: np.ndarray,
        deal: int,
        *,
        callers: int = M.EVERY_SEAT,
        search: Search | None = None,
    ) -> Game:
        """Deal ``deal`` of the run whose key is ``key``, at the table of ``cfg``. The caller
        makes the decisions of the seats of ``callers`` (bit per seat; default every seat);
        the others are made by their policies in ``cfg`` as the deal goes, up to a caller's
        decision (``_run_others``), the searching ones with the scratch ``search``."""
        game = object.__new__(cls)
        game._setup(cfg)
        game.seed = None
        game.deal = deal
        game._callers = callers
        game._search = search
        game._key = key
        M.start(game._tb, cfg, game._rec, game._log, key, deal, 0)
        if callers != M.EVERY_SEAT:
            game._run_others()
        return game

    def _run_others(self) -> None:
        """Let the seats the caller does not play decide by their policies (``players.kernels.seats.run_until``,
        a searching one with ``_search``, its draws seeded by the run key and the deal number),
        up to a decision of a seat of ``_callers`` or the end of the deal."""
        args = (self._tb, self._cfg, self._rec, self._log, self._search, None, 0, self._callers)
        if self._search is not None:
            note_deal(self._search.play, self._key, 0 if self.deal is None else self.deal)
            compile_first(run_until, args, *SEARCH_STEP_COMPILE)
        run_until(*args)

    @staticmethod
    def _put(words: np.ndarray, ids: list[int], seen: set[int]) -> None:
        from tarotsim.engine.cards import to_mask

        twice = seen.intersection(ids)
        if twice:
            raise ValueError(f"card {format_card(min(twice))} is dealt twice")
        seen.update(ids)
        words[0], words[1] = to_mask(ids)

    # the state ---------------------------------------------------------------------------

    @property
    def phase(self) -> str:
        """The phase of the deal: one of `PHASES`."""
        return PHASES[int(self._tb.pos[S.Q_PHASE])]

    @property
    def to_act(self) -> int | None:
        """The seat to decide, None once the deal is over."""
        seat = int(self._tb.pos[S.Q_SEAT])
        return None if self._tb.pos[S.Q_PHASE] == S.PH_OVER else seat

    @property
    def over(self) -> bool:
        """Whether the deal is over (played out, or thrown in)."""
        return bool(self._tb.pos[S.Q_PHASE] == S.PH_OVER)

    @property
    def dealer(self) -> int:
        return int(self._tb.info[S.I_DEALER])

    def legal_actions(self) -> list[str]:
        """The legal actions of the seat to act (empty once over)."""
        return list(_legal_names(int(self._tb.pos[S.Q_PHASE]), self._tb.legal))

    def apply(self, action: str) -> None:
        """Apply ``action`` for the seat to act.

        Raises
        ------
        ValueError
            For an illegal action (the message names the seat, the phase and the legal
            actions) or a deal that is over; the game is then unchanged.
        """
        phase = int(self._tb.pos[S.Q_PHASE])
        if phase == S.PH_OVER:
            raise ValueError("the deal is over: no action applies")
        legal = _legal_names(phase, self._tb.legal)
        if not isinstance(action, str) or action not in legal:
            raise ValueError(
                f"seat {self.to_act} cannot play {action!r} in the {PHASES[phase]} phase; "
                f"legal actions: {', '.join(legal)}"
            )
        self._advance(_phase_code(action, phase))

    def legal_numbers(self) -> list[int]:
        """The legal actions of the seat to act as their numbers in `actions` (ascending;
        empty once over): `legal_actions` without the strings."""
        phase, word0, word1 = int(self._tb.pos[S.Q_PHASE]), int(self._tb.legal[0]), int(self._tb.legal[1])
        key = (phase, word0, word1)
        if self._numbers is None or self._numbers[0] != key:
            row = _numbers(self.players).number[phase] if phase != S.PH_OVER else []
            legal = _bits(word0, 0) + _bits(word1, N_SUIT_CARDS) if row else []
            self._numbers = (key, sorted(row[c] for c in legal))
        return list(self._numbers[1])

    def apply_number(self, action: object, names: Sequence[str]) -> str:
        """Apply the action numbered ``action`` in ``names`` (`actions` of this table:
        OpenSpiel's and PettingZoo's action ids) for the seat to act; return its string.

        Raises
        ------
        ValueError
            For a number that is not a legal action's: out of range, negative, not a whole
            number (a float, a bool, None), or an illegal action (the message names the seat,
            the phase and the legal actions with their numbers); the game is then unchanged.
        """
        phase = int(self._tb.pos[S.Q_PHASE])
        if phase == S.PH_OVER:
            raise ValueError("the deal is over: no action applies")
        name: str | None = None
        if (
            isinstance(action, (int, np.integer))
            and not isinstance(action, bool)
            and 0 <= action < len(names)
        ):
            name = names[int(action)]
            table = _numbers(self.players)
            if name == table.names[int(action)] and int(action) in self.legal_numbers():
                self._advance(table.codes[int(action)])
                return name
        legal = _legal_names(phase, self._tb.legal)
        if name is None or name not in legal:
            number = {n: i for i, n in enumerate(names)}
            what = f"action {action!r} ({name})" if name is not None else f"{action!r}, not an action number,"
            raise ValueError(
                f"seat {self.to_act} cannot play {what} in the {PHASES[phase]} phase "
                f"(actions are whole numbers 0 to {len(names) - 1}); legal actions: "
                + ", ".join(f"{number[n]} ({n})" for n in legal)
            )
        self._advance(_phase_code(name, phase))
        return name

    def _advance(self, code: int) -> None:
        """Apply the kernels' ``code`` (checked legal by the caller; at the bid, any wish), then
        stand at the next decision of a seat the caller plays (``_run_others``)."""
        if self._callers == M.EVERY_SEAT:
            M.advance(self._tb, self._cfg, self._rec, self._log, code)
            return
        M.apply(self._tb, self._cfg, self._rec, self._log, code)
        self._run_others()

    def returns(self) -> list[int]:
        """Each seat's score for the deal (points, zero-sum; all 0 for a deal thrown in).

        Raises
        ------
        ValueError
            Before the deal is over.
        """
        if not self.over:
            raise ValueError(f"the deal is not over (phase {self.phase})")
        return [int(self._rec[S.R_SCORE + seat]) for seat in range(self.players)]

    def clone(self) -> Game:
        """An independent copy: actions applied to either leave the other unchanged."""
        other = object.__new__(Game)
        other.__dict__.update(self.__dict__)
        other._tb = S.DealState(*(a.copy() for a in self._tb))
        for name in ("_rec", "_log", "_seen"):
            setattr(other, name, getattr(self, name).copy())
        return other

    # what a seat knows -------------------------------------------------------------------

    def observation(self, seat: int | None = None) -> Observation:
        """What ``seat`` (default: the seat to act) knows now.

        Raises
        ------
        ValueError
            For a seat not at the table, or no seat given once the deal is over.
        """
        if seat is None:
            seat = self.to_act
            if seat is None:
                raise ValueError("the deal is over: give the seat to observe")
        if not 0 <= int(seat) < self.players:
            raise ValueError(f"seat must be 0 to {self.players - 1}, got {seat}")
        row = np.empty(V.N_ROW, dtype=np.int64)
        V.observe(self._tb, self.players, int(seat), self._seen, row)
        return Observation(row)

    def ask(self, strategy: Strategy | str) -> str:
        """The action the built-in ``strategy`` (a [`Strategy`][tarotsim.players.strategy.Strategy] or a spec such as
        ``"play=heuristic,ecart=expert"``) takes for the seat to act, from its observation only.

        A strategy that searches (``pimc``, ``montecarlo``…) seeds its draws from this deal of
        the run of the game's seed (`decide` with ``seed`` and ``deal``): it decides as a run
        of that seed does at this point of the deal. A game of given hands has no seed: its
        draws come from the observation's own stream.

        Raises
        ------
        ValueError
            Once the deal is over, or for a bad strategy spec.
        """
        return decide(
            self.observation(), strategy, seed=self.seed, deal=0 if self.deal is None else self.deal
        )

    def to_trace(self) -> dict[str, Any]:
        """The deal as one record of ``tarotsim trace``'s JSON format (the deal over).

        Raises
        ------
        ValueError
            Before the deal is over.
        """
        from tarotsim.engine.records import deal_trace

        if not self.over:
            raise ValueError(f"the deal is not over (phase {self.phase})")
        tb = self._tb
        masks = np.zeros(S.N_MASKS, dtype=np.uint64)
        for seat in range(self.players):
            masks[S.M_DEALT + 2 * seat : S.M_DEALT + 2 * seat + 2] = tb.dealt[seat]
            masks[S.M_SHOWN + 2 * seat : S.M_SHOWN + 2 * seat + 2] = tb.shown[seat]
        masks[S.M_CHIEN : S.M_CHIEN + 2] = tb.chien
        masks[S.M_ECART : S.M_ECART + 2] = tb.ecart
        deal = 0 if self.deal is None else self.deal
        return deal_trace(deal, self._rec, self._log, masks, self.players, int(self._cfg[S.C_HAND]))

    @property
    def record(self) -> np.ndarray:
        """The deal's record row (int64[N_REC], columns ``engine.kernels.state.R_*``), once over."""
        return self._rec.copy()
