"""Fitting the situation and remedy model (scikit-learn and scipy; only ``benchmarks/`` use this).

Each label is a ridge regression (least squares with an L2 penalty, one solve for all labels) on
the features of :mod:`ingest.situation_model`. Its penalty, its threshold and the logistic map of
its score to a confidence are chosen by leaving one training book out in turn (inner
cross-validation); a label whose best inner F1 is under 0.2 is never proposed. Measured by leaving
one book out: the held-out book's labels are never looked at when anything is chosen.
"""

from __future__ import annotations

import csv
import sqlite3
from collections import defaultdict
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

from .. import vocabulary
from ..situation_model import Features, Labeller, LawInput, Lexicon, terms
from ..situations import SituationTagger
from ..tag import Tagger
from .situations import ANNOTATIONS

PENALTIES = (0.3, 1.0, 3.0, 10.0)
THRESHOLDS = np.arange(-0.2, 1.0, 0.025)
MIN_F1 = 0.2
MIN_POSITIVES = 5


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


def ridge(x: sp.csr_matrix, y: np.ndarray, train: np.ndarray) -> dict[float, tuple[np.ndarray, np.ndarray]]:
    """Penalty → (weights ``(labels, features)``, biases) of ridge fits on the ``train`` rows
    (solved in the dual: one eigendecomposition for every penalty and label)."""
    a = x[train].toarray()  # dense: BLAS is far faster here than a sparse product with the dense vector columns
    mean_x = a.mean(axis=0)
    mean_y = y[train].mean(axis=0)
    k = (a @ a.T).astype(np.float64)
    ones = np.ones(len(train))
    k = k - np.outer(a @ mean_x, ones) - np.outer(ones, a @ mean_x) + mean_x @ mean_x  # centred Gram matrix
    w, v = np.linalg.eigh(k)
    vty = v.T @ (y[train] - mean_y)
    out = {}
    for lam in PENALTIES:
        alpha = v @ (vty / (w + lam)[:, None])
        weights = (a.T @ alpha - np.outer(mean_x, alpha.sum(axis=0))).T
        out[lam] = (weights, mean_y - weights @ mean_x)
    return out


def fit(x: sp.csr_matrix, y: np.ndarray, books: np.ndarray, train: np.ndarray, labels: list[str],
        matrix) -> Labeller:
    """A labeller fitted on the ``train`` rows, each label's penalty, threshold and confidence map
    chosen by leaving each training book out in turn. ``matrix(rows)`` gives the feature matrix
    with a recipe fitted on ``rows`` (the inner folds refit it)."""
    inner = {lam: np.zeros((len(train), y.shape[1])) for lam in PENALTIES}
    for book in sorted(set(books[train])):
        fold, held = train[books[train] != book], train[books[train] == book]
        xi = matrix(fold)
        pos = np.searchsorted(train, held)
        for lam, (w, b) in ridge(xi, y, fold).items():
            inner[lam][pos] = xi[held].toarray() @ w.T + b
    final = ridge(x, y, train)
    n = y.shape[1]
    weights, biases = np.zeros((n, x.shape[1])), np.zeros(n)
    slopes, offsets, thresholds = np.ones(n), np.zeros(n), np.full(n, 2.0)  # 2.0: never proposed
    for j in range(n):
        yj = y[train, j]
        if yj.sum() < 2:
            continue
        f1, lam, t = max((_f1(inner[lam][:, j] >= t, yj), lam, t) for lam in PENALTIES for t in THRESHOLDS)
        weights[j], biases[j] = final[lam][0][j], final[lam][1][j]
        platt = LogisticRegression(C=100.0).fit(inner[lam][:, j:j + 1], yj)
        slopes[j], offsets[j] = platt.coef_[0, 0], platt.intercept_[0]
        if f1 >= MIN_F1:
            thresholds[j] = 1 / (1 + np.exp(-(slopes[j] * t + offsets[j])))
    return Labeller(labels, weights, biases, slopes, offsets, thresholds)


def _f1(predicted: np.ndarray, truth: np.ndarray) -> float:
    tp = int((predicted & (truth == 1)).sum())
    return 2 * tp / (predicted.sum() + truth.sum()) if predicted.sum() + truth.sum() else 0.0


def matrices(data: Dataset):
    """``matrix(rows)``: the sparse feature matrix of every law, with a recipe fitted on ``rows``."""

    cache: dict[bytes, sp.csr_matrix] = {}

    def matrix(rows: np.ndarray) -> sp.csr_matrix:
        key = np.asarray(rows).tobytes()
        if key not in cache:
            cache[key] = sp.csr_matrix(recipe([data.laws[i] for i in rows]).matrix(data.laws))
        return cache[key]

    return matrix


def leave_one_book_out(data: Dataset) -> tuple[np.ndarray, np.ndarray]:
    """The pooled predictions (0/1, situations and remedies) of models each fitted on all books
    but one and predicting that one."""
    matrix = matrices(data)
    predicted_s, predicted_r = np.zeros_like(data.y_situations), np.zeros_like(data.y_remedies)
    for book in sorted(set(data.books)):
        train, held = np.where(data.books != book)[0], np.where(data.books == book)[0]
        x = matrix(train)
        for y, labels, out in ((data.y_situations, data.situations, predicted_s),
                               (data.y_remedies, data.remedies, predicted_r)):
            model = fit(x, y, data.books, train, labels, matrix)
            out[held] = model.probabilities(x[held].toarray()) >= model.thresholds
    return predicted_s, predicted_r


def table(labels: list[str], truth: np.ndarray, predicted: np.ndarray, what: str) -> list[str]:
    """Lines: precision and recall per label, micro, and macro over labels with 10 or more laws."""
    lines = [f"{what:<26}{'P':>7}{'R':>7}{'deciding':>9}{'predicted':>10}"]
    tp_all = pr_all = gd_all = 0
    macro_p, macro_r, small = [], [], []
    for j, s in enumerate(labels):
        tp = int((predicted[:, j] & truth[:, j]).sum())
        pr, gd = int(predicted[:, j].sum()), int(truth[:, j].sum())
        p, r = (tp / pr if pr else 0.0), (tp / gd if gd else 0.0)
        tp_all, pr_all, gd_all = tp_all + tp, pr_all + pr, gd_all + gd
        lines.append(f"  {s:<24}{p:>7.2f}{r:>7.2f}{gd:>9}{pr:>10}")
        if gd >= 10:
            macro_p.append(p)
            macro_r.append(r)
        else:
            small.append(f"{s} ({gd})")
    lines.append(f"  {'all (micro)':<24}{tp_all / max(pr_all, 1):>7.3f}{tp_all / max(gd_all, 1):>7.3f}{gd_all:>9}{pr_all:>10}")
    lines.append(f"  macro over the {len(macro_p)} with 10 or more laws: P {np.mean(macro_p):.3f}, R {np.mean(macro_r):.3f}")
    lines.append(f"  fewer than 10 laws: {', '.join(small) or 'none'}")
    return lines
