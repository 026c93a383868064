"""Precision and recall of the citation resolver on the hand-made cases in tests/cite/.

    python benchmarks/cite_eval.py [--db PATH] [--details]

For each case the resolver reads the case's text (with its context law) and the citation found
where the expected one stands is compared: its status, and its laws against the expected laws.
Precision = expected laws found / laws returned; recall = expected laws found / expected laws
(unresolved cases expect none). Also prints the share of the corpus's cross-references that resolve.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
from pathlib import Path

from ingest.cite import Resolver

CASES = Path(__file__).resolve().parent.parent / "tests" / "cite" / "citations.jsonl"


def load_cases(path: Path = CASES) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def evaluate(conn: sqlite3.Connection, cases: list[dict]) -> dict:
    resolver = Resolver(conn)
    tp = returned = expected = status_ok = 0
    misses = []
    for case in cases:
        start = case["text"].index(case["citation"])
        end = start + len(case["citation"])
        results = [r for r in resolver.cite(case["text"], context=case.get("context"))
                   if r.citation.start < end and start < r.citation.end]
        got_laws = {law for r in results for law in r.laws}
        got_status = results[0].status if results else "unresolved"
        if len(results) > 1 and any(r.status == "ambiguous" for r in results):
            got_status = "ambiguous"
        want = set(case["laws"])
        tp += len(got_laws & want)
        returned += len(got_laws)
        expected += len(want)
        ok = got_status == case["status"] and got_laws == want
        status_ok += ok
        if not ok:
            misses.append((case, got_status, sorted(got_laws), [r.citation.text for r in results]))
    return {"cases": len(cases), "exact": status_ok, "precision": tp / returned if returned else 1.0,
            "recall": tp / expected if expected else 1.0, "misses": misses}


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
