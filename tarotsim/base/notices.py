"""Saying so when a kernel must be compiled first: the compile notice, and whether it is shown.

The kernels are compiled to machine code the first time a machine runs them (and again
after an upgrade or an edit of their sources), then loaded from Numba's on-disk cache in
a second or two. Before a kernel that is not in the cache, ``compile_first`` says on
stderr what is compiled, about how long it takes and that it happens once, compiles it,
and on a terminal shows the time elapsed meanwhile: before a run (``runs.compiling``), and
before the first searching decision of ``Game.ask`` or step of a step-by-step game.

The notice is on by default. ``compile_notices(False)`` hides it inside its block: the
Python API does so for ``progress=False``, the command line for ``--quiet``. The
outermost block decides, so a command's ``--quiet`` holds for the calls it makes.
"""

from __future__ import annotations

import itertools
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TextIO

_NOTICES: ContextVar[bool | None] = ContextVar("tarotsim_compile_notices", default=None)

SEARCH_STEP_COMPILE = (
    "the search players (pimc, the montecarlo bidder) for the step-by-step games "
    "(VecEnv, Python players, PettingZoo)",
    "three to four minutes",
)
"""What is compiled, and about how long it takes on one core of a 2-core machine, for the
step-by-step games with a seat that searches (``interfaces.vecenv.step_games``, ``interfaces.pettingzoo.raw_env``)."""
SEARCH_DECISION_COMPILE = (
    "the search players (pimc, the montecarlo bidder) for one decision (Game.ask, OpenSpiel)",
    "two to three minutes",
)
"""The same for one searching decision asked from an observation (``tarotsim.interfaces.game.decide``)."""

SPIN_SECONDS = 0.25
"""Seconds between updates of the elapsed time on a terminal."""


@contextmanager
def compile_notices(show: bool) -> Iterator[None]:
    """Show (``True``) or hide (``False``) the compile notices of the block (its runs, its
    first searching decisions), unless an enclosing block has decided already."""
    if _NOTICES.get() is not None:
        yield
        return
    token = _NOTICES.set(show)
    try:
        yield
    finally:
        _NOTICES.reset(token)


def is_compiled(kernel: Any, args: tuple[Any, ...]) -> bool:
    """``tarotsim._jit.is_compiled``, imported when first needed: this module is imported
    by the command line, which starts without Numba."""
    from tarotsim._jit import is_compiled as compiled

    return compiled(kernel, args)


def notices_shown() -> bool:
    """Whether a compile notice would be shown here (on unless a block hides it)."""
    return _NOTICES.get() is not False


def _clock(seconds: float) -> str:
    return f"{int(seconds // 60)}:{int(seconds % 60):02d}"


def compile_first(
    kernel: Any, args: tuple[Any, ...], what: str, how_long: str, stream: TextIO | None = None
) -> bool:
    """Compile ``kernel`` (an ``njit`` dispatcher) for the types of ``args`` unless it is
    compiled or cached already, saying so on ``stream`` (default stderr) when notices are
    shown; ``what`` and ``how_long`` fill the notice. Returns whether it compiled.
    """
    if is_compiled(kernel, args):
        return False
    stream = sys.stderr if stream is None else stream
    if not notices_shown():
        kernel.compile(tuple(kernel.typeof_pyval(arg) for arg in args))
        return True
    print(
        f"tarotsim: compiling {what} for this machine, once: about {how_long} "
        "(later runs load it from the cache in seconds)",
        file=stream,
        flush=True,
    )
    started = time.perf_counter()
    done = threading.Event()
    spinner = None
    if stream.isatty():

        def spin() -> None:
            for frame in itertools.cycle("|/-\\"):
                if done.wait(SPIN_SECONDS):
                    return
                stream.write(f"\r{frame} compiling, {_clock(time.perf_counter() - started)} elapsed ")
                stream.flush()

        spinner = threading.Thread(target=spin, name="tarotsim-compile-notice", daemon=True)
        spinner.start()
    try:
        kernel.compile(tuple(kernel.typeof_pyval(arg) for arg in args))
    finally:
        done.set()
        if spinner is not None:
            spinner.join()
            stream.write(f"\rcompiled in {_clock(time.perf_counter() - started)}{' ' * 12}\n")
            stream.flush()
    return True
