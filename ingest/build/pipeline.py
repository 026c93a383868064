"""Build: corpus folders and catalogued books → a new database, atomically.

:func:`build` reads as its stages run: read → segment → tag → embed → link → load. Every source
is read and validated before anything is written; the database is written to a temporary file
beside the target and renamed over it only when complete, so a failed or killed build leaves the
previous database as it was.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .. import vocabulary
from ..models import CorpusError, Decision, Document, Law, Links, Mention, Ruling, Segmentation
from ..situation_model import SituationModel
from .annotations import final_tags, read_annotations
from .aside import Aside, can_fork
from .catalog import BookEntry, footnotes, load_catalog
from .citing import STAGE as CITING_STAGE
from .citing import Citing, cite_laws
from .link import asked_vectors, attach_footnotes, link_excerpts, parallels
from .load import Corpus, write_database
from .lock import build_lock
from .questions import embed_questions, read_questions
from .read import read_books, read_corpus, read_rulings, unique_slugs
from .rulings import markdown_ruling, split_rulings
from .segment import overlaps, segment, uncovered
from .tagging import tag_laws
from .vectors import embed_laws
from .words import english_logprobs

if TYPE_CHECKING:
    from ..tag import Tagger

Progress = Callable[[Iterable, int, str], Iterable]


def no_progress(items: Iterable, length: int, label: str) -> Iterable:
    return items


@dataclass
class Beside:
    """What a build does beside the vectors (:func:`beside_vectors`): the laws' tagging keys by law id
    and how many laws were tagged, each law's ``(mentions, decision)`` and citation in the order of
    the laws, the English log probabilities by stem, and the citations found with their key and
    whether they were kept from the previous database."""

    tagging: dict[str, str]
    tagged: int
    tags: list[tuple[list[Mention], Decision | None]]
    citations: list[str | None]
    book_words: dict[str, float | None]
    citing: Citing
    citing_key: str
    citations_kept: bool

    def apply(self, laws: list[Law]) -> None:
        """Set each law's mentions, decision and citation (in a process other than the one that
        computed them)."""
        for law, (mentions, decision), citation in zip(laws, self.tags, self.citations, strict=True):
            law.mentions, law.decision, law.citation = mentions, decision, citation


def beside_vectors(laws: list[Law], folder: Path, db_path: Path, tagger: Tagger | None, progress: Progress,
                   docs: list[Document], used: dict[str, str], rulings: list[Ruling], rules: dict[str, str]) -> Beside:
    """The stages that need no vectors: :func:`.tagging.tag_laws`, :func:`.words.english_logprobs`
    and :func:`.citing.cite_laws` (run in a second process while the vectors are computed: :mod:`.aside`)."""
    tagging, tagged = tag_laws(laws, folder, progress, previous=db_path, tagger=tagger)
    book_words = english_logprobs(laws, db_path)
    citing, citing_key, kept = cite_laws(docs, laws, used, rulings, rules, previous=db_path)
    return Beside(tagging, tagged, [(law.mentions, law.decision) for law in laws], [law.citation for law in laws],
                  book_words, citing, citing_key, kept)


def _beside_result(aside: Aside[Beside], laws: list[Law], on_wait: Callable[[str], None] | None) -> Beside:
    """Wait for the second process and set each law's mentions, decision and citation from its
    answer; ``on_wait(message)`` is called if it has not answered within a second (with the books
    it has finished long before the vectors)."""
    if not aside.ready(within=1.0) and on_wait:
        on_wait("waiting for the second process to finish tagging and citing the laws")
    beside = aside.result()
    beside.apply(laws)
    return beside


@dataclass
class BuildReport:
    """What a build did: counts by table, laws by source, catalogued books not in the cache,
    warnings, and its duration (seconds)."""

    db_path: Path
    counts: dict[str, int]
    laws_by_source: dict[str, int]
    warnings: list[str] = field(default_factory=list)
    missing_books: list[str] = field(default_factory=list)
    skipped_books: dict[str, str] = field(default_factory=dict)  # slug → why its codes could not be located
    seconds: float = 0.0
    embedded: int = 0  # laws whose vectors were computed (the others were reused from the previous database)
    tagged: int = 0  # laws run through the entity and situation taggers (the others' tagging was reused)
    embedded_questions: int = 0  # questions whose vectors were computed (the others were reused)
    citations_kept: bool = False  # the citations were kept from the previous database (ingest.build.citing)


def segment_corpus(docs: list[Document]) -> tuple[list[tuple[Document, list[Segmentation]]], list[str]]:
    """Segment every code of every document; check that nothing was lost.

    Raises :class:`CorpusError` for a code with no numbered laws, and (a bug, never bad input)
    for text that no law, note or fragment covers.
    """
    out, warnings = [], []
    ordinal = 1  # laws are numbered in reading order through the whole corpus
    for doc in docs:
        segs: list[Segmentation] = []
        for code in doc.source.codes:
            seg = segment(doc, code, first_ordinal=ordinal)
            if not seg.laws:
                line = code.start_line or 1
                raise CorpusError(f"{doc.source.path}:{line}: no numbered laws found in code {code.slug!r}")
            lost = uncovered(doc, seg)
            if lost or overlaps(seg):
                where = f"{doc.source.path}:{doc.line_of(lost[0].start)}" if lost else str(doc.source.path)
                raise CorpusError(f"{where}: segmentation lost or doubled text (a bug: please report it)")
            ordinal += len(seg.laws)
            segs.append(seg)
            warnings += seg.warnings
        out.append((doc, segs))
    return out, warnings


def refuse_foreign(db_path: Path) -> None:
    """Raise :class:`CorpusError` when the file at ``db_path`` holds something a build must not
    replace: a file that is not an SQLite database (notes, a text), or another application's
    database (tables, none of them ``laws``). A missing or empty file, a Card Laws database of any
    version, or a damaged one (an SQLite file whose tables cannot be read) may be replaced."""
    try:
        with open(db_path, "rb") as f:
            header = f.read(16)
    except FileNotFoundError:
        return
    except OSError as e:
        raise CorpusError(f"{db_path}: cannot be read ({e.strerror}); choose another --db") from None
    if not header:
        return
    if header != b"SQLite format 3\x00":
        raise CorpusError(f"{db_path}: not an SQLite database; a build would replace it, so it was left as it is: "
                          "move it away or choose another --db")
    try:
        with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as conn:
            tables = {r[0] for r in conn.execute("select name from sqlite_master where type = 'table'")}
    except sqlite3.DatabaseError:
        return  # damaged: nothing to keep
    if tables and "laws" not in tables:
        raise CorpusError(f"{db_path}: another application's database (tables: {', '.join(sorted(tables)[:5])}); "
                          "a build would replace it, so it was left as it is: move it away or choose another --db")


def build(
    corpus_dirs: list[Path],
    db_path: Path,
    progress: Progress = no_progress,
    tagger: Tagger | None = None,
    cache: Path | None = None,
    catalog: list[BookEntry] | None = None,
    embed: bool = True,
    rulings_dir: Path | None = None,
    on_wait: Callable[[str], None] | None = None,
    annotations_dir: Path | None = None,
    questions_dir: Path | None = None,
) -> BuildReport:
    """Build the database at ``db_path`` from every text under ``corpus_dirs``, every catalogued
    book found in ``cache`` (when given) and the Markdown rulings in ``rulings_dir``; the reviewed
    situation tags in ``annotations_dir`` (``corpus/annotations``) replace the tagger's proposals
    for the laws they cover; the plain questions in ``questions_dir`` (``corpus/questions``) are kept
    with the laws they are asked of.

    ``progress(items, length, label)`` wraps the long loops (tagging, embedding) to show progress.
    One build of a database runs at a time: while another holds it, ``on_wait(message)`` is called
    and this build waits (:func:`~ingest.build.lock.build_lock`); it is called too if the build
    waits for its second process (:mod:`.aside`).
    Raises :class:`CorpusError` for bad input; the file at ``db_path`` is then untouched.
    """
    with build_lock(db_path, on_wait):
        return _build(corpus_dirs, db_path, progress, tagger, cache, catalog, embed, rulings_dir, annotations_dir,
                      questions_dir, on_wait)


def _build(
    corpus_dirs: list[Path],
    db_path: Path,
    progress: Progress,
    tagger: Tagger | None,
    cache: Path | None,
    catalog: list[BookEntry] | None,
    embed: bool,
    rulings_dir: Path | None,
    annotations_dir: Path | None = None,
    questions_dir: Path | None = None,
    on_wait: Callable[[str], None] | None = None,
) -> BuildReport:
    t0 = time.perf_counter()
    refuse_foreign(db_path)
    games = vocabulary.games()
    warnings: list[str] = []

    # read
    docs = read_corpus(corpus_dirs, games, warnings) if corpus_dirs else []
    missing: list[str] = []
    skipped: dict[str, str] = {}
    books: dict[str, BookEntry] = {}
    if cache is not None:
        catalog = catalog if catalog is not None else load_catalog()
        book_docs, missing = read_books(cache, catalog, games, warnings, skipped)
        docs += book_docs
        books = {b.slug: b for b in catalog}
    docs += read_rulings(rulings_dir, warnings) if rulings_dir else []
    if not docs:
        raise CorpusError("nothing to build: no corpus texts and no catalogued books in the cache"
                          + (f" (left out: {', '.join(skipped)})" if skipped else ""))
    unique_slugs(docs)

    # segment
    segmented, segment_warnings = segment_corpus(docs)
    warnings += segment_warnings
    laws = [law for _, segs in segmented for s in segs for law in s.laws]
    rulings: list[Ruling] = []
    for doc, segs in segmented:
        if doc.source.kind == "rulings":
            rulings += split_rulings(doc)
        elif doc.source.kind == "ruling":
            rulings.append(markdown_ruling(doc))

    # link (footnotes), tag, cite and embed: where vectors are computed, the tagging, the English
    # word table and the citations are done in a forked second process meanwhile (.aside: a thread,
    # or a spawned process, gained nothing)
    warnings += link_excerpts(segmented)  # an excerpt's copy of a book's law: no vector, its book law's questions
    warnings += read_questions(questions_dir, laws, set(books)) if questions_dir else []
    for doc, segs in segmented:
        book = books.get(doc.source.slug)
        if book and book.footnotes:
            attach_footnotes([law for s in segs for law in s.laws], footnotes(book, doc.text, doc.source.path))
    used = {s.code.game: games[s.code.game] for _, segs in segmented for s in segs}
    rules = {b.slug: b.rules for b in books.values() if b.rules}  # a book of cases rules on this code
    folder = tagger.folder if tagger else vocabulary.FOLDER
    if embed and can_fork():
        with Aside(lambda: beside_vectors(laws, folder, db_path, tagger, no_progress, docs, used, rulings, rules)) as aside:
            vectors, embedded = embed_laws(laws, db_path, progress)
            questions, embedded_questions = embed_questions(laws, db_path, progress)
            beside = _beside_result(aside, laws, on_wait)
    else:  # in turn: no vectors, or no second processor
        beside = beside_vectors(laws, folder, db_path, tagger, progress, docs, used, rulings, rules)
        vectors, embedded = embed_laws(laws, db_path, progress) if embed else ({}, 0)
        questions, embedded_questions = embed_questions(laws, db_path, progress) if embed else ({}, 0)
    reviewed, review_warnings = read_annotations(annotations_dir, laws) if annotations_dir else ({}, [])
    warnings += review_warnings
    links = Links(beside.citing.cross_references, beside.citing.ruling_citations)
    for law_id in beside.citing.alone_not:
        if law_id.split("/")[0] in books:  # the seeds' own laws need no unique citation
            warnings.append(f"{law_id}: no short citation names it alone (please report it)")

    by_id = {law.id: law for law in laws}
    decides = {i: {t.situation for t in tags if t.grade == "decides" and t.remedy is None} for i, tags in reviewed.items()}
    remedies = {i: {(t.situation, t.remedy) for t in tags if t.remedy} for i, tags in reviewed.items()}
    links.parallels = parallels({i: v.vector for i, v in vectors.items()}, by_id, decides, remedies,
                                asked_vectors({key: v.vector for key, v in questions.items()}))
    final_tags(laws, reviewed, vectors, SituationModel.load())  # reviewed, else proposed

    # load
    entities = [e.entity for e in vocabulary.entities(folder)]
    corpus = Corpus(segmented, used, entities, list(vocabulary.situations(folder)), rulings, links, vectors, beside.tagging,
                    questions, beside.book_words, {CITING_STAGE: (beside.citing_key, beside.citing.dumps())})
    db_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = db_path.with_name(f".{db_path.name}.building-{os.getpid()}")
    for stale in db_path.parent.iterdir():  # a killed build's (this build holds the lock: no other is writing)
        if stale.name.startswith(f".{db_path.name}.building-"):
            stale.unlink(missing_ok=True)
    try:
        counts = write_database(tmp, corpus)
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, db_path)
    finally:
        tmp.unlink(missing_ok=True)
    by_source = {d.source.slug: sum(len(s.laws) for s in segs) for d, segs in segmented}
    return BuildReport(db_path, counts, by_source, warnings, missing, skipped, time.perf_counter() - t0, embedded, beside.tagged,
                       embedded_questions, beside.citations_kept)
