"""HTTP caching for scale-out: the database is immutable, so every page is a function of the
database file, the site's code and the address. Each GET or HEAD answer carries an ``ETag`` made of
the database's content hash (sha256, as Datasette computes it) and a fingerprint of the site
(plugins, templates, static files, metadata, the base_url), and a ``Cache-Control`` that lets a
browser, proxy or CDN in front of the replicas serve it again for Datasette's ``default_cache_ttl``
seconds (300 with ``cardlaws serve``) and then revalidate it; a request whose ``If-None-Match``
names the current tag is answered ``304 Not Modified`` without running the page. Answers that are
personal (a request with a cookie or credentials, or a response setting a cookie: Datasette marks
them ``private, no-store``) and Datasette's introspection pages under ``/-/`` are left alone."""

from __future__ import annotations

import hashlib

from datasette import hookimpl

from ingest.paths import METADATA, PLUGINS, STATIC, TEMPLATES
from ingest.query.serve import DATABASE_NAME

CACHEABLE_DASH = ("/-/search", "/-/cite", "/-/static")  # pages under /-/ that depend only on the address


def site_fingerprint(base_url: str) -> str:
    """A short hash of everything besides the database that shapes a page."""
    h = hashlib.sha256(base_url.encode())
    for folder in (PLUGINS, TEMPLATES, STATIC):
        for path in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            h.update(path.name.encode() + path.read_bytes())
    h.update(METADATA.read_bytes())
    return h.hexdigest()[:12]


def _etag(datasette) -> str | None:
    db = datasette.databases.get(DATABASE_NAME)
    if db is None or db.is_mutable or not db.hash:
        return None
    if getattr(datasette, "_cardlaws_etag", None) is None:
        datasette._cardlaws_etag = f'W/"{db.hash[:24]}-{site_fingerprint(datasette.setting("base_url"))}"'
    return datasette._cardlaws_etag


def _cacheable(datasette, scope) -> bool:
    if scope["type"] != "http" or scope.get("method") not in ("GET", "HEAD"):
        return False
    headers = {k.lower() for k, _ in scope.get("headers", [])}
    if b"cookie" in headers or b"authorization" in headers:
        return False
    path = scope.get("path", "")
    base = datasette.setting("base_url")
    if base != "/" and path.startswith(base):
        path = "/" + path[len(base):]
    return not path.startswith("/-/") or path.startswith(CACHEABLE_DASH)


def _matches(if_none_match: str, etag: str) -> bool:
    tags = [t.strip() for t in if_none_match.split(",")]
    return "*" in tags or any(t.removeprefix("W/") == etag.removeprefix("W/") for t in tags)


@hookimpl
def startup(datasette):
    _etag(datasette)  # hash the database once, before the first request


@hookimpl
def asgi_wrapper(datasette):
    def wrap(app):
        async def cached(scope, receive, send):
            etag = _etag(datasette) if _cacheable(datasette, scope) else None
            if etag is None:
                return await app(scope, receive, send)
            ttl = int(datasette.setting("default_cache_ttl") or 0)
            control = f"public, max-age={ttl}".encode() if ttl else b"no-cache"
            inm = next((v.decode("latin-1") for k, v in scope.get("headers", []) if k.lower() == b"if-none-match"), None)
            if inm and _matches(inm, etag):
                await send({"type": "http.response.start", "status": 304,
                            "headers": [(b"etag", etag.encode()), (b"cache-control", control)]})
                await send({"type": "http.response.body", "body": b""})
                return

            async def send_tagged(message):
                if message["type"] == "http.response.start" and message["status"] < 500:
                    headers = list(message.get("headers", []))
                    private = any(k.lower() == b"set-cookie" or (k.lower() == b"cache-control" and b"private" in v)
                                  for k, v in headers)
                    if not private:
                        headers = [(k, v) for k, v in headers if k.lower() not in (b"etag", b"cache-control")]
                        headers += [(b"etag", etag.encode()), (b"cache-control", control)]
                        message = dict(message, headers=headers)
                await send(message)

            await app(scope, receive, send_tagged)

        return cached

    return wrap
