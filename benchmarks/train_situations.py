"""Fit the situation and remedy model on the reviewed tags and measure it leaving one book out.

    python benchmarks/train_situations.py [--db PATH] [--save] [--learning-curve 0.25,0.5,0.75,1 [--seeds 3]]

The database must be built with the reviewed tags (the default build). For each reviewed book, a
model is fitted on the others (each label's candidate — ridge, linear SVM or its cues —, penalty,
threshold and confidence map, and each labeller's block scaling, chosen by leaving each of those
books out in turn) and predicts it; the pooled predictions are scored against the reviewed
'decides' tags and remedies, per label, micro and macro (over the labels with at least 10 laws),
with a count of what the inner cross-validation chose. With --save, the model fitted on every book is written to ingest/data/situation_model.npz
with the hash of its training data. With --learning-curve, the same measure is taken again with
models fitted on each given share of every training book's laws (--seeds draws each), to show how
the figures grow with the reviewed laws there are to learn from. (The method:
ingest/evaluate/situation_training.py.)
"""

from __future__ import annotations

import argparse
import sqlite3
import time
from collections import Counter
from pathlib import Path

import numpy as np

from ingest.evaluate.situation_training import dataset, fit, leave_one_book_out, matrices, recipe, table
from ingest.evaluate.situations import ANNOTATIONS, macro
from ingest.situation_model import MODEL, SituationModel, training_hash

# The smallest share: under it a fold may keep too few laws for the recipe's vocabularies (terms in
# 3 or more laws), and scikit-learn stops with "no terms remain" (at 0.01 in 60 of 147 recipes drawn).
LEAST_SHARE = 0.05


def shares(text: str) -> list[float]:
    """``"0.25,0.5"`` → ``[0.25, 0.5]``; argparse reports a share that is no number or outside
    [``LEAST_SHARE``, 1]."""
    try:
        out = [float(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of numbers: {text!r}") from None
    if not out or any(not LEAST_SHARE <= x <= 1.0 for x in out):
        raise argparse.ArgumentTypeError(f"each share must be from {LEAST_SHARE} to 1: {text!r}")
    return out


def positive(text: str) -> int:
    """A whole number of 1 or more, for argparse."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more: {text!r}")
    return n


def learning_curve(data, fractions: list[float], seeds: int) -> None:
    """Print the leave-one-book-out macro precision and recall (situations, remedies) of models
    fitted on each share of the training laws: mean and range over ``seeds`` draws."""
    print(f"learning curve (leave one book out, {seeds} draw{'s' if seeds != 1 else ''} a share; macro over the labels with 10 or more laws):")
    print(f"  {'share':>6}{'laws':>7}  {'situations P':>14}{'R':>13}  {'remedies P':>12}{'R':>13}"
          "   (laws: training laws a fold, mean over the folds)")
    trained = np.mean([(data.books != b).sum() for b in set(data.books)])
    for fraction in fractions:
        t0 = time.perf_counter()
        figures = []
        for seed in range(seeds if fraction < 1.0 else 1):
            s, r = leave_one_book_out(data, fraction=fraction, seed=seed)
            figures.append(macro(data.y_situations, s) + macro(data.y_remedies, r))
        f = np.array(figures)
        cells = "".join(f"{m:>7.3f} ({lo:.2f}–{hi:.2f})" for m, lo, hi in zip(f.mean(0), f.min(0), f.max(0)))
        print(f"  {fraction:>6.2f}{round(fraction * trained):>7}  {cells}  {time.perf_counter() - t0:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=Path(__file__).resolve().parent.parent / "db" / "cardlaws.db")
    parser.add_argument("--save", action="store_true", help="write the model fitted on every book")
    parser.add_argument("--no-lobo", action="store_true", help="skip the leave-one-book-out measure")
    parser.add_argument("--learning-curve", type=shares, metavar="SHARES",
                        help=f"comma-separated shares of the training laws, each from {LEAST_SHARE} to 1, e.g. 0.25,0.5,0.75")
    parser.add_argument("--seeds", type=positive, help="draws of each share under 1, with --learning-curve (default 3)")
    args = parser.parse_args()
    if args.seeds is not None and not args.learning_curve:
        parser.error("--seeds needs --learning-curve")
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
    if args.learning_curve:
        learning_curve(data, args.learning_curve, args.seeds or 3)
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
