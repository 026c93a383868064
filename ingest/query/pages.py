"""The site's levels, read from a built database: every book (``/law``), a book and its codes
(``/law/<book>``), a code's contents (``/law/<book>/<code>``), every game by family (``/games``)
and a game (``/<game>``). Each function returns plain dicts and lists (the pages' ``.json``);
None for an id the database does not have.

A game's law counts leave out clauses and excerpts' copies of a book's law (``witness_of``): a law
printed in an excerpt and in its book is one law (a code's count is of its own laws). Laws in lists carry the label
:func:`ingest.citation.law_label` gives them, with their code's numbering (``Bridge ¶ 36 (c)``).
"""

from __future__ import annotations

import json
import sqlite3

from .. import vocabulary
from ..citation import law_label

# books first, then the excerpts that witness them, then the books of cases and commentary
KIND_ORDER = {"laws": 0, "excerpt": 1, "rulings": 2, "commentary": 3, "ruling": 4}
KIND_HEADINGS = {"laws": "Law books", "excerpt": "Excerpts (each a witness to its book's laws)",
                 "rulings": "Decided cases", "commentary": "Commentary", "ruling": "Rulings"}
_LAWS = "count(case when l.parent is null and l.witness_of is null then 1 end)"
_CLAUSES = "count(case when l.parent is not null and l.witness_of is null then 1 end)"
# a code's date: the year its code was adopted, else its book's
_CODE_YEAR = "coalesce(c.year, s.year)"


def _rows(conn: sqlite3.Connection, sql: str, params: list | tuple = ()) -> list[dict]:
    conn.row_factory = sqlite3.Row
    return [dict(r) for r in conn.execute(sql, params)]


def _codes(conn: sqlite3.Connection, where: str, params: list, order: str) -> list[dict]:
    rows = _rows(conn, f"""
        select c.id, c.source, c.game, g.name as game_name, c.title, c.authority, c.year, c.edition, c.aliases,
               c.family, c.numbered, c.kind, {_CODE_YEAR} as date, s.title as book_title, s.year as book_year,
               s.author as book_author, count(case when l.parent is null then 1 end) as laws,
               count(case when l.parent is not null then 1 end) as clauses
        from codes c join sources s on s.slug = c.source join games g on g.slug = c.game
        left join laws l on l.code = c.id
        where {where} group by c.id order by {order}""", params)
    for r in rows:
        r["aliases"] = json.loads(r["aliases"] or "[]")
    return rows


def books(conn: sqlite3.Connection) -> list[dict]:
    """Every source, books first (by year), each with its codes in the order printed and its
    count of rulings."""
    sources = _rows(conn, "select slug, title, author, year, kind, edition, excerpt_of, url from sources")
    sources.sort(key=lambda s: (KIND_ORDER.get(s["kind"], 9), s["year"] or 9999, s["slug"]))
    codes = _codes(conn, "1", [], "c.line_start, c.id")
    rulings = {r["source"]: r["n"] for r in _rows(conn, "select source, count(*) as n from rulings group by source")}
    for s in sources:
        s["codes"] = [c for c in codes if c["source"] == s["slug"]]
        s["rulings"] = rulings.get(s["slug"], 0)
        s["heading"] = KIND_HEADINGS.get(s["kind"], s["kind"])
    return sources


def book(conn: sqlite3.Connection, slug: str) -> dict | None:
    """A book with its codes (authority, year, edition, law counts) and its rulings."""
    rows = _rows(conn, "select * from sources where slug = ?", [slug])
    if not rows:
        return None
    out = rows[0]
    out["codes"] = _codes(conn, "c.source = ?", [slug], "c.line_start, c.id")
    out["rulings"] = _rows(conn, "select id, number, title from rulings where source = ? order by line_start", [slug])
    if out.get("excerpt_of"):
        out["excerpt_of_title"] = next(iter(r["title"] for r in _rows(
            conn, "select title from sources where slug = ?", [out["excerpt_of"]])), None)
    return out


