"""The books' words and how common each is in English at large: what lets the search tell a
query asked in the books' own terms ("tierce", "the cards were dealt to an empty seat") from one
about anything else ("signs of dehydration in older people").

For each light stem (:func:`ingest.text.stem`) of a word printed in a law, the natural log of the
probability of the word in general English, as spaCy's English lexeme table gives it
(``spacy-lookups-data``, ``en_lexeme_prob``; MIT), the highest among the stem and the forms the
books print ("card" for "cards"; "win" for "wine", which a light stem takes for it); None for a
word no English list holds ("vorhand", "wenzel"). The search (:mod:`ingest.query.search`) weighs it
against the share of laws printing the word. Kept in the table ``book_words``.
"""

from __future__ import annotations

import gzip
import json
import math
import sqlite3
from collections.abc import Iterable
from pathlib import Path

from ..models import CorpusError, Law
from ..text import letter_words, stem


def printed_forms(laws: Iterable[Law]) -> dict[str, set[str]]:
    """The words of the laws' texts (an excerpt's copy aside), folded and lower case, by light stem."""
    forms: dict[str, set[str]] = {}
    for law in laws:
        if law.witness_of:
            continue
        for word in set(letter_words(law.text)):
            forms.setdefault(stem(word), set()).add(word)
    return forms


# orjson parsed the table in 0.4 s against json's 1.0 s (2026-12-02): not worth a dependency, as the
# build reads it in its second process, beside the vectors (ingest.build.aside)
def _lexeme_probabilities() -> dict[str, float]:
    """spaCy's English lexeme probabilities. Raises :class:`CorpusError` naming the file when it
    cannot be read (spacy-lookups-data missing or damaged)."""
    try:
        import spacy_lookups_data

        path = Path(spacy_lookups_data.__file__).parent / "data" / "en_lexeme_prob.json.gz"
        with gzip.open(path, "rt", encoding="utf-8") as f:
            return json.load(f)
    except (ImportError, OSError, ValueError, EOFError) as e:
        raise CorpusError(f"spaCy's English lexeme table (spacy-lookups-data, en_lexeme_prob.json.gz) cannot be "
                          f"read: {e}; reinstall it: pip install --force-reinstall spacy-lookups-data") from None


def _previous(db: Path) -> dict[str, float | None]:
    """The previous database's ``book_words``, if it has that table and every value is a finite
    number or NULL (else nothing: the values are computed again)."""
    if not db.exists():
        return {}
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            rows = dict(conn.execute("select stem, english_logprob from book_words"))
    except sqlite3.Error:  # an older database, or not one of ours
        return {}
    ok = all(v is None or (isinstance(v, float) and math.isfinite(v)) for v in rows.values())
    return rows if ok else {}


def english_logprobs(laws: Iterable[Law], previous: Path) -> dict[str, float | None]:
    """Stem → the highest English log probability among the stem and its printed forms (None when
    no English list holds any), for every word the laws print. Reuses the database at ``previous``
    when it holds every stem (a rebuild reads no English table: about 0.5–0.9 s saved; a stem keeps
    the value first computed for it, even if a book added later prints a commoner form of it)."""
    forms = printed_forms(laws)
    known = _previous(previous)
    if forms.keys() <= known.keys():
        return {s: known[s] for s in forms}
    table = _lexeme_probabilities()
    out: dict[str, float | None] = {}
    for s, words in forms.items():
        found = [table[w] for w in (s, *words) if w in table]
        out[s] = max(found) if found else None
    return out
