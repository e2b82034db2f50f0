"""The one place that sets Numba options for every kernel of tarotsim.

Every kernel is compiled with ``cache=True`` (compiled code is kept on disk next to
the sources, or where ``NUMBA_CACHE_DIR`` says, so a second start skips compilation),
``nogil=True`` and the NumPy error model (no Python exception checks on integer
division). ``TAROTSIM_NO_CACHE=1`` turns the on-disk cache off.

Numba judges a cached function fresh by its own source file only, so a kernel whose
callee changed in another file would silently run the old callee. Every tarotsim
kernel's cache is stamped here instead with a hash of its module's source and of the
sources of every tarotsim module it imports, directly or through others (the import
graph read from the sources with ``ast``), and of this file: an edit to a module
invalidates the cached kernels of the modules that depend on it, and no others.

Small kernels called at every card are inlined by Numba (``inline="always"``): its copy of
the callee's IR, optimised with the caller, makes the fastest code. Numba's copying is
made linear here (``_InlineCopier``; it was quadratic in the callee's size), for every
function this process inlines, the kernels' and a user's alike; the code it makes is the
same.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import os
import re
from collections.abc import Callable, Collection, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from numba.core import caching, inline_closurecall, types
from numba.core import ir as numba_ir
from numba.core.registry import CPUDispatcher

_PACKAGE = Path(__file__).resolve().parent
_ROOT = "tarotsim"
_STAMPED_ENVIRONMENT = ("TAROTSIM_NO_PDEP",)
"""Environment variables the kernels read when they are compiled: part of every stamp."""


_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+\.*[\w.]*[ \t]+import[ \t]*(?:\((?:[^)#]|#[^\n]*)*\)|[^\n]*)|import[ \t]+[^\n]*)",
    re.MULTILINE,
)
"""An import statement at the start of a line, comments inside its parentheses included
(parsing only these is ten times faster than parsing whole modules, which would cost every
start of the kernels a good part of a second)."""


def imported_modules(module: str, source: str, modules: Collection[str]) -> set[str]:
    """The modules of ``modules`` that ``module`` (source text ``source``) imports
    anywhere in its code: for ``from P import N``, ``P.N`` when it is a module, else ``P``.

    Module names are dotted; a package is named ``P.__init__``.
    """
    package = module if module.endswith(".__init__") else module.rpartition(".")[0]
    package = package.removesuffix(".__init__")
    found: set[str] = set()
    for match in _IMPORT.finditer(source):
        try:
            nodes = ast.parse(match.group(0).strip()).body
        except SyntaxError:  # an import-like line inside a string
            continue
        for node in nodes:
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    anchor = ".".join(parts[: len(parts) - node.level + 1])
                    base = f"{anchor}.{base}" if base else anchor
                names = [f"{base}.{alias.name}" for alias in node.names]
                names = [name if _known(name, modules) else base for name in names]
            else:
                continue
            found.update(known for name in names if (known := _known(name, modules)) is not None)
    found.discard(module)
    return found


def _known(name: str, modules: Collection[str]) -> str | None:
    """``name`` as one of ``modules`` (a package as its ``__init__``), or None."""
    if name in modules:
        return name
    if f"{name}.__init__" in modules:
        return f"{name}.__init__"
    return None


def module_stamp(
    module: str, sources: Mapping[str, str], always: str = "", graph: dict[str, set[str]] | None = None
) -> str:
    """The cache stamp of ``module``: a SHA-256 over ``always``, its source and the sources
    of the modules it imports, directly or through others.

    ``sources`` maps dotted module names (a package as ``P.__init__``) to source texts;
    imports of modules not in it are left out. ``graph`` memoises each module's imports
    between calls.
    """
    graph = {} if graph is None else graph
    reached, todo = {module}, [module]
    while todo:
        name = todo.pop()
        if name not in graph:
            graph[name] = imported_modules(name, sources[name], sources.keys())
        for other in graph[name] - reached:
            reached.add(other)
            todo.append(other)
    digest = hashlib.sha256(always.encode())
    for name in sorted(reached):
        digest.update(f"\0{name}\0".encode())
        digest.update(sources[name].encode())
    return digest.hexdigest()


def _module_name(path: Path) -> str:
    parts = path.relative_to(_PACKAGE).with_suffix("").parts
    return ".".join((_ROOT, *parts))


@cache
def _package_sources() -> dict[str, str]:
    return {_module_name(path): path.read_text(encoding="utf-8") for path in _PACKAGE.rglob("*.py")}


_GRAPH: dict[str, set[str]] = {}


@cache
def _always() -> str:
    """What every stamp covers: this file and the environment variables the kernels read."""
    return _package_sources()[f"{_ROOT}._jit"] + "".join(
        f"\0{name}={os.environ.get(name, '')}" for name in _STAMPED_ENVIRONMENT
    )


@cache
def source_stamp(py_file: str) -> str:
    """The cache stamp of the kernels defined in ``py_file``, a file of the package."""
    return module_stamp(_module_name(Path(py_file).resolve()), _package_sources(), _always(), _GRAPH)


def _stamped(base: type) -> type:
    """A cache locator like ``base`` for tarotsim's files, stamped with ``source_stamp``."""

    class Stamped(base):
        def get_source_stamp(self) -> str:
            return source_stamp(self._py_file)

        @classmethod
        def from_function(cls, py_func, py_file):
            if not Path(py_file).resolve().is_relative_to(_PACKAGE):
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


