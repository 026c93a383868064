"""Read: every source a build takes in, validated before anything is written.

- :func:`read_corpus`: texts with sidecars under corpus folders;
- :func:`read_books`: the catalogued books found in the cache, their codes located;
- :func:`read_rulings`: Markdown rulings (``corpus/rulings/*.md``).

Every problem raises :class:`CorpusError` naming the file (and the line or field).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from ..models import CorpusError, Document, Source
from ..text import normalise_value
from .catalog import CATALOG, BookEntry, book_source, footnotes
from .clean import decode, find_page_markers, read_document
from .corpus import find_texts, read_sidecar


def read_bytes(path: Path) -> bytes:
    """The bytes of ``path``. Raises :class:`CorpusError` naming the file when it cannot be read."""
    try:
        return path.read_bytes()
    except OSError as e:
        raise CorpusError(f"{path}: cannot be read ({e.strerror})") from None


def check_games(doc: Document, games: dict[str, str], where: Path) -> None:
    """Raise :class:`CorpusError` naming ``where`` if a code of ``doc`` names a game that is not
    in ``vocabulary/games.toml`` (``games``)."""
    for code in doc.source.codes:
        if code.game not in games:
            raise CorpusError(
                f"{where}: game {code.game!r} is not in ingest/vocabulary/games.toml "
                f"(known: {', '.join(sorted(games))})"
            )


def read_corpus(corpus_dirs: list[Path], games: dict[str, str], warnings: list[str] | None = None) -> list[Document]:
    """Read and validate every text under ``corpus_dirs`` with its sidecar.

    Raises :class:`CorpusError` (naming the file) for a folder with no texts, any bad text or
    sidecar, or a game not in ``games.toml``. Deprecated sidecar keys add to ``warnings``.
    """
    paths = find_texts(corpus_dirs)
    if not paths:
        raise CorpusError(f"no *.txt files found under {', '.join(map(str, corpus_dirs))}")
    docs: list[Document] = []
    for path in paths:
        data = read_bytes(path)
        doc = read_document(read_sidecar(path, data, warnings), data, warnings)
        check_games(doc, games, path.with_suffix(".toml"))
        docs.append(doc)
    return docs


def read_rulings(folder: Path, warnings: list[str] | None = None) -> list[Document]:
    """The Markdown rulings (``*.md``) in ``folder``, each a source of kind ``ruling`` titled by
    its ``# heading`` (or file name). A missing folder has none. Lines read as Windows-1252 add
    to ``warnings``."""
    if not folder.is_dir():
        return []
    docs = []
    for path in sorted(folder.glob("*.md")):
        data = read_bytes(path)
        text = decode(data, path, warnings)
        m = re.match(r"\s*#[ \t]+(.+)", text)
        title = normalise_value(m.group(1)).strip() if m else path.stem
        source = Source(slug=f"ruling-{path.stem}", path=path, title=title,
                        sha256=hashlib.sha256(data).hexdigest(), codes=(), kind="ruling")
        docs.append(Document(source, text))
    return docs


def read_books(cache: Path, books: list[BookEntry], games: dict[str, str], warnings: list[str] | None = None,
               skipped: dict[str, str] | None = None) -> tuple[list[Document], list[str]]:
    """The catalogued books found in ``cache`` (``<slug>.txt``), their codes located; and the
    slugs of those not there. Lines read as Windows-1252 add to ``warnings``.

    A copy whose codes (or footnotes) cannot be located is not the catalogued copy (a truncated
    download, another edition): with ``skipped`` given, that book is left out, its slug mapped
    to the reason (naming the book and the code) and a warning added; without it, raises
    :class:`CorpusError`."""
    docs, missing = [], []
    for book in books:
        path = cache / f"{book.slug}.txt"
        if not path.is_file():
            missing.append(book.slug)
            continue
        data = read_bytes(path)
        text = decode(data, path, warnings)
        try:
            doc = Document(book_source(book, path, data, text), text, find_page_markers(text, book.page_marker))
            if book.footnotes:
                footnotes(book, text, path)
        except CorpusError as e:
            if skipped is None:
                raise
            digest = hashlib.sha256(data).hexdigest()
            other = "" if digest == book.sha256 else f" This copy is not the catalogued one (sha256 {digest[:12]}…)."
            skipped[book.slug] = str(e)
            if warnings is not None:
                warnings.append(f"{e}.{other} The book {book.slug!r} was left out of this build; fetch it again "
                                "with 'cardlaws corpus fetch --force' (or --mirror DIR).")
            continue
        check_games(doc, games, CATALOG)
        docs.append(doc)
    return docs, missing


def unique_slugs(docs: list[Document]) -> None:
    """Raise :class:`CorpusError` when two sources share a slug (file name): their law ids would
    collide."""
    seen: dict[str, Path] = {}
    for doc in docs:
        if doc.source.slug in seen:
            raise CorpusError(
                f"{doc.source.path}: has the same name as {seen[doc.source.slug]}; "
                "source slugs (file names) must be unique"
            )
        seen[doc.source.slug] = doc.source.path
