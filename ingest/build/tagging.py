"""Tag: each law's entity mentions and proposed situations, computed only where the law changed.

The entity tagger and the situation cues (:mod:`ingest.tag`, :mod:`ingest.situations`) run one
spaCy pass over a law's text. Their output depends on the text and on nothing else but the
vocabulary and the tagger itself, so the build keeps it in the table ``law_tagging`` under a key
(:func:`tagging_key`: sha256 of the text and of :func:`fingerprint`) and a rebuild takes from the
previous database the output of every law whose key it finds there, tagging the rest — as
:mod:`ingest.build.vectors` does for the law vectors. Changing what the taggers read of the
vocabulary (entities, lemmas, situations and their cues), the taggers' code or the spaCy version
changes the fingerprint, and every law is tagged again. spaCy and the taggers are loaded only when
some law is to be tagged: a rebuild with nothing changed never imports spaCy (1.1 s of import and
0.7 s of pipeline set-up saved here).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterable
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

from .. import vocabulary
from ..models import Decision, Law, Mention
from .keys import hash_sources

if TYPE_CHECKING:
    from ..tag import Tagger

Progress = Callable[[Iterable, int, str], Iterable]


def fingerprint(vocabulary_folder: Path) -> str:
    """Hex sha256 of what a law's tagging depends on besides its text: the vocabulary the entity
    tagger (``ingest/tag.py``: entities, lemmas) and the situation cues (``ingest/situations.py``:
    situations, remedies) read from ``vocabulary_folder``, as this process has loaded it (a second
    build in one process tags with what its loaders hold, and keys its tags so); the source of the
    taggers and of the vocabulary's reader; and the versions of spaCy and of its lookup tables (the
    lemmas). The query side's files (``games.toml``, ``search_terms.toml``) and comments change
    nothing: editing a modern word re-tags no law. Raises
    :class:`~ingest.vocabulary.VocabularyError` naming a vocabulary file that is missing or malformed."""
    h = hashlib.sha256(f"{metadata.version('spacy')} {metadata.version('spacy-lookups-data')}".encode())
    f = vocabulary_folder
    used = (vocabulary.entities(f), vocabulary.lemmas(f), vocabulary.situations(f), vocabulary.remedies(f))
    h.update(repr(used).encode() + b"\0")
    hash_sources(h, ("ingest.tag", "ingest.situations", "ingest.vocabulary"))
    return h.hexdigest()


def tagging_key(text: str, fingerprint: str) -> str:
    """Hex sha256 of a law's text and the tagging :func:`fingerprint`."""
    return hashlib.sha256(f"{fingerprint}\n{text}".encode()).hexdigest()


def dumps(law: Law) -> tuple[str, str]:
    """A tagged law's ``(mentions, decision)`` as the JSON ``law_tagging`` keeps."""
    mentions = [[m.entity_id, m.start, m.end, m.text] for m in law.mentions]
    d = law.decision or Decision({}, {})
    decision = {"situations": d.situations, "remedies": d.remedies, "spans": {k: list(v) for k, v in d.spans.items()}}
    return json.dumps(mentions, ensure_ascii=False), json.dumps(decision, ensure_ascii=False)


def loads(mentions: str, decision: str) -> tuple[list[Mention], Decision]:
    """The inverse of :func:`dumps`."""
    d = json.loads(decision)
    return ([Mention(*m) for m in json.loads(mentions)],
            Decision(d["situations"], d["remedies"], {k: tuple(v) for k, v in d["spans"].items()}))


def previous_tagging(db_path: Path, wanted: set[str]) -> dict[str, tuple[str, str]]:
    """Key → ``(mentions, decision)`` JSON of the ``wanted`` keys found in the database at
    ``db_path`` (none when it is missing, unreadable or has no ``law_tagging`` table)."""
    found: dict[str, tuple[str, str]] = {}
    if not db_path.exists():
        return found
    try:
        with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as old:
            for key, mentions, decision in old.execute("select key, mentions, decision from law_tagging"):
                if key in wanted:
                    found[key] = (mentions, decision)
    except sqlite3.Error:
        pass
    return found


def tag_laws(laws: list[Law], folder: Path, progress: Progress, previous: Path | None = None,
             tagger: Tagger | None = None) -> tuple[dict[str, str], int]:
    """Set each law's entity ``mentions`` and proposed ``decision``: from the database at
    ``previous`` where its key is there and its row reads back, else by one spaCy pass for both, with ``tagger`` (an
    entity :class:`~ingest.tag.Tagger` of the vocabulary ``folder``; made here when none is given
    and some law is to be tagged). Returns each law's key by law id and how many laws were tagged
    (the others were reused). Raises :class:`~ingest.vocabulary.VocabularyError` (a
    :class:`~ingest.models.CorpusError`) for a missing or malformed vocabulary file."""
    fp = fingerprint(folder)
    keys = {law.id: tagging_key(law.text, fp) for law in laws}
    known = previous_tagging(previous, set(keys.values())) if previous else {}
    todo = []
    for law in laws:
        try:
            law.mentions, law.decision = loads(*known[keys[law.id]])
        except (KeyError, ValueError, TypeError):  # not tagged before, or its row of the previous database damaged
            todo.append(law)
    if todo:
        from ..situations import SituationTagger
        from ..tag import Tagger

        tagger = tagger or Tagger(folder)
        situation_tagger = SituationTagger(tagger, folder)
        docs = tagger.nlp.pipe((law.text for law in todo), batch_size=256)
        for law, doc in zip(todo, progress(docs, len(todo), "Tagging laws")):
            law.mentions = tagger.mentions(doc)
            law.decision = situation_tagger.decide(doc)
    return keys, len(todo)
