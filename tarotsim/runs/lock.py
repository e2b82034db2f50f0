"""One writer per run directory: a lock file that names its holder (pid, host, since when).

The lock file is created with ``O_CREAT | O_EXCL``, which succeeds for one process only,
also on a network file system. A second writer is refused with the holder's name. A lock
left by a process that died (same host, pid no longer running) is stale: the next writer
takes it over, moving it aside first so that two writers cannot both take it over. A
lock whose holder runs on another host cannot be checked from here; the message says how
to remove it by hand when that host's writer is known to be gone.
"""

from __future__ import annotations

import json
import os
import socket
import time
import uuid
from pathlib import Path
from typing import Any

from tarotsim.base.files import os_error

LOCK = ".writer.lock"
"""Name of the lock file inside a run directory."""
UNWRITTEN_LOCK_S = 30.0
"""A lock file still empty after this many seconds was left by a writer killed as it took it."""


def _running(pid: int) -> bool:
    """Whether a process ``pid`` runs on this host (always assumed where it cannot be asked)."""
    if os.name != "posix":  # os.kill(pid, 0) would end the process there
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it runs, as another user
        return True
    return True


def _holder(path: Path) -> dict[str, Any] | None:
    """What the lock file at ``path`` says of its holder; None if it is empty or unreadable."""
    try:
        holder = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return holder if isinstance(holder, dict) and isinstance(holder.get("pid"), int) else None


def _stale(path: Path, holder: dict[str, Any] | None) -> bool:
    if holder is None:
        try:
            return time.time() - path.stat().st_mtime > UNWRITTEN_LOCK_S
        except FileNotFoundError:
            return True
    return holder.get("host") == socket.gethostname() and not _running(holder["pid"])


def _take_over(path: Path, holder: dict[str, Any] | None) -> None:
    """Move a stale lock aside, and put it back if another writer took the lock meanwhile."""
    aside = path.with_name(f"{LOCK}.stale-{uuid.uuid4().hex}")
    try:
        os.rename(path, aside)
    except FileNotFoundError:
        return
    moved = _holder(aside)
    if holder is not None and (moved is None or moved.get("token") != holder.get("token")):
        try:  # not the stale lock we judged: a live writer's, restore it
            os.link(aside, path)
        except OSError:
            pass
    aside.unlink(missing_ok=True)


class WriterLock:
    """The lock of one run directory, held by this process until `release`.

    Raises
    ------
    ValueError
        If another live writer holds the lock, or the lock file cannot be written
        (a read-only file system, no permission, a full disk: the file is then removed).
    """

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.path = Path(directory) / LOCK
        self.token = uuid.uuid4().hex
        holder = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "since": time.strftime("%Y-%m-%d %H:%M:%S"),
            "token": self.token,
        }
        for _ in range(3):
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                other = _holder(self.path)
                if not _stale(self.path, other):
                    raise ValueError(_busy(self.path, other)) from None
                _take_over(self.path, other)
                continue
            except OSError as err:
                raise ValueError(
                    f"cannot write in the run directory {self.path.parent}: {err.strerror or err}; "
                    "a run directory must be writable to make or finish its run"
                ) from None
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as stream:
                    json.dump(holder, stream)
            except OSError as err:  # a full disk: an empty lock left here would block the repeat
                self.path.unlink(missing_ok=True)
                raise os_error(err, f"the lock file {self.path}", resumes=True) from None
            return
        raise ValueError(_busy(self.path, _holder(self.path)))

    def release(self) -> None:
        """Remove the lock file if it is still this process's."""
        holder = _holder(self.path)
        if holder is not None and holder.get("token") == self.token:
            self.path.unlink(missing_ok=True)


def _busy(path: Path, holder: dict[str, Any] | None) -> str:
    who = (
        "a writer that is starting"
        if holder is None
        else (f"pid {holder['pid']} on {holder.get('host', '?')} since {holder.get('since', '?')}")
    )
    return (
        f"run directory {path.parent} is being written by another tarotsim ({who}); wait for it to "
        f"finish, or if that process is gone, delete {path} and repeat the command"
    )
