"""Serve: the Datasette instance for a built database, shared by ``cardlaws serve`` and the tests.

Datasette finds its configuration where it expects it in a project: ``metadata.yml``,
``plugins/``, ``templates/`` and ``static/`` at the top of the clone. The database is served
immutable (read-only).
"""

from __future__ import annotations

from pathlib import Path

import yaml
from datasette.app import Datasette
from datasette.database import Database

from .paths import METADATA, PLUGINS, STATIC, TEMPLATES


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


def spawn(db_path: Path, timeout: float = 30.0):
    """Start ``cardlaws serve`` for ``db_path`` in another process on a free port of 127.0.0.1
    and wait until it answers; returns ``(process, base URL)``. For browser tests and load tests.
    Raises :class:`RuntimeError` if it does not answer within ``timeout`` seconds."""
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "ingest.cli", "serve", "--db", str(db_path), "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(base + "/", timeout=1)
            return proc, base
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise RuntimeError(f"cardlaws serve did not answer at {base} within {timeout:.0f} s")
