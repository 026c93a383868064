"""Serve: the Datasette instance for a built database, shared by ``cardlaws serve`` and the tests.

Datasette finds its configuration where it expects it in a project: ``metadata.yml``,
``plugins/``, ``templates/`` and ``static/`` at the top of the clone. The database is served
immutable (read-only).
"""

from __future__ import annotations

from pathlib import Path

import yaml
from datasette.app import Datasette

from .paths import METADATA, PLUGINS, STATIC, TEMPLATES


def load_metadata(db_path: Path, path: Path = METADATA) -> dict:
    """Datasette metadata from ``metadata.yml``, its database entry renamed to ``db_path``'s stem
    (Datasette names a database after its file)."""
    metadata = yaml.safe_load(path.read_text(encoding="utf-8"))
    dbs = metadata.get("databases", {})
    if "cardlaws" in dbs and db_path.stem != "cardlaws":
        dbs[db_path.stem] = dbs.pop("cardlaws")
    return metadata


def make_datasette(db_path: Path) -> Datasette:
    """A Datasette serving ``db_path`` immutable with the project's metadata, plugins, templates
    and static files (mounted at ``/static/``)."""
    return Datasette(
        immutables=[str(db_path)],
        metadata=load_metadata(db_path),
        plugins_dir=str(PLUGINS),
        template_dir=str(TEMPLATES),
        static_mounts=[("static", str(STATIC))],
        settings={"sql_time_limit_ms": 2000, "facet_time_limit_ms": 500, "default_page_size": 50},
    )
