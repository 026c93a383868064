"""Rulings: split a book of decided cases into :class:`Ruling` records.

The form is Cavendish's *Cases and Decisions* (Markdown): ``## Case I`` opens a case, the facts
follow, ``**Decision**`` opens the decision, which cites laws (``Law 51``, ``[Law 51](…)``): the build
resolves them with :mod:`ingest.cite`. A ruling a user drops into ``corpus/rulings/`` is one
Markdown file: ``# Title``, then its text.
"""

from __future__ import annotations

import re

from ..models import Document, Ruling
from .clean import clean_text

_CASE_RE = re.compile(r"(?m)^##[ \t]+Case[ \t]+([IVXLC]+)\b.*$")
_DECISION_RE = re.compile(r"\*\*Decisions?\*\*")


def markdown_ruling(doc: Document) -> Ruling:
    """A ruling a user wrote in Markdown (``corpus/rulings/NAME.md``): its ``# Title`` and text."""
    text = doc.text
    m = re.match(r"\s*#[ \t]+(.+)\n", text)
    body = text[m.end():] if m else text
    return Ruling(
        id=doc.source.slug, source=doc.source.slug, number="", title=doc.source.title, text=clean_text(body),
        decision="", raw_text=text, line_start=1, line_end=doc.line_count,
    )


def split_rulings(doc: Document) -> list[Ruling]:
    """Every case in ``doc``, in order; the text before the first case is not a ruling."""
    text = doc.text
    heads = list(_CASE_RE.finditer(text))
    rulings = []
    for i, m in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        raw = text[m.start() : end].rstrip()
        body = text[m.end() : m.start() + len(raw)]
        parts = _DECISION_RE.split(body, maxsplit=1)
        facts = clean_text(parts[0].replace("\n - ", "\n"))
        decision = clean_text(parts[1]) if len(parts) > 1 else ""
        rulings.append(Ruling(
            id=f"{doc.source.slug}/case-{m.group(1)}", source=doc.source.slug, number=m.group(1),
            title=f"Case {m.group(1)}", text=facts, decision=decision, raw_text=raw,
            line_start=doc.line_of(m.start()), line_end=doc.line_of(m.start() + len(raw) - 1),
        ))
    return rulings
