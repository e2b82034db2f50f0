"""The ``montecarlo`` bidder: deterministic, blind to the cards it cannot see, sensible on clear hands."""

from __future__ import annotations

import random

import numba
import numpy as np
import pandas as pd
import pytest

import tarotsim
from tarotsim.engine.cards import N_CARDS, parse_cards, to_mask
from tarotsim.engine.kernels.constants import INFER_HEURISTIC
from tarotsim.engine.kernels.deal import is_petit_sec
from tarotsim.engine.kernels.score import GARDE, GARDE_SANS, PASS, PRISE
from tarotsim.engine.kernels.state import MAX_SEATS, P_INFER, P_ROLLOUT, DealState, new_state, seat_slot
from tarotsim.engine.kernels.steps import reset_table
from tarotsim.engine.labels import TABLE_SIZES, Contract
from tarotsim.interfaces.testing import redistribute
from tarotsim.players.config import RunConfig
from tarotsim.players.kernels.policies.bidding import chavey_wish
from tarotsim.players.kernels.policies.codes import PLAY_PIMC
from tarotsim.players.kernels.policies.dispatch import check_policies
from tarotsim.players.kernels.search.montecarlo import (
    B_ACCEPTED,
    B_TRIES,
    TRIES_PER_WORLD,
    BidScratch,
    montecarlo_wish,
    new_bid_scratch,
    playout_totals,
)
from tarotsim.players.strategy import DEFAULT_BID_WORLDS, Strategy
from tarotsim.runs.runner import play_deals
from tests.test_no_peeking import view_of

MC = "play=heuristic,bid=montecarlo,bid_worlds=4"
MC_PIMC = "play=pimc,bid=montecarlo,bid_worlds=2,bid_rollout=pimc"
"""The bidder whose playouts the search player plays, small: 2 worlds, each card of a playout
a ``pimc`` decision over 2 worlds of its own (``bid_rollout_worlds``' default)."""
KEY = np.array([11, 22, 33, 44], dtype=np.uint64)


# The first tests to play the searching game are here and in tests/test_golden.py; one worker runs
# both modules (the Makefile's --dist loadgroup), so that game is compiled once, not twice at once.
pytestmark = pytest.mark.xdist_group("search_game")


def table_config(spec: str = MC, players: int = 4) -> np.ndarray:
    return RunConfig(players=players, strategies=[spec] * players).to_array()


def dealt_table(hands: list[set[int]], chien: set[int], dealer: int, players: int) -> DealState:
    """The table of the given deal at the auction, as the game makes it (``engine.kernels.steps.reset_table``)."""
    tb = new_state()
    for seat in range(players):
        tb.dealt[seat] = to_mask(sorted(hands[seat]))
    tb.chien[:] = to_mask(sorted(chien))
    reset_table(tb, players, dealer)
    return tb


def random_deal(
    rng: random.Random, players: int, keep: set[int] | None = None, seat: int = 0
) -> tuple[list[set[int]], set[int]]:
    """Hands and chien with no Petit sec; ``keep`` (if given) is ``seat``'s hand."""
    hand_size, chien_size = TABLE_SIZES[players]
    while True:
        rest = [c for c in range(N_CARDS) if keep is None or c not in keep]
        rng.shuffle(rest)
        hands: list[set[int]] = []
        for s in range(players):
            if keep is not None and s == seat:
                hands.append(set(keep))
            else:
                hands.append(set(rest[:hand_size]))
                rest = rest[hand_size:]
        chien = set(rest)
        assert len(chien) == chien_size
        if not any(is_petit_sec(to_mask(sorted(h))[1]) for h in hands):
            return hands, chien


def heard(bids: list[int]) -> np.ndarray:
    """The auction's words in speaking order (int64[MAX_SEATS])."""
    words = np.zeros(MAX_SEATS, dtype=np.int64)
    words[: len(bids)] = bids
    return words


def wish_of(tb: DealState, seat: int, cfg: np.ndarray, key: np.ndarray, deal: int, bs: BidScratch) -> int:
    """The bidder's wish for ``seat``, asked as the game asks it: with the seat's view of ``tb``
    (the kernel the game compiled, ``view_of``)."""
    return montecarlo_wish(view_of(tb, seat), cfg, key, deal, bs)


def totals_of(tb: DealState, seat: int, cfg: np.ndarray, key: np.ndarray, deal: int, bs: BidScratch) -> int:
    """``playout_totals`` for ``seat``, with its view of ``tb``."""
    return playout_totals(view_of(tb, seat), cfg, key, deal, bs)


def wish(tb: DealState, cfg: np.ndarray, seat: int, bids: list[int], deal: int = 7) -> tuple[int, BidScratch]:
    """The wish of ``seat``, which speaks after the seats that said ``bids``."""
    bs = new_bid_scratch(cfg.reshape(1, -1))
    tb.bids[:] = heard(bids)
    return wish_of(tb, seat, cfg, KEY, deal, bs), bs


