"""The hand and auction columns (``hand_points_dist``, ``bouts_held``, ``taker_trumps_ex``,
``others_bid``, ``speaker_position``) against ``tests.reference`` on traced deals.

A trace gives every seat's hand as dealt; the reference recounts each column from those
hands in plain Python, from docs/rules.md and Chavey's description, not from the kernels.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest

from tarotsim import RunConfig, Strategy, analysis, report, simulate, sweep
from tarotsim.engine.labels import CONTRACTS
from tarotsim.engine.records import BOUTS_HELD, COLUMNS
from tarotsim.report import findings
from tarotsim.runs.store import RunSpec, execute
from tarotsim.runs.trace import trace_records
from tests import reference as ref

SEED = 20261201
NEW_COLUMNS = ("hand_points_dist", "bouts_held", "taker_trumps_ex", "others_bid", "speaker_position")


def expected_row(trace: dict[str, Any], seat: int, thresholds: list[tuple[int, ...]]) -> dict[str, object]:
    """The hand and auction columns of ``seat`` on a traced deal, from the reference."""
    hand = trace["hands"][seat]
    return {
        "hand_points": ref.chavey_count(hand),
        "hand_points_dist": ref.chavey_count(hand) + ref.distribution_bonus(hand),
        "bouts_held": ref.bouts_held(hand),
        "taker_trumps_ex": ref.trumps_with_excuse(hand),
        "others_bid": ref.others_wish(trace["hands"], seat, thresholds),
        "speaker_position": ref.speaker_position(seat, trace["dealer"], trace["players"]),
    }


def recorded_row(row: pd.Series) -> dict[str, object]:
    return {name: row[name] for name in ("hand_points", *NEW_COLUMNS)}


def test_bouts_held_labels_are_every_set_of_bouts_once() -> None:
    assert BOUTS_HELD == ("", "P", "21", "P+21", "EX", "P+EX", "21+EX", "P+21+EX")
    names = {column.name for column in COLUMNS}
    assert set(NEW_COLUMNS) <= names


@pytest.mark.parametrize("players", [3, 4, 5])
def test_simulate_records_the_takers_hand_and_auction(players: int) -> None:
    deals = 1500
    config = RunConfig(players=players)
    thresholds = [config.bid_thresholds] * players
    df = simulate(deals, seed=SEED, config=config, threads=1, progress=False)
    traces = trace_records(deals, SEED, config)
    played = 0
    for trace, (_, row) in zip(traces, df.iterrows(), strict=True):
        if trace["taker"] is None:
            assert all(pd.isna(row[name]) for name in NEW_COLUMNS)
            continue
        played += 1
        assert recorded_row(row) == expected_row(trace, trace["taker"], thresholds)
        order = ["pass", *ref.CONTRACTS]
        assert order.index(row["others_bid"]) <= order.index(row["contract"])
    assert played > deals // 2


def test_each_other_seat_wishes_with_its_own_thresholds() -> None:
    deals = 2000
    spread = [(30, 45, 60, 70), (40, 56, 71, 81), (50, 66, 81, 91), (35, 50, 65, 75)]
    config = RunConfig(strategies=[Strategy(bid_thresholds=t) for t in spread])
    df = simulate(deals, seed=SEED + 1, config=config, threads=1, progress=False)
    traces = trace_records(deals, SEED + 1, config)
    shared = [
        ref.others_wish(t["hands"], t["taker"], [spread[1]] * 4) for t in traces if t["taker"] is not None
    ]
    own = []
    for trace, (_, row) in zip(traces, df.iterrows(), strict=True):
        if trace["taker"] is not None:
            assert recorded_row(row) == expected_row(trace, trace["taker"], spread)
            own.append(row["others_bid"])
    assert own != shared  # the seats' own thresholds matter on these deals


@pytest.mark.parametrize(("players", "seat"), [(4, 0), (4, 2), (5, 3), (3, 1)])
def test_sweep_records_the_taking_seats_hand_and_auction_on_every_row(players: int, seat: int) -> None:
    deals = 1200
    config = RunConfig(players=players)
    thresholds = [config.bid_thresholds] * players
    df = sweep(
        deals,
        seed=SEED,
        seat=seat,
        contracts=("prise", "garde_contre"),
        config=config,
        threads=1,
        progress=False,
    )
    traces = trace_records(deals, SEED, config)
    rows = df.groupby("deal", sort=True)
    thrown = 0
    for trace, (deal, group) in zip(traces, rows, strict=True):
        assert deal == trace["deal"]
        want = expected_row(trace, seat, thresholds)
        for _, row in group.iterrows():
            assert recorded_row(row) == want
        thrown += trace["thrown_in"] is not None
    assert thrown > 0  # thrown-in deals keep the taking seat's columns
    positions = df["speaker_position"].value_counts()
    assert sorted(positions.index) == list(range(players))
    assert (df["others_bid"] == "pass").any() and (df["others_bid"] != "pass").any()


def test_analysis_groups_a_sweep_by_the_bouts_held() -> None:
    df = sweep(4000, seed=SEED, config=RunConfig(), threads=1, progress=False)
    best = analysis.best_contract(df, by=("bouts_held", "taker_trumps"), min_n=20)
    assert set(best["bouts_held"]) <= set(BOUTS_HELD) and len(best) > 5
    uncontested = analysis.best_contract(df[df["others_bid"] == "pass"], by=("taker_bouts",), min_n=20)
    assert len(uncontested) > 0


def test_report_shows_the_uncontested_deals_and_each_turn_to_speak(tmp_path) -> None:
    run = tmp_path / "run"
    execute(
        run,
        RunSpec(
            kind="sweep",
            seed=SEED,
            deals=2000,
            config=RunConfig(),
            chunk_deals=1000,
            contracts=CONTRACTS,
            seat=0,
        ),
    )
    markdown = (report.write_report(run, tmp_path / "report", min_n=30) / "report.md").read_text(
        encoding="utf-8"
    )
    answers, _, details = markdown.partition("## Thresholds in trump length")
    assert "When no other seat would bid, and by turn to speak" in answers and details
    played = analysis.load_records(run).query("thrown_in == 'none'")
    by_bid = analysis.success_table(played, by="others_bid")
    table = findings.auction_table(by_bid, "others_bid")
    uncontested = by_bid[(by_bid["others_bid"] == "pass") & (by_bid["contract"] == "prise")].iloc[0]
    row = table.iloc[0]
    assert row["others_bid"] == "pass" and row["deals"] == f"{uncontested['n']:,}"
    assert row["prise"].startswith(f"{uncontested['mean_score']:.1f} (".replace("-", "\u2212"))
    assert "| " + " | ".join(table.iloc[0].astype(str)) + " |" in markdown
    first = played[played["contract"] == "prise"]
    share = (first["others_bid"] == "pass").groupby(first["speaker_position"]).mean()
    positions = findings.auction_table(
        analysis.success_table(played, by="speaker_position"), "speaker_position", uncontested=share
    )
    assert list(positions["speaker_position"]) == [0, 1, 2, 3]
    assert list(positions["uncontested"]) == [f"{100 * s:.0f}%" for s in share]
    assert "| " + " | ".join(positions.iloc[-1].astype(str)) + " |" in markdown
