"""Find: the law citations in a text, in the forms the books and club rulings use.

``Bridge Law 42``, ``Écarté law 31 (Hoyle's Games Modernized)``, ``Whist, law xii``, ``Laws of
Poker §13``, ``Laws of Piquet 11, 32, and 38``, ``Laws 53 to 56``, ``12–14``, ``Law 50_a_``,
``37 _f_``, ``Law 17 III``, ``law 17, clause III``, ``22 (b)``, ``Law 59, par. II``,
``Law VIII, Sec. 1``, ``Elwell ¶ 37``, ``paragraph 6``, ``Rule 14``, ``etiquette 3``, ``the
preceding Law``, ``this and foregoing Laws (55 and 56)``, ``As in Bridge``. A year is never a
law number (``Laws of Euchre, 1886``). :class:`Finder` returns :class:`~.records.Citation`
records; it knows the names of games and codes it is given, nothing else.
"""

from __future__ import annotations

import re

from .records import Citation, Cited

_ROMAN_UP = r"[IVXLC]{1,7}"
_NUM = r"(?:\d{1,3}(?!\d)(?:_?[a-z]_?(?![a-z]))?|[ivxlc]{1,7}\b|" + _ROMAN_UP + r"\b|[A-H](?![\w'’]))"
_CLAUSE = (
    r"(?:\s*,?\s*(?:clause|cl\.|sec\.|sec|section|par\.|para\.)\s*(?:" + _ROMAN_UP + r"|[a-z]|\d{1,2})(?!\w)"
    r"|\s*\(\s*(?:" + _ROMAN_UP + r"|[ivx]{1,4}|[a-z]|\d{1,2}(?:st|nd|rd|th|d)?)\s*\)"
    r"|\s+(?:" + _ROMAN_UP + r"|_?[a-z]_?)(?=\s*(?:[,.;:)]|$))"
    r"|\s+(?:[IVXLC]{2,7}|[ivx]{2,4})(?![\w'’])"  # "Law 17 III", "44 vi"
    r"|\s+[b-hj-z](?![\w'’]))"  # "37 f not be made": a lone letter other than the words a and i
)
_NUMC = _NUM + r"(?:" + _CLAUSE + r"){0,2}"
_SEP = r"(?:\s*,\s*(?:and\s+|or\s+|&\s*)?(?:\{\d{1,4}\}\s*)?|\s+(?:and|&|or|to)\s+|\s*[-–—]\s*(?=\d))"
_NUMS = _NUMC + r"(?:" + _SEP + _NUMC + r")*"
_LAW = r"(?:(?:[Ll]aws?|LAWS?|[Rr]ules?|RULES?)(?:\s+[Nn]o\.)?|§§?|(?P<sec>[Ss]ec(?:tion)?\.?)|[Nn]o\.)"
_ETIQUETTE = r"(?P<etiquette>[Ee]tiquette)"
_PARAGRAPH = r"(?P<para>¶¶?|[Pp]aragraphs?|[Pp]ara?\.)"
_WORD = r"(?:(?:[Ll]aws?|LAWS|[Rr]ules?)\s*(?=¶))?(?:" + _LAW + r"|" + _ETIQUETTE + r"|" + _PARAGRAPH + r")"
ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth"]
_BOOK = r"(?:\s*\((?P<book>[^)]{1,80})\))?"
# "…, the second so numbered": one of a number the book prints twice (the project's own short citations)
_COPY = r"(?:,\s*the\s+(?P<copy>" + "|".join(ORDINALS) + r")\s+so\s+numbered\b)?"

_ITEM_RE = re.compile(
    r"(?P<num>" + _NUM + r")(?P<clauses>(?:" + _CLAUSE + r"){0,2})"
    r"|(?P<sep>" + _SEP + r")"
)
_CLAUSE_TOKEN_RE = re.compile(
    r"(?<![A-Za-z])(?:(?:clause|cl\.|sec\.|sec|section|par\.|para\.)\s*)?\(?\s*_?"
    r"([IVXLCivxlc]{1,7}|[a-z]|\d{1,2}(?:st|nd|rd|th|d)?)_?\s*\)?(?![A-Za-z])")

