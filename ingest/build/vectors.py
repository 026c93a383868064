"""Vectors: a sentence vector for every law, computed only where the law changed.

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


def previous_vectors(db_path: Path, model: str, wanted: set[str]) -> dict[str, bytes]:
    """Content hash → vector bytes of the ``wanted`` hashes found in the database at ``db_path``
    (none when it is missing or unreadable: everything is then embedded)."""
    found: dict[str, bytes] = {}
    if not db_path.exists():
        return found
    try:
        with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as old:
            for h, blob in old.execute("select content_hash, vector from law_embeddings where model = ?", [model]):
                if h in wanted:
                    found[h] = blob
    except sqlite3.Error:
        pass
    return found


def embed_laws(laws: list[Law], previous: Path, progress: Progress,
               model: str = DEFAULT_MODEL) -> tuple[dict[str, LawVector], int]:
    """A :class:`LawVector` for every law but an excerpt's copy of a book's law, by law id, and
    how many were computed (the others were reused from the database at ``previous``). Vectors
    are float32, 384 values for the default model."""
    passages = {law.id: law_passage(law.text, law.section) for law in laws if not law.witness_of}
    hashes = {law_id: content_hash(p, model) for law_id, p in passages.items()}
    known = previous_vectors(previous, model, set(hashes.values()))
    # by length, so each batch handed to the model holds texts of like lengths (less padding)
    todo = sorted((law_id for law_id, h in hashes.items() if h not in known), key=lambda i: len(passages[i]))
    if todo:
        embedder = load_embedder(model)
        for n, _ in enumerate(progress(todo, len(todo), "Embedding laws")):  # counted in laws, encoded in batches
            if n % BATCH == 0:  # the batch this law opens, encoded as the bar reaches it
                batch = todo[n : n + BATCH]
                for law_id, vec in zip(batch, embedder.encode([passages[i] for i in batch])):
                    known[hashes[law_id]] = vec.astype("float32").tobytes()
    return {law_id: LawVector(model, h, known[h]) for law_id, h in hashes.items()}, len(todo)
