"""Strategies: specs that parse back, clear errors, one block of cfg per seat, and seats that really differ."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import tarotsim
from tarotsim.engine.kernels import state as S
from tarotsim.players.config import RunConfig
from tarotsim.players.kernels.policies import heuristic as H
from tarotsim.players.strategy import TUNABLES, Strategy
from tarotsim.runs.trace import trace_records


def seat_block(cfg: np.ndarray, seat: int) -> np.ndarray:
    start = S.seat_slot(seat, 0)
    return cfg[start : start + S.N_SEAT_CFG]


@pytest.mark.parametrize(
    "spec",
    [
        "play=random",
        "play=heuristic",
        "play=greedy,ecart=simple,poignee=smart,chelem=overwhelming,chelem_threshold=90",
        "play=heuristic,defence_play=random,bid_thresholds=30/45/60/70",
        "play=random,attack_play=heuristic,follow_min_attack=6,worth_trump_attack=0,draw_trumps_min=8",
        "play=heuristic,name=bold,follow_min_defence=0,worth_trump_defence=46,hunt_petit_min=15",
    ],
)
def test_a_spec_parses_back_from_its_string(spec: str) -> None:
    strategy = Strategy.parse(spec)
    assert str(strategy) == spec
    assert Strategy.parse(str(strategy)) == strategy
    assert hash(Strategy.parse(spec)) == hash(strategy)


def test_defaults_spaces_and_order_do_not_matter() -> None:
    assert str(Strategy()) == "play=heuristic"
    assert Strategy.parse("") == Strategy() == Strategy.parse("play=heuristic, bid=chavey, ecart=expert")
    assert Strategy() == Strategy(play="heuristic", bid="chavey", ecart="expert", poignee="always")
    spaced = Strategy.parse(" ecart = simple , play = random ")
    assert spaced == Strategy(play="random", ecart="simple")
    assert str(spaced) == "play=random,ecart=simple"
    assert Strategy(play="heuristic", attack_play="heuristic") == Strategy(play="heuristic")
    assert Strategy(play="heuristic", follow_min_defence=H.FOLLOW_MIN_DEFENCE) == Strategy(play="heuristic")


def test_label_is_the_name_or_the_spec() -> None:
    assert Strategy(play="heuristic").label == "play=heuristic"
    named = Strategy.parse("play=heuristic,name=Trusting defence,follow_min_defence=0")
    assert named.label == "Trusting defence"
    assert str(named) == "play=heuristic,name=Trusting defence,follow_min_defence=0"


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (
            lambda: Strategy.parse("play=heuristic,speed=fast"),
            ValueError,
            "unknown strategy option 'speed'; valid keys: play, bid",
        ),
        (lambda: Strategy(play="heuristic", speed=3), ValueError, "valid keys: play, bid, call, ecart"),
        (
            lambda: Strategy.parse("play=clever"),
            ValueError,
            "unknown play policy 'clever'; valid names: basic, greedy, heuristic, net, pimc, random",
        ),
        (lambda: Strategy.parse("ecart=lazy"), ValueError, "valid names: expert, search, simple"),
        (
            lambda: Strategy.parse("play=random,defence_play=smart"),
            ValueError,
            "unknown defence_play policy 'smart'",
        ),
        (lambda: Strategy.parse("play=heuristic,play=random"), ValueError, "play is given twice"),
        (lambda: Strategy.parse("heuristic"), ValueError, "key=value pairs"),
        (lambda: Strategy.parse("play="), ValueError, "key=value pairs"),
        (lambda: Strategy.parse("bid_thresholds=40/56/71"), ValueError, "four increasing Chavey counts"),
        (lambda: Strategy.parse("bid_thresholds=56/40/71/81"), ValueError, "four increasing Chavey counts"),
        (lambda: Strategy.parse("bid_thresholds=a/b/c/d"), ValueError, "four increasing Chavey counts"),
        (
            lambda: Strategy.parse("chelem_threshold=lots"),
            ValueError,
            "chelem_threshold must be a whole number",
        ),
        (
            lambda: Strategy.parse("play=heuristic,follow_min_defence=16"),
            ValueError,
            "follow_min_defence must be 0 to 15, got 16",
        ),
        (lambda: Strategy.parse("play=heuristic,worth_trump_attack=-1"), ValueError, "must be 0 to 46"),
        (
            lambda: Strategy.parse("play=random,follow_min_defence=3"),
            ValueError,
            "follow_min_defence tunes heuristic or basic card play, but this strategy plays random on the defence",
        ),
        (
            lambda: Strategy.parse("play=heuristic,defence_play=random,hunt_petit_min=4"),
            ValueError,
            "plays random on the defence",
        ),
        (lambda: Strategy.parse("name=a,b"), ValueError, "key=value pairs"),
        (lambda: Strategy(name=" "), ValueError, "non-empty text"),
        (lambda: Strategy(play=1), TypeError, "must be a name"),
        (lambda: Strategy(chelem_threshold=True), TypeError, "whole number"),
        (lambda: Strategy.parse(3), TypeError, "spec must be text"),
    ],
)
def test_bad_strategies_are_explained(make, error, message) -> None:
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        make()


def test_tunables_have_todays_constants_as_defaults_and_reach_the_seat_block() -> None:
    defaults = {
        "follow_min_attack": H.FOLLOW_MIN_ATTACK,
        "follow_min_defence": H.FOLLOW_MIN_DEFENCE,
        "worth_trump_attack": H.WORTH_TRUMP_HALF_ATTACK,
        "worth_trump_defence": H.WORTH_TRUMP_HALF_DEFENCE,
        "draw_trumps_min": H.DRAW_TRUMPS_MIN,
        "hunt_petit_min": H.HUNT_PETIT_MIN,
        "king_lead_min": H.KING_LEAD_MIN,
        "king_lead_min_blind": H.KING_LEAD_MIN_BLIND,
    }
    assert {key: t.default for key, t in TUNABLES.items()} == defaults
    assert (
        H.FOLLOW_MIN_ATTACK,
        H.FOLLOW_MIN_DEFENCE,
        H.WORTH_TRUMP_HALF_ATTACK,
        H.WORTH_TRUMP_HALF_DEFENCE,
    ) == (0, 15, 12, 4)
    tuned = Strategy(
        play="heuristic",
        follow_min_attack=3,
        follow_min_defence=4,
        worth_trump_attack=5,
        worth_trump_defence=6,
        draw_trumps_min=7,
        hunt_petit_min=8,
        king_lead_min=9,
        king_lead_min_blind=10,
    )
    block = tuned.block(4)
    assert [block[t.index] for t in TUNABLES.values()] == [3, 4, 5, 6, 7, 8, 9, 10]


def test_basic_keeps_the_old_heuristic_defaults_and_refuses_the_new_options() -> None:
    basic = Strategy(play="basic")
    assert str(basic) == "play=basic"
    assert Strategy.parse(str(basic)) == basic
    assert basic.draw_trumps_min == H.BASIC_DRAW_TRUMPS_MIN
    assert Strategy(play="heuristic").draw_trumps_min == H.DRAW_TRUMPS_MIN
    assert str(Strategy(play="basic", draw_trumps_min=H.DRAW_TRUMPS_MIN + 1)) == (
        f"play=basic,draw_trumps_min={H.DRAW_TRUMPS_MIN + 1}"
    )
    mixed = Strategy(play="heuristic", attack_play="basic")  # the attack's options take basic's defaults
    assert mixed.draw_trumps_min == H.BASIC_DRAW_TRUMPS_MIN
    assert Strategy.parse(str(mixed)) == mixed
    with pytest.raises(
        ValueError, match="king_lead_min tunes heuristic card play, but this strategy plays basic"
    ):
        Strategy(play="basic", king_lead_min=8)
    Strategy(play="basic", follow_min_defence=8)  # an option basic reads


def test_a_strategy_can_be_invalid_at_one_table_size_only() -> None:
    long_hand = Strategy(play="heuristic", draw_trumps_min=16)
    long_hand.check(3)
    long_hand.check(4)
    with pytest.raises(
        ValueError, match=r"draw_trumps_min=16 cannot be met at 5 players \(15 cards in a hand\)"
    ):
        long_hand.check(5)
    with pytest.raises(ValueError, match="cannot be met at 5 players"):
        RunConfig(players=5, strategies=[long_hand] * 5)


def test_the_per_side_options_fill_every_seat_block_as_their_strategy_does() -> None:
    config = RunConfig(
        players=5,
        policy="heuristic",
        defence_policy="random",
        ecart_policy="expert",
        poignee_policy="smart",
        chelem_policy="overwhelming",
        chelem_threshold=95,
        bid_thresholds=(30, 40, 50, 60),
    )
    same = Strategy(
        play="heuristic",
        defence_play="random",
        ecart="expert",
        poignee="smart",
        chelem="overwhelming",
        chelem_threshold=95,
        bid_thresholds=(30, 40, 50, 60),
    )
    assert config.seat_strategies() == (same,) * 5
    cfg = config.to_array()
    assert cfg.shape == (S.N_CFG,)
    for seat in range(5):
        np.testing.assert_array_equal(seat_block(cfg, seat), same.block(5))
    assert seat_block(cfg, 0)[S.P_BID_PRISE] == 30 and seat_block(cfg, 3)[S.P_CHELEM_THRESHOLD] == 95
    assert RunConfig().seat_strategies()[0] == Strategy()
    np.testing.assert_array_equal(seat_block(RunConfig().to_array(), 2), Strategy().block(4))


def test_strategies_in_a_configuration() -> None:
    config = RunConfig(
        players=3, strategies=["play=heuristic", Strategy(play="greedy"), "play=random,ecart=simple"]
    )
    assert config.strategies == (
        Strategy(play="heuristic"),
        Strategy(play="greedy"),
        Strategy(play="random", ecart="simple"),
    )
    assert config.as_dict()["strategies"] == ["play=heuristic", "play=greedy", "play=random,ecart=simple"]
    assert RunConfig(**config.as_dict()) == config
    assert "strategies" not in RunConfig().as_dict()
    cfg = config.to_array()
    assert [seat_block(cfg, s)[S.P_PLAY_ATTACK] for s in range(3)] == [1, 2, 0]
    with pytest.raises(ValueError, match=r"one strategy per seat \(3 at 3 players\), got 2"):
        RunConfig(players=3, strategies=["play=heuristic"] * 2)
    with pytest.raises(ValueError, match="leave policy, ecart_policy unset"):
        RunConfig(policy="random", ecart_policy="simple", strategies=["play=random"] * 4)
    with pytest.raises(ValueError, match="leave bid_thresholds, chelem_threshold unset"):
        RunConfig(bid_thresholds=(1, 2, 3, 4), chelem_threshold=3, strategies=["play=random"] * 4)
    with pytest.raises(TypeError, match="one strategy per seat"):
        RunConfig(strategies="play=heuristic")


def test_one_strategy_per_seat_equal_to_the_options_gives_the_same_records() -> None:
    options = {"policy": "heuristic", "ecart_policy": "expert", "poignee_policy": "smart"}
    plain = tarotsim.simulate(1500, seed=8, **options)
    strategy = Strategy(play="heuristic", ecart="expert", poignee="smart")
    seated = tarotsim.simulate(1500, seed=8, strategies=[strategy] * 4)
    pd.testing.assert_frame_equal(seated[plain.columns], plain)
    assert [str(seated[f"strategy_{s}"].iloc[0]) for s in range(4)] == [strategy.label] * 4
    assert seated.attrs["config"]["strategies"] == [str(strategy)] * 4


def test_each_seat_plays_its_own_strategy() -> None:
    never = Strategy(bid_thresholds=(997, 998, 999, 1000), name="never bids")
    frame = tarotsim.simulate(3000, seed=5, strategies=[Strategy(), Strategy(), never, Strategy()])
    played = frame[frame.thrown_in == "none"]
    assert len(played) > 1500 and (played.taker != 2).all()
    assert set(frame.strategy_2.cat.categories) == {"play=heuristic", "never bids"}
    assert (frame.strategy_2 == "never bids").all() and (frame.strategy_0 == "play=heuristic").all()
    strong = tarotsim.simulate(4000, seed=6, strategies=["play=heuristic,ecart=expert"] + ["play=random"] * 3)
    assert strong.score_0.mean() > 8 > 0 > strong[["score_1", "score_2", "score_3"]].to_numpy().mean()


def test_a_heuristic_option_changes_play_only_when_it_departs_from_its_default() -> None:
    base = tarotsim.simulate(2000, seed=9, strategies=["play=heuristic,ecart=simple"] * 4)
    spelt = (
        f"play=heuristic,ecart=simple,follow_min_defence={H.FOLLOW_MIN_DEFENCE},"
        f"draw_trumps_min={H.DRAW_TRUMPS_MIN}"
    )
    explicit = tarotsim.simulate(2000, seed=9, strategies=[spelt] * 4)
    pd.testing.assert_frame_equal(base, explicit)
    options = (
        "follow_min_defence=0",
        "worth_trump_attack=0",
        "draw_trumps_min=6",
        "hunt_petit_min=0",
        "king_lead_min=15",
    )
    for option in options:
        tuned = tarotsim.simulate(2000, seed=9, strategies=[f"play=heuristic,ecart=simple,{option}"] * 4)
        played = (base.thrown_in == "none").to_numpy()
        changed = (tuned.attack_points[played] != base.attack_points[played]).mean()
        assert 0.005 < changed < 0.99, option


def test_a_sweep_takes_strategies_in_place_of_its_default_policies() -> None:
    swept = tarotsim.sweep(
        300, seed=4, contracts="garde", strategies=["play=heuristic,ecart=expert", *["play=random"] * 3]
    )
    assert set(swept.strategy_0) == {"play=heuristic"} and set(swept.strategy_3) == {"play=random"}
    assert swept.attrs["config"]["policy"] == "heuristic"  # the one default, given way to the strategies
    heuristic_taker = tarotsim.sweep(
        300, seed=4, contracts="garde", policy="heuristic", ecart_policy="expert", defence_policy="random"
    )
    pd.testing.assert_frame_equal(swept[heuristic_taker.columns], heuristic_taker)


def test_traces_name_the_strategies_only_when_the_run_has_them() -> None:
    config = RunConfig(strategies=["play=heuristic", "play=random", "play=greedy", "play=random,name=R"])
    traces = trace_records(3, seed=2, config=config)
    assert all(t["strategies"] == ["play=heuristic", "play=random", "play=greedy", "R"] for t in traces)
    assert "strategies" not in trace_records(1, seed=2)[0]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("play=heuristic,chelem_threshold=100000000000000000000", "chelem_threshold must be 0 to 1000, got"),
        ("bid_thresholds=40/56/71/100000000000000000000", "a bid threshold must be 0 to 1000, got"),
        ("play=pimc,worlds=99999999999999999999999", "worlds must be 1 to 4096, got"),
        ("play=heuristic,draw_trumps_min=30", "draw_trumps_min must be 0 to 24, got 30"),
        ("play=heuristic,,", "empty item"),
        (",play=heuristic", "empty item"),
        ("play=pimc,worlds=0", "worlds must be 1 to 4096, got 0"),
        ("bid=montecarlo,bid_worlds=0", "bid_worlds must be 1 to 4096, got 0"),
        ("bid_worlds=8", "bid_worlds tunes montecarlo bidding, but this strategy has bid=chavey"),
        ("worlds=8", "worlds tunes pimc card play, but this strategy plays heuristic"),
        ("chelem_threshold=90", "chelem_threshold tunes overwhelming chelem announcement"),
        (
            "play=pimc,rollout=pimc",
            "unknown rollout policy 'pimc'; valid names: basic, greedy, heuristic, net, random",
        ),
        ("bid=montecarlo,bid_rollout=smart", "unknown bid_rollout policy 'smart'"),
        ("bid=montecarlo,bid_rollout_worlds=3", "bid_rollout_worlds sets the worlds of the bidder's pimc"),
        (
            "bid=montecarlo,bid_rollout=pimc,bid_rollout_worlds=0",
            "bid_rollout_worlds must be 1 to 4096, got 0",
        ),
        (
            "play=pimc,infer=heuristic,bid=montecarlo,bid_rollout=pimc",
            "bid_rollout=pimc cannot be combined with infer=heuristic",
        ),
        ("call=queen", "unknown call policy 'queen'; valid names: longest"),
    ],
)
def test_every_number_of_a_spec_is_bounded_and_every_item_named(spec: str, message: str) -> None:
    """One-line ``ValueError``s, the same range message for the same bound, never an overflow."""
    with pytest.raises(ValueError, match=message) as caught:
        Strategy.parse(spec)
    assert "\n" not in str(caught.value)


def test_one_syntax_for_thresholds_the_old_one_accepted() -> None:
    from tarotsim.players.policies import OPTIONS

    assert OPTIONS["bid_thresholds"].parse("40/56/71/81") == OPTIONS["bid_thresholds"].parse("40,56,71,81")
    assert Strategy(bid_thresholds=[40, 56, 71, 81]) == Strategy.parse("bid_thresholds=40/56/71/81")


def test_the_flat_options_are_a_shorthand_for_one_strategy() -> None:
    assert RunConfig().seat_strategies() == (Strategy(),) * 4
    config = RunConfig(players=3, policy="random", ecart_policy="simple", bid_thresholds=(30, 40, 50, 60))
    assert config.shorthand_strategy() == Strategy.parse(
        "play=random,ecart=simple,bid_thresholds=30/40/50/60"
    )
    assert RunConfig(players=3).shorthand_strategy().bid_thresholds is None  # the table's own bands
    assert not RunConfig().searches
    assert RunConfig(bid_policy="montecarlo").searches and RunConfig(defence_policy="pimc").searches
