"""Cite: the citation half of linking, computed only when something it reads has changed.

The citations inside laws (:func:`~ingest.build.link.cross_references`), in rulings
(:func:`~ingest.build.link.ruling_citations`) and each law's short citation
(:func:`~ingest.build.link.short_citations`) depend on nothing but the laws, codes and sources
being built (what the resolver is given), the rulings, the games' names, aliases and families as
the vocabulary gives them (``vocabulary/games.toml``), the resolver's code and the Unicode tables
its text folding uses. The build keeps their output in the table ``build_stages`` under
:func:`citing_key` (sha256 of all of those), and a rebuild whose key is found in the previous
database takes the output from there instead of resolving about 4,600 citations again (a rebuild
with nothing changed took 3.35 s instead of 4.61 s on a 2-core machine), as
:mod:`ingest.build.tagging` does for tags and :mod:`ingest.build.vectors` for vectors.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import unicodedata
from dataclasses import astuple, dataclass
from pathlib import Path

from .. import vocabulary
from ..models import CrossReference, Document, Law, Ruling, RulingCitation
from .keys import hash_sources
from .link import citables, cross_references, resolver_for, ruling_citations, short_citations

STAGE = "citations"
# the modules whose code decides a citation: the finder and resolver, the short forms, the text
# folding and numbering they use, the vocabulary's reader, and the link functions themselves
CODE = ("ingest.cite", "ingest.cite.find", "ingest.cite.records", "ingest.cite.resolve", "ingest.citation",
        "ingest.text", "ingest.numbering", "ingest.vocabulary", "ingest.build.link", "ingest.build.citing")


@dataclass
class Citing:
    """What the citation half of linking found: each law's short citation (law id → citation),
    the citations inside laws and in rulings, and the ids of the laws no short citation names
    alone."""

    citations: dict[str, str | None]
    cross_references: list[CrossReference]
    ruling_citations: list[RulingCitation]
    alone_not: list[str]

    def dumps(self) -> str:
        """This output as the JSON ``build_stages`` keeps (the inverse of :meth:`loads`)."""
        return json.dumps({"citations": self.citations, "alone_not": self.alone_not,
                           "cross_references": [astuple(x) for x in self.cross_references],
                           "ruling_citations": [astuple(x) for x in self.ruling_citations]}, ensure_ascii=False)

    @classmethod
    def loads(cls, text: str) -> Citing:
        d = json.loads(text)
        return cls(d["citations"], [CrossReference(*x) for x in d["cross_references"]],
                   [RulingCitation(*x) for x in d["ruling_citations"]], d["alone_not"])


def citing_key(docs: list[Document], laws: list[Law], used: dict[str, str], rulings: list[Ruling],
               rules: dict[str, str]) -> str:
    """Hex sha256 of everything the citations read: the sources, codes and laws the resolver is
    given (:func:`~ingest.build.link.citables`), the games used and their names, the rulings and
    the books they rule on, the games, aliases and families the vocabulary gives this process (as
    loaded, not the file: a second build in one process sees what its resolver sees), the version
    of the Unicode tables, and the code of :data:`CODE`."""
    h = hashlib.sha256(unicodedata.unidata_version.encode() + b"\0")
    known = (vocabulary.games(), vocabulary.aliases(), vocabulary.families())
    for part in (*citables(docs, laws, used), sorted(used.items()), rulings, sorted(rules.items()), known):
        h.update(repr(part).encode() + b"\0")
    hash_sources(h, CODE)
    return h.hexdigest()


def previous_citing(db_path: Path, key: str) -> Citing | None:
    """The citations kept under ``key`` in the database at ``db_path`` (None when it is missing,
    unreadable, built before ``build_stages`` existed, or kept them under another key)."""
    if not db_path.exists():
        return None
    try:
        with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as old:
            row = old.execute("select output from build_stages where stage = ? and key = ?", (STAGE, key)).fetchone()
        return Citing.loads(row[0]) if row else None
    except (sqlite3.Error, ValueError, KeyError, TypeError):
        return None


def cite_laws(docs: list[Document], laws: list[Law], used: dict[str, str], rulings: list[Ruling],
              rules: dict[str, str], previous: Path | None = None) -> tuple[Citing, str, bool]:
    """Set each law's ``citation`` and return ``(the citations found, their key, whether they were
    kept from the database at previous)``. ``used``: the games built (slug → name); ``rules``: the
    book a book of cases rules on, by the cases' source."""
    key = citing_key(docs, laws, used, rulings, rules)
    found = previous_citing(previous, key) if previous else None
    kept = found is not None and set(found.citations) == {law.id for law in laws}
    if not kept:
        resolver = resolver_for(docs, laws, used)
        inside, in_rulings = cross_references(resolver, laws), ruling_citations(resolver, rulings, rules)
        alone_not = short_citations(resolver, docs, laws, vocabulary.games())
        found = Citing({law.id: law.citation for law in laws}, inside, in_rulings, alone_not)
    for law in laws:
        law.citation = found.citations[law.id]
    return found, key, kept
