"""Law boundaries against the hand-read gold (``tests/gold/*.jsonl``).

The gold lists, for runs of each book read by hand (``*.ranges.jsonl``), every law with its
number and first and last lines (``*.laws.jsonl``). A built law matches a gold law when both
start on the same line with the same number (or both are unnumbered) and end on the same line
(a law with clauses may be read whole or as its head alone: the gold has both readings).
Precision counts the built laws that start inside the gold's runs; recall the gold laws.
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from pathlib import Path

from ..paths import PROJECT_ROOT

GOLD = PROJECT_ROOT / "tests" / "gold"


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
    # a law with clauses ends where its last clause (or a clause's last case) ends: the gold reads it whole
    for row in conn.execute(
        "with recursive below(top, id, line_end) as (select id, id, line_end from laws "
        " union all select b.top, c.id, c.line_end from laws c join below b on c.parent = b.id) "
        "select l.source, l.number, l.numbered, l.kind, l.line_start,"
        " (select max(line_end) from below where top = l.id), l.id, l.line_end from laws l"
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
