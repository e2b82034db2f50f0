"""The layers of the package (docs/architecture.md): every import goes to the same or a lower
layer, and no module imports itself back, however it imports.

The layer table has one home, the table under "The layers" in ``docs/architecture.md``; this
test reads it. An edge of the import graph is every ``import`` of a module of the package: at
the top of a module, inside a function (an import made lazily still ties the two modules
together: one cannot be read, moved or tested without the other) and under
``if TYPE_CHECKING:`` (the annotations still name the other module), and a module imported by
its name (``importlib.import_module("tarotsim.cli.common")``, ``__import__``: the name as a
string, or an f-string's leading text, ``f"tarotsim.cli.{name}"``). ``from package import
name`` is an edge to the submodule ``package.name`` when there is one, else to the package.
Importing a module runs its parent packages' ``__init__`` too; those implicit edges are left
out, since every module would otherwise reach ``tarotsim/__init__.py``, which imports the public
API.
"""

from __future__ import annotations

import ast
import re

import pytest

from tests.test_layout import MODULE_FILES, ROOT

ARCHITECTURE = ROOT / "docs" / "architecture.md"
LAYER_ROW = re.compile(r"^\|\s*(\d+)\s*\|\s*([a-z]+)\s*\|([^|]*)\|")
"""A row of the layer table: ``| rank | name | `module`, `package` … | what it holds |``."""


def read_layers(text: str) -> list[tuple[str, list[str]]]:
    """The layers of the page ``text``, lowest first: each layer's name and the modules and
    packages it holds (dotted names; a package holds its submodules unless a longer name
    places them elsewhere)."""
    section = text.split("\n## The layers\n", 1)[1].split("\n## ", 1)[0]
    rows = [LAYER_ROW.match(line) for line in section.splitlines()]
    layers = [(int(m[1]), m[2], re.findall(r"`([\w.]+)`", m[3])) for m in rows if m]
    assert [rank for rank, _, _ in layers] == list(range(len(layers))), (
        "layers are numbered 0, 1, 2 … in order"
    )
    return [(name, names) for _, name, names in layers]


LAYERS = read_layers(ARCHITECTURE.read_text(encoding="utf-8"))


def layer_of(module: str, layers: list[tuple[str, list[str]]] = LAYERS) -> int | None:
    """The rank of ``module``'s layer: that of the longest name of the table that is the
    module or one of its packages; None when no name of the table holds it."""
    best: tuple[int, int] | None = None
    for rank, (_, names) in enumerate(layers):
        for name in names:
            if (module == name or module.startswith(name + ".")) and (best is None or len(name) > best[1]):
                best = (rank, len(name))
    return None if best is None else best[0]


