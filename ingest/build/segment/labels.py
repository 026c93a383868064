"""Labels: the printed numbers that open laws and clauses, which of them count, and which run of
them numbers a code (:func:`find_labels`, :func:`select`, :func:`in_sequence`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...models import Document, Span
from ...numbering import ROMAN, Key, is_successor, letter_value, roman_value
from .coverage import Blocked

LABEL_RE = re.compile(
    r"(?<![\w.,'’])"
    r"(?P<prefix>(?:LAW|Law|SEC\.?|Sec\.?|RULE|Rule)[ \t]+)?"
    r"(?:_=)?"  # Foster's bold-italic heads: _=36. Ties.=_
    r"(?:(?P<arabic>\d{1,3})(?:_?(?P<suffix>[a-z])_?(?=\.))?(?:[ \t]+to[ \t]+(?P<to>\d{1,3}))?"
    r"|\((?P<paren>\d{1,3})\)"
    r"|(?P<lower>" + ROMAN.lower() + r")|(?P<upper>" + ROMAN + r")|(?P<letter>[A-H]))"
    r"(?P<punct>\.(?:—|--)?(?:=_)?|(?<=\))(?=[ \t])|[,:](?=[ \t]+[A-Z])|(?=[ \t]+[A-Z]))"
)
MISPRINTED = (",", ":")  # a comma or colon printed where the label's full stop belongs
STYLES = ("arabic", "paren", "lower", "upper", "letter")

_WRAPPED_RE = re.compile(r"(?:,|\band|\bor|\bLaws?)[ \t]*\r?\n\Z")
_SENTENCE_END = ".!?"
_WORDS_FOLLOW_RE = re.compile(r"[ \t]*(?:(?:\{\d{1,4}\}|\[\d{1,4}\])[ \t]*)*[\"'“‘(_A-Za-z]")
_BARE_NUMBER_RE = re.compile(r"\d{1,3}[a-z]?|[ivxlc]{1,7}|[IVXLC]{1,7}")
_CLOSERS = "\"'”’)]"


@dataclass(frozen=True)
class Label:
    """A candidate law number: ``text[start:end]`` is the label with its ``.``/dash.

    ``style`` is the kind of numeral (``arabic``, ``paren``, ``lower``, ``upper``, ``letter``),
    after any printed prefix (``LAW upper``, ``SEC. arabic``). ``key`` orders labels; a range
    ``5 to 10.`` starts at ``first_key`` (5) and ends at ``key`` (10).
    """

    start: int
    end: int
    style: str
    number: str
    key: Key
    strong: bool  # at a line start and punctuated
    first_key: Key | None = None

    @property
    def opening(self) -> Key:
        return self.first_key or self.key


def starts_with_label(text: str, pos: int) -> bool:
    """Whether a punctuated label (``12.``, ``IV.``) opens ``text`` at ``pos``."""
    m = LABEL_RE.match(text, pos)
    return bool(m and m.group(0) and m.group("punct"))


def find_labels(
    text: str, start: int, end: int, spans: list[Span], marker_starts: dict[int, int], letters: bool = False
) -> list[Label]:
    """Every candidate label in ``text[start:end]`` outside ``spans`` (notes, page markers), in
    text order. ``marker_starts`` maps a page marker's end to its start (to look back over it).

    ``letters`` admits ``A.``–``H.`` (a code the catalog says is lettered)."""
    labels = []
    blocked = Blocked(spans)
    for m in LABEL_RE.finditer(text, start, end):
        if not m.group(0) or m.start() in blocked:
            continue
        kind = next(k for k in STYLES if m.group(k))
        if letters and kind == "upper" and m.group("upper") == "C":
            kind = "letter"
        if kind == "letter" and not letters:
            continue
        punct = m.group("punct")
        after = text[m.end() : m.end() + 1]
        if punct == "." and not (after == "" or after.isspace()):
            continue
        if punct == "" and kind not in ("arabic", "paren"):
            continue
        if punct in MISPRINTED and kind not in ("arabic", "lower", "upper"):
            continue
        # what stands before the label on its line
        i = m.start()
        while i > start and (text[i - 1] in " \t\f\v" or i in marker_starts):
            i = marker_starts.get(i, i - 1)
        label_start = m.start()
        if i - 1 > start and text[i - 1] in "-*•" and text[i - 2] in " \t\n" and i < m.start():
            i -= 1  # a Markdown list item: " - I. If a player …"; its bullet opens the label
            label_start = i
            while i > start and text[i - 1] in " \t":
                i -= 1
        at_line_start = i == start or text[i - 1] == "\n"
        if at_line_start and i > start and _WRAPPED_RE.search(text, max(start, i - 40), i):
            at_line_start = False  # "… Laws 55, 56,\n58.": a sentence wrapped, not a new law
        if (punct == "" or punct in MISPRINTED) and not at_line_start:
            continue
        if not at_line_start and not _ends_sentence(text, start, i, m):
            continue
        number, key, first_key = _number_of(m, kind)
        prefix = (m.group("prefix") or "").strip().rstrip(".").upper()
        style = f"{prefix} {kind}" if prefix else kind
        # a label without its full stop counts only where it continues the sequence
        strong = at_line_start and ((bool(punct) and punct not in MISPRINTED) or kind == "paren")
        labels.append(Label(label_start, m.end(), style, number, key, strong, first_key))
    return labels


def _ends_sentence(text: str, start: int, i: int, m: re.Match[str]) -> bool:
    """Whether the label ``m`` inside a line (``i`` where the blanks before it begin) follows the
    end of a sentence and opens another: ``… again. 6. When a player …``."""
    j = i
    while j > start and text[j - 1] in _CLOSERS:
        j -= 1
    if i == m.start() or j == start or text[j - 1] not in _SENTENCE_END:
        return False
    w = j - 1
    while w > start and (text[w - 1].isalnum()):
        w -= 1
    if _BARE_NUMBER_RE.fullmatch(text[w : j - 1]):
        v = w  # "4. 5.": if that number is itself a label, no sentence ended before this one
        while v > start and text[v - 1] in " \t":
            v -= 1
        if v == start or text[v - 1] == "\n" or text[v - 1] in _SENTENCE_END:
            return False
    return bool(_WORDS_FOLLOW_RE.match(text, m.end()))  # "… the end. 5." closes a sentence


def _number_of(m: re.Match[str], kind: str) -> tuple[str, Key, Key | None]:
    """The printed number of label ``m`` of numeral ``kind``, its key, and the first key of a range."""
    first_key = None
    if kind == "arabic":
        suffix = m.group("suffix")
        number = m.group("arabic") + (suffix or "")
        key = (int(m.group("arabic")), letter_value(suffix) if suffix else 0)
        if m.group("to"):
            number = f"{m.group('arabic')} to {m.group('to')}"
            first_key, key = key, (int(m.group("to")), 0)
    elif kind == "paren":
        number, key = m.group("paren"), (int(m.group("paren")), 0)
    elif kind == "letter":
        number = m.group("letter") or m.group("upper")
        key = (letter_value(number), 0)
    else:
        number = m.group(kind)
        key = (roman_value(number), 0)
    return number, key, first_key


def select(labels: list[Label], where: str, doc: Document, warnings: list[str] | None) -> list[Label]:
    """The labels that number a sequence: strong ones, and weak ones that continue it.

    A line-start number that breaks the sequence (a skip or a step back) is a new law only if the
    next label continues from it; if the next label continues the sequence it broke, it is text
    (Hoffmann's Bézique law 61 wraps a reference "Law / 58." onto a line of its own). Each break
    read either way adds a line to ``warnings`` (if given) naming ``where``.
    """
    chosen: list[Label] = []
    for i, lab in enumerate(labels):
        if not chosen:
            if lab.strong:
                chosen.append(lab)
            continue
        prev = chosen[-1]
        if is_successor(prev.key, lab.opening):
            chosen.append(lab)
            continue
        if not lab.strong:
            continue
        line = doc.line_of(lab.start)
        following = next((n for n in labels[i + 1 :] if n.strong or is_successor(lab.key, n.opening)), None)
        if (
            following is not None
            and is_successor(prev.key, following.opening)
            and not is_successor(lab.key, following.opening)
        ):
            if warnings is not None:
                warnings.append(f"{doc.source.path}:{line}: {where}: {lab.number!r} at a line start breaks the "
                                f"sequence {prev.number} → {following.number}; read as text")
            continue
        chosen.append(lab)
        if warnings is not None:
            what = "skips from" if lab.key > prev.key else "is out of order after"
            warnings.append(f"{doc.source.path}:{line}: {where}: law {lab.number} {what} {prev.number}")
    return chosen


def in_sequence(chosen: list[Label]) -> int:
    """How many labels continue the sequence (the first counts): law numbers run on through a
    code, clause numbers restart, so this ranks laws' style above clauses'."""
    return sum(1 for a, b in zip([None, *chosen], chosen) if a is None or is_successor(a.key, b.opening))


def laws_and_clauses(
    labels: list[Label], law_style: str | None, span: Span, where: str, doc: Document, warnings: list[str]
) -> tuple[list[Label], list[tuple[Label, Label | None]]]:
    """The labels that number a code's laws, and its clauses each with the law label it falls
    under (``None`` before the first law).

    The laws' style is ``law_style`` if the catalog forces one, else the style whose labels run
    longest in sequence (:data:`STYLES` order on a tie). Clauses are another Roman or prefixed style
    (``SEC. 1.``), their sequence restarting under each law. Breaks in either add to ``warnings``.
    """
    styles = sorted({lab.style for lab in labels})
    by_style = {st: [lab for lab in labels if lab.style == st] for st in styles}
    counts = {st: in_sequence(select(by_style[st], where, doc, None)) for st in styles}
    rank = {st: i for i, st in enumerate(STYLES)}
    if not law_style:
        law_style = max(styles, key=lambda st: (counts[st], -rank.get(st, 99))) if counts else None
    law_labels = select(by_style.get(law_style, []), where, doc, warnings)

    clause_labels: list[tuple[Label, Label | None]] = []
    bounds = [span.start] + [lab.start for lab in law_labels] + [span.end]
    heads: list[Label | None] = [None, *law_labels]
    clause_styles = [st for st in styles if st != law_style and (st in ("upper", "lower") or " " in st)]
    if law_labels and clause_styles:
        style = max(clause_styles, key=lambda st: counts[st])
        for head, lo, hi in zip(heads, bounds, bounds[1:]):
            region = [lab for lab in by_style[style] if lo <= lab.start < hi]
            clause_labels += [(lab, head) for lab in select(region, where, doc, warnings)]
    return law_labels, clause_labels
