"""The layout's promises: one home for each name and file format, no oversized module, and every
file and module the documentation names exists (the layers and the import graph: ``test_layers.py``)."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

from tarotsim.engine.labels import CONTRACTS

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
        module_name(path)
        for path in MODULES
        for text in [path.read_text(encoding="utf-8")]
        if any(name in string_constants(text) for name in CONTRACTS)
        or any(name in text for name in CONTRACTS if "_" in name)
    }
    assert spelt == {"tarotsim.engine.labels"}


def test_manifest_file_is_named_by_the_run_store_only() -> None:
    naming = {
        module_name(p) for p in MODULES if "manifest.json" in string_constants(p.read_text(encoding="utf-8"))
    }
    assert naming == {"tarotsim.runs.manifest"}


def module_name(path: Path) -> str:
    """``tarotsim/runs/store.py`` → ``tarotsim.runs.store``; a package's ``__init__.py`` is the package."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULE_FILES: dict[str, Path] = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
"""The documentation whose named paths must exist; the docstrings of every module of the
package, of ``tests/`` and of ``benchmarks/`` are read too."""
NAMED_PATH = re.compile(r"`((?:tarotsim|docs|benchmarks|reports|examples)/[^`\s]*)`")
"""A backticked path in the repository: ``tarotsim/runs/store.py``, ``reports/``, ``docs/rules.md``."""
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
    assert _path_exists("tarotsim/bench/stages.py") and not _path_exists("tarotsim/engine/kernels/stages.py")
    assert _module_exists("tarotsim.bench.timing.median_interval")
    assert _module_exists("tarotsim.simulate") and _module_exists("tarotsim.Strategy")
    assert not _module_exists("tarotsim.bench.median_interval")  # a name moved to bench.timing
    assert not _module_exists("tarotsim.engine.kernels.stages")
