"""``pimc``'s inference (``players.kernels.search.likelihood``, option ``infer``): the option, a model
that the heuristic's own play fits exactly, weights that follow the evidence, and no peeking."""

from __future__ import annotations

import numpy as np
import pytest

from tarotsim.engine.kernels.state import I_CHIEN_SHOWN, I_TRICK, P_INFER, DealState
from tarotsim.interfaces.game import strategy_cfg
from tarotsim.interfaces.testing import card_positions
from tarotsim.players.config import RunConfig
from tarotsim.players.kernels.search.constraints import seat_constraints, world_hands
from tarotsim.players.kernels.search.likelihood import world_log_likelihood
from tarotsim.players.kernels.search.scratch import SearchScratch
from tarotsim.players.strategy import Strategy
from tests.test_no_peeking import SEARCH, count_changed, pimc_of, view_of

HEURISTIC = "play=heuristic"
FAST_INFER = "play=pimc,worlds=4,infer=heuristic"


def test_the_infer_option_reaches_the_seat_block_and_is_checked() -> None:
    assert Strategy.parse("play=pimc").infer == "none"
    assert Strategy.parse("play=pimc").block(4)[P_INFER] == 0
    strategy = Strategy.parse("play=pimc,infer=heuristic")
    assert str(strategy) == "play=pimc,infer=heuristic"
    assert strategy.block(4)[P_INFER] == 1
    with pytest.raises(ValueError, match="unknown infer 'bayes'; valid names: heuristic, none"):
        Strategy.parse("play=pimc,infer=bayes")
    with pytest.raises(ValueError, match="infer tunes pimc card play, but this strategy plays heuristic"):
        Strategy.parse("play=heuristic,infer=heuristic")


def true_world_log_likelihood(
    tb: DealState, seat: int, cfg: np.ndarray, sc: SearchScratch, epsilon: float, swap: int
) -> float:
    """The log-likelihood of the true deal as a world of ``seat``; with ``swap`` >= 0, of the
    true deal with the lowest unseen card of the first hand holder and the lowest of the
    second traded (-1 nothing traded, 1 the trade impossible). The kernels are those the
    game compiled, asked with the seat's view (``view_of``)."""
    v = view_of(tb, seat)
    n = seat_constraints(v, cfg, sc.unseen, sc.sizes, sc.voids, sc.known, sc.possible, sc.holder_seat)
    for h in range(n):
        s = sc.holder_seat[h]
        if s >= 0:
            sc.world[h] = tb.hands[s]
        elif tb.info[I_CHIEN_SHOWN] == 1:
            sc.world[h] = tb.ecart & sc.unseen
        else:
            sc.world[h] = tb.chien & sc.unseen
    if swap >= 0:
        if n < 2 or sc.holder_seat[0] < 0 or sc.holder_seat[1] < 0:
            return 1.0
        word_a = 0 if sc.world[0, 0] else 1
        word_b = 0 if sc.world[1, 0] else 1
        low_a = np.uint64(int(sc.world[0, word_a]) & -int(sc.world[0, word_a]))
        low_b = np.uint64(int(sc.world[1, word_b]) & -int(sc.world[1, word_b]))
        sc.world[0, word_a] ^= low_a
        sc.world[1, word_a] |= low_a
        sc.world[1, word_b] ^= low_b
        sc.world[0, word_b] |= low_b
    world_hands(v, sc.world, sc.holder_seat, n, sc.hands, sc.attack)
    return world_log_likelihood(v, cfg, sc.world, sc.holder_seat, n, sc.hands, sc.attack, epsilon, sc.infer)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_heuristics_own_play_fits_the_model_exactly(players: int) -> None:
    """In deals of heuristic play, the true deal as a world makes every bid, poignée and card
    of the other seats the model's own choice: with a model that almost never strays its
    log-likelihood is about 0. This checks that each past decision is replayed with the view
    its seat had."""
    cfg = strategy_cfg(HEURISTIC, players)
    for game, seat, _ in card_positions(players, 25, seed=players, strategy=HEURISTIC):
        fit = true_world_log_likelihood(game._tb, seat, cfg, SEARCH.play, 1e-12, -1)
        assert fit > -1e-6, (game.deal, seat)


def test_a_deal_the_play_contradicts_weighs_less() -> None:
    """Trading two unseen cards between two hands of the true deal, late in the play, makes
    the world less likely by a factor epsilon or more at least most of the time."""
    lower = tried = 0
    cfg = strategy_cfg(HEURISTIC, 4)
    for game, seat, _ in card_positions(4, 30, seed=41, strategy=HEURISTIC):
        if game._tb.info[I_TRICK] < 6:  # the later tricks say more
            continue
        true = true_world_log_likelihood(game._tb, seat, cfg, SEARCH.play, 0.1, -1)
        traded = true_world_log_likelihood(game._tb, seat, cfg, SEARCH.play, 0.1, 0)
        if traded == 1.0:
            continue
        tried += 1
        lower += traded < true + np.log(0.1)
    assert tried >= 10
    assert lower >= 0.7 * tried


def _decide_with(cfg: np.ndarray):
    def decide(seat: int, legal0: np.uint64, legal1: np.uint64, tb: DealState) -> int:
        return int(pimc_of(tb, seat, legal0, legal1, cfg, SEARCH.play))

    return decide


@pytest.mark.parametrize("players", [4, 5])
def test_pimc_with_inference_does_not_peek(players: int) -> None:
    """Re-dealing the cards the seat cannot see, keeping what it knows, leaves the decision:
    the model reads the worlds, never the deal."""
    cfg = RunConfig(players=players, strategies=[FAST_INFER] * players).to_array()
    changed, tried = count_changed(_decide_with(cfg), 25, seed=29, redeals=2, players=players)
    assert tried == 25
    assert changed == 0
