"""Serve: the Datasette instance for a built database, for ``cardlaws serve`` and the tests.

Datasette finds its configuration where it expects it in a project: ``metadata.yml``,
``plugins/``, ``templates/`` and ``static/`` at the top of the clone. The database is served
immutable (read-only).
"""

from __future__ import annotations

from pathlib import Path

import yaml
from datasette.app import Datasette
from datasette.database import Database

from ..paths import METADATA, PLUGINS, STATIC, TEMPLATES

DATABASE_NAME = "cardlaws"


def make_datasette(db_path: Path) -> Datasette:
    """A Datasette serving ``db_path`` read-only under the name ``cardlaws`` (whatever the file is
    called, so links such as ``/cardlaws/laws`` hold), with the project's metadata, plugins,
    templates and static files (mounted at ``/static/``)."""
    ds = Datasette(
        metadata=yaml.safe_load(METADATA.read_text(encoding="utf-8")),
        plugins_dir=str(PLUGINS),
        template_dir=str(TEMPLATES),
        static_mounts=[("static", str(STATIC))],
        settings={"sql_time_limit_ms": 2000, "facet_time_limit_ms": 500, "default_page_size": 25,
                  "suggest_facets": False},  # suggestions cost more than the facets themselves
    )
    ds.add_database(Database(ds, path=str(db_path), is_mutable=False), name=DATABASE_NAME)
    return ds