def test_a_hand_with_three_bouts_and_twelve_trumps_wishes_at_least_a_garde() -> None:
    cfg = table_config("play=heuristic,bid=montecarlo,bid_worlds=16")
    hand = set(parse_cards("T1 T21 EX T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 KS KH 2D 3D 4C".split()))
    others, chien = random_deal(random.Random(1), 4, keep=hand, seat=1)
    contract, _ = wish(dealt_table(others, chien, dealer=0, players=4), cfg, 1, [])
    assert contract >= GARDE


def test_a_hopeless_hand_passes() -> None:
    cfg = table_config("play=heuristic,bid=montecarlo,bid_worlds=16")
    hand = set(parse_cards("2S 3S 4S 5S 2H 3H 4H 5H 6H 2D 3D 4D 5D 6D 2C 3C T2 T3".split()))
    others, chien = random_deal(random.Random(2), 4, keep=hand, seat=1)
    contract, _ = wish(dealt_table(others, chien, dealer=0, players=4), cfg, 1, [])
    assert contract == PASS


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_wish_depends_only_on_the_seat_hand_and_the_bids_heard(players: int) -> None:
    """Re-deal the other hands and the chien, keeping the seat's hand and the words heard: same wish."""
    cfg = table_config(players=players)
    rng = random.Random(players)
    for trial in range(4):
        hands, chien = random_deal(rng, players)
        dealer = rng.randrange(players)
        spoken = rng.randrange(players)
        seat = (dealer + 1 + spoken) % players
        bids = [rng.choice([PASS, PASS, PRISE, GARDE]) for _ in range(spoken)]
        first, bs = wish(dealt_table(hands, chien, dealer, players), cfg, seat, bids, deal=trial)
        totals = bs.total.copy()
        for _ in range(3):
            again, chien2 = random_deal(rng, players, keep=hands[seat], seat=seat)
            second, bs2 = wish(dealt_table(again, chien2, dealer, players), cfg, seat, bids, deal=trial)
            assert second == first
            assert (bs2.total == totals).all()


def test_worlds_fit_the_bids_heard_and_the_cap_is_kept() -> None:
    cfg = table_config()
    hands, chien = random_deal(random.Random(5), 4)
    tb = dealt_table(hands, chien, dealer=3, players=4)  # seat 0 speaks first, seat 1 second
    bs = new_bid_scratch(cfg.reshape(1, -1))
    tb.bids[:] = heard([PASS])
    assert totals_of(tb, 1, cfg, KEY, 0, bs) == 4
    assert bs.scalars[B_TRIES] >= bs.scalars[B_ACCEPTED] == 4
    # a rare bid: some worlds are rejected, and at most the cap is drawn
    tb.bids[:] = heard([GARDE_SANS])
    accepted = totals_of(tb, 1, cfg, KEY, 0, bs)
    assert bs.scalars[B_TRIES] <= TRIES_PER_WORLD * 4
    assert accepted == bs.scalars[B_ACCEPTED] <= 4
    assert bs.total[PRISE] == bs.total[GARDE] == bs.total[GARDE_SANS] == 0  # only Garde contre is above
    # the earlier speaker of every accepted world bid as Chavey's count says: checked on the last one
    if accepted:
        assert chavey_wish(bs.table.dealt[0, 0], bs.table.dealt[0, 1], cfg, 1) == GARDE_SANS


def test_records_do_not_depend_on_where_a_block_starts() -> None:
    cfg = table_config()
    whole = play_deals(0, 40, KEY, cfg)
    part = play_deals(15, 25, KEY, cfg)
    assert (part == whole[15:]).all()


def test_same_seed_same_records_with_one_and_two_threads() -> None:
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("needs two threads")
    config = RunConfig(players=4, strategies=["play=heuristic,bid=montecarlo,bid_worlds=1"] * 4)
    one = tarotsim.simulate(1100, seed=9, config=config, threads=1, progress=False)
    two = tarotsim.simulate(1100, seed=9, config=config, threads=2, progress=False)
    pd.testing.assert_frame_equal(one, two)


@pytest.mark.parametrize("players", [3, 5])
def test_a_duel_against_chavey_plays_complete_deals(players: int) -> None:
    result = tarotsim.duel(MC, "play=heuristic", 40, seed=players, players=players, progress=False)
    played = result.records[result.records.thrown_in == "none"]
    scores = played[[f"score_{s}" for s in range(players)]].to_numpy()
    assert (scores.sum(axis=1) == 0).all()
    codes = played.others_bid.cat.codes.to_numpy()
    assert (codes <= played.contract.cat.codes.to_numpy() + 1).all()  # others_bid counts pass as 0
    assert np.isfinite(result.edge)


def test_others_bid_holds_the_auction_wishes() -> None:
    """Chavey seats wish from their own hand whatever they heard: the records are those of before."""
    config = RunConfig(players=4, policy="heuristic")
    df = tarotsim.simulate(300, seed=4, config=config, threads=1, progress=False)
    played = df[df.thrown_in == "none"]
    assert (played.others_bid.cat.codes <= played.contract.cat.codes + 1).all()


