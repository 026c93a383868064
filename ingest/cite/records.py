"""The records of citation: what the resolver knows of laws, codes and sources, what it finds in
a text (:class:`Citation`) and what each citation refers to (:class:`Resolution`)."""

from __future__ import annotations

from dataclasses import dataclass, field

STATUS_ORDER = ("resolved", "ambiguous", "unresolved")  # from best to worst


@dataclass(frozen=True)
class CitableLaw:
    """What the resolver knows of a law or clause: the columns of ``laws`` it resolves by
    (``code`` is the code's id, ``<source>/<code slug>``)."""

    id: str
    source: str
    game: str
    code: str
    number: str
    kind: str
    parent: str | None
    ordinal: int
    numbered: bool = True
    witness_of: str | None = None
    text: str = ""


@dataclass(frozen=True)
class CitableSource:
    """What the resolver knows of a source: the words a citation may name it by."""

    slug: str
    title: str
    author: str | None = None
    year: int | None = None
    kind: str = "laws"


@dataclass(frozen=True)
class CitableCode:
    """What the resolver knows of a code: its book, game, kind and the names it is cited by."""

    id: str
    source: str
    game: str
    title: str
    authority: str | None = None
    year: int | None = None
    edition: str | None = None
    aliases: tuple[str, ...] = ()
    numbered: bool = True
    kind: str = "law"


@dataclass(frozen=True)
class Cited:
    """One number a citation names: ``path`` is the law's number and any clause numbers under it
    (``("39", "V")``, ``("III", "2", "a")``)."""

    path: tuple[str, ...]
    through: str | None = None  # a range "49 to 51": its last number (the laws between are cited too)

    @property
    def label(self) -> str:
        if self.through:
            return f"{self.path[0]} to {self.through}"
        return self.path[0] + "".join(f" ({p})" for p in self.path[1:])


@dataclass(frozen=True)
class Citation:
    """A citation found in a text: ``text[start:end]`` names ``numbers`` (empty for a relative
    reference), perhaps a ``game`` (as written), hints naming a book or code (``hints``: words
    and years the citation carries), ``paragraph`` for a citation by paragraph (``¶ 37``),
    ``etiquette`` for an etiquette rule, ``copy`` for one of the laws a book prints with the same
    number (``…, the second so numbered``: 2), and ``full`` when it names its game or code itself."""

    text: str
    start: int
    end: int
    numbers: tuple[Cited, ...] = ()
    game: str | None = None
    hints: tuple[str, ...] = ()
    relative: str | None = None  # "preceding", "following", "as-in"
    this: bool = False  # "this and foregoing Laws (55 and 56)" also cites the law it sits in
    paragraph: bool = False
    etiquette: bool = False
    book: str | None = None  # a source slug given by the caller (a book of cases ruling on a code)
    weak: bool = False  # a bare number and letter ("37 f"): a citation only where it resolves
    section: bool = False  # "Sec. 5" alone: a section of the law cited before it
    copy: int | None = None  # ", the second so numbered": which of a number the book prints twice (1, 2…)

    @property
    def full(self) -> bool:
        return bool(self.game or self.hints or self.book)


@dataclass
class Member:
    """One number of a range or list, resolved on its own."""

    number: str
    status: str
    laws: list[str] = field(default_factory=list)

    def as_json(self) -> dict:
        return {"number": self.number, "status": self.status, "laws": self.laws}


@dataclass
class Resolution:
    """What a citation refers to: ``status`` is ``resolved``, ``ambiguous`` or ``unresolved`` (the
    worst of its members' for a range or list); ``laws`` the law ids (every candidate when
    ambiguous); ``members`` one entry a number for a range or list; ``inferred`` the qualifiers
    taken from an earlier citation (``game``, ``code``); ``reason`` why it is not resolved."""

    citation: Citation
    status: str
    laws: list[str] = field(default_factory=list)
    reason: str | None = None
    members: list[Member] = field(default_factory=list)
    inferred: list[str] = field(default_factory=list)

    def as_json(self) -> dict:
        """The contract of ``cardlaws cite --json`` and ``/-/cite.json`` (README), plus the reason."""
        out = {"text": self.citation.text, "start": self.citation.start, "end": self.citation.end,
               "status": self.status, "laws": self.laws, "inferred": self.inferred}
        if len(self.members) > 1:
            out["members"] = [m.as_json() for m in self.members]
        if self.reason:
            out["reason"] = self.reason
        return out


def worst(statuses: list[str]) -> str:
    """The worst status of several (``unresolved`` > ``ambiguous`` > ``resolved``)."""
    return max(statuses, key=STATUS_ORDER.index) if statuses else "unresolved"
