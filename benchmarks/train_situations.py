"""Fit the situation model on the reviewed tags and measure it leaving one book out.

    python benchmarks/train_situations.py [--db PATH] [--save]

The database must be built with the reviewed tags (the default build). For each of the seven law
books, a model is fitted on the other six (each situation's threshold chosen by 3-fold
cross-validation on those six) and predicts the seventh; the pooled predictions are scored
against the reviewed 'decides' tags, per situation, micro and macro (over the situations with at
least 10 deciding laws). With --save, the model fitted on all seven books is written to
ingest/data/situation_model.npz with the hash of its training data.
"""

from __future__ import annotations

import argparse
import sqlite3
from collections import defaultdict
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold

from ingest import vocabulary
from ingest.evaluate.situations import ANNOTATIONS
from ingest.situation_model import MODEL, SituationModel, features, training_hash
from ingest.situations import SituationTagger
from ingest.tag import Tagger

MIN_POSITIVES = 5


def dataset(conn: sqlite3.Connection):
    """(law ids, books, X, Y, situations): the reviewed laws with vectors, their features and
    their reviewed 'decides' situations as a 0/1 matrix."""
    import csv

    reviewed = set()
    for path in ANNOTATIONS.glob("*.csv"):
        with open(path, newline="", encoding="utf-8") as f:
            reviewed |= {row["law_id"] for row in csv.DictReader(f)}
    reviewed |= {r[0] for r in conn.execute("select law_id from law_situations where origin = 'reviewed'")}
    rows = conn.execute("select l.id, l.source, l.text, e.vector, e.model from laws l join law_embeddings e "
                        "on e.law_id = l.id where l.witness_of is null").fetchall()
    rows = [r for r in rows if r[0] in reviewed]
    decides = defaultdict(set)
    for law_id, sid in conn.execute("select law_id, situation_id from law_situations "
                                    "where origin = 'reviewed' and grade = 'decides'"):
        decides[law_id].add(sid)
    order = [s.id for s in vocabulary.situations()]
    tagger = Tagger()
    cues = SituationTagger(tagger)
    x = np.stack([features(np.frombuffer(r[3], dtype=np.float32), cues.decide(tagger.nlp(r[2])).situations, order)
                  for r in rows])
    counts = {s: sum(s in decides[r[0]] for r in rows) for s in order}
    modelled = [s for s in order if counts[s] >= MIN_POSITIVES]
    y = np.array([[s in decides[r[0]] for s in modelled] for r in rows], dtype=int)
    return [r[0] for r in rows], np.array([r[1] for r in rows]), x, y, modelled, order, rows[0][4]


def fit(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
    clf = LogisticRegression(C=1.0, class_weight="balanced", max_iter=3000)
    clf.fit(x, y)
    return clf.coef_[0], float(clf.intercept_[0])


def threshold(x: np.ndarray, y: np.ndarray) -> float:
    """The probability threshold with the best F1 in 3-fold cross-validation on ``x``, ``y``."""
    probs = np.zeros(len(y))
    folds = StratifiedKFold(n_splits=3, shuffle=True, random_state=0)
    for train, test in folds.split(x, y):
        w, b = fit(x[train], y[train])
        probs[test] = 1 / (1 + np.exp(-(x[test] @ w + b)))
    best, best_f1 = 0.5, -1.0
    for t in np.arange(0.3, 0.96, 0.05):
        pred = probs >= t
        tp = int((pred & (y == 1)).sum())
        f1 = 2 * tp / (pred.sum() + y.sum()) if pred.sum() + y.sum() else 0
        if f1 > best_f1:
            best, best_f1 = float(t), f1
    return best


def train(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Weights, biases and thresholds, one a column of ``y`` (a column with no positive: never)."""
    weights, biases, thresholds = [], [], []
    for j in range(y.shape[1]):
        if y[:, j].sum() == 0:
            weights.append(np.zeros(x.shape[1]))
            biases.append(-50.0)
            thresholds.append(1.0)
            continue
        w, b = fit(x, y[:, j])
        weights.append(w)
        biases.append(b)
        thresholds.append(threshold(x, y[:, j]) if 3 <= y[:, j].sum() else 0.5)
    return np.stack(weights), np.array(biases), np.array(thresholds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=Path(__file__).resolve().parent.parent / "db" / "cardlaws.db")
    parser.add_argument("--save", action="store_true", help="write the model fitted on every book")
    args = parser.parse_args()
    conn = sqlite3.connect(args.db)
    ids, books, x, y, situations, order, model_name = dataset(conn)
    print(f"{len(ids)} reviewed laws with vectors, {len(set(books))} books, {len(situations)} situations modelled")
    predicted = np.zeros_like(y)
    for book in sorted(set(books)):
        held = books == book
        present = y[~held].sum(axis=0) >= 2
        w, b, t = train(x[~held], np.where(present, y[~held], 0))
        probs = 1 / (1 + np.exp(-(x[held] @ w.T + b)))
        predicted[held] = (probs >= t) & present
    print(f"{'situation':<26}{'P':>7}{'R':>7}{'deciding':>9}{'predicted':>10}")
    tp_all = pr_all = gd_all = 0
    macro_p, macro_r, small = [], [], []
    for j, s in enumerate(situations):
        tp = int((predicted[:, j] & y[:, j]).sum())
        pr, gd = int(predicted[:, j].sum()), int(y[:, j].sum())
        p, r = (tp / pr if pr else 0.0), (tp / gd if gd else 0.0)
        tp_all, pr_all, gd_all = tp_all + tp, pr_all + pr, gd_all + gd
        print(f"  {s:<24}{p:>7.2f}{r:>7.2f}{gd:>9}{pr:>10}")
        if gd >= 10:
            macro_p.append(p)
            macro_r.append(r)
        else:
            small.append(f"{s} ({gd})")
    print(f"  {'all (micro)':<24}{tp_all / pr_all:>7.3f}{tp_all / gd_all:>7.3f}{gd_all:>9}{pr_all:>10}")
    print(f"  macro over the {len(macro_p)} situations with 10 or more deciding laws: "
          f"P {np.mean(macro_p):.3f}, R {np.mean(macro_r):.3f}")
    print(f"  fewer than 10 deciding laws: {', '.join(small) or 'none'}")
    if args.save:
        w, b, t = train(x, y)
        files = sorted(ANNOTATIONS.glob("*.csv"))
        SituationModel(situations, order, w, b, t, training_hash(files, model_name)).save(MODEL)
        print(f"saved {MODEL} ({MODEL.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
