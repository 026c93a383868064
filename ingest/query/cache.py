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


def per_database(db_path: Path, kind: str, make: Callable[[Path], T]) -> T:
    """The object ``make(db_path)`` made for this database file and ``kind``, made once while the
    file is unchanged (by path and modification time). Raises :class:`OSError` when the file is
    missing."""
    path = Path(db_path).resolve()
    key = (kind, str(path), path.stat().st_mtime)
    with _LOCK:
        if key not in _CACHE:
            for old in [k for k in _CACHE if k[:2] == key[:2]]:
                del _CACHE[old]  # an older build of the same file
            _CACHE[key] = make(path)
        return _CACHE[key]  # type: ignore[return-value]
