"""The one place that sets Numba options for every kernel of tarotsim.

Every kernel is compiled with ``cache=True`` (compiled code is kept on disk next to
the sources, or where ``NUMBA_CACHE_DIR`` says, so a second start skips compilation),
``nogil=True`` and the NumPy error model (no Python exception checks on integer
division). ``TAROTSIM_NO_CACHE=1`` turns the on-disk cache off.

Numba judges a cached function fresh by its own source file only, so a kernel whose
callee changed in another file would silently run the old callee. Every tarotsim
kernel's cache is stamped here with a hash of all the kernel sources instead: any
edit to any of them invalidates every cached kernel.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba
from numba.core import caching

_PACKAGE = Path(__file__).resolve().parent


def _sources_stamp() -> str:
    digest = hashlib.sha256()
    for path in sorted([_PACKAGE / "_jit.py", _PACKAGE / "cards.py", *(_PACKAGE / "kernels").rglob("*.py")]):
        digest.update(path.relative_to(_PACKAGE).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


_STAMP = _sources_stamp()


def _stamped(base: type) -> type:
    """A cache locator like ``base`` for tarotsim's files, stamped with all kernel sources."""

    class Stamped(base):
        def get_source_stamp(self) -> str:
            return _STAMP

        @classmethod
        def from_function(cls, py_func, py_file):
            if not str(Path(py_file).resolve()).startswith(str(_PACKAGE)):
                return None
            return super().from_function(py_func, py_file)

    Stamped.__name__ = f"Tarotsim{base.__name__}"
    return Stamped


def _install_locators() -> None:
    names = ("UserProvidedCacheLocator", "InTreeCacheLocator", "UserWideCacheLocator")
    bases = [getattr(caching, name, None) or getattr(caching, "_" + name, None) for name in names]
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    if impl is None or any(base is None for base in bases):
        return  # an unknown Numba layout: keep Numba's own per-file stamps
    if not any(k.__name__.startswith("Tarotsim") for k in impl._locator_classes):
        impl._locator_classes = [_stamped(base) for base in bases if base is not None] + list(
            impl._locator_classes
        )


_install_locators()

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
