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
HELD_OUT = PROJECT_ROOT / "tests" / "cite" / "heldout.jsonl"


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


def by_kind(conn: sqlite3.Connection, cases: list[dict]) -> dict[str, dict]:
    """:func:`evaluate` on each kind of case (``kind``: code-name, clause, range-list, …)."""
    kinds = sorted({c.get("kind", "") for c in cases})
    return {k: evaluate(conn, [c for c in cases if c.get("kind", "") == k]) for k in kinds}


def round_trip(conn: sqlite3.Connection) -> dict:
    """Read every law's short citation (``laws.citation``) back through the resolver, for the laws
    of every source of laws: the catalogued books and a seed code no book holds (seed 000, an
    older English code of Écarté); an excerpt's law reads back as its book's law. A law reads back when its
    citation resolves to exactly it (a number the book prints twice, by its copy: "…, the second
    so numbered"); a range entry, to the laws it points to. Returns counts and the failures
    ``(law id, citation, what came back)``."""
    conn.row_factory = sqlite3.Row
    resolver = Resolver.from_db(conn)
    rows = conn.execute("select l.id, l.kind, l.citation, l.witness_of from laws l join sources s on s.slug = l.source "
                        "where s.kind = 'laws'").fetchall()
    ok, duplicates, failures = 0, 0, []
    for r in rows:
        found = resolver.cite(r["citation"])
        got = [(x.status, x.laws) for x in found]
        want = r["witness_of"] or r["id"]
        duplicates += "so numbered" in r["citation"]
        if r["kind"] == "reference":
            good = len(found) == 1 and found[0].status == "resolved" and bool(found[0].laws)
        else:
            good = len(found) == 1 and found[0].status == "resolved" and found[0].laws == [want]
        if good:
            ok += 1
        else:
            failures.append((r["id"], r["citation"], got))
    return {"laws": len(rows), "ok": ok, "duplicates": duplicates, "failures": failures}