# capitalised words before "law N" that name no game ("Under law 5", "The English Whist Laws, law 43")
NOT_GAMES = frozenset({
    "The", "This", "That", "These", "Those", "See", "Under", "By", "In", "Of", "And", "Or", "A", "An", "Per",
    "Each", "Every", "Any", "No", "Our", "Club", "Its", "Their", "His", "Her", "As", "To", "From", "With",
    "Without", "Whist's", "Also", "Then", "But", "If", "When", "Where", "Which", "Such", "Same", "Old",
    "New", "Laws", "Law", "Rules", "Rule", "Code", "Codes", "Section", "Sec"
})


def parse_numbers(nums: str) -> tuple[Cited, ...]:
    """The numbers a citation's number part names, each with its clause path (``17 III`` →
    ``("17", "III")``); a range (``53 to 56``, ``12–14``) is one :class:`Cited` with ``through``.
    Page markers inside a list are skipped."""
    out: list[Cited] = []
    pending_range = False
    for m in _ITEM_RE.finditer(nums):
        if m.group("sep") is not None:
            sep = m.group("sep")
            pending_range = bool(re.search(r"\bto\b|[-–—]", sep))
            continue
        number = re.sub(r"[_\s]", "", m.group("num"))
        clauses = tuple(c.group(1) for c in _CLAUSE_TOKEN_RE.finditer(m.group("clauses") or "") if c.group(1))
        if pending_range and out and out[-1].path[0].isdigit() and number.isdigit() and len(out[-1].path) == 1 \
                and 0 < int(number) - int(out[-1].path[0]) <= 200:
            out[-1] = Cited(out[-1].path, through=number)
        else:
            out.append(Cited((number, *clauses)))
        pending_range = False
    return tuple(out)


# What a form cannot match without (a superset of its own words): the forms that open with a game's
# name try every name at every word, which took most of a build's 0.7 s of finding citations in
# the laws; a text lacking this is not searched for that form
_NEEDS = {
    "law-sec": re.compile(r"[Ll]aw\s"),  # "Law XII, Sec. 3"
    "game-law": re.compile(r"(?i:law|rule|§|sec|no\.|etiquette|¶|par)"),  # any word of _WORD
    "game-number": re.compile(r"\d"),  # "Whist 12"
}


