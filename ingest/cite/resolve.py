"""Resolve: what each citation found in a text refers to.

:class:`Resolver` turns each :class:`~.records.Citation` into a :class:`~.records.Resolution`:
``resolved`` (one law a number), ``ambiguous`` (several codes have it: every candidate listed,
never a silent pick) or ``unresolved`` (with the reason). What narrows the candidates:

- a game, in any case or accent, or a name a code's printed title gives it ("Dummy", "Three Hand
  Auction"): a game covers all its codes and every code whose title names it;
- words naming a book or a code — its author, title, year, edition, authority or aliases ("Club
  Code", "Revised Code, 1900", "Hoffmann 1909") — in parentheses after the number, in the same
  clause before it, or after it ("of the Club Code"); a year narrows to codes or books of that
  year and is never a law number;
- a context law (the one the text sits in): a bare ``Law 39`` means its code;
- the last full citation in the same paragraph: a short form inherits its game and code
  (``inferred`` says so); a book named for one citation is not applied to an unrelated one.

A number means the law printed with it, or the same number in Roman or Arabic figures (``law 9``
is Enquire Within's ``ix``). A code printed without numbers is cited by paragraph (``¶ 37``),
never as "law 37". A range entry (``5 to 10. As in Bridge``) takes its numbers over from the code
it names. A range or list resolves number by number (``members``).
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import replace

from .. import vocabulary
from ..numbering import roman_value
from ..text import Normalised, fold, normalise_with_offsets
from .find import Finder
from .records import CitableCode, CitableLaw, CitableSource, Citation, Cited, Member, Resolution, worst

MAX_TEXT_CHARS = 20_000  # the longest text cited at once (a ruling), on the site and the command line

_STOP = frozenset(["the", "of", "and", "s", "laws", "law", "rules", "rule", "code", "codes", "on", "in", "by", "for", "a", "an", "as", "at", "to", "under", "its", "his", "their", "club", "clubs", "book", "books", "see", "also", "framed"])
_TITLE_LEAD_RE = re.compile(r"(?i)^(?:the\s+)?(?:(?:accepted|american)\s+)?(?:laws?|rules?)\s+(?:of|for)\s+(?:the\s+)?")
_TITLE_TAIL_RE = re.compile(r"(?i)\s+(?:laws?|rules?)(?:,.*)?$|\s*[(,].*$")
_NAME_AFTER_RE = re.compile(
    r"\s+(?:of|in)\s+((?:the\s+)?[A-Z][\w'’-]*(?:\s+(?:of|on|the|and|[A-Z][\w'’-]*|1[789]\d\d|\(1[789]\d\d\)))*)")


def _words(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9]+", fold(text).lower()) if w not in _STOP]


def _restored(r: Resolution, norm: Normalised) -> Resolution:
    """``r`` found in ``norm.text``, its citation's offsets and text those of ``norm.original``."""
    start, end = norm.span(r.citation.start, r.citation.end)
    return replace(r, citation=replace(r.citation, text=norm.original[start:end], start=start, end=end))


def _value(number: str) -> int | None:
    """A law number's value for matching Roman against Arabic figures (``ix`` → 9); None for a
    lettered or compound number."""
    if number.isdigit():
        return int(number)
    if re.fullmatch(r"[ivxlc]+", number, re.IGNORECASE):
        try:
            return roman_value(number)
        except KeyError:
            return None
    return None


