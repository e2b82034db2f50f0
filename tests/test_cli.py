"""The command line: clear errors and non-zero exits for bad input, never a traceback."""

import subprocess
import sys

import pytest

from tarotsim.cli import COMMANDS, main
from tarotsim.players.strategy import Strategy


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
    assert "contract" in out and "rate (95%)" in out and "prise" in out and "thrown in" in out


def test_bid_thresholds_change_the_contract_mix(capsys):
    import tarotsim

    default = tarotsim.simulate(4000, seed=3)
    bolder = tarotsim.simulate(4000, seed=3, bid_thresholds=(30, 45, 60, 70))
    assert (bolder.thrown_in == "all_pass").sum() < (default.thrown_in == "all_pass").sum()
    assert (bolder.contract == "garde").sum() > (default.contract == "garde").sum()
    with pytest.raises(SystemExit):
        main(["simulate", "--deals", "500", "--quiet", "--bid-thresholds", "30,45"])
    assert "four increasing Chavey counts such as 40/56/71/81" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["simulate", "sweep", "study", "match", "trace"])
def test_every_command_builds_the_configuration_of_its_options(command):
    from tarotsim.cli import build_parser
    from tarotsim.cli.common import run_config
    from tarotsim.players.config import RunConfig

    required = {"sweep": ["--out", "x"], "trace": ["--deals", "1", "--seed", "1", "--out", "x"]}.get(
        command, []
    )
    args = build_parser().parse_args([command, *required])
    assert run_config(args) == RunConfig()  # one default for every command
    args = build_parser().parse_args(
        [
            command,
            *required,
            "--players",
            "5",
            "--chelem-policy",
            "overwhelming",
            "--chelem-threshold",
            "90",
            "--bid-thresholds",
            "30/45/60/70",
            "--defence-policy",
            "random",
        ]
    )
    assert run_config(args) == RunConfig(
        players=5,
        chelem_policy="overwhelming",
        chelem_threshold=90,
        bid_thresholds=(30, 45, 60, 70),
        defence_policy="random",
    )
    args = build_parser().parse_args(
        [command, *required, "--players", "3", "--strategy", "play=greedy", "--seat", "1=play=pimc,worlds=4"]
    )
    greedy, pimc = Strategy(play="greedy"), Strategy(play="pimc", worlds=4)
    assert run_config(args) == RunConfig(players=3, strategies=[greedy, pimc, greedy])
    args = build_parser().parse_args([command, *required, "--seat", "2=bid=montecarlo"])
    assert run_config(args).seat_strategies() == (Strategy(),) * 2 + (Strategy(bid="montecarlo"), Strategy())


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--a", "play=heuristic,chelem_threshold=100000000000000000000"],
            "chelem_threshold must be 0 to 1000",
        ),
        (["--a", "play=heuristic,,"], "empty item"),
        (["--a", "play=pimc,worlds=0"], "worlds must be 1 to 4096, got 0"),
        (["--a", "bid=montecarlo,bid_worlds=0"], "bid_worlds must be 1 to 4096, got 0"),
        (
            ["--a", "x", "--strategy", "play=heuristic,bid_thresholds=1/2/3/100000000000000000000"],
            "must be 0 to 1000",
        ),
    ],
)
def test_bad_specs_are_one_line_errors(argv, message, capsys):
    code, err = run_cli(["duel", "--b", "play=random", "--deals", "10", *argv], capsys)
    assert code == 2 and message in err


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--seat", "4=play=random"],
        ["simulate", "--strategy", "play=random", "--policy", "greedy"],
        ["simulate", "--seat", "1"],
        ["simulate", "--bid-thresholds", "40/56/71/100000000000000000000"],
        ["simulate", "--chelem-threshold", "100000000000000000000"],
        ["sweep", "--out", "x", "--contracts", "prise,,garde"],
    ],
)
def test_bad_strategy_options_are_one_line_errors(argv, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _ = run_cli([*argv, "--deals", "10", "--quiet"], capsys)
    assert code == 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--seat", "0=play=random", "--seat", "0=play=greedy"], "--seat 0=… is given twice"),
        (["simulate", "--strategy", ""], "the strategy spec is empty"),
        (["simulate", "--strategy", "  "], "the strategy spec is empty"),
        (["simulate", "--seat", "0="], "seat 0's strategy is empty in '0='"),
        (["duel", "--a", "", "--b", "play=random"], "argument --a: the strategy spec is empty"),
        (["duel", "--a", "play=random", "--b", " "], "argument --b: the strategy spec is empty"),
        (["hand", "T21 T1", "--strategy", ""], "argument --strategy: the strategy spec is empty"),
        (["deal", "--where", "0:"], "--where '0:' gives no range"),
        (["deal", "--where", "1: , "], "--where '1: , ' gives no range"),
        (["deal", "--fixed", "0="], "--fixed '0=' gives no card"),
    ],
)
def test_empty_specs_and_a_seat_given_twice_are_refused(argv, message, capsys, tmp_path, monkeypatch):
    """Each was taken silently: the last --seat kept, an empty spec or condition as none."""
    monkeypatch.chdir(tmp_path)
    code, err = run_cli([*argv, "--deals", "10"], capsys)
    assert code == 2 and message in err and "Traceback" not in err
    assert not list(tmp_path.iterdir())


