"""Deal the cards a seat cannot see into the hands that hold them, uniformly over every
deal consistent with what the seat knows.

The unseen cards go to up to ``MAX_HOLDERS`` holders: the other hands, and the chien or
the écart when the seat does not know it. Holder ``h`` takes exactly ``sizes[h]`` cards,
and only cards of its allowed set ``allowed[h]`` (uint64[2]). ``holder_allowed`` builds
the allowed sets from what play reveals: a void mask per holder (bit ``s``: no card of
suit ``s``; bit 4: no trump, which says nothing of the Excuse), the cards known to be in a
holder (a poignée shown, …), and the cards a holder may hold at all (the écart holds no
King, no bout and no hidden trump; the chien's cards shown at a Prise or a Garde can only
be with the taker or in the écart).

**The law is exactly uniform** over the consistent deals, up to float64 rounding of the
counts (relative error below 1e-13): every consistent deal has probability
``1 / prepare_worlds(...)``. Cards with the same set of possible holders form a group;
a deal is the number of cards each group gives each holder (a table whose rows sum to
the groups' sizes and whose columns sum to ``sizes``), then which cards of a group go
where. The number of deals with a given table is the product over groups of the
multinomial coefficients of the table's rows, so the number of completions from any
point is a sum over the remaining groups that a dynamic programme over the holders'
remaining capacities computes (``prepare_worlds``). ``draw_world`` then draws each
group's row with probability proportional to its multinomial times the completions it
leaves, and shares the group's cards by a uniform random permutation: the product of
the factors telescopes to ``1 / (number of deals)`` for every deal. Groups with a single
possible holder are dealt to it outright. The group that every holder with room may take,
and a chain of groups whose sets of holders are nested in one another (the hands but not
the écart, the hands but one void seat, …), are counted in closed form: give each holder
as many places as it has room, put each nested group into free places of its holders,
the smallest set first, and the rest anywhere (``_tail_ways``); they are dealt the same
way, each card into a uniformly drawn free place. The programme runs only over the other
groups, so most positions need no programme at all. Randomness comes from the deal's
xoshiro stream (``engine.kernels.rng``).

Cost, measured on positions of heuristic play: ``prepare_worlds`` takes a few
microseconds at the median, 1 ms on average with 5 players and tens of milliseconds in
the worst positions (three or more groups constrained by different voids); each
``draw_world`` takes a few microseconds.

Typical use: ``holder_allowed`` then ``prepare_worlds`` once per decision, then
``draw_world`` once per world, all on one ``WorldScratch`` made by ``new_world_scratch``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import N_CARDS, SUIT_LEN, SUIT_MASK, TRUMP_SUIT, TRUMPS_MASK
from tarotsim.engine.kernels.bits import lowest_bit, popcount
from tarotsim.engine.kernels.rng import below, next_u64
from tarotsim.engine.kernels.rules import card_bit

MAX_HOLDERS = 5
"""Other hands (4 at most) and the unknown chien or écart."""
N_SIGNATURES = 1 << MAX_HOLDERS
"""Sets of holders a card may go to, as bit masks over the holders."""
MAX_STATES = 16384
"""Default room for the holders' capacity vectors of one step of the programme: enough for
any deal of 3, 4 or 5 players (5 players: 16 * 16 * 16 * 4 vectors once the largest holder's
capacity is implied by the others)."""

W_HOLDERS = 0  # number of holders
W_ACTIVE = 1  # bit mask of the holders with room left after the forced cards
W_STAGES = 2  # number of constrained groups (steps of the programme)
W_START = 3  # index of the capacity vector the programme starts from
W_CHAIN = 4  # number of nested groups counted in closed form after the programme
N_WORLD_SCALARS = 5

_TWO_53 = 1.0 / 9007199254740992.0


def _binomial_table() -> np.ndarray:
    table = np.zeros((N_CARDS + 1, N_CARDS + 1), dtype=np.float64)
    for n in range(N_CARDS + 1):
        table[n, 0] = 1.0
        for k in range(1, n + 1):
            table[n, k] = table[n - 1, k - 1] + table[n - 1, k]
    return table


BINOMIAL = _binomial_table()
"""``BINOMIAL[n, k]``: n choose k as float64, for 0 <= k <= n <= 78 (exact up to 2**53)."""
FACTORIAL = np.cumprod(np.concatenate(([1.0], np.arange(1.0, N_CARDS + 1))))
"""``FACTORIAL[n]``: n! as float64, for 0 <= n <= 78."""


class WorldScratch(NamedTuple):
    """Working arrays of the world sampler, made once by ``new_world_scratch`` and reused."""

    scalars: np.ndarray  # int64[N_WORLD_SCALARS], slots W_*
    signature: np.ndarray  # int64[N_CARDS]: per card, its set of possible holders
    group_size: np.ndarray  # int64[N_SIGNATURES]: cards per group, by signature
    group_cards: np.ndarray  # int64[N_SIGNATURES, N_CARDS]: the cards of each group
    stage_group: np.ndarray  # int64[N_SIGNATURES]: signature of the group of each step
    chain_group: np.ndarray  # int64[N_SIGNATURES]: the nested groups, the smallest set of holders first
    capacity: np.ndarray  # int64[MAX_HOLDERS]: room left once the forced cards are dealt
    stride: np.ndarray  # int64[MAX_HOLDERS]: index of a capacity vector = sum stride * capacity
    stage_total: np.ndarray  # int64[N_SIGNATURES + 1]: capacity left at the start of each step
    ways: np.ndarray  # float64[N_SIGNATURES + 1, max_states]: completions, -1 where unreached
    reach: np.ndarray  # int64[N_SIGNATURES + 1, max_states]: the vectors reached at each step
    n_reach: np.ndarray  # int64[N_SIGNATURES + 1]
    vector: np.ndarray  # int64[MAX_HOLDERS]: a capacity vector being decoded
    share: np.ndarray  # int64[MAX_HOLDERS]: the cards a group gives each of its holders
    bound: np.ndarray  # int64[MAX_HOLDERS]: the most each of a group's holders may take
    tail: np.ndarray  # int64[MAX_HOLDERS + 1]: sums of ``bound`` from each holder on
    members: np.ndarray  # int64[MAX_HOLDERS]: the holders of a group, in order
    kept: np.ndarray  # int64[MAX_HOLDERS]: the last share of positive weight met while drawing
    forced_holder: np.ndarray  # int64[N_SIGNATURES]: per signature, its one holder, -1 none


@njit
def new_world_scratch(max_states: int = MAX_STATES) -> WorldScratch:
    """Working arrays for ``prepare_worlds`` and ``draw_world`` (about 4.5 MB by default).

    ``max_states`` bounds the capacity vectors of one step of the programme: the product
    of ``capacity + 1`` over the holders with room, the largest one left out.
    """
    return WorldScratch(
        np.zeros(N_WORLD_SCALARS, dtype=np.int64),
        np.zeros(N_CARDS, dtype=np.int64),
        np.zeros(N_SIGNATURES, dtype=np.int64),
        np.zeros((N_SIGNATURES, N_CARDS), dtype=np.int64),
        np.zeros(N_SIGNATURES, dtype=np.int64),
        np.zeros(N_SIGNATURES, dtype=np.int64),
        np.zeros(MAX_HOLDERS, dtype=np.int64),
        np.zeros(MAX_HOLDERS, dtype=np.int64),
        np.zeros(N_SIGNATURES + 1, dtype=np.int64),
        np.zeros((N_SIGNATURES + 1, max_states), dtype=np.float64),
        np.zeros((N_SIGNATURES + 1, max_states), dtype=np.int64),
        np.zeros(N_SIGNATURES + 1, dtype=np.int64),
        np.zeros(MAX_HOLDERS, dtype=np.int64),
        np.zeros(MAX_HOLDERS, dtype=np.int64),
        np.zeros(MAX_HOLDERS, dtype=np.int64),
        np.zeros(MAX_HOLDERS + 1, dtype=np.int64),
        np.zeros(MAX_HOLDERS, dtype=np.int64),
        np.zeros(MAX_HOLDERS, dtype=np.int64),
        np.zeros(N_SIGNATURES, dtype=np.int64),
    )


@njit(inline="always")
def void_cards(void_mask: int) -> tuple[np.uint64, np.uint64]:
    """The card set a void mask rules out (bit s: suit s; bit 4: trumps 1-21, not the Excuse)."""
    word0 = np.uint64(0)
    for suit in range(TRUMP_SUIT):
        if (void_mask >> suit) & 1:
            word0 |= SUIT_MASK << np.uint64(SUIT_LEN * suit)
    word1 = TRUMPS_MASK if (void_mask >> TRUMP_SUIT) & 1 else np.uint64(0)
    return word0, word1


@njit
def holder_allowed(
    unseen: np.ndarray,
    voids: np.ndarray,
    known: np.ndarray,
    possible: np.ndarray,
    n_holders: int,
    allowed: np.ndarray,
) -> None:
    """Fill ``allowed`` (uint64[n_holders, 2]): the unseen cards each holder may hold.

    Parameters
    ----------
    unseen : uint64[2]
        The cards to deal.
    voids : int64[n_holders]
        Per holder, bit ``s`` set when it holds no card of suit ``s`` (bit 4: no trump).
    known : uint64[n_holders, 2]
        Cards known to be in each holder: ruled out of every other holder.
    possible : uint64[n_holders, 2]
        Cards each holder may hold at all (all 78 for a hand with nothing more known).

    A known card that its own holder may not hold (a void, ``possible``) is then allowed
    nowhere, and ``prepare_worlds`` reports the constraints impossible.
    """
    for h in range(n_holders):
        excluded0, excluded1 = void_cards(voids[h])
        for other in range(n_holders):
            if other != h:
                excluded0 |= known[other, 0]
                excluded1 |= known[other, 1]
        allowed[h, 0] = unseen[0] & possible[h, 0] & ~excluded0
        allowed[h, 1] = unseen[1] & possible[h, 1] & ~excluded1


@njit(inline="always")
def _card_signature(allowed: np.ndarray, sizes: np.ndarray, n_holders: int, card: int) -> int:
    bit0, bit1 = card_bit(card)
    signature = 0
    for h in range(n_holders):
        if sizes[h] > 0 and ((allowed[h, 0] & bit0) or (allowed[h, 1] & bit1)):
            signature |= 1 << h
    return signature


@njit
def _deal_forced(ws: WorldScratch, n_holders: int, sizes: np.ndarray, unseen: np.ndarray) -> bool:
    """Deal the groups that have one possible holder, again while a holder that fills up
    leaves a group with one holder; then regroup the cards by their holders with room
    (``group_size``, ``group_cards``, ``capacity``). False when no deal is possible."""
    capacity = ws.capacity
    group_size = ws.group_size
    forced_holder = ws.forced_holder
    for h in range(MAX_HOLDERS):
        capacity[h] = sizes[h] if h < n_holders else 0
    for s in range(N_SIGNATURES):
        group_size[s] = 0
        forced_holder[s] = -1
    for card in range(N_CARDS):
        bit0, bit1 = card_bit(card)
        if (unseen[0] & bit0) or (unseen[1] & bit1):
            group_size[ws.signature[card]] += 1
    if group_size[0] > 0:
        return False
    active = 0
    for h in range(n_holders):
        if capacity[h] > 0:
            active |= 1 << h
    changed = True
    while changed:
        changed = False
        for s in range(1, N_SIGNATURES):
            if group_size[s] == 0 or forced_holder[s] >= 0:
                continue
            holders = s & active
            if holders == 0:
                return False
            if popcount(np.uint64(holders)) == 1:
                h = lowest_bit(np.uint64(holders))
                capacity[h] -= group_size[s]
                if capacity[h] < 0:
                    return False
                if capacity[h] == 0:
                    active &= ~(1 << h)
                forced_holder[s] = h
                changed = True
    for s in range(N_SIGNATURES):
        group_size[s] = 0
    for card in range(N_CARDS):
        bit0, bit1 = card_bit(card)
        if (unseen[0] & bit0) or (unseen[1] & bit1):
            s = ws.signature[card]
            target = 1 << forced_holder[s] if forced_holder[s] >= 0 else s & active
            ws.group_cards[target, group_size[target]] = card
            group_size[target] += 1
    ws.scalars[W_ACTIVE] = active
    return True


@njit(inline="always")
def _decode(ws: WorldScratch, index: int, total: int) -> None:
    """Capacity vector ``ws.vector`` of a state index whose capacities sum to ``total``."""
    active = ws.scalars[W_ACTIVE]
    implied = -1
    rest = total
    for h in range(MAX_HOLDERS):
        ws.vector[h] = 0
        if (active >> h) & 1:
            if ws.stride[h] == 0:
                implied = h
            else:
                ws.vector[h] = (index // ws.stride[h]) % (ws.capacity[h] + 1)
                rest -= ws.vector[h]
    if implied >= 0:
        ws.vector[implied] = rest


@njit(inline="always")
def _start_group(ws: WorldScratch, signature: int, n: int) -> int:
    """List the holders of a group and the most each may take; returns how many holders."""
    k = 0
    for h in range(MAX_HOLDERS):
        if (signature >> h) & 1:
            ws.members[k] = h
            ws.bound[k] = min(ws.vector[h], n)
            k += 1
    ws.tail[k] = 0
    for j in range(k - 1, -1, -1):
        ws.tail[j] = ws.tail[j + 1] + ws.bound[j]
    return k


@njit(inline="always")
def _fill_share(ws: WorldScratch, k: int, start: int, cards: int) -> None:
    """Share ``cards`` among holders ``start`` … k-1, each taking as few as the later ones allow."""
    for j in range(start, k):
        take = max(0, cards - ws.tail[j + 1])
        ws.share[j] = take
        cards -= take


@njit(inline="always")
def _first_share(ws: WorldScratch, k: int, n: int) -> bool:
    """The first way (in lexicographic order) to share a group of ``n`` cards; False if none."""
    if n > ws.tail[0]:
        return False
    _fill_share(ws, k, 0, n)
    return True


@njit(inline="always")
def _next_share(ws: WorldScratch, k: int) -> bool:
    """The next way to share the group, in lexicographic order; False after the last."""
    after = ws.share[k - 1]
    for j in range(k - 2, -1, -1):
        if ws.share[j] < ws.bound[j] and after >= 1:
            ws.share[j] += 1
            _fill_share(ws, k, j + 1, after - 1)
            return True
        after += ws.share[j]
    return False


@njit(inline="always")
def _share_weight(ws: WorldScratch, k: int, n: int) -> float:
    """Multinomial coefficient of the share: the ways to pick which cards go where."""
    weight = 1.0
    for j in range(k - 1):
        weight *= BINOMIAL[n, ws.share[j]]
        n -= ws.share[j]
    return weight


@njit(inline="always")
def _share_child(ws: WorldScratch, k: int, index: int) -> int:
    for j in range(k):
        index -= ws.share[j] * ws.stride[ws.members[j]]
    return index


@njit(inline="always")
def _chain_rank(ws: WorldScratch, signature: int) -> int:
    """Preference for the next nested group: more holders, then more cards."""
    return 100 * popcount(np.uint64(signature)) + ws.group_size[signature]


@njit(inline="always")
def _tail_ways(ws: WorldScratch) -> float:
    """Completions of the capacity vector ``ws.vector`` by the nested groups and the group
    every holder may take: give each holder as many numbered places as it has room, put
    each nested group's cards, smallest set of holders first, into free places of its
    holders, then the rest anywhere; divide by the orders of the places within each hand."""
    free_total = 0
    for h in range(MAX_HOLDERS):
        free_total += ws.vector[h]
    used = 0
    ways = 1.0
    for c in range(ws.scalars[W_CHAIN]):
        signature = ws.chain_group[c]
        n = ws.group_size[signature]
        free = -used
        for h in range(MAX_HOLDERS):
            if (signature >> h) & 1:
                free += ws.vector[h]
        if free < n:
            return 0.0
        ways *= FACTORIAL[free] / FACTORIAL[free - n]
        used += n
    ways *= FACTORIAL[free_total - used]
    for h in range(MAX_HOLDERS):
        ways /= FACTORIAL[ws.vector[h]]
    return ways


@njit
def prepare_worlds(
    allowed: np.ndarray, sizes: np.ndarray, n_holders: int, unseen: np.ndarray, ws: WorldScratch
) -> float:
    """Count the deals of ``unseen`` into the holders and get ``ws`` ready for ``draw_world``.

    Parameters
    ----------
    allowed : uint64[n_holders, 2]
        The unseen cards each holder may hold (``holder_allowed``).
    sizes : int64[n_holders]
        Cards each holder takes; they must sum to the number of unseen cards.
    n_holders : int
        1 to ``MAX_HOLDERS``.
    unseen : uint64[2]
        The cards to deal.
    ws : WorldScratch

    Returns
    -------
    float
        The number of consistent deals (float64, exact below 2**53); 0.0 when the
        constraints admit none; -1.0 when the programme needs more states than ``ws``
        holds (make it with a larger ``max_states``).
    """
    total = 0
    for h in range(n_holders):
        total += sizes[h]
    if total != popcount(unseen[0]) + popcount(unseen[1]):
        return 0.0
    for card in range(N_CARDS):
        ws.signature[card] = _card_signature(allowed, sizes, n_holders, card)
    ws.scalars[W_HOLDERS] = n_holders
    if not _deal_forced(ws, n_holders, sizes, unseen):
        return 0.0
    active = ws.scalars[W_ACTIVE]

    implied = -1
    for h in range(MAX_HOLDERS):
        if (active >> h) & 1 and (implied < 0 or ws.capacity[h] > ws.capacity[implied]):
            implied = h
    states = 1
    start = 0
    stage_total = 0
    for h in range(MAX_HOLDERS):
        ws.stride[h] = 0
        if (active >> h) & 1:
            stage_total += ws.capacity[h]
            if h != implied:
                ws.stride[h] = states
                start += ws.capacity[h] * states
                states *= ws.capacity[h] + 1
    if states > ws.ways.shape[1]:
        return -1.0
    ws.scalars[W_START] = start

    # The constrained groups: a chain of nested sets of holders is counted in closed form
    # (``_tail_ways``), picked greedily from the largest; the programme runs over the others,
    # those with fewer possible holders first.
    in_chain = 0
    chain = 0
    inside = active
    while True:
        pick = -1
        for s in range(1, N_SIGNATURES):
            if ws.group_size[s] > 0 and s != inside and popcount(np.uint64(s)) >= 2 and (s & ~inside) == 0:
                if pick < 0 or _chain_rank(ws, s) > _chain_rank(ws, pick):
                    pick = s
        if pick < 0:
            break
        in_chain |= 1 << pick
        inside = pick
        ws.chain_group[chain] = pick
        chain += 1
    ws.scalars[W_CHAIN] = chain
    for c in range(chain // 2):
        ws.chain_group[c], ws.chain_group[chain - 1 - c] = ws.chain_group[chain - 1 - c], ws.chain_group[c]
    stages = 0
    for holders in range(2, MAX_HOLDERS + 1):
        for s in range(1, N_SIGNATURES):
            if (
                ws.group_size[s] > 0
                and s != active
                and popcount(np.uint64(s)) == holders
                and not (in_chain >> s) & 1
            ):
                ws.stage_group[stages] = s
                stages += 1
    ws.scalars[W_STAGES] = stages
    ws.stage_total[0] = stage_total
    for g in range(stages):
        ws.stage_total[g + 1] = ws.stage_total[g] - ws.group_size[ws.stage_group[g]]

    ways = ws.ways
    reach = ws.reach
    for g in range(stages + 1):
        ws.n_reach[g] = 0
        for i in range(states):
            ways[g, i] = -1.0
    ways[0, start] = 0.0
    reach[0, 0] = start
    ws.n_reach[0] = 1
    for g in range(stages):
        signature = ws.stage_group[g]
        n = ws.group_size[signature]
        for r in range(ws.n_reach[g]):
            index = reach[g, r]
            _decode(ws, index, ws.stage_total[g])
            k = _start_group(ws, signature, n)
            more = _first_share(ws, k, n)
            while more:
                child = _share_child(ws, k, index)
                if ways[g + 1, child] < 0.0:
                    ways[g + 1, child] = 0.0
                    reach[g + 1, ws.n_reach[g + 1]] = child
                    ws.n_reach[g + 1] += 1
                more = _next_share(ws, k)

    for r in range(ws.n_reach[stages]):
        index = reach[stages, r]
        _decode(ws, index, ws.stage_total[stages])
        ways[stages, index] = _tail_ways(ws)
    for g in range(stages - 1, -1, -1):
        signature = ws.stage_group[g]
        n = ws.group_size[signature]
        for r in range(ws.n_reach[g]):
            index = reach[g, r]
            _decode(ws, index, ws.stage_total[g])
            k = _start_group(ws, signature, n)
            count = 0.0
            more = _first_share(ws, k, n)
            while more:
                count += _share_weight(ws, k, n) * ways[g + 1, _share_child(ws, k, index)]
                more = _next_share(ws, k)
            ways[g, index] = count
    return ways[0, start]


@njit(inline="always")
def _uniform(rng: np.ndarray) -> float:
    """A uniform float64 in [0, 1) from the top 53 bits of the next output."""
    return np.float64(next_u64(rng) >> np.uint64(11)) * _TWO_53


@njit(inline="always")
def _deal_group(rng: np.ndarray, ws: WorldScratch, signature: int, k: int, out: np.ndarray) -> None:
    """Give ``ws.share[j]`` cards of the group to holder ``ws.members[j]``, which cards by a
    uniform random permutation of the group."""
    cards = ws.group_cards[signature]
    n = ws.group_size[signature]
    pos = 0
    for j in range(k):
        h = ws.members[j]
        for _ in range(ws.share[j]):
            if j < k - 1:
                pick = pos + below(rng, n - pos)
                cards[pos], cards[pick] = cards[pick], cards[pos]
            bit0, bit1 = card_bit(cards[pos])
            out[h, 0] |= bit0
            out[h, 1] |= bit1
            pos += 1


@njit
def draw_world(rng: np.ndarray, ws: WorldScratch, out: np.ndarray) -> None:
    """Deal the unseen cards into ``out`` (uint64[n_holders, 2]), uniformly over the
    consistent deals; ``prepare_worlds`` must have returned a positive count on ``ws``.

    ``rng`` is the deal's xoshiro state (uint64[4]); the draw advances it.
    """
    n_holders = ws.scalars[W_HOLDERS]
    for h in range(n_holders):
        out[h, 0] = np.uint64(0)
        out[h, 1] = np.uint64(0)
    for h in range(MAX_HOLDERS):
        signature = 1 << h
        cards = ws.group_cards[signature]
        for i in range(ws.group_size[signature]):
            bit0, bit1 = card_bit(cards[i])
            out[h, 0] |= bit0
            out[h, 1] |= bit1
    stages = ws.scalars[W_STAGES]
    index = ws.scalars[W_START]
    for g in range(stages):
        signature = ws.stage_group[g]
        n = ws.group_size[signature]
        _decode(ws, index, ws.stage_total[g])
        k = _start_group(ws, signature, n)
        target = _uniform(rng) * ws.ways[g, index]
        count = 0.0
        more = _first_share(ws, k, n)
        while more:
            weight = _share_weight(ws, k, n) * ws.ways[g + 1, _share_child(ws, k, index)]
            if weight > 0.0:
                count += weight
                for j in range(k):
                    ws.kept[j] = ws.share[j]
                if count > target:
                    break
            more = _next_share(ws, k)
        for j in range(k):
            ws.share[j] = ws.kept[j]
        index = _share_child(ws, k, index)
        _deal_group(rng, ws, signature, k, out)
    active = ws.scalars[W_ACTIVE]
    if popcount(np.uint64(active)) >= 2:
        _decode(ws, index, ws.stage_total[stages])
        for c in range(ws.scalars[W_CHAIN]):
            signature = ws.chain_group[c]
            cards = ws.group_cards[signature]
            for i in range(ws.group_size[signature]):
                free = 0
                for h in range(MAX_HOLDERS):
                    if (signature >> h) & 1:
                        free += ws.vector[h]
                place = below(rng, free)
                for h in range(MAX_HOLDERS):
                    if (signature >> h) & 1:
                        if place < ws.vector[h]:
                            ws.vector[h] -= 1
                            bit0, bit1 = card_bit(cards[i])
                            out[h, 0] |= bit0
                            out[h, 1] |= bit1
                            break
                        place -= ws.vector[h]
        k = _start_group(ws, active, ws.stage_total[stages])
        for j in range(k):
            ws.share[j] = ws.vector[ws.members[j]]
        _deal_group(rng, ws, active, k, out)


@njit
def sample_world(
    rng: np.ndarray,
    allowed: np.ndarray,
    sizes: np.ndarray,
    n_holders: int,
    unseen: np.ndarray,
    ws: WorldScratch,
    out: np.ndarray,
) -> bool:
    """``prepare_worlds`` then one ``draw_world``; False (``out`` untouched) when no deal is
    consistent or ``ws`` is too small."""
    if prepare_worlds(allowed, sizes, n_holders, unseen, ws) <= 0.0:
        return False
    draw_world(rng, ws, out)
    return True
