"""Understand a query: the games it names, the situations it describes, the modern words it uses.

Everything recognised comes from the vocabulary files, so a card historian corrects it there:

- **games**: a game's slug or display name, an alias (``games.toml`` ``[aliases]``) or a family name
  (``[families]``), in any case and with or without accents ("ecarte", "Écarté", "auction"); the
  longest name wins where names overlap ("auction bridge" is Auction Bridge, not Bridge);
- **situations**: the ``asked`` phrases of ``situations.toml`` (modern words, negations: "the trump
  card was not turned up"), and the books' own ``cues``, matched on the query's lemmas;
- **rewrites**: the modern words of ``search_terms.toml`` found in the query and the books' words
  search adds for them (``deck`` → ``pack``).

:func:`understand` returns an :class:`Understood`; it never raises for a query with words.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from spacy.matcher import Matcher

from .. import vocabulary
from ..situations import CUE_GAP
from ..tag import Tagger, compile_phrase
from ..text import fold


@dataclass
class Understood:
    """What a query was understood to ask. ``games``: game slugs it names (in the order named);
    ``family_games``: the other games of those games' families; ``situations``: situation ids it
    describes; ``rewrites``: ``(modern word, the books' word)`` pairs search added."""

    games: list[str] = field(default_factory=list)
    family_games: list[str] = field(default_factory=list)
    situations: list[str] = field(default_factory=list)
    rewrites: list[tuple[str, str]] = field(default_factory=list)

    def as_json(self) -> dict:
        """The ``understood`` member of the search JSON (README: "search --json")."""
        return {"games": self.games, "situations": self.situations,
                "rewrites": [list(pair) for pair in self.rewrites]}


def _key(text: str) -> str:
    """A name as compared: folded accents, lower case, words joined by single spaces."""
    return " ".join(re.findall(r"[a-z0-9]+", fold(text).lower()))


@functools.cache
def game_names() -> dict[str, tuple[str, ...]]:
    """Folded name → the game slugs it names: slugs, display names, aliases and family names."""
    names: dict[str, list[str]] = {}

    def add(name: str, games: list[str]) -> None:
        key = _key(name)
        if key:
            names.setdefault(key, [])
            names[key] += [g for g in games if g not in names[key]]

    for slug, display in vocabulary.games().items():
        if slug == "general":
            continue
        add(slug, [slug])
        add(display, [slug])
    for alias, slug in vocabulary.aliases().items():
        add(alias, [slug])
    for family, members in vocabulary.families().items():
        if _key(family) not in names:
            add(family, members)
    return {k: tuple(v) for k, v in names.items()}


_TOKEN_RE = re.compile(r"[^\W_]+")
# words that ask nothing of a game's laws beside its name: "skat rules", "the laws of écarté",
# "how to play piquet" ask for the game's laws themselves
_ONLY_THE_GAME = frozenset(["a", "an", "the", "of", "in", "at", "for", "to", "how", "play", "playing",
                            "game", "games", "rule", "rules", "law", "laws", "official"])


@functools.cache
def _everyday() -> tuple[frozenset[str], frozenset[str]]:
    """``games.toml`` ``[everyday]``: the names and the words before them, folded as names are."""
    return (frozenset(_key(n) for n in vocabulary.everyday_names()),
            frozenset(_key(w) for w in vocabulary.everyday_names_before()))


def _names(query: str) -> list[tuple[int, int, tuple[str, ...]]]:
    """``(start, end, game slugs)`` of each game name in ``query`` (character offsets), reading its
    words (accents folded, any case) left to right, the longest name first where names overlap; a
    name that is an everyday word too (``games.toml`` ``[everyday]``) only where it opens the
    query or follows one of its ``before`` words."""
    tokens = [m for m in _TOKEN_RE.finditer(query) if _key(m.group())]
    keys = [_key(m.group()) for m in tokens]
    names = game_names()
    longest = max((len(k.split()) for k in names), default=1)
    everyday, before = _everyday()
    found: list[tuple[int, int, tuple[str, ...]]] = []
    i = 0
    while i < len(keys):
        for n in range(min(longest, len(keys) - i), 0, -1):
            name = " ".join(keys[i : i + n])
            games = names.get(name)
            if games and name in everyday and i > 0 and keys[i - 1] not in before:
                games = None  # "I put my cards down", "no hearts left": the word, not the game
            if games:
                found.append((tokens[i].start(), tokens[i + n - 1].end(), games))
                i += n
                break
        else:
            i += 1
    return found


def games_named(query: str) -> list[str]:
    """Game slugs the query names, longest names first where they overlap, in query order."""
    return list(dict.fromkeys(g for _, _, games in _names(query) for g in games))


def without_game_names(query: str) -> str:
    """What a query asks once the games it names are set aside: the query as typed with the names
    (and a possessive "'s" after one) taken out, or the query itself when it names games only
    ("skat", "the rules of skat") or none: "ÉCARTÉ: the dealer didn't turn up a card" → "the
    dealer didn't turn up a card". "skat revoke" asks "revoke" of skat's laws: the word "skat"
    would also find every law on the skat (the two cards laid aside), and a query's vector leans
    to the game's words rather than the situation. Searching the rest and ranking the named game's
    laws first lifted the cross-validated nDCG@10 of the 127 training queries naming a game from
    0.686 to 0.751 (all 419: 0.723 to 0.743)."""
    rest, last = [], 0
    for start, end, _ in _names(query):
        possessive = re.match(r"['’]s\b", query[end:])
        rest.append(query[last:start])
        last = end + (possessive.end() if possessive else 0)
    if not last:
        return query
    rest_text = " ".join(("".join(rest) + query[last:]).split()).strip(" :;,.-–—!?")
    return rest_text if set(_key(rest_text).split()) - _ONLY_THE_GAME else query


def family_games(games: list[str]) -> list[str]:
    """The other games of the families of ``games``."""
    out: list[str] = []
    for game in games:
        family = vocabulary.family_of(game)
        out += [g for g in vocabulary.families().get(family, []) if g not in games and g not in out]
    return out


def _begins(word: str, stem: str) -> bool:
    """Whether ``word`` is a form of a starred key's ``stem``: it begins with it, or with it less
    a final e before -ing ("renege*": reneges, reneged, reneging; "score*": scoring)."""
    return word.startswith(stem) or (stem.endswith("e") and word.startswith(stem[:-1] + "ing"))


@functools.cache
def _keys() -> tuple[tuple[str, str, re.Pattern | None, tuple[str, ...]], ...]:
    """Each key of ``search_terms.toml`` as (key, how it matches, its pattern, the books' words),
    the patterns compiled once (Python's own cache of 512 patterns is too small for the
    vocabulary's keys and every query recompiled them)."""
    out = []
    for key, values in vocabulary.search_terms():
        if " " in key:  # whole words ("side pot" and "side pots", never "side potatoes")
            parts = [re.escape(w[:-1]) + r"[^ ]*" if w.endswith("*") else re.escape(w) for w in key.split()]
            end = "" if key.endswith("*") else r"(?:s|es)?(?= |$)"
            out.append((key.replace("*", ""), "words", re.compile(rf"(?:^| ){' '.join(parts)}{end}"), values))
        elif key.endswith("*"):
            out.append((key[:-1], "stem", None, values))
        else:
            out.append((key, "word", None, values))
    return tuple(out)


def rewrites(query: str, query_words: list[str], keep_same: bool = False) -> list[tuple[str, str]]:
    """``(modern word, the books' word)`` for each ``search_terms.toml`` key the query has (a
    books' word the same as the query's is left out unless ``keep_same``). A key of several words
    matches them whole, side by side (a final -s or -es allowed; a word of it ending in * any word
    beginning so: "change* my mind" is "changed my mind" too); a starred key, any word that
    :func:`_begins` with it; any other key, the same word."""
    found = _rewrites(tuple(query_words))  # asked twice a search: for the words searched and what was understood
    return list(found) if keep_same else [(w, v) for w, v in found if v != w]


@functools.lru_cache(maxsize=1024)
def _rewrites(query_words: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """:func:`rewrites` of these words, a books' word the same as the query's kept."""
    joined = " ".join(query_words)
    present = set(query_words)
    out: list[tuple[str, str]] = []
    for key, how, pattern, values in _keys():
        if how == "words":
            word = key if pattern.search(joined) else None
        elif how == "stem":
            word = next((w for w in query_words if _begins(w, key)), None)
        else:
            word = key if key in present else None
        if word:
            out += [(word, v) for v in values if (word, v) not in out]
    return tuple(out)


class SituationReader:
    """Recognises the situations a query describes (``asked`` and ``cues`` of ``situations.toml``).
    Raises :class:`~ingest.models.CorpusError` naming the file and entry for a malformed phrase.

    The laws' cue phrases are broad for a query ("show ... card" reads "he showed his cards" as
    declaring-scores, "point" reads "dummy may point out" as scoring). Tried on 2026-12-02 and not
    adopted: the ``asked`` phrases alone, ranked nDCG@10 0.711 against 0.714 (5-fold CV, 1,299
    queries): the ranker weighs the cues' guesses as one signal among others."""

    def __init__(self, tagger: Tagger) -> None:
        self.nlp = tagger.nlp
        self.matcher = Matcher(self.nlp.vocab, validate=True)
        path = vocabulary.FOLDER / "situations.toml"
        for s in vocabulary.situations():
            patterns = []
            for phrase in (*s.asked, *s.cues):
                try:
                    patterns.append(compile_phrase(self.nlp, phrase, gap=CUE_GAP))
                except ValueError as e:
                    raise vocabulary.VocabularyError(f"{path}: {s.id!r}, phrase {phrase!r}: {e}") from None
            self.matcher.add(s.id, patterns)

    def read(self, query: str) -> list[str]:
        """Situation ids the query describes, most specific (longest match) first."""
        doc = self.nlp(query, disable=["span_ruler"])  # lemmas are all the patterns need, not the entities
        spans: dict[str, int] = {}
        for match_id, start, end in self.matcher(doc):
            key = self.nlp.vocab.strings[match_id]
            spans[key] = max(spans.get(key, 0), end - start)
        return sorted(spans, key=lambda k: (-spans[k], k))


def understand(query: str, query_words: list[str], reader: SituationReader) -> Understood:
    """What ``query`` (with its lower-case ``query_words``) asks, from the vocabulary files."""
    games = games_named(query)
    return Understood(games=games, family_games=family_games(games), situations=reader.read(query),
                      rewrites=rewrites(query, query_words))
