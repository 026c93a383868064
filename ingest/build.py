"""Build: corpus folders and catalogued books → a new database, atomically.

The stages run in order: read every source (texts with sidecars, and the catalogued books found
in the cache), all validated before anything is written; clean; segment; attach footnotes; link
excerpts to their books; tag; load. The database is written to a temporary file beside the target
and renamed over it only when complete, so a failed or killed build leaves the previous database
as it was.
"""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
import time
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .catalog import BookEntry, book_source, footnotes, load_catalog
from .compare import SituationTagger, parallels
from .clean import decode, find_page_markers, read_document
from .embed import DEFAULT_MODEL, content_hash, law_passage, load_embedder
from .corpus import find_texts, read_sidecar
from .load import write_database
from .models import CorpusError, Document, Law, Ruling, Segmentation, Source
from .paths import VOCABULARY
from .rulings import markdown_ruling, split_rulings
from .segment import overlaps, segment, uncovered
from .tag import Tagger

Progress = Callable[[Iterable, int, str], Iterable]


def no_progress(items: Iterable, length: int, label: str) -> Iterable:
    return items


def load_games(path: Path = VOCABULARY / "games.toml") -> dict[str, str]:
    """Game slug → display name, from ``vocabulary/games.toml``."""
    return dict(tomllib.loads(path.read_text(encoding="utf-8"))["games"])


def load_aliases(path: Path = VOCABULARY / "games.toml") -> dict[str, str]:
    """Other names of games → their slugs, from ``vocabulary/games.toml``."""
    return dict(tomllib.loads(path.read_text(encoding="utf-8")).get("aliases", {}))


def load_families(path: Path = VOCABULARY / "games.toml") -> dict[str, list[str]]:
    """Family slug → its games' slugs, from ``vocabulary/games.toml``."""
    return dict(tomllib.loads(path.read_text(encoding="utf-8")).get("families", {}))


@dataclass
class BuildReport:
    """What a build did: counts by table, laws by source, catalogued books not in the cache,
    warnings, and its duration (seconds)."""

    db_path: Path
    counts: dict[str, int]
    laws_by_source: dict[str, int]
    warnings: list[str] = field(default_factory=list)
    missing_books: list[str] = field(default_factory=list)
    seconds: float = 0.0
    embedded: int = 0  # laws whose vectors were computed (the others were reused from the previous database)


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as e:
        raise CorpusError(f"{path}: cannot be read ({e.strerror})") from None


def _check_games(doc: Document, games: dict[str, str], where: Path) -> None:
    for code in doc.source.codes:
        if code.game not in games:
            raise CorpusError(
                f"{where}: game {code.game!r} is not in {VOCABULARY / 'games.toml'} "
                f"(known: {', '.join(sorted(games))})"
            )


def read_corpus(corpus_dirs: list[Path], games: dict[str, str]) -> list[Document]:
    """Read and validate every text under ``corpus_dirs`` with its sidecar.

    Raises :class:`CorpusError` (naming the file) for a folder with no texts, any bad text or
    sidecar, a game not in ``games.toml``, or two texts with the same file name (their slugs
    would collide).
    """
    paths = find_texts(corpus_dirs)
    if not paths:
        raise CorpusError(f"no *.txt files found under {', '.join(map(str, corpus_dirs))}")
    docs: list[Document] = []
    for path in paths:
        data = _read_bytes(path)
        doc = read_document(read_sidecar(path, data), data)
        _check_games(doc, games, path.with_suffix(".toml"))
        docs.append(doc)
    return docs


def read_rulings(folder: Path) -> list[Document]:
    """The Markdown rulings (``*.md``) in ``folder``, each a source of kind ``ruling`` titled by
    its ``# heading`` (or file name). A missing folder has none."""
    if not folder.is_dir():
        return []
    docs = []
    for path in sorted(folder.glob("*.md")):
        data = _read_bytes(path)
        text = decode(data, path)
        m = re.match(r"\s*#[ \t]+(.+)", text)
        source = Source(slug=f"ruling-{path.stem}", path=path, title=(m.group(1).strip() if m else path.stem),
                        sha256=hashlib.sha256(data).hexdigest(), codes=(), kind="ruling")
        docs.append(Document(source, text))
    return docs


