"""The citation resolver for a served database, loaded once per database file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ..cite import Resolver
from .cache import per_database


def _load(path: Path) -> Resolver:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return Resolver.from_db(conn)
    finally:
        conn.close()


def resolver_for(db_path: Path) -> Resolver:
    """One :class:`~ingest.cite.Resolver` per database file (made again when the file changes)."""
    return per_database(db_path, "resolver", _load)
