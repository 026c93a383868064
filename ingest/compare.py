"""Compare: tag each law with the situations it decides and the remedies it gives, and find its
parallels in other games and other editions.

- :class:`SituationTagger` matches the cue phrases of ``vocabulary/situations.toml`` (the phrase
  language of ``entities.toml``, compiled with :func:`ingest.tag.compile_phrase`) in a law's own
  text. A law is tagged with a situation when a cue for it is there; its score is the number of
  cue matches. Remedies are tagged the same way, with the text that says them.
- :func:`parallels` ranks, for every law, the laws nearest to it by sentence vector: five in other
  games and three in other books of the same game (cosine similarity, numpy).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from spacy.matcher import Matcher

from .models import CorpusError
from .paths import VOCABULARY
from .tag import Tagger, compile_phrase


# in a situation cue, "..." spans up to six words and may cross a comma ("If, in dealing, a card be
# exposed"), not the end of a sentence or clause
CUE_GAP = {"ORTH": {"NOT_IN": [".", ";", ":", "!", "?"]}, "OP": "{0,6}"}


@dataclass(frozen=True)
class Situation:
    """An entry of ``situations.toml``."""

    id: str
    label: str
    description: str


@dataclass
class Decision:
    """What one law decides: ``situations`` (id → number of cue matches) and ``remedies``
    (id → the words that say it)."""

    situations: dict[str, int]
    remedies: dict[str, str]


class SituationTagger:
    """Tags laws with situations and remedies. Raises :class:`CorpusError` naming the file and
    the entry for a malformed vocabulary."""

    def __init__(self, tagger: Tagger, path: Path = VOCABULARY / "situations.toml") -> None:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as e:
            raise CorpusError(f"{path}: malformed TOML: {e}") from None
        self.nlp = tagger.nlp
        self.situations: list[Situation] = []
        self.situation_matcher = Matcher(self.nlp.vocab, validate=True)
        self.remedy_matcher = Matcher(self.nlp.vocab, validate=True)
        for i, s in enumerate(data.get("situation", []), start=1):
            for key in ("id", "label", "description", "cues"):
                if key not in s:
                    raise CorpusError(f"{path}: situation[{i}] ({s.get('id', '?')}) lacks {key!r}")
            self.situations.append(Situation(s["id"], s["label"], s["description"]))
            self.situation_matcher.add(s["id"], [self._compile(path, s["id"], cue) for cue in s["cues"]])
        self.remedies = list(data.get("remedies", {}))
        for remedy, cues in data.get("remedies", {}).items():
            self.remedy_matcher.add(remedy, [self._compile(path, remedy, cue) for cue in cues])

    def _compile(self, path: Path, owner: str, cue: str) -> list[dict]:
        try:
            return compile_phrase(self.nlp, cue, gap=CUE_GAP)
        except ValueError as e:
            raise CorpusError(f"{path}: {owner!r}, cue {cue!r}: {e}") from None

    def decide(self, doc) -> Decision:
        """The :class:`Decision` of a Doc the entity tagger's pipeline made (lemmas set)."""
        situations: dict[str, int] = {}
        for match_id, _, _ in self.situation_matcher(doc):
            key = self.nlp.vocab.strings[match_id]
            situations[key] = situations.get(key, 0) + 1
        remedies: dict[str, str] = {}
        for match_id, start, end in sorted(self.remedy_matcher(doc), key=lambda m: m[1]):
            remedies.setdefault(self.nlp.vocab.strings[match_id], doc[start:end].text)
        return Decision(situations, remedies)

    def tag(self, texts: Iterable[str], batch_size: int = 256) -> Iterator[Decision]:
        """A :class:`Decision` for each text, in order."""
        for doc in self.nlp.pipe(texts, batch_size=batch_size, disable=["span_ruler"]):
            yield self.decide(doc)


def parallels(vectors: dict[str, bytes], games: dict[str, str], sources: dict[str, str],
              other_games: int = 5, same_game: int = 3) -> list[tuple[str, str, float, str]]:
    """``(law_id, other_id, score, kind)`` rows: each law's nearest laws by cosine similarity,
    ``other_games`` of them in other games (kind ``other-game``) and ``same_game`` in other books
    of its own game (kind ``other-edition``). ``games``/``sources`` map law id → game / source."""
    ids = sorted(vectors)
    if not ids:
        return []
    matrix = np.frombuffer(b"".join(vectors[i] for i in ids), dtype=np.float32).reshape(len(ids), -1)
    game = np.array([games[i] for i in ids], dtype=object)
    source = np.array([sources[i] for i in ids], dtype=object)
    rows = []
    for start in range(0, len(ids), 256):
        block = matrix[start : start + 256] @ matrix.T
        for k, scores in enumerate(block):
            i = start + k
            for kind, keep, n in (("other-game", game != game[i], other_games),
                                  ("other-edition", (game == game[i]) & (source != source[i]), same_game)):
                masked = np.where(keep, scores, -np.inf)
                top = np.argsort(-masked)[:n]
                rows += [(ids[i], ids[j], float(masked[j]), kind) for j in top if np.isfinite(masked[j])]
    return rows
