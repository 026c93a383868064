"""Laws: everything known of one law, read from a built database in one place, for the law page,
its exports (``.json``, ``.bib``, ``.csl.json``) and ``cardlaws show``.

:func:`law_record` returns a :class:`LawRecord` (None for an unknown id); laws in lists carry the
one label :func:`ingest.citation.law_label` gives them (``Écarté law 31``, ``Bridge law 39 (V)``,
``Whist etiquette 3``).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..citation import bibtex, csl_json, full_citation, law_label, pages, who

# a law named in a list: its id, label and book; joined from laws (alias l), games (g), sources (s)
_COLUMNS = ("l.id, l.kind, l.number, c.numbered, l.citation, substr(l.text, 1, 200) as opening, "
            "g.name as game_name, s.title as source_title")
_JOINS = "join games g on g.slug = l.game join sources s on s.slug = l.source join codes c on c.id = l.code"
_LISTED = f"{_COLUMNS} from laws l {_JOINS}"


def _labelled(row: Mapping) -> dict:
    out = dict(row)
    out["label"] = law_label(row["kind"], row["id"], row["game_name"], bool(row["numbered"]))
    return out


@dataclass
class LawRecord:
    """A law (or clause) with its book, game, code and the records around it. Rows are dicts of
    the database's columns; listed laws carry a ``label``."""

    law: dict
    source: dict
    game: dict
    code: dict | None
    parent: dict | None
    clauses: list[dict] = field(default_factory=list)
    witness_of: dict | None = None  # the book's law this excerpt's law copies
    witnesses: list[dict] = field(default_factory=list)  # excerpts printing this law
    rulings: list[dict] = field(default_factory=list)
    references: list[dict] = field(default_factory=list)  # citations in the law, resolved
    cited_by: list[dict] = field(default_factory=list)
    decides: list[dict] = field(default_factory=list)  # situations (id, label, grade, origin, evidence)
    remedies: list[dict] = field(default_factory=list)
    parallels: list[dict] = field(default_factory=list)  # the same rule or situation in other codes, best first
    mentions: list[dict] = field(default_factory=list)  # entity mentions with label and kind
    previous: dict | None = None  # the law or clause before this one in its code (id, number, kind, label)
    next: dict | None = None

    @property
    def label(self) -> str:
        numbered = self.code["numbered"] if self.code else self.law["numbered"]  # a case under ¶ 36 is ¶ 36 (c)
        return law_label(self.law["kind"], self.law["id"], self.game["name"], bool(numbered))

    @property
    def questions(self) -> list[str]:
        """The plain questions the law answers, in a player's words (``corpus/questions``)."""
        return [q for q in (self.law.get("questions") or "").split("\n") if q]

    @property
    def accounts(self) -> list[str]:
        """What players say happened at the table, that the law rules on (``corpus/questions``)."""
        return [a for a in (self.law.get("accounts") or "").split("\n") if a]

    @property
    def pages(self) -> str | None:
        return pages(self.law)

    @property
    def short_citation(self) -> str:
        """The citation the build chose (unique among the books' laws), else the label and book."""
        return self.law.get("citation") or f"{self.label} ({who(self.source)})"

    @property
    def full_citation(self) -> str:
        return full_citation(self.label, self.law, self.source, self.code)

    @property
    def bibtex(self) -> str:
        return bibtex(self.label, self.law, self.source)

    @property
    def csl_json(self) -> dict:
        return csl_json(self.label, self.law, self.source)

    def as_json(self) -> dict:
        """The record of ``/law/<id>.json`` and ``cardlaws show --json``: the law's columns (less
        its vector-facing ones), its citations, book, code, clauses and situations."""
        law = {k: v for k, v in self.law.items()
               if k not in ("entities", "situations", "content_hash", "citation", "questions", "accounts")}
        return {
            **law, "label": self.label, "short_citation": self.short_citation, "full_citation": self.full_citation,
            "game_name": self.game["name"], "book": self.source,
            "code_record": {**self.code, "aliases": json.loads(self.code["aliases"] or "[]")} if self.code else None,
            "clauses": [c["id"] for c in self.clauses],
            "decides": [s["id"] for s in self.decides if s["grade"] == "decides"],
            "touches": [s["id"] for s in self.decides if s["grade"] == "touches"],
            "remedies": [{"situation": r["situation_id"], "remedy": r["remedy"]} for r in self.remedies],
            "parallels": [p["id"] for p in self.parallels],
            "questions": self.questions,
            "accounts": self.accounts,
            "entities": sorted({m["entity_id"] for m in self.mentions}),
        }


