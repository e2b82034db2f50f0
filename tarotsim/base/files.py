"""Files written whole or not at all: a temporary name beside the target, then a rename.

Every file tarotsim writes for a user (run chunks and manifests, traces, tables, bidder
files, reports) goes through `write_atomic`: a failed or interrupted write leaves the
target as it was (absent, or its previous content) and no temporary file behind. A folder
of several files (a report, a hand's page) is written inside `folder_written`,
which removes again what a failed write made: its new files and the folders it created.
"""

from __future__ import annotations

import errno
import os
import shutil
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

TEMPORARY = ".tmp-"
"""What the name of a temporary file holds: ``NAME.tmp-<hex>`` beside ``NAME``."""


def is_temporary(path: Path) -> bool:
    """Whether ``path`` is a temporary file left by a write that did not finish."""
    return TEMPORARY in path.name


def os_error(err: OSError, what: str, *, resumes: bool = False) -> ValueError:
    """A one-line error for a failed write of ``what``, with what to do about it.

    ``resumes``: the write belongs to a run, which repeating the command resumes.
    """
    then = "; the run resumes where it stopped" if resumes else ""
    if err.errno == errno.ENOSPC:
        advice = f"free some disk space, then repeat the command{then}"
    elif err.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        advice = "choose a place you may write to" + (
            " (a run directory must be writable to make or finish its run)" if resumes else ""
        )
    else:
        advice = f"repeat the command once that is fixed{then}"
    return ValueError(f"cannot write {what}: {err.strerror or err}; {advice}")


def write_atomic(
    path: str | os.PathLike[str],
    write: Callable[[Path], T],
    *,
    what: str | None = None,
    resumes: bool = False,
) -> T:
    """Call ``write(tmp)`` on a temporary path beside ``path``, then rename it to ``path``.

    Parameters
    ----------
    path : str or os.PathLike
        The file to write; its folder must exist. A path that is neither a file nor a
        folder (a device such as ``/dev/stdout``, a named pipe) is written directly.
    write : callable
        Writes the whole file at the path it is given; what it returns is returned.
    what : str, optional
        How the error names the file (default: its path).
    resumes : bool
        The file belongs to a run directory (the error says that repeating resumes it).

    Raises
    ------
    ValueError
        If the file cannot be written (a full disk, a read-only folder); ``path`` is left
        as it was and the temporary file is removed.
    """
    target = Path(path)
    if target.exists() and not target.is_file() and not target.is_dir():  # /dev/stdout, a pipe: write to it
        try:
            return write(target)
        except OSError as err:
            raise os_error(err, what or str(target), resumes=resumes) from None
    tmp = target.with_name(f"{target.name}{TEMPORARY}{uuid.uuid4().hex[:12]}")
    try:
        result = write(tmp)
        os.replace(tmp, target)
    except OSError as err:
        raise os_error(err, what or str(target), resumes=resumes) from None
    finally:
        tmp.unlink(missing_ok=True)
    return result


def write_text_atomic(path: str | os.PathLike[str], text: str, *, what: str | None = None) -> None:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``path`` atomically (`write_atomic`)."""

    def write(tmp: Path) -> None:
        with open(tmp, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)

    write_atomic(path, write, what=what)


@contextmanager
def folder_written(folder: str | os.PathLike[str], *, what: str = "the folder") -> Iterator[Path]:
    """Make ``folder`` (and its parents) if needed for the files written in the block; if the
    block fails, remove what it made: the entries that were not in the folder before, then
    the folders this call created. Files that were there before are left (each written
    whole by `write_atomic`: its old or its new content).

    Raises
    ------
    ValueError
        If the folder cannot be made (``what`` names it in the message).
    """
    root = Path(folder)
    made = [p for p in (root, *root.parents) if not p.exists()]
    try:
        before = set(root.iterdir()) if root.is_dir() else set()
        root.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise os_error(err, f"{what} {root}") from None
    try:
        yield root
    except BaseException:
        for entry in set(root.iterdir()) - before if root.is_dir() else ():
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)
        for path in made:  # the deepest first
            try:
                path.rmdir()
            except OSError:
                break  # something else was put there meanwhile: leave it
        raise
