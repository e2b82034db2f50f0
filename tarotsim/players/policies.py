"""The registry of policies: every policy and every option of a strategy, in one table.

A seat's [`Strategy`][tarotsim.players.strategy.Strategy] chooses one policy per decision (card play,
bidding, the king call, écart, poignée, chelem announcement) and sets options that those
policies read. This module is the only list of them: each `Policy` names the
decision it serves, its kernel code, the options it reads, whether it searches (its
decisions play many deals of their own) and whether it may be a search player's rollout;
each `Option` gives its value type, range, default, documentation and kernel slot.

Everything else is derived from it:

- the kernel codes, ``tarotsim/players/kernels/policies/codes.py`` (module constants that Numba
  reads at compile time: ``policy_files.codes_source`` writes the file, a test checks it);
- the tables of names and codes below (``PLAY_POLICIES`` …), hence the command line's choices;
- the checks of [`Strategy`][tarotsim.players.strategy.Strategy] (names, ranges, an option set without a
  policy that reads it), and the seat's block of the kernels' ``cfg`` (each option's
  ``P_*`` slot of ``engine.kernels.state``, checked by a test);
- whether a run searches (`searches`), which sets its block size and progress step;
- the policy and option tables of ``docs/policies.md`` (``policy_files.policies_markdown``).

>>> policy("play", "pimc").searches, policy("play", "heuristic").rollout
(True, True)
>>> policy_names("ecart")
('simple', 'expert', 'search')
>>> OPTIONS["worlds"].check(0)
Traceback (most recent call last):
...
ValueError: worlds must be 1 to 4096, got 0

``tarotsim.players.policy_files`` writes the derived files from it: ``python -m tarotsim.players.policy_files``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tarotsim.engine.kernels import constants as H

DECISIONS: dict[str, str] = {
    "play": "card play",
    "bid": "bidding",
    "call": "the king call (5 players)",
    "ecart": "écart",
    "poignee": "poignée",
    "chelem": "chelem announcement",
}
"""Every decision a seat takes, with what the docs call it; a strategy has one policy for each."""

ATTACK = "attack"
DEFENCE = "defence"

MAX_COUNT = 1000
"""The largest Chavey count a strategy may name (a bid threshold, a chelem threshold): more
than any hand counts, so it means "never"."""
SUIT_CARDS_OUT_MAX = 15
"""More cards of a suit than can be out: the heuristic then never trusts the foes to follow."""
TRICK_HALF_MAX = 46
"""More half points than a trick can hold (5 cards of 9): never worth a trump."""

DEFAULT_CHELEM_THRESHOLD = 110
"""Count (with the distribution bonus) from which the ``overwhelming`` policy announces a chelem."""
DEFAULT_WORLDS = 32
"""``pimc``: worlds per decision by default, chosen with ``DEFAULT_DROP`` by
``benchmarks/bench_strength.py`` (``reports/strength.md``): with dropping, 32 worlds play as
well as 32 worlds without it and a deal costs less than 3,000 heuristic deals, where 32
worlds without dropping do not."""
DEFAULT_ENDGAME = 0
"""``pimc``: tricks left from which the solver replaces the playouts by default (0 never)."""
MAX_ENDGAME = 8
"""``pimc``: the most tricks left the solver may be asked to search (its cost grows steeply)."""
DEFAULT_DROP = 15
"""``pimc``: tenths of a standard error behind the best card at which a card is dropped, by
default (0: never). At 32 worlds, dropping at 1.5 standard errors plays out fewer cards than
24 worlds without it and plays as well as 32 worlds without it (``reports/strength.md``)."""
MAX_DROP = 100
"""``pimc``: the largest ``drop`` (10 standard errors: a card is then practically never dropped)."""
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
DEFAULT_BID_ROLLOUT_WORLDS = 2
"""Worlds each ``pimc`` decision of the ``montecarlo`` bidder's playouts draws
(``bid_rollout=pimc``): the fewest that still compare a card across deals, for every card of
every playout searches (``docs/tasks/search.md`` states the cost: a deal with every seat on it
costs about 57 times today's ``pimc`` at the default 32 bidder worlds, 20 times at 8)."""
DEFAULT_DECIDE_WORLDS = 32
"""Worlds a searched écart, chelem, king call or poignée (``search`` policies) samples per
decision by default: the ``pimc`` default; ``reports/search-decisions.md`` measures them."""

KINDS = ("count", "policy", "choice", "thresholds", "path", "text")
"""Value types of an option: a whole number in a range, a policy name, one of a few names
(``choices``, coded by their place), four increasing counts (``40/56/71/81``), a file path,
free text."""


def range_error(name: str, low: int, high: int | str, value: object) -> ValueError:
    """The one message for a number out of its range: ``NAME must be LOW to HIGH, got VALUE``."""
    return ValueError(f"{name} must be {low} to {high}, got {value}")


def check_whole(name: str, value: object, low: int, high: int) -> int:
    """``value`` as an int from ``low`` to ``high``, else a ``TypeError``/``ValueError`` naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be a whole number, got {value!r}")
    if not low <= value <= high:
        raise range_error(name, low, high, value)
    return int(value)


@dataclass(frozen=True)
class Option:
    """One option of a strategy, read by the policies that list it.

    Attributes
    ----------
    name : str
        Its key in a spec, a keyword of ``Strategy``, a ``--option`` of the command line.
    decision : str
        The decision (`DECISIONS`) whose policies read it.
    kind : str
        Its value type (`KINDS`).
    default : int, str, tuple or None
        Its value when not given (None: none, or the table's own, for ``bid_thresholds``).
    doc : str
        What it means, as the docs say it.
    low, high : int
        The range of a ``count`` (``high`` None: the cards in a hand, known at a table size).
    slot : str, optional
        The name of its ``P_*`` slot in a seat's block of ``cfg`` (``engine.kernels.state``).
    side : str, optional
        ``"attack"`` or ``"defence"`` for a card-play option read on that side only.
    choices : tuple of str, optional
        For a ``policy`` option: the names it may take (default: the rollout policies); for
        a ``choice``, its names, in the order of their kernel codes.
    """

    name: str
    decision: str
    kind: str
    default: Any
    doc: str
    low: int = 0
    high: int | None = None
    slot: str | None = None
    side: str | None = None
    choices: tuple[str, ...] | None = None

    @property
    def index(self) -> int:
        """Its slot's index in a seat's block of ``cfg`` (``engine.kernels.state.P_*``)."""
        from tarotsim.engine.kernels import state as S

        return int(getattr(S, self.slot or ""))

    @property
    def values(self) -> str:
        """Its values as the docs write them."""
        if self.kind == "count":
            return f"{self.low} to {'the cards in a hand' if self.high is None else self.high}"
        if self.kind in ("policy", "choice"):
            return ", ".join(f"`{name}`" for name in self.names())
        if self.kind == "thresholds":
            return f"four increasing counts, 0 to {MAX_COUNT}: `40/56/71/81`"
        if self.kind == "path":
            return "the path of a bidder file"
        return "text without `,` or `=`"

    def names(self) -> tuple[str, ...]:
        """The policy names a ``policy`` option may take."""
        if self.choices is not None:
            return self.choices
        return tuple(p.name for p in POLICY_TABLE.values() if p.rollout)

    def readers(self) -> tuple[Policy, ...]:
        """The policies that read the option."""
        return tuple(p for p in POLICY_TABLE.values() if self.name in p.options)

    def default_for(self, policy: str) -> Any:
        """The option's default for a seat whose policy of the option's decision (on the
        option's side) is ``policy``: that policy's own default if it has one."""
        found = POLICY_TABLE.get((self.decision, policy))
        return self.default if found is None else found.defaults.get(self.name, self.default)

    def read_by(self, policy: str) -> bool:
        """Whether ``policy``, a policy of the option's decision, reads the option."""
        found = POLICY_TABLE.get((self.decision, policy))
        return found is not None and self.name in found.options

    def check(self, value: object) -> Any:
        """``value`` checked against the option's type and range (a ``count`` with ``high``
        None is checked against the largest hand; [`Strategy.check`][tarotsim.players.strategy.Strategy.check] does the rest).

        Raises
        ------
        TypeError, ValueError
            With a one-line message naming the option.
        """
        if self.kind == "count":
            return check_whole(self.name, value, self.low, MAX_TRUMP_HAND if self.high is None else self.high)
        if self.kind == "policy":
            return check_policy_name(self.name, value, self.names())
        if self.kind == "choice":
            return check_choice(self.name, value, self.names())
        if self.kind == "thresholds":
            return check_thresholds(value)
        return value

    def parse(self, text: str) -> Any:
        """The Python value of the option written as ``text`` in a spec or a command-line flag.

        A ``count`` is a whole number (at most 20 characters are read as one); ``thresholds``
        are four counts separated by ``/`` (a ``,`` is accepted too, as the old
        ``--bid-thresholds 40,56,71,81``).
        """
        if self.kind == "count":
            return parse_whole(self.name, text, self.low, self.high)
        if self.kind == "thresholds":
            return parse_thresholds(text)
        return text


@dataclass(frozen=True)
class Policy:
    """One policy: a way to take one decision.

    Attributes
    ----------
    name : str
        Its name in a spec (``play=heuristic``), the records and the reports.
    decision : str
        The decision it serves (`DECISIONS`).
    code : int
        Its kernel code: the constant ``constant`` of ``players/kernels/policies/codes.py``.
    doc : str
        What it does, in a line.
    options : tuple of str
        The options (`OPTIONS`) it reads.
    defaults : dict
        Its own defaults of some of those options, where they differ from the option's.
    searches : bool
        Whether its decisions search (play many deals of their own): a run with such a
        seat plays small blocks of deals and carries the search players' scratch.
    rollout : bool
        Whether a search player may play its playouts with it (a card play that searches nothing).
    """

    name: str
    decision: str
    code: int
    doc: str
    options: tuple[str, ...] = ()
    defaults: dict[str, Any] = field(default_factory=dict)
    searches: bool = False
    rollout: bool = False

    @property
    def constant(self) -> str:
        """The name of its code in ``players/kernels/policies/codes.py``: ``PLAY_HEURISTIC``."""
        return f"{self.decision}_{self.name}".upper()


_TUNABLE = ("follow_min_attack", "follow_min_defence", "worth_trump_attack", "worth_trump_defence")
_TUNABLE_BASIC = (*_TUNABLE, "draw_trumps_min", "hunt_petit_min")
_TUNABLES = (*_TUNABLE_BASIC, "king_lead_min", "king_lead_min_blind")
_PIMC = ("worlds", "endgame", "rollout", "drop", "knowledge", "infer")

_POLICY_LIST: tuple[Policy, ...] = (
    Policy("random", "play", 0, "a card drawn uniformly from the legal cards", rollout=True),
    Policy(
        "heuristic",
        "play",
        1,
        "a rule-based player: counts cards, reads voids and the poignées shown, plays for its "
        "side (deterministic)",
        options=_TUNABLES,
        rollout=True,
    ),
    Policy(
        "greedy",
        "play",
        2,
        "takes the trick as cheaply as possible, else plays its cheapest card",
        rollout=True,
    ),
    Policy(
        "pimc",
        "play",
        3,
        "perfect-information Monte Carlo search: deals the unseen cards many times and plays the "
        "card whose playouts score best",
        options=_PIMC,
        searches=True,
    ),
    Policy(
        "basic",
        "play",
        4,
        "the heuristic as it was before it read voids and poignées, kept for duels",
        options=_TUNABLE_BASIC,
        defaults={"draw_trumps_min": H.BASIC_DRAW_TRUMPS_MIN},
        rollout=True,
    ),
    Policy(
        "net",
        "play",
        5,
        "the heuristic's card, unless a small neural network that learned the cards `pimc` plays, "
        "then by reinforcement learning against the heuristic (`examples/train_net.py`), is sure "
        "of a better one; run inside the kernels (deterministic)",
        rollout=True,
    ),
    Policy(
        "chavey",
        "bid",
        0,
        "Chavey's count of the hand against four thresholds",
        options=("bid_thresholds",),
    ),
    Policy(
        "learned",
        "bid",
        1,
        "the contract a model fitted on a sweep predicts scores best (`tarotsim fit-bidder`)",
        options=("bidder",),
    ),
    Policy(
        "montecarlo",
        "bid",
        2,
        "deals the unseen cards many times and bids the contract whose playouts score best",
        options=("bid_thresholds", "bid_worlds", "bid_rollout", "bid_rollout_worlds"),
        searches=True,
    ),
    Policy(
        "longest",
        "call",
        0,
        "calls, of the lowest rank it may call, the card of the suit it holds most of",
    ),
    Policy("simple", "ecart", 0, "the cheapest cards: small cards, then Jacks, Knights, Queens"),
    Policy(
        "expert",
        "ecart",
        1,
        "voids first, then points from the suits the taker cannot keep, then short suits",
    ),
    Policy("always", "poignee", 0, "shows the largest poignée the hand allows"),
    Policy("never", "poignee", 1, "never shows a poignée"),
    Policy(
        "smart",
        "poignee",
        2,
        "shows the largest poignée only when its side is likely to win the deal, judged on its "
        "count and the contract",
    ),
    Policy("never", "chelem", 0, "never announces a chelem"),
    Policy(
        "overwhelming",
        "chelem",
        1,
        "announces a chelem when the taker's count reaches `chelem_threshold`",
        options=("chelem_threshold",),
    ),
)

SEARCHED: dict[str, tuple[int, str]] = {
    "call": (1, "calls the card, of the lowest rank it may call and not held, whose"),
    "ecart": (2, "lays the écart, of the expert's, the simple one's and those voiding suits, whose"),
    "poignee": (3, "shows the largest poignée or none as its"),
    "chelem": (2, "announces a chelem or not as its"),
}
"""The decisions searched like a card by ``pimc`` (``kernels.search.decisions``): the code of
their ``search`` policy and what it chooses."""
_POLICY_LIST += tuple(
    Policy("search", d, code, f"deals the unseen cards many times and {what} playouts score best",
           options=(f"{d}_worlds",), searches=True)
    for d, (code, what) in SEARCHED.items()
)  # fmt: skip

POLICY_TABLE: dict[tuple[str, str], Policy] = {(p.decision, p.name): p for p in _POLICY_LIST}
"""Every policy, by (decision, name): two decisions may use one name (``never``)."""

MAX_TRUMP_HAND = 24
"""The most cards in a hand at any table (3 players): the bound of a count of trumps before
the table size is known."""

_OPTION_LIST: tuple[Option, ...] = (
    Option(
        "follow_min_attack",
        "play",
        "count",
        H.FOLLOW_MIN_ATTACK,
        "cards of a suit still out from which the attack counts on a foe to follow it rather than "
        "trump it (0: always, 15: never)",
        high=SUIT_CARDS_OUT_MAX,
        slot="P_FOLLOW_MIN_ATTACK",
        side=ATTACK,
    ),
    Option(
        "follow_min_defence",
        "play",
        "count",
        H.FOLLOW_MIN_DEFENCE,
        "the same for the defence",
        high=SUIT_CARDS_OUT_MAX,
        slot="P_FOLLOW_MIN_DEFENCE",
        side=DEFENCE,
    ),
    Option(
        "worth_trump_attack",
        "play",
        "count",
        H.WORTH_TRUMP_HALF_ATTACK,
        "half points a trick must hold for the attack to take it with a trump that wins for sure "
        "(a cheaper trick gets its lowest trump; 46: never)",
        high=TRICK_HALF_MAX,
        slot="P_WORTH_TRUMP_ATTACK",
        side=ATTACK,
    ),
    Option(
        "worth_trump_defence",
        "play",
        "count",
        H.WORTH_TRUMP_HALF_DEFENCE,
        "the same for the defence",
        high=TRICK_HALF_MAX,
        slot="P_WORTH_TRUMP_DEFENCE",
        side=DEFENCE,
    ),
    Option(
        "draw_trumps_min",
        "play",
        "count",
        H.DRAW_TRUMPS_MIN,
        "trumps besides the Petit from which the attack leads its master trump to draw the foes' "
        "trumps (it also needs as many as are still out)",
        slot="P_DRAW_TRUMPS_MIN",
        side=ATTACK,
    ),
    Option(
        "hunt_petit_min",
        "play",
        "count",
        H.HUNT_PETIT_MIN,
        "trumps besides the Petit from which the defence leads its highest trump to hunt the "
        "Petit (it also needs as many as are still out)",
        slot="P_HUNT_PETIT_MIN",
        side=DEFENCE,
    ),
    Option(
        "king_lead_min",
        "play",
        "count",
        H.KING_LEAD_MIN,
        "cards of a suit still out from which the defence leads its King of the suit at Prise and "
        "Garde, when no foe has shown a void in it (15: never)",
        high=SUIT_CARDS_OUT_MAX,
        slot="P_KING_LEAD_MIN",
        side=DEFENCE,
    ),
    Option(
        "king_lead_min_blind",
        "play",
        "count",
        H.KING_LEAD_MIN_BLIND,
        "the same at Garde sans and Garde contre, where the taker made no écart",
        high=SUIT_CARDS_OUT_MAX,
        slot="P_KING_LEAD_MIN_BLIND",
        side=DEFENCE,
    ),
    Option(
        "worlds",
        "play",
        "count",
        DEFAULT_WORLDS,
        "deals of the unseen cards drawn per decision",
        low=1,
        high=H.MAX_WORLDS,
        slot="P_WORLDS",
    ),
    Option(
        "endgame",
        "play",
        "count",
        DEFAULT_ENDGAME,
        "tricks left from which the exact solver replaces the playouts (0: never)",
        high=MAX_ENDGAME,
        slot="P_ENDGAME",
    ),
    Option(
        "rollout",
        "play",
        "policy",
        "heuristic",
        "card play of every seat in the playouts",
        slot="P_ROLLOUT",
    ),
    Option(
        "drop",
        "play",
        "count",
        DEFAULT_DROP,
        "a card whose values fall this many tenths of a standard error behind the best card's "
        "(paired over the worlds drawn) is no longer played out (0: never)",
        high=MAX_DROP,
        slot="P_DROP",
    ),
    Option(
        "knowledge",
        "play",
        "choice",
        "rules",
        "what it infers of the unseen cards: `rules`, every inference the rules allow (voids, the "
        "trumps an under-trump shows a seat lacks, the poignées, the écart's trumps, a lower rank "
        "called); `table`, what the table shows directly, as before these inferences were added",
        slot="P_KNOWLEDGE",
        choices=H.KNOWLEDGE_NAMES,
    ),
    Option(
        "infer",
        "play",
        "choice",
        "none",
        "how it weighs its worlds: `none`, every consistent deal alike; `heuristic`, deals resampled "
        "by how likely they make the other seats' bids, poignées and cards under a smoothed model "
        "of the built-in players (four candidate deals drawn per deal kept)",
        slot="P_INFER",
        choices=H.INFER_NAMES,
    ),
    Option(
        "bid_thresholds",
        "bid",
        "thresholds",
        None,
        "Chavey counts from which it bids Prise, Garde, Garde sans and Garde contre (default: the "
        "published bands 40/56/71/81, scaled by the cards in a hand); for `montecarlo`, the bands "
        "by which it assumes the earlier speakers bid",
        slot="P_BID_PRISE",
    ),
    Option(
        "bid_worlds",
        "bid",
        "count",
        DEFAULT_BID_WORLDS,
        "worlds sampled per decision",
        low=1,
        high=MAX_BID_WORLDS,
        slot="P_BID_WORLDS",
    ),
    Option(
        "bid_rollout",
        "bid",
        "policy",
        DEFAULT_BID_ROLLOUT,
        "the card play of the playouts, every seat: any card play, `pimc` included (each of its "
        "decisions then searches worlds of its own, from the playout seat's view of the bidder's world)",
        slot="P_BID_ROLLOUT",
        choices=tuple(p.name for p in sorted(_POLICY_LIST, key=lambda p: p.code) if p.decision == "play"),
    ),
    Option(
        "bid_rollout_worlds",
        "bid",
        "count",
        DEFAULT_BID_ROLLOUT_WORLDS,
        "with `bid_rollout=pimc`: the worlds each `pimc` decision of the playouts draws (its other "
        "options are the seat's own)",
        low=1,
        high=H.MAX_WORLDS,
        slot="P_BID_ROLLOUT_WORLDS",
    ),
    Option(
        "bidder",
        "bid",
        "path",
        None,
        "the model, a file made by `tarotsim fit-bidder` (needed)",
        slot="P_LEARNED_0",
    ),
    Option(
        "chelem_threshold",
        "chelem",
        "count",
        DEFAULT_CHELEM_THRESHOLD,
        "count with the distribution bonus from which it announces",
        high=MAX_COUNT,
        slot="P_CHELEM_THRESHOLD",
    ),
)

_OPTION_LIST += tuple(
    Option(f"{d}_worlds", d, "count", DEFAULT_DECIDE_WORLDS, "deals of the unseen cards drawn per decision",
           low=1, high=H.MAX_WORLDS, slot=f"P_{d.upper()}_WORLDS")
    for d in SEARCHED
)  # fmt: skip

OPTIONS: dict[str, Option] = {o.name: o for o in _OPTION_LIST}
"""Every option of a policy, by name, in the order specs write them."""

POLICY_SLOTS: dict[str, str] = {d: f"P_{d.upper()}_POLICY" for d in DECISIONS} | {"play": "P_PLAY_ATTACK"}
"""The ``P_*`` slot holding each decision's policy code (card play: ``P_PLAY_ATTACK`` and
``P_PLAY_DEFENCE``)."""

DEFAULTS: dict[str, str] = {
    "play": "heuristic",
    "bid": "chavey",
    "call": "longest",
    "ecart": "expert",
    "poignee": "always",
    "chelem": "never",
}
"""The default policy of each decision, everywhere (``Strategy()``, ``RunConfig()``, every
command): heuristic card play, Chavey's bids, the expert écart."""


def policy_names(decision: str) -> tuple[str, ...]:
    """The names of ``decision``'s policies, in code order."""
    return tuple(p.name for p in sorted(_POLICY_LIST, key=lambda p: p.code) if p.decision == decision)


def policy_codes(decision: str) -> dict[str, int]:
    """``decision``'s policies: name → kernel code (the tables ``PLAY_POLICIES`` … below)."""
    return {p.name: p.code for p in _POLICY_LIST if p.decision == decision}


def policy(decision: str, name: str) -> Policy:
    """The policy ``name`` of ``decision``; a ``ValueError`` naming the valid ones otherwise."""
    check_policy_name(decision, name, policy_names(decision))
    return POLICY_TABLE[decision, name]


def check_choice(key: str, name: object, names: tuple[str, ...]) -> str:
    """``name`` if it is among ``names``, else a ``TypeError``/``ValueError`` naming ``key`` and the valid names."""
    if not isinstance(name, str):
        raise TypeError(f"{key} must be a name such as {names[0]!r}, got {name!r}")
    if name not in names:
        raise ValueError(f"unknown {key} {name!r}; valid names: {', '.join(sorted(names))}")
    return name


def check_policy_name(key: str, name: object, names: tuple[str, ...]) -> str:
    """``name`` if it is among ``names``, else a ``TypeError``/``ValueError`` naming ``key`` and the valid names."""
    if not isinstance(name, str):
        raise TypeError(f"{key} must be a name such as {names[0]!r}, got {name!r}")
    if name not in names:
        raise ValueError(f"unknown {key} policy {name!r}; valid names: {', '.join(sorted(names))}")
    return name


def parse_whole(name: str, text: str, low: int, high: int | None) -> int:
    """The whole number written ``text`` for ``name``, refused out of ``low`` … ``high``
    (``high`` None: the largest hand) before Python builds a huge integer."""
    text = text.strip()
    body = text[1:] if text[:1] in "+-" else text
    if not body.isdigit() or not body.isascii():
        raise ValueError(f"{name} must be a whole number, got {text!r}")
    top = MAX_TRUMP_HAND if high is None else high
    if len(body.lstrip("0")) > len(str(top)):
        raise range_error(name, low, top, text)
    return check_whole(name, int(text), low, top)


def check_thresholds(value: object) -> tuple[int, int, int, int]:
    """Four increasing Chavey counts, 0 to ``MAX_COUNT``; else a ``ValueError``/``TypeError``."""
    message = (
        "bid_thresholds must be four increasing Chavey counts (Prise, Garde, Garde sans, Garde contre) "
        f"such as 40/56/71/81, got {value!r}"
    )
    if isinstance(value, str) or not isinstance(value, (tuple, list)) or len(value) != 4:
        raise ValueError(message)
    if any(isinstance(t, bool) or not isinstance(t, (int, np.integer)) for t in value):
        raise ValueError(f"bid_thresholds must be whole numbers (Chavey counts), got {value!r}")
    counts = tuple(check_whole("a bid threshold", t, 0, MAX_COUNT) for t in value)
    if list(counts) != sorted(counts):
        raise ValueError(message)
    return counts  # type: ignore[return-value]


def parse_thresholds(text: str) -> tuple[int, int, int, int]:
    """``bid_thresholds`` written ``40/56/71/81`` (or ``40,56,71,81``, the old flag's form)."""
    parts = text.replace(",", "/").split("/")
    if len(parts) != 4 or not all(p.strip().lstrip("+-").isdigit() and p.isascii() for p in parts):
        raise ValueError(
            f"bid_thresholds must be four increasing Chavey counts such as 40/56/71/81, got {text!r}"
        )
    return check_thresholds(tuple(parse_whole("a bid threshold", p, 0, MAX_COUNT) for p in parts))


def searches(blocks: np.ndarray) -> bool:
    """Whether a seat of any of ``blocks`` searches (a policy flagged ``searches``).

    ``blocks`` are configurations int64[N_CFG] or int64[k, N_CFG] (a sweep's or a duel's
    rows): the run's own, so that one answer sets both its block size and its progress step.
    """
    from tarotsim.engine.kernels import state as S

    slots = [(d, getattr(S, slot)) for d, slot in POLICY_SLOTS.items()] + [("play", S.P_PLAY_DEFENCE)]
    codes = {d: {p.code for p in _POLICY_LIST if p.decision == d and p.searches} for d in DECISIONS}
    return any(
        row[S.C_SEATS + seat * S.N_SEAT_CFG + slot] in codes[d]
        for row in np.atleast_2d(blocks)
        for seat in range(int(row[S.C_PLAYERS]))
        for d, slot in slots
    )


# --- derived files ------------------------------------------------------------------------

PLAY_POLICIES: dict[str, int] = policy_codes("play")
"""Card-play policies, name → kernel code (as are the four tables below)."""
PLAYOUT_POLICIES: tuple[str, ...] = tuple(name for name in PLAY_POLICIES if policy("play", name).rollout)
"""The card-play policies a search may play its playouts with (those that search nothing)."""
BID_POLICIES: dict[str, int] = policy_codes("bid")
ECART_POLICIES: dict[str, int] = policy_codes("ecart")
POIGNEE_POLICIES: dict[str, int] = policy_codes("poignee")
CHELEM_POLICIES: dict[str, int] = policy_codes("chelem")
