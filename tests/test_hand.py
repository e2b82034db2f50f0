"""One hand analysed: the hand read in either notation, the deals played, the table, the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tarotsim.bidder import load_bidder
from tarotsim.cards import PETIT, TRUMP_21, parse_cards, to_mask
from tarotsim.cli import main
from tarotsim.dealing import deal
from tarotsim.hand import analyse_hand, parse_hand, strategy_of
from tarotsim.kernels.features import hand_features
from tarotsim.labels import CONTRACTS
from tarotsim.strategy import Strategy

HAND = "T21 T18 T15 T12 T9 T7 T4 T2 EX KH QH 5H KS 8S 3S 9D 2D 4C"
BIDDER = Path(__file__).resolve().parent.parent / "reports" / "bidder-4p.json"
FRENCH = "21 18 15 12 9 7 4 2 Excuse RCo DCo 5♥ RP 8P 3P 9Ca 2Ca 4T"


def test_the_hand_in_french_notation_is_the_same_hand() -> None:
    assert sorted(parse_hand(FRENCH, 4)) == sorted(parse_cards(HAND))


@pytest.mark.parametrize(
    "hand, players, message",
    [
        ("T21 T18 KS", 4, "holds 18 cards, got 3: 15 cards missing"),
        (HAND + " 5C", 4, "got 19: 1 too many"),
        (HAND.replace("4C", "KS"), 4, "card KS appears twice"),
        (HAND.replace("4C", "KS").replace("2D", "T21"), 4, "cards KS, T21 appear more than once"),
        (HAND, 5, "holds 15 cards"),
    ],
)
def test_a_wrong_hand_says_what_is_wrong(hand: str, players: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_hand(hand, players)


def test_strategy_spec_is_read_over_the_default() -> None:
    assert strategy_of(None) == Strategy()
    assert strategy_of("play=pimc").ecart == "expert"
    assert strategy_of("ecart=simple").play == "heuristic"


def test_petit_sec_and_position_are_refused() -> None:
    hand = " ".join(["T1", *[f"{r}{s}" for s in "SHD" for r in ("1", "2", "3", "4", "5", "6")][:17]])
    with pytest.raises(ValueError, match="petit sec"):
        analyse_hand(hand, deals=10)
    with pytest.raises(ValueError, match="position must be 0"):
        analyse_hand(HAND, position=4, deals=10)


@pytest.fixture(scope="module")
def analysis():  # type: ignore[no-untyped-def]
    return analyse_hand(HAND, deals=300, seed=5, position=1, bidder=BIDDER)


def test_the_table_of_choices(analysis) -> None:  # type: ignore[no-untyped-def]
    table = analysis.contracts
    assert list(table["contract"]) == ["pass", "prise", "garde", "garde_sans", "garde_contre"]
    played = table.iloc[1:]
    assert (played["rate_low"] <= played["rate"]).all() and (played["rate"] <= played["rate_high"]).all()
    assert (played["mean_low"] < played["mean"]).all() and (played["mean"] < played["mean_high"]).all()
    assert (played["loss_low"] <= played["loss"]).all() and (played["loss"] <= played["loss_high"]).all()
    assert table.iloc[0]["mean"] == 0.0 and np.isnan(table.iloc[0]["rate"])
    # the best choice has the highest mean score
    means = dict(zip(table["contract"], table["mean"], strict=True))
    assert analysis.best == max(means, key=lambda c: means[c])
    assert analysis.diff_low <= analysis.diff <= analysis.diff_high
    assert analysis.decided == (analysis.diff_low > 0)
    assert analysis.chavey == 54 and analysis.chavey_distribution == 57
    assert set(analysis.bids) == {"chavey", "learned", "montecarlo"} and analysis.bids["chavey"] == "prise"
    # the learned bidder's wish: its best predicted score if above 0
    word0, word1 = to_mask(parse_cards(HAND))
    predicted = load_bidder(str(BIDDER)).predict(np.array([hand_features(word0, word1)]))[0]
    expected = CONTRACTS[int(np.argmax(predicted))] if predicted.max() > 0 else "pass"
    assert analysis.bids["learned"] == expected
    assert analysis.deals + analysis.thrown_in == 300


def test_the_deals_played_are_those_of_deal(analysis) -> None:  # type: ignore[no-untyped-def]
    """The game dealt exactly ``deal(300, fixed={0: hand}, seed=5)``: the deals thrown in are
    those where another seat holds the Petit alone."""
    deals = deal(300, fixed={0: HAND}, seed=5)
    others = deals.hands[:, 1:]
    trumps = ((others >= PETIT) & (others <= TRUMP_21)).sum(axis=2)
    petit_sec = ((others == PETIT).any(axis=2) & (trumps == 1) & ~(others == 77).any(axis=2)).any(axis=1)
    thrown = sorted(set(range(300)) - set(analysis.scores.index.tolist()))
    assert thrown == np.flatnonzero(petit_sec).tolist()


def test_same_seed_same_analysis(analysis) -> None:  # type: ignore[no-untyped-def]
    again = analyse_hand(HAND, deals=300, seed=5, position=1, bidder=BIDDER)
    assert again.to_dict() == analysis.to_dict()


def test_json_and_page(analysis, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    data = json.loads(analysis.to_json())
    assert {"hand", "deals", "contracts", "best", "decided"} <= set(data)
    assert set(data["contracts"][1]) >= {
        "contract",
        "rate",
        "rate_low",
        "rate_high",
        "mean",
        "mean_low",
        "mean_high",
    }
    assert data["contracts"][0]["rate"] is None
    page = analysis.write_page(tmp_path)
    assert (tmp_path / "scores.png").stat().st_size > 0
    assert "![Score of the hand's seat, by contract](scores.png)" in page.read_text(encoding="utf-8")
    assert main(["hand", FRENCH, "--deals", "300", "--seed", "5", "--position", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["best"] == analysis.best


def test_cli_errors_are_one_line(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["hand", "T21 T18 KS"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "15 cards missing" in err
