"""Paging a table in any sort order shows every row exactly once.

Datasette 0.65.5 orders a sorted table's first page by the sort column alone, and the pages after
it by the sort column and then the primary key; the ``_next`` token of the first page is the sort
value and primary key of its last row. Where the sort column has ties, SQLite returns them in the
order of whatever it scans (the table's rowid, an index read backwards for ``_sort_desc``), not by
primary key, so the second page skips the tied rows the first did not show.

The fix is at the query: a first page of a sorted table (no ``_next`` yet) is asked for with a
``_next`` token that every row passes (before the lowest value, or after the highest for
``_sort_desc``, and before the lowest primary key). Datasette then orders the first page as it
orders every other one, by the sort column and the primary key. Only columns that have ties get
the token (a sort by a unique column is left alone). A sort by a column of binary values is a 400:
Datasette's own ``_next`` token cannot page through one (it would loop for ever).
"""

from __future__ import annotations

import functools
import json
import re
import urllib.parse

from datasette import hookimpl
from datasette.utils import escape_sqlite, tilde_decode, tilde_encode

from ingest.query.serve import DATABASE_NAME

HIGHEST_TEXT = "\U0010ffff" * 4  # above any text (and, as text, above any number) in SQLite's order
LOWEST_INTEGER = str(-(2**63))


def affinity(declared: str) -> str:
    """SQLite's type affinity for a declared column type (``INTEGER``, ``TEXT``, ``BLOB``, ``REAL``
    or ``NUMERIC``), by SQLite's rules."""
    t = (declared or "").upper()
    if "INT" in t:
        return "INTEGER"
    if any(s in t for s in ("CHAR", "CLOB", "TEXT")):
        return "TEXT"
    if "BLOB" in t or not t:
        return "BLOB"
    if any(s in t for s in ("REAL", "FLOA", "DOUB")):
        return "REAL"
    return "NUMERIC"


@functools.lru_cache(maxsize=256)
def _table(conn_path: str, table: str, _hash: str) -> dict | None:
    """Columns (name → affinity) and primary keys of ``table`` (None for a view or no table)."""
    import sqlite3

    conn = sqlite3.connect(f"file:{conn_path}?mode=ro", uri=True)
    try:
        kind = conn.execute("select type from sqlite_master where name = ?", [table]).fetchone()
        if not kind or kind[0] != "table":
            return None
        info = conn.execute(f"pragma table_info({escape_sqlite(table)})").fetchall()
        return {"columns": {r[1]: affinity(r[2]) for r in info},
                "pks": [r[1] for r in sorted((r for r in info if r[5]), key=lambda r: r[5])],
                "ties": {}}
    finally:
        conn.close()


def _column_facts(path: str, table: str, column: str, meta: dict) -> tuple[bool, bool]:
    """``(has ties, holds binary values)`` for a column, looked up once (the database is immutable)."""
    if column not in meta["ties"]:
        import sqlite3

        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            col, tab = ("rowid" if column == "rowid" else escape_sqlite(column)), escape_sqlite(table)
            ties = conn.execute(f"select 1 from {tab} group by {col} having count(*) > 1 limit 1").fetchone() is not None
            blob = conn.execute(f"select 1 from {tab} where typeof({col}) = 'blob' limit 1").fetchone() is not None
            meta["ties"][column] = (ties, blob)
        finally:
            conn.close()
    return meta["ties"][column]


class Unsortable(ValueError):
    """A sort Datasette would page through for ever: by a column of binary values (its ``_next``
    token is the value's Python text, which no blob compares with)."""


def first_page_token(datasette, table: str, args: dict[str, list[str]]) -> str | None:
    """The ``_next`` token that makes the first page of ``table`` with these query ``args`` ordered
    by its sort column and primary key; None when none is needed (no sort, a unique column, a page
    after the first) or Datasette will refuse the request anyway."""
    if "_next" in args or "_sort_by_desc" in args:
        return None
    sort, sort_desc = args.get("_sort", [None])[0], args.get("_sort_desc", [None])[0]
    if not sort and not sort_desc:
        table_meta = datasette.table_metadata(DATABASE_NAME, table)
        sort, sort_desc = table_meta.get("sort"), table_meta.get("sort_desc")
    if bool(sort) == bool(sort_desc):
        return None
    db = datasette.get_database(DATABASE_NAME)
    meta = _table(db.path, table, db.hash or "")
    column = sort or sort_desc
    if meta is None or (column not in meta["columns"] and not (column == "rowid" and not meta["pks"])):
        return None
    ties, blob = _column_facts(db.path, table, column, meta)
    if blob:
        raise Unsortable(f"{'_sort' if sort else '_sort_desc'}: the column {column} holds binary values, which have "
                         "no order to page by; sort by another column")
    if not ties:
        return None
    pks = meta["pks"] or ["rowid"]
    first = "INTEGER" if pks[0] == "rowid" else meta["columns"][pks[0]]
    low = LOWEST_INTEGER if first in ("INTEGER", "REAL", "NUMERIC") else ""
    lows = ",".join(tilde_encode(low) for _ in pks)
    return f"$null,{lows}" if sort else f"{tilde_encode(HIGHEST_TEXT)},{lows}"


@hookimpl
def asgi_wrapper(datasette):
    def wrap(app):
        async def stable(scope, receive, send):
            if scope["type"] == "http" and DATABASE_NAME in datasette.databases:
                path = scope.get("route_path") or scope["path"]
                base = datasette.setting("base_url")
                if base != "/" and path.startswith(base):
                    path = "/" + path[len(base):]
                m = re.fullmatch(rf"/{DATABASE_NAME}/([^/.]+)(\.\w+)?", path)
                if m:
                    query = scope.get("query_string", b"").decode("latin-1")
                    args = urllib.parse.parse_qs(query, keep_blank_values=True)
                    try:
                        token = first_page_token(datasette, tilde_decode(m.group(1)), args)
                    except Unsortable as e:
                        body = json.dumps({"ok": False, "error": str(e), "status": 400}) if m.group(2) == ".json" else str(e)
                        kind = b"application/json" if m.group(2) == ".json" else b"text/plain; charset=utf-8"
                        await send({"type": "http.response.start", "status": 400, "headers": [(b"content-type", kind)]})
                        await send({"type": "http.response.body", "body": body.encode()})
                        return
                    if token:
                        query += ("&" if query else "") + urllib.parse.urlencode({"_next": token})
                        scope = dict(scope, query_string=query.encode("latin-1"))
            await app(scope, receive, send)

        return stable

    return wrap
