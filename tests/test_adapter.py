"""The query adapter (ingest/query/adapter.py): fitted on the questions as they are, refused when it
cannot serve, and it brings a player's words nearer the law that decides them."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ingest.embed import DEFAULT_MODEL
from ingest.paths import CORPUS
from ingest.query.adapter import AdapterError, QueryAdapter
from ingest.query.search import Searcher
from ingest.situation_model import training_hash


def test_the_adapter_was_fitted_on_the_questions_as_they_are():
    # refit with: python benchmarks/train_adapter.py --save (then benchmarks/train_ranker.py --save)
    adapter = QueryAdapter.load(DEFAULT_MODEL)
    assert adapter.trained_on == training_hash(sorted((CORPUS / "questions").glob("*.csv")), DEFAULT_MODEL)
    assert adapter.matrix.shape == (384, 384) and adapter.matrix.dtype == np.float32


def test_an_adapter_for_another_model_or_no_file_is_refused(tmp_path):
    meta = {"model": "another-model", "trained_on": "x"}
    np.savez(tmp_path / "a.npz", matrix=np.eye(4, dtype=np.float16), meta=np.array(json.dumps(meta)))
    with pytest.raises(AdapterError, match="another-model"):
        QueryAdapter.load(DEFAULT_MODEL, tmp_path / "a.npz")
    with pytest.raises(AdapterError, match="cannot be read"):
        QueryAdapter.load(DEFAULT_MODEL, tmp_path / "missing.npz")


@pytest.mark.parametrize("damage", ["truncated", "empty", "no trained_on", "meta a list", "not square", "not finite"])
def test_a_damaged_adapter_file_is_refused_with_what_to_do(tmp_path, damage):
    good = (CORPUS.parent / "ingest" / "data" / "query_adapter.npz").read_bytes()
    path = tmp_path / "a.npz"
    meta = {"model": DEFAULT_MODEL, "trained_on": "x"}
    matrix = np.eye(4, dtype=np.float16)
    if damage == "truncated":
        path.write_bytes(good[: len(good) // 2])
    elif damage == "empty":
        path.write_bytes(b"")
    else:
        if damage == "no trained_on":
            meta = {"model": DEFAULT_MODEL}
        elif damage == "meta a list":
            meta = [DEFAULT_MODEL]
        elif damage == "not square":
            matrix = np.ones((4, 3), dtype=np.float16)
        else:
            matrix = np.full((4, 4), np.nan, dtype=np.float16)
        np.savez(path, matrix=matrix, meta=np.array(json.dumps(meta)))
    with pytest.raises(AdapterError, match="restore the file from the repository"):
        QueryAdapter.load(DEFAULT_MODEL, path)


def test_an_adapted_vector_has_unit_length():
    adapter = QueryAdapter(np.diag(np.arange(1, 5, dtype=np.float32)), DEFAULT_MODEL, "x")
    out = adapter.adapt(np.array([1, 1, 0, 0], dtype=np.float32))
    assert np.allclose(out, np.array([1, 2, 0, 0]) / np.sqrt(5))


@pytest.mark.parametrize("query, law_id", [
    # Peel's Poker 11: "If the dealer, while dealing, accidentally expose a card …"
    ("dealer accidentally flipped a card", "peel-round-games-with-cards-1891/poker/11"),
    # Hoffmann's Whist 74: "It is a revoke when a player, holding one or more cards of the suit led,
    # plays a card of a different suit"
    ("player reneged", "hoffmann-hoyles-games-modernized-1909/whist/74"),
    # Peel's Poker 8: "If the cards be dealt without the pack having been cut …"
    ("the deck was not cut", "peel-round-games-with-cards-1891/poker/8"),
])
def test_the_adapted_query_is_nearer_the_law_that_decides_it(books_db, query, law_id):
    searcher = Searcher(books_db.db_path)
    vector = searcher.query_vector(query)
    row = searcher.index.position[law_id]

    def laws_nearer(v: np.ndarray) -> int:
        cosines = searcher.index.matrix @ v
        return int((cosines > cosines[row]).sum())

    assert laws_nearer(searcher.adapter.adapt(vector)) < laws_nearer(vector)

