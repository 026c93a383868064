"""Load: write a built corpus into a new SQLite file with sqlite-utils, and nothing else.

The tables are those of :mod:`ingest.build.schema`, plus ``laws``' FTS5 index ``laws_fts``
(porter stemming, over ``text`` and ``note``) and the views in ``db/views/*.sql``.
:func:`write_database` writes to the path it is given; making that atomic is the caller's job
(:func:`ingest.build.pipeline.build` writes a temporary file and renames it).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import sqlite_utils

from .. import vocabulary
from ..models import Document, Entity, Law, LawVector, Links, Ruling, Segmentation, Tag
from ..paths import VIEWS
from ..schema_version import SCHEMA_VERSION
from ..vocabulary import SituationEntry
from .schema import TABLES
from .tagging import dumps


@dataclass
class Corpus:
    """Everything a build writes: each document with its codes' segmentations (laws tagged and
    linked), the display names of the games used, the entity taxonomy, the situations, the
    rulings, the links between records, the law vectors by law id and each law's tagging key."""

    segmented: list[tuple[Document, list[Segmentation]]]
    games: dict[str, str]
    entities: list[Entity]
    situations: list[SituationEntry]
    rulings: list[Ruling] = field(default_factory=list)
    links: Links = field(default_factory=Links)
    vectors: dict[str, LawVector] = field(default_factory=dict)
    tagging: dict[str, str] = field(default_factory=dict)  # law id → its tagging key (ingest.build.tagging)
    questions: dict[tuple[str, int], LawVector] = field(default_factory=dict)  # (law id, n) → a question's vector
    book_words: dict[str, float | None] = field(default_factory=dict)  # stem → English log probability (ingest.build.words)
    stages: dict[str, tuple[str, str]] = field(default_factory=dict)  # stage → (key, output JSON) a rebuild may keep (ingest.build.citing)


def rows(corpus: Corpus) -> Iterable[tuple[str, Iterable[dict]]]:
    """``(table, rows)`` for every table of :data:`TABLES`, in that order."""
    segs = [(d, s) for d, ss in corpus.segmented for s in ss]
    laws = [law for _, s in segs for law in s.laws]
    situations = {entry.id: entry for entry in corpus.situations}
    yield "games", ({"slug": slug, "name": name} for slug, name in sorted(corpus.games.items()))
    yield "sources", (
        {"slug": d.source.slug, "title": d.source.title, "author": d.source.author, "year": d.source.year,
         "url": d.source.url, "file": d.source.file, "sha256": d.source.sha256, "excerpt_of": d.source.excerpt_of,
         "page_marker": d.source.page_marker, "lines": d.line_count, "kind": d.source.kind,
         "edition": d.source.edition, "licence": d.source.licence, "address": d.source.address}
        for d, _ in corpus.segmented
    )
    yield "codes", (
        {"id": f"{d.source.slug}/{s.code.slug}", "source": d.source.slug, "game": s.code.game,
         "title": s.code.title or f"Laws of {corpus.games.get(s.code.game, s.code.game)}",
         "authority": s.code.authority, "year": s.code.year, "edition": s.code.edition,
         "aliases": list(s.code.aliases), "family": s.code.family or vocabulary.family_of(s.code.game),
         "numbered": int(s.code.numbering != "unnumbered"), "kind": s.code.kind,
         "line_start": s.code.start_line or 1, "line_end": s.code.end_line or d.line_count,
         "laws": sum(1 for law in s.laws if law.kind == "law")}
        for d, s in segs
    )
    yield "laws", (
        {"id": law.id, "source": law.source, "game": law.game, "code": law.code_id, "section": law.section,
         "number": law.number, "parent": law.parent, "kind": law.kind, "ordinal": law.ordinal, "text": law.text,
         "raw_text": law.raw_text, "note": law.note, "page_start": law.page_start, "page_end": law.page_end,
         "line_start": law.line_start, "line_end": law.line_end, "entities": law.entity_ids,
         "numbered": int(law.numbered), "witness_of": law.witness_of,
         "content_hash": hashlib.sha256(law.text.encode()).hexdigest(),
         "situations": sorted({t.situation for t in law.tags if t.grade == "decides" and t.remedy is None}),
         "citation": law.citation, "topics": _topics(law, situations), "questions": "\n".join(law.questions) or None,
         "accounts": "\n".join(law.accounts) or None}
        for law in laws
    )
    yield "fragments", (
        {"id": f.id, "source": f.source, "code": f.code_id, "text": f.text, "raw_text": f.raw_text,
         "reason": f.reason, "page_start": f.page_start, "page_end": f.page_end, "line_start": f.line_start,
         "line_end": f.line_end}
        for _, s in segs for f in s.fragments
    )
    yield "entities", ({"id": e.id, "label": e.label, "kind": e.kind, "definition": e.definition}
                       for e in corpus.entities)
    yield "law_entities", ({"law_id": law.id, "entity_id": m.entity_id, "start": m.start, "end": m.end,
                            "text": m.text} for law in laws for m in law.mentions)
    yield "cross_references", (vars(x) for x in corpus.links.cross_references)
    yield "rulings", (vars(r) for r in corpus.rulings)
    yield "ruling_citations", (vars(c) for c in corpus.links.ruling_citations)
    yield "situations", ({"id": s.id, "label": s.label, "description": s.description} for s in corpus.situations)
    yield "law_situations", (_tag_row(law.id, t) for law in laws for t in _unique(law.tags, remedies=False))
    yield "law_remedies", ({**_tag_row(law.id, t), "remedy": t.remedy}
                           for law in laws for t in _unique(law.tags, remedies=True))
    yield "parallels", ({"law_id": p.law_id, "other_id": p.other_id, "score": round(p.score, 6),
                         "method": p.method, "kind": p.kind} for p in corpus.links.parallels)
    yield "law_tagging", (_tagging_row(law, corpus.tagging[law.id]) for law in laws if law.id in corpus.tagging)
    yield "law_questions", ({"law_id": law.id, "n": n, "question": q, "model": v.model if v else None,
                             "content_hash": v.content_hash if v else None, "vector": v.vector if v else None}
                            for law in laws if not law.witness_of for n, q in enumerate(law.questions)
                            for v in [corpus.questions.get((law.id, n))])
    yield "book_words", ({"stem": w, "english_logprob": p} for w, p in sorted(corpus.book_words.items()))
    yield "law_embeddings", ({"law_id": law_id, "model": v.model, "content_hash": v.content_hash,
                              "vector": v.vector} for law_id, v in sorted(corpus.vectors.items()))
    yield "build_stages", ({"stage": stage, "key": key, "output": output}
                           for stage, (key, output) in sorted(corpus.stages.items()))


