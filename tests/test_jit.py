"""Compiled-code caching: each kernel module's cache is stamped with its own source and the
sources of the modules it imports, so an edit recompiles only the kernels that depend on it.
And Numba's inliner, whose copies of a function the project makes linear in its size
without changing the code they make."""

import ast
import copy
import re

import numba
import numpy as np
from numba.core import inline_closurecall
from numba.core.compiler import run_frontend

from tarotsim import _jit
from tarotsim.engine.kernels import bits
from tarotsim.players.kernels import seats as game
from tarotsim.players.kernels.policies import heuristic
from tarotsim.runs.kernels import batch

SOURCES = {
    "pkg.__init__": "",
    "pkg._jit": "OPTIONS = 1\n",
    "pkg.low": "from pkg._jit import OPTIONS\nX = 1\n",
    "pkg.mid": "from pkg.low import X\n",
    "pkg.sub.__init__": "",
    "pkg.sub.leaf": "from .. import low\n",
    "pkg.sub.top": "from pkg.sub import leaf\nfrom . import leaf as again\ndef f():\n    import pkg.mid\n",
    "pkg.other": "import numpy\nfrom pkg._jit import OPTIONS\n",
    "pkg.quoted": '"""Made by\nimport pkg.other\n"""\nfrom pkg import low\n',
}


def stamps(sources):
    return {name: _jit.module_stamp(name, sources) for name in sources}


def test_a_stamp_follows_the_modules_imported_and_only_those():
    before = stamps(SOURCES)
    low = stamps({**SOURCES, "pkg.low": SOURCES["pkg.low"] + "Y = 2\n"})
    changed = {name for name in SOURCES if low[name] != before[name]}
    assert changed == {"pkg.low", "pkg.mid", "pkg.sub.leaf", "pkg.sub.top", "pkg.quoted"}
    other = stamps({**SOURCES, "pkg.other": SOURCES["pkg.other"] + "Z = 3\n"})
    changed = {name for name in SOURCES if other[name] != before[name]}
    assert changed == {"pkg.other", "pkg.quoted"}  # an import-like line in a string counts: harmless
    options = stamps({**SOURCES, "pkg._jit": "OPTIONS = 2\n"})
    assert {name for name in SOURCES if options[name] != before[name]} == set(SOURCES) - {
        "pkg.__init__",
        "pkg.sub.__init__",
    }


def test_relative_and_function_level_imports_are_followed():
    modules = SOURCES.keys()
    assert _jit.imported_modules("pkg.sub.top", SOURCES["pkg.sub.top"], modules) == {
        "pkg.sub.leaf",
        "pkg.mid",
    }
    assert _jit.imported_modules("pkg.sub.leaf", SOURCES["pkg.sub.leaf"], modules) == {"pkg.low"}
    assert _jit.imported_modules("pkg.other", SOURCES["pkg.other"], modules) == {"pkg._jit"}


def full_parse_imports(module, source, modules):
    """The same graph from a parse of the whole module: the reference for the fast scan."""
    package = module.removesuffix(".__init__") if module.endswith(".__init__") else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                anchor = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{anchor}.{base}" if base else anchor
            names = [
                f"{base}.{a.name}" if _jit._known(f"{base}.{a.name}", modules) else base for a in node.names
            ]
        else:
            continue
        found |= {known for name in names if (known := _jit._known(name, modules))}
    return found - {module}


def test_the_fast_scan_finds_every_import_of_the_package():
    sources = _jit._package_sources()
    for module, source in sources.items():
        assert _jit.imported_modules(module, source, sources.keys()) >= full_parse_imports(
            module, source, sources.keys()
        ), module


def test_kernel_caches_carry_their_module_stamp():
    for kernel in (batch.play_block, game.gather_pack, heuristic.heuristic_card, bits.popcount):
        locator = kernel._cache._impl._locator
        assert type(locator).__name__.startswith("Tarotsim")
        assert locator.get_source_stamp() == _jit.source_stamp(kernel.py_func.__code__.co_filename)
    assert _jit.source_stamp(batch.__file__) != _jit.source_stamp(heuristic.__file__)


def test_the_game_depends_on_the_policies_and_a_policy_not_on_the_game():
    graph: dict[str, set[str]] = {}
    sources = _jit._package_sources()
    _jit.module_stamp("tarotsim.runs.kernels.batch", sources, graph=graph)
    reached = set(graph)
    assert "tarotsim.players.kernels.policies.heuristic" in reached
    assert "tarotsim.players.kernels.search.pimc" in reached
    graph.clear()
    _jit.module_stamp("tarotsim.players.kernels.policies.heuristic", sources, graph=graph)
    assert not {
        "tarotsim.players.kernels.seats",
        "tarotsim.runs.kernels.batch",
        "tarotsim.players.kernels.search.pimc",
    } & set(graph)


def _inlined_callee(xs, k):
    total = 0
    for i in range(xs.shape[0]):
        if xs[i] > k:
            total += xs[i] - k
        elif xs[i] == k:
            total -= 1
    return total


def _copies(function_ir):
    copier = inline_closurecall.copy
    return {label: copier.deepcopy(block) for label, block in function_ir.blocks.items()}


def test_numba_inliner_copies_a_function_once_with_one_scope():
    assert isinstance(inline_closurecall.copy, _jit._InlineCopier)
    function_ir = run_frontend(_inlined_callee)
    first, again = _copies(function_ir), _copies(function_ir)
    scopes = {id(block.scope) for block in first.values()}
    assert len(scopes) == 1  # one scope for the function, as in the original
    assert scopes.isdisjoint({id(block.scope) for block in function_ir.blocks.values()})
    assert scopes.isdisjoint({id(block.scope) for block in again.values()})  # a new copy each time
    for label, block in function_ir.blocks.items():
        assert str(first[label]) == str(block) and first[label] is not block
        assert all(a is not b for a, b in zip(first[label].body, again[label].body, strict=True))


def _caller_llvm(copier):
    saved = inline_closurecall.copy
    inline_closurecall.copy = copier
    try:
        callee = numba.njit(inline="always")(_inlined_callee)
        caller = numba.njit(lambda xs: callee(xs, 3) + callee(xs, 5))
        assert caller(np.arange(10)) == (21 - 1) + (10 - 1)
        text = caller.inspect_llvm(caller.signatures[0])
    finally:
        inline_closurecall.copy = saved
    for serial_number in (r"B\d+v\d+B", r"\bB\d+\b", r"_v\d+_"):  # of functions, blocks, inlined variables
        text = re.sub(serial_number, "#", text)
    return re.sub(" +", " ", text)  # and the labels' padding


def test_numba_inliner_makes_the_same_code_with_the_shared_copies():
    assert _caller_llvm(inline_closurecall.copy) == _caller_llvm(copy)
