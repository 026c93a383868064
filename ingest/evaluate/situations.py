"""Situation and remedy tags against the hand-judged sample (``tests/situations/gold.jsonl``)."""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from pathlib import Path

from ..paths import PROJECT_ROOT

GOLD = PROJECT_ROOT / "tests" / "situations" / "gold.jsonl"


def load_gold(path: Path = GOLD) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def evaluate(conn: sqlite3.Connection, gold: list[dict], table: str, column: str, key: str) -> dict[str, tuple[int, int, int]]:
    """label → (true positives, predicted, gold) over the gold sample's laws."""
    predicted = defaultdict(set)
    for law_id, label in conn.execute(f"select law_id, {column} from {table}"):
        predicted[law_id].add(label)
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for g in gold:
        want, got = set(g[key]), predicted.get(g["law_id"], set())
        for label in want | got:
            c = counts[label]
            c[0] += label in want and label in got
            c[1] += label in got
            c[2] += label in want
    return {k: tuple(v) for k, v in sorted(counts.items())}