def test_sweep_refuses_unshuffled_dealing_in_one_line(capsys, tmp_path):
    assert (
        main(["sweep", "--deals", "10", "--out", str(tmp_path / "s"), "--dealing", "unshuffled", "--quiet"])
        == 2
    )
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs shuffled dealing" in err


def run_cli(argv, capsys):
    """Exit status and stderr of the command, which must be one line when it fails."""
    try:
        code = main(argv)
    except SystemExit as exit_info:
        code = exit_info.code
    err = capsys.readouterr().err
    if code:
        assert err.count("\n") == 1 and "Traceback" not in err and "usage:" not in err, err
    return code, err


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("cli") / "run"
    assert (
        main(
            [
                "simulate",
                "--deals",
                "2000",
                "--chunk-deals",
                "1000",
                "--seed",
                "3",
                "--out",
                str(out),
                "--quiet",
            ]
        )
        == 0
    )
    return out


def test_argparse_errors_are_one_line_without_usage(capsys):
    code, err = run_cli(["simulate", "--deals", "-5"], capsys)
    assert code == 2 and "tarotsim simulate: error: argument --deals: must be at least 1, got -5" in err
    code, err = run_cli(["simulate", "--no-such-option"], capsys)
    assert code == 2 and "unrecognized arguments: --no-such-option" in err
    code, err = run_cli(["sweep"], capsys)
    assert code == 2 and "--out" in err


def test_negative_bid_thresholds_read_the_same_with_or_without_equals(capsys):
    with_equals = run_cli(["simulate", "--deals", "10", "--quiet", "--bid-thresholds=-5,10,20,30"], capsys)
    without = run_cli(["simulate", "--deals", "10", "--quiet", "--bid-thresholds", "-5,10,20,30"], capsys)
    assert with_equals == without
    assert without[0] == 2 and "a bid threshold must be 0 to 1000, got -5" in without[1]
    from tarotsim.cli.common import join_number_lists

    assert join_number_lists(["--bid-thresholds", "-1,2", "--seed", "-3"]) == [
        "--bid-thresholds=-1,2",
        "--seed",
        "-3",
    ]


def test_a_huge_bid_threshold_is_refused_not_overflowed(capsys):
    code, err = run_cli(
        ["simulate", "--deals", "10", "--bid-thresholds", "1,2,3,99999999999999999999"], capsys
    )
    assert code == 2 and "a bid threshold must be 0 to 1000, got 99999999999999999999" in err


def test_deals_beyond_memory_without_out_are_refused_from_the_record_size(capsys, monkeypatch, tmp_path):
    from tarotsim.engine.records import record_bytes
    from tarotsim.runs import runner as engine

    monkeypatch.setattr(engine, "available_memory", lambda: 10**6)
    code, err = run_cli(["simulate", "--deals", "100000", "--quiet"], capsys)
    assert code == 2
    assert (
        f"100,000 records need about {100_000 * record_bytes(4) / 1e9:.1f} GB of memory ({record_bytes(4)} bytes each)"
        in err
    )
    assert "--out DIR" in err
    code, err = run_cli(
        [
            "sweep",
            "--deals",
            "100000",
            "--chunk-deals",
            "100000",
            "--players",
            "5",
            "--out",
            str(tmp_path / "sweep"),
        ],
        capsys,
    )
    assert code == 2 and "400,000 records need about" in err and f"({record_bytes(5)} bytes each)" in err
    assert not (tmp_path / "sweep").exists()  # refused before the run directory is made