def code_contents(conn: sqlite3.Connection, code_id: str) -> dict | None:
    """A code, its book, and every law and clause in it in printed order, in its sections (a run of
    laws under one printed sub-heading; the first untitled where the code opens without one), each
    with its label, depth (0 a law, 1 its clause …), anchor and the opening of its text; with the
    other codes of its family, to compare with."""
    found = _codes(conn, "c.id = ?", [code_id], "c.id")
    if not found:
        return None
    code = found[0]
    laws = _rows(conn, """select id, number, kind, parent, section, substr(text, 1, 240) as opening,
        length(text) > 240 as more, page_start, page_end, witness_of, citation from laws where code = ? order by ordinal""",
                 [code_id])
    depth: dict[str, int] = {}
    sections: list[dict] = []
    for law in laws:
        law["depth"] = depth[law["id"]] = depth.get(law["parent"], -1) + 1 if law["parent"] else 0
        law["anchor"] = "law-" + law["id"][len(code_id) + 1:].replace("/", "-").replace("~", "-")
        law["label"] = law_label(law["kind"], law["id"], code["game_name"], bool(code["numbered"]))
        if not sections or (law["section"] and law["section"] != sections[-1]["title"]):
            sections.append({"title": law["section"], "laws": []})
        sections[-1]["laws"].append(law)
    family = vocabulary.family_of(code["game"])
    names = dict(conn.execute("select slug, name from games"))
    return {"code": code, "book": book(conn, code["source"]), "sections": sections, "family_name": family_name(family, names),
            "pages": _pages(laws), "fragments": _rows(conn, "select count(*) as n from fragments where code = ?",
                                                       [code_id])[0]["n"],
            "family_codes": _codes(conn, "c.family = ? and c.id != ? and c.kind = 'law'", [family, code_id],
                                   f"{_CODE_YEAR}, c.id") if code["kind"] == "law" else []}


def _pages(laws: list[dict]) -> str | None:
    starts = [p for law in laws for p in (law["page_start"], law["page_end"]) if p]
    if not starts:
        return None
    return f"p. {min(starts)}" if min(starts) == max(starts) else f"pp. {min(starts)}–{max(starts)}"


def family_name(family: str, names: dict[str, str]) -> str:
    """A family as readers call it: ``Whist family`` after its founding game's name."""
    return f"{names.get(family, family.replace('-', ' ').title())} family"


def games_by_family(conn: sqlite3.Connection) -> list[dict]:
    """Every game in the database, grouped by family (``games.toml`` ``[families]``; a family of
    several games first, in the file's order), each with its count of laws, clauses and codes; the
    games in no family of several come last in one group ``other`` by name."""
    games = _rows(conn, f"""select g.slug, g.name, {_LAWS} as laws, {_CLAUSES} as clauses,
        count(distinct l.code) as codes, count(distinct l.source) as sources
        from games g left join laws l on l.game = g.slug group by g.slug order by g.name""")
    by_slug = {g["slug"]: g for g in games}
    names = {g["slug"]: g["name"] for g in games}
    groups, placed = [], set()
    for family, members in vocabulary.families().items():
        present = [by_slug[m] for m in members if m in by_slug]
        if present:
            groups.append({"family": family, "name": family_name(family, names), "games": present})
            placed.update(g["slug"] for g in present)
    others = [g for g in games if g["slug"] not in placed]
    if others:
        groups.append({"family": None, "name": "Other games", "games": others})
    return groups


def game(conn: sqlite3.Connection, slug: str) -> dict | None:
    """A game: its name, family (and the family's other games), its codes across the books in
    date order, and the situations its laws decide with how many laws decide each."""
    rows = _rows(conn, "select slug, name from games where slug = ?", [slug])
    if not rows:
        return None
    out = rows[0]
    family = vocabulary.family_of(slug)
    names = {r["slug"]: r["name"] for r in _rows(conn, "select slug, name from games")}
    out["family"] = family
    out["family_name"] = family_name(family, names)
    out["family_listed"] = family in vocabulary.families()  # /compare?family= takes it
    out["family_games"] = [{"slug": g, "name": names[g]} for g in vocabulary.families().get(family, [])
                           if g != slug and g in names]
    out["codes"] = _codes(conn, "c.game = ?", [slug], f"{_CODE_YEAR} is null, {_CODE_YEAR}, s.year, c.id")
    out["laws"] = conn.execute(f"select {_LAWS} from laws l where l.game = ?", [slug]).fetchone()[0]
    out["situations"] = _rows(conn, """
        select s.id, s.label, count(distinct l.id) as laws from law_situations ls
        join situations s on s.id = ls.situation_id join laws l on l.id = ls.law_id
        where l.game = ? and ls.grade = 'decides' and l.witness_of is null
        group by s.id order by laws desc, s.rowid""", [slug])
    return out
