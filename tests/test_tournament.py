"""Tournaments: the pairings of a ladder and a round robin, their table, costs and files."""

from __future__ import annotations

import json

import pandas as pd
import pytest

import tarotsim
from tarotsim.cli import main
from tarotsim.contests.duel import duel
from tarotsim.contests.tournament import PAIR_COLUMNS, pairings, player_costs

STRATEGIES = {"random": "play=random", "greedy": "play=greedy", "heuristic": "play=heuristic"}


def test_pairings_of_a_ladder_and_a_round_robin() -> None:
    names = ["r", "g", "h", "p"]
    assert pairings(names, "ladder", "h") == [("g", "r"), ("h", "g"), ("p", "h"), ("r", "h")]
    assert pairings(names, "ladder") == [("g", "r"), ("h", "g"), ("p", "h")]
    assert pairings(names, "round-robin") == [
        ("g", "r"),
        ("h", "r"),
        ("h", "g"),
        ("p", "r"),
        ("p", "g"),
        ("p", "h"),
    ]
    with pytest.raises(ValueError, match="one of ladder, round-robin"):
        pairings(names, "swiss")


def test_a_ladder_until_decided_gives_each_duel_and_each_cost(tmp_path) -> None:
    out = tmp_path / "tournament"
    frame = tarotsim.tournament(
        STRATEGIES,
        2000,
        seed=4,
        table_sizes=(3, 4),
        until_decided=(0.0, 2.0),
        look_every=100,
        cost_deals=1000,
        threads=1,
        out=out,
    )
    assert list(frame.columns) == PAIR_COLUMNS
    assert list(zip(frame.players, frame.a, frame.b, strict=True)) == [
        (p, a, b)
        for p in (3, 4)
        for a, b in [("greedy", "random"), ("heuristic", "greedy"), ("random", "heuristic")]
    ]
    # each row is the duel itself, stopped where it was decided
    row = frame.iloc[4]
    alone = duel("play=heuristic", "play=greedy", 2000, seed=4, until_decided=(0.0, 2.0), look_every=100)
    assert (row.deals, row.edge, row.edge_low, row.edge_high) == (alone.n, alone.edge, alone.low, alone.high)
    assert row.verdict == alone.decision.verdict == "A"
    assert (frame.verdict[frame.a == "random"] == "B").all() and (frame.deals < 2000).all()
    costs = player_costs(frame)
    assert list(costs.name) == ["random", "greedy", "heuristic"] * 2
    heuristic = costs[costs.name == "heuristic"]
    assert (heuristic.cost == 1.0).all()  # the unit of cost, timed against itself
    assert (costs.cost_low <= costs.cost).all() and (costs.cost <= costs.cost_high).all()
    assert (costs[costs.name == "random"].cost < 1.0).all()  # random play costs less than the heuristic
    # the files, and the duels' run directories, which the same call resumes
    written = json.loads((out / "tournament.json").read_text(encoding="utf-8"))
    assert written["tournament"]["until_decided"]["edge1"] == 2.0 and len(written["duels"]) == 6
    assert written["duels"][4]["deals"] == alone.n and written["strategies"][0]["name"] == "random"
    assert "machine" in written and written["strategies"][2]["cost"] == 1.0
    markdown = (out / "tournament.md").read_text(encoding="utf-8")
    assert "| 4 | heuristic | greedy |" in markdown and "cost (heuristic deals)" in markdown
    assert (out / "duels" / "4p-heuristic-vs-greedy" / "manifest.json").is_file()


def test_a_round_robin_of_fixed_duels_and_a_reference_outside_the_strategies() -> None:
    frame = tarotsim.tournament(
        {"r": "play=random", "g": "play=greedy"},
        150,
        seed=1,
        format="round-robin",
        cost_deals=200,
        cost_repeats=2,
    )
    assert list(zip(frame.a, frame.b, strict=True)) == [("g", "r")] and frame.verdict.isna().all()
    assert frame.deals.iloc[0] == 150 and frame.a_cost_low.isna().all()  # no interval under 6 rounds
    expected = duel("play=greedy", "play=random", 150, seed=1)
    assert frame.edge.iloc[0] == expected.edge
    ladder = tarotsim.tournament(
        {"r": "play=random", "g": "play=greedy"}, 50, seed=1, cost_deals=200, cost_repeats=1
    )
    assert list(zip(ladder.a, ladder.b, strict=True)) == [("g", "r"), ("r", "reference"), ("g", "reference")]
    assert ladder.b_spec.iloc[1] == "play=heuristic"


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        ({"r": "play=random"}, {}, "at least two strategies"),
        ({"r": "play=random", "a b": "play=greedy"}, {}, "a strategy's name is letters"),
        ({"r": "play=random", "g": "play=clever"}, {}, "strategy g: unknown play policy"),
        ({"r": "play=random", "s": "play=random"}, {}, "given twice"),
        ({"r": "play=random", "g": "play=greedy"}, {"format": "swiss"}, "one of ladder, round-robin"),
        ({"r": "play=random", "g": "play=greedy"}, {"table_sizes": (4, 4)}, "given twice"),
        ({"r": "play=random", "g": "play=greedy"}, {"table_sizes": (6,)}, "3, 4 or 5"),
        (
            {"r": "play=random", "g": "play=greedy"},
            {"format": "round-robin", "reference": "play=greedy"},
            "no reference",
        ),
        ({"r": "play=random", "reference": "play=greedy"}, {}, "the name 'reference'"),
    ],
)
def test_bad_tournaments_are_explained(players, options, message) -> None:
    with pytest.raises(ValueError, match=message):
        tarotsim.tournament(players, 10, seed=1, **options)


def test_cli_tournament_prints_the_tables(tmp_path, capsys) -> None:
    argv = ["tournament", "--player", "random=play=random", "--player", "heuristic=play=heuristic"]
    options = ["--deals", "1000", "--until-decided", "--look-every", "100", "--cost-deals", "500", "--quiet"]
    assert main([*argv, *options, "--out", str(tmp_path / "t")]) == 0
    printed = capsys.readouterr().out
    assert "ladder at 4 players, duels until decided, at most 1,000 deals" in printed
    assert ["4", "heuristic", "random", "100"] in [line.split()[:4] for line in printed.splitlines()]
    assert "cost (95%)" in printed
    assert (tmp_path / "t" / "tournament.md").is_file()
    frame = pd.DataFrame(json.loads((tmp_path / "t" / "tournament.json").read_text())["duels"])
    assert list(frame.verdict) == ["A"]  # the one duel: the heuristic is the ladder's reference too


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--player", "x"], "expected NAME=SPEC"),
        (["--player", "a=play=random", "--player", "a=play=greedy"], "--player a is given twice"),
        (
            ["--player", "a=play=random", "--player", "b=play=greedy", "--players", "2,4"],
            "table sizes are 3, 4",
        ),
        (["--player", "a=play=random", "--player", "b=play=greedy", "--alpha", "0.1"], "--alpha goes with"),
        (
            [
                "--player",
                "a=play=random",
                "--player",
                "b=play=greedy",
                "--format",
                "round-robin",
                "--reference",
                "x",
            ],
            "--reference is a ladder's",
        ),
        (["--player", "a=play=random", "--player", "b=play=clever"], "strategy b: unknown play policy"),
    ],
)
def test_cli_tournament_errors_are_one_line(argv, message, capsys) -> None:
    try:  # argparse's errors exit, the command's return
        status = main(["tournament", "--deals", "10", "--quiet", *argv])
    except SystemExit as exit_info:
        status = exit_info.code
    assert status == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
