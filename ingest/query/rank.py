"""Rank: the learned ranker over the candidates of the lexical and dense lists.

Each candidate law gets the features of :data:`FEATURES` (a row of a float32 matrix); the ranker
scores it by gradient-boosted regression trees fitted on the project's judged queries by
``benchmarks/train_ranker.py`` (LightGBM's LambdaRank) and kept in ``ingest/data/ranker.npz`` as
flat arrays (:class:`Trees`) with the sha256 of the judged queries it was fitted on. Serving needs
numpy only (importing LightGBM takes about 1.8 s, as it imports scikit-learn and SciPy) and never
trains; ``tests/test_search.py`` checks the arrays score as LightGBM itself does.

A list is answered only when its best score reaches the model's ``threshold`` (fitted with the
nonsense queries of ``tests/search/nonsense.txt``): below it the results are empty and the laws
are offered as the nearest instead, unless the query was understood to name a game, a card-law
entity or a modern word of ``search_terms.toml``, is in the books' words, or is, by the model's
topic classifier (:meth:`Ranker.about_cards`: a logistic regression over the query's vector, fitted
on the judged queries and the laws' plain questions against everyday queries), asked about card
play (for a query of :data:`TOPIC_WORDS` words or more); such a query is always answered.
"""

from __future__ import annotations

import hashlib
import json
import math
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import numpy as np

MODEL = Path(__file__).resolve().parent.parent / "data" / "ranker.npz"
# the topic classifier answers a query only of this many different words or more (common words
# aside): a word or two says too little for a sentence vector ("lol" 0.99, "ok" 0.99, "ha ha" 0.94
# card play; "the game finished with both our totals exactly level" 0.98)
TOPIC_WORDS = 3
# Score points below the best within which the laws of the game a query names go first ("skat
# revoke": Skat 52 and 53 before Whist 28). Strictly first lost nDCG@10 in 5-fold cross-validation
# on the 659 training queries (0.710 against 0.725: the judges give another game's law deciding
# the same case 1, and a named game's weak laws would come before it); margins of 1, 2 and 3 gave
# 0.7251, 0.7253 and 0.7249 (benchmarks/train_ranker.py). For the trees (whose scores spread
# otherwise), margins of 0, 0.5, 1 and 2 gave 0.7233, 0.7239, 0.7242 and 0.7246 on 1,379 queries.
NAMED_MARGIN = 2.0

FEATURES = (
    "bm25",            # the law's BM25 over the best BM25 of the query's lexical list (0: not in it)
    "lexical_rank",    # 1 / (1 + rank / 10) in the lexical list (0: not in it)
    "cosine",          # cosine of the query's vector and the law's
    "dense_rank",      # 1 / (1 + rank / 10) in the dense list (0: not in it)
    "game_named",      # the query names the law's game
    "family_named",    # the query names another game of the law's family
    "game_other",      # the query names games, none of them the law's or its family's
    "decides_asked",   # the law decides a situation the query describes (reviewed or predicted tag)
    "touches_asked",   # the law only touches a situation the query describes
    "situation_cosine",  # best cosine of the query's vector and the descriptions of the situations the law decides
    "entities_shared",   # share of the query's entities the law mentions
    "words_matched",     # share of the query's words (and their books' words) found in the law
    "clause",            # the law is a clause (a listed case) of another
    "length",            # log(1 + words of the law) / 5
    "undecided",         # the law decides no situation at all (a heading, a definition)
    "asked_bm25",        # BM25 over the law's plain questions and accounts, over the best of the query's list (0: not in it)
    "asked_rank",        # 1 / (1 + rank / 10) in the list of laws by their questions' and accounts' words (0: not in it)
    "asked_cosine",      # best cosine of the query's vector and the law's plain questions' (0: none)
    "asked_dense_rank",  # 1 / (1 + rank / 10) in the list of laws by their nearest question (0: not in it)
    "adapted_cosine",    # cosine of the query's vector mapped by the query adapter (ingest/query/adapter.py) and the law's
)


def term_stem(term: str) -> str:
    """What a query term matches in a law's words: a phrase as it is, a word by its first five
    letters (a rough stem: "exposed" matches "expose", "exposing")."""
    return term.lower() if " " in term else term.lower()[:5]


class RankerError(Exception):
    """The ranker's file is missing or was fitted for other features."""


