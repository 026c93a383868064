"""Precision and recall of the situation and remedy tags against the hand-judged sample
(tests/situations/gold.jsonl), per situation and overall (micro-averaged).

    python benchmarks/situation_eval.py [--db PATH]
"""

from __future__ import annotations

import argparse
import sqlite3
from pathlib import Path

from ingest.evaluate.situations import evaluate, load_gold


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
    args = parser.parse_args()
    conn = sqlite3.connect(args.db)
    gold = load_gold()
    report("situation", evaluate(conn, gold, "law_situations", "situation_id", "situations"))
    report("remedy", evaluate(conn, gold, "law_remedies", "remedy", "remedies"))


if __name__ == "__main__":
    main()
