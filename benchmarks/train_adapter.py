"""Fit the query adapter (ingest/query/adapter.py) on the laws' plain questions and accounts.

    python benchmarks/train_adapter.py [--db PATH] [--save]

Pairs: every question of ``law_questions`` (with its stored vector) and every account of
``laws.accounts`` (embedded here, about 8 s), each with its law; laws are those with a vector.
The map ``W`` minimises the mean cross-entropy of "which law is this question's" (softmax over the
cosines of the adapted question with every law, temperature TEMPERATURE) plus PULL_TO_IDENTITY/2 ·
‖W − I‖², by scipy's L-BFGS-B from the identity (100 iterations; about 50 s here). It prints the
share of questions whose own law is nearest, before and after. The judged search queries are not
used: the ranker that uses the adapted cosine is measured on them (benchmarks/train_ranker.py).
With --save, writes ingest/data/query_adapter.npz with the sha256 of corpus/questions/*.csv and
the model name; fit the ranker again after it.
"""

from __future__ import annotations

import argparse
import sqlite3
import time
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

from ingest.embed import load_embedder
from ingest.paths import CORPUS, DEFAULT_DB
from ingest.query.adapter import ADAPTER, PULL_TO_IDENTITY, TEMPERATURE, QueryAdapter
from ingest.query.vectors import QuestionIndex, VectorIndex
from ingest.situation_model import training_hash

ITERATIONS = 100


def pairs(conn: sqlite3.Connection, laws: VectorIndex, model: str) -> tuple[np.ndarray, np.ndarray]:
    """(the questions' and accounts' vectors ``(n, dim)`` float64, the row of each one's law in ``laws``)."""
    questions = QuestionIndex(conn, model, laws)
    accounts = [(laws.position[law_id], line.strip()) for law_id, text in conn.execute(
        "select id, accounts from laws where accounts is not null") if law_id in laws.position
        for line in text.splitlines() if line.strip()]
    vectors = load_embedder(model).encode([text for _, text in accounts]) if accounts else np.zeros((0, laws.matrix.shape[1]))
    x = np.vstack([questions.matrix, vectors]).astype(np.float64)
    return x, np.concatenate([questions.law_rows, np.array([row for row, _ in accounts], dtype=np.intp)])


def fit(x: np.ndarray, target: np.ndarray, laws: np.ndarray) -> np.ndarray:
    """The map ``W`` (``(dim, dim)`` float32) for questions ``x`` of laws ``target`` (rows of ``laws``)."""
    n, dim = x.shape
    identity = np.eye(dim)
    every = np.arange(n)

    def loss(flat: np.ndarray) -> tuple[float, np.ndarray]:
        w = flat.reshape(dim, dim)
        mapped = x @ w
        norm = np.linalg.norm(mapped, axis=1, keepdims=True)
        unit = mapped / norm
        logits = unit @ laws.T / TEMPERATURE
        top = logits.max(axis=1, keepdims=True)
        p = np.exp(logits - top)
        z = p.sum(axis=1, keepdims=True)
        p /= z
        value = -(logits[every, target] - top[:, 0] - np.log(z[:, 0])).mean() + 0.5 * PULL_TO_IDENTITY * ((w - identity) ** 2).sum()
        p[every, target] -= 1
        d_unit = p @ laws / TEMPERATURE / n
        d_mapped = (d_unit - unit * (d_unit * unit).sum(axis=1, keepdims=True)) / norm
        return value, (x.T @ d_mapped + PULL_TO_IDENTITY * (w - identity)).ravel()

    result = minimize(loss, identity.ravel(), jac=True, method="L-BFGS-B", options={"maxiter": ITERATIONS})
    return result.x.reshape(dim, dim).astype(np.float32)


def own_law_first(x: np.ndarray, target: np.ndarray, laws: np.ndarray, w: np.ndarray | None = None) -> float:
    mapped = x if w is None else x @ w
    return float(np.mean(np.argmax(mapped @ laws.T, axis=1) == target))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", type=Path, default=DEFAULT_DB)
    ap.add_argument("--save", action="store_true", help="write ingest/data/query_adapter.npz")
    args = ap.parse_args()
    conn = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    model = conn.execute("select model from law_embeddings limit 1").fetchone()[0]
    laws = VectorIndex(conn, model)
    t = time.perf_counter()
    x, target = pairs(conn, laws, model)
    matrix = laws.matrix.astype(np.float64)
    print(f"{len(x)} questions and accounts of {len(set(target.tolist()))} laws ({len(laws.ids)} laws with vectors), "
          f"read in {time.perf_counter() - t:.1f} s")
    t = time.perf_counter()
    w = fit(x, target, matrix)
    print(f"fitted in {time.perf_counter() - t:.0f} s; own law nearest: {own_law_first(x, target, matrix):.3f} before, "
          f"{own_law_first(x, target, matrix, w.astype(np.float64)):.3f} after")
    if args.save:
        files = sorted((CORPUS / "questions").glob("*.csv"))
        QueryAdapter(w, model, training_hash(files, model)).save(ADAPTER)
        print(f"saved {ADAPTER} ({ADAPTER.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
