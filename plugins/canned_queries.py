"""The canned queries across games in ``db/queries/*.sql`` (one a file, its title, description,
parameters and an example in TOML front matter) registered with Datasette, beside those of
``metadata.yml``: each at ``/cardlaws/<name>``, listed and explained on ``/sql``."""

from __future__ import annotations

import functools
import urllib.parse

from datasette import hookimpl
from markupsafe import Markup, escape

from ingest.query.queries import load_queries
from ingest.query.serve import DATABASE_NAME


@functools.cache
def queries() -> tuple[dict, ...]:
    return tuple(load_queries())


def describe(query: dict, example_href: str) -> Markup:
    """The description of a query as HTML: what it answers, each parameter, a link to try it."""
    parts = [Markup("<p>{}</p>").format(query["description"])] if query["description"] else []
    if query["parameters"]:
        items = Markup("").join(
            Markup("<dt><code>{}</code></dt><dd>{} Example: <code>{}</code>.</dd>").format(
                name, text, query["example"][name] or "(empty)") for name, text in query["parameters"].items())
        parts.append(Markup('<dl class="query-params">{}</dl>').format(items))
        parts.append(Markup('<p><a href="{}">Run it with the example values</a></p>').format(example_href))
    return Markup("").join(parts) if parts else escape("")


@hookimpl
def canned_queries(datasette, database):
    if database != DATABASE_NAME:
        return {}
    out = {}
    for q in queries():
        href = datasette.urls.database(DATABASE_NAME) + "/" + q["name"]
        if q["example"]:
            href += "?" + urllib.parse.urlencode(q["example"])
        out[q["name"]] = {"sql": q["sql"], "title": q["title"], "description_html": str(describe(q, href))}
    return out
