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
import io
import re
from collections.abc import Iterator
from pathlib import Path

from ..embed import DEFAULT_MODEL, content_hash
from ..models import CorpusError, Law, LawVector
from .vectors import Progress, embed_new

COLUMNS = ["law_id", "form", "text", "opening"]
FORMS = ("question", "account")
MAX_WORDS = 40
MODEL_BATCH = 16  # questions a forward pass: short texts, so more than a law's 4 (3,005 questions: 5.7 s against 7.5 s)


def read_questions(folder: Path, laws: list[Law], books: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Set ``questions`` and ``accounts`` on each law of a book with a file in ``folder`` (in the
    file's order) and return warnings: a law of such a book the file does not list (it was not read
    yet), and a file named after no source being built nor any of ``books`` (the catalogue's: a
    misspelt name would lose its lines). Files of books not being built are skipped; an excerpt's
    copy of a book's law has its book law's. Raises :class:`CorpusError` naming the file and line
    for a file that is not UTF-8 or not CSV, a wrong header, a row of other than 4 fields (a comma
    left outside quotes), a text over more than one line (a quote left open), a law id that is not
    a law of that book, a form other than ``question`` or ``account`` (both empty only on a law's
    one empty row), a text without a word, with a control character, over ``MAX_WORDS`` words or
    listed twice for a law (case, spaces and end punctuation aside)."""
    by_id = {law.id: law for law in laws}
    sources = {law.source for law in laws}
    warnings: list[str] = []
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() == ".csv") if folder.is_dir() else []
    for path in files:
        if path.stem not in sources:
            if path.stem not in books:
                warnings.append(f"{path}: no book or source is named {path.stem!r}: its lines were not read")
            continue
        listed: set[str] = set()
        keys: dict[str, set[str]] = {}  # law id → the _key of each line read for it
        for where, row in _rows(path):
            law = by_id.get(row["law_id"])
            if law is None or law.source != path.stem:
                raise CorpusError(f"{where}: law_id {row['law_id']!r} is not a law of {path.stem}")
            listed.add(law.id)
            text, form = " ".join(row["text"].split()), row["form"].strip().lower()
            if not text and not form:
                continue  # a law with no rule to ask about (a heading, a cross-reference)
            if form not in FORMS or not text:
                raise CorpusError(f"{where}: form must be question or account, with a text "
                                  f"(both empty on a law's one empty row), not {row['form']!r}")
            if not _WORD.search(text) or _CONTROL.search(text):
                raise CorpusError(f"{where}: the text must be words, without control characters: {text!r}")
            if len(text.split()) > MAX_WORDS:
                raise CorpusError(f"{where}: the text has over {MAX_WORDS} words")
            seen = keys.setdefault(law.id, {_key(q) for q in [*law.questions, *law.accounts]})
            if _key(text) in seen:
                raise CorpusError(f"{where}: {text!r} is listed twice for {law.id}")
            seen.add(_key(text))
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


_WORD = re.compile(r"[^\W_]")
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")  # Unicode's control characters (category Cc), all of them


def _key(text: str) -> str:
    """What two lines of one law must not share: their words, case and end punctuation aside."""
    return re.sub(r"[\s?.!,;:]+$", "", " ".join(text.casefold().split()))


def _rows(path: Path) -> Iterator[tuple[str, dict[str, str]]]:
    """``("file:line", row)`` for each row of a questions file, every field a string. Raises
    :class:`CorpusError` for text that is not UTF-8 (a byte-order mark is allowed), broken CSV, a
    wrong header, a row of other than 4 fields or a field over more than one line."""
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise CorpusError(f"{path}:{line}: not UTF-8 text (save the file as UTF-8)") from None
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader, None)
        if header != COLUMNS:
            raise CorpusError(f"{path}:1: the header must be {','.join(COLUMNS)}")
        end = reader.line_num
        for fields in reader:
            start, end = end + 1, reader.line_num
            where = f"{path}:{start}" if start == end else f"{path}:{start}-{end}"
            if not fields:
                continue  # a blank line
            if any("\n" in f or "\r" in f for f in fields):
                raise CorpusError(f"{where}: a field runs over more than one line (a double quote left open?)")
            if len(fields) != len(COLUMNS):
                raise CorpusError(f"{where}: {len(fields)} fields, where {len(COLUMNS)} are expected "
                                  "(a comma inside a text must be within double quotes)")
            yield where, dict(zip(COLUMNS, fields, strict=True))
    except csv.Error as e:
        raise CorpusError(f"{path}:{reader.line_num}: not readable as CSV ({e})") from None


def embed_questions(laws: list[Law], previous: Path, progress: Progress,
                    model: str = DEFAULT_MODEL) -> tuple[dict[tuple[str, int], LawVector], int]:
    """A :class:`LawVector` for each question of each law (not an excerpt's copy), by (law id,
    0-based position of the question), and how many were computed (the others were reused from
    the database at ``previous``). Vectors are float32, 384 values for the default model."""
    texts = {(law.id, n): q for law in laws if not law.witness_of for n, q in enumerate(law.questions)}
    hashes = {key: content_hash(f"question: {q}", model) for key, q in texts.items()}
    known, computed = embed_new({hashes[key]: q for key, q in texts.items()}, previous, "law_questions", progress,
                                "Embedding questions", model, MODEL_BATCH)
    return {key: LawVector(model, h, known[h]) for key, h in hashes.items()}, len(computed)
