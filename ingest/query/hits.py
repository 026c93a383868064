"""Hits: the records a search answers with — one ranked law (:class:`Hit`) and a query's whole
answer (:class:`Answer`), with the one JSON shape of ``/-/search.json`` and ``cardlaws search --json``."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..citation import law_label
from .understand import Understood


@dataclass
class Hit:
    """One ranked law. ``score`` is the fused (or BM25, or cosine) score, higher is better;
    ``matched`` the query or expansion words found in the law; ``entities`` the entities it shares
    with the query; ``asked`` the law's plain question nearest the query, when it is near enough
    (ranked mode)."""

    id: str
    game: str
    game_name: str
    source: str
    source_title: str
    number: str
    kind: str
    text: str
    score: float
    snippet: str
    matched: list[str] = field(default_factory=list)
    entities: list[str] = field(default_factory=list)
    parent_number: str | None = None
    numbered: bool = True
    asked: str | None = None
    citation: str | None = None  # the law's short citation, unique among the books' laws

    @property
    def title(self) -> str:
        """What a list of results calls the law: its short citation ("Whist law 2 (Hoffmann 1909,
        Dummy Whist)", so two codes' law 2 differ), else its label."""
        return self.citation or self.label

    @property
    def label(self) -> str:
        """``Whist law 29 (I)``, ``Poker law 11``, ``Whist etiquette 3``."""
        return law_label(self.kind, self.id, self.game_name, self.numbered)

    def as_json(self) -> dict:
        """The contract of ``cardlaws search --json`` (README: "search --json"), plus why it matched."""
        return {"id": self.id, "game": self.game, "source": self.source, "number": self.number,
                "score": round(self.score, 6), "snippet": self.snippet, "matched": self.matched,
                "entities": self.entities, "asked": self.asked}


@dataclass
class Answer:
    """A query's answer: what it was understood to ask, the laws that answer it, best first, and,
    when none scores high enough, the ``nearest`` laws offered instead."""

    query: str
    understood: Understood
    results: list[Hit]
    nearest: list[Hit] = field(default_factory=list)

    def as_json(self) -> dict:
        """The one JSON shape of ``/-/search.json`` and ``cardlaws search --json`` (README)."""
        return {"query": self.query, "understood": self.understood.as_json(),
                "results": [h.as_json() for h in self.results], "nearest": [h.as_json() for h in self.nearest]}
