"""The report's document: headings, paragraphs, lists, tables and figures, as Markdown and HTML.

A [`Document`][tarotsim.report.document.Document] is a list of blocks. Tables are kept as DataFrames and written straight
to each format from the same text cells ([`tarotsim.analysis.text_table`][tarotsim.analysis.text_table]), so the
Markdown and the HTML show the same numbers. The HTML page is standalone: inline CSS, no
script, figures referenced by relative path. Every table sits in a ``table-wrap`` box that
scrolls sideways on its own and figures shrink to the page, so that the page itself never
scrolls sideways, whatever the width of a table; the viewport tag lets a phone show the
page at its own width.

Tables are shown in words (`tarotsim.report.glossary.readable`): headers say what a
column holds, intervals read ``8.3 to 8.5`` and negative numbers carry a real minus sign.
The document remembers the columns its tables showed, and [`Document.glossary`][tarotsim.report.document.Document.glossary] adds
their entries of `GLOSSARY` as a table.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

import pandas as pd

from tarotsim.analysis.tables import TextTable, text_table
from tarotsim.report.glossary import GLOSSARY, MINUS, glossary_table, readable


class Code(NamedTuple):
    """A span of a paragraph written as code (a policy name, an option)."""

    text: str


class Link(NamedTuple):
    """A link in a paragraph: its text and its target (a relative path or a URL)."""

    text: str
    href: str


Inline = str | Code | Link
"""A piece of a paragraph: plain text, a [`Code`][tarotsim.report.document.Code] span or a [`Link`][tarotsim.report.document.Link]."""


def _inline_markdown(parts: tuple[Inline, ...]) -> str:
    out = []
    for p in parts:
        if isinstance(p, Code):
            out.append(f"`{p.text}`")
        elif isinstance(p, Link):
            out.append(f"[{p.text}]({p.href})")
        else:
            out.append(p)
    return "".join(out)


def _inline_html(parts: tuple[Inline, ...]) -> str:
    out = []
    for p in parts:
        if isinstance(p, Code):
            out.append(f"<code>{html.escape(p.text)}</code>")
        elif isinstance(p, Link):
            out.append(f'<a href="{html.escape(p.href)}">{html.escape(p.text)}</a>')
        else:
            out.append(html.escape(p))
    return "".join(out)


@dataclass(frozen=True)
class Heading:
    """A section heading; `level` 1 is the document's title."""

    level: int
    text: str

    def markdown(self) -> str:
        return "#" * self.level + " " + self.text

    def html(self) -> str:
        return f"<h{self.level}>{html.escape(self.text)}</h{self.level}>"


@dataclass(frozen=True)
class Paragraph:
    """A paragraph of text with code spans."""

    parts: tuple[Inline, ...]

    def markdown(self) -> str:
        return _inline_markdown(self.parts)

    def html(self) -> str:
        return f"<p>{_inline_html(self.parts)}</p>"


@dataclass(frozen=True)
class Bullets:
    """A bulleted list; each item is a run of text, code spans and links."""

    items: tuple[tuple[Inline, ...], ...]

    def markdown(self) -> str:
        return "\n".join("- " + _inline_markdown(item) for item in self.items)

    def html(self) -> str:
        return "<ul>\n" + "\n".join(f"<li>{_inline_html(item)}</li>" for item in self.items) + "\n</ul>"


LONG_CELL = 40
"""Text cells longer than this many characters are set wide in HTML (class ``long``), so that a
table too wide for the page scrolls in its box instead of wrapping notes word by word."""


def _cells(table: TextTable) -> list[list[str]]:
    """The table's cells, a negative number in a numeric column with a real minus sign."""
    return [
        [
            c.replace("-", MINUS, 1) if numeric and c.startswith("-") else c
            for c, numeric in zip(row, table.numeric, strict=True)
        ]
        for row in table.rows
    ]


_ESTIMATE = re.compile(r"^[−+]?[\d,.]+ \([−+]?[\d,.]+ to [−+]?[\d,.]+\)$")
"""A cell holding an estimate and its interval, ``"−39.1 (−41.7 to −36.6)"``: set as a number
in HTML (right-aligned, on one line)."""


def _markdown_cell(text: str) -> str:
    return text.replace("|", "\\|")


@dataclass(frozen=True)
class Table:
    """A DataFrame shown as a table, its index left out, floats written with `floatfmt`."""

    frame: pd.DataFrame
    floatfmt: str = ".3f"

    def markdown(self) -> str:
        table = text_table(self.frame, index=False, floatfmt=self.floatfmt)
        lines = [
            "| " + " | ".join(map(_markdown_cell, table.headers)) + " |",
            "| " + " | ".join("---:" if num else "---" for num in table.numeric) + " |",
        ]
        lines += ["| " + " | ".join(map(_markdown_cell, row)) + " |" for row in _cells(table)]
        return "\n".join(lines)

    def html(self) -> str:
        table = text_table(self.frame, index=False, floatfmt=self.floatfmt)
        out = [
            '<div class="table-wrap">',
            "<table>",
            "<thead><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in table.headers) + "</tr></thead>",
            "<tbody>",
        ]
        for row in _cells(table):
            cells = (
                f'<td class="num">{html.escape(c)}</td>'
                if numeric or _ESTIMATE.match(c)
                else f'<td class="long">{html.escape(c)}</td>'
                if len(c) > LONG_CELL
                else f"<td>{html.escape(c)}</td>"
                for c, numeric in zip(row, table.numeric, strict=True)
            )
            out.append("<tr>" + "".join(cells) + "</tr>")
        out += ["</tbody>", "</table>", "</div>"]
        return "\n".join(out)


