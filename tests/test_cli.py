"""The command line: clear errors and non-zero exits for bad input, never a traceback."""

import subprocess
import sys

import pytest

from tarotsim.cli import main


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["trace", "--deals", "-5", "--seed", "1", "--out", "x.jsonl"], "at least 1"),
        (["trace", "--deals", "5", "--seed", "1", "--out", "x.jsonl", "--players", "6"], "3, 4 or 5"),
        (["trace", "--deals", "5", "--seed", "1", "--out", "x.jsonl", "--policy", "clever"], "valid names"),
        (["trace", "--deals", "5", "--seed", "1", "--out", "/nonexistent-dir/x.jsonl"], "cannot write"),
        (["simulate", "--deals", "-5"], "at least 1"),
        (["simulate", "--deals", "ten"], "whole number"),
        (["simulate", "--deals", "10", "--bid-policy", "psychic"], "valid names: chavey"),
    ],
)
def test_bad_input_exits_non_zero_with_one_line(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        raise SystemExit(main(argv))
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err


def test_module_entry_point_reports_errors_without_traceback():
    done = subprocess.run(
        [sys.executable, "-m", "tarotsim", "simulate", "--deals", "100", "--players", "6"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert "players must be 3, 4 or 5, got 6" in done.stderr
    assert "Traceback" not in done.stderr


def test_simulate_prints_a_success_table(capsys):
    assert main(["simulate", "--deals", "2000", "--seed", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "| contract" in out and "prise" in out and "thrown in" in out


def test_bid_thresholds_change_the_contract_mix(capsys):
    import tarotsim

    default = tarotsim.simulate(4000, seed=3)
    bolder = tarotsim.simulate(4000, seed=3, bid_thresholds=(30, 45, 60, 70))
    assert (bolder.thrown_in == "all_pass").sum() < (default.thrown_in == "all_pass").sum()
    assert (bolder.contract == "garde").sum() > (default.contract == "garde").sum()
    with pytest.raises(SystemExit):
        main(["simulate", "--deals", "500", "--quiet", "--bid-thresholds", "30,45"])
    assert "expected four numbers" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["simulate", "sweep", "study", "match", "trace"])
def test_every_command_builds_the_configuration_of_its_options(command):
    from tarotsim.cli import _config, build_parser
    from tarotsim.config import SWEEP_DEFAULTS, RunConfig

    required = {"sweep": ["--out", "x"], "trace": ["--deals", "1", "--seed", "1", "--out", "x"]}.get(command, [])
    args = build_parser().parse_args([command, *required])
    defaults = SWEEP_DEFAULTS if command in ("sweep", "study") else {}
    assert _config(args) == RunConfig(**defaults)
    args = build_parser().parse_args([command, *required, "--players", "5", "--chelem-threshold", "90",
                                      "--bid-thresholds", "30,45,60,70", "--defence-policy", "random"])
    assert _config(args) == RunConfig(**{**defaults, "players": 5, "chelem_threshold": 90,
                                         "bid_thresholds": (30, 45, 60, 70), "defence_policy": "random"})


def test_sweep_refuses_unshuffled_dealing_in_one_line(capsys, tmp_path):
    assert main(["sweep", "--deals", "10", "--out", str(tmp_path / "s"), "--dealing", "unshuffled", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs shuffled dealing" in err
