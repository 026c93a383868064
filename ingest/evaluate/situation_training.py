"""Fitting the situation and remedy model (scikit-learn and scipy; only ``benchmarks/`` use this).

Each label (a situation, a remedy) is scored by one of three candidates: a ridge regression (least
squares with an L2 penalty, solved in the dual for every label at once), a linear support vector
machine with balanced class weights (on the same kernel), or the label's cue phrases alone (the
count of its cues in the law, the data of ``vocabulary/situations.toml``). Everything is chosen by
leaving one training book out in turn (inner cross-validation): each label's candidate, its penalty
and its threshold (the best inner F1), the logistic map of its score to a confidence, and, for the
whole labeller, one of a few block scalings fixed beforehand (``WEIGHTINGS``: the cue counts and the
game's family weighed down or not; the best mean inner F1). A label with fewer than
``MIN_TRAINING`` positive laws in the training books cannot be learnt and is proposed by its cues;
a label whose best inner F1 is under ``MIN_F1`` is never proposed. Every candidate is linear in the
features of :mod:`ingest.situation_model`, so the fitted model is one weight matrix a labeller.
Measured by leaving one book out: the held-out book's labels are never looked at when anything is
chosen.
"""

from __future__ import annotations

import csv
import sqlite3
from collections import Counter, defaultdict
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.svm import SVC

from .. import vocabulary
from ..situation_model import Features, Labeller, LawInput, Lexicon, terms
from ..situations import SituationTagger
from ..tag import Tagger
from .situations import ANNOTATIONS, macro

PENALTIES = (0.3, 1.0, 3.0, 10.0)  # ridge
COSTS = (0.1, 0.3, 1.0)  # support vector machine
THRESHOLDS = {"ridge": np.arange(-0.2, 1.0, 0.025), "svm": np.arange(-1.5, 1.5, 0.05),
              "cues": np.log([2.0, 3.0])}  # cues: one match or more, two or more (the feature is log(1 + count))
# scalings of the feature blocks tried for each labeller, fixed beforehand (1 where not named)
WEIGHTINGS = ({}, {"cues": 0.5}, {"family": 0.0}, {"cues": 0.5, "family": 0.0})
BLOCKS = ("vector", "cues", "remedies", "text", "context", "family")
MIN_F1 = 0.2
MIN_TRAINING = 2
MIN_POSITIVES = 5
# Tried on 2026-12-02, left one book out, not adopted: a law whose nearest law of another training
# book has a sentence-vector cosine of τ or more takes that law's reviewed situations instead of the
# model's (τ the lowest of 0.99…0.80 at which such copies agree, F1 ≥ 0.90, within the training
# books: 0.82–0.85): macro P 0.791 R 0.752 against the model's 0.765 / 0.771 (micro 0.803 / 0.779
# against 0.777 / 0.790): precision for recall, no gain in F1.
# Also tried then, not adopted: one multi-label network (scikit-learn's MLPClassifier, 64 hidden units,
# the same features, thresholds by inner leave-one-book-out F1): macro P 0.677 R 0.633; and the
# parent law's vector beside a clause's own (a plain logistic regression a label, the law vector
# alone macro P 0.523 R 0.756): 0.533 / 0.756.
# Tried on 2026-12-02 (7), left one book out, not adopted: the mean vector of a law's neighbours in its
# code (the laws before and after it) beside its own, × 0.5: macro P 0.774 R 0.766 (micro 0.792 /
# 0.797) against 0.765 / 0.771; the mean vector of its whole code instead: 0.757 / 0.774. And the
# sentence encoder itself fine-tuned on the reviewed tags (all-MiniLM-L6-v2 in PyTorch, every layer,
# a logistic output a situation, 5 epochs; "game. section. text [of: parent]"), on one fold only
# (Hoffmann's 439 laws held out, the largest book but one): macro F1 0.750 over its 30 situations
# with 3 or more laws even with each situation's best threshold read off the held-out book itself,
# against 0.772 for this model's own predictions of that book. All three use only what a new book has.


