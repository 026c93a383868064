"""Questions: what a law answers, in the words a player uses today (``corpus/questions/<book>.csv``,
written by people who read each law; the folder's README gives the columns and the rules): the
plain **questions** a player asks ("What happens if the dealer turns a card face up while
dealing?") and the **accounts** a player gives of what happened at the table ("I dealt one too
many cards to the guy across from me"), and the questions' sentence vectors.

A search matches a query against both beside the law's text ("If the dealer expose a card…"). They
are kept with their law (``Law.questions``, ``Law.accounts``); each question's vector is computed
once and reused while its words are unchanged, as a law's is (:mod:`.vectors`). Accounts are
matched by their words only: their vectors added 0.006 to the ranker's cross-validated nDCG@10 and
5 s to a new database's build.
"""

from __future__ import annotations

import csv
import sqlite3
from collections.abc import Callable, Iterable
from pathlib import Path

from ..embed import DEFAULT_MODEL, content_hash, load_embedder
from ..models import CorpusError, Law, LawVector

COLUMNS = ["law_id", "form", "text", "opening"]
FORMS = ("question", "account")
MAX_WORDS = 40
BATCH = 512  # questions handed to the model at once (the progress bar moves by as many)
MODEL_BATCH = 16  # questions a forward pass: short texts, so more than a law's 4 (3,005 questions: 5.7 s against 7.5 s)
Progress = Callable[[Iterable, int, str], Iterable]


def read_questions(folder: Path, laws: list[Law]) -> list[str]:
    """Set ``questions`` and ``accounts`` on each law of a book with a file in ``folder`` (in the
    file's order) and return warnings: a law of such a book the file does not list (it was not read
    yet). Files of books not being built are skipped; an excerpt's copy of a book's law has its
    book law's. Raises :class:`CorpusError` naming the file and line for a wrong header, a law id
    that is not a law of that book, a form other than ``question`` or ``account`` (empty only on a
    law's one empty row), a text over ``MAX_WORDS`` words or listed twice for a law."""
    by_id = {law.id: law for law in laws}
    sources = {law.source for law in laws}
    warnings: list[str] = []
    for path in sorted(folder.glob("*.csv")) if folder.is_dir() else []:
        if path.stem not in sources:
            continue
        listed: set[str] = set()
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            if reader.fieldnames != COLUMNS:
                raise CorpusError(f"{path}:1: the header must be {','.join(COLUMNS)}")
            for line, row in enumerate(reader, start=2):
                where = f"{path}:{line}"
                law = by_id.get(row["law_id"] or "")
                if law is None or law.source != path.stem:
                    raise CorpusError(f"{where}: law_id {row['law_id']!r} is not a law of {path.stem}")
                listed.add(law.id)
                text, form = " ".join((row["text"] or "").split()), (row["form"] or "").strip()
                if not text and not form:
                    continue  # a law with no rule to ask about (a heading, a cross-reference)
                if form not in FORMS or not text:
                    raise CorpusError(f"{where}: form must be question or account, with a text "
                                      f"(both empty on a law's one empty row), not {form!r}")
                if len(text.split()) > MAX_WORDS:
                    raise CorpusError(f"{where}: the text has over {MAX_WORDS} words")
                if text.lower() in (q.lower() for q in [*law.questions, *law.accounts]):
                    raise CorpusError(f"{where}: {text!r} is listed twice for {law.id}")
                (law.questions if form == "question" else law.accounts).append(text)
        unread = [law.id for law in laws if law.source == path.stem and law.id not in listed and not law.witness_of]
        if unread:
            shown = ", ".join(unread[:5]) + (f" and {len(unread) - 5} more" if len(unread) > 5 else "")
            warnings.append(f"{path}: {len(unread)} law(s) of the book not listed: {shown}")
    for law in laws:
        if law.witness_of and law.witness_of in by_id and not (law.questions or law.accounts):
            law.questions = list(by_id[law.witness_of].questions)
            law.accounts = list(by_id[law.witness_of].accounts)
    return warnings


def previous_question_vectors(db_path: Path, model: str) -> dict[str, bytes]:
    """Content hash → vector bytes of the questions in the database at ``db_path`` (none when it is
    missing, unreadable or has no ``law_questions``)."""
    if not db_path.exists():
        return {}
    try:
        with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as old:
            return dict(old.execute("select content_hash, vector from law_questions where model = ?", [model]))
    except sqlite3.Error:
        return {}


def embed_questions(laws: list[Law], previous: Path, progress: Progress,
                    model: str = DEFAULT_MODEL) -> tuple[dict[tuple[str, int], LawVector], int]:
    """A :class:`LawVector` for each question of each law (not an excerpt's copy), by (law id,
    0-based position of the question), and how many were computed (the others were reused from
    the database at ``previous``). Vectors are float32, 384 values for the default model."""
    texts = {(law.id, n): q for law in laws if not law.witness_of for n, q in enumerate(law.questions)}
    hashes = {key: content_hash(f"question: {q}", model) for key, q in texts.items()}
    known = previous_question_vectors(previous, model)
    todo = sorted({h: key for key, h in hashes.items() if h not in known}.items(), key=lambda hk: len(texts[hk[1]]))
    if todo:
        embedder = load_embedder(model)
        for n, _ in enumerate(progress(todo, len(todo), "Embedding questions")):
            if n % BATCH == 0:
                batch = todo[n : n + BATCH]
                vectors = embedder.encode([texts[key] for _, key in batch], batch_size=MODEL_BATCH)
                for (h, _), vec in zip(batch, vectors, strict=True):
                    known[h] = vec.astype("float32").tobytes()
    return {key: LawVector(model, h, known[h]) for key, h in hashes.items()}, len(todo)
