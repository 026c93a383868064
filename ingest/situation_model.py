"""The situation and remedy model: proposes which situations a law nobody has reviewed decides,
and which remedies it gives.

A linear model a label (situation or remedy) over a law's features: its sentence vector (the 384
values the build stores), the counts of each situation's cue phrases in its text and the remedies
the cues find (the cues stay data, ``vocabulary/situations.toml``), TF-IDF weights of the words
and word pairs of its text and of its context (its section heading and, for a clause, its parent
law's text), and its game's family. It is fitted on the reviewed tags of ``corpus/annotations`` by
``benchmarks/train_situations.py`` (which also measures it, leaving one book out) and kept as a
small file, ``ingest/data/situation_model.npz``, with the hash of what it was fitted on; the build
loads it with numpy alone and never trains. Each label has its own weights (a ridge regression, a
linear support vector machine, or its cue count alone: whichever did best on the training books),
threshold and logistic map of its score to a confidence, all chosen on the training books
(``ingest/evaluate/situation_training.py``).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

MODEL = Path(__file__).parent / "data" / "situation_model.npz"
WORD = re.compile(r"[a-z]+")


def terms(text: str | None) -> list[str]:
    """The words (lower case, letters only) and adjacent word pairs of ``text``."""
    words = WORD.findall((text or "").lower())
    return words + [f"{a}_{b}" for a, b in itertools.pairwise(words)]


@dataclass
class Lexicon:
    """A TF-IDF vocabulary: ``terms`` in column order and their inverse document frequencies."""

    terms: list[str]
    idf: np.ndarray

    def transform(self, texts: list[str | None]) -> np.ndarray:
        """``(texts, terms)`` weights: (1 + log count) × idf, each row of unit length (sklearn's
        ``TfidfVectorizer(sublinear_tf=True)``)."""
        index = {t: i for i, t in enumerate(self.terms)}
        out = np.zeros((len(texts), len(self.terms)), dtype=np.float32)
        for row, text in enumerate(texts):
            counts: dict[int, int] = {}
            for t in terms(text):
                if t in index:
                    counts[index[t]] = counts.get(index[t], 0) + 1
            for i, n in counts.items():
                out[row, i] = (1 + np.log(n)) * self.idf[i]
            norm = np.linalg.norm(out[row])
            if norm:
                out[row] /= norm
        return out


@dataclass
class LawInput:
    """What the model reads of a law: its vector, cue counts by situation, the remedies its cues
    find, its text, its context (section heading and parent law's text) and its game's family."""

    vector: np.ndarray
    cues: dict[str, int]
    cue_remedies: set[str]
    text: str
    context: str
    family: str


@dataclass
class Features:
    """How laws become feature rows: ``cue_order`` (situations whose cue counts are features),
    ``remedy_order`` (remedies the cues may find), the text and context lexicons, the families."""

    cue_order: list[str]
    remedy_order: list[str]
    text: Lexicon
    context: Lexicon
    families: list[str]

    def matrix(self, laws: list[LawInput]) -> np.ndarray:
        """``(laws, features)`` rows, float32."""
        vectors = np.stack([law.vector.astype(np.float32) for law in laws])
        cues = np.array([[np.log1p(law.cues.get(s, 0)) for s in self.cue_order] for law in laws], dtype=np.float32)
        remedies = np.array([[r in law.cue_remedies for r in self.remedy_order] for law in laws], dtype=np.float32)
        family = np.array([[law.family == f for f in self.families] for law in laws], dtype=np.float32) * 0.5
        return np.hstack([vectors, cues.reshape(len(laws), -1), remedies.reshape(len(laws), -1),
                          self.text.transform([law.text for law in laws]),
                          0.5 * self.context.transform([law.context for law in laws]), family.reshape(len(laws), -1)])


@dataclass
class Labeller:
    """Linear scores for ``labels`` (weights ``(labels, features)``, biases), mapped to confidences
    by ``sigmoid(slopes × score + offsets)``; a label is proposed at or above its threshold."""

    labels: list[str]
    weights: np.ndarray
    biases: np.ndarray
    slopes: np.ndarray
    offsets: np.ndarray
    thresholds: np.ndarray

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """``(laws, labels)`` confidences for ``(laws, features)`` rows. The product is numpy's own
        loop (``einsum``), not BLAS: BLAS sums in an order that depends on its threads, so a build in
        a process that runs BLAS on one thread (one that also searches) stored confidences differing
        in their last bits from another's (0.78212237 and 0.78212249), and a rebuild with nothing
        changed was not the same database. About 0.1 s for the books' 1,540 laws."""
        scores = np.einsum("ij,kj->ik", np.asarray(x, dtype=np.float32), self.weights.astype(np.float32)) + self.biases
        return 1.0 / (1.0 + np.exp(-(scores * self.slopes + self.offsets)))

    def arrays(self, prefix: str) -> dict[str, np.ndarray]:
        return {f"{prefix}_weights": self.weights.astype(np.float16), f"{prefix}_biases": self.biases.astype(np.float32),
                f"{prefix}_slopes": self.slopes.astype(np.float32), f"{prefix}_offsets": self.offsets.astype(np.float32),
                f"{prefix}_thresholds": self.thresholds.astype(np.float32)}

    @classmethod
    def from_arrays(cls, labels: list[str], data, prefix: str) -> Labeller:
        return cls(labels, *(data[f"{prefix}_{k}"] for k in ("weights", "biases", "slopes", "offsets", "thresholds")))


@dataclass
class SituationModel:
    """The feature recipe, the situation and remedy labellers, ``pairing`` (situations × remedies:
    how often the reviewed tags give each remedy for each situation, to tie a proposed remedy to
    the situation it answers) and ``trained_on``, the sha256 of the training data."""

    features: Features
    situations: Labeller
    remedies: Labeller
    pairing: np.ndarray
    trained_on: str

    def propose(self, laws: list[LawInput]) -> list[tuple[dict[str, float], dict[str, tuple[str, float]]]]:
        """For each law: the situations proposed (id → confidence) and the remedies proposed
        (remedy → (the proposed situation it answers, confidence))."""
        if not laws:
            return []
        x = self.features.matrix(laws)
        s_probs, r_probs = self.situations.probabilities(x), self.remedies.probabilities(x)
        out = []
        for sp, rp in zip(s_probs, r_probs):
            chosen = {s: float(p) for s, p, t in zip(self.situations.labels, sp, self.situations.thresholds) if p >= t}
            remedies = {}
            for j, (r, p, t) in enumerate(zip(self.remedies.labels, rp, self.remedies.thresholds)):
                if p < t or not chosen:
                    continue
                rows = [self.situations.labels.index(s) for s in chosen]
                best = max(rows, key=lambda i: (self.pairing[i, j], sp[i]))
                remedies[r] = (self.situations.labels[best], float(p))
            out.append((chosen, remedies))
        return out

    def save(self, path: Path = MODEL) -> None:
        f = self.features
        meta = {"situations": self.situations.labels, "remedies": self.remedies.labels, "cue_order": f.cue_order,
                "remedy_order": f.remedy_order, "families": f.families, "text_terms": f.text.terms,
                "context_terms": f.context.terms, "trained_on": self.trained_on}
        np.savez_compressed(path, meta=np.array(json.dumps(meta)), text_idf=f.text.idf.astype(np.float32),
                            context_idf=f.context.idf.astype(np.float32), pairing=self.pairing.astype(np.float32),
                            **self.situations.arrays("situation"), **self.remedies.arrays("remedy"))

    @classmethod
    def load(cls, path: Path = MODEL) -> SituationModel | None:
        """The model at ``path``, or None when there is none (the build then proposes by cues alone)."""
        if not path.is_file():
            return None
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            features = Features(meta["cue_order"], meta["remedy_order"], Lexicon(meta["text_terms"], data["text_idf"]),
                                Lexicon(meta["context_terms"], data["context_idf"]), meta["families"])
            return cls(features, Labeller.from_arrays(meta["situations"], data, "situation"),
                       Labeller.from_arrays(meta["remedies"], data, "remedy"), data["pairing"], meta["trained_on"])


def training_hash(files: list[Path], model_name: str) -> str:
    """sha256 of the annotation files' bytes and the name of the vector model."""
    h = hashlib.sha256(model_name.encode())
    for f in sorted(files):
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()