def read_books(cache: Path, books: list[BookEntry], games: dict[str, str]) -> tuple[list[Document], list[str]]:
    """The catalogued books found in ``cache`` (``<slug>.txt``), their codes located; and the
    slugs of those not there. Raises :class:`CorpusError` when a book's code cannot be located."""
    docs, missing = [], []
    for book in books:
        path = cache / f"{book.slug}.txt"
        if not path.is_file():
            missing.append(book.slug)
            continue
        data = _read_bytes(path)
        text = decode(data, path)
        doc = Document(book_source(book, path, data, text), text, find_page_markers(text, book.page_marker))
        _check_games(doc, games, Path("corpus/catalog.toml"))
        docs.append(doc)
    return docs, missing


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


_REF_RE = re.compile(r"\[(\d{1,3})\]")


def attach_footnotes(laws: list[Law], notes: dict[int, str]) -> None:
    """Append to each law's note the text of the footnotes its raw text cites (``[21]``)."""
    for law in laws:
        cited = [int(n) for n in _REF_RE.findall(law.raw_text) if int(n) in notes]
        if cited:
            extra = "\n\n".join(f"[{n}] {notes[n]}" for n in dict.fromkeys(cited))
            law.note = f"{law.note}\n\n{extra}" if law.note else extra


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def link_excerpts(segmented: list[tuple[Document, list[Segmentation]]]) -> list[str]:
    """Set ``witness_of`` on each law of an excerpt (a source with ``excerpt_of``) to the law of
    the book with the same number and text (an excerpt cut off mid-word matches the book's law
    that begins with it). Returns a note for each excerpt law with no match in a built book."""
    by_source = {d.source.slug: [law for s in segs for law in s.laws] for d, segs in segmented}
    unmatched = []
    for doc, segs in segmented:
        book = doc.source.excerpt_of
        if not book or book not in by_source:
            continue
        index: dict[str, list[Law]] = {}
        for law in by_source[book]:
            index.setdefault(law.number, []).append(law)
        for s in segs:
            for law in s.laws:
                key = _key(law.text)
                match = next((b for b in index.get(law.number, []) if key and _key(b.text).startswith(key)), None)
                if match:
                    law.witness_of = match.id
                else:
                    unmatched.append(f"{doc.source.path}:{law.line_start}: {law.id} has no law with its text in {book}")
    return unmatched


def embed_laws(laws: list[Law], games: dict[str, str], previous: Path, progress: Progress,
               model: str = DEFAULT_MODEL) -> tuple[dict[str, tuple[str, str, bytes]], int]:
    """Vectors for every law but an excerpt's copy of a book's law: ``law id → (model, content
    hash, float32 bytes)``, and how many were computed. Vectors whose law (with its section and
    game) is unchanged are taken from the ``previous`` database, so a rebuild embeds only what
    changed."""
    passages = {law.id: law_passage(law.text, law.section, games[law.game]) for law in laws if not law.witness_of}
    hashes = {law_id: content_hash(p, model) for law_id, p in passages.items()}
    reuse: dict[str, bytes] = {}
    if previous.exists():
        try:
            with sqlite3.connect(f"file:{previous}?mode=ro", uri=True) as old:
                wanted = set(hashes.values())
                for h, blob in old.execute("select content_hash, vector from law_embeddings where model = ?", [model]):
                    if h in wanted:
                        reuse[h] = blob
        except sqlite3.Error:
            pass  # no usable previous vectors: embed everything
    todo = [law_id for law_id, h in hashes.items() if h not in reuse]
    if todo:
        embedder = load_embedder(model)
        batches = [todo[i : i + 64] for i in range(0, len(todo), 64)]
        for batch in progress(batches, len(batches), "Embedding laws"):
            for law_id, vec in zip(batch, embedder.encode([passages[i] for i in batch])):
                reuse[hashes[law_id]] = vec.astype("float32").tobytes()
    return {law_id: (model, h, reuse[h]) for law_id, h in hashes.items()}, len(todo)


