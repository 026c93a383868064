"""Load: write the segmented, tagged corpus into a new SQLite file with sqlite-utils.

Tables (``shared/DESIGN.md`` §3, plus ``codes`` and ``fragments``): ``games``, ``sources``,
``codes``, ``laws`` (with ``entities``, a JSON array of entity ids for Datasette's
``_facet_array``), ``fragments``, ``entities``, ``law_entities``, the FTS5 index ``laws_fts``
(porter stemming, over ``text`` and ``note``), and the views in ``db/views/*.sql``.

:func:`write_database` writes to the path it is given; making that atomic is the caller's job
(:func:`ingest.build.build` writes a temporary file and renames it).
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable
from pathlib import Path

import sqlite_utils

from .models import Document, Entity, Ruling, Segmentation
from .paths import VIEWS

LAW_COLUMNS = {
    "id": str, "source": str, "game": str, "code": str, "section": str, "number": str,
    "parent": str, "kind": str, "ordinal": int, "text": str, "raw_text": str, "note": str,
    "page_start": int, "page_end": int, "line_start": int, "line_end": int, "entities": str,
    "numbered": int, "witness_of": str, "content_hash": str, "situations": str,
}


def cross_references(db: sqlite_utils.Database, path: Path) -> None:
    """Resolve the citations inside every law's text (its own law as the context) into
    ``cross_references(law_id, target_id, text, start, end, status)``: one row per law cited
    (``target_id`` null when unresolved); offsets are into ``laws.text``."""
    from .cite import Resolver

    conn = sqlite3.connect(path)
    try:
        resolver = Resolver(conn)
        rows = []
        for law_id, text in conn.execute("select id, text from laws where witness_of is null order by ordinal").fetchall():
            for r in resolver.cite(text, context=law_id):
                c = r.citation
                for target in r.laws or [None]:
                    if target != law_id:
                        rows.append({"law_id": law_id, "target_id": target, "text": c.text, "start": c.start,
                                     "end": c.end, "status": r.status})
    finally:
        conn.close()
    db["cross_references"].create(
        {"law_id": str, "target_id": str, "text": str, "start": int, "end": int, "status": str},
        foreign_keys=[("law_id", "laws", "id"), ("target_id", "laws", "id")],
    )
    db["cross_references"].insert_all(rows)
    db["cross_references"].create_index(["law_id"])
    db["cross_references"].create_index(["target_id"])


def ruling_citations(path: Path, rulings: list[Ruling], rules: dict[str, str]) -> list[dict]:
    """Resolve the citations in each ruling's raw text (the decisions of a book of cases read
    "Law 51" as a law of the code the book rules on, ``rules[source]``): one row per law cited,
    ``law_id`` null when unresolved; offsets are into the ruling's ``raw_text``."""
    from .cite import Resolver

    conn = sqlite3.connect(path)
    try:
        resolver = Resolver(conn)
        rows = []
        for r in rulings:
            for res in resolver.cite(r.raw_text, book=rules.get(r.source)):
                for law_id in res.laws or [None]:
                    rows.append({"ruling_id": r.id, "law_id": law_id, "text": res.citation.text,
                                 "start": res.citation.start, "end": res.citation.end, "status": res.status})
        return rows
    finally:
        conn.close()


