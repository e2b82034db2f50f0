"""The layout's promises: one home for each name and file format, no oversized module, no import
circle, and every file and module the documentation names exists."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

from tarotsim.labels import CONTRACTS

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tarotsim"
MODULES = sorted(PACKAGE.rglob("*.py"))
MAX_CODE_LINES = 600


def code_lines(source: str) -> int:
    """Lines holding code: comments, docstrings and blank lines left out.

    A docstring (the module's, a class's, a function's) is documentation, like a comment, and
    is left out, as ``cloc`` leaves Python docstrings out by default; every other string counts,
    the documentation string under a constant included. A line with code and a comment counts.
    """
    tree = ast.parse(source)
    docstring_lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                if isinstance(body[0].value.value, str):
                    docstring_lines.update(range(body[0].lineno, (body[0].end_lineno or body[0].lineno) + 1))
    lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in (
            tokenize.COMMENT,
            tokenize.NL,
            tokenize.NEWLINE,
            tokenize.INDENT,
            tokenize.DEDENT,
            tokenize.ENDMARKER,
        ):
            continue
        if token.start[0] not in docstring_lines:
            lines.update(range(token.start[0], token.end[0] + 1))
    return len(lines)


def string_constants(source: str) -> set[str]:
    return {
        node.value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }


def test_code_lines_counts_code_only() -> None:
    source = '"""Doc\n\nmore doc."""\n\n# a comment\nx = 1  # trailing\n\n\ndef f():\n    """Doc."""\n    return x\n'
    assert code_lines(source) == 3


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_over_600_lines_of_code(path: Path) -> None:
    assert code_lines(path.read_text(encoding="utf-8")) <= MAX_CODE_LINES


def test_contract_names_are_spelt_in_labels_only() -> None:
    spelt = {
        str(path.relative_to(PACKAGE))
        for path in MODULES
        for text in [path.read_text(encoding="utf-8")]
        if any(name in string_constants(text) for name in CONTRACTS)
        or any(name in text for name in CONTRACTS if "_" in name)
    }
    assert spelt == {"labels.py"}


def test_manifest_file_is_named_by_the_run_store_only() -> None:
    naming = {
        str(p.relative_to(PACKAGE))
        for p in MODULES
        if "manifest.json" in string_constants(p.read_text(encoding="utf-8"))
    }
    assert naming == {"run/manifest.py"}


def test_readme_package_map_matches_the_tree() -> None:
    readme = (PACKAGE.parent / "docs" / "tasks" / "own-player.md").read_text(encoding="utf-8")
    section = readme.split("## How it works", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `tarotsim/")]
    named = {part.strip("`/ ") for row in rows for part in row.split("|")[1].split(",")}
    for name in named:
        path = name if name.startswith("tarotsim") else f"tarotsim/{name}"
        assert (PACKAGE.parent / path).exists(), f"README's package map names {path}, which does not exist"
    packages = {str(p.parent.relative_to(PACKAGE.parent)) for p in PACKAGE.rglob("__init__.py")} - {
        "tarotsim"
    }
    assert packages <= {n.rstrip("/") for n in named}, "a package of tarotsim is missing from README's map"


def module_name(path: Path) -> str:
    """``tarotsim/run/store.py`` → ``tarotsim.run.store``; a package's ``__init__.py`` is the package."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULE_FILES: dict[str, Path] = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(node: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement under ``node``, at any depth (inside functions too), except those
    in the body of an ``if TYPE_CHECKING:``, which never run."""
    found: list[ast.Import | ast.ImportFrom] = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            for other in child.orelse:
                found += _imports(other) if not isinstance(other, ast.Import | ast.ImportFrom) else [other]
            continue
        if isinstance(child, ast.Import | ast.ImportFrom):
            found.append(child)
        else:
            found += _imports(child)
    return found


def imported_modules(name: str) -> set[str]:
    """The modules of the package that module ``name`` imports, at its top or inside a function."""
    path = MODULE_FILES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    edges: set[str] = set()
    for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            edges.update(alias.name for alias in node.names if alias.name in MODULE_FILES)
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
    edges.discard(name)
    return edges


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


def test_no_module_of_the_package_imports_itself_back():
    """No import circle anywhere in ``tarotsim``.

    An edge is every ``import`` of a module of the package, at the top of a module or inside a
    function: an import made lazily inside a function still ties the two modules together (one
    cannot be read, moved or tested without the other), so it counts. Imports under
    ``if TYPE_CHECKING:`` never run and do not count. ``from package import name`` is an edge to
    the submodule ``package.name`` when there is one, else to the package. Importing a module
    runs its parent packages' ``__init__`` too; those implicit edges are left out, since every
    module would otherwise reach ``tarotsim/__init__.py``, which imports the public API.
    """
    graph = {name: imported_modules(name) for name in MODULE_FILES}
    assert import_cycles(graph) == []


def test_the_cycle_finder_finds_a_circle_and_only_circles():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert import_cycles(graph) == [["a", "b", "c"]]
    assert import_cycles({"a": {"b"}, "b": set()}) == []


def test_lazy_and_relative_imports_are_edges_and_type_checking_ones_are_not():
    assert "tarotsim.simulate" in imported_modules("tarotsim.cli.running")  # inside cmd_simulate
    assert "tarotsim.strategy" in imported_modules("tarotsim.cli.common")  # inside its functions
    tree = ast.parse(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import a\nelse:\n    import b\n"
        "def f():\n    import c\n"
    )
    assert sorted(alias.name for node in _imports(tree) for alias in node.names) == [
        "TYPE_CHECKING",
        "b",
        "c",
    ]


DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
"""The documentation whose named paths must exist; the docstrings of every module of the
package, of ``tests/`` and of ``benchmarks/`` are read too."""
NAMED_PATH = re.compile(r"`((?:tarotsim|docs|benchmarks|reports|examples)/[^`\s]*)`")
"""A backticked path in the repository: ``tarotsim/run/store.py``, ``reports/``, ``docs/rules.md``."""
NAMED_MODULE = re.compile(r"\btarotsim(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
"""A dotted name under ``tarotsim``: a module, or a name one defines (in ``tarotsim.cli:main``,
the module ``tarotsim.cli``)."""


def _docstrings(path: Path) -> list[str]:
    """The docstrings of a Python file (module, classes, functions, documented constants)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.value.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    ]


