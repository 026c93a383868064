"""Structure: sub-headings and ``* * *`` separators inside a code (:func:`find_structure`), and
the laws of a code printed without numbers (:func:`units`)."""

from __future__ import annotations

import re

from ...models import Document, Span
from .coverage import Blocked
from .labels import starts_with_label
from .notes import BLANK_LINE_RE

_SEPARATOR_RE = re.compile(r"[ \t]*(?:\*[ \t]*){3,}")
_MD_HEADING_RE = re.compile(r"[ \t]*#{1,6}[ \t]+\S")
_CAPS_HEADING_RE = re.compile(r"[ \t]*[A-ZÀ-Ý][A-ZÀ-Ý0-9 ,.'’&:;()\-—]{2,70}")
# "_The Deal_." (Peel), not "_When … Declared._"
_ITALIC_HEADING_RE = re.compile(r"[ \t]*_[^_\n]{1,59}[^_.\n]_\.?[ \t]*")
_BOLD_HEAD_RE = re.compile(r"(?m)^[ \t]*_=")
# a line in capitals with a finite verb states a rule ("THERE IS NO MISDEAL.", Elwell 1907); a
# heading names a subject ("CARDS LIABLE TO BE CALLED.")
_FINITE_VERB_RE = re.compile(r"\b(?:IS|ARE|MUST|MAY|SHALL|SHOULD|CANNOT|CAN|WILL|HAS|HAVE|DOES)\b")


def is_rule(line: str) -> bool:
    """Whether a line in capitals is a rule (it has a finite verb) rather than a heading."""
    return _FINITE_VERB_RE.search(line) is not None
_LEAD_IN_RE = re.compile(r"(?:--|—|:|,|;)\s*$")
_ITEM_RE = re.compile(r"[ \t]{2,}(?:[a-z]|\d+(?:st|d|nd|rd|th)\.|\([a-z0-9]+\))\s")


def find_structure(doc: Document, span: Span, notes: list[Span]) -> tuple[list[tuple[Span, str]], list[Span]]:
    """Sub-headings (each its span and its text) and ``* * *`` separator lines inside ``span``,
    outside ``notes``, each list in text order.

    A heading is a Markdown ``#`` line, or, after a blank line, a line in capitals
    (``THE RUBBER.``) or wholly in italics (``_The Deal_.``) that does not open with a law number;
    a line in capitals that states a rule (:func:`is_rule`) is not a heading.
    """
    text = doc.text
    blocked = Blocked(notes)
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
            and not starts_with_label(text, content.start)
            and (
                (_CAPS_HEADING_RE.fullmatch(line) and sum(ch.isalpha() for ch in stripped) >= 3 and not is_rule(line))
                or _ITALIC_HEADING_RE.fullmatch(line)
            )
        ):
            headings.append((content, stripped.strip("_=").rstrip(".").strip("_").strip()))
            prev_blank = False
        else:
            prev_blank = False
        pos = line_end + 1
    return headings, separators


def units(doc: Document, span: Span, bounds: list[Span], unit: str, markers: list[Span] = ()) -> list[Span]:
    """The unnumbered laws of a code, in text order: stretches of text in ``span`` between ``bounds``
    (headings, separators, notes) and page ``markers``, also cut

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
        cuts += [(m.start(), m.end()) for m in BLANK_LINE_RE.finditer(text, span.start, span.end)]
    elif unit == "bold-head":
        heads = {m.start() for m in _BOLD_HEAD_RE.finditer(text, span.start, span.end)}
        cuts += [(h, h) for h in heads]
    cuts.sort()
    found: list[Span] = []
    pos = span.start
    for a, b in cuts + [(span.end, span.end)]:
        if a > pos and text[pos:a].strip():
            s = pos + len(text[pos:a]) - len(text[pos:a].lstrip())
            if unit == "bold-head" and s not in heads:
                pass  # text before the first bold head: not a law (kept as a fragment)
            elif (
                unit == "paragraph" and found
                and not any(found[-1].end <= c < s for c, _ in hard)
                and _continues(text, found[-1], s)
            ):
                found[-1] = Span(found[-1].start, a)
            else:
                found.append(Span(s, a))
        pos = max(pos, b)
    return found


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