@dataclass(frozen=True, eq=False)
class Trees:
    """Regression trees as flat arrays, all trees' nodes in one: node ``i`` splits on feature
    ``feature[i]`` (a row goes to ``left[i]`` when its value is at most ``threshold[i]``, else to
    ``right[i]``), or is a leaf (``feature[i] == -1``) worth ``value[i]``; tree ``t`` starts at node
    ``roots[t]``. A row's score is the sum of its leaves' values, as LightGBM's ``predict`` gives for
    the model the arrays were read from (:meth:`from_lightgbm`)."""

    feature: np.ndarray    # (nodes,) int32; -1 for a leaf
    threshold: np.ndarray  # (nodes,) float64
    left: np.ndarray       # (nodes,) int32; a leaf's own index
    right: np.ndarray      # (nodes,) int32; a leaf's own index
    value: np.ndarray      # (nodes,) float64; 0 but at a leaf
    roots: np.ndarray      # (trees,) int32
    depth: int             # the deepest leaf's depth (a root alone: 0)

    @classmethod
    def from_lightgbm(cls, dump: dict) -> Trees:
        """The trees of ``lightgbm.Booster.dump_model()``. Raises :class:`RankerError` for a model
        this class cannot score alike (categorical splits or any split test but "<=", zeros read as
        missing values, more than one score a row)."""
        if dump.get("num_tree_per_iteration") != 1:
            raise RankerError("the ranker's model gives more than one score a row")
        feature, threshold, left, right, value, roots = [], [], [], [], [], []
        depth = 0

        def node(tree: dict, level: int) -> int:
            nonlocal depth
            i = len(feature)
            for column in (feature, threshold, left, right, value):
                column.append(0)
            if "leaf_value" in tree:
                feature[i], left[i], right[i], value[i] = -1, i, i, float(tree["leaf_value"])
                depth = max(depth, level)
                return i
            if tree.get("decision_type") != "<=" or tree.get("missing_type") not in ("None", "NaN"):
                raise RankerError(f"the ranker's model has a split this scorer does not read: {tree.get('decision_type')!r}, "
                                  f"missing values {tree.get('missing_type')!r}")
            feature[i], threshold[i] = int(tree["split_feature"]), float(tree["threshold"])
            left[i] = node(tree["left_child"], level + 1)
            right[i] = node(tree["right_child"], level + 1)
            return i

        for info in dump["tree_info"]:
            roots.append(node(info["tree_structure"], 0))
        return cls(np.array(feature, dtype=np.int32), np.array(threshold, dtype=np.float64),
                   np.array(left, dtype=np.int32), np.array(right, dtype=np.int32),
                   np.array(value, dtype=np.float64), np.array(roots, dtype=np.int32), depth)

    def __post_init__(self) -> None:
        """Raises ``ValueError`` for arrays that are no trees (of unequal lengths, or pointing outside
        their nodes), :class:`RankerError` for trees of more than 9 leaves."""
        # Scored by table, not by walking the trees: each tree's splits are tested for every row at
        # once, a row's answers to one tree's splits (at most 8: trees of up to 9 leaves) make a
        # number, and a table gives the leaf that number reaches (0.7 ms for 252 laws by 300 trees
        # of 7 leaves, against 7 ms walking them level by level with numpy)
        nodes = len(self.feature)
        if not (len(self.threshold) == len(self.left) == len(self.right) == len(self.value) == nodes) or self.depth < 0:
            raise ValueError("the trees' arrays differ in length")
        for name in ("left", "right", "roots"):
            if len(getattr(self, name)) and not (0 <= getattr(self, name).min() <= getattr(self, name).max() < nodes):
                raise ValueError(f"the trees' {name} point outside their {nodes} nodes")
        if len(self.roots) and (self.roots[0] != 0 or np.any(np.diff(self.roots) <= 0)):
            raise ValueError("the trees' roots are not in order")
        trees = len(self.roots)
        tree_of = np.repeat(np.arange(trees), np.diff(np.append(self.roots, len(self.feature))))
        inner = np.flatnonzero(self.feature >= 0)
        counts = np.bincount(tree_of[inner], minlength=trees)
        width = int(counts.max(initial=0))
        if width > 8:
            raise RankerError(f"the ranker's trees have up to {width + 1} leaves; this scorer reads at most 9")
        slot = np.zeros(len(self.feature), dtype=np.int64)  # a split's place among its tree's splits
        slot[inner] = np.arange(len(inner)) - np.concatenate([[0], np.cumsum(counts)[:-1]])[tree_of[inner]]
        split_feature = np.zeros((trees, width), dtype=np.intp)
        split_threshold = np.full((trees, width), np.inf)  # a tree's unused places: always "at most"
        split_feature[tree_of[inner], slot[inner]] = self.feature[inner]
        split_threshold[tree_of[inner], slot[inner]] = self.threshold[inner]
        answers = np.arange(1 << width)  # bit k: the row is at most the threshold of the tree's k-th split
        at = np.repeat(self.roots[:, None].astype(np.intp), len(answers), axis=1)
        for _ in range(self.depth):
            left = ((answers[None, :] >> slot[at]) & 1) == 1
            at = np.where(self.feature[at] < 0, at, np.where(left, self.left[at], self.right[at]))
        object.__setattr__(self, "_split_feature", split_feature.ravel())
        object.__setattr__(self, "_split_threshold", split_threshold.ravel())
        object.__setattr__(self, "_bits", (1 << np.arange(width)).astype(np.uint8))
        object.__setattr__(self, "_table", self.value[at].ravel())  # (trees × 2**width,): leaf value by tree and answers
        object.__setattr__(self, "_offset", np.arange(trees) << width)

    def predict(self, x: np.ndarray) -> np.ndarray:
        """``(n,)`` float64 scores of the rows of ``x`` (``(n, features)``, finite)."""
        x = np.asarray(x, dtype=np.float64)
        if not len(self.roots):
            return np.zeros(len(x))
        at_most = (x[:, self._split_feature] <= self._split_threshold).reshape(len(x), len(self.roots), len(self._bits))
        answers = np.einsum("rtk,k->rt", at_most.view(np.uint8), self._bits)
        return self._table[answers + self._offset].sum(axis=1)

    ARRAYS = ("feature", "threshold", "left", "right", "value", "roots")  # the fields :meth:`arrays` gives, in order

    def arrays(self) -> dict[str, np.ndarray]:
        """The arrays by name, as :meth:`Ranker.save` stores them (``tree_`` and the field)."""
        return {f"tree_{k}": getattr(self, k) for k in self.ARRAYS}