def named_in_the_documentation() -> list[tuple[str, str]]:
    """(where, text) of every document and docstring read for named paths and modules."""
    texts = [(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")) for path in DOCUMENTS]
    for folder in ("tarotsim", "tests", "benchmarks", "examples"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            texts += [(str(path.relative_to(ROOT)), text) for text in _docstrings(path)]
    return texts


def defined_names(name: str) -> set[str]:
    """The names module ``name`` defines at its top: functions, classes, assignments, imports,
    and the names its ``__all__`` lists (which a module ``__getattr__`` may import on use)."""
    names: set[str] = set()
    for node in ast.parse(MODULE_FILES[name].read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.List | ast.Tuple):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(target, ast.Name) and target.id == "__all__" for target in targets):
                names.update(
                    e.value
                    for e in node.value.elts
                    if isinstance(e, ast.Constant) and isinstance(e.value, str)
                )
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(target.id for target in targets if isinstance(target, ast.Name))
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return names


def _module_exists(dotted: str) -> bool:
    """Whether ``dotted`` is a module of the package, or a name that one defines
    (``tarotsim.simulate``, ``tarotsim.bench.timing.machine``, ``tarotsim.Strategy.parse``)."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        module = ".".join(parts[:end])
        if module in MODULE_FILES:
            return end == len(parts) or parts[end] in defined_names(module)
    return False


def _path_exists(named: str) -> bool:
    """Whether a named path exists; ``name.*`` and ``{a,b}`` read as patterns, a trailing
    ``:line`` or ``::test`` is dropped."""
    named = named.split("::")[0].rstrip(".,;:")
    named = re.sub(r":\d+(-\d+)?$", "", named)
    if any(mark in named for mark in "*?[{"):
        return any(ROOT.glob(named.replace("{", "*").replace("}", "*")))
    return (ROOT / named).exists()


def test_every_path_and_module_named_in_the_documentation_exists():
    missing = []
    for where, text in named_in_the_documentation():
        missing += [f"{where}: {named}" for named in NAMED_PATH.findall(text) if not _path_exists(named)]
        missing += [
            f"{where}: {dotted}" for dotted in NAMED_MODULE.findall(text) if not _module_exists(dotted)
        ]
    assert missing == []


def test_the_documentation_check_tells_a_stale_name_from_a_live_one():
    assert NAMED_PATH.findall("see ``tarotsim/bench/stages.py`` and `reports/` or tests/x.py") == [
        "tarotsim/bench/stages.py",
        "reports/",
    ]
    assert _path_exists("tarotsim/bench/stages.py") and not _path_exists("tarotsim/kernels/stages.py")
    assert _module_exists("tarotsim.bench.timing.median_interval")
    assert _module_exists("tarotsim.simulate") and _module_exists("tarotsim.Strategy")
    assert not _module_exists("tarotsim.bench.median_interval")  # a name moved to bench.timing
    assert not _module_exists("tarotsim.kernels.stages")