def law_record(conn: sqlite3.Connection, law_id: str) -> LawRecord | None:
    """Everything the law page shows of ``law_id`` (situations and parallels are those of the
    book's law when this is an excerpt's copy of it); None when there is no such law."""
    conn.row_factory = sqlite3.Row

    def one(sql: str, params: list) -> dict | None:
        row = conn.execute(sql, params).fetchone()
        return dict(row) if row else None

    def many(sql: str, params: list) -> list[dict]:
        return [dict(r) for r in conn.execute(sql, params)]

    law = one("select * from laws where id = ?", [law_id])
    if law is None:
        return None
    decided_by = law["witness_of"] or law_id
    rec = LawRecord(
        law=law,
        source=one("select * from sources where slug = ?", [law["source"]]),
        game=one("select * from games where slug = ?", [law["game"]]),
        code=one("select * from codes where id = ?", [law["code"]]),
        parent=one("select id, number, text from laws where id = ?", [law["parent"]]),
        clauses=many("select id, number, text from laws where parent = ? order by ordinal", [law_id]),
        witness_of=one("select l.id, l.number, s.title from laws l join sources s on s.slug = l.source "
                       "where l.id = ?", [law["witness_of"]]),
        witnesses=many("select l.id, s.title from laws l join sources s on s.slug = l.source "
                       "where l.witness_of = ?", [law_id]),
        rulings=many("select distinct r.id, r.title, coalesce(nullif(r.decision, ''), r.text) as decision, "
                     "s.title as source_title from ruling_citations c join rulings r on r.id = c.ruling_id "
                     "join sources s on s.slug = r.source where c.law_id = ? order by r.id", [law_id]),
        references=[{**x, **(_labelled(t) if t else {})} for x, t in (
            (x, one(f"select {_LISTED} where l.id = ?", [x["target_id"]]))
            for x in many("select text, status, target_id from cross_references where law_id = ? order by start",
                          [law_id]))],
        cited_by=[_labelled(r) for r in many(
            f"select {_LISTED} where l.id in (select law_id from cross_references where target_id = ?) "
            "order by l.ordinal", [law_id])],
        decides=many("select s.id, s.label, ls.grade, ls.origin, ls.score, ls.evidence from law_situations ls "
                     "join situations s on s.id = ls.situation_id where ls.law_id = ? order by ls.grade, s.rowid",
                     [decided_by]),
        remedies=many("select remedy, situation_id, evidence as text, origin from law_remedies where law_id = ? "
                      "order by situation_id, remedy", [decided_by]),
        parallels=[_labelled(r) for r in many(
            f"select {_COLUMNS}, pl.score, pl.kind as parallel_kind, c.title as code_title from parallels pl "
            f"join laws l on l.id = pl.other_id {_JOINS} where pl.law_id = ? order by pl.score desc, l.ordinal",
            [decided_by])],
        mentions=many("select le.*, e.label, e.kind from law_entities le join entities e on e.id = le.entity_id "
                      "where le.law_id = ? order by le.start", [law_id]),
    )
    numbered = bool(rec.code["numbered"]) if rec.code else bool(law["numbered"])
    for name, op, order in (("previous", "<", "desc"), ("next", ">", "asc")):  # within the code, in printed order
        row = one(f"select id, number, kind from laws where code = ? and ordinal {op} ? "
                  f"order by ordinal {order} limit 1", [law["code"], law["ordinal"]])
        if row:
            row["label"] = law_label(row["kind"], row["id"], rec.game["name"], numbered)
        setattr(rec, name, row)
    return rec


def listed_laws(conn: sqlite3.Connection, ids: list[str]) -> dict[str, dict]:
    """Law id → ``{id, kind, number, opening, game_name, parent_number, source_title, label}`` for the
    ids that exist (for lists of laws: search results, citations, similar laws)."""
    if not ids:
        return {}
    conn.row_factory = sqlite3.Row
    rows = conn.execute(f"select {_LISTED} where l.id in ({','.join('?' * len(ids))})", ids)
    return {r["id"]: _labelled(r) for r in rows}
