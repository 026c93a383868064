"""Shared fixtures: a database built from the project's seed excerpts (a real SQLite file), the
entity tagger, and a Datasette serving that database through its own test client."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from ingest.build.catalog import load_catalog
from ingest.build.pipeline import build
from ingest.paths import SEEDS
from ingest.query.serve import make_datasette
from ingest.tag import Tagger

# CI runs the property and fuzz tests on the same examples every time (a failure there is
# reproducible); a developer's run explores new ones
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(scope="session")
def tagger() -> Tagger:
    return Tagger()


@pytest.fixture(scope="session")
def seed_db(tmp_path_factory, tagger):
    path = tmp_path_factory.mktemp("db") / "cardlaws.db"
    build([SEEDS], path, tagger=tagger)
    return path


@pytest.fixture(scope="session")
def datasette(seed_db):
    return make_datasette(seed_db)


def _write_source(folder: Path, name: str, text: bytes | str, sidecar: str | None) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8") if isinstance(text, str) else text
    (folder / f"{name}.txt").write_bytes(data)
    if sidecar is not None:
        (folder / f"{name}.toml").write_text(sidecar, encoding="utf-8")


@pytest.fixture(scope="session")
def write_source():
    """``write_source(folder, name, text, sidecar)`` writes NAME.txt (bytes as given, str as
    UTF-8) and, unless ``sidecar`` is None, its NAME.toml sidecar."""
    return _write_source


SHARED_CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


@pytest.fixture(scope="session")
def shared_corpus() -> Path:
    """A folder of copies of the nine books: $CARDLAWS_MIRROR (as the README says), else the
    team's shared folder beside the repository (CI has it)."""
    import os

    folder = Path(os.environ["CARDLAWS_MIRROR"]) if os.environ.get("CARDLAWS_MIRROR") else SHARED_CORPUS
    books = [b.slug for b in load_catalog()]
    if not all((folder / f"{slug}.txt").is_file() for slug in books):
        pytest.skip(f"the nine books are not in {folder}: set CARDLAWS_MIRROR to a folder of their copies "
                    "(<slug>.txt) to run this test")
    return folder


@pytest.fixture(scope="session")
def books_db(tmp_path_factory, tagger, shared_corpus):
    """The default build: seeds plus the nine books fetched from the shared folder as a mirror."""
    from ingest.build.fetch import fetch_books

    cache = tmp_path_factory.mktemp("cache")
    report = fetch_books(load_catalog(), cache, mirror=shared_corpus)
    assert not report.failed, report.failed
    path = tmp_path_factory.mktemp("books") / "cardlaws.db"
    return build([SEEDS], path, tagger=tagger, cache=cache, annotations_dir=SEEDS.parent / "annotations",
                 questions_dir=SEEDS.parent / "questions")


@pytest.fixture(scope="session")
def books_conn(books_db):
    """A read-only connection to the books database, rows as sqlite3.Row."""
    import sqlite3

    conn = sqlite3.connect(f"file:{books_db.db_path}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    yield conn
    conn.close()


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium driven by Playwright, one a test module; skipped where either is missing.
    The flags keep it off the network this machine does not have (no background networking)."""
    import shutil

    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install -e '.[test]' installs Playwright")
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(chromium).exists():
        pytest.skip("Debian's chromium is not installed: apt-get install chromium (.ci/run installs it)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"])
        yield b
        b.close()
