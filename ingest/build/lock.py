"""One build of a database at a time: :func:`build_lock` holds an exclusive lock on a file beside
the database (``.<name>.lock``) for the whole build, so a second ``cardlaws build`` of the same
database waits for the first (and reuses its vectors) instead of racing it. The lock is the
operating system's (``flock``): it is released when its process ends, however it ends, so a
killed build never leaves a stale lock."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


def lock_path(db_path: Path) -> Path:
    """The lock file of the database at ``db_path``."""
    return db_path.with_name(f".{db_path.name}.lock")


@contextmanager
def build_lock(db_path: Path, on_wait: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the build lock of ``db_path`` while the ``with`` block runs. When another process
    holds it, call ``on_wait(message)`` (naming the database and that process) and wait for it.
    Raises :class:`OSError` when the lock file cannot be created."""
    db_path.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path(db_path), "a+", encoding="ascii") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            f.seek(0)
            holder = f.read().strip() or "unknown"
            if on_wait:
                on_wait(f"another build of {db_path} is running (process {holder}); waiting for it to finish")
            fcntl.flock(f, fcntl.LOCK_EX)
        f.seek(0)
        f.truncate()
        f.write(str(os.getpid()))
        f.flush()
        try:
            yield
        finally:
            f.seek(0)
            f.truncate()
            fcntl.flock(f, fcntl.LOCK_UN)
