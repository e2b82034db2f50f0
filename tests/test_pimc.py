"""The ``pimc`` card-play policy: legal complete deals, determinism, no peeking, forced
moves at no cost, and a position with one obviously winning card."""

from __future__ import annotations

import numpy as np
import pytest

import tarotsim
from tarotsim.base.seeding import run_key
from tarotsim.engine.cards import N_SUIT_CARDS, PETIT, TRUMP_21, to_mask
from tarotsim.engine.kernels.rng import seed_substream
from tarotsim.engine.kernels.score import GARDE_CONTRE
from tarotsim.engine.kernels.state import C_HAND, I_LEADER, P_DROP, P_WORLDS, DealState, seat_slot
from tarotsim.engine.kernels.steps import end_trick, legal_now, put_card, reset_table
from tarotsim.players.config import RunConfig
from tarotsim.players.kernels.machine import take_contract
from tarotsim.players.kernels.search.pimc import DROP_FIRST, _drop_behind, world_count
from tarotsim.players.kernels.search.scratch import SearchScratch
from tarotsim.players.strategy import Strategy
from tarotsim.runs.runner import play_deals
from tarotsim.runs.trace import trace_records
from tests import reference as ref
from tests.test_no_peeking import (
    SEARCH,
    copy_table,
    count_changed,
    mid_deal_positions,
    pimc_of,
    view_of,
    words,
)
from tests.test_no_peeking_five import count_changed_partner

FAST = "play=pimc,worlds=4"


def fast_config(players: int, **options: object) -> RunConfig:
    return RunConfig(players=players, strategies=[FAST] * players, **options)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_pimc_deals_are_legal_and_complete(players: int) -> None:
    traces = trace_records(6, 7, fast_config(players))
    played = [t for t in traces if t["thrown_in"] is None]
    assert played
    for trace in traces:
        ref.check_trace(trace)  # legality, each card once, 91 points, the scores (zero-sum)


def test_a_deal_is_the_same_whatever_the_deals_played_before_it_on_the_table() -> None:
    """Each decision draws from its own sub-stream: a block starting at another deal (another
    thread's share) gives the same records."""
    cfg = fast_config(4).to_array()
    key = run_key(11)
    whole = play_deals(0, 6, key, cfg)
    tail = play_deals(3, 3, key, cfg)
    assert np.array_equal(whole[3:], tail)


def test_strategy_options_reach_the_seat_block_and_are_checked() -> None:
    strategy = Strategy.parse("play=pimc,worlds=48,endgame=3,rollout=random,drop=0")
    assert str(strategy) == "play=pimc,worlds=48,endgame=3,rollout=random,drop=0"
    from tarotsim.engine.kernels.state import P_ENDGAME, P_ROLLOUT

    block = strategy.block(4)
    assert (block[P_WORLDS], block[P_ENDGAME], block[P_ROLLOUT], block[P_DROP]) == (48, 3, 0, 0)
    with pytest.raises(ValueError, match="worlds tunes pimc card play, but this strategy plays heuristic"):
        Strategy.parse("play=heuristic,worlds=8")
    assert Strategy.parse("play=pimc,rollout=greedy").rollout == "greedy"  # any policy that searches nothing
    with pytest.raises(
        ValueError, match="unknown rollout policy 'pimc'; valid names: basic, greedy, heuristic, net, random"
    ):
        Strategy.parse("play=pimc,rollout=pimc")
    with pytest.raises(ValueError, match="worlds must be 1 to"):
        Strategy(play="pimc", worlds=0)
    assert Strategy.parse("attack_play=pimc,play=heuristic,endgame=2").endgame == 2
    assert Strategy.parse("play=pimc,drop=25").block(4)[P_DROP] == 25
    with pytest.raises(ValueError, match="drop tunes pimc card play"):
        Strategy.parse("play=heuristic,drop=5")
    with pytest.raises(ValueError, match="drop must be 0 to 100"):
        Strategy(play="pimc", drop=101)


@pytest.mark.parametrize("spec", [FAST, "play=pimc,worlds=16,drop=10"])
def test_pimc_records_do_not_depend_on_the_threads(spec: str) -> None:
    config = RunConfig(players=4, strategies=[spec] * 4)
    one = tarotsim.simulate(8, seed=3, config=config, threads=1, progress=False)
    two = tarotsim.simulate(8, seed=3, config=config, threads=2, progress=False)
    assert one.equals(two)


def _set_values(sc, rows: dict[int, list[int]]) -> None:
    sc.live[:] = 0
    sc.total[:] = 0
    for card, values in rows.items():
        sc.live[card] = 1
        sc.world_values[: len(values), card] = values
        sc.total[card] = sum(values)


