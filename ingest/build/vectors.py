"""Vectors: a sentence vector for every law (and, through :func:`embed_new`, every plain question:
:mod:`.questions`), computed only where the text changed.

A law's vector is kept with its model and the hash of what was embedded (the section heading and
the text, :func:`ingest.embed.law_passage`); a rebuild takes the vectors whose hash it finds in
the previous database and embeds the rest.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import numpy as np

from ..embed import DEFAULT_MODEL, content_hash, law_passage, load_embedder
from ..models import Law, LawVector

Progress = Callable[[Iterable, int, str], Iterable]


def previous_vectors(db_path: Path, model: str, wanted: set[str], table: str = "law_embeddings") -> dict[str, bytes]:
    """Content hash → vector bytes of the ``wanted`` hashes found in ``table`` (``law_embeddings``
    or ``law_questions``) of the database at ``db_path`` (none when it is missing, unreadable or
    has no such table: everything is then embedded)."""
    found: dict[str, bytes] = {}
    if not db_path.exists():
        return found
    try:
        with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as old:
            for h, blob in old.execute(f"select content_hash, vector from {table} where model = ?", [model]):
                if h in wanted:
                    found[h] = blob
    except sqlite3.Error:
        pass
    return found


def embed_new(texts: dict[str, str], previous: Path, table: str, progress: Progress, label: str,
              model: str = DEFAULT_MODEL, model_batch: int | None = None
              ) -> tuple[dict[str, bytes], set[str]]:
    """Vector bytes (float32) by content hash for ``texts`` (content hash → text): reused from
    ``table`` of the database at ``previous`` where found, else computed, the shortest first so each
    batch pads little: ``model_batch`` texts a forward pass (else the model's own number). The model
    gives its vectors as it computes them (``batches``: :meth:`ingest.embed.MiniLM.batches`), and the
    progress bar moves with them. (Handed 64 laws at a time, the project's model took 18.0 s for the
    books, 256 at a time 14.5 s: each share ended with a worker waiting for the other; since
    2026-12-02 it is handed them all at once.) Returns the vectors and the hashes computed."""
    known = previous_vectors(previous, model, set(texts), table)
    todo = sorted((h for h in texts if h not in known), key=lambda h: len(texts[h]))
    if todo:
        sizes = {"batch_size": model_batch} if model_batch else {}
        batches = load_embedder(model).batches([texts[h] for h in todo], **sizes)
        for h, vec in progress(_each(batches, todo), len(todo), label):
            known[h] = vec.astype("float32").tobytes()
    return known, set(todo)


def _each(batches: Iterable[tuple[np.ndarray, np.ndarray]], hashes: list[str]) -> Iterator[tuple[str, np.ndarray]]:
    """(content hash, vector) for each text of the model's batches (positions into ``hashes``)."""
    for idx, vectors in batches:
        for i, vector in zip(idx, vectors, strict=True):
            yield hashes[i], vector


def embed_laws(laws: list[Law], previous: Path, progress: Progress,
               model: str = DEFAULT_MODEL) -> tuple[dict[str, LawVector], int]:
    """A :class:`LawVector` for every law but an excerpt's copy of a book's law, by law id, and
    how many were computed (the others were reused from the database at ``previous``). Vectors
    are float32, 384 values for the default model."""
    passages = {law.id: law_passage(law.text, law.section) for law in laws if not law.witness_of}
    hashes = {law_id: content_hash(p, model) for law_id, p in passages.items()}
    known, computed = embed_new({hashes[i]: p for i, p in passages.items()}, previous, "law_embeddings", progress,
                                "Embedding laws", model)
    return ({law_id: LawVector(model, h, known[h]) for law_id, h in hashes.items()},
            sum(h in computed for h in hashes.values()))