def test_out_at_an_existing_file_is_refused(capsys, tmp_path):
    (tmp_path / "taken").write_text("x")
    code, err = run_cli(["simulate", "--deals", "10", "--out", str(tmp_path / "taken"), "--quiet"], capsys)
    assert code == 2 and "is a file" in err


def test_a_full_disk_is_one_line_and_leaves_no_temporary_file(capsys, tmp_path, monkeypatch):
    import errno

    import pyarrow.parquet as pq

    def full(table, path, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(pq, "write_table", full)
    code, err = run_cli(["simulate", "--deals", "10", "--out", str(tmp_path / "run"), "--quiet"], capsys)
    assert code == 2 and "No space left on device; free some disk space, then repeat the command" in err
    assert not [p for p in (tmp_path / "run").rglob("*") if ".tmp-" in p.name]
    code, err = run_cli(["trace", "--deals", "5", "--seed", "1", "--out", "/dev/full"], capsys)
    assert code == 2 and "No space left on device" in err


def test_deal_out_is_checked_first_and_written_whole_or_not_at_all(capsys, tmp_path, monkeypatch):
    """A full disk left a partial file and an error without the path."""
    import errno
    import types

    import tarotsim.base.files as files

    code, err = run_cli(["deal", "--deals", "3", "--out", str(tmp_path / "no" / "deals.jsonl")], capsys)
    assert code == 2 and f"cannot write {tmp_path / 'no' / 'deals.jsonl'}: the folder" in err
    code, err = run_cli(["deal", "--deals", "3", "--out", str(tmp_path)], capsys)
    assert code == 2 and "it is a folder" in err
    target = tmp_path / "deals.jsonl"

    def full(source, destination):
        raise OSError(errno.ENOSPC, "No space left on device")

    with monkeypatch.context() as patch:  # the rename fails, once the whole file is written
        patch.setattr(files, "os", types.SimpleNamespace(**{**vars(files.os), "replace": full}))
        code, err = run_cli(["deal", "--deals", "3", "--out", str(target)], capsys)
    assert code == 2 and f"cannot write {target}: No space left on device; free some disk space" in err
    assert not list(tmp_path.iterdir())
    assert main(["deal", "--deals", "3", "--out", str(target)]) == 0
    assert len(target.read_text().splitlines()) == 3


def test_resuming_on_a_read_only_file_system_is_one_line(capsys, small_run, monkeypatch):
    import errno

    import tarotsim.runs.lock as lock

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system")

    with monkeypatch.context() as patch:
        patch.setattr(lock.os, "open", read_only)
        code, err = run_cli(
            [
                "simulate",
                "--deals",
                "2000",
                "--chunk-deals",
                "1000",
                "--seed",
                "3",
                "--out",
                str(small_run),
                "--quiet",
            ],
            capsys,
        )
    assert code == 2 and "Read-only file system" in err


def test_a_corrupt_chunk_is_one_line_naming_it(capsys, small_run, tmp_path):
    import shutil

    run = tmp_path / "run"
    shutil.copytree(small_run, run)
    chunk = run / "chunks" / "chunk-00001.parquet"
    data = bytearray(chunk.read_bytes())
    data[len(data) // 2] ^= 0xFF
    chunk.write_bytes(bytes(data))
    code, err = run_cli(["table", str(run)], capsys)
    assert (
        code == 2 and "chunk chunks/chunk-00001.parquet of run" in err and "repeat `tarotsim simulate" in err
    )


@pytest.mark.parametrize("content", ["{}", "[]"])
def test_table_and_thresholds_refuse_an_empty_manifest(capsys, tmp_path, content):
    (tmp_path / "chunks").mkdir()
    (tmp_path / "manifest.json").write_text(content)
    for command in ("table", "thresholds"):
        code, err = run_cli([command, str(tmp_path)], capsys)
        assert code == 2 and "does not describe a tarotsim run" in err


def test_table_out_extensions_are_checked_before_the_work(capsys, tmp_path):
    for command in (
        ["table", str(tmp_path / "missing")],
        ["thresholds", str(tmp_path / "missing")],
        ["compare", str(tmp_path / "a"), str(tmp_path / "b")],
    ):
        code, err = run_cli([*command, "--out", "table.txt"], capsys)
        assert code == 2 and "argument --out: must end in .csv or .md, got 'table.txt'" in err
        code, err = run_cli([*command, "--out", str(tmp_path / "no" / "table.md")], capsys)
        assert code == 2 and f"cannot write {tmp_path / 'no' / 'table.md'}: the folder" in err


def test_compare_refuses_runs_of_other_deals(capsys, small_run, tmp_path):
    three = tmp_path / "three"
    assert (
        main(
            [
                "simulate",
                "--deals",
                "2000",
                "--chunk-deals",
                "1000",
                "--seed",
                "3",
                "--players",
                "3",
                "--out",
                str(three),
                "--quiet",
            ]
        )
        == 0
    )
    capsys.readouterr()
    code, err = run_cli(["compare", str(small_run), str(three)], capsys)
    assert code == 2 and "not of the same deals (players 4 against 3)" in err


def test_report_out_refuses_the_run_directory_and_an_existing_report(capsys, small_run, tmp_path):
    for inside in (small_run, small_run / "chunks", small_run / "figures"):
        code, err = run_cli(["report", str(small_run), "--out", str(inside)], capsys)
        assert code == 2 and "is inside the run directory" in err
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "report.md").write_text("an earlier report")
    code, err = run_cli(["report", str(small_run), "--out", str(tmp_path / "old")], capsys)
    assert code == 2 and "already holds files (a report?): give --force" in err
    assert main(["report", str(small_run), "--out", str(tmp_path / "old"), "--force"]) == 0
    assert (tmp_path / "old" / "report.md").read_text() != "an earlier report"


def _full_disk(monkeypatch, module):
    """Make ``module``'s ``write_text_atomic`` fail as on a full disk."""
    import errno

    from tarotsim.base.files import os_error

    def full(path, text, **kwargs):
        raise os_error(OSError(errno.ENOSPC, "No space left on device"), str(path))

    monkeypatch.setattr(module, "write_text_atomic", full)


def test_report_out_on_a_full_disk_leaves_nothing_and_the_repeat_runs(
    capsys, small_run, tmp_path, monkeypatch
):
    """The figures were left without report.md, and the repeat refused (the folder held files)."""
    import tarotsim.report.assembly as assembly

    folder = tmp_path / "new" / "report"
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "report.md").write_text("an earlier report")
    with monkeypatch.context() as patch:
        _full_disk(patch, assembly)
        code, err = run_cli(["report", str(small_run), "--out", str(folder)], capsys)
        assert code == 2 and f"cannot write {folder / 'report.md'}: No space left on device" in err
        assert not (tmp_path / "new").exists()
        code, err = run_cli(["report", str(small_run), "--out", str(tmp_path / "old"), "--force"], capsys)
        assert code == 2 and [p.name for p in (tmp_path / "old").iterdir()] == ["report.md"]
        assert (tmp_path / "old" / "report.md").read_text() == "an earlier report"
    assert main(["report", str(small_run), "--out", str(folder)]) == 0
    assert (folder / "report.md").exists() and (folder / "report.html").exists()


