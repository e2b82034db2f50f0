"""The one place that sets Numba options for every kernel of tarotsim.

Every kernel is compiled with ``cache=True`` (compiled code is kept on disk next to
the sources, so a second start skips compilation), ``nogil=True`` and the NumPy error
model (no Python exception checks on integer division). ``TAROTSIM_NO_CACHE=1``
turns the on-disk cache off, which benchmarks use to time a cold compile.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import numba

CACHE = os.environ.get("TAROTSIM_NO_CACHE", "") not in ("1", "true", "yes")

_OPTIONS: dict[str, Any] = {
    "cache": CACHE,
    "nogil": True,
    "error_model": "numpy",
    "boundscheck": False,
}


def njit(func: Callable[..., Any] | None = None, **overrides: Any) -> Any:
    """``numba.njit`` with the project's options; usable as ``@njit`` or ``@njit(parallel=True)``."""
    options = {**_OPTIONS, **overrides}
    if func is None:
        return lambda f: numba.njit(**options)(f)
    return numba.njit(**options)(func)
