"""Every page's footer names the Datasette version it runs on: Datasette's own pages pass it to
their templates, and the site's own pages (search, compare, cite …) get it here."""

from __future__ import annotations

from datasette import hookimpl
from datasette.version import __version__


@hookimpl
def extra_template_vars():
    return {"datasette_version": __version__}
