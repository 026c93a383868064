"""The tables of a Card Laws database, as data: columns and types, primary key, foreign keys,
indexes. :func:`ingest.build.load.write_database` creates them with sqlite-utils in this order
(a table before the tables that refer to it). The README's "Tables" section describes them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Table:
    """One table: ``columns`` name → Python type (sqlite-utils maps it), ``pk`` a column or a
    tuple of them, ``foreign_keys`` ``(column, table, column)``, ``indexes`` lists of columns."""

    columns: dict[str, type]
    pk: str | tuple[str, ...] | None = None
    foreign_keys: tuple[tuple[str, str, str], ...] = ()
    not_null: frozenset[str] = frozenset()
    indexes: tuple[tuple[str, ...], ...] = ()


TABLES: dict[str, Table] = {
    "games": Table({"slug": str, "name": str}, pk="slug"),
    "sources": Table(
        {"slug": str, "title": str, "author": str, "year": int, "url": str, "file": str, "sha256": str,
         "excerpt_of": str, "page_marker": str, "lines": int, "kind": str, "edition": str, "licence": str,
         "address": str},
        pk="slug",
    ),
    "codes": Table(
        {"id": str, "source": str, "game": str, "title": str, "authority": str, "year": int, "edition": str,
         "aliases": str, "family": str, "numbered": int, "kind": str, "line_start": int, "line_end": int, "laws": int},
        pk="id", foreign_keys=(("source", "sources", "slug"), ("game", "games", "slug")), indexes=(("source",),),
    ),
    "laws": Table(
        {"id": str, "source": str, "game": str, "code": str, "section": str, "number": str,
         "parent": str, "kind": str, "ordinal": int, "text": str, "raw_text": str, "note": str,
         "page_start": int, "page_end": int, "line_start": int, "line_end": int, "entities": str,
         "numbered": int, "witness_of": str, "content_hash": str, "situations": str, "citation": str, "topics": str, "questions": str, "accounts": str},
        pk="id", not_null=frozenset({"source", "game", "code", "number", "kind", "text", "raw_text"}),
        foreign_keys=(("source", "sources", "slug"), ("game", "games", "slug"), ("code", "codes", "id"),
                      ("parent", "laws", "id"), ("witness_of", "laws", "id")),
        indexes=(("game",), ("source",), ("code",), ("parent",), ("kind",), ("witness_of",)),
    ),
    "fragments": Table(
        {"id": str, "source": str, "code": str, "text": str, "raw_text": str, "reason": str,
         "page_start": int, "page_end": int, "line_start": int, "line_end": int},
        pk="id", foreign_keys=(("source", "sources", "slug"), ("code", "codes", "id")), indexes=(("source",),),
    ),
    "entities": Table({"id": str, "label": str, "kind": str, "definition": str}, pk="id"),
    "law_entities": Table(
        {"law_id": str, "entity_id": str, "start": int, "end": int, "text": str},
        pk=("law_id", "start", "entity_id"),
        foreign_keys=(("law_id", "laws", "id"), ("entity_id", "entities", "id")),
        indexes=(("entity_id",), ("law_id",)),
    ),
    "cross_references": Table(
        {"law_id": str, "target_id": str, "text": str, "start": int, "end": int, "status": str},
        foreign_keys=(("law_id", "laws", "id"), ("target_id", "laws", "id")),
        indexes=(("law_id",), ("target_id",)),
    ),
    "rulings": Table(
        {"id": str, "source": str, "number": str, "title": str, "text": str, "decision": str,
         "raw_text": str, "line_start": int, "line_end": int},
        pk="id", foreign_keys=(("source", "sources", "slug"),),
    ),
    "ruling_citations": Table(
        {"ruling_id": str, "law_id": str, "text": str, "start": int, "end": int, "status": str},
        foreign_keys=(("ruling_id", "rulings", "id"), ("law_id", "laws", "id")),
        indexes=(("law_id",), ("ruling_id",)),
    ),
    "situations": Table({"id": str, "label": str, "description": str}, pk="id"),
    "law_situations": Table(
        {"law_id": str, "situation_id": str, "grade": str, "origin": str, "score": float, "evidence": str,
         "evidence_start": int, "evidence_end": int},
        pk=("law_id", "situation_id"),
        foreign_keys=(("law_id", "laws", "id"), ("situation_id", "situations", "id")),
        indexes=(("situation_id",),),
    ),
    "law_remedies": Table(
        {"law_id": str, "situation_id": str, "remedy": str, "grade": str, "origin": str, "score": float,
         "evidence": str, "evidence_start": int, "evidence_end": int},
        pk=("law_id", "situation_id", "remedy"),
        foreign_keys=(("law_id", "laws", "id"), ("situation_id", "situations", "id")), indexes=(("remedy",),),
    ),
    "parallels": Table(
        {"law_id": str, "other_id": str, "score": float, "method": str, "kind": str}, pk=("law_id", "other_id"),
        foreign_keys=(("law_id", "laws", "id"), ("other_id", "laws", "id")), indexes=(("other_id",),),
    ),
    "law_tagging": Table(
        {"law_id": str, "key": str, "mentions": str, "decision": str}, pk="law_id",
        foreign_keys=(("law_id", "laws", "id"),),
    ),
    "law_questions": Table(
        {"law_id": str, "n": int, "question": str, "model": str, "content_hash": str, "vector": bytes},
        pk=("law_id", "n"), foreign_keys=(("law_id", "laws", "id"),),
    ),
    "book_words": Table({"stem": str, "english_logprob": float}, pk="stem"),
    "law_embeddings": Table(
        {"law_id": str, "model": str, "content_hash": str, "vector": bytes}, pk="law_id",
        foreign_keys=(("law_id", "laws", "id"),),
    ),
    # a build stage's output kept under the hash of what it read, for the next build to take
    # when the hash is the same (ingest.build.citing: the citations)
    "build_stages": Table({"stage": str, "key": str, "output": str}, pk="stage"),
}
