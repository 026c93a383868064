"""Precision and recall of the citation resolver on the hand-made cases in tests/cite/.

    python benchmarks/cite_eval.py [--db PATH] [--details]

For each case the resolver reads the case's text (with its context law) and the citation found
where the expected one stands is compared: its status, and its laws against the expected laws.
Precision = expected laws found / laws returned; recall = expected laws found / expected laws
(unresolved cases expect none). Also prints the share of the corpus's cross-references that resolve.
"""

from __future__ import annotations

import argparse
import sqlite3
from pathlib import Path

from ingest.evaluate.citations import evaluate, load_cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=Path(__file__).resolve().parent.parent / "db" / "cardlaws.db")
    parser.add_argument("--details", action="store_true")
    args = parser.parse_args()
    conn = sqlite3.connect(args.db)
    r = evaluate(conn, load_cases())
    print(f"{r['cases']} cases: {r['exact']} exactly right ({r['exact'] / r['cases']:.3f}); "
          f"precision {r['precision']:.3f}, recall {r['recall']:.3f}")
    total, resolved = conn.execute(
        "select count(distinct law_id || ':' || start), count(distinct case when status = 'resolved' "
        "then law_id || ':' || start end) from cross_references").fetchone()
    print(f"cross-references in the corpus: {total}, resolved {resolved} ({resolved / total:.3f})" if total else "no cross-references")
    if args.details:
        for case, status, laws, found in r["misses"]:
            print(f"  {case['citation']!r} (context {case.get('context')}): want {case['status']} {case['laws']}, "
                  f"got {status} {laws} from {found}")


if __name__ == "__main__":
    main()
