"""Search quality and speed on the judged queries (tests/search: BEIR layout), per mode.

    python benchmarks/search_eval.py [--db PATH] [--synthetic N] [--test [FOLDER]]

Prints nDCG@10, Recall@20 and MRR (reciprocal rank of the first law graded 2 or 1) for the
lexical, dense, hybrid and ranked modes, measured with ir-measures, over all queries and per
query type (game named, negation, one word, question, plain); the share of queries whose top ten
holds laws of three or more games; warm p50/p95 latency per query; the model's load time; and how
many nonsense queries come back with no results. The ranked mode's figure on the training queries
flatters it (it was fitted on them): its honest figures are the 5-fold cross-validation of
``benchmarks/train_ranker.py`` and ``--test``, which scores the held-out test set (tests/search/test38/;
the earlier ones were scored once and joined the training queries) and its nonsense queries, once,
at the end of a piece of work.
``--synthetic N`` also times dense and hybrid search over N laws with random vectors (the cost of
search at that size, not its quality).
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import tempfile
import time
from pathlib import Path

import ir_measures
import numpy as np
from ir_measures import MRR, R, nDCG

from ingest.embed import DEFAULT_MODEL
from ingest.query.search import Searcher

HERE = Path(__file__).resolve().parent.parent / "tests" / "search"


def load_judgments(folder: Path = HERE) -> tuple[dict[str, str], list]:
    queries = {}
    for line in (folder / "queries.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            q = json.loads(line)
            queries[q["_id"]] = q["text"]
    qrels = []
    for line in (folder / "qrels.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        if line.strip():
            qid, doc, score = line.split("\t")
            qrels.append(ir_measures.Qrel(qid, doc, int(score)))
    return queries, qrels


def load_types(folder: Path = HERE) -> dict[str, list[str]]:
    out = {}
    for line in (folder / "queries.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            q = json.loads(line)
            out[q["_id"]] = q.get("types") or ["plain"]
    return out


def nonsense_answered(searcher: Searcher, path: Path) -> tuple[int, int]:
    """(queries answered, queries) of a nonsense file: each should come back with no results."""
    texts = [t.strip() for t in path.read_text(encoding="utf-8").splitlines() if t.strip() and not t.startswith("#")]
    return sum(bool(searcher.search(t)) for t in texts), len(texts)


def run(searcher: Searcher, queries: dict[str, str], mode: str, k: int = 20):
    results, latencies, games3 = [], [], 0
    for qid, text in queries.items():
        t = time.perf_counter()
        hits = searcher.search(text, mode=mode, limit=k)
        latencies.append((time.perf_counter() - t) * 1000)
        games3 += len({h.game for h in hits[:10]}) >= 3
        results += [ir_measures.ScoredDoc(qid, h.id, float(k - i)) for i, h in enumerate(hits)]
    return results, latencies, games3


def pct(values: list[float], p: float) -> float:
    return float(np.percentile(values, p))


def synthetic(n: int, real_db: Path, queries: dict[str, str], dim: int = 384) -> None:
    """Dense and hybrid search over ``n`` laws: the real laws' texts repeated with their words
    shuffled (so words are as common as in the books), and random unit vectors."""
    rng = np.random.default_rng(7)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "synthetic.db"
        conn = sqlite3.connect(db)
        conn.executescript(
            "create table games(slug text primary key, name text);"
            "create table sources(slug text primary key, title text);"
            "create table laws(id text primary key, source text, game text, number text, kind text, text text, "
            "note text, entities text, ordinal int, witness_of text, topics text);"
            "create virtual table laws_fts using fts5(text, note, topics, content=laws, tokenize='porter');"
            "create table law_embeddings(law_id text primary key, model text, content_hash text, vector blob);"
        )
        games = [f"game{i}" for i in range(20)]
        conn.executemany("insert into games values (?, ?)", [(g, g) for g in games])
        conn.execute("insert into sources values ('s', 'Synthetic')")
        real = [r[0] for r in sqlite3.connect(real_db).execute("select text from laws")]
        vecs = rng.standard_normal((n, dim)).astype(np.float32)
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)

        def text(i: int) -> str:
            ws = real[i % len(real)].split()
            random.Random(i).shuffle(ws)
            return " ".join(ws)

        rows = [(f"s/{games[i % 20]}/{i}", "s", games[i % 20], str(i), "law", text(i), None, "[]", i, None, None)
                for i in range(n)]
        conn.executemany("insert into laws values (?,?,?,?,?,?,?,?,?,?,?)", rows)
        conn.execute("insert into laws_fts(rowid, text, note, topics) select rowid, text, note, topics from laws")
        conn.executemany("insert into law_embeddings values (?, ?, ?, ?)",
                         [(rows[i][0], DEFAULT_MODEL, "", vecs[i].tobytes()) for i in range(n)])
        conn.commit()
        conn.close()
        t = time.perf_counter()
        searcher = Searcher(db)
        print(f"synthetic {n:,} laws: index load {(time.perf_counter() - t) * 1000:.0f} ms, "
              f"{searcher.index.matrix.nbytes / 2**20:.0f} MB of vectors")
        texts = list(queries.values())
        searcher.search(texts[0], mode="hybrid")  # warm: model and tagger loaded
        for mode in ("lexical", "dense", "hybrid"):
            lat = []
            for text in texts:
                t = time.perf_counter()
                searcher.search(text, mode=mode, limit=20)
                lat.append((time.perf_counter() - t) * 1000)
            print(f"  {mode:<7} p50 {pct(lat, 50):6.1f} ms   p95 {pct(lat, 95):6.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=Path(__file__).resolve().parent.parent / "db" / "cardlaws.db")
    parser.add_argument("--synthetic", type=int, default=0)
    parser.add_argument("--test", nargs="?", const="test38", metavar="FOLDER",
                        help="score a held-out test set of tests/search/ (default test38), once, at the end of a piece "
                             "of work, with its nonsense queries (FOLDER/nonsense.txt)")
    args = parser.parse_args()
    folder = HERE / args.test if args.test else HERE
    if not (folder / "queries.jsonl").is_file():
        parser.error(f"no judged queries in {folder}: a held-out set is written apart first (tests/search/README.md)")
    queries, qrels = load_judgments(folder)
    types = load_types(folder)
    t = time.perf_counter()
    searcher = Searcher(args.db)
    from ingest.embed import load_embedder

    load_embedder(searcher.model)
    print(f"index and model load: {(time.perf_counter() - t) * 1000:.0f} ms; {len(queries)} queries, {len(qrels)} judgments")
    searcher.search("warm up", mode="hybrid")
    measures = [nDCG @ 10, R(rel=1) @ 20, MRR(rel=1)]
    print(f"{'mode':<9}{'nDCG@10':>9}{'R@20':>8}{'MRR':>8}{'3+ games':>10}{'p50 ms':>9}{'p95 ms':>9}")
    by_type: dict[str, dict[str, float]] = {}
    for mode in ("lexical", "dense", "hybrid", "ranked"):
        results, lat, games3 = run(searcher, queries, mode)
        agg = ir_measures.calc_aggregate(measures, qrels, results)
        print(f"{mode:<9}{agg[nDCG @ 10]:>9.3f}{agg[R(rel=1) @ 20]:>8.3f}{agg[MRR(rel=1)]:>8.3f}"
              f"{games3 / len(queries):>10.2f}{pct(lat, 50):>9.1f}{pct(lat, 95):>9.1f}")
        per_query = {m.query_id: m.value for m in ir_measures.iter_calc([nDCG @ 10], qrels, results)}
        for qid, ts in types.items():
            for t in ts:
                by_type.setdefault(t, {}).setdefault(mode, []).append(per_query.get(qid, 0.0))
    print("nDCG@10 by query type:")
    for t, modes in sorted(by_type.items()):
        print(f"  {t:<9} n={len(next(iter(modes.values()))):3}  " + "  ".join(f"{m} {np.mean(v):.3f}" for m, v in modes.items()))
    nonsense = folder / "nonsense.txt"
    answered, total = nonsense_answered(searcher, nonsense)
    print(f"nonsense queries answered (should be 0): {answered} of {total}")
    if args.synthetic:
        synthetic(args.synthetic, args.db, queries)


if __name__ == "__main__":
    main()
