"""The commands as a new user meets them: a duel's run directory read as a duel, bounded numbers,
one-line errors, readable tables, a closed pipe, a run extended to more deals.

Runs are small and played at random (a duel of random players), so little is compiled.
"""

import subprocess
import sys

import pandas as pd
import pytest

from tarotsim.cli import main
from tarotsim.runs.store import load_records


def run_cli(argv, capsys):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """A small duel and a small sweep, each in its run directory."""
    root = tmp_path_factory.mktemp("reading")
    duel, sweep = root / "duel", root / "sweep"
    assert (
        main(
            ["duel", "--a", "play=random,ecart=expert", "--b", "play=random", "--deals", "300"]
            + ["--out", str(duel), "--quiet", "--seed", "3"]
        )  # fmt: skip
        == 0
    )
    assert main(["sweep", "--deals", "1500", "--out", str(sweep), "--quiet", "--seed", "3"]) == 0
    return duel, sweep


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["trace", "--deals", "100000000000000000000", "--seed", "1", "--out", "t.jsonl"], "argument --deals: must be at most 10,000,000"),
        (["bench", "--deals", "100000000000000000000"], "argument --deals: must be at most"),
        (["sweep", "--deals", "10", "--out", "s", "--contracts", "prise,,garde"], "argument --contracts: a list item is empty"),
        (["table", "nowhere", "--by", "taker_bouts,,taker_trumps"], "argument --by: a list item is empty"),
        (["thresholds", "nowhere", "--min-rate", "1.5"], "argument --min-rate: must lie strictly between 0 and 1"),
        (["simulate", "--seed", "99999999999999999999999"], "argument --seed: must be at most"),
        (["simulate", "--threads", "5000"], "argument --threads: must be at most 1,024"),
        (["simulate", "--chunk-deals", "0"], "argument --chunk-deals: must be at least 1"),
        (["match", "--deals", "10000000"], "argument --deals: must be at most 100,000"),
        (["simulate", "--chelem-threshold", "100000000000000000000"], "argument --chelem-threshold: chelem_threshold must be 0 to 1000"),
        (["fit-bidder", "x", "--out", "b.json", "--sample-seed", "-1"], "argument --sample-seed: must be at least 0"),
    ],
)  # fmt: skip
def test_bad_numbers_and_lists_are_one_line_naming_the_option(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as info:
        main(argv)
    err = capsys.readouterr().err
    assert info.value.code == 2 and message in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_a_bad_scheduler_address_is_one_line_and_leaves_no_directory(capsys, tmp_path):
    out = tmp_path / "run"
    code, _, err = run_cli(
        ["simulate", "--deals", "100", "--out", out, "--scheduler", "notanaddress"], capsys
    )
    assert code == 2 and "cannot reach the Dask scheduler at notanaddress" in err and err.count("\n") == 1
    assert not out.exists()


def test_a_closed_pipe_ends_the_command_quietly():
    command = [sys.executable, "-m", "tarotsim", "match", "--deals", "2000"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdout.readline().startswith(b"match of 2000 deals")
        process.stdout.close()  # as `| head -1` does
        err = process.stderr.read().decode()
        code = process.wait(timeout=300)
    assert code == 0 and err == ""


def test_table_on_a_duel_gives_the_duel_s_tables_by_strategy_and_role(runs, capsys):
    duel, _ = runs
    code, out, _ = run_cli(["table", duel], capsys)
    assert code == 0 and "A's edge" in out and "By role" in out and "A\u2212B (95%)" in out
    assert "taker_bouts" not in out and "4 players, 300 deals" in out
    code, out, _ = run_cli(["table", duel, "--format", "csv"], capsys)
    roles = pd.read_csv(__import__("io").StringIO(out.split("\n\n")[0]))
    assert set(roles["role"]) <= {"taker", "defender", "thrown_in"}
    assert roles["a_n"].sum() == 300 * 4  # every row (deal and rotation) once, in one role
    code, _, err = run_cli(["table", duel, "--by", "taker_bouts"], capsys)
    assert code == 2 and "--by and --contract apply to simulate and sweep runs" in err


@pytest.mark.parametrize("command", [["thresholds", "{duel}"], ["compare", "{duel}", "{sweep}"]])
def test_thresholds_and_compare_refuse_a_duel_naming_the_command_that_reads_it(runs, capsys, command):
    duel, sweep = runs
    argv = [word.format(duel=duel, sweep=sweep) for word in command]
    code, out, err = run_cli(argv, capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"{duel} holds a duel" in err and f"tarotsim table {duel}" in err


def test_the_pooled_tables_refuse_a_duel_directory(runs):
    from tarotsim.analysis import success_table

    with pytest.raises(ValueError, match="holds a duel: each deal is played once per seat.* 4 times"):
        success_table(runs[0])


def test_report_on_a_duel_writes_the_duel_report(runs, capsys, tmp_path):
    code, out, _ = run_cli(["report", runs[0], "--out", tmp_path / "r"], capsys)
    assert code == 0 and "duel report written" in out
    assert sorted(p.name for p in (tmp_path / "r").iterdir()) == ["duel.html", "duel.md", "edge_by_role.png"]
    assert "Duel: " in (tmp_path / "r" / "duel.md").read_text()


def test_tables_fit_100_columns_and_leave_out_thin_rows(runs, capsys):
    _, sweep = runs
    code, out, _ = run_cli(["table", sweep], capsys)
    assert code == 0 and max(len(line) for line in out.splitlines() if str(sweep) not in line) <= 100
    assert "rows of fewer than 30 deals left out; --min-n 1 shows them" in out
    assert f"next: tarotsim thresholds {sweep}" in out
    code, everything, _ = run_cli(["table", sweep, "--min-n", "1", "--format", "csv"], capsys)
    code, thirty, _ = run_cli(["table", sweep, "--format", "csv"], capsys)
    all_rows, kept = (
        pd.read_csv(__import__("io").StringIO(everything)),
        pd.read_csv(__import__("io").StringIO(thirty)),
    )
    assert len(kept) < len(all_rows) and kept["n"].min() >= 30 and "rate_low" in kept.columns
    code, wide, _ = run_cli(["thresholds", sweep, "--wide"], capsys)
    assert max(len(line) for line in wide.splitlines()) > 100


def test_table_out_is_written_whole(runs, capsys, tmp_path):
    out = tmp_path / "t.md"
    code, _, _ = run_cli(["thresholds", runs[1], "--out", out], capsys)
    assert code == 0 and out.read_text().count("## ") == 3
    assert [p.name for p in tmp_path.iterdir()] == ["t.md"]


def test_library_warnings_do_not_reach_the_report_command(runs, capsys, tmp_path, monkeypatch):
    import warnings

    import tarotsim.report

    def noisy(*args, **kwargs):
        warnings.warn("divide by zero encountered in log", RuntimeWarning, stacklevel=1)
        return tmp_path / "r"

    monkeypatch.setattr(tarotsim.report, "write_report", noisy)
    code, _, err = run_cli(["report", runs[1], "--out", tmp_path / "r"], capsys)
    assert code == 0 and err == ""


def test_the_same_command_with_more_deals_extends_a_finished_run(capsys, tmp_path):
    small, fresh = tmp_path / "small", tmp_path / "fresh"
    base = ["simulate", "--quiet", "--chunk-deals", "128", "--seed", "8"]
    assert main([*base, "--deals", "300", "--out", str(small)]) == 0
    code, out, _ = run_cli([*base, "--deals", "700", "--out", small], capsys)
    assert code == 0 and "extended from 300 to 700 deals" in out
    assert main([*base, "--deals", "700", "--out", str(fresh)]) == 0
    pd.testing.assert_frame_equal(load_records(small), load_records(fresh))
    code, _, err = run_cli([*base, "--deals", "500", "--out", small], capsys)
    assert code == 2 and "holds a run of 700 deals: give --deals 700" in err


def test_an_edited_manifest_is_one_line_and_the_command_rebuilds_it(capsys, tmp_path):
    run = tmp_path / "run"
    base = ["simulate", "--quiet", "--deals", "300", "--chunk-deals", "128", "--out", run]
    run_cli(base, capsys)
    manifest = run / "manifest.json"
    manifest.write_text(manifest.read_text().replace('"seed": 2024', '"seed": 2025'))
    code, _, err = run_cli(["table", run], capsys)
    assert code == 2 and "was edited" in err and err.count("\n") == 1
    code, out, _ = run_cli(base, capsys)
    assert code == 0 and "manifest.json was edited" in out and "rebuilt from 3 intact chunks" in out
    assert run_cli(["table", run], capsys)[0] == 0


def test_fit_bidder_prints_a_summary(runs, capsys, tmp_path):
    code, out, _ = run_cli(["fit-bidder", runs[1], "--out", tmp_path / "b.json", "--sample", "1400"], capsys)
    assert code == 0 and out.startswith("learned bidder, 4 players") and "{" not in out
    assert "--bid-policy learned --bidder" in out and (tmp_path / "b.json").is_file()