class _InlineCopier:
    """The ``copy`` module as Numba's inliner sees it, except that the deep copies of one
    function's blocks share one memo.

    Numba inlines a kernel marked ``inline="always"`` by copying its IR into each caller
    (``inline_closurecall.InlineWorker.inline_ir``), twice per call site and one block at a
    time, each block by a ``copy.deepcopy`` of its own. Every block refers to the
    function's scope, which holds all its variables, so each block's copy copied the whole
    scope again: blocks × variables per call site, growing with every level inlined into
    the next. It was 45% of the first compile of a heuristic run. Here the blocks of one
    function, copied one after the other, share one memo, so the scope and each variable
    are copied once, as one deep copy of the whole function would: the same IR, a variable
    used in several blocks one object as in the original, and the same compiled code (the
    game's machine code was compared instruction for instruction, ``reports/compile-history.md``).

    A new memo starts with a block of another scope, or with a block already copied under
    the current memo (the same function copied again). Numba compiles under one lock, so
    the copies of two functions never interleave.
    """

    def __init__(self) -> None:
        self._scope: numba_ir.Scope | None = None
        self._copied: dict[int, numba_ir.Block] = {}
        self._memo: dict[int, Any] = {}

    def deepcopy(self, x: Any, memo: dict[int, Any] | None = None) -> Any:
        if memo is not None or not isinstance(x, numba_ir.Block):
            return copy.deepcopy(x, memo)
        if x.scope is not self._scope or id(x) in self._copied:
            self._scope, self._copied, self._memo = x.scope, {}, {}
        self._copied[id(x)] = x  # kept, so that no other block takes its id
        return copy.deepcopy(x, self._memo)

    def __getattr__(self, name: str) -> Any:
        return getattr(copy, name)


def _install_inline_copier() -> None:
    if getattr(inline_closurecall, "copy", None) is copy:
        inline_closurecall.copy = _InlineCopier()  # type: ignore[assignment]  # else Numba's own copies


_install_inline_copier()

CACHE = os.environ.get("TAROTSIM_NO_CACHE", "") not in ("1", "true", "yes")

_OPTIONS: dict[str, Any] = {
    "cache": CACHE,
    "nogil": True,
    "error_model": "numpy",
    "boundscheck": False,
    "no_cfunc_wrapper": True,
}
"""Every kernel's options. No C-callable wrapper (``no_cfunc_wrapper``), which only a
first-class function needs and which cost a sixth of the first compile with the search
players: the project never takes a kernel's address (a user's player is the user's own
``numba.njit`` function)."""


class Kernel(CPUDispatcher):
    """Numba's CPU dispatcher, except that a kernel called from another is compiled for the
    argument types without their constant values (``types.unliteral``).

    Numba types a constant argument (``f(x, True)``, ``n = 0`` before a loop that counts
    it) as a literal type, ``Literal[bool](True)``, and so compiles the callee once more
    for it, next to its ordinary ``bool`` or ``int64`` version: the whole callee typed,
    lowered and linked twice. No kernel here branches on an argument's value at compile
    time (that is what ``None`` arguments are for: ``searching``), so every call shares one
    compiled version per argument type.
    """

    def get_call_template(self, args: Any, kws: Any) -> Any:
        args = tuple(types.unliteral(a) for a in args)
        kws = {name: types.unliteral(a) for name, a in kws.items()}
        return super().get_call_template(args, kws)


def njit(func: Callable[..., Any] | None = None, **overrides: Any) -> Any:
    """``numba.njit`` with the project's options, compiling a ``Kernel``; usable as ``@njit``
    or ``@njit(parallel=True)``."""
    options = {**_OPTIONS, **overrides}
    cache = options.pop("cache")

    def kernel(f: Callable[..., Any]) -> Kernel:
        dispatcher = Kernel(py_func=f, locals={}, targetoptions={**options, "nopython": True})
        if cache:
            dispatcher.enable_caching()
        return dispatcher

    return kernel if func is None else kernel(func)


def is_compiled(kernel: Any, args: tuple[Any, ...]) -> bool:
    """Whether calling ``kernel`` (a dispatcher of ``njit``) with ``args`` runs at once:
    compiled for their types in this process, or found fresh in the on-disk cache.

    False when it must be compiled first, and when Numba's cache layout is not the one
    known here (nothing is then promised).
    """
    try:
        sig = tuple(kernel.typeof_pyval(arg) for arg in args)
        if sig in kernel.overloads:
            return True
        impl = kernel._cache
        if not getattr(impl, "_enabled", False):
            return False
        index = impl._cache_file._load_index()
        name = index.get(impl._index_key(sig, kernel.targetctx.codegen()))
        return name is not None and os.path.exists(os.path.join(impl._cache_path, name))
    except (AttributeError, TypeError, ValueError, OSError):
        return False
