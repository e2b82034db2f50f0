"""What a person reads: terminal tables, intervals, summaries; files written whole or not at all.

Nothing here plays a deal: the tables and files are made of made-up numbers.
"""

import pandas as pd
import pytest

from tarotsim.analysis import success_table
from tarotsim.analysis.tables import TERMINAL_WIDTH, format_table, interval_text, merge_intervals
from tarotsim.base.files import write_atomic, write_text_atomic
from tarotsim.engine.labels import CONTRACTS, HAND_FEATURES
from tarotsim.players.bidder import Bidder


def table(extra_columns=0):
    frame = pd.DataFrame(
        {
            "contract": ["prise", "garde"],
            "n": [40, 2000],
            "rate": [0.5, 0.61234],
            "rate_low": [0.2, 0.6],
            "rate_high": [0.8, 0.63],
            "mean_score": [-41.2, 12.0],
            "mean_score_low": [-41.6, 10.0],
            "mean_score_high": [-40.8, 14.0],
        }
    )
    for k in range(extra_columns):
        frame[f"another_column_{k}"] = 0.25
    return frame


def test_negative_intervals_read_as_people_write_them():
    assert interval_text(-41.6, -40.8) == "\u221241.6 to \u221240.8"
    text = format_table(table())
    assert "(-41.6--40.8)" not in text and "\u221241.2 (\u221241.6 to \u221240.8)" in text
    assert "0.500 (0.200 to 0.800)" in text


def test_an_interval_without_its_value_becomes_one_column():
    merged = merge_intervals(pd.DataFrame({"diff_low": [-1.0], "diff_high": [2.5]}))
    assert list(merged.columns) == ["diff 95%"] and merged.iloc[0, 0] == "\u22121.000 to 2.500"


def test_terminal_tables_fit_100_columns_unless_wide():
    text = format_table(table(extra_columns=12))
    assert max(len(line) for line in text.splitlines()) <= TERMINAL_WIDTH
    assert "more columns" in text and "--wide" in text
    wide = format_table(table(extra_columns=12), wide=True)
    assert max(len(line) for line in wide.splitlines()) > TERMINAL_WIDTH and "more columns" not in wide
    assert "another_column_11" in wide


def test_other_formats_hold_every_column_at_full_precision():
    csv = format_table(table(extra_columns=12), "csv")
    assert "another_column_11" in csv and "0.61234" in csv
    assert format_table(table(), "json").lstrip().startswith("[")
    assert format_table(table(), "md").startswith("| contract |")
    with pytest.raises(ValueError, match="format must be one of text, md, csv, json"):
        format_table(table(), "html")


def test_a_duel_s_records_are_not_pooled_into_a_success_table():
    frame = pd.DataFrame({"deal": [0, 0, 0, 0], "a_seat": [0, 1, 2, 3], "contract": ["prise"] * 4})
    with pytest.raises(ValueError, match="each deal is played once per seat.*4 times.*DuelResult"):
        success_table(frame)


def test_a_bidder_summary_is_a_few_short_lines():
    coefficients = {
        c: {"intercept": -30.0 + 5 * i} | {f: (k % 7) - 3.0 for k, f in enumerate(HAND_FEATURES)}
        for i, c in enumerate(CONTRACTS)
    }
    bidder = Bidder(4, coefficients, {"run": "runs/sweep", "deals": 20000, "seed": 7})
    text = bidder.summary()
    lines = text.splitlines()
    assert len(lines) == 3 + len(CONTRACTS) and all(len(line) <= TERMINAL_WIDTH for line in lines)
    assert "deals 20,000, seed 7" in text and "\u221230.0" in text and "{" not in text


def test_a_failed_write_leaves_the_old_file_and_no_temporary_one(tmp_path):
    path = tmp_path / "table.csv"
    path.write_text("old\n")

    def half(tmp):
        tmp.write_text("half a ta")
        raise OSError(28, "No space left on device")

    with pytest.raises(ValueError, match="cannot write .*table.csv: No space left on device; free some"):
        write_atomic(path, half)
    assert path.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["table.csv"]
    write_text_atomic(path, "new\n")
    assert path.read_text() == "new\n" and len(list(tmp_path.iterdir())) == 1


def test_a_bidder_file_that_cannot_be_written_leaves_nothing(tmp_path):
    bidder = Bidder(4, {c: {"intercept": 0.0} | dict.fromkeys(HAND_FEATURES, 0.0) for c in CONTRACTS})
    with pytest.raises(ValueError, match="cannot write"):
        bidder.save(tmp_path / "missing-folder" / "b.json")
    bidder.save(tmp_path / "b.json")
    assert [p.name for p in tmp_path.iterdir()] == ["b.json"]


def test_an_interrupted_trace_leaves_no_file(tmp_path, monkeypatch):
    from tarotsim.base.seeding import run_key
    from tarotsim.players.config import RunConfig
    from tarotsim.runs import trace

    def stopped(stream, deals, key, config):
        stream.write('{"deal": 0}\n')
        raise KeyboardInterrupt

    monkeypatch.setattr(trace, "write_trace", stopped)
    with pytest.raises(KeyboardInterrupt):
        trace.write_trace_file(tmp_path / "t.jsonl", 10, run_key(1), RunConfig())
    assert list(tmp_path.iterdir()) == []


def test_a_duel_result_prints_shortly():
    from tarotsim.contests.duel import DuelResult
    from tarotsim.contests.duel_report import duel_provenance
    from tarotsim.players.strategy import to_strategy

    big = pd.DataFrame({"deal": range(10_000), "score_0": 1})
    result = DuelResult(
        to_strategy("play=heuristic"), to_strategy("play=random"), 4, 7, 2500, 3.25, 1.0, 5.5, big, big, big
    )
    text = repr(result)
    assert len(text) < 200 and "edge=+3.25" in text and "n=2500" in text and "score_0" not in text
    fields = dict(duel_provenance(result).itertuples(index=False))
    assert str(fields["seed"]) == "7" and fields["deals"] == "2,500"


def test_a_table_s_notes_are_written_below_it_on_a_terminal(capsys):
    from tarotsim.cli.common import emit

    frame = table().assign(note=["not fitted: " + "too few deals " * 12, None])
    emit([(frame, "Thresholds")], None)
    out = capsys.readouterr().out
    assert "note" not in out.splitlines()[2] and "prise 40: not fitted: too few deals" in out
    assert max(len(line) for line in out.splitlines()) <= TERMINAL_WIDTH
    emit([(frame, "Thresholds")], None, fmt="csv")
    assert "note" in capsys.readouterr().out.splitlines()[0]


def test_the_command_line_names_the_table_formats_and_width_of_the_analysis():
    from tarotsim.analysis import tables
    from tarotsim.cli import common

    assert common.FORMATS == tables.FORMATS and common.TERMINAL_WIDTH == tables.TERMINAL_WIDTH
