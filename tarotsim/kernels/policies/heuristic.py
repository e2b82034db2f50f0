"""The ``heuristic`` card-play policy: a rule-based player for the attack and the defence.

A decision first gathers what the seat may know into a ``View`` (``make_view``): its own
hand, the cards played so far and the current trick, the voids revealed by play, the
trumps shown in the écart, the écart itself for the taker, and the public scalars of
``Table.info``. Nothing else of the table is read, which ``tests/test_no_peeking.py``
checks. The choice is then made by small named steps, each returning a card id or -1
("no opinion"), tried in a fixed order; later policies can reuse the steps one by one.

Knowledge kept from one decision to the next: ``info[I_TRICKS_WON_BY]`` records which
sides have won a trick (read from each trick's leader, who won the trick before); the
heuristic uses it to know whether an announced chelem is still alive.

The order of the steps (all deterministic, no random tie-break):

- ``excuse_step``: play the Excuse on the next-to-last trick at the latest (never waste it
  on the last trick), or earlier to avoid giving a Queen, King or the Petit to the
  opponents; keep it for the last trick while playing an announced chelem that is alive.
- leads, attack: ``chelem_lead`` (masters first), ``draw_trumps`` (when long in trumps,
  or to make the Petit safe), ``cash_master`` (a master suit card, when the opponents are
  likely to follow), ``lead_short`` (a low card of the shortest suit, to trump it later).
- leads, defence: ``cash_master`` (against the taker only), ``lead_taker_void`` (a suit
  the taker has shown void in, so that the taker must trump), ``hunt_petit`` (trumps when
  the taker may hold a Petit that is running short of guards), ``lead_long`` (a low card
  of the longest suit, keeping Kings guarded).
- following: ``capture_petit`` (take an opponent's Petit), ``save_petit`` (play one's own
  Petit in a trick that one's side wins for sure), ``charge`` (give the most points to a
  partner who wins the trick for sure), ``win_trick`` (the cheapest card that wins for
  sure, when worth it), ``underplay`` (the cheapest card, keeping Kings guarded and
  shortening suits).

The Petit is kept out of every other choice (it is played only when forced, by
``save_petit``, or at the end); once no opponent can hold a trump it is kept for the last
trick, where it wins (petit au bout).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tarotsim._jit import njit
from tarotsim.cards import (
    EXCUSE,
    EXCUSE_BIT,
    FULL_WORD0,
    FULL_WORD1,
    HALF_POINTS,
    JACKS_MASK,
    KINGS_MASK,
    KNIGHTS_MASK,
    N_SUIT_CARDS,
    PETIT,
    PETIT_BIT,
    PIPS_MASK,
    QUEENS_MASK,
    SUIT_LEN,
    SUIT_MASK,
    TRUMP_SUIT,
    TRUMPS_MASK,
)
from tarotsim.kernels.bits import highest_bit, lowest_bit, popcount
from tarotsim.kernels.rules import winning_key
from tarotsim.kernels.table import (
    I_CHELEM_ANNOUNCED,
    I_CHIEN_SHOWN,
    I_HI_TRUMP,
    I_LED,
    I_LEADER,
    I_PARTNER_KNOWN,
    I_PLAYERS,
    I_TAKER,
    I_TRICK,
    I_TRICK_LEN,
    I_TRICKS_WON_BY,
    WON_BY_ATTACK,
    WON_BY_DEFENCE,
    Table,
)

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_TRUMP_VOID = 1 << TRUMP_SUIT  # voids[] bit: no trump left
_NON_PETIT = TRUMPS_MASK & ~PETIT_BIT
_VALUABLE_HALF = 7  # a Queen (3.5 points) or more is worth saving with the Excuse

# How many cards of a suit must be out (not in my hand, not played) for an opponent still
# to play to be likely to follow it, indexed by the number of such opponents. With about a
# third of the unseen cards in each other hand, an opponent is void in a suit of c unseen
# cards with probability near (2/3)^c.
FOLLOW_MIN = np.array([0, 4, 6, 8, 9], dtype=np.int64)
# Trumps a taker needs, beyond the trumps still out, to lead trumps (draw them).
DRAW_MARGIN = 0
# A trick worth at least this many half points is worth a high trump to win for sure.
WORTH_TRUMP_HALF = 4


class View(NamedTuple):
    """What ``seat`` knows when it must play, in scalars (card sets are uint64 words)."""

    seat: int
    players: int
    taker: int
    attack: bool  # the seat plays for the attack
    hand0: np.uint64
    hand1: np.uint64
    legal0: np.uint64
    legal1: np.uint64
    unseen0: np.uint64  # cards neither in the hand nor played (nor in the taker's own écart)
    unseen1: np.uint64
    pos: int  # cards already in the trick
    leader: int
    led: int  # suit led (-1 none, 0-3, 4 trumps)
    hi: int  # highest trump rank in the trick (0 none)
    win_seat: int  # seat winning the trick so far, -1 when none (empty, or the Excuse alone)
    win_card: int
    ally_wins: bool
    trick_half: int  # half points in the trick, the Excuse left out
    foes_after: int  # bit per opponent (not known to be a partner) still to play in the trick
    foe_trumps: bool  # an opponent may still hold a trump
    petit_foe_in_trick: bool  # an opponent played the Petit to this trick
    chelem: bool  # the seat's side plays an announced chelem and has won every trick so far
    cards_left: int


# ---------------------------------------------------------------------------------------------
# card-set helpers
# ---------------------------------------------------------------------------------------------


@njit(inline="always")
def suit_bits(suit: int) -> np.uint64:
    """Word-0 mask of the 14 cards of ``suit`` (0-3)."""
    return SUIT_MASK << np.uint64(SUIT_LEN * suit)


@njit(inline="always")
def above_in_suit(card: int) -> np.uint64:
    """Word-0 mask of the cards of ``card``'s suit that rank above it."""
    return suit_bits(card // SUIT_LEN) & ~((_ONE << np.uint64(card + 1)) - _ONE)


@njit(inline="always")
def trumps_above(rank: int) -> np.uint64:
    """Word-1 mask of the trumps ranked above ``rank`` (0-21)."""
    return TRUMPS_MASK & ~((_ONE << np.uint64(rank)) - _ONE)


@njit(inline="always")
def trump_card(bit: int) -> int:
    """Card id of word-1 bit ``bit``."""
    return N_SUIT_CARDS + bit


@njit(inline="always")
def cheapest_suit_card(word0: np.uint64) -> int:
    """The least valuable suit card of a set (pips, then Jacks … Kings; lowest id first), -1 if none."""
    for cls in (PIPS_MASK, JACKS_MASK, KNIGHTS_MASK, QUEENS_MASK, KINGS_MASK):
        x = word0 & cls
        if x:
            return lowest_bit(x)
    return -1


@njit(inline="always")
def dearest_suit_card(word0: np.uint64) -> int:
    """The most valuable suit card of a set (Kings … pips; highest id first), -1 if none."""
    for cls in (KINGS_MASK, QUEENS_MASK, KNIGHTS_MASK, JACKS_MASK, PIPS_MASK):
        x = word0 & cls
        if x:
            return highest_bit(x)
    return -1


@njit(inline="always")
def lowest_card(word0: np.uint64, word1: np.uint64) -> int:
    """Lowest card id of a non-empty set (suit cards first)."""
    if word0:
        return lowest_bit(word0)
    return trump_card(lowest_bit(word1))


@njit(inline="always")
def is_ally(tb: Table, seat: int, other: int) -> bool:
    """Whether ``seat`` knows ``other`` plays on its side (5 players: the partner is secret)."""
    if other == seat:
        return True
    info = tb.info
    if info[I_PLAYERS] != 5 or info[I_PARTNER_KNOWN]:
        return tb.attack[seat] == tb.attack[other]
    return seat != info[I_TAKER] and tb.attack[seat] == 1 and other == info[I_TAKER]


# ---------------------------------------------------------------------------------------------
# what the seat knows
# ---------------------------------------------------------------------------------------------


@njit(inline="always")
def note_trick_winners(tb: Table) -> None:
    """Record in ``info[I_TRICKS_WON_BY]`` the side of the previous trick's winner (the leader now)."""
    info = tb.info
    if info[I_TRICK] > 0:
        leader = info[I_LEADER]
        info[I_TRICKS_WON_BY] |= WON_BY_ATTACK if is_ally(tb, info[I_TAKER], leader) else WON_BY_DEFENCE


@njit(inline="always")
def make_view(seat: int, legal0: np.uint64, legal1: np.uint64, tb: Table) -> View:
    """Gather what ``seat`` may know about the deal (see the module docstring)."""
    info = tb.info
    players = info[I_PLAYERS]
    taker = info[I_TAKER]
    attack = tb.attack[seat] == 1
    hand0 = tb.hands[seat, 0]
    hand1 = tb.hands[seat, 1]
    unseen0 = FULL_WORD0 & ~(hand0 | tb.played[0])
    unseen1 = FULL_WORD1 & ~(hand1 | tb.played[1])
    if seat == taker and info[I_CHIEN_SHOWN]:
        unseen0 &= ~tb.ecart[0]
        unseen1 &= ~tb.ecart[1]
    else:
        unseen1 &= ~(tb.ecart[1] & TRUMPS_MASK)  # trumps in the écart were shown

    pos = info[I_TRICK_LEN]
    leader = info[I_LEADER]
    led = info[I_LED]
    win_pos = -1
    best = -1
    trick_half = 0
    petit_foe = False
    for j in range(pos):
        card = tb.trick[j]
        if card != EXCUSE:
            trick_half += HALF_POINTS[card]
            if card == PETIT and not is_ally(tb, seat, (leader + j) % players):
                petit_foe = True
        key = winning_key(card, led)
        if key > best:
            best = key
            win_pos = j
    win_seat = -1
    win_card = -1
    ally_wins = False
    if win_pos >= 0:
        win_seat = (leader + win_pos) % players
        win_card = tb.trick[win_pos]
        ally_wins = is_ally(tb, seat, win_seat)

    foes_after = 0
    for k in range(pos + 1, players):
        other = (leader + k) % players
        if not is_ally(tb, seat, other):
            foes_after |= 1 << other
    foe_trumps = False
    if unseen1 & TRUMPS_MASK:
        for other in range(players):
            if not is_ally(tb, seat, other) and not (tb.voids[other] & _TRUMP_VOID):
                foe_trumps = True
    chelem = False
    if info[I_CHELEM_ANNOUNCED] and attack:
        chelem = (info[I_TRICKS_WON_BY] & WON_BY_DEFENCE) == 0
    return View(
        seat,
        players,
        taker,
        attack,
        hand0,
        hand1,
        legal0,
        legal1,
        unseen0,
        unseen1,
        pos,
        leader,
        led,
        info[I_HI_TRUMP],
        win_seat,
        win_card,
        ally_wins,
        trick_half,
        foes_after,
        foe_trumps,
        petit_foe,
        chelem,
        popcount(hand0) + popcount(hand1),
    )


# ---------------------------------------------------------------------------------------------
# judging a card
# ---------------------------------------------------------------------------------------------


@njit(inline="always")
def beats(v: View, card: int) -> bool:
    """Whether ``card`` would beat the card winning the trick now."""
    if v.win_seat < 0:
        return card != EXCUSE
    if card >= N_SUIT_CARDS:
        return card != EXCUSE and card - N_SUIT_CARDS + 1 > v.hi
    return v.hi == 0 and card // SUIT_LEN == v.led and card > v.win_card


@njit(inline="always")
def n_bits(word: int) -> int:
    """Set bits of a small int (seat masks)."""
    count = 0
    while word:
        word &= word - 1
        count += 1
    return count


@njit
def holds_against(v: View, tb: Table, card: int) -> bool:
    """Whether ``card``, winning the trick, stays the winner whatever the opponents after play.

    Certain for a trump above every unseen trump, or when each opponent to play has shown
    it holds no trump; for a suit card, "likely" when no unseen card of the suit ranks above
    it and enough cards of the suit are out for each opponent to follow (``FOLLOW_MIN``).
    """
    if v.foes_after == 0:
        return True
    if card >= N_SUIT_CARDS:
        if not (v.unseen1 & trumps_above(card - N_SUIT_CARDS + 1)):
            return True
        for other in range(v.players):
            if (v.foes_after >> other) & 1 and not (tb.voids[other] & _TRUMP_VOID):
                return False
        return True
    suit = card // SUIT_LEN
    out_in_suit = popcount(v.unseen0 & suit_bits(suit))
    higher = (v.unseen0 & above_in_suit(card)) != _ZERO
    some_trump = (v.unseen1 & TRUMPS_MASK) != _ZERO
    likely_follow = out_in_suit >= FOLLOW_MIN[n_bits(v.foes_after)]
    for other in range(v.players):
        if not (v.foes_after >> other) & 1:
            continue
        voids = tb.voids[other]
        may_trump = some_trump and not (voids & _TRUMP_VOID)
        if (voids >> suit) & 1:
            if may_trump:
                return False
        elif higher or (may_trump and not likely_follow):
            return False
    return True


# ---------------------------------------------------------------------------------------------
# steps: the Excuse and the Petit
# ---------------------------------------------------------------------------------------------


@njit
def excuse_step(v: View, has_excuse: bool) -> int:
    """The Excuse, when it should be played now; -1 otherwise.

    Never kept for the last trick (it would change sides) except while an announced
    chelem is alive, when it wins the last trick. Played early instead of giving a
    valuable card (a Queen or more, or the Petit) to a trick the opponents win.
    ``v.legal0``/``v.legal1`` are the other legal cards.
    """
    if not has_excuse or v.chelem:
        return -1
    if v.cards_left <= 2:
        return EXCUSE
    if v.win_seat < 0 or v.ally_wins:
        return -1
    if v.legal0 == _ZERO:
        if v.legal1 == PETIT_BIT:
            return EXCUSE
        return -1
    if v.legal1 == _ZERO and not v.legal0 & ~(KINGS_MASK | QUEENS_MASK):
        if not beats(v, cheapest_suit_card(v.legal0)):
            return EXCUSE
    return -1


@njit
def keep_petit(v: View) -> bool:
    """Whether the Petit should be kept out of the ordinary choices (it is, unless forced)."""
    return (v.hand1 & PETIT_BIT) != _ZERO


@njit
def save_petit(v: View, tb: Table) -> int:
    """The Petit, when playing it now brings it home to the seat's side for sure; -1 otherwise.

    Once no opponent can hold a trump the Petit is master: it is kept for the last trick.
    """
    if not (v.legal1 & PETIT_BIT) or not v.foe_trumps:
        return -1
    if v.ally_wins and v.hi > 0:
        if holds_against(v, tb, v.win_card):
            return PETIT
        return -1
    if beats(v, PETIT) and holds_against(v, tb, PETIT):
        return PETIT
    return -1


@njit
def capture_petit(v: View, tb: Table, legal0: np.uint64, legal1: np.uint64) -> int:
    """When an opponent's Petit is in the trick and wins or may: the card that takes it.

    The cheapest card that wins for sure, else the highest trump that wins now.
    """
    if not v.petit_foe_in_trick or v.ally_wins:
        return -1
    sure = sure_winner(v, tb, legal0, legal1, False)
    if sure >= 0:
        return sure
    top = legal1 & TRUMPS_MASK
    if top:
        card = trump_card(highest_bit(top))
        if beats(v, card):
            return card
    return -1


# ---------------------------------------------------------------------------------------------
# steps: following
# ---------------------------------------------------------------------------------------------


@njit
def sure_winner(v: View, tb: Table, legal0: np.uint64, legal1: np.uint64, use_petit: bool) -> int:
    """The cheapest legal card that wins the trick and keeps it (``holds_against``); -1 if none."""
    if legal0:
        x = legal0
        while x:
            card = lowest_bit(x)
            if beats(v, card) and holds_against(v, tb, card):
                return card
            x &= x - _ONE
    trumps = legal1 & TRUMPS_MASK
    if not use_petit:
        trumps &= _NON_PETIT
    if v.hi > 0:
        trumps &= trumps_above(v.hi)
    if not trumps:
        return -1
    card = trump_card(lowest_bit(trumps))
    if holds_against(v, tb, card):
        return card
    # otherwise only a trump above every unseen trump holds
    above = trumps & trumps_above(highest_bit(v.unseen1 & TRUMPS_MASK) + 1)
    if above:
        return trump_card(lowest_bit(above))
    return -1


@njit
def charge(v: View, legal0: np.uint64, legal1: np.uint64) -> int:
    """The most valuable card to give a partner who wins the trick for sure."""
    if legal0:
        return dearest_suit_card(legal0)
    trumps = legal1 & _NON_PETIT
    if trumps:
        return trump_card(lowest_bit(trumps))
    return lowest_card(legal0, legal1)


@njit
def discard(v: View, legal0: np.uint64) -> int:
    """A suit card to throw on a trick of another suit: the cheapest, sparing Kings and their guards.

    The attack throws from its shortest suit (to trump it later); the defence from the
    suit without a King where the cheapest card lies, longest first.
    """
    best = -1
    best_key = 1 << 30
    for suit in range(4):
        cards = legal0 & suit_bits(suit)
        if not cards:
            continue
        length = popcount(cards)
        card = lowest_bit(cards)
        value = HALF_POINTS[card]
        king = (cards & KINGS_MASK) != _ZERO
        if king and length == 1:
            continue  # a lone King is never thrown while anything else can go
        guarded_king = king and length <= 3
        if v.attack:
            key = value * 64 + length * 2 + (1 if king else 0)
        else:
            key = value * 64 + (32 if guarded_king else 0) + (16 - length)
        if key < best_key:
            best_key = key
            best = card
    if best < 0:
        return cheapest_suit_card(legal0)
    return best


@njit
def underplay(v: View, legal0: np.uint64, legal1: np.uint64) -> int:
    """The cheapest card: lowest of the suit led, a discard, or the lowest trump (not the Petit)."""
    if legal0:
        if 0 <= v.led < TRUMP_SUIT and (legal0 & ~suit_bits(v.led)) == _ZERO:
            return lowest_bit(legal0)
        return discard(v, legal0)
    trumps = legal1 & _NON_PETIT
    if trumps:
        return trump_card(lowest_bit(trumps))
    return lowest_card(legal0, legal1)


@njit
def worth_winning(v: View, card: int) -> bool:
    """Whether winning the trick with ``card`` is worth it: suit cards always, trumps on points."""
    if card < N_SUIT_CARDS:
        return True
    if v.trick_half >= WORTH_TRUMP_HALF or v.attack:
        return True
    return False


@njit
def follow_card(v: View, tb: Table, legal0: np.uint64, legal1: np.uint64) -> int:
    """Following in a trick (``v.pos > 0`` and a card already winning)."""
    if v.chelem:
        card = sure_winner(v, tb, legal0, legal1, False)
        if card >= 0:
            return card
        best = -1
        x = legal0
        while x:
            c = lowest_bit(x)
            if beats(v, c):
                best = c
            x &= x - _ONE
        if best < 0 and legal1 & _NON_PETIT:
            top = trump_card(highest_bit(legal1 & _NON_PETIT))
            if beats(v, top):
                best = top
        if best >= 0:
            return best
        return underplay(v, legal0, legal1)
    card = capture_petit(v, tb, legal0, legal1)
    if card >= 0:
        return card
    card = save_petit(v, tb)
    if card >= 0:
        return card
    if keep_petit(v) and (legal0 | (legal1 & ~PETIT_BIT)):
        legal1 &= ~PETIT_BIT
    if v.ally_wins:
        if holds_against(v, tb, v.win_card):
            return charge(v, legal0, legal1)
        card = sure_winner(v, tb, legal0, legal1, False)
        if card >= 0 and (card < N_SUIT_CARDS or v.trick_half >= WORTH_TRUMP_HALF):
            return card
        return underplay(v, legal0, legal1)
    card = sure_winner(v, tb, legal0, legal1, False)
    if card >= 0 and worth_winning(v, card):
        return card
    return underplay(v, legal0, legal1)


# ---------------------------------------------------------------------------------------------
# steps: leading
# ---------------------------------------------------------------------------------------------


@njit
def suit_lead_is_safe(v: View, tb: Table, suit: int) -> bool:
    """Whether the opponents are likely to follow a lead of ``suit`` rather than trump it."""
    if not v.foe_trumps:
        return True
    foes = 0
    for other in range(v.players):
        if other != v.seat and not is_ally(tb, v.seat, other):
            if (tb.voids[other] >> suit) & 1 and not (tb.voids[other] & _TRUMP_VOID):
                return False
            foes += 1
    return popcount(v.unseen0 & suit_bits(suit)) >= FOLLOW_MIN[foes]


@njit
def cash_master(v: View, tb: Table) -> int:
    """A master suit card (no unseen card of its suit above it) in a suit safe to lead; Kings first."""
    best = -1
    best_value = -1
    for suit in range(4):
        mine = v.legal0 & suit_bits(suit)
        if not mine:
            continue
        top = highest_bit(mine)
        if v.unseen0 & above_in_suit(top):
            continue
        if HALF_POINTS[top] > best_value and suit_lead_is_safe(v, tb, suit):
            best_value = HALF_POINTS[top]
            best = top
    return best


@njit
def draw_trumps(v: View) -> int:
    """Lead a trump when the taker's side holds at least as many as are out (plus ``DRAW_MARGIN``).

    The master trump when held (it wins and pulls one trump from each opponent), else the
    lowest trump but the Petit. Holding the Petit, drawing also makes it safe.
    """
    if not v.foe_trumps:
        return -1
    mine = v.legal1 & _NON_PETIT
    if not mine:
        return -1
    n_out = popcount(v.unseen1 & TRUMPS_MASK)
    if popcount(mine) < n_out + DRAW_MARGIN:
        return -1
    top = highest_bit(mine)
    if top > highest_bit(v.unseen1 & TRUMPS_MASK):
        return trump_card(top)
    return trump_card(lowest_bit(mine))


@njit
def lead_short(v: View) -> int:
    """The lowest card of the shortest suit, preferring suits without a King (to trump them later)."""
    best = -1
    best_key = 1 << 30
    for suit in range(4):
        cards = v.legal0 & suit_bits(suit)
        if not cards:
            continue
        king = (cards & KINGS_MASK) != _ZERO
        low = cards & ~KINGS_MASK
        if not low:
            continue
        key = popcount(cards) + (16 if king else 0)
        if key < best_key:
            best_key = key
            best = lowest_bit(low)
    return best


@njit
def lead_taker_void(v: View, tb: Table) -> int:
    """The lowest card of a suit the taker has shown void in, while the taker may still trump."""
    taker_voids = tb.voids[v.taker]
    if taker_voids & _TRUMP_VOID or not (v.unseen1 & TRUMPS_MASK):
        return -1
    best = -1
    best_len = 99
    for suit in range(4):
        if not (taker_voids >> suit) & 1:
            continue
        cards = v.legal0 & suit_bits(suit) & ~KINGS_MASK
        if cards and popcount(cards) < best_len:
            best_len = popcount(cards)
            best = lowest_bit(cards)
    return best


@njit
def hunt_petit(v: View, tb: Table) -> int:
    """Lead a trump to force out the Petit when it is still out and the trumps out are few.

    The seat holds at least as many trumps as remain out (so the taker is running short);
    the master trump is led when held, else the highest other.
    """
    if not (v.unseen1 & PETIT_BIT) or tb.voids[v.taker] & _TRUMP_VOID:
        return -1
    mine = v.legal1 & _NON_PETIT
    n_mine = popcount(mine)
    if n_mine < 2 or n_mine < popcount(v.unseen1 & TRUMPS_MASK):
        return -1
    return trump_card(highest_bit(mine))


@njit
def lead_long(v: View) -> int:
    """The lowest card of the longest suit, preferring suits without a King (keep Kings guarded)."""
    best = -1
    best_key = -1
    for suit in range(4):
        cards = v.legal0 & suit_bits(suit)
        low = cards & ~KINGS_MASK
        if not low:
            continue
        key = popcount(cards) + (0 if cards & KINGS_MASK else 16)
        if key > best_key:
            best_key = key
            best = lowest_bit(low)
    return best


@njit
def chelem_lead(v: View) -> int:
    """Playing an announced chelem: master trumps while an opponent may hold trumps, then masters."""
    mine = v.legal1 & TRUMPS_MASK
    out = v.unseen1 & TRUMPS_MASK
    if v.foe_trumps and mine and highest_bit(mine) > highest_bit(out):
        return trump_card(highest_bit(mine))
    for suit in range(4):
        cards = v.legal0 & suit_bits(suit)
        if cards and not (v.unseen0 & above_in_suit(highest_bit(cards))):
            return highest_bit(cards)
    if mine & _NON_PETIT:
        return trump_card(highest_bit(mine & _NON_PETIT))
    return -1


@njit
def lead_fallback(v: View, legal0: np.uint64, legal1: np.uint64) -> int:
    """Any lead when no step had an opinion: a low suit card, else the lowest trump but the Petit."""
    if legal0:
        return discard(v, legal0)
    trumps = legal1 & _NON_PETIT
    if trumps:
        if v.foe_trumps and highest_bit(trumps) > highest_bit(v.unseen1 & TRUMPS_MASK):
            return trump_card(highest_bit(trumps))
        return trump_card(lowest_bit(trumps))
    return lowest_card(legal0, legal1)


@njit
def lead_card(v: View, tb: Table, legal0: np.uint64, legal1: np.uint64) -> int:
    """Leading a trick (or playing after a lone Excuse)."""
    card = -1
    if v.chelem:
        card = chelem_lead(v)
    elif v.attack:
        card = draw_trumps(v)
        if card < 0:
            card = cash_master(v, tb)
        if card < 0:
            card = lead_short(v)
    else:
        card = cash_master(v, tb)
        if card < 0:
            card = lead_taker_void(v, tb)
        if card < 0:
            card = hunt_petit(v, tb)
        if card < 0:
            card = lead_long(v)
    if card >= 0:
        return card
    if keep_petit(v) and (legal0 | (legal1 & ~PETIT_BIT)):
        legal1 &= ~PETIT_BIT
    return lead_fallback(v, legal0, legal1)


@njit
def heuristic_card(seat: int, legal0: np.uint64, legal1: np.uint64, tb: Table) -> int:
    """The card the heuristic plays for ``seat`` from its legal cards."""
    note_trick_winners(tb)
    n0 = popcount(legal0)
    n1 = popcount(legal1)
    if n0 + n1 == 1:
        return lowest_bit(legal0) if n0 else trump_card(lowest_bit(legal1))
    has_excuse = (legal1 & EXCUSE_BIT) != _ZERO
    legal1 &= ~EXCUSE_BIT
    v = make_view(seat, legal0, legal1, tb)
    card = excuse_step(v, has_excuse)
    if card >= 0:
        return card
    if legal0 == _ZERO and legal1 == _ZERO:
        return EXCUSE
    if v.win_seat < 0:
        return lead_card(v, tb, legal0, legal1)
    return follow_card(v, tb, legal0, legal1)
