"""Precision and recall of law boundaries against the hand-read gold (tests/gold/*.jsonl).

    python benchmarks/segment_eval.py [--db PATH] [--details]

The gold lists, for runs of each book read by hand (``*.ranges.jsonl``), every law with its
number and first and last lines (``*.laws.jsonl``). A built law matches a gold law when both
start on the same line with the same number (or both are unnumbered) and end on the same line
(a law with clauses may be read whole or as its head alone: the gold has both readings).
Precision counts the built laws that start inside the gold's runs; recall the gold laws.
"""

from __future__ import annotations

import argparse
import sqlite3
from pathlib import Path

from ingest.evaluate.boundaries import evaluate, load_gold


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=Path(__file__).resolve().parent.parent / "db" / "cardlaws.db")
    parser.add_argument("--details", action="store_true", help="list every gold law not matched")
    args = parser.parse_args()
    gold, ranges = load_gold()
    results = evaluate(sqlite3.connect(args.db), gold, ranges)
    print(f"{'source':<46}{'gold':>6}{'built':>7}{'P':>7}{'R':>7}{'R(start)':>10}")
    tg = tb = tm = ts = 0
    for src, r in results.items():
        p = r["boundaries"] / r["built"] if r["built"] else 0.0
        rec = r["boundaries"] / r["gold"] if r["gold"] else 0.0
        print(f"{src:<46}{r['gold']:>6}{r['built']:>7}{p:>7.3f}{rec:>7.3f}{r['starts'] / r['gold']:>10.3f}")
        tg, tb, tm, ts = tg + r["gold"], tb + r["built"], tm + r["boundaries"], ts + r["starts"]
        if args.details:
            for g, b in r["misses"]:
                print(f"    miss {g['number']!r:>8} lines {g['line_start']}-{g['line_end']}  built: {b and (b[1], b[4], b[5])}")
    print(f"{'all':<46}{tg:>6}{tb:>7}{tm / tb:>7.3f}{tm / tg:>7.3f}{ts / tg:>10.3f}")


if __name__ == "__main__":
    main()
