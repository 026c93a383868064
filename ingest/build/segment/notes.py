"""Notes: commentary in a code (a bracketed paragraph, ``*Note*``, ``NOTE.``), footnotes (``[23] …``)
and each law's clean note text.

A footnote reference is :data:`FOOTNOTE_RE` everywhere (segmentation, the catalog's footnote
areas, cross-references); :func:`footnote_at` reads a footnote paragraph.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ...models import Law, Span
from .coverage import Blocked

# a footnote reference "[23]" (or "[A]", Elwell 1907): group 1 is its number or letter
FOOTNOTE_RE = re.compile(r"\[(\d{1,3}|[A-Z])\]")
NOTE_OPENERS = {  # by page-marker style: "[" opening a paragraph is a note, unless it is a page marker;
    # so is a paragraph wholly in parentheses (Elwell's "(… Note of etext transcriber.)")
    "[N]": re.compile(r"(?m)^[ \t]*(\[(?!\d{1,4}\])|\*Note\.?\*|_Note\.?_|NOTE\.|\()"),
    "{N}": re.compile(r"(?m)^[ \t]*(\[|\*Note\.?\*|_Note\.?_|NOTE\.|\()"),
}
BLANK_LINE_RE = re.compile(r"\n[ \t]*\r?\n")
_LINE_LABEL_RE = re.compile(r"[ \t]*(?:\d{1,3}[a-z]?|[ivxlc]{1,7}|[IVXLC]{1,7})\.(?:—|--)?\s")
_MOTTO_RE = re.compile(r"\[[^a-z\]]*[A-Z]{2}[^a-z\]]*\]")  # Enquire Within's "[KNOWLEDGE MAKES HUMBLE.]"


def _opening_footnote(text: str) -> re.Match[str] | None:
    """:data:`FOOTNOTE_RE` matched where ``text`` opens, after any whitespace."""
    return FOOTNOTE_RE.match(text, len(text) - len(text.lstrip()))


def footnote_at(text: str) -> tuple[int, str] | None:
    """A paragraph opening with a footnote number, read as (number, the rest with its leading
    whitespace removed): ``"\\n[23]  This hand …"`` → ``(23, "This hand …")``; ``None`` when
    ``text`` does not open (after whitespace) with a numbered ``[N]``."""
    m = _opening_footnote(text)
    return (int(m.group(1)), text[m.end() :].lstrip()) if m and m.group(1).isdigit() else None


def _parenthesized(text: str, s: int, end: int) -> Span | None:
    """The paragraph opening at ``s`` with ``(``, when the parenthesis it opens closes at the
    paragraph's end (a paragraph wholly in parentheses); else None ("(a) If …" is an item)."""
    para = BLANK_LINE_RE.search(text, s, end)
    stop = para.start() if para else end
    depth = 0
    for i in range(s, stop):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                rest = text[i + 1 : stop]
                return Span(s, i + 1 + len(rest.rstrip())) if not rest.strip(" \t\r\n.") else None
    return None


def is_motto(raw: str) -> bool:
    """Whether a bracketed paragraph is a printed motto in capitals, not commentary."""
    return bool(_MOTTO_RE.fullmatch(raw.strip()))


def find_notes(
    text: str, start: int, end: int, spans: list[Span], unclosed: list[int], opener: re.Pattern[str]
) -> list[Span]:
    """Commentary in ``text[start:end]`` outside ``spans`` (page markers), in text order: ``[`` at a
    line start to its matching ``]``, a paragraph wholly in parentheses, or a paragraph opening with
    ``*Note*``, ``NOTE.`` (Cavendish's Piquet, law 71) or, in a book whose pages are ``{N}``, a
    footnote ``[23]`` or ``[A]``. ``opener`` is
    the :data:`NOTE_OPENERS` pattern of the document's page-marker style.

    A note not closed by then ends at a blank line, at a line that opens with a law number, or
    at the end of the code; its start is added to ``unclosed``.
    """
    blocked = Blocked(spans)
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
        if text[s] == "(":  # only a paragraph of its own: "4. … &c.\n(_as in Bridge_)." is the law's text
            opens_paragraph = s == start or not text[max(start, text.rfind("\n", start, text.rfind("\n", start, s))) : s].strip()
            note = _parenthesized(text, s, end) if opens_paragraph else None
            if note is not None:
                notes.append(note)
            pos = note.end if note is not None else m.end()
            continue
        if text[s] != "[" or FOOTNOTE_RE.match(text, s):  # "*Note* …", "NOTE.--…", a footnote "[23] …"
            para = BLANK_LINE_RE.search(text, s, end)
            notes.append(Span(s, para.start() if para else end))
        else:
            notes.append(_bracketed(text, s, end, unclosed))
        pos = notes[-1].end


def _bracketed(text: str, s: int, end: int, unclosed: list[int]) -> Span:
    """A bracketed note opening at ``s``: to its matching ``]``, or (adding ``s`` to ``unclosed``)
    to a blank line, a line opening with a law number, or ``end``."""
    depth, i, e = 0, s, None
    while i < end:
        ch = text[i]
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth == 0:
                e = i + 1
                break
        elif ch == "\n" and (BLANK_LINE_RE.match(text, i) or _LINE_LABEL_RE.match(text, i + 1)):
            e = i
            break
        i += 1
    if e is None or text[e - 1] != "]":
        unclosed.append(s)
    return Span(s, end if e is None else e)


def move_cited_footnotes(laws: list[Law], text: str) -> None:
    """Give each footnote ``[23] …`` noted on one law to the first other law whose text cites
    ``[23]`` (a footnote printed after a code belongs to the law citing it), in place."""
    for law in laws:
        for note in list(law.note_spans):
            m = _opening_footnote(text[note.start : note.end])
            citing = m and next((o for o in laws if o is not law and m.group(0) in o.raw_text), None)
            if citing:
                law.note_spans.remove(note)
                citing.note_spans.append(note)


def note_text(raw: str, clean: Callable[[str], str]) -> str:
    """A note's clean text: a footnote keeps its number (``[23] This hand …``); a bracketed
    comment loses its brackets."""
    m = _opening_footnote(raw)
    if m:
        return f"{m.group(0)} {clean(raw[m.end() :].lstrip())}"
    return clean(raw.strip().removeprefix("[").removesuffix("]"))


def attach_notes(laws: list[Law], text: str, clean: Callable[[str], str]) -> None:
    """Set each law's ``note`` to the clean text of its ``note_spans``, blank-line separated."""
    for law in laws:
        if law.note_spans:
            law.note = "\n\n".join(note_text(text[n.start : n.end], clean) for n in law.note_spans)
