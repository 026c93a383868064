"""Rulings: split a book of decided cases into :class:`Ruling` records.

The form is Cavendish's *Cases and Decisions* (Markdown): ``## Case I`` opens a case, the facts
follow, ``**Decision**`` opens the decision, and the decision cites laws as ``Law 51``,
``[Law 51](…)`` or ``Laws 11, 32, and 38``.
"""

from __future__ import annotations

import re

from .clean import clean_text
from .models import Document, Ruling

_CASE_RE = re.compile(r"(?m)^##[ \t]+Case[ \t]+([IVXLC]+)\b.*$")
_DECISION_RE = re.compile(r"\*\*Decisions?\*\*")
_CITATION_RE = re.compile(r"\bLaws?[ \t]+(\d{1,3}(?:(?:,[ \t]*|,?[ \t]+and[ \t]+)\d{1,3})*)")


def cited_laws(text: str) -> list[tuple[str, str]]:
    """``(number, citation text)`` for each law a text cites: ``Laws 11, 32, and 38`` gives three."""
    out = []
    for m in _CITATION_RE.finditer(text):
        for number in re.findall(r"\d{1,3}", m.group(1)):
            out.append((number, m.group(0)))
    return out


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
            citations=cited_laws(raw),
        ))
    return rulings
