"""The variants of the parallels method tried against judged samples A and B (how M4 was chosen).

    python benchmarks/parallels_variants.py [--db PATH]

Samples A and B (``tests/parallels/``) were both used here to develop the method, so neither
measures the method chosen (M4): sample C, drawn after it was frozen, does. Judgments exist only
for the pairs some method proposed when a sample was drawn (A: the top 5 of M0–M3 pooled; B: M1's
top 5 and 6 same-rule laws a judge added), so a candidate nobody judged counts as wrong. For each
variant: precision@5 (same or related) on A and on B, the share of its top 5 that is judged, and
the pairs of M1's top 5 (A and B together) that it moves out, with how many of them were judged
same or related. A variant whose P@5 holds while its judged share falls has replaced judged pairs
by unjudged ones: these samples cannot show it better, only sample C can. The last column is the
share of the (positive, negative) judged pairs of one law that the variant's score puts in the
right order, on A and on B: a comparison of scores on judged pairs only.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
from collections import defaultdict
from pathlib import Path

import numpy as np
from parallels_eval import DB, load
from sklearn.linear_model import LogisticRegression

from ingest.build.link import word_vectors
from ingest.vocabulary import family_of

SAMPLES = Path(__file__).resolve().parent.parent / "tests" / "parallels"
TOP = 5


class Pairs:
    """Every feature of every (law, candidate) pair, rows and columns as ``Corpus.ids``."""

    def __init__(self, db: Path):
        c = load(db)
        self.c, ids = c, c.ids
        self.index = {x: k for k, x in enumerate(ids)}
        meta = c.meta
        x = c.matrix / np.linalg.norm(c.matrix, axis=1, keepdims=True)
        self.cos = x @ x.T
        code = np.array([meta[i]["code"] for i in ids])
        game = np.array([meta[i]["game"] for i in ids])
        family = np.array([family_of(g) for g in game])
        self.valid = np.array([meta[i]["kind"] != "reference" for i in ids])[None, :] & (code[:, None] != code[None, :])
        conn = sqlite3.connect(db)
        q = {"decides": "select law_id, situation_id from law_situations where grade = 'decides' and origin = 'reviewed'",
             "predicted": "select law_id, situation_id from law_situations where grade = 'decides'",
             "touches": "select law_id, situation_id from law_situations where origin = 'reviewed'",
             "remedies": "select law_id, situation_id || ':' || remedy from law_remedies where origin = 'reviewed'",
             "entities": "select law_id, entity_id from law_entities"}
        t = {k: self.tags(conn.execute(sql)) for k, sql in q.items()}
        has = t["decides"].any(axis=1)
        self.shared = t["decides"] @ t["decides"].T > 0
        self.apart = ~self.shared & has[:, None] & has[None, :]
        self.remedy = t["remedies"] @ t["remedies"].T > 0
        self.touch = t["touches"] @ t["touches"].T > 0
        pred = t["predicted"] @ t["predicted"].T > 0
        has_pred = t["predicted"].any(axis=1)
        self.shared_pred, self.apart_pred = pred, ~pred & has_pred[:, None] & has_pred[None, :]
        self.sit_jaccard, self.ent_jaccard = jaccard(t["decides"]), jaccard(t["entities"])
        df = t["decides"].sum(axis=0)
        self.sit_idf = (t["decides"] * np.log(len(ids) / np.maximum(df, 1))) @ t["decides"].T
        self.same_game, self.same_family = game[:, None] == game[None, :], family[:, None] == family[None, :]
        words = np.array([len(meta[i]["text"].split()) for i in ids])
        self.length_ratio = np.minimum.outer(words, words) / np.maximum.outer(words, words)
        self.short = np.broadcast_to(words[None, :] < 8, self.cos.shape)
        self.untagged = has[:, None] & ~has[None, :]
        self.words = c.words @ c.words.T  # with the clause's law (M4)
        bare = word_vectors([meta[i]["text"] for i in ids])
        self.bare_words = bare @ bare.T
        parent = np.array([self.index.get(meta[i]["parent"] or "", -1) for i in ids])
        blended = x + 0.5 * np.where(parent[:, None] >= 0, x[parent], 0)
        blended /= np.linalg.norm(blended, axis=1, keepdims=True)
        self.cos_blended = blended @ blended.T
        self.m1 = self.cos + 0.10 * self.shared + 0.05 * self.remedy - 0.10 * self.apart

    def tags(self, rows) -> np.ndarray:
        """A 0/1 matrix law × tag; a law holds the tags of the cases (clauses) it lists too."""
        per = defaultdict(set)
        for law_id, tag in rows:
            while law_id:
                per[law_id].add(tag)
                law_id = self.c.meta[law_id]["parent"]
        cols = {t: k for k, t in enumerate(sorted({t for v in per.values() for t in v}))}
        out = np.zeros((len(self.c.ids), len(cols)), dtype=np.float32)
        for law_id, tags in per.items():
            if law_id in self.index:
                out[self.index[law_id], [cols[t] for t in tags]] = 1
        return out

    def top(self, score: np.ndarray, i: int) -> list[int]:
        s = np.where(self.valid[i], score[i], -np.inf)
        return [j for j in np.argsort(-s, kind="stable")[:TOP] if np.isfinite(s[j])]


def jaccard(a: np.ndarray) -> np.ndarray:
    inter = a @ a.T
    union = a.sum(1)[:, None] + a.sum(1)[None, :] - inter
    return np.where(union > 0, inter / np.maximum(union, 1), 0)


def judged(sample: str) -> dict[str, dict[str, bool]]:
    """law → candidate → judged same or related."""
    out: dict[str, dict[str, bool]] = defaultdict(dict)
    for line in (SAMPLES / f"sample-{sample}.jsonl").read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        out[r["law"]][r["candidate"]] = r["judgment"] in ("same", "related")
    return out


def capped(p: Pairs, score: np.ndarray, cap: int) -> np.ndarray:
    """``score`` with a law's candidates beyond the ``cap``-th of one code moved below the rest."""
    code = np.array([p.c.meta[i]["code"] for i in p.c.ids])
    out = np.where(p.valid, score, -np.inf)
    for i in range(len(out)):
        seen: dict[str, int] = defaultdict(int)
        for j in np.argsort(-out[i], kind="stable")[:40]:
            seen[code[j]] += 1
            if seen[code[j]] > cap:
                out[i, j] -= 100
    return out