@dataclass
class Dataset:
    ids: list[str]
    books: np.ndarray
    laws: list[LawInput]
    situations: list[str]  # modelled: 5 or more deciding laws
    remedies: list[str]
    y_situations: np.ndarray  # (laws, situations) 0/1
    y_remedies: np.ndarray  # (laws, remedies) 0/1: the law gives the remedy for some situation
    pairing: np.ndarray  # (situations, remedies) counts of reviewed (situation, remedy) tags
    model_name: str


def dataset(conn: sqlite3.Connection) -> Dataset:
    """The reviewed laws with vectors, what the model reads of them and their reviewed tags."""
    reviewed = set()
    for path in ANNOTATIONS.glob("*.csv"):
        with open(path, newline="", encoding="utf-8") as f:
            reviewed |= {row["law_id"] for row in csv.DictReader(f)}
    reviewed |= {r[0] for r in conn.execute("select law_id from law_situations where origin = 'reviewed'")}
    rows = conn.execute("select l.id, l.source, l.game, l.section, l.parent, l.text, e.vector, e.model from laws l "
                        "join law_embeddings e on e.law_id = l.id where l.witness_of is null").fetchall()
    rows = [r for r in rows if r[0] in reviewed]
    texts = dict(conn.execute("select id, text from laws"))
    decides, remedies = defaultdict(set), defaultdict(set)
    for law_id, sid in conn.execute("select law_id, situation_id from law_situations "
                                    "where origin = 'reviewed' and grade = 'decides'"):
        decides[law_id].add(sid)
    for law_id, sid, remedy in conn.execute("select law_id, situation_id, remedy from law_remedies where origin = 'reviewed'"):
        remedies[law_id].add((sid, remedy))
    tagger = Tagger()
    cues = SituationTagger(tagger)
    laws = []
    for law_id, _, game, section, parent, text, vector, _ in rows:
        d = cues.decide(tagger.nlp(text))
        laws.append(LawInput(np.frombuffer(vector, dtype=np.float32), dict(d.situations), set(d.remedies), text,
                             context(section, texts.get(parent) if parent else None), vocabulary.family_of(game)))
    order = [s.id for s in vocabulary.situations()]
    modelled = [s for s in order if sum(s in decides[r[0]] for r in rows) >= MIN_POSITIVES]
    remedy_order = list(vocabulary.remedies())
    pairing = np.zeros((len(modelled), len(remedy_order)))
    for pairs in remedies.values():
        for sid, remedy in pairs:
            if sid in modelled:
                pairing[modelled.index(sid), remedy_order.index(remedy)] += 1
    return Dataset([r[0] for r in rows], np.array([r[1] for r in rows]), laws, modelled, remedy_order,
                   np.array([[s in decides[r[0]] for s in modelled] for r in rows], dtype=int),
                   np.array([[m in {x for _, x in remedies[r[0]]} for m in remedy_order] for r in rows], dtype=int),
                   pairing, rows[0][7])


def context(section: str | None, parent_text: str | None) -> str:
    """A law's context for the model: its section heading and its parent law's text."""
    return " ".join(x for x in (section, parent_text) if x)


def recipe(laws: list[LawInput]) -> Features:
    """The feature recipe fitted on ``laws`` (the TF-IDF vocabularies: terms in 3 or more laws)."""

    def lexicon(texts: list[str]) -> Lexicon:
        v = TfidfVectorizer(analyzer=terms, min_df=3, sublinear_tf=True).fit(texts)
        return Lexicon(list(v.get_feature_names_out()), v.idf_.astype(np.float32))

    return Features([s.id for s in vocabulary.situations()], list(vocabulary.remedies()),
                    lexicon([law.text for law in laws]), lexicon([law.context for law in laws]),
                    sorted({law.family for law in laws}))


@dataclass
class Fold:
    """The feature matrix of every law under a recipe fitted on some rows, its blocks' column
    slices, and each block's Gram matrix (laws × laws)."""

    x: sp.csr_matrix
    blocks: dict[str, slice]
    grams: dict[str, np.ndarray]

    def kernel(self, weighting: dict[str, float]) -> np.ndarray:
        return sum(weighting.get(b, 1.0) ** 2 * g for b, g in self.grams.items())

    def scale(self, weighting: dict[str, float]) -> np.ndarray:
        """The column scaling of ``weighting``: a weight over scaled columns times this is one over the features."""
        s = np.ones(self.x.shape[1])
        for b, cols in self.blocks.items():
            s[cols] = weighting.get(b, 1.0)
        return s


