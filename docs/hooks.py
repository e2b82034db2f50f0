"""MkDocs hooks: the pages made from the code, so that they cannot drift from it.

- ``cli.md``: the command-line reference, from the argument parser itself
  (`tarotsim.cli.build_parser`), one section per command with its ``--help``;
- the committed reports of ``reports/`` are added to the site, so that the guide links to
  them (with their figures) by relative path.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
CLI_MARK = "<!-- cli-reference -->"
HELP_WIDTH = "80"


def cli_reference() -> str:
    """Every command of ``tarotsim``: its one-line help and its whole ``--help``, in parser order."""
    from tarotsim.cli import build_parser

    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = HELP_WIDTH  # argparse wraps at the terminal width: fix it
    try:
        parser = build_parser()
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        helps = {a.dest: a.help for a in sub._choices_actions}
        out = ["## tarotsim", "", "```text", parser.format_help().rstrip(), "```", ""]
        for name, command in sub.choices.items():
            out += [f"## tarotsim {name}", "", f"{(helps.get(name) or '').capitalize()}.", ""]
            out += ["```text", command.format_help().rstrip(), "```", ""]
    finally:
        if before is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = before
    return "\n".join(out)


def on_page_markdown(markdown: str, page, config, files) -> str:  # noqa: ANN001 (MkDocs' hook)
    if CLI_MARK in markdown:
        markdown = markdown.replace(CLI_MARK, cli_reference())
    return markdown


def on_files(files: Files, config) -> Files:  # noqa: ANN001 (MkDocs' hook)
    """Add the committed reports (Markdown pages and their figures) under ``reports/``."""
    for path in sorted((ROOT / "reports").rglob("*")):
        if path.name == "README.md":
            continue
        if path.is_file() and path.suffix in (".md", ".png", ".csv", ".json", ".html"):
            uri = path.relative_to(ROOT).as_posix()
            if path.suffix == ".html" or path.name == "manifest.json":
                continue
            files.append(
                File(
                    uri,
                    src_dir=str(ROOT),
                    dest_dir=config["site_dir"],
                    use_directory_urls=config["use_directory_urls"],
                )
            )
    return files
