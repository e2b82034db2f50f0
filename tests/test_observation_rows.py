"""The observation rows (``interfaces.kernels.vector``) never show a seat what it cannot know.

A row serializes the seat's ``SeatView`` (``engine.kernels.view.seat_view``, where every fact of
what a seat knows is decided) and the decision's position. At every decision of deals
played at random, at every phase, the cards the seat to act cannot see are dealt again
(``tarotsim.interfaces.testing.redistribute``: the other hands, the unseen chien, the écart but its
shown trumps, keeping what the seat knows) and, at five players, the called card is moved
to another seat that may hold it (``tarotsim.interfaces.testing.move_called_card``: another secret
partner); the seat's whole row (``N_ROW``: what ``Observation`` shows and the view it
rebuilds for a built-in policy) must not change, as ``Game.observation`` writes it and as
``VecEnv``'s kernel writes it. The same new deal seen by a seat that holds moved cards
changes that seat's row, so the comparison can fail.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from tarotsim import VecEnv
from tarotsim.engine.kernels import state as S
from tarotsim.engine.kernels.state import DealState
from tarotsim.interfaces.game import PHASES, Game
from tarotsim.interfaces.kernels import vector as V
from tarotsim.interfaces.testing import move_called_card, redistribute


def _new_deals(tb: DealState, seat: int, rng: random.Random) -> list[tuple[DealState, int]]:
    """Tables where what ``seat`` cannot see is dealt again, with how many cards could move.

    Once the écart is laid, the machine's cards laid (``DealState.laid``) are the écart: they
    follow it into the new deal, so that a row showing them to another seat than the taker
    would change."""
    tables = [redistribute(tb, seat, rng)]
    if int(tb.info[S.I_PLAYERS]) == 5:
        moved = move_called_card(tb, seat, rng)
        if moved is not None:
            tables.append((moved, 1))
    if np.array_equal(tb.laid, tb.ecart):
        for new, _ in tables:
            new.laid[:] = new.ecart
    return tables


def _with_table(game: Game, tb: DealState) -> Game:
    """A copy of ``game`` on the table ``tb``, with the same random stream."""
    other = game.clone()
    for mine, theirs in zip(other._tb, tb, strict=True):
        mine[...] = theirs
    other._tb.rng[...] = game._tb.rng
    return other


def _row(game: Game, seat: int) -> np.ndarray:
    return game.observation(seat)._row


@pytest.mark.parametrize("players", [4, 5])
def test_the_row_of_the_seat_to_act_does_not_show_unseen_cards_at_any_phase(players: int) -> None:
    rng = random.Random(players)
    checked = dict.fromkeys(PHASES, 0)
    moved_total = changed_for_others = 0
    for deal in range(16):
        game = Game(players, seed=11, deal=deal)
        while True:
            seats = range(players) if game.over else [int(game.to_act)]  # type: ignore[arg-type]
            for seat in seats:
                mine = _row(game, seat)
                for tb, moved in _new_deals(game._tb, seat, rng):
                    other = _with_table(game, tb)
                    np.testing.assert_array_equal(
                        _row(other, seat), mine, err_msg=f"{game.phase}, seat {seat}"
                    )
                    moved_total += moved
                    changed_for_others += any(
                        not np.array_equal(_row(other, who), _row(game, who))
                        for who in range(players)
                        if who != seat
                    )
                checked[game.phase] += 1
            if game.over:
                break
            game.apply(rng.choice(game.legal_actions()))
    assert all(checked[phase] > 0 for phase in PHASES if phase != "call" or players == 5), checked
    assert moved_total > 1000
    assert changed_for_others > 100  # the moved cards show in the rows of the hands that now hold them


@pytest.mark.parametrize("players", [4, 5])
def test_vecenv_kernel_rows_do_not_show_unseen_cards(players: int) -> None:
    """The same check on the rows ``interfaces.kernels.vector.step`` writes (the cards played folded
    step by step): the unseen cards of every game are dealt again in the batch's arrays, and
    the rows written again (code -1)."""
    rng = random.Random(players)
    env = VecEnv(16, players, agent_seats=range(players), seed=3, threads=1)
    obs, mask = env.reset()
    pick = np.random.default_rng(players)
    moved_total = 0
    phases = set()
    for moves in range(10):
        for _ in range(pick.integers(1, 8) if moves else 0):  # first the rows of the auction's first words
            counts = mask.sum(axis=1)
            chosen = np.argmax(
                mask.cumsum(axis=1) > (pick.random(len(mask)) * counts).astype(int)[:, None], axis=1
            )
            obs, mask, _, _ = env.step(chosen)
        games = env._games
        for g in range(env.n_games):
            tb = S.DealState(*(getattr(games, name)[g] for name in S.DealState._fields))
            new, moved = _new_deals(tb, int(games.pos[g, S.Q_SEAT]), rng)[-1]
            new.rng[:] = tb.rng
            for name in S.DealState._fields:
                getattr(games, name)[g] = getattr(new, name)
            moved_total += moved
            phases.add(int(games.pos[g, S.Q_PHASE]))
        again, mask_again = env._run(np.full(env.n_games, -1, dtype=np.int64))
        np.testing.assert_array_equal(again, obs)
        np.testing.assert_array_equal(mask_again, mask)
        assert again.shape == (16, V.N_OBS)
    assert moved_total > 100
    assert {S.PH_BID, S.PH_PLAY} <= phases
