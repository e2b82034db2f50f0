"""The layout's promises: one home for each name and file format, no oversized module."""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

import pytest

from tarotsim.labels import CONTRACTS

PACKAGE = Path(__file__).resolve().parent.parent / "tarotsim"
MODULES = sorted(PACKAGE.rglob("*.py"))
MAX_CODE_LINES = 600


def code_lines(source: str) -> int:
    """Lines holding code: comments, docstrings and blank lines left out."""
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
    readme = (PACKAGE.parent / "README.md").read_text(encoding="utf-8")
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
