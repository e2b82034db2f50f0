"""One hand analysed: the hand read in either notation, the deals played, the table, the CLI."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import numpy as np
import pytest

from tarotsim.analysis.hand import WIDTH, analyse_hand, parse_hand, strategy_of
from tarotsim.cli import main
from tarotsim.engine.cards import PETIT, TRUMP_21, parse_cards, to_mask
from tarotsim.engine.dealing import deal
from tarotsim.engine.kernels.features import hand_features
from tarotsim.engine.labels import CONTRACTS, MULTIPLIERS
from tarotsim.players.bidder import load_bidder
from tarotsim.players.strategy import Strategy

HAND = "T21 T18 T15 T12 T9 T7 T4 T2 EX KH QH 5H KS 8S 3S 9D 2D 4C"
ROOT = Path(__file__).resolve().parent.parent
BIDDER = ROOT / "reports" / "bidder-4p.json"
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
    assert analysis.reason == ("interval above 0" if analysis.decided else "interval reaches 0")
    # no chelem is made announcing it: none is offered
    assert analysis.chelem_trial == {"deals": 50 - sum(d not in analysis.scores.index for d in range(50)),
                                     "made": dict.fromkeys(CONTRACTS, 0)}  # fmt: skip
    assert not table["chelem_announced"].any() and "chelem: not offered" in analysis.text()
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
    assert "![Score of the hand's seat, by choice](scores.png)" in page.read_text(encoding="utf-8")
    assert main(["hand", FRENCH, "--deals", "300", "--seed", "5", "--position", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["best"] == analysis.best


def test_a_page_on_a_full_disk_leaves_nothing(analysis, tmp_path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The folder made for the page was left behind, empty or with the figure alone, by the
    Python call and by ``hand --out`` alike."""
    import errno

    import tarotsim.analysis.hand
    from tarotsim.base.files import os_error

    def full(path, text):  # type: ignore[no-untyped-def]
        raise os_error(OSError(errno.ENOSPC, "No space left on device"), str(path))

    monkeypatch.setattr(tarotsim.analysis.hand, "write_text_atomic", full)
    with pytest.raises(ValueError, match="hand.md: No space left on device"):
        analysis.write_page(tmp_path / "a" / "page")
    assert not (tmp_path / "a").exists()
    monkeypatch.setattr(tarotsim.analysis.hand, "analyse_hand", lambda *args, **kwargs: analysis)
    assert main(["hand", HAND, "--out", str(tmp_path / "b" / "page")]) == 2
    assert "No space left on device" in capsys.readouterr().err
    assert not (tmp_path / "b").exists()


