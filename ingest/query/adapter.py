"""The query adapter: a linear map that carries a query's sentence vector from players' modern words
towards the books' wording, so that its cosine with a law's vector says more.

The embedding model puts "the dealer flipped a card" nearer other modern sentences than the law
that decides it ("If the dealer expose a card…"). The adapter is a 384 × 384 matrix ``W`` fitted by
``benchmarks/train_adapter.py`` on the laws' own plain questions and accounts (``corpus/questions``;
each is paired with its law): a question's vector times ``W``, made unit length, should be nearer
its law's vector than any other law's (softmax over every law, temperature :data:`TEMPERATURE`),
with ``W`` kept near the identity. It is kept in ``ingest/data/query_adapter.npz`` (float16) with the
sha256 of the question files and the model name; serving needs numpy only and never fits it. The
ranker uses the adapted cosine as one of its features (``adapted_cosine``, :mod:`ingest.query.rank`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ADAPTER = Path(__file__).resolve().parent.parent / "data" / "query_adapter.npz"

# PULL_TO_IDENTITY chosen by the ranker's 5-fold cross-validation on 379 training queries
# (benchmarks/train_ranker.py) among 1e-3, 1e-2 and 1e-1: nDCG@10 0.731, 0.729, 0.722 (0.714 without
# the adapter); a temperature of 0.03 or 0.1 did worse than 0.05 in a first trial (0.724, 0.722, 0.726)
TEMPERATURE = 0.05
PULL_TO_IDENTITY = 1e-3


class AdapterError(Exception):
    """The adapter's file is missing, unreadable or fitted for another embedding model."""


@dataclass(frozen=True)
class QueryAdapter:
    """``matrix``: ``(dim, dim)`` float32; ``model``: the embedding model whose vectors it maps;
    ``trained_on``: sha256 of the question files it was fitted on (:func:`ingest.situation_model.training_hash`)."""

    matrix: np.ndarray
    model: str
    trained_on: str

    def adapt(self, vector: np.ndarray) -> np.ndarray:
        """``vector`` (``(dim,)``, a query's sentence vector) mapped by the adapter, unit length."""
        out = vector @ self.matrix
        norm = float(np.linalg.norm(out))
        return out / norm if norm else out

    def save(self, path: Path = ADAPTER) -> None:
        meta = {"model": self.model, "trained_on": self.trained_on, "temperature": TEMPERATURE,
                "pull_to_identity": PULL_TO_IDENTITY}
        np.savez_compressed(path, matrix=self.matrix.astype(np.float16), meta=np.array(json.dumps(meta)))

    @classmethod
    def load(cls, model: str, path: Path = ADAPTER) -> QueryAdapter:
        """The adapter for vectors of embedding ``model``. Raises :class:`AdapterError` when the file
        is missing or unreadable, or was fitted for another model."""
        again = ("restore the file from the repository (git checkout -- ingest/data/query_adapter.npz) or fit it "
                 "with benchmarks/train_adapter.py --save, then benchmarks/train_ranker.py --save")
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                matrix = data["matrix"].astype(np.float32)
            fitted_for, trained_on = meta["model"], str(meta["trained_on"])
        except Exception as e:  # noqa: BLE001 - a damaged file fails in many ways (zip, EOF, JSON, keys)
            raise AdapterError(f"{path}: cannot be read ({type(e).__name__}: {e}); {again}") from None
        if fitted_for != model:
            raise AdapterError(f"{path}: fitted for the vectors of {fitted_for!r}, not {model!r}; {again}")
        if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1] or not np.isfinite(matrix).all():
            raise AdapterError(f"{path}: not a square matrix of finite numbers (shape {matrix.shape}); {again}")
        return cls(matrix, fitted_for, trained_on)