def test_report_and_hand_out_are_checked_before_the_work(capsys, small_run, tmp_path, monkeypatch):
    import tarotsim.analysis.hand

    def no_work(*args, **kwargs):
        raise AssertionError("the analysis ran before --out was checked")

    monkeypatch.setattr(tarotsim.analysis.hand, "analyse_hand", no_work)
    (tmp_path / "file").write_text("x")
    for out, message in (
        ("", "argument --out: the path is empty"),
        (" ", "argument --out: the path is empty"),
        (str(tmp_path / "file"), "it is a file"),
        (str(tmp_path / "file" / "page"), f"{tmp_path / 'file'} is a file"),
    ):
        code, err = run_cli(["hand", "T21 T1 EX", "--out", out], capsys)
        assert code == 2 and message in err, err
        code, err = run_cli(["report", str(small_run), "--out", out], capsys)
        assert code == 2 and ("is a file" in err if out.strip() else message in err), err
    for command in (["simulate", "--deals", "10"], ["trace", "--deals", "2"], ["deal"]):
        code, err = run_cli([*command, "--out", ""], capsys)
        assert code == 2 and "argument --out: the path is empty" in err


def test_resuming_with_another_version_needs_the_option(capsys, small_run, tmp_path, monkeypatch):
    import shutil

    import tarotsim._version

    run = tmp_path / "run"
    shutil.copytree(small_run, run)
    argv = [
        "simulate",
        "--deals",
        "2000",
        "--chunk-deals",
        "1000",
        "--seed",
        "3",
        "--out",
        str(run),
        "--quiet",
    ]
    monkeypatch.setattr(tarotsim._version, "__version__", "0.0.9")
    code, err = run_cli(argv, capsys)
    assert code == 2 and "--allow-version-change" in err
    assert main([*argv, "--allow-version-change"]) == 0
    assert "version_changes" in (run / "manifest.json").read_text()


