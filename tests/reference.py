"""The rules of French Tarot in slow, plain Python: the reference the engine is checked against.

Everything here follows ``docs/rules.md`` (the project's rules authority) literally and is written
for clarity, not speed: cards are plain strings in the text notation of docs/rules.md §1, card sets
are Python sets, and nothing is imported from ``tarotsim``, NumPy or Numba.

Where the FFT text is silent (the points ``docs/rules.md`` marks Settled), a comment starting with
``SETTLED:`` says how the point was settled.

Public API
----------
Cards: ``ALL_CARDS``, ``card_points_half``, ``is_bout``, ``is_trump``, ``suit_of``, ``rank_of``,
``led_suit``.
Play: ``legal_cards``, ``first_lead_allowed`` (5 players), ``trick_winner``, ``revealed_voids``.
Before play: ``is_petit_sec``, ``callable_cards`` (5 players), ``ecart_is_legal``,
``poignee_size``, ``poignee_is_legal``.
Result: ``count_deal``, ``score_deal``, ``settle``.
Hands and bidding: ``chavey_count``, ``distribution_bonus``, ``bouts_held``,
``trumps_with_excuse``, ``wished_contract``, ``others_wish``, ``speaker_position``.
Traces: ``check_trace`` (one deal in the JSON trace format), ``play_deal`` and
``play_random_deal`` (make valid traces with random legal play).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

# ---------------------------------------------------------------------------------------------
# Cards (docs/rules.md §1)
# ---------------------------------------------------------------------------------------------

SUITS = ("S", "H", "D", "C")  # spades, hearts, diamonds, clubs
# Suit ranks from low to high; "C" is the knight (cavalier).
SUIT_RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K")

EXCUSE = "EX"
PETIT = "T1"
TRUMP_21 = "T21"
BOUTS = frozenset({PETIT, TRUMP_21, EXCUSE})

#: The 78 cards: spades 1..K, hearts, diamonds, clubs, then T1..T21, then the Excuse.
ALL_CARDS: list[str] = (
    [rank + suit for suit in SUITS for rank in SUIT_RANKS]
    + [f"T{number}" for number in range(1, 22)]
    + [EXCUSE]
)
_KNOWN_CARDS = frozenset(ALL_CARDS)
#: Position of each card in ALL_CARDS, used only to sort cards into a stable order.
CARD_ORDER = {card: index for index, card in enumerate(ALL_CARDS)}

TOTAL_HALF_POINTS = 182  # the deck holds 91 points


def _check_card(card: str) -> None:
    if card not in _KNOWN_CARDS:
        raise ValueError(f"unknown card {card!r}")


def sort_cards(cards: Iterable[str]) -> list[str]:
    """The cards sorted in ALL_CARDS order."""
    return sorted(cards, key=lambda card: CARD_ORDER[card])


def is_trump(card: str) -> bool:
    """True for T1..T21. The Excuse is not a trump (docs/rules.md §1)."""
    _check_card(card)
    return card.startswith("T")


def is_bout(card: str) -> bool:
    """True for the Petit (T1), trump 21 and the Excuse."""
    _check_card(card)
    return card in BOUTS


def suit_of(card: str) -> str:
    """'S', 'H', 'D' or 'C' for a suit card, 'T' for a trump, 'EX' for the Excuse."""
    _check_card(card)
    if card == EXCUSE:
        return "EX"
    if card.startswith("T"):
        return "T"
    return card[-1]


def rank_of(card: str) -> int:
    """Strength within the card's own suit; higher beats lower.

    Suit cards: 1..10 for the number cards, Jack 11, Knight 12, Queen 13, King 14.
    Trumps: their number, 1..21. The Excuse: 0 (it has no rank and never beats anything).
    """
    _check_card(card)
    if card == EXCUSE:
        return 0
    if card.startswith("T"):
        return int(card[1:])
    return SUIT_RANKS.index(card[:-1]) + 1


def card_points_half(card: str) -> int:
    """Card points in half points: bout 9, King 9, Queen 7, Knight 5, Jack 3, other 1."""
    _check_card(card)
    if card in BOUTS:
        return 9
    if card.startswith("T"):
        return 1
    rank = card[:-1]
    return {"K": 9, "Q": 7, "C": 5, "J": 3}.get(rank, 1)


def is_king(card: str) -> bool:
    _check_card(card)
    return suit_of(card) in SUITS and card[:-1] == "K"


# ---------------------------------------------------------------------------------------------
# Table sizes, contracts, scoring tables (docs/rules.md §2, §3, §5, §7, §8)
# ---------------------------------------------------------------------------------------------

HAND_SIZE = {3: 24, 4: 18, 5: 15}
CHIEN_SIZE = {3: 6, 4: 6, 5: 3}

#: Contracts from low to high.
CONTRACTS = ("prise", "garde", "garde_sans", "garde_contre")
MULTIPLIER = {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
PASS = "pass"

POIGNEE_SIZES = ("simple", "double", "triple")
POIGNEE_THRESHOLD = {
    3: {"simple": 13, "double": 15, "triple": 18},
    4: {"simple": 10, "double": 13, "triple": 15},
    5: {"simple": 8, "double": 10, "triple": 13},
}
POIGNEE_BONUS = {"simple": 20, "double": 30, "triple": 40}

#: Points (whole points) the attack needs, by the number of bouts it ends with.
TARGET = {0: 56, 1: 51, 2: 41, 3: 36}

ATTACK = "attack"
DEFENCE = "defence"


def _check_players(players: int) -> None:
    if players not in HAND_SIZE:
        raise ValueError(f"players must be 3, 4 or 5, got {players!r}")


def _other_side(side: str) -> str:
    return DEFENCE if side == ATTACK else ATTACK


# ---------------------------------------------------------------------------------------------
# Play (docs/rules.md §6)
# ---------------------------------------------------------------------------------------------


def led_suit(trick: Sequence[str]) -> str | None:
    """The suit of a trick: that of its first card that is not the Excuse ('T' for trumps).

    None for an empty trick or a trick that holds only the Excuse so far.
    """
    for card in trick:
        if card != EXCUSE:
            return suit_of(card)
    return None


def _trumps_to_play(trumps_in_hand: set[str], trick: Sequence[str]) -> set[str]:
    """Trumps a player who must play a trump may play: those beating the highest trump in the
    trick if there are any (overtrump), otherwise all their trumps (undertrump)."""
    highest_in_trick = max((rank_of(card) for card in trick if is_trump(card)), default=0)
    higher = {card for card in trumps_in_hand if rank_of(card) > highest_in_trick}
    return higher if higher else set(trumps_in_hand)


def legal_cards(hand: Iterable[str], trick: Sequence[str]) -> set[str]:
    """The cards of ``hand`` that may be played to ``trick`` (the cards already in it, in play
    order), by docs/rules.md §6.

    1. follow the suit led if able (any card of it);
    2. if void in it, play a trump: beat the highest trump in the trick if able, otherwise
       still play a trump (undertrump);
    3. when trumps are led, beat the highest trump in the trick if able, otherwise any trump;
    4. with neither the suit nor a trump, any card.
    The Excuse may always be played. An empty trick, or one holding only the Excuse, takes any
    card (its suit is not set yet).
    """
    hand_set = set(hand)
    for card in hand_set:
        _check_card(card)
    for card in trick:
        _check_card(card)
    if hand_set & set(trick):
        raise ValueError("a card cannot be both in the hand and in the trick")

    suit = led_suit(trick)
    if suit is None:
        return hand_set

    trumps_in_hand = {card for card in hand_set if is_trump(card)}
    if suit == "T":
        # Rule 3: trumps led.
        allowed = _trumps_to_play(trumps_in_hand, trick) if trumps_in_hand else set(hand_set)
    else:
        same_suit = {card for card in hand_set if suit_of(card) == suit}
        if same_suit:
            allowed = same_suit  # rule 1
        elif trumps_in_hand:
            allowed = _trumps_to_play(trumps_in_hand, trick)  # rule 2
        else:
            allowed = set(hand_set)  # rule 4

    if EXCUSE in hand_set:
        allowed.add(EXCUSE)  # the Excuse may be played at any time
    return allowed


def trick_winner(trick: Sequence[str]) -> int:
    """Index in ``trick`` of the card winning it by the ordinary rule: the highest trump; with
    no trump, the highest card of the suit led. The Excuse never wins (the chelem exception of
    docs/rules.md §6 is not applied here; see ``count_deal``)."""
    for card in trick:
        _check_card(card)
    if len(set(trick)) != len(trick):
        raise ValueError(f"a card appears twice in the trick {list(trick)}")
    suit = led_suit(trick)
    if suit is None:
        raise ValueError(f"trick {list(trick)} has no card that can win it")
    trumps = [(rank_of(card), index) for index, card in enumerate(trick) if is_trump(card)]
    if trumps:
        return max(trumps)[1]
    of_suit = [(rank_of(card), index) for index, card in enumerate(trick) if suit_of(card) == suit]
    return max(of_suit)[1]


def revealed_voids(trick: Sequence[str], card: str) -> set[str]:
    """The suits ('S', 'H', 'D', 'C', 'T' for trumps) that playing ``card`` to ``trick`` shows
    the player lacks, as every player learns it from the rules of §6.

    A card that does not follow the suit led shows a void in it; one that is neither of the
    suit led nor a trump shows the hand holds no trump either. A lead (the suit is not set
    yet) and the Excuse show nothing.

    SETTLED: undertrumping also shows that the hand holds no trump above the highest in the
    trick; only voids are recorded, so that is left out.
    """
    suit = led_suit(trick)
    if suit is None or card == EXCUSE or suit_of(card) == suit:
        return set()
    voids = {suit}
    if not is_trump(card):
        voids.add("T")
    return voids


# ---------------------------------------------------------------------------------------------
# Before play: petit sec, the called card, the écart, poignées (docs/rules.md §2–§5)
# ---------------------------------------------------------------------------------------------


def is_petit_sec(hand: Iterable[str]) -> bool:
    """A hand whose only trump is the Petit and that does not hold the Excuse."""
    hand_set = set(hand)
    trumps = {card for card in hand_set if is_trump(card)}
    return trumps == {PETIT} and EXCUSE not in hand_set


def callable_cards(taker_hand: Iterable[str]) -> set[str]:
    """Cards a taker with this (dealt) hand may call with 5 players (docs/rules.md §3).

    SETTLED: the FFT text says "the taker calls a King (by suit) … Holding all four Kings they may
    call a Queen (all Kings and Queens: a Knight, and so on), or call a card they hold". Read
    with the FFT rule: any King may always be called, including one the taker holds (the taker
    then plays alone); a Queen may be called only by a taker holding all four Kings; a Knight
    only by one holding all Kings and Queens; and so on down the ranks. Calling a card of such a
    higher rank that the taker holds is covered by the same rule.
    """
    hand_set = set(taker_hand)
    allowed: set[str] = set()
    for rank in reversed(SUIT_RANKS):  # K, Q, C, J, 10, ..., 1
        allowed |= {rank + suit for suit in SUITS}
        if not all(rank + suit in hand_set for suit in SUITS):
            break  # a lower rank may be called only if all four of this rank are held
    return allowed


def _ecart_problem(hand_with_chien: Sequence[str], ecart: Sequence[str], players: int) -> str | None:
    """Why ``ecart`` is not a legal écart from ``hand_with_chien``, or None if it is."""
    size = CHIEN_SIZE[players]
    hand = list(hand_with_chien)
    if len(set(hand)) != len(hand):
        return "the hand with the chien holds a card twice"
    if len(ecart) != size:
        return f"the écart must hold {size} cards, it holds {len(ecart)}"
    if len(set(ecart)) != len(ecart):
        return f"the écart {list(ecart)} holds a card twice"
    missing = [card for card in ecart if card not in set(hand)]
    if missing:
        return f"écart cards {missing} are not in the taker's hand with the chien"
    kings = [card for card in ecart if is_king(card)]
    if kings:
        return f"the écart may not hold a King: {kings}"
    bouts = [card for card in ecart if is_bout(card)]
    if bouts:
        return f"the écart may not hold a bout: {bouts}"
    # Trumps only when there is no other way to make up the écart: the discardable non-trump
    # cards (no King, no bout, no trump) must all be used first, then as few trumps as possible.
    discardable_suit_cards = [
        card for card in hand if not is_trump(card) and not is_bout(card) and not is_king(card)
    ]
    trumps_needed = max(0, size - len(discardable_suit_cards))
    trumps_discarded = [card for card in ecart if is_trump(card)]
    if len(trumps_discarded) > trumps_needed:
        return (
            f"the écart holds {len(trumps_discarded)} trumps {trumps_discarded} but only "
            f"{trumps_needed} are needed to make it up"
        )
    return None


def ecart_is_legal(
    hand_with_chien: Iterable[str], ecart: Iterable[str], *, players: int | None = None
) -> bool:
    """Whether ``ecart`` is a legal écart for a taker holding ``hand_with_chien`` (docs/rules.md §4).

    The number of players is taken from the size of the hand with the chien (24 → 4 players,
    30 → 3, 18 → 5) unless given: the écart holds 6 cards (3 with five players), no King, no
    bout, and trumps only when there are not enough other cards.
    """
    hand = list(hand_with_chien)
    for card in hand:
        _check_card(card)
    ecart_list = list(ecart)
    for card in ecart_list:
        _check_card(card)
    if players is None:
        by_size = {HAND_SIZE[p] + CHIEN_SIZE[p]: p for p in HAND_SIZE}
        if len(hand) not in by_size:
            raise ValueError(f"a hand with the chien holds 18, 24 or 30 cards, not {len(hand)}")
        players = by_size[len(hand)]
    _check_players(players)
    return _ecart_problem(hand, ecart_list, players) is None


def poignee_size(trumps_held: int, has_excuse: bool, players: int) -> str | None:
    """The largest poignée ('simple', 'double', 'triple') a player can show, or None.

    The Excuse may stand in for a trump only by a player who holds no further trump, i.e. only
    when all the player's trumps are shown with it: the largest showable count is therefore the
    number of trumps, plus one when the Excuse is held.
    """
    _check_players(players)
    effective = trumps_held + (1 if has_excuse else 0)
    best = None
    for size in POIGNEE_SIZES:
        if effective >= POIGNEE_THRESHOLD[players][size]:
            best = size
    return best


def _poignee_problem(hand: Iterable[str], shown_cards: Sequence[str], size: str, players: int) -> str | None:
    """Why showing ``shown_cards`` as a ``size`` poignée from ``hand`` is illegal, or None."""
    if size not in POIGNEE_THRESHOLD[players]:
        return f"unknown poignée size {size!r}"
    needed = POIGNEE_THRESHOLD[players][size]
    shown = list(shown_cards)
    hand_set = set(hand)
    if len(shown) != needed:
        return f"a {size} poignée with {players} players shows exactly {needed} cards, not {len(shown)}"
    if len(set(shown)) != len(shown):
        return f"the poignée {shown} shows a card twice"
    not_held = [card for card in shown if card not in hand_set]
    if not_held:
        return f"poignée cards {not_held} are not in the player's hand"
    wrong = [card for card in shown if not is_trump(card) and card != EXCUSE]
    if wrong:
        return f"a poignée shows only trumps (or the Excuse), not {wrong}"
    if EXCUSE in shown:
        hidden_trumps = [card for card in hand_set if is_trump(card) and card not in shown]
        if hidden_trumps:
            return (
                "the Excuse may stand in for a trump only for a player who holds no further "
                f"trump, but {sort_cards(hidden_trumps)} are held and not shown"
            )
    return None


def poignee_is_legal(hand: Iterable[str], shown_cards: Iterable[str], size: str, players: int) -> bool:
    """Whether showing ``shown_cards`` as a poignée of ``size`` from ``hand`` is legal (§5):
    exactly the threshold number of cards, all trumps (or the Excuse, only by a player who
    then shows every trump they hold), all in the hand."""
    _check_players(players)
    hand_list = list(hand)
    shown = list(shown_cards)
    for card in hand_list + shown:
        _check_card(card)
    return _poignee_problem(hand_list, shown, size, players) is None


# ---------------------------------------------------------------------------------------------
# Counting a played deal (docs/rules.md §6, §7)
# ---------------------------------------------------------------------------------------------


class DealCount(NamedTuple):
    """What ``count_deal`` finds."""

    attack_half_points: int  # card points of the attack, in half points (0..182)
    attack_bouts: int  # bouts the attack ends with (0..3)
    winners: list[int]  # seat winning each trick
    attack_tricks: int  # number of tricks won by the attack
    petit_au_bout: str | None  # None, 'attack' or 'defence'
    chelem: str | None  # the side that won every trick: None, 'attack' or 'defence'


def _trick_seats(leader: int, players: int) -> list[int]:
    """Seats in play order for a trick led by ``leader`` (seat s+1 plays after seat s)."""
    return [(leader + offset) % players for offset in range(players)]


def _winner_of_trick(
    leader: int,
    cards: Sequence[str],
    is_last: bool,
    earlier_winners: Sequence[int],
    attack_seats: set[int],
) -> tuple[int, bool]:
    """Seat that wins a trick, and whether the chelem exception made the Excuse win it.

    Chelem exception (§6): on the last trick, if the side of the Excuse's owner (the player who
    plays it) has won every earlier trick, the Excuse wins the last trick.
    """
    players = len(cards)
    seats = _trick_seats(leader, players)
    if is_last and EXCUSE in cards:
        owner = seats[list(cards).index(EXCUSE)]
        owner_side = ATTACK if owner in attack_seats else DEFENCE
        earlier_sides = {ATTACK if seat in attack_seats else DEFENCE for seat in earlier_winners}
        if earlier_sides <= {owner_side}:
            return owner, True
    return seats[trick_winner(cards)], False


def count_deal(
    tricks: Sequence[tuple[int, Sequence[str]]],
    attack_seats: Iterable[int],
    chien: Sequence[str],
    chien_goes_to: str | None,
    ecart: Sequence[str],
) -> DealCount:
    """Count a played deal.

    Parameters
    ----------
    tricks
        Every trick of the deal as ``(leader_seat, cards_in_play_order)``; the seats play in
        order leader, leader+1, ... (mod the number of players). Winners are computed here,
        the chelem exception included; that each trick is led by the previous winner is not
        checked here (``check_trace`` does it).
    attack_seats
        The taker's seat, and the partner's with 5 players.
    chien
        The chien as dealt.
    chien_goes_to
        'attack' (garde sans), 'defence' (garde contre), or None (prise, garde: the chien went
        into the taker's hand and ``ecart`` counts for the attack).
    ecart
        The taker's écart (prise, garde); empty for garde sans and garde contre.

    The Excuse (§6): it stays with its owner's side, which scores 4 points net (8 half points)
    and the bout, while the trick's winner scores the trick's other cards plus the 0.5-point
    exchange card when the winner's side is not the owner's side. On the last trick it goes,
    with its 4.5 points and its bout, to the side opposite its owner and no exchange card is
    given, except in the chelem exception, where it wins the trick for its own side.
    """
    attack = set(attack_seats)
    if not tricks:
        raise ValueError("a deal has at least one trick")
    players = len(tricks[0][1])
    _check_players(players)
    if chien_goes_to not in (None, ATTACK, DEFENCE):
        raise ValueError(f"chien_goes_to must be None, 'attack' or 'defence', not {chien_goes_to!r}")
    if chien_goes_to is not None and len(ecart) != 0:
        raise ValueError("there is no écart in garde sans and garde contre")
    for leader, cards in tricks:
        if len(cards) != players:
            raise ValueError(f"every trick holds {players} cards, this one {list(cards)}")
        if not 0 <= leader < players:
            raise ValueError(f"leader seat {leader} out of range")

    def side_of(seat: int) -> str:
        return ATTACK if seat in attack else DEFENCE

    half = {ATTACK: 0, DEFENCE: 0}
    bouts = {ATTACK: 0, DEFENCE: 0}
    winners: list[int] = []
    last = len(tricks) - 1
    excuse_won_last = False

    for index, (leader, cards) in enumerate(tricks):
        winner, exception = _winner_of_trick(leader, cards, index == last, winners, attack)
        if exception:
            excuse_won_last = True
        winners.append(winner)
        winner_side = side_of(winner)
        for card, seat in zip(cards, _trick_seats(leader, players), strict=True):
            if card != EXCUSE:
                half[winner_side] += card_points_half(card)
                bouts[winner_side] += 1 if is_bout(card) else 0
                continue
            owner_side = side_of(seat)
            if index == last and not exception:
                # Excuse on the last trick: it changes sides, no exchange card.
                receiver = _other_side(owner_side)
                half[receiver] += card_points_half(EXCUSE)
                bouts[receiver] += 1
            elif owner_side == winner_side:
                # The owner's side takes the trick: the Excuse simply stays with it.
                half[owner_side] += card_points_half(EXCUSE)
                bouts[owner_side] += 1
            else:
                # The owner's side keeps the Excuse and gives the winner a 0.5-point card.
                half[owner_side] += card_points_half(EXCUSE) - 1
                bouts[owner_side] += 1
                half[winner_side] += 1

    # The écart (prise, garde) or the chien (garde sans / garde contre).
    if chien_goes_to is None:
        extra_cards, extra_side = list(ecart), ATTACK
    else:
        extra_cards, extra_side = list(chien), chien_goes_to
    for card in extra_cards:
        half[extra_side] += card_points_half(card)
        bouts[extra_side] += 1 if is_bout(card) else 0

    counted = [card for _, cards in tricks for card in cards] + extra_cards
    if len(counted) != len(ALL_CARDS) or set(counted) != _KNOWN_CARDS:
        raise ValueError("the tricks and the écart/chien do not hold each of the 78 cards once")
    if half[ATTACK] + half[DEFENCE] != TOTAL_HALF_POINTS:
        raise AssertionError(f"points do not add up to 91: {half}")
    if bouts[ATTACK] + bouts[DEFENCE] != 3:
        raise AssertionError(f"bouts do not add up to 3: {bouts}")

    # Petit au bout (§8): the Petit in the last trick scores for the side winning that trick.
    # In the chelem exception, where the Excuse wins the last trick, the next-to-last trick is
    # looked at instead.
    # SETTLED: in that exception a Petit played to the last trick itself gives no petit au bout
    # (docs/rules.md says to look at the next-to-last trick *instead*), and if there is only one
    # trick there is no next-to-last trick to look at (never happens in a real deal).
    looked_at = last - 1 if excuse_won_last else last
    petit_au_bout = None
    if looked_at >= 0 and PETIT in tricks[looked_at][1]:
        petit_au_bout = side_of(winners[looked_at])

    winner_sides = {side_of(seat) for seat in winners}
    chelem = winner_sides.pop() if len(winner_sides) == 1 else None

    return DealCount(
        attack_half_points=half[ATTACK],
        attack_bouts=bouts[ATTACK],
        winners=winners,
        attack_tricks=sum(1 for seat in winners if seat in attack),
        petit_au_bout=petit_au_bout,
        chelem=chelem,
    )


# ---------------------------------------------------------------------------------------------
# Score (docs/rules.md §7, §8)
# ---------------------------------------------------------------------------------------------


def settle(players: int, D: int, taker: int, partner: int | None) -> list[int]:
    """Scores by seat when each defender pays ``D`` to the attack (zero-sum).

    Each defender −D; the taker +3D with 4 players, +2D with 3; with 5 players the taker +2D and
    the partner +D, or the taker +4D alone (partner None, or the taker's own seat).
    """
    _check_players(players)
    if not 0 <= taker < players:
        raise ValueError(f"taker seat {taker} out of range")
    scores = [-D] * players
    if players == 5 and partner is not None and partner != taker:
        if not 0 <= partner < players:
            raise ValueError(f"partner seat {partner} out of range")
        scores[taker] = 2 * D
        scores[partner] = D
    else:
        if players != 5 and partner is not None:
            raise ValueError("only a 5-player deal has a partner")
        scores[taker] = (players - 1) * D
    if sum(scores) != 0:
        raise AssertionError(f"settlement is not zero-sum: {scores}")
    return scores


def _poignee_sizes(poignees: Iterable[Any]) -> list[str]:
    """Accept poignées as sizes ('simple', …) or as trace dicts with a 'size' key."""
    sizes = []
    for poignee in poignees:
        size = poignee["size"] if isinstance(poignee, dict) else poignee
        if size not in POIGNEE_BONUS:
            raise ValueError(f"unknown poignée size {size!r}")
        sizes.append(size)
    return sizes


def score_deal(
    players: int,
    contract: str,
    attack_half_points: int,
    attack_bouts: int,
    petit_au_bout: str | None,
    poignees: Iterable[Any],
    chelem_announced: bool,
    chelem: str | None,
    taker_alone: bool = False,
) -> dict[str, Any]:
    """FFT score of a deal (docs/rules.md §7, §8).

    Returns a dict with ``made`` (bool), ``margin`` (d, whole points), ``per_defender`` (D, what
    each defender pays the attack; negative: receives), the parts of D (``base``,
    ``petit_au_bout_points``, ``poignee_points``, ``chelem_points``), ``target``,
    ``multiplier``, and the shares ``taker_score``, ``partner_score`` (None when there is no
    partner) and ``defender_score``. ``poignees`` is the sizes of every poignée shown (or trace
    dicts with a 'size'); ``taker_alone`` matters only with 5 players.
    """
    _check_players(players)
    if contract not in MULTIPLIER:
        raise ValueError(f"unknown contract {contract!r}")
    if attack_bouts not in TARGET:
        raise ValueError(f"attack_bouts must be 0..3, got {attack_bouts!r}")
    if not 0 <= attack_half_points <= TOTAL_HALF_POINTS:
        raise ValueError(f"attack_half_points must be 0..182, got {attack_half_points!r}")
    for side in (petit_au_bout, chelem):
        if side not in (None, ATTACK, DEFENCE):
            raise ValueError(f"a side is None, 'attack' or 'defence', not {side!r}")

    multiplier = MULTIPLIER[contract]
    target = TARGET[attack_bouts]
    difference_half = attack_half_points - 2 * target  # in half points
    made = difference_half >= 0
    # |points − target| rounded up to a whole point: ceil(|diff_half| / 2).
    margin = (abs(difference_half) + 1) // 2
    s = 1 if made else -1

    base = s * (25 + margin) * multiplier
    petit_au_bout_points = {None: 0, ATTACK: 10 * multiplier, DEFENCE: -10 * multiplier}[petit_au_bout]
    poignee_points = s * sum(POIGNEE_BONUS[size] for size in _poignee_sizes(poignees))
    if chelem == ATTACK:
        chelem_points = 400 if chelem_announced else 200
    elif chelem_announced:
        # Announced and not made: −200. SETTLED: if the chelem was announced and the defence
        # wins every trick, both "announced and not made" and "the defence wins every trick"
        # describe the deal; −200 is applied once, not twice.
        chelem_points = -200
    elif chelem == DEFENCE:
        chelem_points = -200
    else:
        chelem_points = 0

    D = base + petit_au_bout_points + poignee_points + chelem_points

    if players == 5 and not taker_alone:
        taker_score, partner_score = 2 * D, D
    else:
        taker_score, partner_score = (players - 1) * D, None
    return {
        "made": made,
        "margin": margin,
        "per_defender": D,
        "target": target,
        "multiplier": multiplier,
        "base": base,
        "petit_au_bout_points": petit_au_bout_points,
        "poignee_points": poignee_points,
        "chelem_points": chelem_points,
        "taker_score": taker_score,
        "partner_score": partner_score,
        "defender_score": -D,
    }


# ---------------------------------------------------------------------------------------------
# Traces: checking one deal from first principles
# ---------------------------------------------------------------------------------------------

TRACE_KEYS = (
    "deal",
    "players",
    "dealer",
    "hands",
    "chien",
    "thrown_in",
    "bids",
    "taker",
    "contract",
    "called_card",
    "partner",
    "ecart",
    "chelem_announced",
    "poignees",
    "tricks",
    "attack_points",
    "attack_bouts",
    "made",
    "margin",
    "petit_au_bout",
    "chelem",
    "scores",
)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def first_lead_allowed(legal: set[str], called_card: str | None) -> set[str]:
    """With 5 players the first lead may not be in the called suit unless it is the called card.

    SETTLED: a leader holding only cards of the called suit (impossible with 15 cards, since a
    suit has 14 and the Excuse is never of a suit) would keep the unrestricted choice.
    """
    if called_card is None:
        return set(legal)
    called_suit = suit_of(called_card)
    allowed = {card for card in legal if suit_of(card) != called_suit or card == called_card}
    return allowed if allowed else set(legal)


def partner_of(hands: Sequence[Sequence[str]], taker: int, called_card: str) -> int | None:
    """The seat holding the called card in the dealt hands; None when the taker holds it or it
    is in the chien (the taker plays alone)."""
    for seat, hand in enumerate(hands):
        if called_card in hand and seat != taker:
            return seat
    return None


def check_trace(record: dict[str, Any]) -> None:
    """Verify one deal of a JSON trace from first principles; AssertionError on any violation.

    Checks the deal (78 cards once, sizes), petit sec, bidding, the called card and partner
    (5 players), the écart, poignées, the first leader, each trick's leader, every card's
    legality from the player's remaining hand, each trick's winner (chelem exception included),
    the count, the result and the scores. Works for 3, 4 and 5 players.

    SETTLED (trace format, where the brief leaves it open):
    - extra keys are allowed; every key of TRACE_KEYS must be present;
    - a petit-sec deal has no bids (``bids == []``): it is cancelled before bidding;
    - a thrown-in deal (petit sec, all pass) has taker, contract, called_card, partner,
      petit_au_bout and chelem null, no écart, no poignées, no tricks, chelem_announced false,
      scores all 0, and attack_points / attack_bouts / margin each null or 0, made null or false;
    - poignées: at most one per seat, shown from the hand the player starts the play with.
    """
    deal_id = record.get("deal", "?") if isinstance(record, dict) else "?"

    def require(condition: bool, message: str) -> None:
        # Explicit raise rather than `assert`, so the checks survive `python -O`.
        if not condition:
            raise AssertionError(f"deal {deal_id}: {message}")

    require(isinstance(record, dict), "a trace record is a dict")
    missing_keys = [key for key in TRACE_KEYS if key not in record]
    require(not missing_keys, f"missing keys {missing_keys}")

    # --- table and deal ---------------------------------------------------------------------
    players = record["players"]
    require(players in HAND_SIZE and _is_int(players), f"players must be 3, 4 or 5, got {players!r}")
    n = players
    dealer = record["dealer"]
    require(_is_int(dealer) and 0 <= dealer < n, f"dealer {dealer!r} is not a seat 0..{n - 1}")
    hands = record["hands"]
    chien = record["chien"]
    require(isinstance(hands, list) and len(hands) == n, f"there must be {n} hands")
    for seat, hand in enumerate(hands):
        require(
            isinstance(hand, list) and len(hand) == HAND_SIZE[n],
            f"seat {seat} is dealt {len(hand)} cards, not {HAND_SIZE[n]}",
        )
    require(
        isinstance(chien, list) and len(chien) == CHIEN_SIZE[n],
        f"the chien holds {len(chien)} cards, not {CHIEN_SIZE[n]}",
    )
    dealt = [card for hand in hands for card in hand] + list(chien)
    unknown = [card for card in dealt if card not in _KNOWN_CARDS]
    require(not unknown, f"unknown cards dealt: {unknown}")
    twice = sort_cards({card for card in dealt if dealt.count(card) > 1})
    require(not twice, f"cards dealt more than once: {twice}")
    not_dealt = sort_cards(_KNOWN_CARDS - set(dealt))
    require(not not_dealt, f"cards never dealt: {not_dealt}")

    def require_thrown_in_fields() -> None:
        for key in ("taker", "contract", "called_card", "partner", "petit_au_bout", "chelem"):
            require(record[key] is None, f"a thrown-in deal has {key} null, not {record[key]!r}")
        for key in ("ecart", "poignees", "tricks"):
            require(record[key] == [], f"a thrown-in deal has no {key}, got {record[key]!r}")
        require(record["chelem_announced"] is False, "a thrown-in deal announces no chelem")
        for key in ("attack_points", "attack_bouts", "margin"):
            value = record[key]
            require(
                value is None or (value == 0 and not isinstance(value, bool)),
                f"a thrown-in deal has {key} null or 0, not {value!r}",
            )
        require(
            record["made"] is None or record["made"] is False,
            f"a thrown-in deal has made null or false, not {record['made']!r}",
        )
        require(record["scores"] == [0] * n, f"a thrown-in deal scores 0 for all, not {record['scores']}")

    # --- petit sec (§2) -----------------------------------------------------------------------
    petit_sec_seats = [seat for seat in range(n) if is_petit_sec(hands[seat])]
    thrown_in = record["thrown_in"]
    require(thrown_in in (None, "petit_sec", "all_pass"), f"unknown thrown_in {thrown_in!r}")
    if petit_sec_seats:
        require(
            thrown_in == "petit_sec",
            f"seats {petit_sec_seats} hold the Petit sec, so thrown_in must be 'petit_sec'",
        )
        require(record["bids"] == [], "a petit-sec deal is cancelled before bidding: bids must be []")
        require_thrown_in_fields()
        return
    require(thrown_in != "petit_sec", "thrown_in is 'petit_sec' but no hand holds the Petit sec")

    # --- bidding (§3) -------------------------------------------------------------------------
    bids = record["bids"]
    require(isinstance(bids, list) and len(bids) == n, f"each of the {n} seats speaks once: {bids!r}")
    highest = -1
    highest_seat = None
    for turn, bid in enumerate(bids):
        seat = (dealer + 1 + turn) % n
        require(bid == PASS or bid in CONTRACTS, f"seat {seat} makes an unknown bid {bid!r}")
        if bid == PASS:
            continue
        level = CONTRACTS.index(bid)
        require(level > highest, f"seat {seat} bids {bid!r}, not higher than {CONTRACTS[highest]!r}")
        highest, highest_seat = level, seat
    if highest_seat is None:
        require(thrown_in == "all_pass", "every seat passed, so thrown_in must be 'all_pass'")
        require_thrown_in_fields()
        return
    require(thrown_in is None, f"someone bid, so thrown_in must be null, not {thrown_in!r}")
    taker = record["taker"]
    contract = record["contract"]
    require(
        taker == highest_seat and _is_int(taker),
        f"the taker is the highest bidder, seat {highest_seat}, not {taker!r}",
    )
    require(
        contract == CONTRACTS[highest],
        f"the contract is the highest bid {CONTRACTS[highest]!r}, not {contract!r}",
    )

    # --- called card and partner (§3, 5 players) ---------------------------------------------
    called_card = record["called_card"]
    partner = record["partner"]
    if n == 5:
        require(called_card in _KNOWN_CARDS, f"5 players: a card must be called, not {called_card!r}")
        require(
            called_card in callable_cards(hands[taker]),
            f"the taker may not call {called_card!r} with the hand {hands[taker]}",
        )
        expected_partner = partner_of(hands, taker, called_card)
        require(
            partner == expected_partner,
            f"the partner is the holder of {called_card}, {expected_partner}, not {partner!r}",
        )
    else:
        require(called_card is None, f"only 5 players call a card, got {called_card!r}")
        require(partner is None, f"only 5 players have a partner, got {partner!r}")
        expected_partner = None
    attack_seats = {taker} | ({expected_partner} if expected_partner is not None else set())

    # --- chien and écart (§4) -----------------------------------------------------------------
    ecart = record["ecart"]
    require(isinstance(ecart, list), "the écart is a list")
    playing_hands = [list(hand) for hand in hands]
    if contract in ("prise", "garde"):
        hand_with_chien = list(hands[taker]) + list(chien)
        problem = _ecart_problem(hand_with_chien, ecart, n)
        require(problem is None, f"illegal écart: {problem}")
        playing_hands[taker] = [card for card in hand_with_chien if card not in ecart]
        chien_goes_to = None
    else:
        require(ecart == [], f"there is no écart in {contract}, got {ecart}")
        chien_goes_to = ATTACK if contract == "garde_sans" else DEFENCE

    # --- announcements (§5) -------------------------------------------------------------------
    chelem_announced = record["chelem_announced"]
    require(isinstance(chelem_announced, bool), "chelem_announced is true or false")
    poignees = record["poignees"]
    require(isinstance(poignees, list), "poignees is a list")
    shown_by: set[int] = set()
    for poignee in poignees:
        require(
            isinstance(poignee, dict) and {"seat", "size", "cards"} <= set(poignee),
            f"a poignée has seat, size and cards: {poignee!r}",
        )
        seat = poignee["seat"]
        require(_is_int(seat) and 0 <= seat < n, f"poignée seat {seat!r} out of range")
        require(seat not in shown_by, f"seat {seat} shows more than one poignée")
        shown_by.add(seat)
        size = poignee["size"]
        require(size in POIGNEE_SIZES, f"unknown poignée size {size!r}")
        problem = _poignee_problem(playing_hands[seat], list(poignee["cards"]), size, n)
        require(problem is None, f"illegal poignée by seat {seat}: {problem}")

    # --- play (§6) ----------------------------------------------------------------------------
    tricks = record["tricks"]
    require(
        isinstance(tricks, list) and len(tricks) == HAND_SIZE[n],
        f"there are {HAND_SIZE[n]} tricks, not {len(tricks) if isinstance(tricks, list) else tricks!r}",
    )
    remaining = [set(hand) for hand in playing_hands]
    expected_leader = taker if chelem_announced else (dealer + 1) % n
    played: list[tuple[int, list[str]]] = []
    for index, trick in enumerate(tricks):
        require(
            isinstance(trick, dict) and {"leader", "cards", "winner"} <= set(trick),
            f"trick {index} has leader, cards and winner: {trick!r}",
        )
        leader = trick["leader"]
        cards = list(trick["cards"])
        require(
            leader == expected_leader, f"trick {index} must be led by seat {expected_leader}, not {leader!r}"
        )
        require(len(cards) == n, f"trick {index} holds {len(cards)} cards, not {n}")
        for position, card in enumerate(cards):
            seat = (leader + position) % n
            require(
                card in remaining[seat],
                f"trick {index}: seat {seat} plays {card!r}, which is not in its hand",
            )
            legal = legal_cards(remaining[seat], cards[:position])
            if n == 5 and index == 0 and position == 0:
                legal = first_lead_allowed(legal, called_card)
            require(
                card in legal,
                f"trick {index}: seat {seat} plays {card} to {cards[:position]}, an illegal "
                f"card; legal were {sort_cards(legal)}",
            )
            remaining[seat].remove(card)
        played.append((leader, cards))
        if index < len(tricks) - 1:
            # Only the last trick can be won under the chelem exception.
            expected_leader = (leader + trick_winner(cards)) % n
    for seat in range(n):
        require(not remaining[seat], f"seat {seat} never plays {sort_cards(remaining[seat])}")

    # --- winners, count, result (§6–§8) -------------------------------------------------------
    count = count_deal(played, attack_seats, chien, chien_goes_to, ecart)
    for index, trick in enumerate(tricks):
        require(
            trick["winner"] == count.winners[index],
            f"trick {index} {trick['cards']} is won by seat {count.winners[index]}, not {trick['winner']!r}",
        )

    attack_points = record["attack_points"]
    require(
        isinstance(attack_points, (int, float))
        and not isinstance(attack_points, bool)
        and attack_points == count.attack_half_points / 2,
        f"attack_points is {count.attack_half_points / 2}, not {attack_points!r}",
    )
    require(
        _is_int(record["attack_bouts"]) and record["attack_bouts"] == count.attack_bouts,
        f"attack_bouts is {count.attack_bouts}, not {record['attack_bouts']!r}",
    )
    require(
        record["petit_au_bout"] == count.petit_au_bout,
        f"petit_au_bout is {count.petit_au_bout!r}, not {record['petit_au_bout']!r}",
    )
    require(record["chelem"] == count.chelem, f"chelem is {count.chelem!r}, not {record['chelem']!r}")

    score = score_deal(
        n,
        contract,
        count.attack_half_points,
        count.attack_bouts,
        count.petit_au_bout,
        [poignee["size"] for poignee in poignees],
        chelem_announced,
        count.chelem,
        taker_alone=expected_partner is None,
    )
    require(
        isinstance(record["made"], bool) and record["made"] == score["made"],
        f"made is {score['made']}, not {record['made']!r}",
    )
    require(
        _is_int(record["margin"]) and record["margin"] == score["margin"],
        f"margin is {score['margin']}, not {record['margin']!r}",
    )
    expected_scores = settle(n, score["per_defender"], taker, expected_partner)
    scores = record["scores"]
    require(isinstance(scores, list) and len(scores) == n, f"there are {n} scores: {scores!r}")
    require(sum(scores) == 0, f"scores {scores} are not zero-sum")
    require(
        scores == expected_scores, f"scores are {expected_scores} (D = {score['per_defender']}), not {scores}"
    )


# ---------------------------------------------------------------------------------------------
# Hand features and bidding wishes (Chavey's count, as kernels/chavey.py's docstring describes it)
# ---------------------------------------------------------------------------------------------


def suit_lengths(hand: Iterable[str]) -> dict[str, int]:
    """Cards of each of the four suits in ``hand`` (0 for a void)."""
    lengths = dict.fromkeys(SUITS, 0)
    for card in hand:
        if suit_of(card) in SUITS:
            lengths[suit_of(card)] += 1
    return lengths


def chavey_count(hand: Iterable[str]) -> int:
    """Chavey's count of a hand, without the distribution bonus.

    21: 10; Excuse: 8; the Petit 5, 7, 9 with 5, 6, 7+ trumps (0 with fewer); 2 per trump
    once 5 or more trumps are held; each major trump (16-21) 2 more, and 1 more when the
    major just above or below it is held too; per suit, King and Queen 10, King 6, Queen 3,
    Knight 2, Jack 1; a suit of 5 cards 5, of 6 cards 7, of 7 or more 9.
    """
    cards = set(hand)
    trumps = {rank_of(card) for card in cards if is_trump(card)}
    total = 0
    if TRUMP_21 in cards:
        total += 10
    if EXCUSE in cards:
        total += 8
    if PETIT in cards and len(trumps) >= 5:
        total += {5: 5, 6: 7}.get(len(trumps), 9)
    if len(trumps) >= 5:
        total += 2 * len(trumps)
    for number in trumps:
        if number >= 16:
            total += 2
            if number + 1 in trumps or (number - 1 in trumps and number - 1 >= 16):
                total += 1
    for suit, length in suit_lengths(cards).items():
        king, queen = "K" + suit in cards, "Q" + suit in cards
        total += 10 if king and queen else 6 if king else 3 if queen else 0
        total += 2 * ("C" + suit in cards) + ("J" + suit in cards)
        if length >= 5:
            total += {5: 5, 6: 7}.get(length, 9)
    return total


def distribution_bonus(hand: Iterable[str]) -> int:
    """Chavey's bonus for Garde sans and Garde contre: 6 per void suit, 3 per singleton."""
    return sum({0: 6, 1: 3}.get(length, 0) for length in suit_lengths(hand).values())


def bouts_held(hand: Iterable[str]) -> str:
    """The bouts in ``hand`` as a label: ``P`` (Petit), ``21``, ``EX`` (Excuse) joined by ``+``
    in that order, ``""`` for none."""
    cards = set(hand)
    return "+".join(
        label for card, label in ((PETIT, "P"), (TRUMP_21, "21"), (EXCUSE, "EX")) if card in cards
    )


def trumps_with_excuse(hand: Iterable[str]) -> int:
    """Trumps held, the Excuse counted as one."""
    return sum(1 for card in hand if is_trump(card) or card == EXCUSE)


def wished_contract(hand: Iterable[str], thresholds: Sequence[int]) -> str:
    """The highest contract whose threshold the hand reaches, or ``"pass"``.

    ``thresholds`` are the counts from which a seat bids Prise, Garde, Garde sans and Garde
    contre; the last two are compared with the count plus the distribution bonus.
    """
    cards = list(hand)
    count = chavey_count(cards)
    with_bonus = count + distribution_bonus(cards)
    prise, garde, garde_sans, garde_contre = thresholds
    for contract, score, needed in (
        (CONTRACTS[3], with_bonus, garde_contre),
        (CONTRACTS[2], with_bonus, garde_sans),
        (CONTRACTS[1], count, garde),
        (CONTRACTS[0], count, prise),
    ):
        if score >= needed:
            return contract
    return PASS


def others_wish(hands: Sequence[Iterable[str]], seat: int, thresholds: Sequence[Sequence[int]]) -> str:
    """The highest contract any seat but ``seat`` wishes to bid, each with its own
    ``thresholds[other]``; ``"pass"`` when none would bid."""
    order = (PASS, *CONTRACTS)
    wishes = [wished_contract(hand, thresholds[other]) for other, hand in enumerate(hands) if other != seat]
    return max(wishes, key=order.index, default=PASS)


def speaker_position(seat: int, dealer: int, players: int) -> int:
    """``seat``'s turn in the auction: 0 for the seat after the dealer, who speaks first."""
    _check_players(players)
    return (seat - dealer - 1) % players


# ---------------------------------------------------------------------------------------------
# Making traces: random legal play
# ---------------------------------------------------------------------------------------------

#: choose(seat, legal cards sorted, trick so far, rng) -> the card to play
CardChooser = Callable[[int, list[str], list[str], random.Random], str]


def _random_bids(rng: random.Random, players: int) -> list[str]:
    """Each seat in turn passes (probability 1/2) or bids a random higher contract, lower
    contracts being likelier."""
    bids = []
    highest = -1
    for _ in range(players):
        options = list(CONTRACTS[highest + 1 :])
        if not options or rng.random() < 0.5:
            bids.append(PASS)
            continue
        bid = rng.choices(options, weights=[4, 3, 2, 1][: len(options)])[0]
        bids.append(bid)
        highest = CONTRACTS.index(bid)
    return bids


def random_legal_ecart(rng: random.Random, hand_with_chien: Sequence[str], players: int) -> list[str]:
    """A random legal écart: discardable suit cards first, trumps only when they run short."""
    size = CHIEN_SIZE[players]
    suit_cards = sort_cards(
        card for card in hand_with_chien if not is_trump(card) and not is_bout(card) and not is_king(card)
    )
    if len(suit_cards) >= size:
        return sort_cards(rng.sample(suit_cards, size))
    trumps = sort_cards(card for card in hand_with_chien if is_trump(card) and not is_bout(card))
    return sort_cards(suit_cards + rng.sample(trumps, size - len(suit_cards)))


def largest_poignee(hand: Iterable[str], players: int) -> tuple[str, list[str]] | None:
    """The largest poignée the hand can show, showing its lowest trumps first and the Excuse
    only when needed; None if none can be shown."""
    hand_set = set(hand)
    trumps = sorted((card for card in hand_set if is_trump(card)), key=rank_of)
    size = poignee_size(len(trumps), EXCUSE in hand_set, players)
    if size is None:
        return None
    needed = POIGNEE_THRESHOLD[players][size]
    shown = trumps[:needed] if len(trumps) >= needed else trumps + [EXCUSE]
    return size, shown


def _random_choice(seat: int, legal: list[str], trick: list[str], rng: random.Random) -> str:
    return rng.choice(legal)


def play_deal(
    hands: Sequence[Sequence[str]],
    chien: Sequence[str],
    *,
    dealer: int = 0,
    rng: random.Random | None = None,
    bids: Sequence[str] | None = None,
    called_card: str | None = None,
    ecart: Sequence[str] | None = None,
    chelem_announced: bool = False,
    show_poignees: bool = True,
    choose: CardChooser | None = None,
    deal: int = 0,
) -> dict[str, Any]:
    """Play one deal from the given dealt hands and chien and return its trace dict.

    Whatever is not given is drawn from ``rng``: the bids, the called card (5 players), the
    écart (a random legal one) and every card played (uniform over the legal cards unless a
    ``choose`` function is given). Every poignée a player holds is shown (the largest) when
    ``show_poignees``. ``chelem_announced`` applies when someone takes.
    """
    rng = rng if rng is not None else random.Random(0)
    choose = choose if choose is not None else _random_choice
    n = len(hands)
    _check_players(n)
    hands = [sort_cards(hand) for hand in hands]
    record: dict[str, Any] = {
        "deal": deal,
        "players": n,
        "dealer": dealer,
        "hands": hands,
        "chien": sort_cards(chien),
        "thrown_in": None,
        "bids": [],
        "taker": None,
        "contract": None,
        "called_card": None,
        "partner": None,
        "ecart": [],
        "chelem_announced": False,
        "poignees": [],
        "tricks": [],
        "attack_points": None,
        "attack_bouts": None,
        "made": None,
        "margin": None,
        "petit_au_bout": None,
        "chelem": None,
        "scores": [0] * n,
    }
    if any(is_petit_sec(hand) for hand in hands):
        record["thrown_in"] = "petit_sec"
        return record

    bids = list(bids) if bids is not None else _random_bids(rng, n)
    record["bids"] = bids
    taker = None
    contract = None
    for turn, bid in enumerate(bids):
        if bid != PASS:
            taker, contract = (dealer + 1 + turn) % n, bid
    if taker is None or contract is None:
        record["thrown_in"] = "all_pass"
        return record
    record["taker"], record["contract"] = taker, contract

    partner = None
    if n == 5:
        if called_card is None:
            called_card = rng.choice(sort_cards(callable_cards(hands[taker])))
        partner = partner_of(hands, taker, called_card)
        record["called_card"], record["partner"] = called_card, partner
    attack_seats = {taker} | ({partner} if partner is not None else set())

    playing = [list(hand) for hand in hands]
    if contract in ("prise", "garde"):
        hand_with_chien = sort_cards(list(hands[taker]) + list(chien))
        if ecart is None:
            ecart = random_legal_ecart(rng, hand_with_chien, n)
        record["ecart"] = list(ecart)
        playing[taker] = [card for card in hand_with_chien if card not in ecart]
        chien_goes_to = None
    else:
        record["ecart"] = []
        chien_goes_to = ATTACK if contract == "garde_sans" else DEFENCE

    record["chelem_announced"] = chelem_announced
    if show_poignees:
        for seat in range(n):
            poignee = largest_poignee(playing[seat], n)
            if poignee is not None:
                record["poignees"].append({"seat": seat, "size": poignee[0], "cards": poignee[1]})

    remaining = [set(hand) for hand in playing]
    leader = taker if chelem_announced else (dealer + 1) % n
    played: list[tuple[int, Sequence[str]]] = []
    winners: list[int] = []
    for index in range(HAND_SIZE[n]):
        cards: list[str] = []
        for seat in _trick_seats(leader, n):
            legal = legal_cards(remaining[seat], cards)
            if n == 5 and index == 0 and not cards:
                legal = first_lead_allowed(legal, called_card)
            card = choose(seat, sort_cards(legal), list(cards), rng)
            if card not in legal:
                raise ValueError(f"choose returned {card!r}, not a legal card")
            cards.append(card)
            remaining[seat].remove(card)
        played.append((leader, cards))
        winner, _ = _winner_of_trick(leader, cards, index == HAND_SIZE[n] - 1, winners, attack_seats)
        winners.append(winner)
        record["tricks"].append({"leader": leader, "cards": cards, "winner": winner})
        leader = winner

    count = count_deal(played, attack_seats, chien, chien_goes_to, record["ecart"])
    score = score_deal(
        n,
        contract,
        count.attack_half_points,
        count.attack_bouts,
        count.petit_au_bout,
        record["poignees"],
        chelem_announced,
        count.chelem,
        taker_alone=partner is None,
    )
    record["attack_points"] = count.attack_half_points / 2
    record["attack_bouts"] = count.attack_bouts
    record["made"] = score["made"]
    record["margin"] = score["margin"]
    record["petit_au_bout"] = count.petit_au_bout
    record["chelem"] = count.chelem
    record["scores"] = settle(n, score["per_defender"], taker, partner)
    return record


def play_random_deal(
    rng: random.Random,
    dealer: int = 0,
    *,
    players: int = 4,
    announce_chelem: bool = False,
    deal: int = 0,
) -> dict[str, Any]:
    """A complete, valid trace dict of one uniformly dealt deal with random bids, a random
    legal écart, every poignée shown (the largest), and random legal play.

    No chelem is announced unless ``announce_chelem`` (then the taker announces it and leads).
    """
    _check_players(players)
    pack = list(ALL_CARDS)
    rng.shuffle(pack)
    size = HAND_SIZE[players]
    hands = [pack[seat * size : (seat + 1) * size] for seat in range(players)]
    chien = pack[players * size :]
    return play_deal(hands, chien, dealer=dealer, rng=rng, chelem_announced=announce_chelem, deal=deal)
