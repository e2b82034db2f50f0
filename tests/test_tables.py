"""Three and five players: whole deals against the reference, settlement, the king call."""

import numpy as np
import pytest

import tarotsim
from tarotsim.engine.cards import format_card, parse_cards, to_mask
from tarotsim.players.config import RunConfig
from tarotsim.players.kernels.policies.call import called_card
from tarotsim.runs.trace import trace_records
from tests import reference as ref


@pytest.mark.parametrize("players", [3, 5])
def test_traced_deals_pass_the_reference(players):
    traces = trace_records(2500, 41, RunConfig(players=players))
    for trace in traces:
        ref.check_trace(trace)
    played = [t for t in traces if t["thrown_in"] is None]
    assert len(played) > 300
    hand = {3: 24, 5: 15}[players]
    assert all(len(t["tricks"]) == hand and len(t["chien"]) == {3: 6, 5: 3}[players] for t in played)
    if players == 5:
        assert all(t["called_card"] for t in played)
        assert any(t["partner"] is None for t in played) and any(t["partner"] is not None for t in played)


@pytest.mark.parametrize("players", [3, 5])
def test_records_are_zero_sum_and_settle_by_table_size(players):
    df = tarotsim.simulate(4000, seed=8, players=players)
    scores = df[[f"score_{s}" for s in range(players)]].to_numpy()
    assert (scores.sum(axis=1) == 0).all()
    played = df[df.thrown_in == "none"]
    if players == 3:
        assert (played.taker_score == 2 * played.per_defender).all()
    else:
        alone = played.partner < 0
        assert (played.taker_score[alone] == 4 * played.per_defender[alone]).all()
        assert (played.taker_score[~alone] == 2 * played.per_defender[~alone]).all()
        rows = played[~alone]
        partner_scores = rows[[f"score_{s}" for s in range(players)]].to_numpy()
        got = partner_scores[np.arange(len(rows)), rows.partner.to_numpy()]
        assert (got == rows.per_defender.to_numpy()).all()


@pytest.mark.parametrize(
    ("hand", "called"),
    [
        ("KS 2H 3H 4H 5H 1D 2D 3D 1C T1 T2 T3 T4 T5 T6", "KH"),  # longest suit without its King
        ("KS KH KD KC 2H 3H 4H 5H 1D T1 T2 T3 T4 T5 T6", "QH"),  # all four Kings: a Queen
        ("KS KH KD KC QS QH QD QC 2D T1 T2 T3 T4 T5 T6", "CD"),  # all Kings and Queens: a Knight
        ("1S 2S 1H 2H 1D 2D 1C 2C T1 T2 T3 T4 T5 T6 T7", "KS"),  # equal lengths: the lower suit
    ],
)
def test_king_call(hand, called):
    word0, _ = to_mask(parse_cards(hand))
    assert format_card(called_card(word0)) == called


def test_five_player_first_lead_never_in_the_called_suit():
    for trace in trace_records(1500, 17, RunConfig(players=5)):
        if trace["thrown_in"] is None:
            first = trace["tricks"][0]["cards"][0]
            called = trace["called_card"]
            assert first == called or ref.suit_of(first) != ref.suit_of(called)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_unshuffled_dealing_passes_the_reference_and_is_deterministic(players):
    config = RunConfig(players=players, dealing="unshuffled")
    for trace in trace_records(1200, 3, config):
        ref.check_trace(trace)
    one = tarotsim.simulate(2500, seed=3, players=players, dealing="unshuffled", threads=1)
    two = tarotsim.simulate(2500, seed=3, players=players, dealing="unshuffled", threads=2)
    assert one.equals(two)
    assert not one.equals(tarotsim.simulate(2500, seed=3, players=players))


def test_unshuffled_runs_resume_mid_sequence(tmp_path):
    from tarotsim.analysis import load_records
    from tarotsim.runs.spec import RunSpec
    from tarotsim.runs.store import execute

    config = RunConfig(dealing="unshuffled")
    execute(tmp_path / "a", RunSpec(kind="simulate", seed=4, deals=3000, config=config, chunk_deals=700))
    whole = tarotsim.simulate(3000, seed=4, dealing="unshuffled")
    assert load_records(tmp_path / "a").equals(whole)


@pytest.mark.parametrize(("players", "hand", "chien"), [(3, 24, 6), (4, 18, 6), (5, 15, 3)])
def test_packet_deal_never_puts_the_first_or_last_card_in_the_chien(players, hand, chien):
    from tarotsim.engine.kernels.deal import deal_packets
    from tarotsim.engine.kernels.rng import seed_stream

    state = np.zeros(4, dtype=np.uint64)
    hands = np.zeros((5, 2), dtype=np.uint64)
    chien_set = np.zeros(2, dtype=np.uint64)
    pack = np.arange(78, dtype=np.int64)
    seen = set()
    for deal in range(300):
        seed_stream(state, np.arange(4, dtype=np.uint64), deal)
        deal_packets(state, pack, hands, chien_set, players, hand, chien, 1)
        cards = ref_cards(chien_set)
        assert len(cards) == chien and 0 not in cards and 77 not in cards
        for seat in range(players):
            assert len(ref_cards(hands[seat])) == hand
        assert 0 in ref_cards(hands[1])  # the first packet goes to the first seat
        seen.update(cards)
    assert len(seen) > 30


def ref_cards(words):
    from tarotsim.engine.cards import from_mask

    return from_mask(words[0], words[1])


def test_matches_accumulate_scores():
    df = tarotsim.simulate(40, seed=6, match_deals=8)
    assert list(df.match.unique()) == [0, 1, 2, 3, 4]
    for _, match in df.groupby("match"):
        for seat in range(4):
            assert (match[f"total_{seat}"] == match[f"score_{seat}"].cumsum()).all()
        assert (match[[f"total_{s}" for s in range(4)]].sum(axis=1) == 0).all()


def test_match_command(capsys):
    from tarotsim.cli import main

    assert main(["match", "--deals", "4", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "final scores" in out and out.count("\n") > 6