def _imports(node: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement under ``node``, at any depth: in functions and under
    ``if TYPE_CHECKING:`` too."""
    return [child for child in ast.walk(node) if isinstance(child, ast.Import | ast.ImportFrom)]


DYNAMIC_IMPORTS = {"import_module", "__import__"}
"""The functions that import a module by its name: ``importlib.import_module``, ``__import__``."""


def _deepest_module(dotted: str) -> str | None:
    """The longest module of the package that is ``dotted`` or one of its packages."""
    while dotted and dotted not in MODULE_FILES:
        dotted = dotted.rpartition(".")[0]
    return dotted or None


def _imported_by_name(tree: ast.AST) -> set[str]:
    """The modules of the package that ``tree`` imports by name: the string given to
    ``import_module`` or ``__import__``, or the leading text of an f-string (its module is the
    deepest one that text names: ``f"tarotsim.cli.{name}"`` is ``tarotsim.cli``)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        func = node.func
        called = (
            func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        )
        if called not in DYNAMIC_IMPORTS:
            continue
        arg = node.args[0]
        if isinstance(arg, ast.JoinedStr):
            lead = arg.values[0] if arg.values else None
            text = lead.value if isinstance(lead, ast.Constant) and isinstance(lead.value, str) else ""
            text = text.rstrip(".")
        elif isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            text = arg.value
        else:
            continue
        if (module := _deepest_module(text)) is not None:
            found.add(module)
    return found


def imported_modules(name: str, source: str | None = None) -> set[str]:
    """The modules of the package that module ``name`` imports, however it imports them."""
    path = MODULE_FILES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    edges: set[str] = set()
    tree = ast.parse(source if source is not None else path.read_text(encoding="utf-8"))
    for node in _imports(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:  # import a.b.c: the deepest module
                edges.update(target for target in [_deepest_module(alias.name)] if target)
            continue
        if node.level:
            base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            base = f"{base}.{node.module}" if node.module else base
        else:
            base = node.module or ""
        for alias in node.names:
            if f"{base}.{alias.name}" in MODULE_FILES:
                edges.add(f"{base}.{alias.name}")
            elif base in MODULE_FILES:
                edges.add(base)
    edges |= _imported_by_name(tree)
    edges.discard(name)
    return edges


GRAPH = {name: imported_modules(name) for name in MODULE_FILES}


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph``: each strongly connected set of two modules or more
    (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(cycles)


def up_layer_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every edge of ``graph`` that goes to a higher layer, as ``a (layer) -> b (layer)``."""
    found = []
    for name, targets in sorted(graph.items()):
        mine = layer_of(name)
        for target in sorted(targets):
            theirs = layer_of(target)
            if mine is not None and theirs is not None and theirs > mine:
                found.append(f"{name} ({LAYERS[mine][0]}) -> {target} ({LAYERS[theirs][0]})")
    return found


def test_every_module_has_one_layer_and_every_name_of_the_table_exists():
    assert [name for name in MODULE_FILES if layer_of(name) is None] == [], "add them to docs/architecture.md"
    named = [name for _, names in LAYERS for name in names]
    assert sorted(n for n in set(named) if named.count(n) > 1) == [], "a name in two layers"
    assert [n for n in named if n not in MODULE_FILES] == [], "the table names a module that does not exist"


def test_no_import_runs_up_a_layer():
    assert up_layer_imports(GRAPH) == []


def test_no_module_of_the_package_imports_itself_back():
    assert import_cycles(GRAPH) == []


def test_the_cycle_finder_finds_a_circle_and_only_circles():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert import_cycles(graph) == [["a", "b", "c"]]
    assert import_cycles({"a": {"b"}, "b": set()}) == []


def test_lazy_relative_and_type_checking_imports_are_all_edges():
    assert "tarotsim.base.seeding" in GRAPH["tarotsim.cli.running"]  # inside cmd_simulate
    assert "tarotsim.players.strategy" in GRAPH["tarotsim.cli.common"]  # inside its functions
    tree = ast.parse(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import a\nelse:\n    import b\n"
        "def f():\n    import c\n"
    )
    assert sorted(alias.name for node in _imports(tree) for alias in node.names) == [
        "TYPE_CHECKING",
        "a",
        "b",
        "c",
    ]
    source = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from tarotsim.cli import common\n"
    assert imported_modules("tarotsim.engine.cards", source) == {"tarotsim.cli.common"}


def test_a_module_imported_by_its_name_is_an_edge():
    source = (
        "import importlib\nfrom importlib import import_module\n"
        "def f(name):\n"
        "    importlib.import_module('tarotsim.cli.common')\n"
        "    import_module(f'tarotsim.report.{name}')\n"
        "    __import__('tarotsim.contests.duel')\n"
        "    import_module(name)\n"
        "    import_module('numpy')\n"
    )
    assert imported_modules("tarotsim.engine.cards", source) == {
        "tarotsim.cli.common",
        "tarotsim.report",
        "tarotsim.contests.duel",
    }


@pytest.mark.parametrize(
    ("module", "expected"),
    [("a.b.c", 1), ("a.b", 0), ("a.bc", 0), ("a", 0), ("z", None)],
)
def test_a_module_takes_the_layer_of_the_longest_name_that_holds_it(module, expected):
    layers = [("low", ["a"]), ("high", ["a.b.c"])]
    assert layer_of(module, layers) == expected


def test_the_layer_check_finds_an_import_that_runs_up():
    low = next(name for name in MODULE_FILES if layer_of(name) == 0)
    high = next(name for name in MODULE_FILES if layer_of(name) == len(LAYERS) - 1)
    assert up_layer_imports({low: {high}, high: {low}}) == [
        f"{low} ({LAYERS[0][0]}) -> {high} ({LAYERS[-1][0]})"
    ]
