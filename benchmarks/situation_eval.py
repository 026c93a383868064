"""Situation tags: the reviewed tags (corpus/annotations) by situation and game, the agreement of
the second review (Cohen's κ), the cue tagger against the reviewed tags of every book, the
database's tags against the earlier judged sample (tests/situations/gold.jsonl), and the situation
and remedy model left one book out (per situation and per remedy; takes minutes; --no-lobo skips it).

    python benchmarks/situation_eval.py [--db PATH] [--no-lobo]
"""

from __future__ import annotations

import argparse
import sqlite3
from collections import Counter
from pathlib import Path

from ingest import vocabulary
from ingest.evaluate.situation_training import dataset, leave_one_book_out, table
from ingest.evaluate.situations import ANNOTATIONS, evaluate, kappa, load_gold, read_decides, score
from ingest.situations import SituationTagger
from ingest.tag import Tagger


def report(title: str, counts: dict[str, tuple[int, int, int]]) -> None:
    print(f"{title:<26}{'P':>7}{'R':>7}{'gold':>6}{'tagged':>8}")
    tp = pr = gd = 0
    for label, (t, p, g) in counts.items():
        print(f"  {label:<24}{(t / p if p else 0):>7.2f}{(t / g if g else 0):>7.2f}{g:>6}{p:>8}")
        tp, pr, gd = tp + t, pr + p, gd + g
    print(f"  {'all (micro)':<24}{(tp / pr if pr else 0):>7.3f}{(tp / gd if gd else 0):>7.3f}{gd:>6}{pr:>8}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=Path(__file__).resolve().parent.parent / "db" / "cardlaws.db")
    parser.add_argument("--no-lobo", action="store_true", help="skip the model's leave-one-book-out measure")
    args = parser.parse_args()
    conn = sqlite3.connect(args.db)
    books = sorted(p for p in ANNOTATIONS.glob("*.csv"))
    reviewed = read_decides(books)
    per_situation = Counter(s for tags in reviewed.values() for s in tags)
    print(f"reviewed: {len(reviewed)} laws and clauses of {len(books)} books; 'decides' tags by situation:")
    for s in vocabulary.situations():
        print(f"  {s.id:<26}{per_situation[s.id]:>5}")
    games = Counter(conn.execute("select l.game from law_situations ls join laws l on l.id = ls.law_id "
                                 "where ls.origin = 'reviewed' and ls.grade = 'decides'").fetchall())
    remedies = Counter(conn.execute("select remedy from law_remedies where origin = 'reviewed'").fetchall())
    print("reviewed remedy tags: " + ", ".join(f"{r[0]} {n}" for r, n in remedies.most_common()))
    print("reviewed 'decides' tags by game: " + ", ".join(f"{g[0]} {n}" for g, n in games.most_common()))
    k = kappa(reviewed, read_decides(sorted((ANNOTATIONS / "second-review").glob("*.csv"))))
    print(f"second review of a 10% sample: pooled κ {k['all'][0]:.3f} "
          f"(first {k['all'][1]}, second {k['all'][2]}, both {k['all'][3]} 'decides' tags)")
    for s, (kk, a, b, both) in k.items():
        if s != "all":
            print(f"  {s:<26} κ {kk:5.2f}  first {a:>3} second {b:>3} both {both:>3}")
    tagger = Tagger()
    cues = SituationTagger(tagger)
    texts = dict(conn.execute("select id, text from laws"))
    gold = [{"law_id": law, "situations": sorted(tags)} for law, tags in reviewed.items() if law in texts]
    predicted = {g["law_id"]: set(cues.decide(tagger.nlp(texts[g["law_id"]])).situations) for g in gold}
    report("cue tagger vs reviewed", score(predicted, gold, "situations"))
    sample = [s.id for s in vocabulary.situations()[:22]]
    where = "grade = 'decides' and situation_id in (" + ", ".join(f"'{s}'" for s in sample) + ")"
    report("database vs earlier sample", evaluate(conn, load_gold(), "law_situations", "situation_id", "situations", where))
    if not args.no_lobo:
        data = dataset(conn)
        predicted_s, predicted_r = leave_one_book_out(data)
        print("\n".join(table(data.situations, data.y_situations, predicted_s, "model, book left out")))
        print("\n".join(table(data.remedies, data.y_remedies, predicted_r, "remedy model, book left out")))


if __name__ == "__main__":
    main()
