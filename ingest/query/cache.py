"""One cache for what a served database needs loaded once: a searcher, a citation resolver.
Each is kept per database file and made again when the file changes (a new build)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
_CACHE: dict[tuple[str, str, float], object] = {}
_LOCK = threading.Lock()
_RESOLVED: dict[str, Path] = {}  # a path as given → the file it names


def per_database(db_path: Path, kind: str, make: Callable[[Path], T]) -> T:
    """The object ``make(db_path)`` made for this database file and ``kind``, made once while the
    file is unchanged (by path and modification time). Raises :class:`OSError` when the file is
    missing."""
    given = str(db_path)
    path = _RESOLVED.get(given)
    if path is None:  # an absolute path's resolution is kept (a relative one depends on the directory)
        path = Path(db_path).resolve()
        if Path(db_path).is_absolute():
            _RESOLVED[given] = path
    key = (kind, str(path), path.stat().st_mtime)
    made = _CACHE.get(key)
    if made is not None:
        return made  # type: ignore[return-value]
    with _LOCK:
        if key not in _CACHE:
            for old in [k for k in _CACHE if k[:2] == key[:2]]:
                del _CACHE[old]  # an older build of the same file
            _CACHE[key] = make(path)
        return _CACHE[key]  # type: ignore[return-value]
