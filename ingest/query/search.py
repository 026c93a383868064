"""Search laws across games: full-text (FTS5 BM25), sentence vectors, and both fused.

:class:`Searcher` opens a built database read-only. :meth:`Searcher.search` ranks laws for a
query in one of three modes:

- ``lexical``: FTS5 BM25 over text (weight 1) and note (0.5) for an OR of the query's words,
  the modern words' law equivalents (``vocabulary/search_terms.toml``) and the phrases of the
  entities the query names (``vocabulary/entities.toml``), plus the query's words NEAR each other;
- ``dense``: cosine similarity of the query's vector to each law's (numpy, over the vectors the
  build stored; no SQLite extension);
- ``hybrid``: reciprocal rank fusion (k = 60) of the two top-100 lists;
- ``ranked`` (the default): the learned ranker (:mod:`ingest.query.rank`) over the candidates of
  both lists (and of the games the query names), with what the query was understood to ask
  (:mod:`ingest.query.understand`); a list whose best law scores under the ranker's threshold is
  not answered: its laws are offered as the ``nearest`` instead.

Filters (game, source, kind) apply before ranking. A law of an excerpt that is also in its book
(``witness_of``) is shown once, as the book's law. Raises :class:`QueryError` for a query with no
words.
"""

from __future__ import annotations

import functools
import json
import re
import sqlite3
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import numpy as np

from .. import vocabulary
from ..embed import load_embedder, one_blas_thread
from ..text import fold, normalise
from .adapter import AdapterError, QueryAdapter
from .cache import per_database
from .hits import Answer, Hit
from .rank import TOPIC_WORDS, AskedLists, LawFacts, QueryContext, Ranker, RankerError, features, named_first, term_stem
from .understand import SituationReader, Understood, rewrites, understand, without_game_names
from .vectors import QuestionIndex, VectorIndex
from .wording import BooksWords

MODES = ("ranked", "hybrid", "lexical", "dense")
NEAREST = 3
PER_GAME = 30
RRF_K = 60
CANDIDATES = 100
COMMON_SHARE = 0.25
MAX_QUERY_CHARS = 1000
MAX_QUERY_WORDS = 40
MAX_LIMIT = 200  # laws an answer may list
_WORD_RE = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)
STOPWORDS = frozenset(
    ["a", "an", "the", "of", "to", "in", "on", "at", "by", "for", "with", "and", "or", "but", "is", "are", "was", "were", "be", "been", "being", "it", "its", "this", "that", "these", "those", "he", "she", "they", "his", "her", "their", "i", "you", "we", "what", "when", "who", "whom", "which", "how", "if", "do", "does", "did", "not", "no", "can", "could", "should", "would", "will", "shall", "may", "might", "must", "has", "have", "had", "as", "from", "than", "then", "there", "so", "up", "down", "out", "my", "your", "our", "about", "into", "over", "after", "before", "again", "any", "some", "all"]
) - {"up", "down", "out", "before", "again", "not", "no"}


_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="cardlaws-search")


class QueryError(ValueError):
    """A query that cannot be searched (no words)."""


class ModeUnavailable(QueryError):
    """The mode asked for cannot run on this installation (the ranker's or the adapter's file is
    missing or damaged; a database without vectors): the server's fault, not the query's."""


def words(text: str) -> list[str]:
    """Lower-case words of a query, without possessive or negative endings (``King's`` → ``king``,
    ``wasn't`` → ``was``)."""
    out = []
    for w in _WORD_RE.findall(text.lower().replace("’", "'")):
        w = re.sub(r"(?:'s|n't|'t|'re|'ll|'d|'ve)$", "", w)
        out.append(w.replace("'", ""))
    return [w for w in out if w]


def expand(query: str) -> list[str]:
    """Law-book words for the modern words in ``query`` (``search_terms.toml``), in order."""
    return list(dict.fromkeys(v for _, v in rewrites(query, words(query), keep_same=True)))