def fold(features: Features, laws: list[LawInput]) -> Fold:
    x = sp.csr_matrix(features.matrix(laws))
    sizes = (len(laws[0].vector), len(features.cue_order), len(features.remedy_order), len(features.text.terms),
             len(features.context.terms), len(features.families))
    edges = np.cumsum((0,) + sizes)
    blocks = {b: slice(int(a), int(z)) for b, a, z in zip(BLOCKS, edges[:-1], edges[1:])}
    grams = {b: np.asarray((x[:, cols] @ x[:, cols].T).todense(), dtype=np.float64) for b, cols in blocks.items()}
    return Fold(x, blocks, grams)


def matrices(data: Dataset):
    """``matrix(rows)``: the :class:`Fold` of every law with a recipe fitted on ``rows``."""
    return lambda rows: fold(recipe([data.laws[i] for i in rows]), data.laws)


def _ridge(k: np.ndarray, y: np.ndarray, train: np.ndarray, test: np.ndarray) -> tuple[dict, np.ndarray]:
    """Penalty → ridge scores of the ``test`` rows fitted on the ``train`` rows (kernel ``k``), and
    the dual solutions (penalty → ``(train, labels)``) for the primal weights."""
    a = k[np.ix_(train, train)]
    m0, mean = a.mean(axis=0), a.mean()
    kc = a - m0[None, :] - m0[:, None] + mean  # centred: the features less their training mean
    b = k[np.ix_(test, train)]
    kt = b - m0[None, :] - b.mean(axis=1)[:, None] + mean
    w, v = np.linalg.eigh(kc)
    mean_y = y[train].mean(axis=0)
    vty = v.T @ (y[train] - mean_y)
    duals = {lam: v @ (vty / (w + lam)[:, None]) for lam in PENALTIES}
    return {lam: kt @ alpha + mean_y for lam, alpha in duals.items()}, duals


def _svm(k: np.ndarray, y: np.ndarray, train: np.ndarray, test: np.ndarray, labels: list[int]) -> tuple[dict, dict]:
    """Cost → scores ``(test, labels)`` of a linear SVM a label (balanced class weights) fitted on
    ``train``, and (cost, label) → the fitted SVC."""
    a, b = k[np.ix_(train, train)], k[np.ix_(test, train)]
    scores = {c: np.zeros((len(test), y.shape[1])) for c in COSTS}
    models = {}
    for j in labels:
        for c in COSTS:
            m = SVC(kernel="precomputed", C=c, class_weight="balanced").fit(a, y[train, j])
            scores[c][:, j] = m.decision_function(b)
            models[c, j] = m
    return scores, models


def _best(scores: np.ndarray, truth: np.ndarray, thresholds: np.ndarray) -> tuple[float, float]:
    """The best F1 of ``scores >= t`` over ``thresholds``, and that t (the lowest of equals)."""
    predicted = scores[:, None] >= thresholds[None, :]
    tp = (predicted & (truth[:, None] == 1)).sum(axis=0)
    f1 = 2 * tp / np.maximum(predicted.sum(axis=0) + truth.sum(), 1)
    i = int(np.argmax(f1))
    return float(f1[i]), float(thresholds[i])


@dataclass
class Task:
    """A labeller to fit: its labels, their 0/1 truth ``(laws, labels)`` and each label's cue column."""

    labels: list[str]
    y: np.ndarray
    cue_columns: list[int]


def tasks(data: Dataset, features_blocks: dict[str, slice]) -> list[Task]:
    cues, remedies = features_blocks["cues"].start, features_blocks["remedies"].start
    order = [s.id for s in vocabulary.situations()]
    return [Task(data.situations, data.y_situations, [cues + order.index(s) for s in data.situations]),
            Task(data.remedies, data.y_remedies, [remedies + i for i in range(len(data.remedies))])]


