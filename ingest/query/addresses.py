"""Addresses: every equivalent form of a law, book, code or short-path address, and its canonical
form (the one a 301 sends a client to).

A law id arrives in many forms: ``/law/hoffmann-hoyles-games-modernized-1909%2Fecarte%2F31``
(separators percent-encoded, as proxies and crawlers send them), Datasette's tilde encoding
(``…~2Fecarte~2F31``), a trailing slash, another case or accent (``…/Écarté/31``), an invisible
character pasted with it. :func:`canonical_law_address` finds the record (law, book or code) such a
form means; :func:`canonical_game` does the same for the game of a short path (``/Whist/29``,
``/écarté/31``). Both take the path as it was received (still percent-encoded).
"""

from __future__ import annotations

import re
import sqlite3
import urllib.parse

from ..text import fold, normalise_value

EXPORTS = (".csl.json", ".json", ".bib")  # a law's record and citations: /law/<id>.json …
_TILDE_RE = re.compile(r"~([0-9A-Fa-f]{2})")


def tilde_decode(s: str) -> str:
    """Datasette's tilde encoding undone: ``~2F`` → ``/`` (``~`` followed by anything but two hex
    digits, as in a duplicate's ``11~2``, is kept)."""
    return _TILDE_RE.sub(lambda m: bytes.fromhex(m.group(1)).decode("latin-1"), s)


def _forms(received: str) -> list[str]:
    """What a received (percent-encoded) address part may mean, most literal first: percent-decoded,
    then tilde-decoded too; each normalised and without trailing slashes."""
    decoded = urllib.parse.unquote(received)
    out: list[str] = []
    for form in (decoded, tilde_decode(decoded)):
        form = normalise_value(form).strip().rstrip("/")
        if form and form not in out:
            out.append(form)
    return out


def _key(s: str) -> str:
    """How two spellings of an id are compared: accents folded, lower case."""
    return fold(s).lower()


def canonical_law_address(conn: sqlite3.Connection, received: str) -> tuple[str, str, str] | None:
    """``(kind, id, export suffix)`` for the part of a ``/law/…`` address after ``/law/`` as
    received: ``kind`` is ``law``, ``book`` or ``code``; ``id`` the record's id as stored; the
    suffix ``""`` or one of :data:`EXPORTS` (of those only ``.json`` for a book or a code). None when
    no record has that address in any form. An id that differs only in case or accent from exactly
    one record means that record."""
    for form in _forms(received):
        for suffix in ("", *EXPORTS):
            if suffix and not form.endswith(suffix):
                continue
            ident = form[: len(form) - len(suffix)] if suffix else form
            tables = (("law", "laws", "id"),) if suffix not in ("", ".json") else (
                ("law", "laws", "id"), ("book", "sources", "slug"), ("code", "codes", "id"))
            for kind, table, column in tables:
                row = conn.execute(f"select {column} from {table} where {column} = ?", [ident]).fetchone()
                if row is None:
                    rows = conn.execute(f"select {column} from {table} where lower({column}) = ?", [_key(ident)]).fetchall()
                    row = rows[0] if len(rows) == 1 else None
                if row is not None:
                    return kind, row[0], suffix
    return None


def law_path(ident: str, suffix: str = "") -> str:
    """The canonical path of a law, book or code id (with an export suffix): ``/law/<id>``. Ids are
    URL-safe (letters, digits, ``-_.~/``), so the path is the id as it is."""
    return "/law/" + urllib.parse.quote(ident, safe="/~") + suffix


def canonical_game(received: str, games: dict[str, str]) -> str | None:
    """The slug of the game a short path's first part names, as received (percent-encoded): its
    slug or its name in any case or accent (``Whist``, ``%C3%A9cart%C3%A9``, ``Auction Bridge``);
    ``games`` maps slugs to names. None when it names no game."""
    keys = {}
    for slug, name in games.items():
        keys[slug] = slug
        keys[re.sub(r"[\s_]+", "-", _key(name))] = slug
    for form in _forms(received):
        slug = keys.get(re.sub(r"[\s_]+", "-", _key(form)))
        if slug:
            return slug
    return None
