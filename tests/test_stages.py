"""The benchmark's stage kernels (``bench.stages``) play the game's deal on the deal machine:
run to the end they give the records, log and table of ``players.kernels.seats.play_deal``; stopped earlier,
they leave the table where the deal stands at that stage. No timing is asserted."""

import numpy as np
import pytest

from tarotsim.base.seeding import run_key
from tarotsim.bench.stages import (
    N_STAGES,
    STAGE_BID,
    STAGE_DEAL,
    STAGE_ECART,
    STAGE_PLAY,
    STAGE_RECORDS,
    STAGE_SCORE,
    play_until,
    run_stage,
)
from tarotsim.engine.kernels.state import C_HAND, I_TAKER, I_TRICK, N_LOG, N_REC, new_state
from tarotsim.players.config import RunConfig
from tarotsim.players.kernels.seats import play_deal
from tarotsim.runs.runner import play_deals

# One worker runs this module (the Makefile's --dist loadgroup): the parallel stage kernel is a
# whole compile of the game of its own, which two workers would otherwise make side by side.
pytestmark = pytest.mark.xdist_group("stages")

DEALS = 300
CONFIGS = [
    pytest.param(players, policy, ecart, id=f"{players}p-{policy}")
    for players in (3, 4, 5)
    for policy, ecart in (("random", "simple"), ("heuristic", "expert"))
]


def _cfg(players: int, policy: str, ecart: str) -> np.ndarray:
    return RunConfig(players=players, policy=policy, ecart_policy=ecart).to_array()


def _tables(tb) -> dict[str, np.ndarray]:
    return {name: np.array(getattr(tb, name)) for name in tb._fields if name != "search"}


@pytest.mark.parametrize(("players", "policy", "ecart"), CONFIGS)
def test_run_to_the_end_a_stage_kernel_gives_the_engines_records(players, policy, ecart):
    cfg = _cfg(players, policy, ecart)
    key = run_key(7)
    out = np.zeros((DEALS, N_REC), dtype=np.int32)
    run_stage(STAGE_RECORDS, key, cfg, out)
    np.testing.assert_array_equal(out, play_deals(0, DEALS, key, cfg))


@pytest.mark.parametrize(("players", "policy", "ecart"), CONFIGS)
def test_a_deal_played_to_the_score_or_the_records_leaves_the_table_of_play_deal(players, policy, ecart):
    cfg = _cfg(players, policy, ecart)
    key = run_key(11)
    engine, stage = new_state(), new_state()
    rec, log = np.zeros(N_REC, dtype=np.int64), np.zeros(N_LOG, dtype=np.int64)
    stage_rec, stage_log = np.zeros(N_REC, dtype=np.int64), np.zeros(N_LOG, dtype=np.int64)
    for deal in range(60):
        # every argument as batch.play_block passes it (users None, not left out): its compiled
        # variant, where an omitted argument would compile the whole game again
        play_deal(deal, key, cfg, engine, rec, log, None, None)
        for last in (STAGE_PLAY, STAGE_SCORE, STAGE_RECORDS):
            play_until(last, deal, key, cfg, stage, stage_rec, stage_log)
            expected, got = _tables(engine), _tables(stage)
            if last == STAGE_PLAY:  # the scores are not settled yet, the deal not over
                for name in ("scores", "pos", "legal"):
                    expected.pop(name), got.pop(name)
            for name in expected:
                np.testing.assert_array_equal(got[name], expected[name], err_msg=f"{name} at stage {last}")
        np.testing.assert_array_equal(stage_rec, rec)
        np.testing.assert_array_equal(stage_log, log)


@pytest.mark.parametrize(("players", "policy", "ecart"), CONFIGS)
def test_earlier_stages_stop_where_the_deal_stands(players, policy, ecart):
    cfg = _cfg(players, policy, ecart)
    key = run_key(3)
    engine, stage = new_state(), new_state()
    rec, log = np.zeros(N_REC, dtype=np.int64), np.zeros(N_LOG, dtype=np.int64)
    hand_size = cfg[C_HAND]
    for deal in range(60):
        play_deal(deal, key, cfg, engine, rec, log, None, None)
        played = engine.info[I_TAKER] >= 0 and engine.info[I_TRICK] == hand_size
        for last in (STAGE_DEAL, STAGE_BID, STAGE_ECART):
            play_until(last, deal, key, cfg, stage, rec, log)
            np.testing.assert_array_equal(stage.dealt, engine.dealt)
            assert stage.info[I_TRICK] == 0
            if last == STAGE_DEAL:
                assert stage.info[I_TAKER] == -1  # nobody has spoken yet
            elif last == STAGE_BID:  # the auction named the taker, whose écart is not laid yet
                if played:
                    assert stage.info[I_TAKER] == engine.info[I_TAKER]
                assert not stage.ecart.any()
            elif played:
                np.testing.assert_array_equal(stage.ecart, engine.ecart)


def test_the_stages_are_numbered_in_play_order():
    order = [STAGE_DEAL, STAGE_BID, STAGE_ECART, STAGE_PLAY, STAGE_SCORE, STAGE_RECORDS]
    assert order == list(range(N_STAGES))
