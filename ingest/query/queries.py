"""Canned queries across games, kept as data: one ``db/queries/<name>.sql`` a query, whose leading
``--`` comment lines are TOML front matter, then the SQL::

    -- title = "In which games does a situation give a remedy?"
    -- description = "One row a game and code …"
    -- [parameters]
    -- situation = "A situation id (see /compare): exposed-card-in-dealing, misdeal, revoke …"
    -- [example]
    -- situation = "exposed-card-in-dealing"
    select …  where r.situation_id = :situation

Every ``:name`` in the SQL must be described under ``[parameters]`` and given an example value
(the ``/sql`` page links each query with its example, and the tests run it so). A historian adds a
query by adding a file; no Python.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from ..models import CorpusError
from ..paths import DB_DIR

FOLDER = DB_DIR / "queries"
_PARAM_RE = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")  # :name, not ::cast or a time's 12:30


class QueryFileError(CorpusError):
    """A query file that cannot be used; the message names the file and what is wrong."""


def _strip_strings(sql: str) -> str:
    """The SQL without its string literals and comments (a ``':x'`` in a string is no parameter)."""
    return re.sub(r"'(?:[^']|'')*'|--[^\n]*", "''", sql)


def parse_query(path: Path) -> dict:
    """``{name, title, description, parameters: {name: description}, example: {name: value}, sql}``
    for one query file. Raises :class:`QueryFileError` naming the file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    head = []
    while lines and lines[0].startswith("--"):
        head.append(lines.pop(0)[2:].removeprefix(" "))
    try:
        meta = tomllib.loads("\n".join(head))
    except tomllib.TOMLDecodeError as e:
        raise QueryFileError(f"{path}: its front matter (the leading -- lines) is not TOML: {e}") from None
    sql = "\n".join(lines).strip()
    if not meta.get("title") or not sql:
        raise QueryFileError(f"{path}: needs a title in its front matter and SQL after it")
    unknown = set(meta) - {"title", "description", "parameters", "example"}
    if unknown:
        raise QueryFileError(f"{path}: unknown front matter key(s) {', '.join(sorted(unknown))}")
    params = dict(meta.get("parameters", {}))
    example = {k: str(v) for k, v in meta.get("example", {}).items()}
    used = list(dict.fromkeys(_PARAM_RE.findall(_strip_strings(sql))))
    for name in used:
        if name not in params:
            raise QueryFileError(f"{path}: parameter :{name} is not described under [parameters]")
        if name not in example:
            raise QueryFileError(f"{path}: parameter :{name} has no value under [example]")
    for name in params:
        if name not in used:
            raise QueryFileError(f"{path}: [parameters] describes {name!r}, which the SQL does not use")
    return {"name": path.stem, "title": meta["title"], "description": meta.get("description", ""),
            "parameters": {name: params[name] for name in used}, "example": {n: example[n] for n in used},
            "sql": sql}


def load_queries(folder: Path = FOLDER) -> list[dict]:
    """Every query in ``folder``, by file name."""
    return [parse_query(p) for p in sorted(folder.glob("*.sql"))]
