"""Link: the relations between records, made after tagging and before loading.

- :func:`attach_footnotes`: a law's note gains the footnotes its text cites (``[21]``);
- :func:`link_excerpts`: an excerpt's law becomes a witness of its book's law (``witness_of``);
- :func:`cross_references`: the citations inside laws, resolved to laws;
- :func:`ruling_citations`: the citations in rulings, resolved to laws;
- :func:`parallels`: each law's nearest laws by sentence vector, in other games and other books.

Every function takes and returns typed records (:mod:`ingest.models`); none touches the database.
"""

from __future__ import annotations

import re

import numpy as np

from ..cite import CitableLaw, CitableSource, Resolver
from ..models import CrossReference, Document, Law, Parallel, Ruling, RulingCitation, Segmentation
from .segment.notes import FOOTNOTE_RE


def attach_footnotes(laws: list[Law], notes: dict[int, str]) -> None:
    """Append to each law's note the text of the footnotes its raw text cites (``[21]``);
    ``notes`` maps footnote number → text (from the book's footnote areas)."""
    for law in laws:
        cited = [int(n) for n in FOOTNOTE_RE.findall(law.raw_text) if n.isdigit() and int(n) in notes]
        if cited:
            extra = "\n\n".join(f"[{n}] {notes[n]}" for n in dict.fromkeys(cited))
            law.note = f"{law.note}\n\n{extra}" if law.note else extra


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def link_excerpts(segmented: list[tuple[Document, list[Segmentation]]]) -> list[str]:
    """Set ``witness_of`` on each law of an excerpt (a source with ``excerpt_of``) to the law of
    the book with the same number and text (an excerpt cut off mid-word matches the book's law
    that begins with it). Returns a warning (file and line) for each excerpt law with no match in
    a built book."""
    by_source = {d.source.slug: [law for s in segs for law in s.laws] for d, segs in segmented}
    unmatched = []
    for doc, segs in segmented:
        book = doc.source.excerpt_of
        if not book or book not in by_source:
            continue
        index: dict[str, list[Law]] = {}
        for law in by_source[book]:
            index.setdefault(law.number, []).append(law)
        for s in segs:
            for law in s.laws:
                key = _key(law.text)
                match = next((b for b in index.get(law.number, []) if key and _key(b.text).startswith(key)), None)
                if match:
                    law.witness_of = match.id
                else:
                    unmatched.append(f"{doc.source.path}:{law.line_start}: {law.id} has no law with its text in {book}")
    return unmatched


def resolver_for(docs: list[Document], laws: list[Law], games: dict[str, str]) -> Resolver:
    """A citation resolver over the laws being built (``games``: the games they belong to)."""
    sources = [CitableSource(d.source.slug, d.source.title, d.source.author, d.source.year, d.source.kind)
               for d in docs]
    citable = [CitableLaw(law.id, law.source, law.game, law.code_id, law.number, law.kind, law.parent,
                          law.ordinal, law.numbered, law.witness_of) for law in laws]
    return Resolver(games, sources, citable)


def cross_references(resolver: Resolver, laws: list[Law]) -> list[CrossReference]:
    """The citations inside every law's text (its own law as the context), one record per law
    cited (``target_id`` None when unresolved); offsets are into ``Law.text``. An excerpt's copy
    of a book's law is skipped (the book's law carries them)."""
    out = []
    for law in sorted(laws, key=lambda x: x.ordinal):
        if law.witness_of:
            continue
        for r in resolver.cite(law.text, context=law.id):
            c = r.citation
            out += [CrossReference(law.id, target, c.text, c.start, c.end, r.status)
                    for target in r.laws or [None] if target != law.id]
    return out


def ruling_citations(resolver: Resolver, rulings: list[Ruling], rules: dict[str, str]) -> list[RulingCitation]:
    """The citations in each ruling's raw text, one record per law cited (``law_id`` None when
    unresolved); offsets are into ``Ruling.raw_text``. The decisions of a book of cases read
    "Law 51" as a law of the book it rules on, ``rules[ruling.source]`` (Cavendish's Cases and
    Decisions rule on his Laws of Piquet)."""
    out = []
    for r in rulings:
        for res in resolver.cite(r.raw_text, book=rules.get(r.source)):
            c = res.citation
            out += [RulingCitation(r.id, law_id, c.text, c.start, c.end, res.status) for law_id in res.laws or [None]]
    return out


def parallels(vectors: dict[str, bytes], laws: dict[str, Law], other_games: int = 5,
              same_game: int = 3) -> list[Parallel]:
    """Each law's nearest laws by cosine similarity of their vectors (float32 bytes by law id):
    ``other_games`` of them in other games (kind ``other-game``) and ``same_game`` in other books
    of its own game (kind ``other-edition``)."""
    ids = sorted(vectors)
    if not ids:
        return []
    matrix = np.frombuffer(b"".join(vectors[i] for i in ids), dtype=np.float32).reshape(len(ids), -1)
    game = np.array([laws[i].game for i in ids], dtype=object)
    source = np.array([laws[i].source for i in ids], dtype=object)
    rows = []
    for start in range(0, len(ids), 256):
        block = matrix[start : start + 256] @ matrix.T
        for k, scores in enumerate(block):
            i = start + k
            for kind, keep, n in (("other-game", game != game[i], other_games),
                                  ("other-edition", (game == game[i]) & (source != source[i]), same_game)):
                masked = np.where(keep, scores, -np.inf)
                top = np.argsort(-masked)[:n]
                rows += [Parallel(ids[i], ids[j], float(masked[j]), kind) for j in top if np.isfinite(masked[j])]
    return rows