def reranked(p: Pairs, base: np.ndarray, second: np.ndarray, k: int) -> np.ndarray:
    """``base``'s top ``k`` ordered by ``second``, above the rest."""
    out = np.where(p.valid, base, -np.inf)
    for i in range(len(out)):
        keep = np.argsort(-out[i], kind="stable")[:k]
        out[i, keep] = 100 + second[i, keep]
    return out


FEATURES = ("cos", "words", "shared", "apart", "remedy", "ent_jaccard", "same_game", "same_family", "length_ratio")


def learned(p: Pairs, sample: str) -> np.ndarray:
    """A logistic regression over FEATURES, fitted on the judged pairs of ``sample``."""
    rows, labels = [], []
    for law, cands in judged(sample).items():
        for cand, ok in cands.items():
            if law in p.index and cand in p.index:
                i, j = p.index[law], p.index[cand]
                rows.append([float(getattr(p, f)[i, j]) for f in FEATURES])
                labels.append(ok)
    model = LogisticRegression(max_iter=1000).fit(np.array(rows), np.array(labels))
    print(f"  (LR fitted on {sample.upper()}: " + ", ".join(f"{f} {w:+.2f}" for f, w in zip(FEATURES, model.coef_[0])) + ")")
    return sum(w * getattr(p, f).astype(np.float32) for f, w in zip(FEATURES, model.coef_[0]))


