"""Shared fixtures: a database built from the project's seed excerpts (a real SQLite file), the
entity tagger, and a Datasette serving that database through its own test client."""

from __future__ import annotations

import pytest

from ingest.build import build
from ingest.paths import SEEDS
from ingest.serve import make_datasette
from ingest.tag import Tagger


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


def write_source(folder, name: str, text: bytes | str, sidecar: str | None) -> None:
    """Write NAME.txt (bytes as given, str as UTF-8) and, unless None, its NAME.toml sidecar."""
    folder.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8") if isinstance(text, str) else text
    (folder / f"{name}.txt").write_bytes(data)
    if sidecar is not None:
        (folder / f"{name}.toml").write_text(sidecar, encoding="utf-8")
