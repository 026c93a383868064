"""Precision and recall of the citation resolver on the cases in tests/cite/, by kind, and the
round trip of every law's short citation.

    python benchmarks/cite_eval.py [--db PATH] [--details] [--held-out]

For each case the resolver reads the case's text (with its context law) and the citation found
where the expected one stands is compared: its status, and its laws against the expected laws.
Precision = expected laws found / laws returned; recall = expected laws found / expected laws
(unresolved cases expect none). ``citations.jsonl`` is the development set (the resolver was
written against it: its figures flatter it); ``heldout.jsonl`` was written by someone who never
saw the resolver, and is scored only with ``--held-out``. The round trip reads each law's short
citation (``laws.citation``) back through the resolver. Also prints the share of the corpus's
cross-references that resolve.
"""

from __future__ import annotations

import argparse
import sqlite3
from pathlib import Path

from ingest.evaluate.citations import HELD_OUT, by_kind, load_cases, round_trip


def report(title: str, results: dict[str, dict], details: bool) -> None:
    print(f"{title}\n  {'kind':<14}{'cases':>6}{'exact':>7}{'P':>7}{'R':>7}")
    total = exact = 0
    for kind, r in results.items():
        print(f"  {kind:<14}{r['cases']:>6}{r['exact']:>7}{r['precision']:>7.3f}{r['recall']:>7.3f}")
        total, exact = total + r["cases"], exact + r["exact"]
        if details:
            for case, status, laws, found in r["misses"]:
                print(f"      {case['citation']!r} (context {case.get('context')}): want {case['status']} "
                      f"{case['laws']}, got {status} {laws} from {found}")
    print(f"  {'all':<14}{total:>6}{exact:>7}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=Path(__file__).resolve().parent.parent / "db" / "cardlaws.db")
    parser.add_argument("--details", action="store_true")
    parser.add_argument("--held-out", action="store_true", help="also score the held-out cases (once, at the end)")
    args = parser.parse_args()
    conn = sqlite3.connect(args.db)
    report("development cases (tests/cite/citations.jsonl)", by_kind(conn, load_cases()), args.details)
    if args.held_out:
        report("held-out cases (tests/cite/heldout.jsonl)", by_kind(conn, load_cases(HELD_OUT)), args.details)
    rt = round_trip(conn)
    print(f"round trip: {rt['ok']} of {rt['laws']} laws and clauses of the books (and of the seed code no book holds) read back as themselves "
          f"({rt['duplicates']} of them printed with a number the book prints twice, cited by copy)")
    for law_id, citation, got in rt["failures"][:20]:
        print(f"  {law_id}: {citation!r} -> {got}")
    total, resolved = conn.execute(
        "select count(distinct law_id || ':' || start), count(distinct case when status = 'resolved' "
        "then law_id || ':' || start end) from cross_references").fetchone()
    print(f"cross-references in the corpus: {total}, resolved {resolved} ({resolved / total:.3f})" if total else "no cross-references")


if __name__ == "__main__":
    main()