def variants(p: Pairs) -> dict[str, np.ndarray]:
    m1 = p.m1
    return {
        "cosine alone (any other code)": p.cos,
        "M1 (frozen before: cos + .10 shared − .10 apart + .05 remedy)": m1,
        "M2 (a shared situation first)": p.cos + 10 * p.shared,
        "M3 (M1, at most 2 of one code)": capped(p, m1, 2),
        "M1 with .05 / .05": p.cos + 0.05 * p.shared + 0.05 * p.remedy - 0.05 * p.apart,
        "M1 with .20 / .20": p.cos + 0.20 * p.shared + 0.05 * p.remedy - 0.20 * p.apart,
        "M1, predicted tags too": p.cos + 0.10 * p.shared_pred + 0.05 * p.remedy - 0.10 * p.apart_pred,
        "M1, apart only if no touched situation shared": m1 + 0.10 * (p.apart & p.touch),
        "M1, situation Jaccard ×.10 for shared": m1 - 0.10 * p.shared + 0.10 * p.sit_jaccard,
        "M1 + .02 × idf of shared situations": m1 + 0.02 * p.sit_idf,
        "M1 + .05 × entity Jaccard": m1 + 0.05 * p.ent_jaccard,
        "M1 + .03 same game": m1 + 0.03 * p.same_game,
        "M1 − .05 same game": m1 - 0.05 * p.same_game,
        "M1 + .03 same family": m1 + 0.03 * p.same_family,
        "M1 + .05 × length ratio": m1 + 0.05 * p.length_ratio,
        "M1 − .10 candidate under 8 words": m1 - 0.10 * p.short,
        "M1 − .05 untagged candidate of a tagged law": m1 - 0.05 * p.untagged,
        "M1, a clause's vector + .5 × its law's": p.cos_blended + m1 - p.cos,
        "M1 + .10 × word cosine": m1 + 0.10 * p.words,
        "M1 + .30 × word cosine": m1 + 0.30 * p.words,
        "M1's top 7 reordered by M1 + .5 × word cosine": reranked(p, m1, m1 + 0.5 * p.words, 7),
        "LR fitted on A": learned(p, "a"),
        "LR fitted on B": learned(p, "b"),
        "M1 − .10 if word cosine < .03": m1 - 0.10 * (p.words < 0.03),
        "M1 − .10 if word cosine < .04": m1 - 0.10 * (p.words < 0.04),
        "M4: M1 − .10 if word cosine < .05": m1 - 0.10 * (p.words < 0.05),
        "M1 − .10 if word cosine < .06": m1 - 0.10 * (p.words < 0.06),
        "M1 − .20 if word cosine < .05": m1 - 0.20 * (p.words < 0.05),
        "M1 − .10 if word cosine < .05, clause alone": m1 - 0.10 * (p.bare_words < 0.05),
    }


def scores(p: Pairs, score: np.ndarray, sample: dict[str, dict[str, bool]]) -> tuple[float, float, int, int, float]:
    """P@5 (unjudged wrong), judged share, M1 pairs moved out (and how many judged positive), and
    the within-law order of judged pairs."""
    prec = share = out = out_ok = 0
    right = total = 0.0
    for law, cands in sample.items():
        i = p.index[law]
        top = [p.c.ids[j] for j in p.top(score, i)]
        prec += sum(cands.get(x, False) for x in top) / TOP
        share += sum(x in cands for x in top) / TOP
        gone = {p.c.ids[j] for j in p.top(p.m1, i)} - set(top)
        out, out_ok = out + len(gone), out_ok + sum(cands.get(x, False) for x in gone)
        js = [(p.index[x], ok) for x, ok in cands.items() if x in p.index]
        for j, ok in js:
            for k, ok2 in js:
                if ok and not ok2:
                    total += 1
                    right += 1 if score[i, j] > score[i, k] else 0.5 if score[i, j] == score[i, k] else 0
    n = len(sample)
    return prec / n, share / n, out, out_ok, right / total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=DB)
    args = parser.parse_args()
    p = Pairs(args.db)
    a, b = judged("a"), judged("b")
    print(f"{'variant':<64}{'A P@5':>7}{'judged':>7}{'B P@5':>7}{'judged':>7}  M1 pairs out (+)  order A / B")
    for name, score in variants(p).items():
        pa, sa, oa, ok_a, ra = scores(p, score, a)
        pb, sb, ob, ok_b, rb = scores(p, score, b)
        print(f"{name:<64}{pa:>7.3f}{sa:>7.2f}{pb:>7.3f}{sb:>7.2f}  {oa + ob:>5} ({ok_a + ok_b:>3})"
              f"        {ra:.3f} / {rb:.3f}")


if __name__ == "__main__":
    main()