def _tagging_row(law: Law, key: str) -> dict:
    mentions, decision = dumps(law)
    return {"law_id": law.id, "key": key, "mentions": mentions, "decision": decision}


def _topics(law, situations: dict[str, SituationEntry]) -> str | None:
    """What a law decides, in words a full-text search finds: for each situation it decides, the
    situation's label, description and the modern phrases a player asks it with (``asked`` in
    ``vocabulary/situations.toml``, without the "..." of the phrase language); for each remedy it
    gives, the remedy's name ("new deal"). ``None`` for a law that decides nothing."""
    parts: list[str] = []
    for tag in law.tags:
        if tag.grade != "decides":
            continue
        if tag.remedy is not None:
            parts.append(tag.remedy.replace("-", " "))
        elif tag.situation in situations:
            entry = situations[tag.situation]
            parts += [entry.label, entry.description, *(p.replace("...", " ") for p in entry.asked)]
    parts = list(dict.fromkeys(" ".join(p.split()).rstrip(".") for p in parts))
    return ". ".join(parts) or None


def _unique(tags: list[Tag], remedies: bool) -> list[Tag]:
    """One tag a situation (a remedy and situation): ``decides`` over ``touches``, the first."""
    out: dict[tuple, Tag] = {}
    for t in tags:
        if (t.remedy is not None) != remedies:
            continue
        key = (t.situation, t.remedy)
        if key not in out or (out[key].grade == "touches" and t.grade == "decides"):
            out[key] = t
    return list(out.values())


def _tag_row(law_id: str, t: Tag) -> dict:
    return {"law_id": law_id, "situation_id": t.situation, "grade": t.grade, "origin": t.origin,
            "score": t.score, "evidence": t.evidence, "evidence_start": t.start, "evidence_end": t.end}


def write_database(path: Path, corpus: Corpus, views: Path = VIEWS) -> dict[str, int]:
    """Write every table to a new database at ``path`` (which must not exist) and return row
    counts by table. Raises :class:`RuntimeError` if a foreign key does not hold (a bug)."""
    db = sqlite_utils.Database(path)
    # A fresh file that is renamed into place only when complete: no journal or per-insert sync
    # is needed (the caller syncs the finished file before the rename).
    db.execute("PRAGMA journal_mode = OFF")
    db.execute("PRAGMA synchronous = OFF")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")  # checked by whatever reads the database
    for name, records in rows(corpus):
        table = TABLES[name]
        db[name].create(table.columns, pk=table.pk, foreign_keys=list(table.foreign_keys),
                        not_null=set(table.not_null) or None)
        db[name].insert_all(records)
    for name, table in TABLES.items():
        for cols in table.indexes:
            db[name].create_index(list(cols))
    db["laws"].enable_fts(["text", "note", "topics", "questions", "accounts"], tokenize="porter")
    for sql_file in sorted(views.glob("*.sql")):
        db.create_view(sql_file.stem, sql_file.read_text(encoding="utf-8"))
    counts = {t: db[t].count for t in db.table_names() if not t.startswith("laws_fts")}
    db.execute("PRAGMA foreign_keys = ON")
    problems = list(db.execute("PRAGMA foreign_key_check"))
    db.close()
    if problems:
        raise RuntimeError(f"foreign key check failed: {problems[:5]}")
    return counts