def fit(data: Dataset, train: np.ndarray, matrix, log: Counter | None = None) -> tuple[list[Labeller], Fold]:
    """The situation and remedy labellers fitted on the ``train`` rows, everything chosen by leaving
    each training book out in turn. ``matrix(rows)`` gives the :class:`Fold` with a recipe fitted on
    ``rows`` (the inner folds refit it), and the :class:`Fold` of the ``train`` rows' recipe. ``log``
    counts the choices made."""
    books = data.books[train]
    outer = matrix(train)
    jobs = tasks(data, outer.blocks)
    inner: list[list[dict]] = [[{} for _ in WEIGHTINGS] for _ in jobs]  # task → weighting → candidate → scores
    every = np.hstack([t.y for t in jobs])  # one ridge solve for both tasks
    ends = np.cumsum([0] + [len(t.labels) for t in jobs])
    for book in sorted(set(books)):
        rows, held = train[books != book], train[books == book]
        f = matrix(rows)
        pos = np.searchsorted(train, held)
        for wi, weighting in enumerate(WEIGHTINGS):
            k = f.kernel(weighting)
            ridge, _ = _ridge(k, every, rows, held)
            for t, out, a, z in zip(jobs, inner, ends[:-1], ends[1:]):
                svm, _ = _svm(k, t.y, rows, held, [j for j in range(len(t.labels)) if t.y[rows, j].sum() >= MIN_TRAINING])
                scores = [(("ridge", lam), s[:, a:z]) for lam, s in ridge.items()] + [(("svm", c), s) for c, s in svm.items()]
                for key, s in scores:
                    out[wi].setdefault(key, np.zeros((len(train), len(t.labels))))[pos] = s
    return [_labeller(t, out, train, outer, log) for t, out in zip(jobs, inner)], outer


def _labeller(task: Task, inner: list[dict], train: np.ndarray, outer: Fold,
              log: Counter | None) -> Labeller:
    """Choose the weighting and each label's candidate, penalty and threshold by their inner F1, and
    fit the chosen on every ``train`` row."""
    y = task.y[train]
    n = len(task.labels)
    learnt = [j for j in range(n) if y[:, j].sum() >= MIN_TRAINING]
    cue_scores = outer.x[train][:, task.cue_columns].toarray()
    best_total, choice = -1.0, None
    for wi, candidates in enumerate(inner):
        picks, total = {}, 0.0
        for j in learnt:
            options = [(key, candidates[key][:, j]) for key in candidates] + [(("cues", 0), cue_scores[:, j])]
            best = (-1.0, None, 0.0, None)
            for key, s in options:
                f1, t = _best(s, y[:, j], THRESHOLDS[key[0]])
                if f1 > best[0]:
                    best = (f1, key, t, s)
            picks[j] = best
            total += best[0]
        if total > best_total:
            best_total, choice = total, (wi, picks)
    wi, picks = choice
    weighting = WEIGHTINGS[wi]
    k = outer.kernel(weighting)
    scale = outer.scale(weighting)
    xs = outer.x[train].multiply(scale).tocsr()
    everyone = np.arange(len(train))
    _, duals = _ridge(k[np.ix_(train, train)], y, everyone, everyone[:1])
    ridge_mean_x = np.asarray(xs.mean(axis=0)).ravel()
    weights, biases = np.zeros((n, outer.x.shape[1])), np.zeros(n)
    slopes, offsets, thresholds = np.ones(n), np.zeros(n), np.full(n, 2.0)  # 2.0: never proposed
    svm_labels = [j for j in learnt if picks[j][1][0] == "svm"]
    _, svms = _svm(k[np.ix_(train, train)], y, everyone, everyone[:1], svm_labels) if svm_labels else (None, {})
    for j in range(n):
        if j not in picks:  # too few positives to learn: its cues
            weights[j, task.cue_columns[j]] = 1.0
            offsets[j] = -np.log(2.0)
            thresholds[j] = 0.5 - 1e-4
            _note(log, weighting, "cues (too few to learn)")
            continue
        f1, (kind, h), t, inner_scores = picks[j]
        if kind == "ridge":
            alpha = duals[h][:, j]
            w = xs.T @ alpha - ridge_mean_x * alpha.sum()
            weights[j], biases[j] = w * scale, y[:, j].mean() - w @ ridge_mean_x
        elif kind == "svm":
            m = svms[h, j]
            w = np.asarray(xs[m.support_].T @ m.dual_coef_[0]).ravel()
            weights[j], biases[j] = w * scale, m.intercept_[0]
        else:
            weights[j, task.cue_columns[j]] = 1.0
        platt = LogisticRegression(C=100.0).fit(inner_scores[:, None], y[:, j])
        slopes[j], offsets[j] = platt.coef_[0, 0], platt.intercept_[0]
        if slopes[j] <= 0:
            slopes[j], offsets[j] = 1.0, -t
        if f1 >= MIN_F1:
            thresholds[j] = 1 / (1 + np.exp(-(slopes[j] * (t - 1e-6) + offsets[j])))
        _note(log, weighting, kind if f1 >= MIN_F1 else "never (inner F1 under 0.2)")
    return Labeller(task.labels, weights, biases, slopes, offsets, thresholds)


