"""The user guide: it builds with warnings as errors, in under a minute, its generated pages
match the code, and the README stays a short front door.

The guide's examples are doctests, collected from ``docs/*.md`` by pytest itself
(``--doctest-glob`` in pyproject.toml).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"

pytest.importorskip("mkdocs", reason="the guide needs the docs extra: pip install -e '.[docs]'")


def _hooks():
    spec = importlib.util.spec_from_file_location("docs_hooks", DOCS / "hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_guide_builds_strict_in_under_a_minute(tmp_path):
    """``mkdocs build --strict``: every page, link and docstring, warnings as errors."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    # the bound is on the build's CPU time: the wall clock of a machine others share says
    # more about them than about the build (13 s wall, 3.5 s CPU at a load of 14 on 2 cores)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert done.returncode == 0, done.stderr[-3000:]
    assert cpu < 60, f"the guide took {cpu:.0f} s of CPU time to build"
    site = tmp_path / "site"
    cli = (site / "cli" / "index.html").read_text(encoding="utf-8")
    assert "<!-- cli-reference -->" not in cli and "tarotsim sweep" in cli
    api = (site / "api" / "index.html").read_text(encoding="utf-8")
    for name in ("simulate", "sweep", "duel", "Strategy", "RunConfig", "write_report"):
        assert name in api
    records = (site / "records" / "index.html").read_text(encoding="utf-8")
    assert "taker_trumps" in records
    # the committed reports the guide links to are part of the site
    assert (site / "reports" / "sweep-10M" / "report" / "index.html").is_file()
    # docstrings cross-reference in Markdown (`[Strategy][tarotsim.players.strategy.Strategy]`), which
    # mkdocstrings renders as links: a Sphinx role would reach the page as raw text
    roles = re.compile(r":(?:class|func|meth|attr|mod|data|exc|obj|const|ref):")
    left = {
        page.relative_to(site).as_posix(): len(roles.findall(page.read_text(encoding="utf-8")))
        for page in site.rglob("*.html")
    }
    assert not {page: n for page, n in left.items() if n}, "Sphinx roles left as text on these pages"
    assert 'class="autorefs autorefs-internal"' in api


def test_the_cli_reference_has_every_command_and_option():
    from tarotsim.cli import build_parser

    text = _hooks().cli_reference()
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, command in sub.choices.items():
        assert f"## tarotsim {name}\n" in text
        for action in command._actions:
            for flag in action.option_strings:
                assert flag in text, (name, flag)


def test_the_guide_never_speaks_of_the_project_s_tracker():
    for page in [*DOCS.rglob("*.md"), README]:
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"\bissues?\b", text, flags=re.I), page


def test_every_guide_page_is_in_the_nav():
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in DOCS.rglob("*.md"):
        assert page.relative_to(DOCS).as_posix() in nav, page


def test_readme_is_a_short_front_door():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    for internal in ("MALLOC", "P_LEARNED", "slot", "DealState", "prange"):
        assert internal not in text, internal
    assert "make run" in text and "make test" in text
    for link in re.findall(r"\]\((docs/[^)#]+)", text):
        assert (ROOT / link).is_file(), link


def test_the_guide_quotes_the_committed_10m_report_exactly():
    """Every figure the thresholds page quotes from reports/sweep-10M is in that report."""
    page = (DOCS / "tasks" / "thresholds.md").read_text(encoding="utf-8")
    quote = page.split("<!-- quoted from reports/sweep-10M/report.md", 1)[1].split("<!-- end of quote -->")[0]
    quote = " ".join(quote.split())
    summary = (ROOT / "reports" / "sweep-10M" / "report.md").read_text(encoding="utf-8")
    summary = summary.split("## Thresholds in trump length")[0]
    # the committed report writes an interval "45.7–46.3"; the guide "45.7 to 46.3"
    summary = re.sub(r"(\d)–(\d)", r"\1 to \2", summary)
    intervals = re.findall(r"\d+(?:\.\d)? \(\d+(?:\.\d)? to \d+(?:\.\d)?\)", quote)
    assert len(intervals) >= 7
    for text in intervals:
        assert text in summary, text
    assert "Prise pays (beats passing) from 46 hand points" in summary and "from 46 hand points" in quote
    assert (
        "Garde sans is the best choice from 68 hand points with the distribution bonus" in summary
        and "from 68 hand points" in quote
    )
    assert (
        "Garde contre is the best choice from 76 hand points with the distribution bonus (a bin edge; resampled 95%: 76 to 78)"
        in summary
    )
    assert "76 (resampled interval 76 to 78)" in quote
    for band in ("published 40", "published 71", "published 81", "published 56"):
        assert band in summary
    for band in ("published 40", "published 71 and 81", "published 56"):
        assert band in quote
    # and the README's few figures: the heuristic's from that report, the search players' from theirs
    readme = " ".join(README.read_text(encoding="utf-8").split())
    searched = " ".join(
        (ROOT / "reports" / name / "report.md").read_text(encoding="utf-8").replace("−", "-")
        for name in ("thresholds-pimc", "thresholds-search")
    )
    figures = re.findall(r"\d+(?:\.\d)? \(\d+(?:\.\d)? to \d+(?:\.\d)?\)", readme)
    assert len(figures) >= 3
    for text in figures:
        assert text in summary or text in searched, text
