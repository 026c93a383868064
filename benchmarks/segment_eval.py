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
import json
import sqlite3
from collections import defaultdict
from pathlib import Path

GOLD = Path(__file__).resolve().parent.parent / "tests" / "gold"


def load_gold(folder: Path = GOLD) -> tuple[list[dict], list[dict]]:
    laws, ranges = [], []
    for path in sorted(folder.glob("*.laws.jsonl")):
        laws += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    for path in sorted(folder.glob("*.ranges.jsonl")):
        ranges += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return laws, ranges


def evaluate(conn: sqlite3.Connection, gold: list[dict], ranges: list[dict]) -> dict[str, dict]:
    """Per source: gold, built (inside the runs), matched starts and matched boundaries."""
    built = defaultdict(list)
    # a law with clauses ends where its last clause ends (the gold reads it whole)
    for row in conn.execute(
        "select l.source, l.number, l.numbered, l.kind, l.line_start,"
        " max(l.line_end, coalesce((select max(c.line_end) from laws c where c.parent = l.id), 0)), l.id,"
        " l.line_end from laws l"
    ):
        built[row[0]].append(row)
    out: dict[str, dict] = {}
    for src in sorted({g["source"] for g in gold}):
        runs = [(r["start_line"], r["end_line"]) for r in ranges if r["source"] == src]
        mine = [b for b in built[src] if any(a <= b[4] <= z for a, z in runs)]
        by_start = {(b[4]): b for b in mine}
        starts = bounds = 0
        misses = []
        for g in (g for g in gold if g["source"] == src):
            b = by_start.get(g["line_start"])
            ok_start = b is not None and (b[1] == g["number"] or (not b[2] and g["label"] == ""))
            if ok_start:
                starts += 1
                if g["line_end"] in (b[5], b[7]):  # with its clauses, or its head alone
                    bounds += 1
                    continue
            misses.append((g, b))
        n_gold = sum(1 for g in gold if g["source"] == src)
        out[src] = {"gold": n_gold, "built": len(mine), "starts": starts, "boundaries": bounds, "misses": misses}
    return out


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
