"""Tables as text: every cell of a DataFrame formatted once, written out as GitHub Markdown.

[`text_table`][tarotsim.analysis.tables.text_table] decides what each cell reads (floats to a format, whole-number float
columns as integers, missing values blank); [`to_markdown`][tarotsim.analysis.tables.to_markdown] writes that as a Markdown
table, and the report's HTML tables are written from the same [`TextTable`][tarotsim.analysis.tables.TextTable], so both
show the same cells.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import pandas as pd


class TextTable(NamedTuple):
    """A table whose cells are plain text, ready to write in any markup.

    Attributes
    ----------
    headers : tuple of str
        One per column (a tuple column name is joined with ``" / "``).
    numeric : tuple of bool
        One per column: whether it holds numbers (written right-aligned).
    rows : tuple of tuple of str
        One tuple of ``len(headers)`` cells per row, newlines turned into spaces and
        missing values blank; nothing is escaped.
    """

    headers: tuple[str, ...]
    numeric: tuple[bool, ...]
    rows: tuple[tuple[str, ...], ...]


def _cell(value: object, floatfmt: str, integral: bool) -> str:
    if value is None or value is pd.NA or value is pd.NaT:
        return ""
    if isinstance(value, (float, np.floating)):
        if math.isnan(value):
            return ""
        if integral:
            return str(int(value))
        return format(float(value), floatfmt)
    return str(value).replace("\n", " ")


def text_table(
    df: pd.DataFrame | pd.Series,
    *,
    index: bool | None = None,
    floatfmt: str = ".3f",
) -> TextTable:
    """Format every cell of a table as text.

    Parameters
    ----------
    df : pandas.DataFrame or pandas.Series
        The table.
    index : bool, optional
        Whether to write the index as leading column(s). Default: only when it
        is not a plain ``RangeIndex``.
    floatfmt : str, optional
        Format spec for floats (default ``'.3f'``). A float column whose values
        are all whole numbers is written as integers. NaN and None are blank.

    Returns
    -------
    TextTable
        Headers, which columns are numeric (booleans are not), and the cells.

    Raises
    ------
    TypeError
        If `df` is not a DataFrame or a Series.
    ValueError
        If `floatfmt` is not a float format spec.
    """
    if isinstance(df, pd.Series):
        df = df.to_frame()
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"a table must be a pandas DataFrame or Series, got {type(df).__name__}")
    try:
        format(1.5, floatfmt)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"floatfmt {floatfmt!r} is not a valid float format spec") from exc
    if index is None:
        index = not (
            isinstance(df.index, pd.RangeIndex)
            and df.index.start == 0
            and df.index.step == 1
            and df.index.name is None
        )
    frame = df.reset_index() if index else df
    headers = tuple(" / ".join(map(str, c)) if isinstance(c, tuple) else str(c) for c in frame.columns)
    columns = []
    numeric = []
    for i in range(frame.shape[1]):
        col = frame.iloc[:, i]
        floaty = pd.api.types.is_float_dtype(col)
        integral = False
        if floaty:
            finite = col.dropna().to_numpy(dtype=float)
            integral = bool(np.all(np.isfinite(finite)) and np.all(finite == np.round(finite)))
        columns.append([_cell(v, floatfmt, integral) for v in col.tolist()])
        numeric.append(pd.api.types.is_numeric_dtype(col) and not pd.api.types.is_bool_dtype(col))
    rows = tuple(tuple(col[r] for col in columns) for r in range(len(frame)))
    return TextTable(headers, tuple(numeric), rows)


def to_markdown(
    df: pd.DataFrame | pd.Series,
    *,
    index: bool | None = None,
    floatfmt: str = ".3f",
) -> str:
    """Format a table as a GitHub Markdown table (no ``tabulate`` needed).

    Parameters
    ----------
    df : pandas.DataFrame or pandas.Series
        The table.
    index : bool, optional
        Whether to write the index as leading column(s). Default: only when it
        is not a plain ``RangeIndex``.
    floatfmt : str, optional
        Format spec for floats (default ``'.3f'``). A float column whose values
        are all whole numbers is written as integers. NaN and None are blank.

    Returns
    -------
    str
        The table, one line per row, numeric columns right-aligned, ending
        with a newline; ``|`` in a cell is escaped as ``\\|``.
    """
    table = text_table(df, index=index, floatfmt=floatfmt)
    lines = [
        _markdown_row(table.headers),
        "| " + " | ".join("---:" if num else "---" for num in table.numeric) + " |",
    ]
    lines += [_markdown_row(row) for row in table.rows]
    return "\n".join(lines) + "\n"


def _markdown_row(cells: tuple[str, ...]) -> str:
    return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"


MINUS = "\u2212"
"""The minus sign of numbers written for people (``−41.6``, not ``-41.6``)."""
TERMINAL_WIDTH = 100
"""Characters a terminal table fits in unless asked to be wide."""
FORMATS = ("text", "md", "csv", "json")
"""How a command prints a table: aligned text for a terminal (default), Markdown, CSV or JSON."""


def number_text(value: float, fmt: str = ".1f") -> str:
    """``value`` formatted with ``fmt`` and a true minus sign; blank when missing."""
    if value is None or value is pd.NA or (isinstance(value, (float, np.floating)) and math.isnan(value)):
        return ""
    return format(value, fmt).replace("-", MINUS)


def interval_text(low: float, high: float, fmt: str = ".1f") -> str:
    """An interval as people write it: ``−41.6 to −40.8`` (blank when a bound is missing)."""
    a, b = number_text(low, fmt), number_text(high, fmt)
    return f"{a} to {b}" if a and b else ""


def _float_format(values: list[object], floatfmt: str) -> str:
    """``floatfmt``, or one decimal for numbers of 10 and more (scores, points) when it is the default."""
    finite = [abs(float(v)) for v in values if isinstance(v, (int, float, np.number)) and np.isfinite(v)]
    return ".1f" if floatfmt == ".3f" and finite and max(finite) >= 10 else floatfmt


def merge_intervals(df: pd.DataFrame, floatfmt: str = ".3f") -> pd.DataFrame:
    """``df`` for people: each ``X``, ``X_low``, ``X_high`` triple as one text column ``X (95%)``.

    The cell reads ``0.431 (0.412 to 0.455)``; a ``X_low``/``X_high`` pair without ``X``
    becomes ``X 95%``: ``0.412 to 0.455``. Other float columns are written as text too;
    numbers take a true minus sign, and one decimal when they reach 10 (with the default
    ``floatfmt``). Returns text (and integer) columns.
    """
    columns = [str(c) for c in df.columns]
    out: dict[str, pd.Series] = {}
    merged: set[str] = set()
    for name in columns:
        if name in merged:
            continue
        base = name[: -len("_low")] if name.endswith("_low") else name
        low, high = f"{base}_low", f"{base}_high"
        if low in columns and high in columns and name in (base, low):
            lows, highs = df[low].tolist(), df[high].tolist()
            values = df[base].tolist() if base in columns else []
            fmt = _float_format(values + lows + highs, floatfmt)
            spans = [interval_text(lo, hi, fmt) for lo, hi in zip(lows, highs, strict=True)]
            if values:
                cells = [
                    f"{number_text(v, fmt)} ({span})" if span else number_text(v, fmt)
                    for v, span in zip(values, spans, strict=True)
                ]
                out[f"{base} (95%)"] = pd.Series(cells, index=df.index, dtype=object)
            else:
                out[f"{base} 95%"] = pd.Series(spans, index=df.index, dtype=object)
            merged |= {base, low, high}
        elif pd.api.types.is_float_dtype(df[name]):
            values = df[name].tolist()
            finite = [float(v) for v in values if v is not None and v is not pd.NA and np.isfinite(v)]
            if finite and all(v == round(v) for v in finite):
                out[name] = df[name]
            else:
                fmt = _float_format(values, floatfmt)
                out[name] = pd.Series([number_text(v, fmt) for v in values], index=df.index, dtype=object)
        else:
            out[name] = df[name]
    return pd.DataFrame(out, index=df.index)


def terminal_table(df: pd.DataFrame, *, width: int | None = TERMINAL_WIDTH, floatfmt: str = ".3f") -> str:
    """A table as aligned plain text for a terminal, numbers written for people (`merge_intervals`).

    Parameters
    ----------
    df : pandas.DataFrame
        The table.
    width : int or None
        The most characters a line may take (default `TERMINAL_WIDTH`); columns that do
        not fit are left out, from the right, and a last line says how many. None: no limit.
    floatfmt : str
        Format spec for floats.

    Returns
    -------
    str
        The lines, ending with a newline.
    """
    shown = merge_intervals(df, floatfmt)
    numeric = [
        pd.api.types.is_numeric_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c])
        if c in df.columns
        else True
        for c in shown.columns
    ]
    table = text_table(shown, floatfmt=floatfmt)
    sizes = [max([len(h), *(len(r[i]) for r in table.rows)]) for i, h in enumerate(table.headers)]
    keep: list[int] = []
    used = 0
    for i, size in enumerate(sizes):
        if width is not None and keep and used + 2 + size > width:
            break
        keep.append(i)
        used += size + (2 if len(keep) > 1 else 0)

    def line(cells: tuple[str, ...]) -> str:
        return "  ".join(
            cells[i].rjust(sizes[i]) if numeric[i] else cells[i].ljust(sizes[i]) for i in keep
        ).rstrip()

    lines = [line(table.headers), "  ".join("-" * sizes[i] for i in keep)]
    lines += [line(row) for row in table.rows]
    left = len(sizes) - len(keep)
    if left:
        lines.append(
            f"({left} more column{'s' if left > 1 else ''}, from {table.headers[len(keep)]}: "
            "--wide shows them, --format csv gives all)"
        )
    return "\n".join(lines) + "\n"


def format_table(df: pd.DataFrame, fmt: str = "text", *, wide: bool = False, floatfmt: str = ".3f") -> str:
    """A table written as ``fmt`` (`FORMATS`): terminal text, Markdown, CSV or JSON records.

    ``wide`` lets a text table take the width it needs. CSV and JSON hold every column with
    full precision; Markdown and text format floats with ``floatfmt``.

    Raises
    ------
    ValueError
        For an unknown ``fmt``.
    """
    if fmt == "text":
        return terminal_table(df, width=None if wide else TERMINAL_WIDTH, floatfmt=floatfmt)
    if fmt == "md":
        return to_markdown(df, floatfmt=floatfmt)
    if fmt == "csv":
        return str(df.to_csv(index=False))
    if fmt == "json":
        return str(df.to_json(orient="records", indent=1)) + "\n"
    raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")
