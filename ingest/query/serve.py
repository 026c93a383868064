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
from datasette.utils.asgi import Response

from ..paths import METADATA, PLUGINS, STATIC, TEMPLATES
from ..schema_version import check_schema_file

DATABASE_NAME = "cardlaws"
CACHE_SECONDS = 300  # how long a browser, proxy or CDN may serve a page again without asking (Cache-Control)


def make_datasette(db_path: Path, base_url: str = "/") -> Datasette:
    """A Datasette serving ``db_path`` read-only under the name ``cardlaws`` (whatever the file is
    called, so links such as ``/cardlaws/laws`` hold), with the project's metadata, plugins,
    templates and static files (mounted at ``/static/``). ``base_url`` is the path prefix the
    site is served under behind a proxy (``/cl/``: every link, form, asset and redirect carries it).

    Raises :class:`~ingest.schema_version.SchemaError` for a database built by another version
    of the schema, and :class:`ValueError` for a ``base_url`` that does not start and end with ``/``.
    """
    check_schema_file(db_path)
    if not (base_url.startswith("/") and base_url.endswith("/")):
        raise ValueError(f"--base-url must start and end with '/' (e.g. /cardlaws-site/), not {base_url!r}")
    ds = Datasette(
        metadata=yaml.safe_load(METADATA.read_text(encoding="utf-8")),
        plugins_dir=str(PLUGINS),
        template_dir=str(TEMPLATES),
        static_mounts=[("static", str(STATIC))],
        settings={"sql_time_limit_ms": 2000, "facet_time_limit_ms": 500, "default_page_size": 25,
                  "suggest_facets": False,  # suggestions cost more than the facets themselves
                  "base_url": base_url, "default_cache_ttl": CACHE_SECONDS},
    )
    ds.add_database(Database(ds, path=str(db_path), is_mutable=False), name=DATABASE_NAME)
    return ds


async def not_found(datasette: Datasette, request, message: str = "There is nothing at this address.") -> Response:
    """A 404 page (``error.html``) that never repeats the address asked for. Pages answer it
    themselves rather than raise Datasette's ``NotFound``, whose handler first redirects an
    address with a trailing slash or a ``%`` (to the same unknown address, reworded)."""
    context = {"ok": False, "status": 404, "title": "Not found", "error": message}
    return Response.html(await datasette.render_template("error.html", context, request=request), status=404)