@dataclass(frozen=True)
class Ranker:
    """A tree ranker: ``score`` is the sum of the leaves a law's features reach in each of
    ``trees``. ``threshold``: the least best score a list needs to be answered; ``trained_on``:
    sha256 of the files it was fitted on. ``topic``, ``topic_bias``, ``topic_threshold``: the topic
    classifier (:meth:`about_cards`)."""

    trees: Trees
    threshold: float
    trained_on: str
    topic: np.ndarray  # (384,) float32: logistic regression weights over a query's unit vector
    topic_bias: float
    topic_threshold: float  # least probability for a query to be asked about card play

    def score(self, features: np.ndarray) -> np.ndarray:
        """One score a row of ``features`` (``(n, len(FEATURES))``), higher is better."""
        return self.trees.predict(features)

    def card_probability(self, vector: np.ndarray) -> float:
        """The probability (0–1) that a query of this sentence vector (384 floats, unit length) is
        asked about card play rather than anything else."""
        return float(1.0 / (1.0 + math.exp(-(float(vector @ self.topic) + self.topic_bias))))

    def about_cards(self, vector: np.ndarray) -> bool:
        """Whether a query of this vector is asked about card play (:meth:`card_probability` at
        least ``topic_threshold``): such a query, of :data:`TOPIC_WORDS` words or more, is answered even
        in words no book prints ("the game finished with both our totals exactly level")."""
        return self.card_probability(vector) >= self.topic_threshold

    def save(self, path: Path = MODEL, lightgbm_model: str = "") -> None:
        """Write the ranker to ``path`` (``.npz``), with ``lightgbm_model`` (the LightGBM model's
        text the trees were read from, kept for the check that they score alike)."""
        meta = {"features": list(FEATURES), "threshold": self.threshold, "trained_on": self.trained_on,
                "topic_bias": self.topic_bias, "topic_threshold": self.topic_threshold, "depth": self.trees.depth}
        np.savez_compressed(path, **self.trees.arrays(), topic=self.topic.astype(np.float64),
                            lightgbm_model=np.array(lightgbm_model), meta=np.array(json.dumps(meta)))

    @classmethod
    def load(cls, path: Path = MODEL) -> Ranker:
        """Raises :class:`RankerError` when the file is missing or its features are not :data:`FEATURES`."""
        other = RankerError(f"{path}: fitted for other features; fit it again with benchmarks/train_ranker.py --save")
        try:
            with np.load(path) as data:
                meta = json.loads(str(data["meta"]))
                if meta.get("features") != list(FEATURES) or "topic" not in data or "tree_roots" not in data:
                    raise other
                trees = Trees(*(data[f"tree_{k}"] for k in Trees.ARRAYS),
                              int(meta["depth"]))
                topic = data["topic"].astype(np.float32)
            fitted = cls(trees, float(meta["threshold"]), meta["trained_on"], topic,
                         float(meta["topic_bias"]), float(meta["topic_threshold"]))
        except (OSError, KeyError, ValueError, TypeError) as e:
            raise RankerError(f"{path}: cannot be read ({e}); fit it with benchmarks/train_ranker.py --save") from None
        if trees.feature.max(initial=-1) >= len(FEATURES) or topic.ndim != 1:
            raise other
        return fitted


