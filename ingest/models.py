"""Typed records passed between the build stages (read → clean → segment → tag → link → load)
and shared with the query side.

Offsets are character offsets into :attr:`Document.text` (the decoded file, BOM removed, line
endings as in the file) unless a docstring says otherwise; line numbers are 1-based lines of the
file as it is on disk.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from pathlib import Path

_NEWLINE = re.compile("\n")


class CorpusError(Exception):
    """Bad input: a text or sidecar that cannot be ingested.

    The message always names the file (and the line or field where one is known), so the CLI can
    print it as it is.
    """


@dataclass(frozen=True)
class CodeSpec:
    """One code of laws inside a source, as a sidecar declares it.

    ``slug`` is unique within the source and becomes the middle part of law ids
    (``<source>/<slug>/<number>``); it is the game slug unless two codes of one source share a game.
    ``start_line``/``end_line`` are 1-based and inclusive; ``None`` means the whole file.
    """

    slug: str
    game: str
    title: str | None = None
    start_line: int | None = None
    end_line: int | None = None
    kind: str = "law"  # the kind given to its laws: "law" or "etiquette"
    numbering: str = "auto"  # "auto", "letters" (A. B. …) or "unnumbered"
    unit: str = "block"  # unnumbered laws: "block" (between * * * and headings) or "paragraph"
    law_style: str | None = None  # force the laws' numbering style, e.g. "LAW upper"
    authority: str | None = None  # the club, league, committee or compiler that issued the code
    year: int | None = None  # the year the code was adopted or last revised (not the book's year)
    edition: str | None = None
    aliases: tuple[str, ...] = ()  # names it is cited by: "Club Code", "American Laws"
    family: str | None = None  # its family of games (None: its game's family in games.toml)


@dataclass(frozen=True)
class Source:
    """A corpus text and what its sidecar says of it.

    ``slug`` is the file name without ``.txt``; ``sha256`` the hex digest of the file's bytes.
    ``page_marker`` is ``"{N}"`` or ``"[N]"`` (how the book prints page numbers).
    """

    slug: str
    path: Path
    title: str
    sha256: str
    codes: tuple[CodeSpec, ...]
    author: str | None = None
    year: int | None = None
    url: str | None = None
    page_marker: str = "{N}"
    excerpt_of: str | None = None
    kind: str = "laws"  # "laws", "excerpt" (of a catalogued book), "rulings" or "commentary"
    edition: str | None = None
    licence: str | None = None
    address: str | None = None

    @property
    def file(self) -> str:
        return self.path.name


@dataclass(frozen=True)
class PageMarker:
    """A printed page number found in the text: ``text[start:end]`` is e.g. ``{235}``.

    The page numbered ``page`` begins right after the marker.
    """

    start: int
    end: int
    page: int


@dataclass
class Document:
    """A source's decoded text with its line and page geography."""

    source: Source
    text: str
    page_markers: list[PageMarker] = field(default_factory=list)
    _line_starts: list[int] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self._line_starts = [0] + [m.end() for m in _NEWLINE.finditer(self.text)]

    @property
    def line_count(self) -> int:
        """Number of lines, counting a last line without a newline."""
        n = len(self._line_starts)
        return n - 1 if self.text.endswith("\n") else n

    def line_of(self, offset: int) -> int:
        """1-based line number of the character at ``offset``."""
        return bisect.bisect_right(self._line_starts, offset)

    def offset_of_line(self, line: int) -> int:
        """Offset of the first character of 1-based ``line`` (``len(text)`` past the end)."""
        if line - 1 < len(self._line_starts):
            return self._line_starts[line - 1]
        return len(self.text)

    def page_of(self, offset: int) -> int | None:
        """Printed page of the character at ``offset``.

        Text after a marker ``{N}`` is on page N; text before a file's first marker is on the page
        before it; a file with no markers has no pages (``None``).
        """
        if not self.page_markers:
            return None
        ends = [m.end for m in self.page_markers]
        k = bisect.bisect_right(ends, offset)
        if k == 0:
            return self.page_markers[0].page - 1
        return self.page_markers[k - 1].page


@dataclass(frozen=True)
class Span:
    """Half-open character range ``[start, end)`` into :attr:`Document.text`."""

    start: int
    end: int


@dataclass
class Law:
    """A numbered law or clause as found in a code.

    ``kind`` is ``law`` or ``clause``; ``number`` the label as printed without its trailing ``.``
    or dash (``31``, ``xii``, ``V``); ``parent`` the id of the law a clause belongs to (``None`` when
    its head is not in the text). ``span`` covers the label and the law's words; ``note_spans`` the
    bracketed commentary that follows it. ``text`` and ``note`` are clean; ``raw_text`` is exact.
    """

    id: str
    source: str
    game: str
    code_slug: str
    number: str
    kind: str
    ordinal: int
    span: Span
    text: str
    raw_text: str
    line_start: int
    line_end: int
    page_start: int | None
    page_end: int | None
    parent: str | None = None
    section: str | None = None
    numbered: bool = True  # False for a law the book prints without a number (its number is its position)
    note: str | None = None
    note_spans: list[Span] = field(default_factory=list)
    mentions: list[Mention] = field(default_factory=list)
    witness_of: str | None = None  # for an excerpt's law: the same law in the catalogued book
    decision: Decision | None = None  # what the cue tagger proposes it decides
    tags: list[Tag] = field(default_factory=list)  # what it decides and touches: reviewed, else predicted
    citation: str | None = None  # its short citation, unique among the books' laws (the link stage)
    questions: list[str] = field(default_factory=list)  # plain questions it answers (corpus/questions)
    accounts: list[str] = field(default_factory=list)  # what players say happened, that it rules on (same files)

    @property
    def code_id(self) -> str:
        """The id of the law's code, ``<source>/<code slug>``: what the ``laws.code`` column holds."""
        return f"{self.source}/{self.code_slug}"

    @property
    def entity_ids(self) -> list[str]:
        """Distinct entity ids mentioned in the law, sorted."""
        return sorted({m.entity_id for m in self.mentions})