def test_reading_commands_on_a_dask_cluster_print_what_they_print_here(capsys, small_run, tmp_path):
    distributed = pytest.importorskip("distributed")
    commands = [
        ["table", str(small_run)],
        ["thresholds", str(small_run), "--min-n", "10"],
        ["compare", str(small_run), str(small_run)],
    ]
    here = []
    for argv in commands:
        assert main(argv) == 0
        here.append(capsys.readouterr().out)
    assert "Trump length at which each contract is made 50% of the time" in here[1]
    assert "Smallest" not in here[1]
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as cluster:
        for argv, expected in zip(commands, here, strict=True):
            assert main([*argv, "--scheduler", cluster.scheduler_address]) == 0
            assert capsys.readouterr().out == expected
        out = tmp_path / "report"
        assert (
            main(["report", str(small_run), "--out", str(out), "--scheduler", cluster.scheduler_address]) == 0
        )
        assert (out / "report.html").is_file()


HEAVY_MODULES = ("numba", "pandas", "scipy", "matplotlib", "statsmodels", "pyarrow")


@pytest.mark.parametrize("argv", [[], ["--help"], *([name, "--help"] for name, _, _ in COMMANDS)])
def test_help_and_the_parser_import_neither_numba_nor_pandas(argv):
    """The parser, ``tarotsim --help`` and every command's help start without the engine (the
    defaults they show come from ``tarotsim.base.defaults``, ``engine.kernels.constants`` and the registries)."""
    code = (
        "import sys\n"
        "from tarotsim.cli import build_parser, main\n"
        "build_parser()\n"
        f"try:\n    main({argv!r}) if {bool(argv)!r} else None\nexcept SystemExit:\n    pass\n"
        f"print(sorted(m for m in {HEAVY_MODULES!r} if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_help_says_what_the_first_run_compiles_and_for_how_long():
    from tarotsim.cli import build_parser
    from tarotsim.runs.compiling import RUN_COMPILES

    shown = " ".join(build_parser().format_help().split())
    for what, how_long in RUN_COMPILES.values():
        assert f"compiles {what} once, about {how_long}" in shown or f"and {what} on the first run" in shown
        assert f"about {how_long}" in shown
    assert "--quiet hides it" in shown and "reports/compile.md" in shown


def test_every_command_gets_its_options_once_named(capsys):
    from tarotsim.cli import COMMANDS, build_parser

    for name, _module, _summary in COMMANDS:
        with pytest.raises(SystemExit) as exit_info:
            build_parser().parse_args([name, "--help"])
        assert exit_info.value.code == 0
        shown = capsys.readouterr().out
        assert shown.startswith(f"usage: tarotsim {name} ") and "--" in shown
    listing = build_parser().format_help().splitlines()
    listed = [line.split()[0] for line in listing if line.startswith("    ") and not line[4].isspace()]
    assert listed == [name for name, _, _ in COMMANDS]