def training_hash(files: list[Path]) -> str:
    """sha256 over the judged-query files a ranker is fitted on (names and bytes)."""
    h = hashlib.sha256()
    for path in files:
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


class LawFacts:
    """What the ranker knows of each law of one database, in memory: game, kind, length, the
    situations it decides and touches, the entities it mentions; as dicts by law id and as arrays
    by a law's row (``row``), so a query's features are computed for all its candidates at once."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.game: dict[str, str] = {}
        self.clause: dict[str, bool] = {}
        self.length: dict[str, float] = {}
        self.entities: dict[str, set[str]] = {}
        self.text: dict[str, str] = {}
        for law_id, game, kind, text, entities in conn.execute("select id, game, kind, text, entities from laws"):
            self.text[law_id] = text.lower()
            self.game[law_id] = game
            self.clause[law_id] = kind == "clause"
            self.length[law_id] = math.log1p(len(text.split())) / 5
            self.entities[law_id] = set(json.loads(entities or "[]"))
        self.decides: dict[str, set[str]] = {}
        self.touches: dict[str, set[str]] = {}
        has = conn.execute("select 1 from sqlite_master where name = 'law_situations'").fetchone()
        for law_id, situation, grade in (conn.execute("select law_id, situation_id, grade from law_situations") if has else ()):
            (self.decides if grade == "decides" else self.touches).setdefault(law_id, set()).add(situation)
        # the same by row: a law's game, clause and length; which situations it decides or touches
        # and which entities it mentions (a boolean matrix, one column per situation or entity)
        self.row = {law_id: i for i, law_id in enumerate(self.game)}
        self.games = np.array(list(self.game.values()), dtype=object)
        self.clauses = np.array(list(self.clause.values()), dtype=np.float64)
        self.lengths = np.array(list(self.length.values()), dtype=np.float64)
        self.situation_column = {sit: j for j, sit in enumerate(sorted(
            {x for sets in (self.decides, self.touches) for xs in sets.values() for x in xs}))}
        self.entity_column = {e: j for j, e in enumerate(sorted({x for xs in self.entities.values() for x in xs}))}
        self.decides_matrix = self._matrix(self.decides, self.situation_column)
        self.touches_matrix = self._matrix(self.touches, self.situation_column)
        self.entity_matrix = self._matrix(self.entities, self.entity_column)

    def _matrix(self, sets: dict[str, set[str]], column: dict[str, int]) -> np.ndarray:
        out = np.zeros((len(self.row), len(column)), dtype=bool)
        for law_id, xs in sets.items():
            if law_id in self.row:
                out[self.row[law_id], [column[x] for x in xs]] = True
        return out


@dataclass
class QueryContext:
    """What the features need of a query: its words and the books' words added for them, its
    entities, the games it names and their families' other games, the situations it describes,
    and the cosine of its vector with each situation's description (situation id → cosine)."""

    terms: list[str]
    entities: list[str]
    games: list[str]
    family_games: list[str]
    situations: list[str]
    situation_cosines: dict[str, float]


@dataclass
class AskedLists:
    """The laws as their plain questions meet a query: by the questions' words (``lexical``) and
    by their vectors (``dense``), each law id → (0-based rank, score); and each candidate's best
    cosine with one of its questions (``cosines``, in the candidates' order)."""

    lexical: dict[str, tuple[int, float]]
    dense: dict[str, tuple[int, float]]
    cosines: np.ndarray


def _rank_features(ids: list[str], ranked: dict[str, tuple[int, float]]) -> tuple[np.ndarray, np.ndarray]:
    """(score over the list's best score, 1 / (1 + rank / 10)) of each law of ``ids``; 0 outside the list."""
    best = max((s for _, s in ranked.values()), default=0.0) or 1.0
    score = np.array([ranked[i][1] / best if i in ranked else 0.0 for i in ids], dtype=np.float64)
    rank = np.array([1 / (1 + ranked[i][0] / 10) if i in ranked else 0.0 for i in ids], dtype=np.float64)
    return score, rank


