"""Cite: find law citations in a text (a ruling, or a law itself) and resolve them to laws.

:func:`find_citations` returns :class:`Citation` records for the forms the books and club rulings
use: ``Bridge Law 42``, ``Écarté law 31 (Hoyle's Games Modernized)``, ``Whist, law xii (Enquire
Within)``, ``Laws of Poker §13``, ``Laws of Piquet 11, 32, and 38``, ``Law 50_a_``, ``37 _f_``,
``Rule 14``, ``the preceding Law``, ``this and foregoing Laws (55 and 56)``, ``As in Bridge``.
:class:`Resolver` turns each into a :class:`Resolution`: ``resolved`` (one law per number cited),
``ambiguous`` (several books have it, all candidates listed, never a silent pick) or
``unresolved`` (with the reason: no such game, no such law). A named game, book or year narrows
the candidates; a ``context`` law (the one the text sits in) supplies the code for a bare
``Law 39`` or a relative reference.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, field, replace

from . import vocabulary
from .text import Normalised, fold, normalise_with_offsets

_NUM = r"(?:\d{1,3}(?:[ \t]*_?[a-z]_?(?![a-z]))?|[ivxlc]{1,7}\b|[IVXLC]{1,7}\b)"
_NUMS = rf"{_NUM}(?:(?:\s*,\s*(?:and\s+|or\s+|&\s*)?|\s+(?:and|&|or|to)\s+){_NUM})*"
_WORD = r"(?:(?:[Ll]aws?|LAWS?|[Rr]ules?|RULES?)(?:\s+[Nn]o\.)?|§§?|[Ss]ec(?:tion)?\.?|[Nn]o\.)"


_NOT_GAMES = frozenset(
    ["The", "This", "That", "These", "Those", "See", "Under", "By", "In", "Of", "And", "Or", "A", "An", "Per", "Each", "Every", "Any", "No", "Our", "Club", "Its", "Their", "His", "Her", "As", "To", "From", "With", "Without", "Whist's", "Also", "Then", "But", "If", "When", "Where", "Which", "Such", "Same", "Old", "New"]
)


@dataclass(frozen=True)
class Citation:
    """A citation found in a text: ``text[start:end]`` names ``numbers`` (as printed, or an empty
    list for a relative reference), perhaps a ``game`` (as written) and a ``book`` hint."""

    text: str
    start: int
    end: int
    numbers: tuple[str, ...] = ()
    game: str | None = None
    book: str | None = None
    relative: str | None = None  # "preceding", "following", "as-in"
    this: bool = False  # "this and foregoing Laws (55 and 56)" also cites the law it sits in
    code: str | None = None  # words naming a code before the game: "English" in "English Whist Laws"


@dataclass
class Resolution:
    """What a citation refers to: ``status`` is ``resolved``, ``ambiguous`` or ``unresolved``;
    ``laws`` the law ids (every candidate when ambiguous); ``reason`` why it is not resolved."""

    citation: Citation
    status: str
    laws: list[str] = field(default_factory=list)
    reason: str | None = None

    def as_json(self) -> dict:
        """The contract of ``cardlaws cite --json`` (README: "cite --json"), plus the reason."""
        out = {"text": self.citation.text, "start": self.citation.start, "end": self.citation.end,
               "status": self.status, "laws": self.laws}
        if self.reason:
            out["reason"] = self.reason
        return out


def _restored(r: Resolution, norm: Normalised) -> Resolution:
    """``r`` found in ``norm.text``, its citation's offsets and text those of ``norm.original``."""
    start, end = norm.span(r.citation.start, r.citation.end)
    citation = replace(r.citation, text=norm.original[start:end], start=start, end=end)
    return replace(r, citation=citation)


def _split_numbers(nums: str) -> list[str]:
    parts = re.split(r"\s*(?:,\s*(?:and\s+|or\s+|&\s*)?|\s+(?:and|&|or)\s+)\s*", nums.strip())
    out: list[str] = []
    for part in parts:
        m = re.fullmatch(r"(\d{1,3})\s+to\s+(\d{1,3})", part.strip())
        if m:
            out += [str(n) for n in range(int(m.group(1)), int(m.group(2)) + 1)]
        elif part.strip():
            out.append(re.sub(r"[\s_]", "", part.strip()))
    return out


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


@dataclass(frozen=True)
class CitableSource:
    """What the resolver knows of a source: the words a citation may name it by."""

    slug: str
    title: str
    author: str | None = None
    year: int | None = None
    kind: str = "laws"


