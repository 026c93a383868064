"""Serving under a URL prefix (Datasette's ``base_url``, ``cardlaws serve --base-url /cl/``): a
proxy forwards ``/cl/cardlaws/laws``; the prefix is taken off the request before Datasette sees it.

Datasette 0.65.5 routes such a request but keeps the prefix in ``request.path``, and builds some
links from that path through its URL helpers, which add the prefix again (the JSON link of every
page became ``/cl/cl/….json``). With the prefix taken off, every link, form, asset and redirect
built with the URL helpers carries it exactly once. The few Datasette builds without them (the
links of array facets, a truncated facet's "…") go through the ``with_base_url`` template filter
(``templates/_facet_results.html``)."""

from __future__ import annotations

import urllib.parse

from datasette import hookimpl


def with_base_url(url: str, base_url: str) -> str:
    """``url`` (a path or an absolute URL of this site) with ``base_url`` in front of its path
    when it is not there yet."""
    if base_url == "/" or not url:
        return url
    parts = urllib.parse.urlsplit(url)
    if not parts.path.startswith("/") or parts.path.startswith(base_url):
        return url
    return urllib.parse.urlunsplit(parts._replace(path=base_url + parts.path[1:]))


def strip_prefix(scope: dict, base_url: str) -> dict:
    """``scope`` with ``base_url`` taken off the front of its path (and raw path); unchanged when
    the path does not start with it."""
    path = scope.get("path", "")
    if base_url == "/" or not path.startswith(base_url):
        return scope
    scope = dict(scope, path="/" + path[len(base_url):])
    raw = scope.get("raw_path")
    prefix = base_url.encode("latin-1")
    if raw and raw.startswith(prefix):
        scope["raw_path"] = b"/" + raw[len(prefix):]
    return scope


@hookimpl(tryfirst=True)
def asgi_wrapper(datasette):
    def wrap(app):
        async def unprefixed(scope, receive, send):
            if scope["type"] == "http":
                scope = strip_prefix(scope, datasette.setting("base_url"))
            await app(scope, receive, send)

        return unprefixed

    return wrap


@hookimpl
def prepare_jinja2_environment(env, datasette):
    env.filters["with_base_url"] = lambda url: with_base_url(str(url), datasette.setting("base_url"))
