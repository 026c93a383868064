"""The catalog of law books (``corpus/catalog.toml``): read it, and locate each book's codes in a
copy of the book by their heading and closing text.

:func:`load_catalog` validates the file; :func:`book_source` turns a catalogued book and the bytes
of a copy of it into a :class:`Source` whose codes carry the line ranges found in that copy.
Errors are :class:`CorpusError` naming the catalog or the book, the code and the text not found.
"""

from __future__ import annotations

import functools
import hashlib
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..models import CodeSpec, CorpusError, Source
from ..paths import CORPUS
from ..text import normalise
from .corpus import SLUG_RE, check_aliases_per_game, check_code_record
from .segment.notes import footnote_at

CATALOG = CORPUS / "catalog.toml"

_BOOK_KEYS = {"slug", "title", "author", "year", "edition", "address", "url", "download", "licence",
              "page_marker", "sha256", "kind", "rules", "code", "footnotes"}
_CODE_KEYS = {"game", "slug", "title", "kind", "numbering", "unit", "law_style", "start", "end", "after",
              "authority", "year", "edition", "aliases", "family"}
_AREA_KEYS = {"start", "end", "after"}
BOOK_KINDS = ("laws", "rulings", "commentary")


@dataclass(frozen=True)
class CodeEntry:
    """A code of laws as the catalog locates it: from the line containing ``start`` to just before
    the line containing ``end`` (the end of the book when ``end`` is None)."""

    game: str
    slug: str
    start: str
    end: str | None = None
    after: str | None = None
    title: str | None = None
    kind: str = "law"
    numbering: str = "auto"
    unit: str = "block"
    law_style: str | None = None
    authority: str | None = None
    year: int | None = None
    edition: str | None = None
    aliases: tuple[str, ...] = ()
    family: str | None = None


@dataclass(frozen=True)
class BookEntry:
    """A catalogued book. ``kind`` is ``laws``, ``rulings`` (decided cases citing the laws of the
    book ``rules``) or ``commentary``; ``sha256`` is that of the copy the project was built on."""

    slug: str
    title: str
    download: str
    kind: str = "laws"
    author: str | None = None
    year: int | None = None
    edition: str | None = None
    address: str | None = None
    url: str | None = None
    licence: str | None = None
    page_marker: str = "{N}"
    sha256: str | None = None
    rules: str | None = None
    codes: tuple[CodeEntry, ...] = ()
    footnotes: tuple[CodeEntry, ...] = field(default=())