def test_cli_errors_are_one_line(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["hand", "T21 T18 KS"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "15 cards missing" in err


SAME_PLAY_HAND = "T21 T1 T16 T12 T8 T5 KS KH KD QS 7S 3H 9H 2D 6D 4C 8C 10C"
"""A hand whose Garde leads its Prise: the same play (heuristic card play ignores the contract)."""
SLAM = "T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T1 EX KS KH KD KC"
"""A hand that makes the chelem whenever it announces it."""
FRENCH_5 = "21 18 15 12 9 7 Excuse RP RCo 2Ca 3Ca 4Ca 5Ca 6Ca 2T"
"""At 5 players: Kings of spades and hearts held, diamonds the longest suit, so the King of
diamonds is called (``call=longest``, docs/policies.md)."""


def test_garde_over_prise_on_the_same_play_is_decided_and_says_why() -> None:
    """Garde and Prise are the same play here, so Garde − Prise is the multiplied part of the
    Prise's score: Garde is better exactly when it is positive on average, which the paired
    interval settles. The verdict, its reason and the words agree."""
    result = analyse_hand(SAME_PLAY_HAND, deals=200, seed=0)
    assert (result.best, result.runner_up) == ("garde", "prise")
    assert result.same_play and result.diff_low > 0
    assert result.decided and result.reason == "same play, interval above 0"
    data = result.to_dict()
    assert (data["decided"], data["same_play"], data["reason"]) == (True, True, "same play, interval above 0")
    words = " ".join(result.text().split())
    assert "best: garde, decided: garde − prise" in words and "not decided" not in words
    assert "garde and prise are the same play" in words
    # the same play: the same success on every deal, and Garde − Prise scales with the multipliers
    table = result.contracts.set_index("choice")
    assert table.loc["garde", "rate"] == table.loc["prise", "rate"]
    diff = result.scores["garde"] - result.scores["prise"]
    assert (np.sign(diff) == np.sign(result.scores["prise"])).all()
    assert MULTIPLIERS["garde"] - MULTIPLIERS["prise"] == MULTIPLIERS["prise"]


def test_too_few_deals_never_decide() -> None:
    result = analyse_hand(SAME_PLAY_HAND, deals=20, seed=0)
    assert not result.decided and result.reason == "fewer than 30 deals"
    assert "fewer than 30 deals never decide" in " ".join(result.text().split())


def test_the_chelem_announced_is_a_choice_where_the_hand_makes_it() -> None:
    result = analyse_hand(SLAM, deals=60, seed=0)
    table = result.contracts.set_index("choice")
    announced = [c + "+chelem" for c in CONTRACTS]
    assert list(table.index) == ["pass", *CONTRACTS, *announced]
    assert (
        table.loc[announced, "chelem_announced"].all()
        and not table.loc[list(CONTRACTS), "chelem_announced"].any()
    )
    assert (table.loc[announced, "contract"] == list(CONTRACTS)).all()
    assert (table.loc[announced, "chelem"] == 1.0).all()
    assert result.chelem_trial == {"deals": 50, "made": dict.fromkeys(CONTRACTS, 50)}
    # announced and made, the chelem adds 200 per defender to the unannounced one's 0 or 200
    assert (
        table.loc[announced, "mean"].to_numpy() > table.loc[list(CONTRACTS), "mean"].to_numpy() + 3 * 199
    ).all()
    assert result.best == "garde_contre+chelem" and result.decided
    assert list(result.scores.columns) == [*CONTRACTS, *announced]
    assert "chelem made when announced (95%): prise 100.0%" in " ".join(result.text().split())


def test_a_strategy_announcing_chelems_is_refused() -> None:
    with pytest.raises(ValueError, match="weighs announcing the chelem itself"):
        analyse_hand(SLAM, deals=10, strategy="chelem=overwhelming")


@pytest.mark.parametrize(
    "hand, players",
    [(SLAM, 4), (SAME_PLAY_HAND, 4), (FRENCH_5, 5), (HAND + " 5C 6C 7C 8C 9C 10C", 3)],
)
def test_every_line_fits_in_100_columns(hand: str, players: int) -> None:
    result = analyse_hand(hand, players=players, deals=40, seed=1, position=0)
    lines = result.text().splitlines()
    assert max(map(len, lines)) <= WIDTH == 100
    assert any(line.startswith("best: ") for line in lines)


def test_the_king_called_at_five_players_in_the_hand_notation(capsys) -> None:  # type: ignore[no-untyped-def]
    result = analyse_hand(FRENCH_5, players=5, deals=40, seed=2)
    assert result.notation == "french" and result.hand[0] == "RP" and result.hand[-1] == "Excuse"
    assert result.called == {"RCa": result.deals}
    assert "the taker calls RCa on every deal" in result.text()
    assert analyse_hand(HAND, deals=10).called is None
    assert (
        main(["hand", FRENCH_5, "--players", "5", "--deals", "40", "--seed", "2", "--notation", "english"])
        == 0
    )
    out = capsys.readouterr().out
    assert "hand: KS KH 2D 3D 4D 5D 6D 2C T7 T9 T12 T15 T18 T21 EX" in out
    assert "the taker calls KD on every deal" in out
    assert main(["hand", FRENCH_5, "--players", "5", "--deals", "40", "--seed", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["notation"] == "french" and data["called"] == {"RCa": result.deals}
    assert data["hand"] == " ".join(result.hand)


def test_english_in_english_out() -> None:
    result = analyse_hand(HAND, deals=10)
    assert result.notation == "english" and "KS" in result.hand
    with pytest.raises(ValueError, match="notation must be 'english' or 'french'"):
        analyse_hand(HAND, deals=10, notation="german")


def test_the_guide_shows_what_its_command_prints(capsys) -> None:  # type: ignore[no-untyped-def]
    """docs/hand.md's first example: the command as written (options included) and its whole output."""
    page = (ROOT / "docs" / "hand.md").read_text(encoding="utf-8")
    example = re.search(r"```sh\n(tarotsim hand [^\n]*)\n```\n\n```text\n(.*?)```", page, re.S)
    assert example is not None
    assert main(shlex.split(example.group(1))[1:]) == 0
    assert capsys.readouterr().out == example.group(2)
