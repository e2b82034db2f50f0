"""The compile notice: said once, before compiling, only when the kernel is not cached."""

import importlib.util
import io
import sys

import numba
import numpy as np
import pytest

import tarotsim
from tarotsim._jit import is_compiled
from tarotsim.base import notices
from tarotsim.base.notices import compile_first, compile_notices
from tarotsim.base.seeding import run_key
from tarotsim.cli import main
from tarotsim.engine.kernels.state import N_REC
from tarotsim.players.config import RunConfig
from tarotsim.runs.compiling import prepare_run
from tarotsim.runs.kernels.batch import no_trace
from tarotsim.runs.runner import config_rows

KERNEL = "import numba\n\n\n@numba.njit(cache=True)\ndef twice(x):\n    return 2 * x\n"


class Terminal(io.StringIO):
    def isatty(self):
        return True


def load_kernel(path, name):
    """A fresh dispatcher of the kernel in ``path`` (a new module each time, as in a new process)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.twice


@pytest.fixture
def kernel_file(tmp_path, monkeypatch):
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")  # the cache beside the file, in tmp_path
    path = tmp_path / "tiny_kernel.py"
    path.write_text(KERNEL)
    yield path
    sys.modules.pop("tiny_kernel", None)


def test_a_cold_kernel_is_announced_compiled_then_found_in_the_cache(kernel_file):
    twice = load_kernel(kernel_file, "tiny_kernel_a")
    assert not is_compiled(twice, (3,))
    stream = io.StringIO()
    assert compile_first(twice, (3,), "the tiny kernel", "a moment", stream)
    assert stream.getvalue() == (
        "tarotsim: compiling the tiny kernel for this machine, once: about a moment "
        "(later runs load it from the cache in seconds)\n"
    )
    assert is_compiled(twice, (3,)) and not is_compiled(twice, (3.5,))
    assert twice(3) == 6 and len(twice.overloads) == 1  # the call found what was compiled
    again = load_kernel(kernel_file, "tiny_kernel_b")  # as a later process would
    assert is_compiled(again, (3,))
    stream = io.StringIO()
    assert not compile_first(again, (3,), "the tiny kernel", "a moment", stream)
    assert stream.getvalue() == ""
    kernel_file.write_text(KERNEL + "\n# edited\n")
    assert not is_compiled(load_kernel(kernel_file, "tiny_kernel_c"), (3,))  # a stale cache


def test_a_terminal_sees_the_time_elapsed(kernel_file):
    terminal = Terminal()
    assert compile_first(
        load_kernel(kernel_file, "tiny_kernel_d"), (3,), "the tiny kernel", "a moment", terminal
    )
    first, rest = terminal.getvalue().split("\n", 1)
    assert first.startswith("tarotsim: compiling the tiny kernel")
    assert rest.endswith("\n") and "\rcompiled in 0:" in rest


def test_the_outermost_block_decides_whether_the_notice_is_shown(kernel_file):
    assert notices.notices_shown()
    with compile_notices(False):
        with compile_notices(True):  # an API call's progress=None inside a --quiet command
            assert not notices.notices_shown()
            stream = io.StringIO()
            twice = load_kernel(kernel_file, "tiny_kernel_e")
            assert compile_first(twice, (3,), "the tiny kernel", "a moment", stream)
            assert stream.getvalue() == "" and is_compiled(twice, (3,))
    with compile_notices(True):
        assert notices.notices_shown()
    assert notices.notices_shown()


def test_a_kernel_without_a_cache_is_never_called_compiled():
    twice = numba.njit(lambda x: 2 * x)
    assert not is_compiled(twice, (3,))
    twice(3)
    assert is_compiled(twice, (3,))


def test_the_compiled_game_is_found_with_the_arguments_a_run_passes(compiled_game, capsys):
    cfgs = config_rows(RunConfig(policy="heuristic").to_array())
    logs, masks = no_trace()
    out = np.zeros((5, N_REC), dtype=np.int32)
    assert not prepare_run(7, run_key(3), cfgs, out, logs, masks, None)
    tarotsim.simulate(10, seed=1)
    assert capsys.readouterr().err == ""


@pytest.fixture
def cold(monkeypatch, compiled_game):
    """As if the game were not in the cache (it is: nothing is compiled for minutes)."""
    monkeypatch.setattr(notices, "is_compiled", lambda kernel, args: False)


def test_the_api_and_the_command_line_announce_a_compile_unless_quiet(cold, capsys):
    notice = "tarotsim: compiling the game (every policy that does not search) for this machine, once: about"
    tarotsim.simulate(10, seed=1)
    assert capsys.readouterr().err.startswith(notice)
    tarotsim.simulate(10, seed=1, progress=False)
    assert capsys.readouterr().err == ""
    assert main(["simulate", "--deals", "10", "--seed", "1", "--quiet"]) == 0
    assert capsys.readouterr().err == ""
    assert main(["simulate", "--deals", "10", "--seed", "1"]) == 0
    assert capsys.readouterr().err.startswith(notice)
