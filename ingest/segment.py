"""Segment: split one code of a :class:`Document` into numbered laws, clauses, notes and fragments.

The numbering styles handled (all seen in the seed excerpts, ``shared/seeds/SEEDS.md``):

- Arabic ``31.``, ``31.—``, ``31.--``, ``47a.``, and a number printed without its period when it
  continues the sequence (``46 A player``, Hoffmann's Laws of Bridge, 1904);
- lower-case Roman laws ``ii.`` … ``xii.`` (Enquire Within, para. 76);
- upper-case Roman clauses ``V.`` … ``VII.`` under an Arabic law (Hoffmann's Bridge law 39);
- laws that run on inside one line (``… again. 6. When a player …``, seed 000).

A label counts at the start of a line, or after the end of a sentence when it continues the
sequence (the next number): a number inside a sentence that does not continue it is text.
The style whose labels run longest in sequence numbers the code's laws (Arabic on a tie); another
Roman style numbers clauses, restarting under each law. A paragraph opening with ``[`` is commentary, the
``note`` of the law before it. Text before the first law (seed 003 opens mid-note) becomes a
:class:`Fragment`, never part of a law.

Nothing is lost: the spans of laws, notes and fragments cover every character of the code but
whitespace and page markers, without overlap (:func:`uncovered` checks it).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from .clean import clean_text, words_of
from .models import CodeSpec, Document, Fragment, Law, Segmentation, Span

_ROMAN = r"(?=[IVXLC])C{0,3}(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})"
_LABEL_RE = re.compile(
    r"(?<![\w.,'’])"
    r"(?P<prefix>(?:LAW|Law|SEC\.?|Sec\.?|RULE|Rule)[ \t]+)?"
    r"(?:_=)?"  # Foster's bold-italic heads: _=36. Ties.=_
    r"(?:(?P<arabic>\d{1,3})(?:_?(?P<suffix>[a-z])_?(?=\.))?(?:[ \t]+to[ \t]+(?P<to>\d{1,3}))?"
    r"|\((?P<paren>\d{1,3})\)"
    r"|(?P<lower>" + _ROMAN.lower() + r")|(?P<upper>" + _ROMAN + r")|(?P<letter>[A-H]))"
    r"(?P<punct>\.(?:—|--)?(?:=_)?|(?<=\))(?=[ \t])|(?=[ \t]+[A-Z]))"
)
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
_NOTE_OPEN_RE = {  # "[" opening a paragraph: a note, unless it is a page marker
    "[N]": re.compile(r"(?m)^[ \t]*(\[(?!\d{1,4}\])|\*Note\.?\*|_Note\.?_|NOTE\.)"),
    "{N}": re.compile(r"(?m)^[ \t]*(\[|\*Note\.?\*|_Note\.?_|NOTE\.)"),
}
_SEPARATOR_RE = re.compile(r"[ \t]*(?:\*[ \t]*){3,}")
_MD_HEADING_RE = re.compile(r"[ \t]*#{1,6}[ \t]+\S")
_CAPS_HEADING_RE = re.compile(r"[ \t]*[A-ZÀ-Ý][A-ZÀ-Ý0-9 ,.'’&:;()\-—]{2,70}")
_ITALIC_HEADING_RE = re.compile(r"[ \t]*_[^_\n]{1,59}[^_.\n]_\.?[ \t]*")  # "_The Deal_." (Peel), not "_When … Declared._"
_BLANK_LINE_RE = re.compile(r"\n[ \t]*\r?\n")
_LINE_LABEL_RE = re.compile(r"[ \t]*(?:\d{1,3}[a-z]?|[ivxlc]{1,7}|[IVXLC]{1,7})\.(?:—|--)?\s")
_REFERENCE_RE = re.compile(r"^\(?as in [\w ]+\)?\.?$", re.IGNORECASE)  # "5 to 10. _As in Bridge._"
_WRAPPED_RE = re.compile(r"(?:,|\band|\bor|\bLaws?)[ \t]*\r?\n\Z")
_CAPS_TITLE_RE = re.compile(r"[A-Z][A-Z ,'’&-]{2,60}\.?")
_MOTTO_RE = re.compile(r"\[[^a-z\]]*[A-Z]{2}[^a-z\]]*\]")  # Enquire Within's "[KNOWLEDGE MAKES HUMBLE.]"
_SENTENCE_END = ".!?"
_WORDS_FOLLOW_RE = re.compile(r"[ \t]*(?:(?:\{\d{1,4}\}|\[\d{1,4}\])[ \t]*)*[\"'“‘(_A-Za-z]")
_BARE_NUMBER_RE = re.compile(r"\d{1,3}[a-z]?|[ivxlc]{1,7}|[IVXLC]{1,7}")
_CLOSERS = "\"'”’)]"

STYLES = ("arabic", "paren", "lower", "upper", "letter")


def roman_value(s: str) -> int:
    """Value of a Roman numeral (either case): ``xii`` → 12."""
    total = 0
    vals = [_ROMAN_VALUES[ch] for ch in s.lower()]
    for i, v in enumerate(vals):
        total += -v if i + 1 < len(vals) and vals[i + 1] > v else v
    return total


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
    key: tuple[int, int]
    strong: bool  # at a line start and punctuated
    first_key: tuple[int, int] | None = None

    @property
    def opening(self) -> tuple[int, int]:
        return self.first_key or self.key


def _is_successor(prev: tuple[int, int], key: tuple[int, int]) -> bool:
    """``key`` continues ``prev``: 31 → 32, 47 → 47a, 47a → 47b, 47a → 48."""
    n, s = prev
    return key in ((n + 1, 0), (n, s + 1))


class _Blocked:
    """Spans no label or note may start in (page markers, notes), for fast look-ups."""

    def __init__(self, spans: list[Span]):
        merged: list[list[int]] = []
        for s in sorted(spans, key=lambda s: s.start):
            if merged and s.start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], s.end)
            else:
                merged.append([s.start, s.end])
        self.starts = [m[0] for m in merged]
        self.ends = [m[1] for m in merged]

    def __contains__(self, pos: int) -> bool:
        k = bisect.bisect_right(self.starts, pos)
        return k > 0 and pos < self.ends[k - 1]


def _find_labels(
    text: str, start: int, end: int, spans: list[Span], marker_starts: dict[int, int], letters: bool = False
) -> list[Label]:
    """Every candidate label in ``text[start:end]`` outside ``spans`` (notes, page markers).

    ``letters`` admits ``A.``–``H.`` (a code the catalog says is lettered)."""
    labels = []
    blocked = _Blocked(spans)
    for m in _LABEL_RE.finditer(text, start, end):
        if not m.group(0) or m.start() in blocked:
            continue
        kind = next(k for k in ("arabic", "paren", "lower", "upper", "letter") if m.group(k))
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
        if punct == "" and not at_line_start:
            continue
        if not at_line_start:
            j = i
            while j > start and text[j - 1] in _CLOSERS:
                j -= 1
            if i == m.start() or j == start or text[j - 1] not in _SENTENCE_END:
                continue
            w = j - 1
            while w > start and (text[w - 1].isalnum()):
                w -= 1
            if _BARE_NUMBER_RE.fullmatch(text[w : j - 1]):
                v = w  # "4. 5.": if that number is itself a label, no sentence ended before this one
                while v > start and text[v - 1] in " \t":
                    v -= 1
                if v == start or text[v - 1] == "\n" or text[v - 1] in _SENTENCE_END:
                    continue
            if not _WORDS_FOLLOW_RE.match(text, m.end()):  # "… the end. 5." closes a sentence
                continue
        first_key = None
        if kind == "arabic":
            suffix = m.group("suffix")
            sub = ord(suffix) - ord("a") + 1 if suffix else 0
            number = m.group("arabic") + (suffix or "")
            key = (int(m.group("arabic")), sub)
            if m.group("to"):
                number = f"{m.group('arabic')} to {m.group('to')}"
                first_key, key = key, (int(m.group("to")), 0)
        elif kind == "paren":
            number, key = m.group("paren"), (int(m.group("paren")), 0)
        elif kind == "letter":
            number = m.group("letter") or m.group("upper")
            key = (ord(number) - ord("A") + 1, 0)
        else:
            number = m.group(kind)
            key = (roman_value(number), 0)
        prefix = (m.group("prefix") or "").strip().rstrip(".").upper()
        style = f"{prefix} {kind}" if prefix else kind
        strong = at_line_start and (bool(punct) or kind == "paren")
        labels.append(Label(label_start, m.end(), style, number, key, strong, first_key))
    return labels


def _select(labels: list[Label], where: str, doc: Document, warnings: list[str] | None) -> list[Label]:
    """The labels that number a sequence: strong ones, and weak ones that continue it.

    A line-start number that breaks the sequence (a skip or a step back) is a new law only if the
    next label continues from it; if the next label continues the sequence it broke, it is text
    (Hoffmann's Bézique law 61 wraps a reference "Law / 58." onto a line of its own).
    """
    chosen: list[Label] = []
    for i, lab in enumerate(labels):
        if not chosen:
            if lab.strong:
                chosen.append(lab)
            continue
        prev = chosen[-1]
        if _is_successor(prev.key, lab.opening):
            chosen.append(lab)
            continue
        if not lab.strong:
            continue
        line = doc.line_of(lab.start)
        following = next((n for n in labels[i + 1 :] if n.strong or _is_successor(lab.key, n.opening)), None)
        if following is not None and _is_successor(prev.key, following.opening) and not _is_successor(lab.key, following.opening):
            if warnings is not None:
                warnings.append(f"{doc.source.path}:{line}: {where}: {lab.number!r} at a line start breaks the "
                                f"sequence {prev.number} → {following.number}; read as text")
            continue
        chosen.append(lab)
        if warnings is not None:
            what = "skips from" if lab.key > prev.key else "is out of order after"
            warnings.append(f"{doc.source.path}:{line}: {where}: law {lab.number} {what} {prev.number}")
    return chosen


def _in_sequence(chosen: list[Label]) -> int:
    """How many labels continue the sequence (the first counts): law numbers run on through a
    code, clause numbers restart, so this ranks laws' style above clauses'."""
    return sum(1 for a, b in zip([None, *chosen], chosen) if a is None or _is_successor(a.key, b.opening))


def _find_notes(
    text: str, start: int, end: int, spans: list[Span], unclosed: list[int], opener: re.Pattern
) -> list[Span]:
    """Commentary: ``[`` at a line start to its matching ``]``, or a paragraph opening with
    ``*Note*`` or ``NOTE.`` (Cavendish's Piquet, law 71).

    A note not closed by then ends at a blank line, at a line that opens with a law number, or
    at the end of the code; its start is added to ``unclosed``.
    """
    blocked = _Blocked(spans)
    notes: list[Span] = []
    pos = start
    while True:
        m = opener.search(text, pos, end)
        if not m:
            return notes
        s = m.start(1)
        if s in blocked:
            pos = m.end()
            continue
        depth, i, e = 0, s, None
        if text[s] != "[" or re.match(r"\[\d{1,3}\]", text[s : s + 5]):  # "*Note* …", "NOTE.--…", a footnote "[23] …"
            para = _BLANK_LINE_RE.search(text, s, end)
            notes.append(Span(s, para.start() if para else end))
            pos = notes[-1].end
            continue
        while i < end:
            ch = text[i]
            if ch == "[":
                depth += 1
            elif ch == "]":
                depth -= 1
                if depth == 0:
                    e = i + 1
                    break
            elif ch == "\n" and (_BLANK_LINE_RE.match(text, i) or _LINE_LABEL_RE.match(text, i + 1)):
                e = i
                break
            i += 1
        if e is None or text[e - 1] != "]":
            unclosed.append(s)
        e = end if e is None else e
        notes.append(Span(s, e))
        pos = e


def _trim(doc: Document, start: int, end: int, marker_starts: dict[int, int]) -> int:
    """Move ``end`` back over trailing whitespace and page markers."""
    text = doc.text
    while end > start:
        if text[end - 1].isspace():
            end -= 1
        elif end in marker_starts:
            end = marker_starts[end]
        else:
            break
    return end


def _lead(doc: Document, start: int, end: int, marker_ends: dict[int, int]) -> int:
    """Move ``start`` forward over leading whitespace and page markers."""
    text = doc.text
    while start < end:
        if text[start].isspace():
            start += 1
        elif start in marker_ends:
            start = marker_ends[start]
        else:
            break
    return start


def _find_structure(doc: Document, span: Span, notes: list[Span]) -> tuple[list[tuple[Span, str]], list[Span]]:
    """Sub-headings (with their text) and ``* * *`` separator lines inside ``span``.

    A heading is a Markdown ``#`` line, or, after a blank line, a line in capitals
    (``THE RUBBER.``) or wholly in italics (``_The Deal_.``) that does not open with a law number.
    """
    text = doc.text
    blocked = _Blocked(notes)
    headings: list[tuple[Span, str]] = []
    separators: list[Span] = []
    pos = span.start
    prev_blank = True
    while pos < span.end:
        nl = text.find("\n", pos, span.end)
        line_end = span.end if nl == -1 else nl
        line = text[pos:line_end].rstrip("\r")
        stripped = line.strip()
        content = Span(pos + len(line) - len(line.lstrip()), pos + len(line.rstrip()))
        if not stripped:
            prev_blank = True
        elif pos in blocked or content.start in blocked:
            prev_blank = False
        elif _SEPARATOR_RE.fullmatch(line):
            separators.append(content)
            prev_blank = True
        elif _MD_HEADING_RE.match(line):
            headings.append((content, stripped.lstrip("#").strip()))
            prev_blank = True
        elif (
            prev_blank
            and not _starts_with_label(text, content.start)
            and (
                (_CAPS_HEADING_RE.fullmatch(line) and sum(ch.isalpha() for ch in stripped) >= 3)
                or _ITALIC_HEADING_RE.fullmatch(line)
            )
        ):
            headings.append((content, stripped.strip("_=").rstrip(".").strip("_").strip()))
            prev_blank = False
        else:
            prev_blank = False
        pos = line_end + 1
    return headings, separators


def _starts_with_label(text: str, pos: int) -> bool:
    m = _LABEL_RE.match(text, pos)
    return bool(m and m.group(0) and m.group("punct"))


_BOLD_HEAD_RE = re.compile(r"(?m)^[ \t]*_=")
_LEAD_IN_RE = re.compile(r"(?:--|—|:|,|;)\s*$")
_ITEM_RE = re.compile(r"[ \t]{2,}(?:[a-z]|\d+(?:st|d|nd|rd|th)\.|\([a-z0-9]+\))\s")


def _units(doc: Document, span: Span, bounds: list[Span], unit: str, markers: list[Span] = ()) -> list[Span]:
    """The unnumbered laws of a code: stretches of text between ``bounds`` (headings, separators,
    notes, page markers), also cut

    - at blank lines (``unit = "paragraph"``), unless the next paragraph continues the law: the
      law leads in ("There must be a new deal--", "… may demand,"), or the paragraph is an
      indented item ("a If the cards …", "1st. That …") or opens in lower case (Elwell, 1907);
    - before each paragraph opening with a bold head ``_=Dealing.=_`` (``unit = "bold-head"``:
      Foster's Cinch and General Laws, where a law runs on over several paragraphs).
    """
    text = doc.text
    hard = sorted((b.start, b.end) for b in bounds)
    cuts = hard + [(m.start, m.end) for m in markers]  # a page marker never ends a law by itself
    heads: set[int] = set()
    if unit == "paragraph":
        cuts += [(m.start(), m.end()) for m in _BLANK_LINE_RE.finditer(text, span.start, span.end)]
    elif unit == "bold-head":
        heads = {m.start() for m in _BOLD_HEAD_RE.finditer(text, span.start, span.end)}
        cuts += [(h, h) for h in heads]
    cuts.sort()
    units: list[Span] = []
    pos = span.start
    for a, b in cuts + [(span.end, span.end)]:
        if a > pos and text[pos:a].strip():
            s = pos + len(text[pos:a]) - len(text[pos:a].lstrip())
            if unit == "bold-head" and s not in heads:
                pass  # text before the first bold head: not a law (kept as a fragment)
            elif (
                unit == "paragraph" and units
                and not any(units[-1].end <= c < s for c, _ in hard)
                and _continues(text, units[-1], s)
            ):
                units[-1] = Span(units[-1].start, a)
            else:
                units.append(Span(s, a))
        pos = max(pos, b)
    return units


def _continues(text: str, prev: Span, start: int) -> bool:
    """Whether the paragraph at ``start`` belongs to the unnumbered law ``prev``."""
    line_start = text.rfind("\n", 0, start) + 1
    nl = text.find("\n", start)
    first_line = text[line_start : nl if nl != -1 else len(text)]
    return bool(
        _LEAD_IN_RE.search(text[prev.start : prev.end].rstrip())
        or _ITEM_RE.match(first_line)
        or text[start].islower()
    )


def code_span(doc: Document, code: CodeSpec) -> Span:
    """Character range of a code's lines (the whole text when it has no line range)."""
    if code.start_line is None:
        return Span(0, len(doc.text))
    return Span(doc.offset_of_line(code.start_line), doc.offset_of_line(code.end_line + 1))


def segment(doc: Document, code: CodeSpec, first_ordinal: int = 1) -> Segmentation:
    """Split ``code`` of ``doc`` into laws, clauses (with notes) and fragments, in text order.

    ``first_ordinal`` is the ordinal given to the first law (ordinals count laws and clauses in
    reading order through the whole corpus). Warnings (skipped or out-of-order numbers) name the file and line.
    """
    src = doc.source
    text = doc.text
    span = code_span(doc, code)
    where = f"{src.slug} [{code.slug}]"
    markers = [m for m in doc.page_markers if span.start <= m.start < span.end]
    marker_starts = {m.end: m.start for m in markers}
    marker_ends = {m.start: m.end for m in markers}
    marker_spans = [Span(m.start, m.end) for m in markers]
    warnings: list[str] = []
    known = words_of(text[span.start : span.end])

    def clean(raw: str) -> str:
        return clean_text(raw, src.page_marker, known)

    unclosed: list[int] = []
    notes = _find_notes(text, span.start, span.end, marker_spans, unclosed, _NOTE_OPEN_RE[src.page_marker])
    for pos in unclosed:
        warnings.append(f"{src.path}:{doc.line_of(pos)}: {where}: a note opened with '[' is not closed")
    headings, separators = _find_structure(doc, span, notes)
    structure = [h for h, _ in headings] + separators

    clause_labels: list[tuple[Label, Label | None]] = []
    if code.numbering == "unnumbered":
        units = _units(doc, span, notes + structure, code.unit, marker_spans)
        law_labels = [
            Label(u.start, u.start, "unnumbered", str(k), (k, 0), True) for k, u in enumerate(units, start=1)
        ]
    else:
        labels = _find_labels(
            text, span.start, span.end, marker_spans + notes + structure, marker_starts,
            letters=code.numbering == "letters",
        )
        styles = sorted({lab.style for lab in labels})
        by_style = {st: [lab for lab in labels if lab.style == st] for st in styles}
        counts = {st: _in_sequence(_select(by_style[st], where, doc, None)) for st in styles}
        rank = {st: i for i, st in enumerate(STYLES)}
        if code.law_style:
            law_style = code.law_style
        elif counts:
            law_style = max(styles, key=lambda st: (counts[st], -rank.get(st, 99)))
        else:
            law_style = None
        law_labels = _select(by_style.get(law_style, []), where, doc, warnings)

        # clauses: a Roman or prefixed style (SEC. 1.), its sequence restarting under each law
        bounds = [span.start] + [lab.start for lab in law_labels] + [span.end]
        heads: list[Label | None] = [None] + law_labels
        clause_styles = [st for st in styles if st != law_style and (st in ("upper", "lower") or " " in st)]
        if law_labels and clause_styles:
            style = max(clause_styles, key=lambda st: counts[st])
            for head, lo, hi in zip(heads, bounds, bounds[1:]):
                region = [lab for lab in by_style[style] if lo <= lab.start < hi]
                clause_labels += [(lab, head) for lab in _select(region, where, doc, warnings)]

    # boundaries in text order: laws and clauses, notes, headings and separators
    events: list[tuple[int, str, object, object]] = [(lab.start, "law", lab, None) for lab in law_labels]
    events += [(lab.start, "clause", lab, head) for lab, head in clause_labels]
    events += [(n.start, "note", n, None) for n in notes]
    events += [(h.start, "heading", h, title) for h, title in headings]
    events += [(sep.start, "separator", sep, None) for sep in separators]
    events.sort(key=lambda e: e[0])

    laws: list[Law] = []
    fragments: list[Fragment] = []
    ids: dict[str, int] = {}
    law_by_label: dict[int, Law] = {}
    last: Law | None = None
    section: str | None = None

    def add_fragment(s: int, e: int, reason: str) -> None:
        s = _lead(doc, s, e, marker_ends)
        e = _trim(doc, s, e, marker_starts)
        if s >= e:
            return
        fid = f"{src.slug}/{code.slug}/fragment-{len(fragments) + 1}"
        fragments.append(
            Fragment(
                id=fid, source=src.slug, code=code.slug, span=Span(s, e),
                text=clean(text[s:e]), raw_text=text[s:e],
                line_start=doc.line_of(s), line_end=doc.line_of(e - 1),
                page_start=doc.page_of(s), page_end=doc.page_of(e - 1), reason=reason,
            )
        )
        warnings.append(f"{src.path}:{doc.line_of(s)}: {where}: kept as a fragment ({reason})")

    first_law = next((e[0] for e in events if e[1] in ("law", "clause")), span.end)
    for i, (pos, kind, obj, extra) in enumerate(events):
        nxt = events[i + 1][0] if i + 1 < len(events) else span.end
        if i == 0:
            add_fragment(span.start, pos, "text before the first law" if law_labels else "no numbered laws found")
        if kind in ("heading", "separator", "note"):
            area: Span = obj  # type: ignore[assignment]
            # a heading naming the laws at the code's start ("THE LAWS OF LOO.") titles the code
            is_title = kind == "heading" and pos == _lead(doc, span.start, span.end, marker_ends) and re.search(
                r"(?i)\b(laws?|rules?)\b", extra)
            if kind == "heading" and not is_title:
                section = clean(extra) or None  # type: ignore[arg-type]
            elif kind == "note" and _MOTTO_RE.fullmatch(text[area.start : area.end].strip()):
                add_fragment(area.start, area.end, "a printed motto, not commentary")
            elif kind == "note":
                if last is None:
                    add_fragment(area.start, area.end, "a note before the first law")
                else:
                    last.note_spans.append(area)
            add_fragment(area.end, nxt, f"text after a {kind}" if pos >= first_law else "text before the first law")
            if kind == "heading":
                last = None
            continue
        lab: Label = obj  # type: ignore[assignment]
        head: Label | None = extra  # type: ignore[assignment]
        end = _trim(doc, lab.start, nxt, marker_starts)
        parent = law_by_label.get(head.start) if head is not None else None
        path = f"{parent.number}/{lab.number}" if parent else lab.number
        law_id = f"{src.slug}/{code.slug}/{path}".replace(" ", "-")
        if law_id in ids:
            ids[law_id] += 1
            warnings.append(
                f"{src.path}:{doc.line_of(lab.start)}: {where}: number {lab.number} is "
                f"duplicated; kept as {law_id}~{ids[law_id]}"
            )
            law_id = f"{law_id}~{ids[law_id]}"
        else:
            ids[law_id] = 1
        body_start = _lead(doc, lab.end, end, marker_ends)
        body = clean(text[body_start:end])
        law_kind = code.kind if kind == "law" else kind
        if kind == "law" and _CAPS_TITLE_RE.fullmatch(body):
            section = body.rstrip(".").strip()  # "LAW I.--SHUFFLING.": the title of its SEC. clauses
        if _REFERENCE_RE.match(body):
            law_kind = "reference"
        law = Law(
            id=law_id, source=src.slug, game=code.game, code=code.slug, number=lab.number,
            kind=law_kind, ordinal=first_ordinal + len(laws), span=Span(lab.start, end),
            text=body, raw_text=text[lab.start : end],
            line_start=doc.line_of(lab.start), line_end=doc.line_of(end - 1),
            page_start=doc.page_of(lab.start), page_end=doc.page_of(end - 1),
            parent=parent.id if parent else None, section=section,
            numbered=lab.style != "unnumbered",
        )
        laws.append(law)
        if kind == "law":
            law_by_label[lab.start] = law
        last = law

    if not events:
        add_fragment(span.start, span.end, "no numbered laws found")
    if src.page_marker == "{N}":  # a footnote "[23] …" printed after a code belongs to the law citing [23]
        for law in laws:
            for note in list(law.note_spans):
                m = re.match(r"\s*\[(\d{1,3})\]", text[note.start : note.end])
                citing = m and next((o for o in laws if o is not law and f"[{m.group(1)}]" in o.raw_text), None)
                if citing:
                    law.note_spans.remove(note)
                    citing.note_spans.append(note)
    for law in laws:
        if law.note_spans:
            parts = [text[n.start : n.end] for n in law.note_spans]
            parts = [_note_text(p, clean) for p in parts]
            law.note = "\n\n".join(parts)
    return Segmentation(code, laws, fragments, warnings, structure)


def _note_text(raw: str, clean) -> str:
    """A note's clean text: a footnote keeps its number (``[23] This hand …``); a bracketed
    comment loses its brackets."""
    m = re.match(r"\s*\[(\d{1,3})\]\s*(.*)", raw, re.S)
    if m:
        return f"[{m.group(1)}] {clean(m.group(2))}"
    return clean(raw.strip().removeprefix("[").removesuffix("]"))


def uncovered(doc: Document, seg: Segmentation) -> list[Span]:
    """Runs of characters in the code that no law, note or fragment covers and that are neither
    whitespace nor page markers; empty when nothing was lost."""
    span = code_span(doc, seg.code)
    covered = bytearray(span.end - span.start)
    spans = [law.span for law in seg.laws] + [n for law in seg.laws for n in law.note_spans]
    spans += [f.span for f in seg.fragments] + [Span(m.start, m.end) for m in doc.page_markers]
    spans += seg.structure
    for s in spans:
        for i in range(max(s.start, span.start), min(s.end, span.end)):
            covered[i - span.start] = 1
    gaps: list[Span] = []
    for i, flag in enumerate(covered):
        if not flag and not doc.text[span.start + i].isspace():
            if gaps and gaps[-1].end == span.start + i:
                gaps[-1] = Span(gaps[-1].start, span.start + i + 1)
            else:
                gaps.append(Span(span.start + i, span.start + i + 1))
    return gaps


def overlaps(seg: Segmentation) -> list[tuple[Span, Span]]:
    """Pairs of law, note and fragment spans that share characters (empty when none do)."""
    spans = sorted(
        [law.span for law in seg.laws]
        + [n for law in seg.laws for n in law.note_spans]
        + [f.span for f in seg.fragments]
        + seg.structure,
        key=lambda s: (s.start, s.end),
    )
    return [(a, b) for a, b in zip(spans, spans[1:]) if b.start < a.end]
