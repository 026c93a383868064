"""Situation and remedy tags against the hand-judged sample (``tests/situations/gold.jsonl``, 220
laws judged before the books were reviewed in full) and the reviewed tags of ``corpus/annotations``."""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from pathlib import Path

import numpy as np

from ..paths import PROJECT_ROOT

GOLD = PROJECT_ROOT / "tests" / "situations" / "gold.jsonl"


def load_gold(path: Path = GOLD) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def evaluate(conn: sqlite3.Connection, gold: list[dict], table: str, column: str, key: str,
             where: str = "1 = 1") -> dict[str, tuple[int, int, int]]:
    """label → (true positives, predicted, gold) over the gold sample's laws, the predictions read
    from ``table`` (rows matching ``where``)."""
    predicted = defaultdict(set)
    for law_id, label in conn.execute(f"select law_id, {column} from {table} where {where}"):
        predicted[law_id].add(label)
    return score(predicted, gold, key)


def score(predicted: dict[str, set[str]], gold: list[dict], key: str) -> dict[str, tuple[int, int, int]]:
    """label → (true positives, predicted, gold) of ``predicted`` (law id → labels) on the gold's laws."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for g in gold:
        want, got = set(g[key]), predicted.get(g["law_id"], set())
        for label in want | got:
            c = counts[label]
            c[0] += label in want and label in got
            c[1] += label in got
            c[2] += label in want
    return {k: tuple(v) for k, v in sorted(counts.items())}


ANNOTATIONS = PROJECT_ROOT / "corpus" / "annotations"


def read_decides(paths: list[Path]) -> dict[str, set[str]]:
    """Law id → the situations a reviewer marked it as deciding, from annotation CSV files."""
    import csv

    out: dict[str, set[str]] = defaultdict(set)
    for path in paths:
        with open(path, newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                out[row["law_id"]]
                if row["situation"] and row["grade"] == "decides" and not row["remedy"]:
                    out[row["law_id"]].add(row["situation"])
    return out


def kappa(first: dict[str, set[str]], second: dict[str, set[str]]) -> dict[str, tuple[float, int, int, int]]:
    """Cohen's κ per situation between two reviewers on the laws both reviewed, with how many
    laws each marked as deciding it and how many both did: ``situation → (κ, first, second, both)``;
    ``"all"`` pools every situation."""
    laws = sorted(set(first) & set(second))
    situations = sorted({s for law in laws for s in first[law] | second[law]})

    def k(a: list[bool], b: list[bool]) -> float:
        n = len(a)
        po = sum(x == y for x, y in zip(a, b)) / n
        pa, pb = sum(a) / n, sum(b) / n
        pe = pa * pb + (1 - pa) * (1 - pb)
        return 1.0 if pe == 1 else (po - pe) / (1 - pe)

    out, all_a, all_b = {}, [], []
    for s in situations:
        a = [s in first[law] for law in laws]
        b = [s in second[law] for law in laws]
        all_a += a
        all_b += b
        out[s] = (k(a, b), sum(a), sum(b), sum(x and y for x, y in zip(a, b)))
    out["all"] = (k(all_a, all_b), sum(all_a), sum(all_b), sum(x and y for x, y in zip(all_a, all_b)))
    return out


def macro(truth: np.ndarray, predicted: np.ndarray, least: int = 10) -> tuple[float, float]:
    """Macro precision and recall over the labels (columns of ``(laws, labels)`` 0/1 arrays) with
    ``least`` (1 or more) true laws; a label never predicted has precision 0."""
    keep = truth.sum(axis=0) >= least
    tp, pr, gd = (predicted & truth).sum(axis=0)[keep], predicted.sum(axis=0)[keep], truth.sum(axis=0)[keep]
    return float(np.mean(np.where(pr > 0, tp / np.maximum(pr, 1), 0.0))), float(np.mean(tp / gd))
