"""The benchmark's method and output: interleaved rounds, spreads, pair ratios, the JSON
object of ``tarotsim bench --json`` and its argument errors. No timing is asserted."""

import json

import numpy as np
import pytest

from tarotsim.bench.headline import HEADLINE_FIGURES
from tarotsim.bench.timing import Rounds, Spread, Work, interleave
from tarotsim.cli import main

SPREAD_KEYS = {"median", "min", "max", "repeats"}


def test_spread_is_the_median_and_range_of_its_values():
    assert Spread.of([5.0, 1.0, 2.0, 9.0]) == Spread(median=3.5, min=1.0, max=9.0, repeats=4)
    with pytest.raises(ValueError, match="at least one"):
        Spread.of([])


def test_the_interval_of_a_median_is_two_order_statistics_and_needs_six_values():
    # nine values: the 2nd and 8th smallest cover the median with probability 1 - 2 * P(Binomial(9, 1/2) <= 1)
    spread = Spread.of([9.0, 1.0, 8.0, 2.0, 7.0, 3.0, 6.0, 4.0, 5.0])
    assert (spread.low, spread.high) == (2.0, 8.0)
    assert spread.low <= spread.median <= spread.high
    assert Spread.of([1.0, 2.0, 3.0, 4.0, 5.0]).low is None  # too few for 95%
    assert set(spread.as_dict()) == SPREAD_KEYS  # the JSON keeps its four keys


def test_rounds_alternate_their_order_after_one_warm_up_of_each_work():
    calls: list[str] = []
    works = {name: Work(lambda name=name: calls.append(name), deals=10) for name in "abc"}
    rounds = interleave(works, repeats=3)
    assert "".join(calls) == "abc" + "abc" + "cba" + "abc"
    assert set(rounds.rates) == {"a", "b", "c"}
    assert all(rates.shape == (3,) and np.all(rates > 0) for rates in rounds.rates.values())


def test_interleave_refuses_zero_rounds_and_nothing_to_time():
    with pytest.raises(ValueError, match="repeats must be at least 1"):
        interleave({"a": Work(lambda: None, 1)}, repeats=0)
    with pytest.raises(ValueError, match="nothing to time"):
        interleave({}, repeats=1)


def test_ratios_and_costs_come_from_the_pairs_of_each_round():
    # a is exactly twice as fast as b in every round, while both drift 4x across rounds:
    # the pair ratio has no spread, a ratio of independent medians or extremes would
    rounds = Rounds({"a": np.array([200.0, 800.0, 400.0]), "b": np.array([100.0, 400.0, 200.0])})
    assert rounds.ratio("a", "b") == Spread(2.0, 2.0, 2.0, 3)
    assert rounds.spread("b") == Spread(200.0, 100.0, 400.0, 3)
    cost = rounds.cost_ns("b", less="a")
    assert cost.repeats == 3
    assert cost.min == pytest.approx(1e9 / 800) and cost.max == pytest.approx(1e9 / 200)


def test_a_stage_share_is_its_cost_over_the_whole_round_by_round():
    # whole deal 1000 ns, the stage before 400 ns, the stage 600 ns: it adds 200 ns, a fifth
    rounds = Rounds({"before": np.array([2.5e6, 1.25e6]), "stage": np.array([1e9 / 600, 1e9 / 1200])})
    rounds.rates["whole"] = np.array([1e6, 0.5e6])
    share = rounds.share("stage", "before", "whole")
    assert share.median == pytest.approx(0.2) and share.min == pytest.approx(0.2)
    assert rounds.share("whole", None, "whole").median == pytest.approx(1.0)


def test_bench_json_is_one_object_with_every_figure_and_ratio(capsys):
    assert main(["bench", "--json", "--deals", "300", "--repeats", "2"]) == 0
    report = json.loads(capsys.readouterr().out)
    for name in ("random", "heuristic", "bare", "simulate"):
        figure = report[name]
        assert set(figure) == SPREAD_KEYS
        assert figure["repeats"] == 2
        assert 0 < figure["min"] <= figure["median"] <= figure["max"]
    assert set(report["ratios"]) == {"heuristic/random", "random/bare", "simulate/random"}
    for ratio in report["ratios"].values():
        assert set(ratio) == SPREAD_KEYS
        assert ratio["repeats"] == 2
        assert 0 < ratio["min"] <= ratio["median"] <= ratio["max"]
    assert report["threads"] == 1
    assert report["deals"] == 300
    assert report["cpu"]
    assert {"python", "numba", "numpy", "pandas", "tarotsim"} <= set(report["versions"])


def test_bench_text_shows_each_figure_with_its_spread(capsys):
    assert main(["bench", "--deals", "300", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    assert "1 interleaved round of 300 deals per figure: median (min–max)" in out
    for label in HEADLINE_FIGURES.values():
        assert label in out
    assert "simulate / random" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bench", "--repeats", "0"], "at least 1"),
        (["bench", "--deals", "many"], "whole number"),
        (["bench", "--threads", "0"], "at least 1"),
        (["bench", "--threads", "999"], "threads must be between 1 and"),
    ],
)
def test_bench_argument_errors_exit_with_one_line(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        raise SystemExit(main(argv))
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err
