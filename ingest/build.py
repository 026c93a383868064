"""Build: corpus folders → a new database, atomically.

The stages run in order: read every source and sidecar (all validated before anything is
written), clean, segment, tag, load. The database is written to a temporary file beside the
target and renamed over it only when complete, so a failed or killed build leaves the previous
database as it was.
"""

from __future__ import annotations

import os
import time
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .clean import read_document
from .corpus import find_texts, read_sidecar
from .load import write_database
from .models import CorpusError, Document, Segmentation
from .paths import VOCABULARY
from .segment import overlaps, segment, uncovered
from .tag import Tagger

Progress = Callable[[Iterable, int, str], Iterable]


def no_progress(items: Iterable, length: int, label: str) -> Iterable:
    return items


def load_games(path: Path = VOCABULARY / "games.toml") -> dict[str, str]:
    """Game slug → display name, from ``vocabulary/games.toml``."""
    return dict(tomllib.loads(path.read_text(encoding="utf-8"))["games"])


@dataclass
class BuildReport:
    """What a build did: counts by table, laws by source, warnings, and its duration (seconds)."""

    db_path: Path
    counts: dict[str, int]
    laws_by_source: dict[str, int]
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0


def read_corpus(corpus_dirs: list[Path], games: dict[str, str]) -> list[Document]:
    """Read and validate every text under ``corpus_dirs`` with its sidecar.

    Raises :class:`CorpusError` (naming the file) for a folder with no texts, any bad text or
    sidecar, a game not in ``games.toml``, or two texts with the same file name (their slugs
    would collide).
    """
    paths = find_texts(corpus_dirs)
    if not paths:
        raise CorpusError(f"no *.txt files found under {', '.join(map(str, corpus_dirs))}")
    docs: list[Document] = []
    seen: dict[str, Path] = {}
    for path in paths:
        try:
            data = path.read_bytes()
        except OSError as e:
            raise CorpusError(f"{path}: cannot be read ({e.strerror})") from None
        source = read_sidecar(path, data)
        if source.slug in seen:
            raise CorpusError(
                f"{path}: has the same name as {seen[source.slug]}; source slugs (file names) must be unique"
            )
        seen[source.slug] = path
        for code in source.codes:
            if code.game not in games:
                raise CorpusError(
                    f"{path.with_suffix('.toml')}: game {code.game!r} is not in "
                    f"{VOCABULARY / 'games.toml'} (known: {', '.join(sorted(games))})"
                )
        docs.append(read_document(source, data))
    return docs


def segment_corpus(docs: list[Document]) -> tuple[list[tuple[Document, list[Segmentation]]], list[str]]:
    """Segment every code of every document; check that nothing was lost.

    Raises :class:`CorpusError` for a code with no numbered laws, and (a bug, never bad input)
    for text that no law, note or fragment covers.
    """
    out, warnings = [], []
    ordinal = 1  # laws are numbered in reading order through the whole corpus
    for doc in docs:
        segs: list[Segmentation] = []
        for code in doc.source.codes:
            seg = segment(doc, code, first_ordinal=ordinal)
            if not seg.laws:
                line = code.start_line or 1
                raise CorpusError(f"{doc.source.path}:{line}: no numbered laws found in code {code.slug!r}")
            lost = uncovered(doc, seg)
            if lost or overlaps(seg):
                where = f"{doc.source.path}:{doc.line_of(lost[0].start)}" if lost else str(doc.source.path)
                raise CorpusError(f"{where}: segmentation lost or doubled text (a bug: please report it)")
            ordinal += len(seg.laws)
            segs.append(seg)
            warnings += seg.warnings
        out.append((doc, segs))
    return out, warnings


def build(
    corpus_dirs: list[Path],
    db_path: Path,
    progress: Progress = no_progress,
    tagger: Tagger | None = None,
) -> BuildReport:
    """Build the database at ``db_path`` from every text under ``corpus_dirs``.

    ``progress(items, length, label)`` wraps the long loop (tagging) to show progress.
    Raises :class:`CorpusError` for bad input; the file at ``db_path`` is then untouched.
    """
    t0 = time.perf_counter()
    games = load_games()
    docs = read_corpus(corpus_dirs, games)
    segmented, warnings = segment_corpus(docs)
    tagger = tagger or Tagger()

    laws = [law for _, segs in segmented for s in segs for law in s.laws]
    tagged = tagger.tag(law.text for law in laws)
    for law, mentions in zip(laws, progress(tagged, len(laws), "Tagging laws")):
        law.mentions = mentions

    used = {s.code.game for _, segs in segmented for s in segs}
    db_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = db_path.with_name(f".{db_path.name}.building-{os.getpid()}")
    tmp.unlink(missing_ok=True)
    try:
        counts = write_database(tmp, {g: games[g] for g in used}, tagger.entities, segmented)
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, db_path)
    finally:
        tmp.unlink(missing_ok=True)
    by_source = {d.source.slug: sum(len(s.laws) for s in segs) for d, segs in segmented}
    return BuildReport(db_path, counts, by_source, warnings, time.perf_counter() - t0)

