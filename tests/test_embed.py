"""The embedding model run with numpy gives the vectors sentence-transformers gives (the reference
vectors were computed by sentence-transformers itself: benchmarks/embed_reference.py), and refuses
altered weights."""

from __future__ import annotations

import json
import math
import shutil
import time
from pathlib import Path

import numpy as np
import pytest

from ingest.embed import MAX_TOKENS, PUBLISHED_SHA256, MiniLM, ModelError, gelu, load_embedder, model_dir

REFERENCE = Path(__file__).parent / "embed" / "reference.json"


def test_vectors_are_those_of_sentence_transformers():
    reference = json.loads(REFERENCE.read_text())
    assert reference["max_seq_length"] == MAX_TOKENS
    ours = load_embedder().encode(reference["texts"])
    theirs = np.array(reference["vectors"], dtype=np.float32)
    assert ours.shape == theirs.shape == (len(reference["texts"]), 384)
    assert np.abs(ours - theirs).max() < 1e-5
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)


def test_a_text_embeds_alike_alone_and_in_a_batch():
    texts = json.loads(REFERENCE.read_text())["texts"]
    embedder = load_embedder()
    assert np.abs(embedder.encode(texts[1:2])[0] - embedder.encode(texts)[1]).max() < 1e-5


def test_batches_give_each_text_once_as_they_are_computed():
    """MiniLM.batches (the build's progress bar moves with it): every text once, each vector the
    one encode gives; a consumer that stops after the first batch is not kept waiting for the rest."""
    texts = json.loads(REFERENCE.read_text())["texts"] * 30
    embedder = load_embedder()
    seen = np.zeros(len(texts), dtype=int)
    vectors = np.zeros((len(texts), 384), dtype=np.float32)
    for idx, vecs in embedder.batches(texts, batch_size=4):
        assert len(idx) == len(vecs) <= 4
        seen[idx] += 1
        vectors[idx] = vecs
    assert (seen == 1).all()
    assert np.array_equal(vectors, embedder.encode(texts, batch_size=4))
    stream = embedder.batches(texts * 20, batch_size=1)  # computed in full: about a minute here
    next(stream)
    start = time.monotonic()
    stream.close()  # the workers' queued batches are cancelled, not computed
    assert time.monotonic() - start < 5


def test_altered_weights_are_refused(tmp_path):
    folder = tmp_path / "model"
    shutil.copytree(model_dir(), folder)
    with open(folder / "config.json", "a") as f:
        f.write(" ")
    with pytest.raises(ModelError, match="config.json"):
        MiniLM(folder)
    assert set(PUBLISHED_SHA256) == {"model.safetensors", "tokenizer.json", "config.json"}


def test_gelu_is_bert_s_exact_gelu():
    """x·Φ(x) with Φ from math.erf, over the range a layer's activations take and beyond."""
    x = np.linspace(-12.0, 12.0, 24_001, dtype=np.float32)
    exact = np.array([v * 0.5 * (1.0 + math.erf(v / math.sqrt(2.0))) for v in x.astype(np.float64)])
    assert np.abs(gelu(x.copy()).astype(np.float64) - exact).max() < 1e-6
