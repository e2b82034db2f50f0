"""Tables as text: every cell of a DataFrame formatted once, written out as GitHub Markdown.

:func:`text_table` decides what each cell reads (floats to a format, whole-number float
columns as integers, missing values blank); :func:`to_markdown` writes that as a Markdown
table, and the report's HTML tables are written from the same :class:`TextTable`, so both
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