_LAW_COLUMNS = "id, source, game, code, number, kind, parent, ordinal, numbered, witness_of"


class Resolver:
    """Resolves citations against a set of laws: a built database (:meth:`from_db`) or the laws a
    build has just segmented (:meth:`from_laws`). ``games`` maps slug → display name; ``aliases``
    other names of games → slugs (default: ``vocabulary/games.toml``)."""

    def __init__(self, games: dict[str, str], sources: list[CitableSource], laws: list[CitableLaw],
                 aliases: dict[str, str] | None = None) -> None:
        self.games = dict(games)
        self.sources = list(sources)
        names: dict[str, str] = {}
        for slug, name in self.games.items():
            for alias in {slug, slug.replace("-", " "), name, fold(name)}:
                names[alias.lower()] = slug
        aliases = vocabulary.aliases() if aliases is None else aliases
        names.update({alias.lower(): slug for alias, slug in aliases.items() if slug in self.games})
        self.game_names = names
        alternatives = "|".join(sorted((re.escape(n) for n in names), key=len, reverse=True))
        self.game_re = rf"(?i:{alternatives})"
        self._by_id = {law.id: law for law in laws}
        self._children: dict[str, list[CitableLaw]] = {}
        self._by_code: dict[str, list[CitableLaw]] = {}
        self._laws: dict[tuple[str, str], list[CitableLaw]] = {}
        for law in sorted(laws, key=lambda x: x.ordinal):
            if law.parent:
                self._children.setdefault(law.parent, []).append(law)
            self._by_code.setdefault(law.code, []).append(law)
            if law.witness_of is None and law.kind != "reference" and law.numbered:
                self._laws.setdefault((law.game, law.number.lower()), []).append(law)
        self._patterns = self._compile()

    @classmethod
    def from_db(cls, conn: sqlite3.Connection) -> Resolver:
        """A resolver over the laws of a built database (read once; the connection is not kept)."""
        conn.row_factory = sqlite3.Row
        games = {r["slug"]: r["name"] for r in conn.execute("select slug, name from games")}
        sources = [CitableSource(r["slug"], r["title"], r["author"], r["year"], r["kind"])
                   for r in conn.execute("select slug, title, author, year, kind from sources")]
        laws = [CitableLaw(**{**dict(r), "numbered": bool(r["numbered"])})
                for r in conn.execute(f"select {_LAW_COLUMNS} from laws")]
        return cls(games, sources, laws)

    def law(self, law_id: str) -> CitableLaw | None:
        """The law or clause with this id, if any."""
        return self._by_id.get(law_id)

    def _clause(self, law_id: str, number: str) -> CitableLaw | None:
        return next((c for c in self._children.get(law_id, []) if c.number.lower() == number.lower()), None)

    # ---------------------------------------------------------------- finding

    def _compile(self) -> list[tuple[str, re.Pattern]]:
        g = self.game_re
        book = r"(?:\s*\((?P<book>[^)]{1,80})\))?"
        return [
            ("law-sec", re.compile(
                r"\b(?:(?P<game>" + g + r"),?\s+)?[Ll]aw\s+(?P<law>[IVXLC]{1,7}),?\s+[Ss]ec(?:tion)?\.?\s*(?P<sec>\d{1,2})")),
            ("relative", re.compile(
                r"(?i)\b(?:this and (?:the )?)?(?:the )?(?P<rel>preceding|foregoing|following|next|last) "
                r"(?:law|rule)s?(?:\s*\((?P<nums>" + _NUMS + r")\))?")),
            ("as-in", re.compile(r"\b[Aa]s in (?P<game>" + g + r")\b")),
            ("laws-of", re.compile(
                r"\b(?:[Ll]aws?|LAWS?|[Rr]ules?)\s+of\s+(?P<game>" + g + r")\s*(?:,\s*)?(?:" + _WORD + r"\s*)?"
                r"(?P<nums>" + _NUMS + r")" + book)),
            ("game-law", re.compile(
                r"\b(?P<game>" + g + r")(?:,)?\s+" + _WORD + r"\s*(?P<nums>" + _NUMS + r")" + book)),
            ("law", re.compile(r"\b" + _WORD + r"\s*(?P<nums>" + _NUMS + r")" + book)),
            ("law-of-game", re.compile(
                r"\b" + _WORD + r"\s*(?P<nums>" + _NUMS + r")\s+of\s+(?:the\s+)?(?:[A-Z][\w-]+['’]s\s+)?"
                r"(?P<code>(?:[A-Z][a-z]+\s+)*?)(?P<game>" + g + r")\b")),
            ("game-number", re.compile(r"\b(?P<game>" + g + r")\s+(?P<nums>\d{1,3})\b" + book)),
            ("number-letter", re.compile(r"(?<![\w.])(?P<nums>\d{1,3}\s+_[a-z]_)")),
        ]

    def find(self, text: str) -> list[Citation]:
        """Every citation in ``text``, in order; where two forms overlap, the longer wins."""
        matches = [(kind, m) for kind, pattern in self._patterns for m in pattern.finditer(text)]
        matches.sort(key=lambda km: (-(km[1].end() - km[1].start()), km[1].start()))
        found: list[Citation] = []
        for kind, m in matches:
            if any(c.start < m.end() and m.start() < c.end for c in found):
                continue
            groups = m.groupdict()
            start = m.start()
            if kind == "law":  # "Canasta law 3": a game we do not have is named before "law"
                before = re.search(r"\b([A-Z][a-z]+)[ \t]+$", text[max(0, start - 30) : start])
                if before and before.group(1) not in _NOT_GAMES and before.group(1).lower() not in self.game_names:
                    groups["game"], start = before.group(1), start - len(before.group(0))
            nums = _split_numbers(groups["nums"]) if groups.get("nums") else []
            if kind == "law-sec":
                nums = [f"{groups['law']}/{groups['sec']}"]
            book_hint = groups.get("book")
            if book_hint and re.fullmatch(r"[IVXLCivxlc]{1,7}|[a-h]", book_hint.strip()) and len(nums) == 1:
                nums, book_hint = [f"{nums[0]}/{book_hint.strip()}"], None  # "Bridge Law 39 (V)": clause V
            rel = groups.get("rel")
            found.append(Citation(
                text=text[start : m.end()], start=start, end=m.end(), numbers=tuple(nums),
                game=groups.get("game"), book=book_hint,
                code=(groups.get("code") or "").strip().lower() or None,
                relative="as-in" if kind == "as-in" else (rel.lower() if rel and not nums else None),
                this=bool(kind == "relative" and re.match(r"(?i)this and", m.group(0))),
            ))
        return sorted(found, key=lambda c: c.start)

    # -------------------------------------------------------------- resolving

    def _book_sources(self, hint: str | None) -> set[str] | None:
        if not hint:
            return None
        if hint.startswith("="):  # a book named elsewhere in the text, by its slug
            return {hint[1:]}
        words = set(re.findall(r"[a-z0-9]+", fold(hint).lower())) - {"the", "of", "and", "s", "laws", "law"}
        hits = set()
        for s in self.sources:
            hay = fold(" ".join(str(v or "") for v in (s.slug, s.title, s.author, s.year))).lower()
            if words and all(w in hay for w in words if not w.isdigit() or w in hay):
                hits.add(s.slug)
        return hits or None

    def resolve(self, citation: Citation, context: str | None = None) -> Resolution:
        """Resolve one citation; ``context`` is the id of the law the citation sits in."""
        ctx = self._by_id.get(context) if context else None
        game = None
        if citation.game:
            game = self.game_names.get(fold(citation.game).lower()) or self.game_names.get(citation.game.lower())
            if game is None:
                return Resolution(citation, "unresolved", reason=f"no such game: {citation.game}")
        if citation.relative in ("preceding", "foregoing", "last", "following", "next"):
            if ctx is None:
                return Resolution(citation, "unresolved", reason="a relative reference needs the law it sits in (--context)")
            heads = [x for x in self._by_code.get(ctx.code, []) if x.kind in ("law", "etiquette") and x.parent is None]
            if citation.relative in ("preceding", "foregoing", "last"):
                row = next((x for x in reversed(heads) if x.ordinal < ctx.ordinal), None)
            else:
                row = next((x for x in heads if x.ordinal > ctx.ordinal), None)
            if row is None:
                return Resolution(citation, "unresolved", reason=f"no {citation.relative} law in {ctx.code}")
            return Resolution(citation, "resolved", [row.id])
        if citation.relative == "as-in":
            if ctx is None:
                return Resolution(citation, "unresolved", reason="'As in …' needs the law it sits in (--context)")
            targets = []
            for n in _split_numbers(ctx.number):
                rows = [r for r in self._laws.get((game, n.lower()), []) if r.source == ctx.source]
                targets += [r.id for r in rows if r.parent is None]
            if not targets:
                return Resolution(citation, "unresolved", reason=f"no law {ctx.number} of {game} in {ctx.source}")
            return Resolution(citation, "resolved", targets)
        if not citation.numbers:
            return Resolution(citation, "unresolved", reason="no law number")
        books = self._book_sources(citation.book)
        laws: list[str] = []
        ambiguous = False
        for number in citation.numbers:
            candidates = self._candidates(number, game, books, ctx)
            if citation.code and game:  # "English Whist Laws": the code english-whist
                slug = f"/{citation.code.replace(' ', '-')}-{game}"
                candidates = [c for c in candidates if slug + "/" in c] or candidates
            if not candidates:
                where = self.games.get(game, game) if game else "any book"
                return Resolution(citation, "unresolved", reason=f"no law {number} in {where}"
                                  + (f" ({citation.book})" if citation.book else ""))
            ambiguous |= len(candidates) > 1
            laws += [c for c in candidates if c not in laws]
        if citation.this and ctx is not None and ctx.id not in laws:
            laws.append(ctx.id)
        return Resolution(citation, "ambiguous" if ambiguous else "resolved", laws)

    def _candidates(self, number: str, game: str | None, books: set[str] | None, ctx: CitableLaw | None) -> list[str]:
        if "/" in number:  # a clause: "39/V", "VIII/1"
            head, clause = number.split("/", 1)
            found = (self._clause(law_id, clause) for law_id in self._candidates(head, game, books, ctx))
            return [c.id for c in found if c]
        key = number.lower()
        pools = [rows for (g, n), rows in self._laws.items() if n == key and (game is None or g == game)]
        rows = [r for pool in pools for r in pool if r.parent is None or not re.fullmatch(r"\d+", number)]
        if books:
            rows = [r for r in rows if r.source in books]
        if ctx is not None:
            same_code = [r for r in rows if r.code == ctx.code]
            same_source = [r for r in rows if r.source == ctx.source and r.game == ctx.game]
            if not game or game == ctx.game:
                rows = same_code or same_source or rows
            else:
                rows = [r for r in rows if r.source == ctx.source] or rows
        # a clause is cited by its own number only inside its law ("37 _f_" is law 37, clause f)
        exact = [r for r in rows if r.number == number] or rows
        return sorted({r.id for r in exact})

    def books_named(self, text: str) -> str | None:
        """A book the text names anywhere (its author or title: "Hoffmann's", "Baxter-Wray's",
        "Enquire Within"), as a hint for citations that name none; None if none or several."""
        named = set()
        folded = fold(text)
        for s in self.sources:
            if s.kind == "excerpt":
                continue
            keys = [w for w in re.findall(r"[A-Z][\w'-]+(?:-[A-Z]\w+)?", fold(s.author or "")) if len(w) > 3]
            keys += [fold(t) for t in re.findall(r"[A-Z][a-z']+(?: [A-Z][a-z']+)+", s.title.split(":")[0])]
            if any(re.search(rf"\b{re.escape(k.rstrip(chr(39)))}", folded) for k in keys):
                named.add(s.slug)
        return next(iter(named)) if len(named) == 1 else None

    def cite(self, text: str, context: str | None = None, book: str | None = None) -> list[Resolution]:
        """Find and resolve every citation in ``text``; ``book`` (a source slug) is the book meant
        where a citation names none (else one the text names anywhere). The text is normalised
        (:func:`~ingest.text.normalise`) first; offsets and texts are those of ``text`` as given."""
        norm = normalise_with_offsets(text)
        if norm.text != text:
            return [_restored(r, norm) for r in self.cite(norm.text, context, book)]
        out = []
        named = book or self.books_named(text)
        for c in self.find(text):
            if named and not c.book and not c.relative:
                c = Citation(c.text, c.start, c.end, c.numbers, c.game, f"={named}", c.relative, c.this, c.code)
            if c.numbers and len(c.numbers) == 1 and re.fullmatch(r"\d{1,3}[a-z]", c.numbers[0]) and " _" in c.text:
                # "37 _f_": clause f of law 37, where the code has such clauses; else law 37f
                out.append(self._number_letter(c, context))
            else:
                out.append(self.resolve(c, context))
        return out

    def _number_letter(self, c: Citation, context: str | None) -> Resolution:
        base = self.resolve(Citation(c.text, c.start, c.end, (c.numbers[0][:-1],), c.game, c.book), context)
        if base.status != "resolved":
            return Resolution(c, base.status, base.laws, base.reason)
        sub = self._clause(base.laws[0], c.numbers[0][-1])
        return Resolution(c, "resolved", [sub.id if sub else base.laws[0]])