def test_dropping_keeps_the_best_card_and_the_cards_in_doubt() -> None:
    """At ``drop=20`` (2 standard errors) a card always 5 points behind goes, a card equal in
    every world stays, a card behind by about one standard error stays, and so does the best."""
    sc = SEARCH.play
    best = [30, -10, 50, 0, 20, 40, -30, 10]
    noisy = [b + d for b, d in zip(best, [-20, 25, -15, 10, -30, 5, 20, -5], strict=True)]  # mean -1.25
    _set_values(sc, {3: best, 5: list(best), 7: [b - 5 for b in best], 9: noisy})
    assert _drop_behind(sc, 8, 20) == 3
    assert [int(sc.live[c]) for c in (3, 5, 7, 9)] == [1, 1, 0, 1]
    _set_values(sc, {3: best, 9: noisy})
    assert _drop_behind(sc, 8, 1) == 1  # at a tenth of a standard error it goes too
    assert sc.live[3] == 1 and sc.live[9] == 0


def world_count_of(tb: DealState, seat: int, cfg: np.ndarray, sc: SearchScratch, n: int) -> None:
    """``pimc.world_count`` for ``seat``, from its view of ``tb`` (the kernel the game compiled,
    ``view_of``)."""
    world_count(view_of(tb, seat), cfg, sc, n)


def _decide_with(cfg: np.ndarray):
    """The ``pimc`` player's decisions under ``cfg``, asked as the game asks them (``pimc_of``)."""

    def decide(seat: int, legal0: np.uint64, legal1: np.uint64, tb: DealState) -> int:
        return int(pimc_of(tb, seat, legal0, legal1, cfg, SEARCH.play))

    return decide


@pytest.mark.parametrize("endgame", [0, 3])
def test_pimc_does_not_peek(endgame: int) -> None:
    """Re-dealing the cards the seat cannot see, keeping what it knows, leaves the decision."""
    cfg = RunConfig(strategies=[f"{FAST},endgame={endgame}"] * 4).to_array()
    changed, tried = count_changed(_decide_with(cfg), 40, seed=13, redeals=2)
    assert tried == 40
    assert changed == 0


def test_pimc_does_not_peek_at_the_ecart() -> None:
    cfg = RunConfig(strategies=[FAST] * 4).to_array()
    changed, tried = count_changed(_decide_with(cfg), 25, seed=17, redeals=2, defender_view=True)
    assert changed == 0


def test_pimc_does_not_peek_at_five_players() -> None:
    cfg = RunConfig(players=5, strategies=[FAST] * 5).to_array()
    changed, tried = count_changed(_decide_with(cfg), 25, seed=19, redeals=2, players=5)
    assert tried == 25
    assert changed == 0


def test_pimc_does_not_peek_at_the_secret_partner() -> None:
    cfg = RunConfig(players=5, strategies=[FAST] * 5).to_array()
    changed, moved, _kinds = count_changed_partner(_decide_with(cfg), 20, seed=23)
    assert moved == 20
    assert changed == 0


def _all_trumps_table(cfg: np.ndarray) -> tuple[DealState, int]:
    """3 players: seat 0 holds every trump and three Kings and takes a Garde contre; it leads
    its trumps from the top but the Petit and the 21, then its Kings, while the others play
    their highest legal card. Returns the table at the last-but-one trick, seat 0 to lead
    with the Petit and the 21 only, and that seat."""
    taker = 0
    hands = [
        [N_SUIT_CARDS + t for t in range(21)] + [13, 27, 41],  # trumps 1-21, Kings of 3 suits
        [],
        [],
    ]
    rest = [c for c in range(78) if c not in hands[0]]
    hands[1] = rest[:24]
    hands[2] = rest[24:48]
    chien = rest[48:]
    tb = copy_table(_blank())
    for seat, hand in enumerate(hands):
        tb.dealt[seat] = to_mask(hand)
    tb.chien[:] = to_mask(chien)
    reset_table(tb, 3, 2)
    take_contract(tb, cfg, taker, GARDE_CONTRE)
    hand_size = int(cfg[C_HAND])
    for _t in range(hand_size - 2):
        seat = int(tb.info[I_LEADER])
        for _j in range(3):
            legal0, legal1 = words(legal_now(tb, seat))
            cards = [c for c in range(78) if (int(legal0) >> c) & 1] + [
                N_SUIT_CARDS + b for b in range(22) if (int(legal1) >> b) & 1
            ]
            if seat == taker and len(cards) > 1:
                cards = [c for c in cards if c not in (PETIT, TRUMP_21)] or cards
            put_card(tb, seat, max(cards))
            seat = (seat + 1) % 3
        end_trick(tb, cfg)
    assert int(tb.info[I_LEADER]) == taker
    return tb, taker


def _blank() -> DealState:
    from tarotsim.engine.kernels.state import new_state

    return new_state()