class Resolver:
    """Resolves citations against a set of laws: a built database (:meth:`from_db`) or the laws a
    build has just segmented. ``games`` maps slug → display name; ``aliases`` other names of
    games → slugs (default: ``vocabulary/games.toml``)."""

    def __init__(self, games: dict[str, str], sources: list[CitableSource], laws: list[CitableLaw],
                 codes: list[CitableCode] | None = None, aliases: dict[str, str] | None = None) -> None:
        self.games = {**vocabulary.games(), **games}  # every game a citation may name, built or not
        self.sources = {s.slug: s for s in sources}
        self.codes = {c.id: c for c in codes or []}
        self._named: dict[str, tuple[str | None, set[str] | None]] = {}  # _named_codes, by name
        for law in laws:  # a code the caller did not describe: its game and book only
            if law.code not in self.codes:
                self.codes[law.code] = CitableCode(law.code, law.source, law.game, law.code.split("/")[-1])
        self.game_names: dict[str, str] = {}
        for slug, name in self.games.items():
            for alias in {slug, slug.replace("-", " "), name, fold(name)}:
                self.game_names[alias.lower()] = slug
        aliases = vocabulary.aliases() if aliases is None else aliases
        self.game_names.update({a.lower(): s for a, s in aliases.items() if s in self.games})
        # a name a code's printed title gives it ("Dummy", "Three Hand Auction"): that code
        self.code_names: dict[str, set[str]] = {}
        # and the names a code is cited by ("Club Code", "Cayenne"), with its title's own parenthesis
        self._alias_phrases: dict[str, set[str]] = {}
        for code in self.codes.values():
            name = _TITLE_TAIL_RE.sub("", _TITLE_LEAD_RE.sub("", code.title)).strip(" .,")
            if name and name.lower() not in self.game_names and len(name) > 3:
                for form in {name.lower(), fold(name).lower()}:
                    self.code_names.setdefault(form, set()).add(code.id)
            for phrase in [*code.aliases, *re.findall(r"\(([^)]+)\)", code.title)]:
                key = " ".join(_words(phrase))
                if key:
                    self._alias_phrases.setdefault(key, set()).add(code.id)
                short = re.sub(r"(?i)^the\s+", "", phrase).strip()
                if re.fullmatch(r"[A-Z][\w'’ -]{3,40}", short) and short.lower() not in self.game_names:
                    self.code_names.setdefault(short.lower(), set()).add(code.id)
        self.finder = Finder(list(self.game_names) + list(self.code_names))
        game_words = "|".join(sorted((re.escape(n) for n in self.game_names), key=len, reverse=True))
        name_word = r"(?:[A-Z][\w'’.-]*|1[789]\d\d|of|on|the|and|by|in|&|laws?|rules?|code|(?i:" + game_words + r"))"
        self._name_before = re.compile(r"((?:" + name_word + r"[ \t]*,?[ \t]*)+)[(\s]*$")
        self._by_id = {law.id: law for law in laws}
        self._children: dict[str, list[CitableLaw]] = {}
        self._heads: dict[str, list[CitableLaw]] = {}  # code → its top-level laws, in order
        for law in sorted(laws, key=lambda x: x.ordinal):
            if law.parent:
                self._children.setdefault(law.parent, []).append(law)
            elif law.witness_of is None:
                self._heads.setdefault(law.code, []).append(law)
        self._hay = {cid: set(_words(" ".join(str(v or "") for v in (
            c.title, c.authority, c.year, c.edition, " ".join(c.aliases), self.games.get(c.game, c.game),
            self.sources[c.source].title if c.source in self.sources else "",
            self.sources[c.source].author if c.source in self.sources else "",
            self.sources[c.source].year if c.source in self.sources else "", c.source))))
            for cid, c in self.codes.items()}
        self._vocabulary = set().union(*self._hay.values()) if self._hay else set()

    @classmethod
    def from_db(cls, conn: sqlite3.Connection) -> Resolver:
        """A resolver over the laws of a built database (read once; the connection is not kept)."""
        import json

        conn.row_factory = sqlite3.Row
        games = {r["slug"]: r["name"] for r in conn.execute("select slug, name from games")}
        sources = [CitableSource(r["slug"], r["title"], r["author"], r["year"], r["kind"])
                   for r in conn.execute("select slug, title, author, year, kind from sources")]
        codes = [CitableCode(r["id"], r["source"], r["game"], r["title"], r["authority"], r["year"], r["edition"],
                             tuple(json.loads(r["aliases"] or "[]")), bool(r["numbered"]), r["kind"] or "law")
                 for r in conn.execute("select * from codes")]
        laws = [CitableLaw(r["id"], r["source"], r["game"], r["code"], r["number"], r["kind"], r["parent"],
                           r["ordinal"], bool(r["numbered"]), r["witness_of"], r["text"])
                for r in conn.execute("select id, source, game, code, number, kind, parent, ordinal, numbered, witness_of, "
                                      "case when kind = 'reference' then text else '' end as text from laws")]
        return cls(games, sources, laws, codes)

    def find(self, text: str) -> list[Citation]:
        """Every citation in ``text``, in order."""
        return self.finder.find(text)

    # ------------------------------------------------------------------ scope

    def _named_codes(self, name: str | None) -> tuple[str | None, set[str] | None]:
        """``(game slug, codes)`` a citation's game name means: a game (all its codes, and every code
        whose title names it), or a code's title name; ``(None, None)`` when it names none."""
        if not name:
            return None, None
        if name not in self._named:  # a build asks this some 3,000 times of a handful of names
            self._named[name] = self._codes_named(name)
        game, codes = self._named[name]
        return game, (set(codes) if codes is not None else None)

    def _codes_named(self, name: str) -> tuple[str | None, set[str] | None]:
        key = " ".join(name.lower().split())
        game = self.game_names.get(key) or self.game_names.get(fold(key))
        if game:
            name = fold(self.games[game]).lower()
            titled = {cid for cid, c in self.codes.items() if re.search(rf"\b{re.escape(name)}\b", fold(c.title).lower())}
            return game, {cid for cid, c in self.codes.items() if c.game == game} | titled
        ids = self.code_names.get(key) or self.code_names.get(fold(key))
        return (None, set(ids)) if ids else (None, None)

    def _hinted(self, hints: list[str]) -> set[str] | None:
        """The codes whose book or code every significant word of ``hints`` names (a year: the code's
        or the book's year); None when the hints name nothing known."""
        folded = " " + " ".join(w for h in hints for w in _words(h)) + " "
        by_alias = set().union(*(ids for phrase, ids in self._alias_phrases.items() if f" {phrase} " in folded))
        words = [w for w in folded.split() if w in self._vocabulary and not (w.isdigit() and len(w) < 4)]
        if not words:
            return by_alias or None
        codes = {cid for cid, hay in self._hay.items() if all(w in hay for w in words)}
        # a name the code is cited by ("para. 82", "Club Code") narrows what the words allow
        return (codes & by_alias) or codes

    def _lead(self, text: str, citation: Citation, previous_end: int) -> str:
        """The name right before a citation, in capitals and years: "The Revised Code, 1900, law
        12a", "Cavendish on Écarté, law 31", "the Portland and Bath Clubs in 1908, law 53"."""
        window = text[max(previous_end, citation.start - 120) : citation.start]
        m = self._name_before.search(window)
        return m.group(1) if m else ""

    def _tail(self, text: str, citation: Citation) -> str:
        """The name right after a citation: "of the Club Code", "of Elwell's laws", "in
        Baxter-Wray's Round Games with Cards"."""
        m = _NAME_AFTER_RE.match(text, citation.end)
        return m.group(1) if m else ""

    # -------------------------------------------------------------- resolving

    def cite(self, text: str, context: str | None = None, book: str | None = None) -> list[Resolution]:
        """Find and resolve every citation in ``text``. ``context`` is the id of the law the text
        sits in; ``book`` (a source slug) the book meant where a citation names none (the book a
        book of cases rules on). The text is normalised (:func:`~ingest.text.normalise`) first;
        offsets and texts are those of ``text`` as given."""
        norm = normalise_with_offsets(text)
        if norm.text != text:
            return [_restored(r, norm) for r in self.cite(norm.text, context, book)]
        out: list[Resolution] = []
        last_full: tuple[int, str | None, set[str] | None] | None = None  # (end, game, codes)
        last_head: str | None = None  # the law number of the last citation ("Sec. 5" is its section)
        previous_end = 0
        for c in self._merged(text, self.find(text)):
            lead = self._lead(text, c, previous_end)
            previous_end = c.end
            if last_full and re.search(r"\n\s*\n", text[last_full[0] : c.start]):
                last_full, last_head = None, None  # a new paragraph: nothing is inherited
            hints = [*c.hints, lead, self._tail(text, c)]
            game, named = self._named_codes(c.game)
            hinted = self._hinted(hints)
            if book and not c.game and hinted is None:
                hinted = {cid for cid, code in self.codes.items() if code.source == book}
            scope = named if hinted is None else (hinted if named is None else named & hinted)
            inferred: list[str] = []
            if c.game and game is None and named is None:
                out.append(Resolution(c, "unresolved", reason=f"no such game: {c.game}"))
                continue
            if scope is None and last_full is not None and not c.relative and context is None:
                game, scope = last_full[1], last_full[2]
                inferred = [q for q, v in (("game", game), ("code", scope)) if v]
                if c.section and last_head and all(len(n.path) == 1 for n in c.numbers):
                    c = replace(c, numbers=tuple(Cited((last_head, *n.path)) for n in c.numbers))
                    inferred.append("law")
            elif scope is not None:
                last_full = (c.end, game, scope)
            resolution = self.resolve(c, context, game, scope)
            if resolution.status == "unresolved" and (c.weak or (c.relative == "as-in" and context is not None)):
                continue  # "37 f" that names no clause, "marked as in Ecarté": no citation
            resolution.inferred = inferred
            if c.numbers:
                last_head = c.numbers[0].path[0]
            out.append(resolution)
        return out

    @staticmethod
    def _merged(text: str, found: list[Citation]) -> list[Citation]:
        """A paragraph number right before a law citation names the book's section, not a law:
        "Enquire Within, para. 82, law xvi" is law xvi of the code printed as para. 82."""
        out: list[Citation] = []
        for c in found:
            prev = out[-1] if out else None
            if prev is not None and prev.paragraph and not c.paragraph and re.fullmatch(r"\s*,?\s*", text[prev.end : c.start]):
                out[-1] = replace(c, hints=(*c.hints, prev.text))
                continue
            out.append(c)
        return out

    def resolve(self, citation: Citation, context: str | None = None, game: str | None = None,
                scope: set[str] | None = None) -> Resolution:
        """Resolve one citation; ``context`` is the id of the law it sits in; ``game`` and ``scope``
        (code ids) narrow it (:meth:`cite` works them out from the text)."""
        ctx = self._by_id.get(context) if context else None
        if citation.game and game is None and scope is None:
            game, scope = self._named_codes(citation.game)
            if game is None and scope is None:
                return Resolution(citation, "unresolved", reason=f"no such game: {citation.game}")
        if citation.relative in ("preceding", "foregoing", "last", "following", "next"):
            return self._relative(citation, ctx)
        if citation.relative == "as-in":
            return self._as_in(citation, ctx, game)
        if not citation.numbers:
            return Resolution(citation, "unresolved", reason="no law number")
        members: list[Member] = []
        for cited in citation.numbers:
            members += self._range(citation, cited, game, scope, ctx) if cited.through else \
                [self._member(citation, cited, game, scope, ctx)]
        if citation.copy and len(members) == 1 and members[0].status == "ambiguous":
            members = [self._copy(members[0], citation.copy)]
        laws = list(dict.fromkeys(law for m in members for law in m.laws))
        if citation.this and ctx is not None and ctx.id not in laws:
            laws.append(ctx.id)
        status = worst([m.status for m in members])
        reason = None
        if status == "unresolved":
            missing = next(m for m in members if m.status == "unresolved")
            reason = self._why(citation, missing.number, game, scope)
        return Resolution(citation, status, laws, reason, members)

    def _copy(self, member: Member, copy: int) -> Member:
        """The ``copy``-th (1, 2…, in the book's order) of an ambiguous member's laws, when they
        are copies of one number printed twice in one code (Hoffmann's Bridge law 6, I and II
        printed twice: ``Bridge law 6 (I) (Hoffmann 1909), the second so numbered``); else the member
        as it was (never a silent pick among codes)."""
        laws = sorted((self._by_id[x] for x in member.laws), key=lambda law: law.ordinal)
        if len({law.code for law in laws}) != 1 or len({re.sub(r"~\d+", "", law.id) for law in laws}) != 1:
            return member
        if copy > len(laws):
            return Member(member.number, "unresolved", [])
        return Member(member.number, "resolved", [laws[copy - 1].id])

    def _range(self, citation: Citation, cited: Cited, game: str | None, scope: set[str] | None,
               ctx: CitableLaw | None) -> list[Member]:
        """The members of a range: in the code where both its ends stand, every law from the first to
        the last in the book's order (``49 to 51`` takes in 50a–50c); else each number between."""
        first = self._member(citation, Cited(cited.path), game, scope, ctx)
        last = self._member(citation, Cited((cited.through,)), game, scope, ctx)
        if first.status == last.status == "resolved":
            a, b = self._by_id[first.laws[0]], self._by_id[last.laws[0]]
            if a.code == b.code and a.ordinal <= b.ordinal:
                return [Member(h.number, "resolved", [h.id]) for h in self._heads.get(a.code, [])
                        if a.ordinal <= h.ordinal <= b.ordinal]
        return [self._member(citation, Cited((str(n),)), game, scope, ctx)
                for n in range(int(cited.path[0]), int(cited.through) + 1)]

    def _why(self, citation: Citation, number: str, game: str | None, scope: set[str] | None) -> str:
        codes = self._codes(citation, game, scope, numbered=None)
        if codes and not citation.paragraph and all(not self.codes[c].numbered for c in codes):
            return f"{self.codes[next(iter(codes))].title} is printed without numbers: cite it by paragraph (¶ {number})"
        where = self.games.get(game, game) if game else "any book"
        return f"no law {number} in {where}" + (f" ({'; '.join(citation.hints)})" if citation.hints else "")

    def _codes(self, citation: Citation, game: str | None, scope: set[str] | None, numbered: bool | None) -> set[str]:
        """The codes a citation may mean (before its number is looked up)."""
        codes = set(scope) if scope is not None else {cid for cid, c in self.codes.items() if not game or c.game == game}
        if citation.etiquette:  # "etiquette 3": the etiquette codes only
            codes = {cid for cid in codes if self.codes[cid].kind == "etiquette"}
        if numbered is not None:
            codes = {cid for cid in codes if self.codes[cid].numbered == numbered}
        return codes

    def _member(self, citation: Citation, cited: Cited, game: str | None, scope: set[str] | None,
                ctx: CitableLaw | None) -> Member:
        """One number, looked up in every code the citation may mean; with a context law, its own
        code first, then its book's codes of its game (or of the game named), then every code."""
        codes = self._codes(citation, game, scope, numbered=not citation.paragraph)
        found: list[CitableLaw] = []
        for cid in sorted(codes):
            found += self._heads_numbered(cid, cited.path[0])
        if ctx is not None and len({f.code for f in found}) > 1:
            same_game = game or ctx.game
            found = ([f for f in found if f.code == ctx.code] if not game or game == ctx.game else []) \
                or [f for f in found if f.source == ctx.source and f.game == same_game] \
                or [f for f in found if f.source == ctx.source] or found
        targets = list(dict.fromkeys(t for law in found for t in self._descend(law, cited.path[1:])))
        status = "resolved" if len(targets) == 1 else ("ambiguous" if targets else "unresolved")
        return Member(cited.label, status, targets)

    def _heads_numbered(self, code: str, number: str) -> list[CitableLaw]:
        """The top-level laws of ``code`` printed with ``number`` (or its Roman/Arabic twin); a
        reference row ("As in Bridge") and a range entry ("5 to 10") lead to the laws they name."""
        heads = self._heads.get(code, [])
        exact = [h for h in heads if h.number.lower() == number.lower() and h.kind != "reference"]
        value = _value(number)
        if not exact and value is not None:
            exact = [h for h in heads if h.kind != "reference" and _value(h.number) == value]
        if exact:
            return exact
        for h in heads:
            if h.kind != "reference":
                continue
            m = re.fullmatch(r"(\d+)(?: to (\d+))?", h.number)
            if m and value is not None and int(m.group(1)) <= value <= int(m.group(2) or m.group(1)):
                return self._referred(h, number)
        return []

    def _referred(self, reference: CitableLaw, number: str) -> list[CitableLaw]:
        """The laws numbered ``number`` in the code a reference row of the same book names."""
        target = None
        words = fold(reference.text).lower()
        for name, slug in self.game_names.items():
            if re.search(rf"\bas in {re.escape(name)}\b", words):
                target = slug
        if target is None:
            return []
        codes = [cid for cid, c in self.codes.items() if c.source == reference.source and c.game == target]
        return [h for cid in codes for h in self._heads.get(cid, []) if h.number.lower() == number.lower()]

    def _descend(self, law: CitableLaw, path: tuple[str, ...]) -> list[str]:
        """The clauses of ``law`` at ``path`` (clause numbers as printed, in any case): one, or
        several where the book prints a number twice (Hoffmann's Bridge law 6, I and II)."""
        laws = [law]
        for part in path:
            laws = [c for x in laws for c in self._children.get(x.id, []) if c.number.lower() == part.lower()]
        return [x.id for x in laws]

    def _relative(self, citation: Citation, ctx: CitableLaw | None) -> Resolution:
        if ctx is None:
            return Resolution(citation, "unresolved", reason="a relative reference needs the law it sits in (--context)")
        heads = [x for x in self._heads.get(ctx.code, []) if x.kind in ("law", "etiquette")]
        if citation.relative in ("preceding", "foregoing", "last"):
            row = next((x for x in reversed(heads) if x.ordinal < ctx.ordinal), None)
        else:
            row = next((x for x in heads if x.ordinal > ctx.ordinal), None)
        if row is None:
            return Resolution(citation, "unresolved", reason=f"no {citation.relative} law in {ctx.code}")
        return Resolution(citation, "resolved", [row.id])

    def _as_in(self, citation: Citation, ctx: CitableLaw | None, game: str | None) -> Resolution:
        if ctx is None:
            return Resolution(citation, "unresolved", reason="'As in …' needs the law it sits in (--context)")
        if ctx.kind != "reference" and vocabulary.family_of(game or "") != vocabulary.family_of(ctx.game):
            # "The score is marked as in Ecarté" (Enquire Within's Euchre): a practice, not a law
            return Resolution(citation, "unresolved", reason=f"'as in {citation.game}' names no law of {ctx.game}'s code")
        targets = []
        m = re.fullmatch(r"(\d+)(?: to (\d+))?", ctx.number)
        numbers = [str(n) for n in range(int(m.group(1)), int(m.group(2) or m.group(1)) + 1)] if m else [ctx.number]
        codes = [cid for cid, c in self.codes.items() if c.source == ctx.source and c.game == game]
        for n in numbers:
            targets += [h.id for cid in codes for h in self._heads.get(cid, []) if h.number.lower() == n.lower()]
        if not targets:
            return Resolution(citation, "unresolved", reason=f"no law {ctx.number} of {game} in {ctx.source}")
        return Resolution(citation, "resolved", targets)
