"""The situation model: proposes which situations a law nobody has reviewed decides.

One logistic regression a situation (scikit-learn), over a law's sentence vector (the 384 values
the build stores) and the counts of each situation's cue phrases in its text (the cues stay data,
``vocabulary/situations.toml``). It is fitted on the reviewed tags of ``corpus/annotations`` by
``benchmarks/train_situations.py`` (which also measures it, leaving one book out) and kept as a
small file, ``ingest/data/situation_model.npz``, with the hash of what it was fitted on; the build
loads it and never trains. Each situation has its own threshold, chosen on the training books.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

MODEL = Path(__file__).parent / "data" / "situation_model.npz"


def features(vector: np.ndarray, cue_counts: dict[str, int], situations: list[str]) -> np.ndarray:
    """A law's features: its vector (float32, unit length) and, per situation in ``situations``
    order, log(1 + cue matches)."""
    cues = np.array([np.log1p(cue_counts.get(s, 0)) for s in situations], dtype=np.float32)
    return np.concatenate([vector.astype(np.float32), cues])


@dataclass
class SituationModel:
    """Weights ``(situations, features)``, biases and thresholds a situation; ``situations`` in the
    order of the rows; ``cue_order`` the situations whose cue counts are features; ``trained_on``
    the sha256 of the training data."""

    situations: list[str]
    cue_order: list[str]
    weights: np.ndarray
    biases: np.ndarray
    thresholds: np.ndarray
    trained_on: str

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """``(laws, situations)`` probabilities for ``(laws, features)`` rows."""
        return 1.0 / (1.0 + np.exp(-(x @ self.weights.T + self.biases)))

    def save(self, path: Path = MODEL) -> None:
        np.savez_compressed(path, weights=self.weights.astype(np.float32), biases=self.biases.astype(np.float32),
                            thresholds=self.thresholds.astype(np.float32),
                            meta=np.array(json.dumps({"situations": self.situations, "cue_order": self.cue_order,
                                                      "trained_on": self.trained_on})))

    @classmethod
    def load(cls, path: Path = MODEL) -> SituationModel | None:
        """The model at ``path``, or None when there is none (the build then proposes by cues alone)."""
        if not path.is_file():
            return None
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            return cls(meta["situations"], meta["cue_order"], data["weights"], data["biases"], data["thresholds"],
                       meta["trained_on"])


def training_hash(files: list[Path], model_name: str) -> str:
    """sha256 of the annotation files' bytes and the name of the vector model."""
    h = hashlib.sha256(model_name.encode())
    for f in sorted(files):
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()