def test_pimc_finds_the_obviously_winning_card() -> None:
    """Leading the 21 then the Petit wins the petit au bout in every world; the Petit first
    does not."""
    cfg = RunConfig(players=3, poignee_policy="never", strategies=None, policy="pimc").to_array()
    tb, seat = _all_trumps_table(cfg)
    legal0, legal1 = words(legal_now(tb, seat))
    assert legal0 == 0 and int(legal1) == (1 << 0) | (1 << 20)
    card = int(pimc_of(tb, seat, legal0, legal1, cfg, SEARCH.play))
    assert card == TRUMP_21
    total = SEARCH.play.total
    assert total[TRUMP_21] > total[PETIT]


@pytest.mark.parametrize("drop", [0, 5])
def test_no_more_worlds_are_drawn_once_one_card_is_left(drop: int) -> None:
    """The Petit is behind the 21 in every world: with dropping it goes at the first test and
    the 21's total holds the first ``DROP_FIRST`` worlds only."""
    cfg = RunConfig(players=3, poignee_policy="never", strategies=None, policy="pimc").to_array()
    for seat in range(3):
        cfg[seat_slot(seat, P_WORLDS)] = 64
        cfg[seat_slot(seat, P_DROP)] = drop
    tb, seat = _all_trumps_table(cfg)
    legal0, legal1 = words(legal_now(tb, seat))
    unset = -123_456
    SEARCH.play.world_values[:] = unset
    assert int(pimc_of(tb, seat, legal0, legal1, cfg, SEARCH.play)) == TRUMP_21
    worlds = DROP_FIRST if drop else 64
    values = SEARCH.play.world_values[:, TRUMP_21]
    assert (values[:worlds] != unset).all() and (values[worlds:] == unset).all()
    assert SEARCH.play.total[TRUMP_21] == values[:worlds].sum()
    assert SEARCH.play.live[PETIT] == (0 if drop else 1)


def test_a_forced_card_is_played_without_sampling() -> None:
    cfg = RunConfig(players=3, poignee_policy="never", policy="pimc").to_array()
    tb, seat = _all_trumps_table(cfg)
    for card in (TRUMP_21, PETIT):  # the last-but-one trick, then the lead of the last one
        player = seat
        put_card(tb, player, card)
        for _ in range(2):
            player = (player + 1) % 3
            legal0, legal1 = words(legal_now(tb, player))
            if card == PETIT:
                break
            put_card(tb, player, int(pimc_of(tb, player, legal0, legal1, cfg, SEARCH.play)))
        if card == TRUMP_21:
            end_trick(tb, cfg)
    assert bin(int(legal0)).count("1") + bin(int(legal1)).count("1") == 1  # its last card
    SEARCH.play.rng[:] = 0
    SEARCH.play.total[:] = -1
    card = int(pimc_of(tb, player, legal0, legal1, cfg, SEARCH.play))
    assert card < N_SUIT_CARDS and (int(legal0) >> card) & 1
    assert not SEARCH.play.rng.any()  # no sub-stream seeded, no world drawn
    assert (SEARCH.play.total == -1).all()


def test_decision_sub_streams_differ_from_the_deal_stream() -> None:
    key = run_key(5)
    deal_stream = np.zeros(4, dtype=np.uint64)
    from tarotsim.engine.kernels.rng import seed_stream

    seed_stream(deal_stream, key, 9)
    subs = set()
    for sub in range(4):
        state = np.zeros(4, dtype=np.uint64)
        seed_substream(state, key, 9, sub)
        subs.add(tuple(int(w) for w in state))
    assert len(subs) == 4 and tuple(int(w) for w in deal_stream) not in subs


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_count_of_a_world_equal_to_the_deal_is_the_deals_own(players: int) -> None:
    """In the world that is the real deal, the count rebuilt from the public history under the
    world's sides is the deal's count (the écart or chien where it counts included)."""
    from tests.test_worlds import constraints_of, true_holders, world_hands_of

    cfg = RunConfig(players=players).to_array()
    sc = SEARCH.play
    checked = 0
    for tb, seat, _legal0, _legal1 in mid_deal_positions(30, seed=40 + players, players=players):
        n = constraints_of(
            tb, cfg, seat, sc.unseen, sc.sizes, sc.voids, sc.known, sc.possible, sc.holder_seat
        )
        truth = true_holders(tb, seat, n, sc.unseen, sc.holder_seat)
        for h, (word0, word1) in enumerate(truth):
            sc.world[h] = (word0, word1)
        world_hands_of(tb, seat, sc.world, sc.holder_seat, n, sc.hands, sc.attack)
        world_count_of(tb, seat, cfg, sc, n)
        assert np.array_equal(sc.count, tb.count)
        assert np.array_equal(sc.pile, tb.pile)
        checked += 1
    assert checked == 30
