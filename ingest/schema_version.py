"""The version of the database's schema, stored in the database (``PRAGMA user_version``) by the
build and checked by everything that reads a database (``serve``, ``search``, ``cite``, ``show``),
so a database built by another version of Card Laws is refused with a clear message instead of
failing on a missing column. Raise :data:`SCHEMA_VERSION` whenever a table or column changes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

SCHEMA_VERSION = 8  # 0: built before the version was stored; 1: never released
# tables every reader needs: a file whose version is right but lacks one was damaged after its build
REQUIRED_TABLES = ("laws", "laws_fts", "games", "sources", "codes")


class SchemaError(Exception):
    """A database built by another version of the schema (the message says to rebuild)."""


def stored_version(conn: sqlite3.Connection) -> int:
    """The schema version stored in the database of ``conn`` (0 when none was)."""
    return conn.execute("pragma user_version").fetchone()[0]


def check_schema(conn: sqlite3.Connection, path: Path | str) -> None:
    """Raise :class:`SchemaError`, naming ``path`` and both versions, unless the database of
    ``conn`` has this version of the schema; and, naming the table, when it lacks one of
    :data:`REQUIRED_TABLES` (a file damaged after its build)."""
    version = stored_version(conn)
    if version != SCHEMA_VERSION:
        raise SchemaError(
            f"{path} was built by another version of Card Laws (schema version {version}; this one reads "
            f"version {SCHEMA_VERSION}): rebuild it with 'cardlaws build --db {path}'"
        )
    present = {r[0] for r in conn.execute("select name from sqlite_master where type = 'table'")}
    missing = [t for t in REQUIRED_TABLES if t not in present]
    if missing:
        raise SchemaError(f"{path} is not a complete Card Laws database (no table {', '.join(missing)}): "
                          f"rebuild it with 'cardlaws build --db {path}'")


def check_schema_file(path: Path | str) -> None:
    """:func:`check_schema` for the database file at ``path`` (opened read-only). Raises
    :class:`SchemaError` also for a file that is not a SQLite database."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            check_schema(conn, path)
        finally:
            conn.close()
    except sqlite3.DatabaseError as e:
        raise SchemaError(f"{path} is not a Card Laws database ({e})") from None