def build(
    corpus_dirs: list[Path],
    db_path: Path,
    progress: Progress = no_progress,
    tagger: Tagger | None = None,
    cache: Path | None = None,
    catalog: list[BookEntry] | None = None,
    embed: bool = True,
    rulings_dir: Path | None = None,
) -> BuildReport:
    """Build the database at ``db_path`` from every text under ``corpus_dirs`` and, when
    ``cache`` is given, every catalogued book found there.

    ``progress(items, length, label)`` wraps the long loop (tagging) to show progress.
    Raises :class:`CorpusError` for bad input; the file at ``db_path`` is then untouched.
    """
    t0 = time.perf_counter()
    games = load_games()
    docs = read_corpus(corpus_dirs, games) if corpus_dirs else []
    missing: list[str] = []
    books: dict[str, BookEntry] = {}
    if cache is not None:
        catalog = catalog if catalog is not None else load_catalog()
        book_docs, missing = read_books(cache, catalog, games)
        docs += book_docs
        books = {b.slug: b for b in catalog}
    ruling_docs = read_rulings(rulings_dir) if rulings_dir else []
    docs += ruling_docs
    if not docs:
        raise CorpusError("nothing to build: no corpus texts and no catalogued books in the cache")
    seen: dict[str, Path] = {}
    for doc in docs:
        if doc.source.slug in seen:
            raise CorpusError(
                f"{doc.source.path}: has the same name as {seen[doc.source.slug]}; "
                "source slugs (file names) must be unique"
            )
        seen[doc.source.slug] = doc.source.path
    segmented, warnings = segment_corpus(docs)

    rulings: list[Ruling] = []
    for doc, segs in segmented:
        book = books.get(doc.source.slug)
        if book and book.footnotes:
            attach_footnotes([law for s in segs for law in s.laws], footnotes(book, doc.text, doc.source.path))
        if doc.source.kind == "rulings":
            rulings += split_rulings(doc)
        elif doc.source.kind == "ruling":
            rulings.append(markdown_ruling(doc))
    warnings += link_excerpts(segmented)

    tagger = tagger or Tagger()
    laws = [law for _, segs in segmented for s in segs for law in s.laws]
    situation_tagger = SituationTagger(tagger)
    docs = tagger.nlp.pipe((law.text for law in laws), batch_size=256)  # one pass: entities and situations
    for law, doc in zip(laws, progress(docs, len(laws), "Tagging laws")):
        law.mentions = tagger.mentions(doc)
        law.decision = situation_tagger.decide(doc)

    vectors, embedded = embed_laws(laws, games, db_path, progress) if embed else ({}, 0)
    by_id = {law.id: law for law in laws}
    parallel_rows = parallels({i: v for i, (_, _, v) in vectors.items()},
                              {i: by_id[i].game for i in vectors}, {i: by_id[i].source for i in vectors})

    rules = {b.slug: b.rules for b in books.values() if b.rules}  # a book of cases rules on this code
    used = {s.code.game for _, segs in segmented for s in segs}
    db_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = db_path.with_name(f".{db_path.name}.building-{os.getpid()}")
    tmp.unlink(missing_ok=True)
    try:
        counts = write_database(tmp, {g: games[g] for g in used}, tagger.entities, segmented, rulings, rules, vectors,
                                situation_tagger.situations, parallel_rows)
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, db_path)
    finally:
        tmp.unlink(missing_ok=True)
    by_source = {d.source.slug: sum(len(s.laws) for s in segs) for d, segs in segmented}
    return BuildReport(db_path, counts, by_source, warnings, missing, time.perf_counter() - t0, embedded)