class Finder:
    """Finds citations; ``names`` are the names of games and codes (lower case, accents as
    written or folded) a citation may open with."""

    def __init__(self, names: list[str]) -> None:
        alternatives = "|".join(sorted((re.escape(n) for n in names if n), key=len, reverse=True)) or "(?!)"
        self.name_re = rf"(?i:{alternatives})"
        self.names = {n.lower() for n in names}
        g = self.name_re
        self.patterns = [
            ("law-sec", re.compile(
                r"\b(?:(?P<game>" + g + r"),?\s+)?[Ll]aw\s+(?P<law>" + _ROMAN_UP + r"),?\s+[Ss]ec(?:tion)?\.?\s*(?P<sec>\d{1,2})"
                r"(?P<items>(?:\s*\(\s*[a-z]\s*\)))?")),
            ("relative", re.compile(
                r"(?i)\b(?:this and (?:the )?)?(?:the )?(?P<rel>preceding|foregoing|following|next|last) "
                r"(?:law|rule)s?(?:\s*\((?P<nums>" + _NUMS + r")\))?")),
            ("as-in", re.compile(r"\b[Aa]s in (?P<game>" + g + r")\b")),
            ("laws-of", re.compile(
                r"\b(?:[Ll]aws?|LAWS?|[Rr]ules?)\s+(?:for\s+|of\s+)(?P<game>" + g + r")\s*(?:\((?P<lead>[^)]{1,60})\)\s*)?"
                r"(?:,\s*(?P<year>1[789]\d\d))?(?:,\s*)?(?:" + _WORD + r"\s*)?(?P<nums>" + _NUMS + r")" + _BOOK + _COPY)),
            ("game-law", re.compile(
                r"\b(?P<game>" + g + r")(?:['’]s)?(?:,)?\s+" + _WORD + r"\s*,?\s*(?P<nums>" + _NUMS + r")" + _BOOK + _COPY)),
            ("ordinal-paragraph", re.compile(
                r"\b(?i:(?P<ordinal>" + "|".join(ORDINALS) + r"))\s+(?P<para>paragraph)\s+of\s+(?:the\s+)?"
                r"(?P<tail>(?:[A-Z][\w'’-]*\s*)+(?:(?:of|au|on)\s+(?:[A-Z][\w'’-]*\s*)+)*(?:laws|rules)?)")),
            ("law", re.compile(r"(?<![\w-])" + _WORD + r"\s*(?P<nums>" + _NUMS + r")" + _BOOK + _COPY)),
            ("law-of-game", re.compile(
                r"\b" + _WORD + r"\s*(?P<nums>" + _NUMS + r")\s+of\s+(?:the\s+)?(?P<owner>[A-Z][\w-]+['’]s\s+)?"
                r"(?P<code>(?:[A-Z][a-z]+\s+)*?)(?P<game>" + g + r")\b" + _BOOK)),
            ("game-number", re.compile(r"\b(?P<game>" + g + r")\s+(?P<nums>\d{1,3}(?!\d)(?:" + _SEP + r"\d{1,3}(?!\d))*)\b" + _BOOK)),
            ("number-letter", re.compile(r"(?<![\w.])(?P<nums>\d{1,3}\s+(?:_[a-z]_|[b-hj-z](?![\w'’])))")),
        ]

    def find(self, text: str) -> list[Citation]:
        """Every citation in ``text``, in order; where two forms overlap, the longer wins."""
        matches = [(kind, m) for kind, pattern in self.patterns
                   if kind not in _NEEDS or _NEEDS[kind].search(text) for m in pattern.finditer(text)]
        matches.sort(key=lambda km: (-(km[1].end() - km[1].start()), km[1].start()))
        found: list[Citation] = []
        for kind, m in matches:
            if any(c.start < m.end() and m.start() < c.end for c in found):
                continue
            citation = self._citation(kind, m, text)
            if citation is not None:
                found.append(citation)
        return sorted(found, key=lambda c: c.start)

    def _citation(self, kind: str, m: re.Match, text: str) -> Citation | None:
        groups = m.groupdict()
        start, game = m.start(), groups.get("game")
        if kind == "law":  # "Canasta law 3": a game we do not have is named before "law"
            before = re.search(r"\b([A-Z][a-z]+(?:-[A-Z][a-z]+)?),?[ \t]+$", text[max(0, start - 30) : start])
            if before and before.group(1) not in NOT_GAMES and before.group(1).lower() not in self.names:
                game, start = before.group(1), start - len(before.group(0))
        hints: list[str] = []
        if groups.get("book"):
            hints.append(groups["book"])
        if groups.get("lead"):
            hints.append(groups["lead"])
        if groups.get("year"):
            hints.append(groups["year"])
        if groups.get("code"):
            hints.append(groups["code"].strip())
        if groups.get("owner"):
            hints.append(groups["owner"].strip())
        if groups.get("tail"):
            hints.append(groups["tail"].strip())
        if kind == "law-sec":
            path = (groups["law"], groups["sec"]) + ((re.sub(r"[()\s]", "", groups["items"]),) if groups.get("items") else ())
            numbers: tuple[Cited, ...] = (Cited(path),)
        elif kind == "ordinal-paragraph":
            numbers = (Cited((str(ORDINALS.index(groups["ordinal"].lower()) + 1),)),)
        elif kind == "number-letter":
            numbers = (Cited(tuple(re.sub(r"_", "", groups["nums"]).split())),)
        else:
            numbers = parse_numbers(groups["nums"]) if groups.get("nums") else ()
        rel = groups.get("rel")
        if rel and numbers:
            rel = None  # "this and foregoing Laws (55 and 56)" names its numbers
        return Citation(
            text=text[start : m.end()], start=start, end=m.end(), numbers=numbers, game=game,
            hints=tuple(h for h in hints if h), relative="as-in" if kind == "as-in" else (rel.lower() if rel else None),
            this=bool(kind == "relative" and re.match(r"(?i)this and", m.group(0))),
            paragraph=bool(groups.get("para")), etiquette=bool(groups.get("etiquette")),
            section=bool(groups.get("sec")) and kind == "law", weak=kind == "number-letter",
            copy=ORDINALS.index(groups["copy"].lower()) + 1 if groups.get("copy") else None,
        )