def _note(log: Counter | None, weighting: dict[str, float], kind: str) -> None:
    if log is not None:
        log[kind] += 1
        log["weighting " + (", ".join(f"{b} × {w}" for b, w in weighting.items()) or "as the recipe")] += 1


def leave_one_book_out(data: Dataset, log: Counter | None = None, fraction: float = 1.0,
                       seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The pooled predictions (0/1, situations and remedies) of models each fitted on all books
    but one and predicting that one. With ``fraction`` under 1, each model is fitted on that share
    of every training book's laws (drawn with ``seed``; the held-out book is predicted whole): the
    points of a learning curve. Raises ValueError for a fraction outside (0, 1]."""
    if not 0.0 < fraction <= 1.0:
        raise ValueError(f"fraction must be in (0, 1], not {fraction}")
    matrix = matrices(data)
    predicted = [np.zeros_like(data.y_situations), np.zeros_like(data.y_remedies)]
    draw = np.random.default_rng(seed)
    for book in sorted(set(data.books)):
        train, held = np.where(data.books != book)[0], np.where(data.books == book)[0]
        if fraction < 1.0:
            by_book = (train[data.books[train] == b] for b in sorted(set(data.books[train])))
            train = np.sort(np.concatenate([draw.choice(rows, max(1, round(fraction * len(rows))), replace=False)
                                            for rows in by_book]))
        labellers, outer = fit(data, train, matrix, log)
        x = outer.x[held].toarray().astype(np.float32)
        for model, out in zip(labellers, predicted):
            out[held] = model.probabilities(x) >= model.thresholds
    return predicted[0], predicted[1]


def table(labels: list[str], truth: np.ndarray, predicted: np.ndarray, what: str) -> list[str]:
    """Lines: precision and recall per label, micro, and macro over labels with 10 or more laws."""
    lines = [f"{what:<26}{'P':>7}{'R':>7}{'deciding':>9}{'predicted':>10}"]
    tp_all = pr_all = gd_all = 0
    small = []
    for j, s in enumerate(labels):
        tp = int((predicted[:, j] & truth[:, j]).sum())
        pr, gd = int(predicted[:, j].sum()), int(truth[:, j].sum())
        p, r = (tp / pr if pr else 0.0), (tp / gd if gd else 0.0)
        tp_all, pr_all, gd_all = tp_all + tp, pr_all + pr, gd_all + gd
        lines.append(f"  {s:<24}{p:>7.2f}{r:>7.2f}{gd:>9}{pr:>10}")
        if gd < 10:
            small.append(f"{s} ({gd})")
    lines.append(f"  {'all (micro)':<24}{tp_all / max(pr_all, 1):>7.3f}{tp_all / max(gd_all, 1):>7.3f}{gd_all:>9}{pr_all:>10}")
    p, r = macro(truth, predicted)
    lines.append(f"  macro over the {len(labels) - len(small)} with 10 or more laws: P {p:.3f}, R {r:.3f}")
    lines.append(f"  fewer than 10 laws: {', '.join(small) or 'none'}")
    return lines
