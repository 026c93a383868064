"""Items: the lettered and ordinal cases a law or clause lists, made clauses of their own.

A law that lists its cases — "There must be a new deal— (a) If any card … (b) If the pack …"
(Foster's Duplicate Whist, Law III, Sec. 2), "(_a_) If the cards be not dealt …" (Foster's
Auction Bridge, law 37), "(1) Deals without having the pack cut" (Hoffmann's Loo, law 3), "a If
the cards be not dealt …" (Elwell's Bridge, 1907), "1st. Two or more cards played at once. 2d.
Any card dropped …" (Elwell) — keeps its opening words; each item
becomes a clause whose parent is that law (or clause), numbered by its letter (``a``), number
(``1``) or ordinal (``1st``), with the id ``<parent id>/<number>``, so it can be cited and found.

An item's label opens a line (after its indentation), except an ordinal that continues a run
inside a line ("1st. That the trump shall stand, or 2d. That there shall be a new deal").
Items count only as a run from the first (``a``, ``1`` or ``1st``) in sequence; a letter out of
sequence is text ("rights (_h_) or (_i_)").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...numbering import is_successor, letter_value


@dataclass(frozen=True)
class Item:
    """An item's label: ``text[start:end]`` (``(a)``, ``_b_``, ``2d.``), numbered ``number``
    (``a``, ``2d``... as printed, a letter in lower case)."""

    start: int
    end: int
    number: str

_ITEM_RE = re.compile(
    r"(?:"
    r"\(_?(?P<paren>[a-z])_?\)(?=[ \t])"  # (a)  (_a_)
    r"|\((?P<digit>[1-9]\d?)\)(?=[ \t])"  # (1) (Hoffmann's Loo, law 3)
    r"|_(?P<italic>[a-z])_\.?(?=[ \t])"  # _a_
    r"|(?P<dotted>[a-z])\.(?=[ \t]+[A-Z])"  # a. If
    r"|(?P<bare>[a-h])(?=[ \t]+[A-Z][a-z])"  # a If (indented only)
    r"|(?P<ordinal>\d{1,2})(?P<suffix>st|nd|rd|th|d)\.(?=[ \t]+[A-Z])"  # 1st. 2d. 3rd.
    r")"
)


def _candidates(text: str, start: int, end: int) -> list[tuple[str, int, int, str, tuple[int, int]]]:
    """``(style, label start, label end, number, key)`` of every possible item label in
    ``text[start:end]``, in order."""
    out = []
    for m in _ITEM_RE.finditer(text, start, end):
        line_start = text.rfind("\n", 0, m.start()) + 1
        before = text[max(line_start, start) : m.start()]
        at_line_start = line_start >= start and not before.strip()
        style = next(k for k in ("paren", "digit", "italic", "dotted", "bare", "ordinal") if m.group(k))
        if style == "bare" and not (at_line_start and len(before) >= 2):
            continue  # a bare letter opens an item only on an indented line
        if style == "ordinal":
            number = m.group("ordinal") + m.group("suffix")  # 1st, 2d
            key = (int(m.group("ordinal")), 0)
            if not at_line_start and not re.search(r"(?:[,;]|\bor|\band)[ \t]+\Z", text[max(start, m.start() - 8) : m.start()]):
                continue
            out.append(("ordinal" if at_line_start else "ordinal-inline", m.start(), m.end(), number, key))
            continue
        if not at_line_start:
            continue
        if style == "digit":
            out.append((style, m.start(), m.end(), m.group("digit"), (int(m.group("digit")), 0)))
            continue
        letter = m.group(style)
        out.append((style, m.start(), m.end(), letter, (letter_value(letter), 0)))
    return out


def _run(candidates: list[tuple[str, int, int, str, tuple[int, int]]]) -> list[tuple[str, int, int, str, tuple[int, int]]]:
    """The longest run of one style (inline ordinals join line-start ones) that starts at the first
    item (``a``, ``1st``) and goes on in sequence; empty when there is none of two or more."""
    best: list = []
    for style in {c[0].removesuffix("-inline") for c in candidates}:
        run: list = []
        for c in candidates:
            if c[0].removesuffix("-inline") != style:
                continue
            if not run:
                if c[4] == (1, 0) and not c[0].endswith("-inline"):
                    run.append(c)
            elif is_successor(run[-1][4], c[4]):
                run.append(c)
        if len(run) >= 2 and len(run) > len(best):
            best = run
    return best


def find_items(text: str, start: int, end: int) -> list[Item]:
    """The items a law lists in ``text[start:end]`` (its words after its label), in order; empty
    when it lists none."""
    return [Item(c[1], c[2], c[3] if c[0].startswith("ordinal") else c[3].lower())
            for c in _run(_candidates(text, start, end))]
