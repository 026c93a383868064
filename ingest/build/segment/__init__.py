"""Segment: split one code of a :class:`Document` into numbered laws, clauses, notes and fragments.

The numbering styles handled (all seen in the seed excerpts, the short book extracts under
``corpus/seeds``):

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

The parts: :mod:`.labels` (law numbers), :mod:`.notes` (commentary and footnotes),
:mod:`.structure` (headings, separators, unnumbered laws), :mod:`.items` (the lettered and
ordinal cases a law lists, made its clauses), :mod:`.coverage` (spans and checks).
:func:`segment` finds them, orders them as :class:`Event` records and walks those with a
:class:`_CodeBuilder`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...models import CodeSpec, Document, Fragment, Law, Segmentation, Span
from ..clean import clean_text, words_of
from .coverage import Markers, code_span, overlaps, uncovered
from .items import Item, find_items
from .labels import Label, find_labels, laws_and_clauses
from .notes import NOTE_OPENERS, attach_notes, find_notes, is_motto, move_cited_footnotes
from .structure import find_structure, is_rule, units

__all__ = ["code_span", "overlaps", "segment", "uncovered"]

_REFERENCE_RE = re.compile(r"^\(?as in [\w ]+\)?\.?$", re.IGNORECASE)  # "5 to 10. _As in Bridge._"
_CAPS_TITLE_RE = re.compile(r"[A-Z][A-Z ,'’&-]{2,60}\.?")
_CODE_TITLE_RE = re.compile(r"(?i)\b(laws?|rules?)\b")  # "THE LAWS OF LOO.": a heading titling the code


@dataclass(frozen=True)
class Event:
    """A boundary in a code at offset ``start``: a law or clause opening at ``label`` (a clause
    with the ``head`` label of its law, ``None`` before the first), or a note, heading (with its
    ``title``) or separator covering ``span``."""

    start: int
    kind: str  # "law", "clause", "note", "heading" or "separator"
    span: Span | None = None
    label: Label | None = None
    head: Label | None = None
    title: str | None = None


def segment(doc: Document, code: CodeSpec, first_ordinal: int = 1) -> Segmentation:
    """Split ``code`` of ``doc`` into laws, clauses (with notes) and fragments, in text order.

    ``first_ordinal`` is the ordinal given to the first law (ordinals count laws and clauses in
    reading order through the whole corpus). Warnings (skipped or out-of-order numbers, unclosed
    notes, duplicated numbers, fragments kept) name the file and line. Raises nothing for a code
    :func:`code_span` accepts.
    """
    span = code_span(doc, code)
    markers = Markers(doc, span)
    where = f"{doc.source.slug} [{code.slug}]"
    warnings: list[str] = []
    notes = _find_notes(doc, span, markers, where, warnings)
    headings, separators = find_structure(doc, span, notes)
    structure = [h for h, _ in headings] + separators
    law_labels, clause_labels = _find_laws(doc, code, span, markers, notes + structure, where, warnings)
    builder = _CodeBuilder(doc, code, span, markers, first_ordinal, warnings)
    builder.walk(
        _events(law_labels, clause_labels, notes, headings, separators),
        "text before the first law" if law_labels else "no numbered laws found",
    )
    if doc.source.page_marker == "{N}":
        move_cited_footnotes(builder.laws, doc.text)
    attach_notes(builder.laws, doc.text, builder.clean)
    return Segmentation(code, builder.laws, builder.fragments, warnings, structure)


def _find_notes(doc: Document, span: Span, markers: Markers, where: str, warnings: list[str]) -> list[Span]:
    """The code's notes; a warning for each bracketed note that is not closed."""
    unclosed: list[int] = []
    opener = NOTE_OPENERS[doc.source.page_marker]
    notes = find_notes(doc.text, span.start, span.end, markers.spans, unclosed, opener)
    for pos in unclosed:
        warnings.append(f"{doc.source.path}:{doc.line_of(pos)}: {where}: a note opened with '[' is not closed")
    return notes


