"""The ``heuristic`` card-play policy: a rule-based player for the attack and the defence,
and ``basic``, the same player as it was before 0.2.0, kept so that duels show the gain.

A decision reads the seat's ``SeatView`` (``engine.kernels.view``) into a ``Reading``
(``knowledge.read_view``): its own hand, the cards played so far, the écart as it saw it,
its own side, the public scalars (the voids shown, the trick's winner, worth and Petit),
and, for the ``heuristic`` (``informed``), where the cards shown at the table are: the
chien shown at Prise and Garde is with the taker or in its écart, a poignée's trumps stay
in their hand. The view is all it reads (``tests/test_no_peeking.py`` checks it). The choice is then made by small named steps,
each returning a card id or -1 ("no opinion"), tried in a fixed order; later policies can
reuse the steps one by one.

``heuristic`` and ``basic`` are one code path: ``heuristic_choice(..., informed)``, where
``informed`` False (``basic``) leaves every unseen card as anyone's and skips the steps
added since (``lead_king``), so that ``basic`` plays exactly as the heuristic did before
(``tests/golden/basic.json``).

Whether an announced chelem is still alive is read from the view's
``info[I_TRICKS_WON_BY]``, the sides that won a trick so far (``engine.kernels.steps.end_trick`` keeps it).

The steps, in the order they are tried (all deterministic: no random tie-break, the
deal's random stream is never touched):

- ``excuse_step``: play the Excuse on the next-to-last trick at the latest (never waste it
  on the last trick, where it would change sides), or earlier instead of giving the Petit,
  or nothing but Queens and Kings, to a trick the foes win; keep it for the last trick
  while an announced chelem is alive (it then wins that trick).
- leads, attack: ``chelem_lead`` (playing an announced chelem: master trump, then
  masters); ``cash_master`` (a master suit card, Kings first, unless a defender has shown
  a void there while it may still trump); ``draw_trumps`` (the master trump, when the
  taker holds at least as many trumps as are out); ``lead_long`` (a low card of the
  longest suit).
- leads, defence: ``cash_master`` (only once the taker has shown it holds no trump);
  ``lead_king`` (heuristic only: a King while enough cards of its suit are out and no foe
  has shown a void in it, ``KING_LEAD_MIN``; at Garde sans and Garde contre, where the
  taker made no écart, ``KING_LEAD_MIN_BLIND``);
  ``lead_taker_void`` (a suit the taker has shown void in, so that it must trump);
  ``hunt_petit`` (the highest trump, while the Petit is out and the seat holds as many
  trumps as are out); ``lead_long`` (a low card of the longest suit without a King, which
  keeps the Kings guarded).
- following: ``capture_petit`` (take a foe's Petit); ``save_petit`` (play one's own Petit
  in a trick one's side wins for sure); ``charge`` (give the most valuable card to a
  partner who wins the trick for sure); ``win_trick`` (the cheapest card that wins the
  trick for sure: a suit card always, a trump when the trick is worth it); ``underplay``
  (the cheapest card: lowest of the suit, a discard that spares Kings and their guards,
  the lowest trump).

"For sure" (``judging.holds_against``) uses what the seat knows: higher cards that a foe still
to play may hold (``View.threat*``), shown voids, and per side how far a foe that has
shown no void is trusted to follow a suit (``FOLLOW_MIN_*``): the taker trusts the
defenders, the defence never trusts the taker.

Tunable constants: ``FOLLOW_MIN_*``, ``WORTH_TRUMP_HALF_*``, ``DRAW_TRUMPS_MIN``,
``HUNT_PETIT_MIN`` and ``KING_LEAD_MIN*`` (``engine.kernels.constants``, where each is explained,
without Numba for the registry) are the defaults; each seat plays with
its own values, read from its block of ``cfg`` (``engine.kernels.state.P_*``) into the
``Reading``, which ``tarotsim.players.strategy`` exposes as named options (``basic`` has its own
defaults where the heuristic's moved on: ``BASIC_*``).

The Petit is kept out of every other choice: it is played when forced, by ``save_petit``,
or on the last trick; once no foe can hold a trump it is master and waits for the last
trick (petit au bout).
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import (
    EXCUSE,
    EXCUSE_BIT,
    HALF_POINTS,
    KINGS_MASK,
    N_SUIT_CARDS,
    N_SUITS,
    PETIT,
    PETIT_BIT,
    QUEENS_MASK,
    TRUMP_SUIT,
    TRUMPS_MASK,
)
from tarotsim.engine.kernels.bits import ZERO, highest_bit, lowest_bit, popcount
from tarotsim.engine.kernels.constants import (  # noqa: F401 (the heuristic's defaults, here with the heuristic)
    BASIC_DRAW_TRUMPS_MIN,
    DRAW_TRUMPS_MIN,
    FOLLOW_MIN_ATTACK,
    FOLLOW_MIN_DEFENCE,
    HUNT_PETIT_MIN,
    KING_LEAD_MIN,
    KING_LEAD_MIN_BLIND,
    WORTH_TRUMP_HALF_ATTACK,
    WORTH_TRUMP_HALF_DEFENCE,
)
from tarotsim.engine.kernels.rules import above_in_suit, suit_bits, void_seats
from tarotsim.engine.kernels.view import SeatView
from tarotsim.players.kernels.policies.judging import (
    NON_PETIT,
    beats,
    cheapest_suit_card,
    dearest_suit_card,
    holds_against,
    lowest_card,
    suit_holds,
    sure_winner,
    trump_card,
)
from tarotsim.players.kernels.policies.knowledge import Reading, is_void, read_view

_NO_KEY = 1 << 30  # above every key of a search for the lowest: nothing found yet

_DISCARD_VALUE = 64  # discard keys: weight of the card's value, above the rest of a key
_DISCARD_GUARDED = 32  # discard keys, defence: a King with at most 2 guards keeps them
_KINGLESS_FIRST = 16  # lead_long: above any suit length, suits without a King first


# ---------------------------------------------------------------------------------------------
# steps: the Excuse and the Petit
# ---------------------------------------------------------------------------------------------


@njit(inline="always")
def excuse_step(v: Reading, has_excuse: bool) -> int:
    """The Excuse, when it should be played now; -1 otherwise.

    Never kept for the last trick (it would change sides) except while an announced
    chelem is alive, when it wins the last trick. Played early instead of giving the
    Petit, or nothing but Queens and Kings, to a trick the foes win.
    """
    if not has_excuse or v.chelem:
        return -1
    if v.cards_left <= 2:
        return EXCUSE
    if v.win_seat < 0 or v.ally_wins:
        return -1
    if v.legal0 == ZERO:
        return EXCUSE if v.legal1 == PETIT_BIT else -1
    if v.legal1 == ZERO and not v.legal0 & ~(KINGS_MASK | QUEENS_MASK):
        if not beats(v, cheapest_suit_card(v.legal0)):
            return EXCUSE
    return -1


@njit
def save_petit(v: Reading) -> int:
    """The Petit, when playing it now brings it home to the seat's side for sure; -1 otherwise.

    Once no foe can hold a trump the Petit is master: it is kept for the last trick
    (petit au bout) and this step says nothing.
    """
    if not (v.legal1 & PETIT_BIT) or not v.foe_trumps:
        return -1
    if v.ally_wins and v.hi > 0:
        return PETIT if holds_against(v, v.win_card) else -1
    if beats(v, PETIT) and holds_against(v, PETIT):
        return PETIT
    return -1


@njit
def capture_petit(v: Reading, legal0: np.uint64, legal1: np.uint64) -> int:
    """When a foe's Petit is in a trick the foes win: the cheapest card that takes it for sure,
    else the highest trump that takes it for now."""
    if not v.petit_foe_in_trick or v.ally_wins:
        return -1
    card = sure_winner(v, legal0, legal1)
    if card >= 0:
        return card
    trumps = legal1 & TRUMPS_MASK
    if trumps:
        card = trump_card(highest_bit(trumps))
        if beats(v, card):
            return card
    return -1


# ---------------------------------------------------------------------------------------------
# steps: following
# ---------------------------------------------------------------------------------------------


@njit
def charge(v: Reading, legal0: np.uint64, legal1: np.uint64) -> int:
    """The most valuable card to give a partner who wins the trick for sure (never a trump of worth)."""
    if legal0:
        return dearest_suit_card(legal0)
    trumps = legal1 & NON_PETIT
    if trumps:
        return trump_card(lowest_bit(trumps))
    return lowest_card(legal0, legal1)


@njit
def discard(v: Reading, legal0: np.uint64) -> int:
    """A suit card to throw: the cheapest, sparing Kings and their guards.

    The attack throws from its shortest suit (to trump it later); the defence from the
    longest suit without a King, keeping a King's small guards.
    """
    best = -1
    best_key = _NO_KEY
    for suit in range(N_SUITS):
        cards = legal0 & suit_bits(suit)
        if not cards:
            continue
        length = popcount(cards)
        king = (cards & KINGS_MASK) != ZERO
        if king and length == 1:
            continue  # a lone King goes last
        card = lowest_bit(cards)
        value = HALF_POINTS[card]
        # keys compare the card's value first (_DISCARD_VALUE is above the rest of a key)
        if v.attack:  # the shortest suit, a suit without a King first
            key = value * _DISCARD_VALUE + length * 2 + (1 if king else 0)
        else:  # spare a King's guards (3 cards or fewer), then the longest suit
            key = value * _DISCARD_VALUE + (_DISCARD_GUARDED if king and length <= 3 else 0) - length
        if key < best_key:
            best_key = key
            best = card
    if best < 0:
        return cheapest_suit_card(legal0)
    return best


@njit
def underplay(v: Reading, legal0: np.uint64, legal1: np.uint64) -> int:
    """The cheapest card: the lowest of the suit led, a discard, or the lowest trump but the Petit."""
    if legal0:
        if 0 <= v.led < TRUMP_SUIT and (legal0 & ~suit_bits(v.led)) == ZERO:
            return lowest_bit(legal0)
        return discard(v, legal0)
    trumps = legal1 & NON_PETIT
    if trumps:
        return trump_card(lowest_bit(trumps))
    return lowest_card(legal0, legal1)


@njit
def win_trick(v: Reading, legal0: np.uint64, legal1: np.uint64) -> int:
    """The cheapest card that wins the trick for sure, when that is worth it; -1 otherwise.

    A suit card always is; a trump when the trick holds ``v.worth_trump`` half points or
    more (else the cheapest trump is played by ``underplay`` and may still win).
    """
    card = sure_winner(v, legal0, legal1)
    if card < 0:
        return -1
    if card < N_SUIT_CARDS or v.trick_half >= v.worth_trump:
        return card
    return -1


@njit
def follow_chelem(v: Reading, legal0: np.uint64, legal1: np.uint64) -> int:
    """Playing an announced chelem: the cheapest card that wins for sure, else the strongest."""
    card = sure_winner(v, legal0, legal1)
    if card >= 0:
        return card
    trumps = legal1 & NON_PETIT
    if trumps and beats(v, trump_card(highest_bit(trumps))):
        return trump_card(highest_bit(trumps))
    if legal0 and beats(v, highest_bit(legal0)):
        return highest_bit(legal0)
    return underplay(v, legal0, legal1)


@njit(inline="always")
def follow_card(v: Reading, legal0: np.uint64, legal1: np.uint64) -> int:
    """Following in a trick that a card already wins."""
    if v.chelem:
        return follow_chelem(v, legal0, legal1)
    card = capture_petit(v, legal0, legal1)
    if card >= 0:
        return card
    card = save_petit(v)
    if card >= 0:
        return card
    if legal0 | (legal1 & NON_PETIT):
        legal1 &= NON_PETIT  # the Petit is played only when forced
    if v.ally_wins and holds_against(v, v.win_card):
        return charge(v, legal0, legal1)
    card = win_trick(v, legal0, legal1)
    if card >= 0:
        return card
    return underplay(v, legal0, legal1)


# ---------------------------------------------------------------------------------------------
# steps: leading
# ---------------------------------------------------------------------------------------------


@njit(inline="always")
def suit_lead_is_safe(v: Reading, suit: int, higher_out: bool) -> bool:
    """Whether a lead of ``suit`` is likely to win against every foe (``suit_holds``)."""
    return suit_holds(v, v.foes, suit, higher_out, v.out1)


@njit
def cash_master(v: Reading) -> int:
    """A master suit card (no unseen card of its suit above it) in a suit safe to lead; Kings first."""
    best = -1
    best_value = -1
    for suit in range(N_SUITS):
        mine = v.legal0 & suit_bits(suit)
        if not mine:
            continue
        top = highest_bit(mine)
        if v.out0 & above_in_suit(top):
            continue
        if HALF_POINTS[top] > best_value and suit_lead_is_safe(v, suit, False):
            best_value = HALF_POINTS[top]
            best = top
    return best


@njit
def draw_trumps(v: Reading) -> int:
    """Lead the master trump while foes may hold trumps and the seat is long in them.

    "Long": at least ``v.draw_trumps_min`` trumps besides the Petit (default four), and as
    many as all the trumps still out. The master trump wins and pulls a trump from each foe; drawing the trumps also
    makes one's Petit safe and one's Kings good. Without the master trump nothing is led
    here: leading lower trumps lost more than it drew in the tuning runs.
    """
    if not v.foe_trumps:
        return -1
    mine = v.legal1 & NON_PETIT
    out = v.out1 & TRUMPS_MASK
    n_mine = popcount(mine)
    if n_mine < v.draw_trumps_min or n_mine < popcount(out):
        return -1
    top = highest_bit(mine)
    if top > highest_bit(out):
        return trump_card(top)
    return -1


@njit
def lead_taker_void(v: Reading) -> int:
    """The lowest card of a suit the taker has shown void in, while the taker may still trump."""
    if is_void(v, v.taker, TRUMP_SUIT) or not (v.out1 & TRUMPS_MASK):
        return -1
    best = -1
    best_len = _NO_KEY
    for suit in range(N_SUITS):
        if not is_void(v, v.taker, suit):
            continue
        cards = v.legal0 & suit_bits(suit) & ~KINGS_MASK
        if cards and popcount(cards) < best_len:
            best_len = popcount(cards)
            best = lowest_bit(cards)
    return best


@njit
def lead_king(v: Reading) -> int:
    """Active defence: a King, in the suit with most cards out, while at least
    ``v.king_lead_min`` of its cards are out and no foe has shown a void in it; -1 otherwise."""
    best = -1
    best_out = v.king_lead_min - 1
    for suit in range(N_SUITS):
        king = v.legal0 & suit_bits(suit) & KINGS_MASK
        if not king or v.foes & void_seats(v.voids, suit):
            continue
        n_out = popcount(v.out0 & suit_bits(suit))
        if n_out > best_out:
            best_out = n_out
            best = lowest_bit(king)
    return best


@njit
def hunt_petit(v: Reading) -> int:
    """Lead a trump to force out the Petit while it is out and the trumps out are few.

    The seat holds at least ``v.hunt_petit_min`` trumps besides the Petit (default two) and
    as many as remain out, so the taker is running short; its highest trump is led.
    """
    if not (v.out1 & PETIT_BIT) or is_void(v, v.taker, TRUMP_SUIT):
        return -1
    mine = v.legal1 & NON_PETIT
    n_mine = popcount(mine)
    if n_mine < v.hunt_petit_min or n_mine < popcount(v.out1 & TRUMPS_MASK):
        return -1
    return trump_card(highest_bit(mine))


@njit
def lead_long(v: Reading) -> int:
    """The lowest card of the longest suit, preferring suits without a King (keep Kings guarded).

    For the taker this also works the long suit: its small cards go early, its honours
    become masters.
    """
    best = -1
    best_key = -1
    for suit in range(N_SUITS):
        cards = v.legal0 & suit_bits(suit)
        low = cards & ~KINGS_MASK
        if not low:
            continue
        key = popcount(cards) + (0 if cards & KINGS_MASK else _KINGLESS_FIRST)
        if key > best_key:
            best_key = key
            best = lowest_bit(low)
    return best


@njit
def chelem_lead(v: Reading) -> int:
    """Playing an announced chelem: the master trump while foes may hold trumps, then masters."""
    mine = v.legal1 & TRUMPS_MASK
    if v.foe_trumps and mine and highest_bit(mine) > highest_bit(v.out1 & TRUMPS_MASK):
        return trump_card(highest_bit(mine))
    for suit in range(N_SUITS):
        cards = v.legal0 & suit_bits(suit)
        if cards and not (v.out0 & above_in_suit(highest_bit(cards))):
            return highest_bit(cards)
    if mine & NON_PETIT:
        return trump_card(highest_bit(mine & NON_PETIT))
    return -1


@njit
def lead_fallback(v: Reading, legal0: np.uint64, legal1: np.uint64) -> int:
    """A lead when no step had one: a discard-like low card, else the best trump but the Petit."""
    if legal0:
        return discard(v, legal0)
    trumps = legal1 & NON_PETIT
    if trumps:
        if v.foe_trumps and highest_bit(trumps) > highest_bit(v.out1 & TRUMPS_MASK):
            return trump_card(highest_bit(trumps))
        return trump_card(lowest_bit(trumps))
    return lowest_card(legal0, legal1)


@njit(inline="always")
def lead_card(v: Reading, legal0: np.uint64, legal1: np.uint64) -> int:
    """Leading a trick (or playing after a lone Excuse)."""
    if v.chelem:
        card = chelem_lead(v)
    elif v.attack:
        card = cash_master(v)
        if card < 0:
            card = draw_trumps(v)
        if card < 0:
            card = lead_long(v)
    else:
        card = cash_master(v)
        if card < 0 and v.informed:
            card = lead_king(v)
        if card < 0:
            card = lead_taker_void(v)
        if card < 0:
            card = hunt_petit(v)
        if card < 0:
            card = lead_long(v)
    if card >= 0:
        return card
    if legal0 | (legal1 & NON_PETIT):
        legal1 &= NON_PETIT
    return lead_fallback(v, legal0, legal1)


@njit(_nrt=False)
def heuristic_card(v: SeatView, legal0: np.uint64, legal1: np.uint64, cfg: np.ndarray) -> int:
    """The card the heuristic plays for the seat of ``v`` from its legal cards, with its
    options: a compiled entry of its own, for the callers outside the play loop (the
    ``pimc`` player's fallback; ``players.kernels.machine.play_tricks`` inlines ``heuristic_choice``)."""
    return heuristic_choice(v, legal0, legal1, cfg, True)


@njit(inline="always")
def heuristic_choice(
    v: SeatView, legal0: np.uint64, legal1: np.uint64, cfg: np.ndarray, informed: bool
) -> int:
    """The card of the heuristic (``informed``) or of ``basic`` for the seat of ``v``, with its options."""
    n0 = popcount(legal0)
    n1 = popcount(legal1)
    if n0 + n1 == 1:
        return lowest_bit(legal0) if n0 else trump_card(lowest_bit(legal1))
    has_excuse = (legal1 & EXCUSE_BIT) != ZERO
    legal1 &= ~EXCUSE_BIT
    r = read_view(v, legal0, legal1, cfg, informed)
    card = excuse_step(r, has_excuse)
    if card >= 0:
        return card
    if r.win_seat < 0:
        return lead_card(r, legal0, legal1)
    return follow_card(r, legal0, legal1)
