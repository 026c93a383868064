"""Vectors: a sentence vector for every law (and, through :func:`embed_new`, every plain question:
:mod:`.questions`), computed only where the text changed.

A law's vector is kept with its model and the hash of what was embedded (the section heading and
the text, :func:`ingest.embed.law_passage`); a rebuild takes the vectors whose hash it finds in
the previous database and embeds the rest.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from pathlib import Path

from ..embed import DEFAULT_MODEL, content_hash, law_passage, load_embedder
from ..models import Law, LawVector

Progress = Callable[[Iterable, int, str], Iterable]
BATCH = 256  # laws handed to the model at once (the progress bar moves by as many): 64 took 18.0 s for the books, 256 14.5 s


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
              model: str = DEFAULT_MODEL, batch: int = BATCH, model_batch: int | None = None
              ) -> tuple[dict[str, bytes], set[str]]:
    """Vector bytes (float32) by content hash for ``texts`` (content hash → text): reused from
    ``table`` of the database at ``previous`` where found, else computed, ``batch`` texts handed to
    the model at once (``model_batch`` a forward pass, else the model's own), the shortest first so each batch pads
    little. Returns the vectors and the hashes computed."""
    known = previous_vectors(previous, model, set(texts), table)
    todo = sorted((h for h in texts if h not in known), key=lambda h: len(texts[h]))
    if todo:
        embedder = load_embedder(model)
        for n, _ in enumerate(progress(todo, len(todo), label)):  # counted in texts, encoded in batches
            if n % batch == 0:  # the batch this text opens, encoded as the bar reaches it
                chunk = todo[n : n + batch]
                sizes = {"batch_size": model_batch} if model_batch else {}
                for h, vec in zip(chunk, embedder.encode([texts[h] for h in chunk], **sizes), strict=True):
                    known[h] = vec.astype("float32").tobytes()
    return known, set(todo)


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