def _find_laws(
    doc: Document, code: CodeSpec, span: Span, markers: Markers, bounds: list[Span], where: str, warnings: list[str]
) -> tuple[list[Label], list[tuple[Label, Label | None]]]:
    """The labels opening the code's laws, and its clauses with their law's label; outside
    ``bounds`` (notes, headings, separators). An unnumbered code's laws get labels numbered
    from 1 that cover no text."""
    if code.numbering == "unnumbered":
        found = units(doc, span, bounds, code.unit, markers.spans)
        return [Label(u.start, u.start, "unnumbered", str(k), (k, 0), True) for k, u in enumerate(found, start=1)], []
    labels = find_labels(
        doc.text, span.start, span.end, markers.spans + bounds, markers.start_of, letters=code.numbering == "letters"
    )
    return laws_and_clauses(labels, code.law_style, span, where, doc, warnings)


def _events(
    law_labels: list[Label],
    clause_labels: list[tuple[Label, Label | None]],
    notes: list[Span],
    headings: list[tuple[Span, str]],
    separators: list[Span],
) -> list[Event]:
    """Every boundary in text order (at one offset: law, clause, note, heading, separator)."""
    events = [Event(lab.start, "law", label=lab) for lab in law_labels]
    events += [Event(lab.start, "clause", label=lab, head=head) for lab, head in clause_labels]
    events += [Event(n.start, "note", span=n) for n in notes]
    events += [Event(h.start, "heading", span=h, title=title) for h, title in headings]
    events += [Event(sep.start, "separator", span=sep) for sep in separators]
    events.sort(key=lambda e: e.start)
    return events


