"""The citation resolver against the hand-made cases in ``tests/cite/citations.jsonl``.

For each case the resolver reads the case's text (with its context law) and the citation found
where the expected one stands is compared: its status, and its laws against the expected laws.
Precision = expected laws found / laws returned; recall = expected laws found / expected laws
(unresolved cases expect none).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from ..cite import Resolver
from ..paths import PROJECT_ROOT

CASES = PROJECT_ROOT / "tests" / "cite" / "citations.jsonl"


def load_cases(path: Path = CASES) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def evaluate(conn: sqlite3.Connection, cases: list[dict]) -> dict:
    resolver = Resolver.from_db(conn)
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
