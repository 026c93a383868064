"""Grading sheets for the laws the search modes return that nobody has judged yet.

    python benchmarks/search_pool.py OUT_DIR [--folder tests/search] [--depth 10] [--ranked-depth 20] [--sheets 3]

For every query of ``FOLDER/queries.jsonl`` the lexical, dense and hybrid top ``--depth`` and the
ranked top ``--ranked-depth`` are pooled; the laws already in ``FOLDER/qrels.tsv`` (any grade,
0 included) are left out, and each query's remaining laws are shuffled (``random.Random(query
id)``) so a grader cannot tell which mode or rank brought a law in. The sheets are split by query
into ``--sheets`` files ``OUT_DIR/sheet-N.md`` (query, then each law's id, game and text, and the
start of its parent's text for a clause) with a matching ``OUT_DIR/grades-N.tsv`` to fill in
(``query-id  corpus-id  score``; 2 decides, 1 related, 0 neither: every row gets a grade). The
grades are appended to ``qrels.tsv`` as they are (zeros too: a 0 records that the pair was judged).
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
from pathlib import Path

from ingest.query.search import Searcher

ROOT = Path(__file__).resolve().parent.parent


def judged(folder: Path) -> set[tuple[str, str]]:
    lines = (folder / "qrels.tsv").read_text(encoding="utf-8").splitlines()[1:]
    return {tuple(line.split("\t")[:2]) for line in lines if line.strip()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--folder", type=Path, default=ROOT / "tests" / "search")
    ap.add_argument("--db", type=Path, default=ROOT / "db" / "cardlaws.db")
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--ranked-depth", type=int, default=20)
    ap.add_argument("--sheets", type=int, default=3)
    args = ap.parse_args()
    queries = [json.loads(line) for line in (args.folder / "queries.jsonl").read_text(encoding="utf-8").splitlines()
               if line.strip()]
    seen = judged(args.folder)
    searcher = Searcher(args.db)
    conn = sqlite3.connect(args.db)
    law = {row[0]: row[1:] for row in conn.execute("select id, game, text, parent from laws")}
    pools = []
    for q in queries:
        pool: set[str] = set()
        for mode, depth in (("lexical", args.depth), ("dense", args.depth), ("hybrid", args.depth),
                            ("ranked", args.ranked_depth)):
            pool |= {h.id for h in searcher.search(q["text"], mode=mode, limit=depth)}
        new = sorted(i for i in pool if (q["_id"], i) not in seen)
        random.Random(q["_id"]).shuffle(new)
        pools.append((q, new))
    args.out.mkdir(parents=True, exist_ok=True)
    total = sum(len(p) for _, p in pools)
    per_sheet, sheet, count = total / args.sheets, 1, 0
    md, tsv = [], ["query-id\tcorpus-id\tscore"]

    def flush() -> None:
        (args.out / f"sheet-{sheet}.md").write_text("\n".join(md) + "\n", encoding="utf-8")
        (args.out / f"grades-{sheet}.tsv").write_text("\n".join(tsv) + "\n", encoding="utf-8")

    for q, new in pools:
        if not new:
            continue
        md.append(f"\n## {q['_id']}: {q['text']}\n")
        for i in new:
            game, text, parent = law[i]
            md.append(f"- `{i}` ({game}): {text}")
            if parent and parent in law:
                md.append(f"  - parent `{parent}`: {law[parent][1][:300]}")
            tsv.append(f"{q['_id']}\t{i}\t")
        count += len(new)
        if count >= per_sheet * sheet and sheet < args.sheets:
            flush()
            sheet, md, tsv = sheet + 1, [], ["query-id\tcorpus-id\tscore"]
    flush()
    print(f"{total} unjudged pairs over {sum(bool(p) for _, p in pools)} queries, in {sheet} sheets under {args.out}")


if __name__ == "__main__":
    main()
