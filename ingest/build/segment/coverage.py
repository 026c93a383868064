"""Coverage: where a code lies in its document, the page markers and blocked spans inside it,
and the "nothing lost" checks (:func:`uncovered`, :func:`overlaps`)."""

from __future__ import annotations

import bisect
import itertools

from ...models import CodeSpec, Document, Segmentation, Span


def code_span(doc: Document, code: CodeSpec) -> Span:
    """Character range of a code's lines (the whole text when it has no line range).

    Raises :class:`TypeError` for a code with a ``start_line`` but no ``end_line`` (the sidecar
    and catalog readers never make one)."""
    if code.start_line is None:
        return Span(0, len(doc.text))
    return Span(doc.offset_of_line(code.start_line), doc.offset_of_line(code.end_line + 1))


class Blocked:
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


class Markers:
    """The page markers that start inside ``span`` of ``doc``: their spans, and maps to step over
    them (``start_of``: a marker's end → its start; ``end_of``: its start → its end)."""

    def __init__(self, doc: Document, span: Span):
        markers = [m for m in doc.page_markers if span.start <= m.start < span.end]
        self.text = doc.text
        self.spans = [Span(m.start, m.end) for m in markers]
        self.start_of = {m.end: m.start for m in markers}
        self.end_of = {m.start: m.end for m in markers}

    def trim(self, start: int, end: int) -> int:
        """Move ``end`` back (not past ``start``) over trailing whitespace and page markers."""
        text = self.text
        while end > start:
            if text[end - 1].isspace():
                end -= 1
            elif end in self.start_of:
                end = self.start_of[end]
            else:
                break
        return end

    def lead(self, start: int, end: int) -> int:
        """Move ``start`` forward (not past ``end``) over leading whitespace and page markers."""
        text = self.text
        while start < end:
            if text[start].isspace():
                start += 1
            elif start in self.end_of:
                start = self.end_of[start]
            else:
                break
        return start


def uncovered(doc: Document, seg: Segmentation) -> list[Span]:
    """Runs of characters in the code that no law, note or fragment covers and that are neither
    whitespace nor page markers, in text order; empty when nothing was lost."""
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
    """Pairs of law, note and fragment spans that share characters (empty when none do), each
    pair in text order."""
    spans = sorted(
        [law.span for law in seg.laws]
        + [n for law in seg.laws for n in law.note_spans]
        + [f.span for f in seg.fragments]
        + seg.structure,
        key=lambda s: (s.start, s.end),
    )
    return [(a, b) for a, b in itertools.pairwise(spans) if b.start < a.end]
