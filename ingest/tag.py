"""Tag: mark card-law entities (dealer, elder hand, stock, trump card, misdeal, revoke …) in laws.

The pipeline is ``spacy.blank("en")`` with three components, all registered by name:

1. ``lemmatizer`` in lookup mode, its table from ``spacy-lookups-data`` (installed, offline);
2. ``cardlaws_lemmas``: corrects that table for the law books: case ("Dealer" is not in the
   table, "dealer" is), words the table gets wrong for cards (it turns "elder" into "old"; see
   ``vocabulary/lemmas.toml``) and archaic verbs in "-eth" ("turneth" → "turn");
3. ``span_ruler``: the phrases of ``vocabulary/entities.toml`` compiled to token patterns.

:class:`Tagger` loads the vocabulary once; :meth:`Tagger.tag` returns :class:`Mention` lists whose
offsets are character offsets into the text given.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import spacy
from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.util import filter_spans

from . import vocabulary
from .models import CorpusError, Mention

SPANS_KEY = "cardlaws"
_GAP = {"ORTH": {"NOT_IN": [".", ",", ";", ":", "!", "?"]}, "OP": "{0,4}"}
_HYPHEN = {"ORTH": {"IN": ["-", "--", "—"]}, "OP": "?"}


@Language.factory("cardlaws_lemmas", default_config={"overrides": {}})
def make_lemma_fixer(nlp: Language, name: str, overrides: dict[str, str]):
    """The ``cardlaws_lemmas`` component: lower-case lemmas, corrected for the law books."""
    return LemmaFixer(nlp, overrides)


class LemmaFixer:
    """Sets ``token.lemma_`` to a lower-case dictionary form.

    Order: ``overrides`` (lower-case form → lemma); the lookup table on the lower-cased word when
    the cased word was not in it; for a word ending in "-eth" unknown to the table, its stem
    (``turneth`` → ``turn``, ``giveth`` → ``give``) when the stem is a known word.
    """

    def __init__(self, nlp: Language, overrides: dict[str, str]):
        self.overrides = {k.lower(): v.lower() for k, v in overrides.items()}
        self.table = {}  # spaCy lookup Table: word form → lemma
        self.known: set[str] = set()

    def initialize(self, get_examples=None, *, nlp: Language | None = None) -> None:
        from spacy.lookups import load_lookups

        lemmatizer = nlp.get_pipe("lemmatizer") if nlp and "lemmatizer" in nlp.pipe_names else None
        if lemmatizer is not None:
            self.table = lemmatizer.lookups.get_table("lemma_lookup")
        index = load_lookups("en", ["lemma_index"]).get_table("lemma_index")
        self.known = set(index.get("verb", []))

    def _lemma(self, low: str, current: str) -> str:
        if low in self.overrides:
            return self.overrides[low]
        if self.table.get(low) is not None:
            return self.table.get(low).lower()
        if low.endswith("eth") and len(low) > 5 and current.lower() == low:
            stem = low[:-3]
            for cand in (stem, stem + "e", stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else ""):
                if cand and cand in self.known:
                    return self.table.get(cand, cand).lower()
        return current.lower()

    def __call__(self, doc: Doc) -> Doc:
        for tok in doc:
            current = tok.lemma_ or tok.text
            if current == tok.text or tok.lower_ in self.overrides:
                tok.lemma_ = self._lemma(tok.lower_, current)
            else:
                tok.lemma_ = current.lower()
        return doc


def compile_phrase(nlp: Language, phrase: str, gap: dict | None = None) -> list[dict]:
    """Token pattern (spaCy ``Matcher`` syntax) for one phrase of the mini-language described at
    the top of ``entities.toml``. ``nlp`` lemmatizes the phrase's words as law text is lemmatized.

    ``gap`` replaces the token pattern ``...`` stands for. Raises :class:`ValueError` for an empty
    phrase or an alternative mixing ``~`` and plain words.
    """
    gap_token = gap or _GAP
    pattern: list[dict] = []

    def add(token: dict) -> None:
        # words next to each other may also be joined by a hyphen ("trump card", "trump-card")
        if pattern and pattern[-1] is not gap_token and token is not gap_token:
            pattern.append(_HYPHEN)
        pattern.append(token)

    if not phrase.split():
        raise ValueError("empty phrase")
    for word in phrase.split():
        alts = word.split("|")
        exact = [a.startswith("~") for a in alts]
        if word == "...":
            add(gap_token)
        elif any(exact) and not all(exact):
            raise ValueError(f"{word!r} mixes ~exact and plain words")
        elif all(exact):
            add({"LOWER": {"IN": [a[1:].lower() for a in alts]}})
        elif len(alts) > 1:
            add({"LEMMA": {"IN": sorted({t.lemma_ for a in alts for t in nlp(a) if t.text != "-"})}})
        else:
            # one plain word may be several tokens: "adversary's", "turn-up"
            for tok in nlp(word.replace("-", " ")):
                add({"LEMMA": tok.lemma_})
    return [dict(t) for t in pattern]


class Tagger:
    """The entity tagger: loads the vocabulary and builds the spaCy pipeline once.

    Raises :class:`CorpusError` if a vocabulary file is malformed.
    """

    def __init__(self, folder: Path = vocabulary.FOLDER):
        entries = vocabulary.entities(folder)
        self.folder = folder
        self.entities = [e.entity for e in entries]
        self.yields_to = {e.entity.id: list(e.yields_to) for e in entries}
        phrases = {e.entity.id: list(e.phrases) for e in entries}
        # the phrases a search can add to a query that names the entity: plain words only
        self.plain_phrases = {eid: [p for p in items if not any(ch in p for ch in "~|.")] for eid, items in phrases.items()}
        nlp = spacy.blank("en")
        nlp.max_length = 20_000_000  # a blank pipeline tags long laws without a parser's memory cost
        nlp.add_pipe("lemmatizer", config={"mode": "lookup"})
        nlp.add_pipe("cardlaws_lemmas", config={"overrides": vocabulary.lemmas(folder)})
        nlp.initialize()
        patterns = []
        for eid, items in phrases.items():
            for phrase in items:
                try:
                    patterns.append({"label": eid, "pattern": compile_phrase(nlp, phrase)})
                except ValueError as e:
                    raise CorpusError(f"{folder / 'entities.toml'}: entity {eid!r}, phrase {phrase!r}: {e}") from None
        ruler = nlp.add_pipe("span_ruler", config={"spans_key": SPANS_KEY, "validate": True})
        ruler.add_patterns(patterns)
        self.nlp = nlp

    def mentions(self, doc: Doc) -> list[Mention]:
        """The entity mentions in a Doc this tagger's pipeline made, in order of offset."""
        by_label: dict[str, list[Span]] = {}
        for span in doc.spans[SPANS_KEY]:
            by_label.setdefault(span.label_, []).append(span)
        kept = {label: filter_spans(spans) for label, spans in by_label.items()}
        mentions = []
        for label, spans in kept.items():
            winners = [s for other in self.yields_to.get(label, []) for s in kept.get(other, [])]
            for span in spans:
                if any(w.start < span.end and span.start < w.end for w in winners):
                    continue
                mentions.append(Mention(label, span.start_char, span.end_char, span.text))
        return sorted(mentions, key=lambda m: (m.start, m.end, m.entity_id))

    def tag(self, texts: Iterable[str], batch_size: int = 256) -> Iterator[list[Mention]]:
        """For each text, its entity mentions in order of offset."""
        for doc in self.nlp.pipe(texts, batch_size=batch_size):
            yield self.mentions(doc)