class _CodeBuilder:
    """Builds a code's laws and fragments from its events, in text order: each law runs to the
    next event; text after a note, heading or separator that no law takes is a fragment."""

    def __init__(
        self, doc: Document, code: CodeSpec, span: Span, markers: Markers, first_ordinal: int, warnings: list[str]
    ):
        self.doc, self.code, self.span, self.markers = doc, code, span, markers
        self.first_ordinal = first_ordinal
        self.warnings = warnings
        self.where = f"{doc.source.slug} [{code.slug}]"
        self.known = words_of(doc.text[span.start : span.end])
        self.laws: list[Law] = []
        self.fragments: list[Fragment] = []
        self.ids: dict[str, int] = {}  # law id → how many laws took it
        self.law_by_label: dict[int, Law] = {}  # a law's label start → the law (clauses find their parent)
        self.last: Law | None = None  # the law a note belongs to (none after a heading)
        self.section: str | None = None

    def clean(self, raw: str) -> str:
        return clean_text(raw, self.doc.source.page_marker, self.known)

    def walk(self, events: list[Event], opening: str) -> None:
        """Add every event; text before the first is a fragment for the reason ``opening``."""
        span = self.span
        first_law = next((e.start for e in events if e.kind in ("law", "clause")), span.end)
        for i, event in enumerate(events):
            nxt = events[i + 1].start if i + 1 < len(events) else span.end
            if i == 0:
                self.add_fragment(span.start, event.start, opening)
            if event.label is not None:
                self.add_law(event.kind, event.label, event.head, nxt)
            elif event.span is not None:
                self.add_area(event.kind, event.span, event.title or "", nxt, first_law)
        if not events:
            self.add_fragment(span.start, span.end, "no numbered laws found")

    def add_fragment(self, s: int, e: int, reason: str) -> None:
        """Keep ``text[s:e]`` (trimmed of whitespace and page markers) as a fragment, if any is left."""
        doc, code = self.doc, self.code
        s = self.markers.lead(s, e)
        e = self.markers.trim(s, e)
        if s >= e:
            return
        text, src = doc.text, doc.source
        self.fragments.append(
            Fragment(
                id=f"{src.slug}/{code.slug}/fragment-{len(self.fragments) + 1}", source=src.slug, code_slug=code.slug,
                span=Span(s, e), text=self.clean(text[s:e]), raw_text=text[s:e],
                line_start=doc.line_of(s), line_end=doc.line_of(e - 1),
                page_start=doc.page_of(s), page_end=doc.page_of(e - 1), reason=reason,
            )
        )
        self.warnings.append(f"{src.path}:{doc.line_of(s)}: {self.where}: kept as a fragment ({reason})")

    def add_area(self, kind: str, area: Span, title: str, nxt: int, first_law: int) -> None:
        """A note, heading or separator at ``area``; the text after it up to ``nxt`` is a fragment."""
        # a heading naming the laws at the code's start ("THE LAWS OF LOO.") titles the code
        is_title = (
            kind == "heading"
            and area.start == self.markers.lead(self.span.start, self.span.end)
            and _CODE_TITLE_RE.search(title)
        )
        if kind == "heading" and not is_title:
            self.section = self.clean(title) or None
        elif kind == "note" and is_motto(self.doc.text[area.start : area.end]):
            self.add_fragment(area.start, area.end, "a printed motto, not commentary")
        elif kind == "note":
            if self.last is None:
                self.add_fragment(area.start, area.end, "a note before the first law")
            else:
                self.last.note_spans.append(area)
        reason = f"text after a {kind}" if area.start >= first_law else "text before the first law"
        self.add_fragment(area.end, nxt, reason)
        if kind == "heading":
            self.last = None

    def add_law(self, kind: str, lab: Label, head: Label | None, nxt: int) -> None:
        """A law or clause (``kind``) opening at ``lab`` and running to ``nxt``; a clause's ``head``
        is the label of its law. The cases it lists (:mod:`.items`) follow it as its clauses."""
        doc, code, text = self.doc, self.code, self.doc.text
        items = find_items(text, lab.end, nxt)
        end = self.markers.trim(lab.start, items[0].start if items else nxt)
        parent = self.law_by_label.get(head.start) if head is not None else None
        path = f"{parent.number}/{lab.number}" if parent else lab.number
        law_id = self._unique_id(f"{doc.source.slug}/{code.slug}/{path}".replace(" ", "-"), lab)
        body = self.clean(text[self.markers.lead(lab.end, end) : end])
        law_kind = code.kind if kind == "law" else kind
        if kind == "law" and _CAPS_TITLE_RE.fullmatch(body) and not is_rule(body):
            self.section = body.rstrip(".").strip()  # "LAW I.--SHUFFLING.": the title of its SEC. clauses
        if _REFERENCE_RE.match(body):
            law_kind = "reference"
        law = Law(
            id=law_id, source=doc.source.slug, game=code.game, code_slug=code.slug, number=lab.number,
            kind=law_kind, ordinal=self.first_ordinal + len(self.laws), span=Span(lab.start, end),
            text=body, raw_text=text[lab.start : end],
            line_start=doc.line_of(lab.start), line_end=doc.line_of(end - 1),
            page_start=doc.page_of(lab.start), page_end=doc.page_of(end - 1),
            parent=parent.id if parent else None, section=self.section,
            numbered=lab.style != "unnumbered",
        )
        self.laws.append(law)
        if kind == "law":
            self.law_by_label[lab.start] = law
        self.last = law
        for k, item in enumerate(items):
            self.add_item(law, item, items[k + 1].start if k + 1 < len(items) else nxt)

    def add_item(self, parent: Law, item: Item, nxt: int) -> None:
        """The case ``item`` of ``parent``, running to ``nxt``: a clause ``<parent id>/<number>``.
        A note after it belongs to ``parent`` (it stays ``self.last``)."""
        doc, text = self.doc, self.doc.text
        end = self.markers.trim(item.start, nxt)
        self.laws.append(Law(
            id=f"{parent.id}/{item.number}", source=parent.source, game=parent.game, code_slug=parent.code_slug,
            number=item.number, kind="clause", ordinal=self.first_ordinal + len(self.laws),
            span=Span(item.start, end), text=self.clean(text[self.markers.lead(item.end, end) : end]),
            raw_text=text[item.start : end], line_start=doc.line_of(item.start), line_end=doc.line_of(end - 1),
            page_start=doc.page_of(item.start), page_end=doc.page_of(end - 1), parent=parent.id,
            section=parent.section,
        ))

    def _unique_id(self, law_id: str, lab: Label) -> str:
        """``law_id``, or ``law_id~2``, ``~3`` … (with a warning) when the number is duplicated."""
        if law_id not in self.ids:
            self.ids[law_id] = 1
            return law_id
        self.ids[law_id] += 1
        self.warnings.append(
            f"{self.doc.source.path}:{self.doc.line_of(lab.start)}: {self.where}: number {lab.number} is "
            f"duplicated; kept as {law_id}~{self.ids[law_id]}"
        )
        return f"{law_id}~{self.ids[law_id]}"
