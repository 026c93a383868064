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
from markupsafe import Markup

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


async def error_response(datasette: Datasette, path: str, status: int, message: str, title: str | None = None,
                         request=None) -> Response:
    """An error in the form its address asks for: for a ``.json`` address ``{"ok": false, "error":
    message}`` (the one JSON shape of an error, DESIGN §2), else the site's error page
    (``error.html``) with ``status`` and ``title``. ``message`` may be markup (a link): the JSON
    gets its text."""
    if path.split("?")[0].endswith(".json"):
        text = Markup(message).striptags() if isinstance(message, Markup) else str(message)
        return Response.json({"ok": False, "error": text}, status=status)
    await datasette.invoke_startup()  # an ASGI wrapper may answer before Datasette's first request did (idempotent)
    context = {"ok": False, "status": status, "title": title, "error": message}
    return Response.html(await datasette.render_template("error.html", context, request=request), status=status)


async def not_found(datasette: Datasette, request, message: str = "There is nothing at this address.",
                    title: str = "Not found") -> Response:
    """A 404 (:func:`error_response`) that never repeats the address asked for. Pages answer it
    themselves rather than raise Datasette's ``NotFound``, whose handler first redirects an
    address with a trailing slash or a ``%`` (to the same unknown address, reworded)."""
    return await error_response(datasette, request.path, 404, message, title, request)
