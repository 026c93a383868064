"""Compare two codes: two codes of one game or family (two editions, or a code and its offshoot)
aligned law by law by what the laws say and decide, not by their numbers, each pair with its
differences marked word by word.

:func:`align_codes` pairs laws one to one, best pairs first: a pair's score is the cosine of the
laws' sentence vectors plus :data:`SITUATION_WEIGHT` times the share of situations both decide
(Jaccard); a pair below :data:`MIN_SCORE` is no pair. :func:`word_diff` marks the words one law
has and the other lacks (``difflib`` over words).
"""

from __future__ import annotations

import difflib
import json
import re
import sqlite3
from dataclasses import dataclass, field

import numpy as np

SITUATION_WEIGHT = 0.15
MIN_SCORE = 0.55


@dataclass
class Aligned:
    """A law of code A and its counterpart in code B (``b`` None: no counterpart), with the
    score of the pair and the words that differ."""

    a: dict | None
    b: dict | None
    score: float | None = None
    diff: list[tuple[str, str]] = field(default_factory=list)  # (op, words): "same", "a" (only in A), "b"

    def as_json(self) -> dict:
        return {"a": self.a and self.a["id"], "b": self.b and self.b["id"],
                "score": None if self.score is None else round(self.score, 4),
                "diff": [{"op": op, "words": words} for op, words in self.diff]}


class CodeError(ValueError):
    """Codes that cannot be compared (unknown, or of different families); the message names the
    parameter."""


def code_laws(conn: sqlite3.Connection, code_id: str) -> list[dict]:
    """The laws and clauses of a code that have words to compare (not headings or range entries),
    in the book's order, each with its vector (float32) and the situations it decides."""
    conn.row_factory = sqlite3.Row
    rows = conn.execute(
        "select l.id, l.number, l.kind, l.text, l.citation, l.situations, e.vector from laws l "
        "left join law_embeddings e on e.law_id = l.id where l.code = ? and l.kind != 'reference' "
        "and length(l.text) > 25 order by l.ordinal", [code_id]).fetchall()
    out = []
    for r in rows:
        law = dict(r)
        law["vector"] = np.frombuffer(r["vector"], dtype=np.float32) if r["vector"] else None
        law["situations"] = set(json.loads(r["situations"] or "[]"))
        out.append(law)
    return out


def check_codes(conn: sqlite3.Connection, a: str | None, b: str | None) -> tuple[dict, dict]:
    """The two code records; raises :class:`CodeError` naming ``a`` or ``b`` when one is missing or
    unknown, or when they are not of one family."""
    conn.row_factory = sqlite3.Row
    found = []
    for name, code_id in (("a", a), ("b", b)):
        if not code_id:
            raise CodeError(f"{name}: give a code id (e.g. ?a=hoffmann-hoyles-games-modernized-1909/whist)")
        row = conn.execute("select * from codes where id = ?", [code_id]).fetchone()
        if row is None:
            raise CodeError(f"{name}: no code {code_id!r}")
        found.append(dict(row))
    if found[0]["family"] != found[1]["family"]:
        raise CodeError(f"b: {b!r} is of the {found[1]['family']} family, {a!r} of the {found[0]['family']} family")
    return found[0], found[1]


def _norm(words: list[str]) -> list[str]:
    return [re.sub(r"[^\w]", "", w.lower()) for w in words]  # "Deal," and "deal" are one word


def word_diff(a: str, b: str) -> list[tuple[str, str]]:
    """The words of ``a`` and ``b`` as runs: ``("same", words)``, ``("a", words only in a)``,
    ``("b", words only in b)``, in reading order."""
    wa, wb = re.findall(r"\S+", a), re.findall(r"\S+", b)
    out: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, _norm(wa), _norm(wb), autojunk=False).get_opcodes():
        if op == "equal":
            out.append(("same", " ".join(wb[j1:j2])))
            continue
        if i2 > i1:
            out.append(("a", " ".join(wa[i1:i2])))
        if j2 > j1:
            out.append(("b", " ".join(wb[j1:j2])))
    return out


def align_codes(laws_a: list[dict], laws_b: list[dict]) -> list[Aligned]:
    """Pairs of laws, one to one, in code A's order; then B's laws with no counterpart."""
    va = [x for x in laws_a if x["vector"] is not None]
    vb = [x for x in laws_b if x["vector"] is not None]
    pairs: dict[str, tuple[dict, float]] = {}
    if va and vb:
        sims = np.stack([x["vector"] for x in va]) @ np.stack([x["vector"] for x in vb]).T
        for i, x in enumerate(va):
            for j, y in enumerate(vb):
                union = x["situations"] | y["situations"]
                if union:
                    sims[i, j] += SITUATION_WEIGHT * len(x["situations"] & y["situations"]) / len(union)
        taken_a, taken_b = set(), set()
        for flat in np.argsort(-sims, axis=None):
            i, j = divmod(int(flat), sims.shape[1])
            if sims[i, j] < MIN_SCORE:
                break
            if i in taken_a or j in taken_b:
                continue
            taken_a.add(i)
            taken_b.add(j)
            pairs[va[i]["id"]] = (vb[j], float(sims[i, j]))
    out = []
    for x in laws_a:
        if x["id"] in pairs:
            y, score = pairs[x["id"]]
            out.append(Aligned(x, y, score, word_diff(x["text"], y["text"])))
        else:
            out.append(Aligned(x, None))
    matched_b = {y["id"] for y, _ in pairs.values()}
    out += [Aligned(None, y) for y in laws_b if y["id"] not in matched_b]
    return out