def test_a_sweep_with_montecarlo_bidders_records_their_wishes() -> None:
    df = tarotsim.sweep(6, seed=3, config=RunConfig(players=4, strategies=[MC] * 4), progress=False)
    assert len(df) == 6 * 4 and (df.taker == 0).all()
    assert df.others_bid.notna().all()
    assert {c for c in df.others_bid.unique()} <= {c.label for c in Contract}


def test_strategy_options() -> None:
    s = Strategy.parse("play=heuristic,bid=montecarlo,bid_worlds=8,bid_rollout=random")
    assert str(s) == "play=heuristic,bid=montecarlo,bid_worlds=8,bid_rollout=random"
    assert Strategy.parse(str(s)) == s
    assert Strategy(bid="montecarlo").bid_worlds == DEFAULT_BID_WORLDS
    with pytest.raises(
        ValueError, match="bid_worlds tunes montecarlo bidding, but this strategy has bid=chavey"
    ):
        Strategy.parse("play=heuristic,bid_worlds=8")
    with pytest.raises(ValueError, match="bid_worlds must be 1 to"):
        Strategy.parse("bid=montecarlo,bid_worlds=0")
    with pytest.raises(
        ValueError,
        match="unknown bid_rollout policy 'clever'; valid names: basic, greedy, heuristic, net, pimc, random",
    ):
        Strategy.parse("bid=montecarlo,bid_rollout=clever")
    with pytest.raises(TypeError, match="bid_rollout must be a name such as 'random', got 3"):
        Strategy(bid="montecarlo", bid_rollout=3)


def test_pimc_playouts_are_played_by_pimc() -> None:
    """The playouts' pimc decides (its totals differ from the heuristic's on the same worlds),
    and its scratch is full size only for a seat that bids with it."""
    hand = set(parse_cards("T1 T21 T20 T19 T18 T17 T16 T15 KS KH QH 2D 3D 4D 5C 6C 7C 8C".split()))
    others, chien = random_deal(random.Random(8), 4, keep=hand, seat=1)
    tb = dealt_table(others, chien, dealer=0, players=4)
    _, by_pimc = wish(tb, table_config(MC_PIMC), 1, [])
    _, by_heuristic = wish(tb, table_config("play=pimc,bid=montecarlo,bid_worlds=2"), 1, [])
    assert by_pimc.scalars[B_ACCEPTED] == by_heuristic.scalars[B_ACCEPTED] == 2  # the same worlds
    assert (by_pimc.total != by_heuristic.total).any()
    assert by_pimc.play.world_values.shape[0] > 1 == by_heuristic.play.world_values.shape[0]


@pytest.mark.parametrize("players", [4, 5])
def test_with_pimc_playouts_the_wish_depends_only_on_what_the_seat_knows(players: int) -> None:
    """The unseen cards dealt again as the no-peeking check deals them (``interfaces.testing.redistribute``):
    the same wish and the same playout totals; asked twice, the same again (determinism)."""
    cfg = table_config(MC_PIMC, players=players)
    rng = random.Random(40 + players)
    for trial in range(2):
        hands, chien = random_deal(rng, players)
        dealer = rng.randrange(players)
        spoken = rng.randrange(players)
        seat = (dealer + 1 + spoken) % players
        bids = [rng.choice([PASS, PASS, PRISE]) for _ in range(spoken)]
        tb = dealt_table(hands, chien, dealer, players)
        first, bs = wish(tb, cfg, seat, bids, deal=trial)
        totals = bs.total.copy()
        again, bs_again = wish(tb, cfg, seat, bids, deal=trial)
        assert again == first and (bs_again.total == totals).all()
        other, moved = redistribute(tb, seat, rng)
        assert moved > 0
        second, bs2 = wish(other, cfg, seat, bids, deal=trial)
        assert second == first
        assert (bs2.total == totals).all()


def test_records_with_pimc_playouts_do_not_depend_on_where_a_block_starts() -> None:
    cfg = table_config(MC_PIMC.replace("play=pimc", "play=heuristic"))
    whole = play_deals(0, 6, KEY, cfg)
    part = play_deals(4, 2, KEY, cfg)
    assert (part == whole[4:]).all()


def test_the_kernels_refuse_what_pimc_playouts_cannot_combine() -> None:
    """What ``Strategy`` refuses in a line, the run's check refuses too: a searching rollout for
    the playouts' pimc, or its worlds weighed by an auction the playouts do not hold."""
    cfg = table_config(MC_PIMC).reshape(1, -1)
    check_policies(cfg, True)
    for slot, code, message in (
        (P_ROLLOUT, PLAY_PIMC, "unknown or searching rollout policy code"),
        (P_INFER, INFER_HEURISTIC, "pimc playouts cannot infer"),
    ):
        bad = cfg.copy()
        bad[0, seat_slot(2, slot)] = code
        with pytest.raises(ValueError, match=message):
            check_policies(bad, True)
