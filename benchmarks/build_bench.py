"""Build speed and memory on a corpus, beside a baseline measured in the same run.

    python benchmarks/build_bench.py [--corpus DIR]... [--books CACHE] [--repeat N]

Prints, for each stage set, the median seconds over N runs, laws per second, and this process's
peak resident memory (MB). The baseline is reading + cleaning + segmenting alone; "full" adds
entity tagging and writing SQLite (the tagger is loaded once, as in a build; its load time is
printed on its own line).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import tempfile
import time
from pathlib import Path

from ingest import vocabulary
from ingest.build.catalog import load_catalog
from ingest.build.pipeline import build, segment_corpus
from ingest.build.read import read_books, read_corpus
from ingest.paths import SEEDS
from ingest.tag import Tagger


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", action="append", type=Path)
    parser.add_argument("--books", type=Path, help="a cache of the catalogued books to build too")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    dirs = args.corpus or [SEEDS]
    games = vocabulary.games()

    t0 = time.perf_counter()
    tagger = Tagger()
    print(f"tagger load: {time.perf_counter() - t0:.2f} s, peak {peak_mb():.0f} MB")

    def baseline() -> int:
        docs = read_corpus(dirs, games)
        if args.books:
            docs += read_books(args.books, load_catalog(), games)[0]
        segmented, _ = segment_corpus(docs)
        return sum(len(s.laws) for _, segs in segmented for s in segs)

    def full() -> int:
        with tempfile.TemporaryDirectory() as tmp:
            report = build(dirs, Path(tmp) / "bench.db", tagger=tagger, cache=args.books)
        return report.counts["laws"]

    print(f"{'stages':<32}{'laws':>7}{'median s':>11}{'laws/s':>10}{'peak MB':>9}")
    for name, fn in [("baseline: read+clean+segment", baseline), ("full: + tag + load SQLite", full)]:
        times, laws = [], 0
        for _ in range(args.repeat):
            t = time.perf_counter()
            laws = fn()
            times.append(time.perf_counter() - t)
        med = statistics.median(times)
        print(f"{name:<32}{laws:>7}{med:>11.3f}{laws / med:>10.0f}{peak_mb():>9.0f}")


if __name__ == "__main__":
    main()