@dataclass
class Fragment:
    """Text inside a code that belongs to no law found there, kept so nothing is lost.

    Example: seed 003 opens in the middle of a note whose law is not in the excerpt.
    ``reason`` says why it stands alone.
    """

    id: str
    source: str
    code_slug: str
    span: Span
    text: str
    raw_text: str
    line_start: int
    line_end: int
    page_start: int | None
    page_end: int | None
    reason: str

    @property
    def code_id(self) -> str:
        """The id of the fragment's code, ``<source>/<code slug>``."""
        return f"{self.source}/{self.code_slug}"


@dataclass
class Ruling:
    """A decided case (Cavendish's Cases and Decisions, or a Markdown ruling in corpus/rulings/):
    the facts, the decision, and its exact text, whose citations the build resolves."""

    id: str
    source: str
    number: str
    title: str
    text: str
    decision: str
    raw_text: str
    line_start: int
    line_end: int


@dataclass
class Decision:
    """What one law decides, as the situation tagger proposes it: ``situations`` (situation id →
    number of cue matches) and ``remedies`` (remedy id → the words of the law that say it), with
    ``spans`` (id → character offsets into the law's text of the first words that said it)."""

    situations: dict[str, int]
    remedies: dict[str, str]
    spans: dict[str, tuple[int, int]] = field(default_factory=dict)


@dataclass(frozen=True)
class Tag:
    """A situation a law decides or touches (``remedy`` None), or a remedy it gives for a situation
    it decides. ``origin`` is ``reviewed`` (read by a person, corpus/annotations) or ``predicted``
    (proposed by the tagger, ``score`` its confidence); ``evidence`` the law's words that show it,
    ``law.text[start:end]`` (offsets None: the words are another law's, the stem whose remedy a
    case it lists inherits; NULL in ``law_remedies``)."""

    situation: str
    grade: str  # "decides" or "touches"
    origin: str  # "reviewed" or "predicted"
    evidence: str
    start: int | None
    end: int | None
    remedy: str | None = None
    score: float = 1.0


@dataclass(frozen=True)
class Mention:
    """An entity mention: ``law.text[start:end] == text``, tagged ``entity_id``."""

    entity_id: str
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Entity:
    """An entry of the card-law entity taxonomy (``ingest/vocabulary/entities.toml``)."""

    id: str
    label: str
    kind: str
    definition: str


@dataclass
class Segmentation:
    """What segmentation found in one code: its laws, fragments and warnings (with line numbers)."""

    code: CodeSpec
    laws: list[Law]
    fragments: list[Fragment]
    warnings: list[str] = field(default_factory=list)
    structure: list[Span] = field(default_factory=list)  # sub-headings and * * * separators


@dataclass(frozen=True)
class CrossReference:
    """A citation inside a law: ``law.text[start:end] == text`` cites ``target_id`` (None when
    unresolved); ``status`` is ``resolved``, ``ambiguous`` or ``unresolved``."""

    law_id: str
    target_id: str | None
    text: str
    start: int
    end: int
    status: str


@dataclass(frozen=True)
class RulingCitation:
    """A citation in a ruling: ``ruling.raw_text[start:end] == text`` cites ``law_id`` (None when
    unresolved)."""

    ruling_id: str
    law_id: str | None
    text: str
    start: int
    end: int
    status: str


@dataclass(frozen=True)
class Parallel:
    """``other_id`` is among the parallels of ``law_id`` (the same rule, or the same situation, in
    another code): ``score`` ranks them (the cosine of their vectors, moved by the situations the
    two decide; :func:`ingest.build.link.parallels`); ``kind`` ``other-game`` or ``other-code``
    (another code of the same game)."""

    law_id: str
    other_id: str
    score: float
    kind: str
    method: str = "embedding"


@dataclass(frozen=True)
class LawVector:
    """A law's sentence vector: float32 bytes from ``model``, for the text whose hash is
    ``content_hash`` (so a rebuild reuses it while the law is unchanged)."""

    model: str
    content_hash: str
    vector: bytes


@dataclass
class Links:
    """What the link stage found: citations inside laws and in rulings, and parallels."""

    cross_references: list[CrossReference] = field(default_factory=list)
    ruling_citations: list[RulingCitation] = field(default_factory=list)
    parallels: list[Parallel] = field(default_factory=list)
