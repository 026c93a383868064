"""The site's stylesheet on every page, Datasette's own included (its address built with the URL
helpers, so it holds under a ``base_url`` prefix)."""

from __future__ import annotations

from datasette import hookimpl


@hookimpl
def extra_css_urls(datasette):
    return [datasette.urls.path("/static/cardlaws.css")]