def _fts_phrase(text: str) -> str | None:
    toks = [t for t in re.findall(r"[^\W_]+", text.lower())]
    return '"' + " ".join(toks) + '"' if toks else None


@functools.lru_cache(maxsize=4096)
def _term_re(term: str) -> re.Pattern:
    return re.compile(rf"\b{re.escape(term_stem(term))}")


def _snippet(text: str, terms: list[str], width: int = 220) -> tuple[str, list[str]]:
    """A window of ``text`` around the first matched term, and the terms that match (a term
    matches a word that begins with its first five letters: a rough stem)."""
    low = text.lower()
    found, first = [], len(text)
    for term in dict.fromkeys(terms):
        m = _term_re(term).search(low)
        if m:
            found.append(term)
            first = min(first, m.start())
    if first == len(text) or len(text) <= width:
        start = 0
    else:
        start = max(0, text.rfind(" ", 0, max(0, first - 60)) + 1)
    snippet = text[start : start + width].strip()
    if start > 0:
        snippet = "…" + snippet
    if start + width < len(text):
        snippet = snippet.rsplit(" ", 1)[0] + "…"
    return snippet, found


class Searcher:
    """Search over one built database (opened read-only). Loading takes the law vectors into
    memory (about 1.5 KB a law) and, on first dense query, the embedding model (under 1 s). A
    process that makes a searcher runs BLAS on one thread (:func:`one_blas_thread`)."""

    def __init__(self, db_path: Path, model: str | None = None) -> None:
        one_blas_thread()
        self.db_path = Path(db_path)
        self.conn = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True, check_same_thread=False)
        self.conn.row_factory = sqlite3.Row
        stored = self.conn.execute("select model from law_embeddings limit 1").fetchone() if self._has_vectors() else None
        self.model = model or (stored[0] if stored else None)
        self.index = VectorIndex(self.conn, self.model) if self.model else None
        self.questions = QuestionIndex(self.conn, self.model, self.index) if self.index else None
        self._tagger = None
        self._df: dict[str, int] = {}
        self.games = {r[0] for r in self.conn.execute("select slug from games")}
        self.sources = {r[0] for r in self.conn.execute("select distinct source from laws")}
        self.kinds = {r[0] for r in self.conn.execute("select distinct kind from laws")}
        self.law_count = self.conn.execute("select count(*) from laws").fetchone()[0]
        self.facts = LawFacts(self.conn)
        self.wording = BooksWords(self.conn, ((row, self.facts.text[law_id]) for law_id, row in
                                              (self.index.position.items() if self.index is not None else ())), words)
        # the ranked mode needs both; without either it says why, and the other modes work
        self.ranker: Ranker | None = None
        self.adapter: QueryAdapter | None = None
        self.not_ranked = ""
        try:
            self.adapter = QueryAdapter.load(self.model) if self.model else None
            self.ranker = Ranker.load()
        except (RankerError, AdapterError) as e:
            self.not_ranked = str(e)
        self._reader: SituationReader | None = None
        self._situation_vectors: tuple[list[str], np.ndarray] | None = None

    def _has_vectors(self) -> bool:
        return self.conn.execute("select 1 from sqlite_master where name = 'law_embeddings'").fetchone() is not None

    @property
    def tagger(self):
        if self._tagger is None:
            from ..tag import Tagger

            self._tagger = Tagger()
        return self._tagger

    @property
    def reader(self) -> SituationReader:
        if self._reader is None:
            self._reader = SituationReader(self.tagger)
        return self._reader

    def situation_vectors(self) -> tuple[list[str], np.ndarray]:
        """Situation ids and the vectors of their labels and descriptions (made on first use)."""
        if self._situation_vectors is None:
            entries = vocabulary.situations()
            vectors = load_embedder(self.model).encode([f"{s.label}. {s.description}" for s in entries])
            self._situation_vectors = ([s.id for s in entries], vectors)
        return self._situation_vectors

    def query_terms(self, query: str) -> tuple[list[str], list[str], list[str]]:
        """``(query words, expansion terms, entity ids)`` for a query."""
        ws = list(dict.fromkeys(w for w in words(query) if w not in STOPWORDS))
        extra = expand(query)
        # the words alone: "NEAR(dealer" is the dealer, as "dealer" is
        (mentions,) = list(self.tagger.tag([" ".join([*words(query), *extra])]))
        entities = sorted({m.entity_id for m in mentions})
        for m in mentions:  # the entity's own words, as the books print them
            extra += [p for p in self.tagger.plain_phrases.get(m.entity_id, []) if p not in extra]
        return ws, extra, entities

    def doc_frequency(self, phrase: str) -> int:
        """How many laws contain ``phrase`` (an FTS5 phrase), cached."""
        if phrase not in self._df:
            self._df[phrase] = self.conn.execute(
                "select count(*) from laws_fts where laws_fts match ?", [f"{{text note}} : {phrase}"]).fetchone()[0]
        return self._df[phrase]

    def _lexical(self, ws, extra, limit, game=None, source=None, kind=None, games=(),
                 questions: bool = False) -> list[tuple[str, float]]:
        """``(law id, BM25)`` best first: over the laws' own words (text, note), or over the plain
        questions they answer and the accounts of what happened they rule on (``questions``)."""
        phrases = [p for p in (_fts_phrase(t) for t in dict.fromkeys([*ws, *extra])) if p]
        # a word in over a quarter of the laws ("card") adds almost nothing to BM25 but makes every
        # law a candidate to score: leave it out while rarer words remain
        rare = [p for p in phrases if " " in p or self.doc_frequency(p) <= COMMON_SHARE * self.law_count]
        phrases = rare or phrases
        if not phrases:
            return []
        match = " OR ".join(phrases)
        if len(ws) > 1:
            match += " OR NEAR(" + " ".join(_fts_phrase(w) for w in ws) + ", 12)"
        # the laws' own words (text, note): what they decide (topics) is the ranker's to weigh, not BM25's
        weights, columns = (("0.0, 0.0, 0.0, 1.0, 1.0", "questions accounts") if questions
                            else ("1.0, 0.5, 0.0, 0.0, 0.0", "text note"))
        sql = (f"select l.id, bm25(laws_fts, {weights}) as rank from laws_fts join laws l on l.rowid = laws_fts.rowid "
               "where laws_fts match ? and l.witness_of is null")
        params: list = [f"{{{columns}}} : ({match})"]
        for col, value in (("game", game), ("source", source), ("kind", kind)):
            if value:
                sql += f" and l.{col} = ?"
                params.append(value)
        if games:
            sql += f" and l.game in ({','.join('?' * len(games))})"
            params += list(games)
        sql += " order by rank limit ?"
        params.append(limit)
        return [(r[0], -r[1]) for r in self.conn.execute(sql, params)]

    def dense(self, query: str, limit: int = CANDIDATES, game=None, source=None, kind=None) -> list[tuple[str, float]]:
        if self.index is None:
            return []
        vector = load_embedder(self.model).encode([query])[0]
        return self.index.nearest(vector, limit, self.index.mask(game, source, kind))

    def similar(self, law_id: str, limit: int = 5, other_games: bool = True) -> list[tuple[str, float]]:
        """Laws most like ``law_id`` (in other games when ``other_games``), best first."""
        if self.index is None:
            return []
        row = self.conn.execute("select coalesce(witness_of, id), game from laws where id = ?", [law_id]).fetchone()
        if row is None or row[0] not in self.index.position:
            return []
        vector = self.index.matrix[self.index.position[row[0]]]
        keep = self.index.mask(exclude_game=row[1] if other_games else None)
        if keep is None:
            keep = np.ones(len(self.index.ids), dtype=bool)
        keep[self.index.position[row[0]]] = False
        return self.index.nearest(vector, limit, keep)

    def search(self, query: str, mode: str = "ranked", limit: int = 20, game: str | None = None,
               source: str | None = None, kind: str | None = None) -> list[Hit]:
        """Ranked laws for ``query``, best first (:meth:`answer`'s results). Raises
        :class:`QueryError` for an empty query and :class:`ValueError` for an unknown mode."""
        return self.answer(query, mode, limit, game, source, kind).results

    def answer(self, query: str, mode: str = "ranked", limit: int = 20, game: str | None = None,
               source: str | None = None, kind: str | None = None) -> Answer:
        """The :class:`Answer` to ``query`` (at most ``limit`` results, 1 to ``MAX_LIMIT``). Raises
        :class:`QueryError` for an empty or too long query, a limit that is not a whole number from 1
        to ``MAX_LIMIT``, an unknown game (its slug, in any case or accent), source or kind, or a
        database without vectors (dense and ranked modes), and :class:`ValueError` for an unknown
        mode."""
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}")
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
            raise QueryError(f"limit: give a whole number from 1 to {MAX_LIMIT}")
        query = query.encode("utf-8", "replace").decode("utf-8")  # a lone surrogate becomes "?"
        query = normalise(query)  # as the laws' text is: "dea\u00adler" finds "dealer"
        if not words(query):
            raise QueryError("the query has no words to search for")
        if len(query) > MAX_QUERY_CHARS or len(set(words(query))) > MAX_QUERY_WORDS:
            raise QueryError(f"the query is too long ({MAX_QUERY_CHARS} characters and {MAX_QUERY_WORDS} different words at most)")
        game = fold(game).strip().lower() if game else game  # "Poker", "Écarté": the slugs poker, ecarte
        if game and game not in self.games:
            raise QueryError(f"game: no such game (games: {', '.join(sorted(self.games))})")
        if kind and kind not in self.kinds:
            raise QueryError(f"kind: no such kind of law (kinds: {', '.join(sorted(self.kinds))})")
        if source and source not in self.sources:
            raise QueryError(f"source: no such source with laws (sources: {', '.join(sorted(self.sources))})")
        if mode in ("dense", "ranked") and self.index is None:
            raise ModeUnavailable("this database has no law vectors: build it again (cardlaws build)")
        if mode == "ranked" and (self.ranker is None or self.adapter is None):
            raise ModeUnavailable(f"the ranked mode is not available ({self.not_ranked}): "
                                  "use the hybrid mode (--mode hybrid; mode=hybrid on the site)")
        # the query's vector is computed in another thread (numpy releases the GIL) while this one
        # reads the query's words, entities and situations (spaCy) and runs its full-text searches
        # the ranked mode searches what is asked of the games a query names, their names set aside
        # (they rank those games' laws first); the other modes search the query's every word
        searched = without_game_names(query) if mode == "ranked" else query
        vector = _POOL.submit(self.query_vector, searched) if mode == "ranked" else None
        ws, extra, entities = self.query_terms(searched)
        understood = understand(query, words(query), self.reader)
        filters = {"game": game, "source": source, "kind": kind}
        if mode == "ranked":
            ids, x, _ = self.candidates(searched, ws, extra, entities, understood, filters, vector=vector)
            scores = self.ranker.score(x) if len(ids) else np.zeros(0)
            order = np.argsort(-scores, kind="stable")
            ranked = [(ids[i], float(scores[i])) for i in order]
            best = ranked[0][1] if ranked else 0.0
            named = [g for g in understood.games if g in self.games]
            if named and searched == query:  # a query of game names alone ("skat"): their laws first
                ranked.sort(key=lambda hit: self.facts.game[hit[0]] not in named)
            elif named:  # "skat revoke": skat's laws first among those near the best
                ranked = named_first(ranked, lambda law_id: self.facts.game[law_id] in named)
            terms = [*ws, *extra]
            if (ranked and best < self.ranker.threshold and not self.understood_anything(understood, entities, extra)
                    and not self.in_the_books(ws, **filters) and not self.books_own_words(ws, **filters)
                    and not (len(set(ws)) >= TOPIC_WORDS and self.ranker.about_cards(vector.result()))):
                return Answer(query, understood, [], self._hits(ranked[:NEAREST], terms, entities))
            hits = self._hits(ranked[:limit], terms, entities)
            for hit in hits:  # why it matched, in the player's words
                hit.asked = self.questions.nearest_question(vector.result(), self.index.position[hit.id])
            return Answer(query, understood, hits)
        if mode == "hybrid":  # SQLite and numpy release the GIL: run both at once
            dense_future = _POOL.submit(self.dense, query, CANDIDATES, **filters)
            lexical = self._lexical(ws, extra, CANDIDATES, **filters)
            dense = dense_future.result()
        else:
            lexical = self._lexical(ws, extra, CANDIDATES, **filters) if mode == "lexical" else []
            dense = self.dense(query, CANDIDATES, **filters) if mode == "dense" else []
        if mode == "lexical":
            ranked = lexical
        elif mode == "dense":
            ranked = dense
        else:
            fused: dict[str, float] = {}
            for ranking in (lexical, dense):
                for rank, (law_id, _) in enumerate(ranking, start=1):
                    fused[law_id] = fused.get(law_id, 0.0) + 1.0 / (RRF_K + rank)
            ranked = sorted(fused.items(), key=lambda kv: (-kv[1], kv[0]))
        return Answer(query, understood, self._hits(ranked[:limit], [*ws, *extra], entities))

    def understood_anything(self, understood: Understood, entities: list[str], extra: list[str]) -> bool:
        """Whether the query names a game the books have laws of ("napoleon" is a game the
        vocabulary knows, but no book here gives its laws), a card-law entity or a modern word the
        vocabulary knows: such a query is always answered. A situation recognised alone does not
        count: its asked phrases hold everyday words ("symptoms of vitamin D deficiency" would be
        the deficiency of a hand), so such a query is answered only when its best law scores above
        the threshold."""
        return bool([g for g in understood.games if g in self.games] or entities or extra)

    def in_the_books(self, ws: list[str], game=None, source=None, kind=None) -> bool:
        """Whether every word of the query (less the common words) is printed, in some form, in a
        few laws of those searched (:meth:`BooksWords.in_the_books`): such a query is always answered."""
        return self.wording.in_the_books(ws, self.index.mask(game, source, kind) if self.index is not None else None)

    def books_own_words(self, ws: list[str], game=None, source=None, kind=None) -> list[str]:
        """The words of the query far commoner in the laws searched than in English
        (:meth:`BooksWords.own_words`): a query holding one is always answered, as it asks in the
        books' terms ("tierce", "a player threw away cards …") even when nothing in it is in the
        vocabulary."""
        if self.index is None:
            return []
        keep = self.index.mask(game, source, kind)
        return self.wording.own_words(ws, keep, len(self.index.ids) if keep is None else int(keep.sum()))

    def query_vector(self, query: str) -> np.ndarray:
        """The query's sentence vector (384 float32, unit length)."""
        return load_embedder(self.model).encode([query])[0]

    def candidates(self, query: str, ws: list[str], extra: list[str], entities: list[str], understood: Understood,
                   filters: dict, vector: Future | None = None) -> tuple[list[str], np.ndarray, list[str]]:
        """``(law ids, their features, the games searched apart)``: the candidates of the lexical and
        dense lists, and of each list within the games the query names (unless a game filter is set).
        ``vector``: the query's vector being computed (:meth:`query_vector`), else it is computed here."""
        named = [g for g in understood.games if g in self.games] if not filters["game"] else []
        lexical = self._lexical(ws, extra, CANDIDATES, **filters)
        if named:
            lexical += [c for c in self._lexical(ws, extra, PER_GAME, **filters, games=named) if c not in lexical]
        # the plain questions the laws answer, by their words, while the query's vector is computed
        asked = self._lexical(ws, extra, CANDIDATES, **filters, questions=True)
        vector = vector.result() if vector is not None else self.query_vector(query)
        keep = self.index.mask(**filters)
        cosine_all = self.index.matrix @ vector
        dense = self.index.nearest(vector, CANDIDATES, keep)
        if named:
            game_keep = np.isin(self.index.games, named) & (keep if keep is not None else True)
            dense += [c for c in self.index.nearest(vector, PER_GAME, game_keep) if c not in dense]
        # and by their vectors
        question_all = self.questions.law_cosines(vector)
        asked_dense = self.index.nearest_by(question_all, CANDIDATES, keep)
        lexical_at = {law_id: (rank, score) for rank, (law_id, score) in enumerate(lexical)}
        dense_at = {law_id: (rank, score) for rank, (law_id, score) in enumerate(dense)}
        asked_at = {law_id: (rank, score) for rank, (law_id, score) in enumerate(asked)}
        asked_dense_at = {law_id: (rank, score) for rank, (law_id, score) in enumerate(asked_dense)}
        ids = list(dict.fromkeys([law_id for law_id, _ in dense] + [law_id for law_id, _ in lexical]
                                 + [law_id for law_id, _ in asked_dense] + [law_id for law_id, _ in asked]))
        # a cross-reference ("As in Bridge.") has no rule of its own to answer with
        ids = [law_id for law_id in ids if law_id in self.index.position
               and self.index.kinds[self.index.position[law_id]] != "reference"]
        rows = [self.index.position[law_id] for law_id in ids]
        cosines = cosine_all[rows].astype(np.float32)
        situation_ids, situation_vectors = self.situation_vectors()
        context = QueryContext(terms=[*ws, *extra], entities=entities, games=understood.games,
                               family_games=understood.family_games, situations=understood.situations,
                               situation_cosines=dict(zip(situation_ids, (situation_vectors @ vector).tolist(), strict=True)))
        asked_lists = AskedLists(asked_at, asked_dense_at, question_all[rows])
        adapted = (self.index.matrix[rows] @ self.adapter.adapt(vector)).astype(np.float32)
        return ids, features(ids, lexical_at, dense_at, cosines, context, self.facts, asked_lists, adapted), named

    def _hits(self, ranked, terms, entities) -> list[Hit]:
        if not ranked:
            return []
        ids = [law_id for law_id, _ in ranked]
        rows = {r["id"]: r for r in self.conn.execute(
            f"select l.id, l.game, g.name as game_name, l.source, s.title as source_title, l.number, l.kind, "
            f"l.text, l.entities, l.citation, c.numbered, p.number as parent_number from laws l join games g on g.slug = l.game "
            f"join codes c on c.id = l.code "
            f"join sources s on s.slug = l.source left join laws p on p.id = l.parent "
            f"where l.id in ({','.join('?' * len(ids))})", ids)}
        hits = []
        for law_id, score in ranked:
            r = rows[law_id]
            snippet, matched = _snippet(r["text"], terms)
            law_entities = json.loads(r["entities"] or "[]")
            matched = list(dict.fromkeys(matched))
            hits.append(Hit(
                id=law_id, game=r["game"], game_name=r["game_name"], source=r["source"],
                source_title=r["source_title"], number=r["number"], kind=r["kind"], text=r["text"],
                parent_number=r["parent_number"], numbered=bool(r["numbered"]), citation=r["citation"],
                score=score, snippet=snippet, matched=matched,
                entities=[e for e in law_entities if e in entities],
            ))
        return hits


def searcher_for(db_path: Path) -> Searcher:
    """One :class:`Searcher` per database file (made again when the file changes)."""
    return per_database(db_path, "searcher", Searcher)

