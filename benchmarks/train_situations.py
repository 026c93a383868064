"""Fit the situation and remedy model on the reviewed tags and measure it leaving one book out.

    python benchmarks/train_situations.py [--db PATH] [--save]

The database must be built with the reviewed tags (the default build). For each reviewed book, a
model is fitted on the others (each label's candidate — ridge, linear SVM or its cues —, penalty,
threshold and confidence map, and each labeller's block scaling, chosen by leaving each of those
books out in turn) and predicts it; the pooled predictions are scored against the reviewed
'decides' tags and remedies, per label, micro and macro (over the labels with at least 10 laws),
with a count of what the inner cross-validation chose. With --save, the model fitted on every book is written to ingest/data/situation_model.npz
with the hash of its training data. (The method: ingest/evaluate/situation_training.py.)
"""

from __future__ import annotations

import argparse
import sqlite3
import time
from collections import Counter
from pathlib import Path

import numpy as np

from ingest.evaluate.situation_training import dataset, fit, leave_one_book_out, matrices, recipe, table
from ingest.evaluate.situations import ANNOTATIONS
from ingest.situation_model import MODEL, SituationModel, training_hash


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=Path(__file__).resolve().parent.parent / "db" / "cardlaws.db")
    parser.add_argument("--save", action="store_true", help="write the model fitted on every book")
    parser.add_argument("--no-lobo", action="store_true", help="skip the leave-one-book-out measure")
    args = parser.parse_args()
    t0 = time.perf_counter()
    data = dataset(sqlite3.connect(args.db))
    print(f"{len(data.ids)} reviewed laws with vectors, {len(set(data.books))} books, "
          f"{len(data.situations)} situations and {len(data.remedies)} remedies modelled")
    if not args.no_lobo:
        log: Counter = Counter()
        predicted_s, predicted_r = leave_one_book_out(data, log)
        print("\n".join(table(data.situations, data.y_situations, predicted_s, "situation (left-out book)")))
        print("\n".join(table(data.remedies, data.y_remedies, predicted_r, "remedy (left-out book)")))
        print("chosen (labels × folds): " + ", ".join(f"{k} {n}" for k, n in log.most_common()))
        print(f"leave-one-book-out: {time.perf_counter() - t0:.0f} s")
    if args.save:
        t1 = time.perf_counter()
        every = np.arange(len(data.ids))
        (situations, remedies), _ = fit(data, every, matrices(data))
        features = recipe(data.laws)
        files = sorted(ANNOTATIONS.glob("*.csv"))
        SituationModel(features, situations, remedies, data.pairing, training_hash(files, data.model_name)).save(MODEL)
        print(f"saved {MODEL} ({MODEL.stat().st_size} bytes) in {time.perf_counter() - t1:.0f} s")


if __name__ == "__main__":
    main()
