"""Situations: propose the situations a law decides and the remedies it gives, from cue phrases.

:class:`SituationTagger` matches the cue phrases of ``vocabulary/situations.toml`` (the phrase
language of ``entities.toml``, compiled with :func:`ingest.tag.compile_phrase`) in a law's own
text. A law is tagged with a situation when a cue for it is there; its score is the number of
cue matches. Remedies are tagged the same way, with the words that say them. Shared by the build
(every law is tagged) and by queries (a query is tagged too).
"""

from __future__ import annotations

from pathlib import Path

from spacy.matcher import Matcher
from spacy.tokens import Doc

from . import vocabulary
from .models import CorpusError, Decision
from .tag import Tagger, compile_phrase

# in a situation cue, "..." spans up to six words and may cross a comma ("If, in dealing, a card be
# exposed"), not the end of a sentence or clause
CUE_GAP = {"ORTH": {"NOT_IN": [".", ";", ":", "!", "?"]}, "OP": "{0,6}"}
# (The cue matcher takes about 2 s of a new database's build. An unbounded gap, "OP": "*", took 1.56 s
# against 2.05 s on the 1,540 laws on 2026-12-02, but matches more (5,731 matches against 5,059):
# not adopted. The tagging now runs beside the vectors, in a second process: ingest.build.aside.)


class SituationTagger:
    """Tags laws with situations and remedies. Raises :class:`CorpusError` naming the file and
    the entry for a malformed vocabulary or cue."""

    def __init__(self, tagger: Tagger, folder: Path = vocabulary.FOLDER) -> None:
        self.nlp = tagger.nlp
        self.situations = list(vocabulary.situations(folder))
        self.remedies = list(vocabulary.remedies(folder))
        self.situation_matcher = Matcher(self.nlp.vocab, validate=True)
        self.remedy_matcher = Matcher(self.nlp.vocab, validate=True)
        path = folder / "situations.toml"
        for s in self.situations:
            self.situation_matcher.add(s.id, [self._compile(path, s.id, cue) for cue in s.cues])
        for remedy, cues in vocabulary.remedies(folder).items():
            self.remedy_matcher.add(remedy, [self._compile(path, remedy, cue) for cue in cues])

    def _compile(self, path: Path, owner: str, cue: str) -> list[dict]:
        try:
            return compile_phrase(self.nlp, cue, gap=CUE_GAP)
        except ValueError as e:
            raise CorpusError(f"{path}: {owner!r}, cue {cue!r}: {e}") from None

    def decide(self, doc: Doc) -> Decision:
        """The :class:`Decision` of a Doc the entity tagger's pipeline made (lemmas set)."""
        situations: dict[str, int] = {}
        spans: dict[str, tuple[int, int]] = {}
        for match_id, start, end in sorted(self.situation_matcher(doc), key=lambda m: m[1]):
            key = self.nlp.vocab.strings[match_id]
            situations[key] = situations.get(key, 0) + 1
            spans.setdefault(key, (doc[start].idx, doc[end - 1].idx + len(doc[end - 1])))
        remedies: dict[str, str] = {}
        for match_id, start, end in sorted(self.remedy_matcher(doc), key=lambda m: m[1]):
            key = self.nlp.vocab.strings[match_id]
            if key not in remedies:
                remedies[key] = doc[start:end].text
                spans[f"remedy:{key}"] = (doc[start].idx, doc[end - 1].idx + len(doc[end - 1]))
        return Decision(situations, remedies, spans)