@dataclass(frozen=True)
class FigureRef:
    """A figure file beside the document, with its numbered caption and its title (alt text)."""

    file: str
    caption: str
    title: str

    def markdown(self) -> str:
        return f"![{self.title}]({self.file})\n\n*{self.caption}*"

    def html(self) -> str:
        return (
            f'<figure>\n<img src="{html.escape(self.file)}" alt="{html.escape(self.title)}">\n'
            f"<figcaption>{html.escape(self.caption)}</figcaption>\n</figure>"
        )


Block = Heading | Paragraph | Bullets | Table | FigureRef


class Document:
    """The report as a list of blocks, written out as Markdown and as HTML.

    Parameters
    ----------
    title : str
        The HTML page's title (add it as a level-1 [`heading`][tarotsim.report.document.Document.heading] to show it).
    """

    def __init__(self, title: str) -> None:
        self.title = title
        self.blocks: list[Block] = []
        self.figures = 0
        self.columns: list[str] = []

    def heading(self, level: int, text: str) -> None:
        """Add a heading of `level` (1 to 6)."""
        if not 1 <= level <= 6:
            raise ValueError(f"a heading level is 1 to 6, got {level}")
        self.blocks.append(Heading(level, text))

    def paragraph(self, *parts: Inline) -> None:
        """Add a paragraph made of text and [`Code`][tarotsim.report.document.Code] spans, in order."""
        self.blocks.append(Paragraph(parts))

    def bullets(self, *items: tuple[Inline, ...] | str) -> None:
        """Add a bulleted list; an item is a string or a tuple of text, code spans and links."""
        self.blocks.append(
            Bullets(tuple((item,) if isinstance(item, str) else tuple(item) for item in items))
        )

    def table(
        self,
        frame: pd.DataFrame,
        floatfmt: str = ".3f",
        *,
        in_words: bool = False,
        terms: Iterable[object] = (),
    ) -> None:
        """Add `frame` as a table (its index left out; floats written with `floatfmt`).

        Its column names are turned into words (`readable`,
        which also joins each interval into one cell) and remembered for [`glossary`][tarotsim.report.document.Document.glossary],
        unless `in_words` says the frame is written in words already; then the column names
        it shows in words, `terms`, are remembered (those of the glossary among them).
        """
        self.columns += [str(c) for c in terms if str(c) in GLOSSARY]
        if not in_words:
            self.columns += [str(c) for c in frame.columns]
            frame = readable(frame, floatfmt)
        self.blocks.append(Table(frame, floatfmt))

    def glossary(self) -> None:
        """Add the glossary of the columns the document's tables showed (words, meaning, column)."""
        if self.columns:
            self.blocks.append(Table(glossary_table(self.columns)))

    def figure(self, file: str, caption: str, title: str) -> None:
        """Add the figure `file` (a path relative to the document), numbered in order."""
        self.figures += 1
        self.blocks.append(FigureRef(file, f"Figure {self.figures}. {caption}", title))

    def markdown(self) -> str:
        """The document as Markdown (GitHub tables), blocks separated by blank lines."""
        return "\n\n".join(block.markdown() for block in self.blocks) + "\n"

    def html(self) -> str:
        """The document as a standalone HTML page (inline CSS, no script)."""
        return (
            '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(self.title)}</title>\n<style>\n{_CSS}</style>\n</head>\n<body>\n"
            + "\n".join(block.html() for block in self.blocks)
            + "\n</body>\n</html>\n"
        )


_CSS = """\
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; max-width: 1100px;
       margin: 2em auto; padding: 0 1em; color: #222; line-height: 1.45; overflow-wrap: break-word; }
h1, h2 { border-bottom: 1px solid #ddd; padding-bottom: .2em; }
.table-wrap { max-width: 100%; overflow-x: auto; margin: 1em 0; }
table { border-collapse: collapse; font-size: .85em; }
th, td { border: 1px solid #ccc; padding: .25em .6em; }
th { background: #f3f3f3; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.long { min-width: 28em; }
@media (max-width: 600px) {  /* a phone: long text wraps within the page, wide tables still scroll */
  td.long { min-width: 12em; overflow-wrap: anywhere; }
  body { margin: 1em auto; }
}
figure { margin: 1.5em 0; max-width: 100%; }
img { max-width: 100%; height: auto; }
figure img { border: 1px solid #eee; }
figcaption { font-style: italic; font-size: .9em; color: #444; }
code { background: #f3f3f3; padding: 0 .2em; }
"""