def features(ids: list[str], lexical: dict[str, tuple[int, float]], dense: dict[str, tuple[int, float]],
             cosines: np.ndarray, q: QueryContext, facts: LawFacts, questions: AskedLists,
             adapted: np.ndarray) -> np.ndarray:
    """``(len(ids), len(FEATURES))`` float32 for candidate laws ``ids``. ``lexical`` and ``dense``
    map a law to its (0-based rank, score) in each list; ``cosines`` is each candidate's cosine with
    the query, ``adapted`` with the query's adapted vector; ``questions`` the lists by the laws' plain
    questions. Every law of ``ids`` is a law of ``facts``' database."""
    n = len(ids)
    out = np.zeros((n, len(FEATURES)), dtype=np.float32)
    if not n:
        return out
    rows = np.array([facts.row[law_id] for law_id in ids], dtype=np.intp)
    best_bm25 = max((s for _, s in lexical.values()), default=0.0) or 1.0
    in_lexical = np.array([law_id in lexical for law_id in ids])
    rank = np.array([lexical[law_id][0] if law_id in lexical else 0 for law_id in ids], dtype=np.float64)
    bm25 = np.array([lexical[law_id][1] if law_id in lexical else 0.0 for law_id in ids], dtype=np.float64)
    in_dense = np.array([law_id in dense for law_id in ids])
    drank = np.array([dense[law_id][0] if law_id in dense else 0 for law_id in ids], dtype=np.float64)
    games = facts.games[rows]
    named = np.isin(games, q.games)
    family = np.isin(games, q.family_games)
    decides = facts.decides_matrix[rows]
    asked = [facts.situation_column[s] for s in dict.fromkeys(q.situations) if s in facts.situation_column]
    decides_asked = decides[:, asked].any(axis=1)
    situation_cosine = np.array([q.situation_cosines.get(s, 0.0) for s in facts.situation_column], dtype=np.float64)
    shared = [facts.entity_column[e] for e in dict.fromkeys(q.entities) if e in facts.entity_column]
    stems = [term_stem(t) for t in dict.fromkeys(q.terms)]
    out[:, 0] = np.where(in_lexical, bm25 / best_bm25, 0.0)
    out[:, 1] = np.where(in_lexical, 1 / (1 + rank / 10), 0.0)
    out[:, 2] = cosines
    out[:, 3] = np.where(in_dense, 1 / (1 + drank / 10), 0.0)
    out[:, 4] = named
    out[:, 5] = family
    out[:, 6] = bool(q.games) & ~named & ~family
    out[:, 7] = decides_asked
    out[:, 8] = facts.touches_matrix[rows][:, asked].any(axis=1) & ~decides_asked
    if decides.shape[1]:  # the best cosine among the situations a law decides (0: it decides none)
        out[:, 9] = np.where(decides.any(axis=1), np.where(decides, situation_cosine, -np.inf).max(axis=1), 0.0)
    if q.entities:
        out[:, 10] = facts.entity_matrix[rows][:, shared].sum(axis=1) / len(q.entities)
    if stems:
        out[:, 11] = np.array([sum(stem in facts.text[law_id] for stem in stems) for law_id in ids]) / len(stems)
    out[:, 12] = facts.clauses[rows]
    out[:, 13] = facts.lengths[rows]
    out[:, 14] = ~decides.any(axis=1)
    out[:, 15], out[:, 16] = _rank_features(ids, questions.lexical)
    out[:, 17] = questions.cosines
    out[:, 18] = _rank_features(ids, questions.dense)[1]
    out[:, 19] = adapted
    return out


def named_first(ranked: list[tuple[str, float]], is_named, margin: float = NAMED_MARGIN) -> list[tuple[str, float]]:
    """``ranked`` ((law id, score), best first) with the laws ``is_named(law id)`` (of a game the
    query names) moved before the others among those scoring within ``margin`` of the best; the
    order is kept within each part and below the margin."""
    if not ranked:
        return ranked
    k = next((n for n, hit in enumerate(ranked) if hit[1] < ranked[0][1] - margin), len(ranked))
    near = ranked[:k]
    return [h for h in near if is_named(h[0])] + [h for h in near if not is_named(h[0])] + ranked[k:]