def load_catalog(path: Path = CATALOG) -> list[BookEntry]:
    """Read and validate the catalog. Raises :class:`CorpusError` naming the book and key."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise CorpusError(f"{path}: malformed TOML: {e}") from None
    books = []
    for i, b in enumerate(data.get("book", []), start=1):
        name = b.get("slug", f"book[{i}]")
        unknown = set(b) - _BOOK_KEYS
        if unknown:
            raise CorpusError(f"{path}: book {name!r}: unknown key {min(unknown)!r}")
        for key in ("slug", "title", "download"):
            if key not in b:
                raise CorpusError(f"{path}: book {name!r}: {key!r} is required")
        if b.get("kind", "laws") not in BOOK_KINDS:
            raise CorpusError(f"{path}: book {name!r}: kind must be one of {', '.join(BOOK_KINDS)}")
        codes = []
        for j, c in enumerate(b.get("code", []), start=1):
            where = f"{path}: book {name!r}, code[{j}]"
            if set(c) - _CODE_KEYS:
                raise CorpusError(f"{where}: unknown key {min(set(c) - _CODE_KEYS)!r}")
            if "game" not in c or "start" not in c:
                raise CorpusError(f"{where}: 'game' and 'start' are required")
            if not SLUG_RE.match(c.get("slug", c["game"])):
                raise CorpusError(f"{where}: {c.get('slug', c['game'])!r} is not a slug")
            check_code_record(c, where)
            codes.append(CodeEntry(**{"slug": c["game"], **c, "aliases": tuple(c.get("aliases", ()))}))
        slugs = [c.slug for c in codes]
        if len(set(slugs)) != len(slugs):
            raise CorpusError(f"{path}: book {name!r}: two codes share a slug; give one a 'slug'")
        areas = []
        for j, a in enumerate(b.get("footnotes", []), start=1):
            if set(a) - _AREA_KEYS or "start" not in a:
                raise CorpusError(f"{path}: book {name!r}, footnotes[{j}]: needs 'start' (and may have 'end', 'after')")
            areas.append(CodeEntry(game="", slug="footnotes", **a))
        fields = {k: v for k, v in b.items() if k not in ("code", "footnotes")}
        books.append(BookEntry(**fields, codes=tuple(codes), footnotes=tuple(areas)))
    return books


@functools.lru_cache(maxsize=1 << 16)
def _norm(s: str) -> str:
    """A line normalised and its whitespace folded (cached: locating a book's codes and footnote
    areas reads the same lines again for every heading)."""
    return " ".join(normalise(s).split())


def _find_line(lines: list[str], needle: str, start: int) -> int | None:
    """Index of the first line at or after ``start`` whose text begins with ``needle``
    (whitespace folded)."""
    want = _norm(needle)
    for i in range(start, len(lines)):
        if _norm(lines[i]).startswith(want):
            return i
    return None


def locate(entry: CodeEntry, lines: list[str], search_from: int, book: str) -> tuple[int, int]:
    """0-based ``(first, last)`` line indexes of ``entry`` in ``lines`` (``last`` inclusive).

    Raises :class:`CorpusError` when the heading or the closing text is not found (a different
    or truncated copy of the book)."""
    pos = search_from
    if entry.after:
        found = _find_line(lines, entry.after, pos)
        if found is None:
            raise CorpusError(f"{book}: code {entry.slug!r}: text {entry.after!r} (after) not found")
        pos = found + 1
    first = _find_line(lines, entry.start, pos)
    if first is None:
        raise CorpusError(
            f"{book}: code {entry.slug!r}: its heading {entry.start!r} was not found"
            + (f" after line {search_from + 1}" if search_from else "")
            + " (is this the catalogued book, and is the file complete?)"
        )
    if entry.end is None:
        last = len(lines) - 1
    else:
        end = _find_line(lines, entry.end, first + 1)
        if end is None:
            raise CorpusError(
                f"{book}: code {entry.slug!r} (from line {first + 1}): its closing text {entry.end!r} "
                "was not found (is the file truncated?)"
            )
        last = end - 1
    while last > first and not lines[last].strip():
        last -= 1
    return first, last


def _lines(text: str) -> list[str]:
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else lines


def book_source(book: BookEntry, path: Path, data: bytes, text: str) -> Source:
    """A :class:`Source` for a copy of ``book`` (``data`` its bytes, ``text`` decoded), its codes
    located in that copy. Raises :class:`CorpusError` if a code cannot be located."""
    lines = _lines(text)
    codes, pos = [], 0
    for entry in book.codes:
        first, last = locate(entry, lines, pos, str(path))
        codes.append(CodeSpec(
            slug=entry.slug, game=entry.game, title=entry.title, start_line=first + 1, end_line=last + 1,
            kind=entry.kind, numbering=entry.numbering, unit=entry.unit, law_style=entry.law_style,
            authority=entry.authority, year=entry.year, edition=entry.edition, aliases=entry.aliases,
            family=entry.family,
        ))
        pos = last + 1
    check_aliases_per_game(codes, f"{CATALOG}: book {book.slug!r}")
    return Source(
        slug=book.slug, path=path, title=book.title, sha256=hashlib.sha256(data).hexdigest(),
        codes=tuple(codes), author=book.author, year=book.year, url=book.url,
        page_marker=book.page_marker, kind=book.kind, edition=book.edition, licence=book.licence,
        address=book.address,
    )


def footnotes(book: BookEntry, text: str, path: Path) -> dict[int, str]:
    """Footnote number → its text (raw), from the book's footnote areas.

    Raises :class:`CorpusError` when an area's start is not found."""
    lines = _lines(text)
    notes: dict[int, str] = {}
    for area in book.footnotes:
        first, last = locate(area, lines, 0, str(path))
        chunk = "\n".join(lines[first : last + 1]).replace("\r", "")
        for paragraph in re.split(r"\n[ \t]*\n", chunk):
            footnote = footnote_at(paragraph)
            if footnote:
                notes.setdefault(footnote[0], " ".join(footnote[1].split()))
    return notes