def write_database(
    path: Path,
    games: dict[str, str],
    entities: list[Entity],
    corpus: Iterable[tuple[Document, list[Segmentation]]],
    rulings: Iterable[Ruling] = (),
    rules: dict[str, str] | None = None,
    vectors: dict[str, tuple[str, str, bytes]] | None = None,
    situations: list | None = None,
    parallel_rows: list[tuple[str, str, float, str]] | None = None,
    views: Path = VIEWS,
) -> dict[str, int]:
    """Write every table to a new database at ``path`` (which must not exist).

    ``games`` maps the slugs used to display names; ``corpus`` gives each document with its codes'
    segmentations, laws already tagged; ``vectors`` law id → (model, content hash, float32
    bytes) for ``law_embeddings``; ``rulings`` the decided cases, whose citations resolve to
    the laws of the source ``rules[ruling.source]``. Returns row counts by table.
    """
    db = sqlite_utils.Database(path)
    # A fresh file that is renamed into place only when complete: no journal or per-insert sync
    # is needed (the caller syncs the finished file before the rename).
    db.execute("PRAGMA journal_mode = OFF")
    db.execute("PRAGMA synchronous = OFF")
    corpus = list(corpus)

    db["games"].insert_all(
        ({"slug": slug, "name": name} for slug, name in sorted(games.items())),
        pk="slug", columns={"slug": str, "name": str},
    )
    db["sources"].insert_all(
        (
            {
                "slug": d.source.slug, "title": d.source.title, "author": d.source.author,
                "year": d.source.year, "url": d.source.url, "file": d.source.file,
                "sha256": d.source.sha256, "excerpt_of": d.source.excerpt_of,
                "page_marker": d.source.page_marker, "lines": d.line_count, "kind": d.source.kind,
                "edition": d.source.edition, "licence": d.source.licence, "address": d.source.address,
            }
            for d, _ in corpus
        ),
        pk="slug",
        columns={"author": str, "year": int, "url": str, "excerpt_of": str, "edition": str,
                 "licence": str, "address": str},
    )
    db["codes"].create(
        {"id": str, "source": str, "game": str, "title": str, "line_start": int, "line_end": int, "laws": int},
        pk="id", foreign_keys=[("source", "sources", "slug"), ("game", "games", "slug")],
    )
    db["codes"].insert_all(
        {
            "id": f"{d.source.slug}/{s.code.slug}", "source": d.source.slug, "game": s.code.game,
            "title": s.code.title or f"Laws of {games.get(s.code.game, s.code.game)}",
            "line_start": s.code.start_line or 1, "line_end": s.code.end_line or d.line_count,
            "laws": sum(1 for law in s.laws if law.kind == "law"),
        }
        for d, segs in corpus
        for s in segs
    )
    db["laws"].create(
        LAW_COLUMNS, pk="id", not_null={"source", "game", "code", "number", "kind", "text", "raw_text"},
        foreign_keys=[
            ("source", "sources", "slug"), ("game", "games", "slug"), ("code", "codes", "id"),
            ("parent", "laws", "id"), ("witness_of", "laws", "id"),
        ],
    )
    db["laws"].insert_all(
        {
            "id": law.id, "source": law.source, "game": law.game,
            "code": f"{law.source}/{law.code}", "section": law.section, "number": law.number,
            "parent": law.parent, "kind": law.kind, "ordinal": law.ordinal, "text": law.text,
            "raw_text": law.raw_text, "note": law.note, "page_start": law.page_start,
            "page_end": law.page_end, "line_start": law.line_start, "line_end": law.line_end,
            "entities": law.entity_ids, "numbered": int(law.numbered), "witness_of": law.witness_of,
            "content_hash": hashlib.sha256(law.text.encode()).hexdigest(),
            "situations": sorted(law.decision.situations) if law.decision else [],
        }
        for _, segs in corpus
        for s in segs
        for law in s.laws
    )
    db["fragments"].create(
        {"id": str, "source": str, "code": str, "text": str, "raw_text": str, "reason": str,
         "page_start": int, "page_end": int, "line_start": int, "line_end": int},
        pk="id", foreign_keys=[("source", "sources", "slug"), ("code", "codes", "id")],
    )
    db["fragments"].insert_all(
        {
            "id": f.id, "source": f.source, "code": f"{f.source}/{f.code}", "text": f.text,
            "raw_text": f.raw_text, "reason": f.reason, "page_start": f.page_start,
            "page_end": f.page_end, "line_start": f.line_start, "line_end": f.line_end,
        }
        for _, segs in corpus
        for s in segs
        for f in s.fragments
    )
    db["entities"].insert_all(
        ({"id": e.id, "label": e.label, "kind": e.kind, "definition": e.definition} for e in entities),
        pk="id",
    )
    db["law_entities"].create(
        {"law_id": str, "entity_id": str, "start": int, "end": int, "text": str},
        pk=("law_id", "start", "entity_id"),
        foreign_keys=[("law_id", "laws", "id"), ("entity_id", "entities", "id")],
    )
    db["law_entities"].insert_all(
        {"law_id": law.id, "entity_id": m.entity_id, "start": m.start, "end": m.end, "text": m.text}
        for _, segs in corpus
        for s in segs
        for law in s.laws
        for m in law.mentions
    )
    cross_references(db, path)
    rulings = list(rulings)
    db["rulings"].create(
        {"id": str, "source": str, "number": str, "title": str, "text": str, "decision": str,
         "raw_text": str, "line_start": int, "line_end": int},
        pk="id", foreign_keys=[("source", "sources", "slug")],
    )
    db["rulings"].insert_all(
        {"id": r.id, "source": r.source, "number": r.number, "title": r.title, "text": r.text,
         "decision": r.decision, "raw_text": r.raw_text, "line_start": r.line_start, "line_end": r.line_end}
        for r in rulings
    )
    db["ruling_citations"].create(
        {"ruling_id": str, "law_id": str, "text": str, "start": int, "end": int, "status": str},
        foreign_keys=[("ruling_id", "rulings", "id"), ("law_id", "laws", "id")],
    )
    db["ruling_citations"].insert_all(ruling_citations(path, rulings, rules or {}))
    db["situations"].create({"id": str, "label": str, "description": str}, pk="id")
    db["situations"].insert_all({"id": s.id, "label": s.label, "description": s.description} for s in situations or [])
    all_laws = [law for _, segs in corpus for s in segs for law in s.laws]
    db["law_situations"].create(
        {"law_id": str, "situation_id": str, "score": float, "method": str},
        pk=("law_id", "situation_id"), foreign_keys=[("law_id", "laws", "id"), ("situation_id", "situations", "id")],
    )
    db["law_situations"].insert_all(
        {"law_id": law.id, "situation_id": sid, "score": float(n), "method": "cues"}
        for law in all_laws if law.decision for sid, n in sorted(law.decision.situations.items())
    )
    db["law_remedies"].create({"law_id": str, "remedy": str, "text": str}, pk=("law_id", "remedy"),
                              foreign_keys=[("law_id", "laws", "id")])
    db["law_remedies"].insert_all(
        {"law_id": law.id, "remedy": r, "text": t}
        for law in all_laws if law.decision for r, t in sorted(law.decision.remedies.items())
    )
    db["parallels"].create({"law_id": str, "other_id": str, "score": float, "method": str, "kind": str},
                           pk=("law_id", "other_id"), foreign_keys=[("law_id", "laws", "id"), ("other_id", "laws", "id")])
    db["parallels"].insert_all(
        {"law_id": a, "other_id": b, "score": round(score, 6), "method": "embedding", "kind": kind}
        for a, b, score, kind in parallel_rows or []
    )
    for table, cols in [("law_situations", ["situation_id"]), ("law_remedies", ["remedy"]), ("parallels", ["other_id"])]:
        db[table].create_index(cols)
    db["law_embeddings"].create(
        {"law_id": str, "model": str, "content_hash": str, "vector": bytes},
        pk="law_id", foreign_keys=[("law_id", "laws", "id")],
    )
    db["law_embeddings"].insert_all(
        {"law_id": law_id, "model": m, "content_hash": h, "vector": v}
        for law_id, (m, h, v) in sorted((vectors or {}).items())
    )
    for table, cols in [
        ("laws", ["game"]), ("laws", ["source"]), ("laws", ["code"]), ("laws", ["parent"]),
        ("laws", ["kind"]), ("law_entities", ["entity_id"]), ("law_entities", ["law_id"]),
        ("codes", ["source"]), ("fragments", ["source"]), ("laws", ["witness_of"]),
        ("ruling_citations", ["law_id"]), ("ruling_citations", ["ruling_id"]),
    ]:
        db[table].create_index(cols)
    db["laws"].enable_fts(["text", "note"], tokenize="porter")
    for sql_file in sorted(views.glob("*.sql")):
        db.create_view(sql_file.stem, sql_file.read_text(encoding="utf-8"))
    counts = {t: db[t].count for t in db.table_names() if not t.startswith("laws_fts")}
    db.execute("PRAGMA foreign_keys = ON")
    problems = list(db.execute("PRAGMA foreign_key_check"))
    db.close()
    if problems:
        raise RuntimeError(f"foreign key check failed: {problems[:5]}")
    return counts
