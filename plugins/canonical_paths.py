"""Every equivalent form of an address is answered with a 301 to its canonical form: a law, book or
code id with its separators percent-encoded (``/law/…%2Fecarte%2F31``) or tilde-encoded
(``…~2Fecarte~2F31``), with a trailing slash, in another case or accent, with an invisible
character pasted into it; a game's page or a short path's game in any case or accent (``/Écarté``,
``/Whist/29``, ``/écarté/31``).
The redirect keeps the query string and the site's ``base_url`` prefix."""

from __future__ import annotations

import re
import urllib.parse

from datasette import hookimpl

from ingest.query.addresses import canonical_game, canonical_law_address, law_path
from ingest.query.serve import DATABASE_NAME
from ingest.text import normalise_value

_PLAIN_ID_RE = re.compile(r"[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*(?:~\d+)?")  # nothing to decode
RESERVED = {DATABASE_NAME, "static", "law", "compare", "-", "_memory", "games", "sql"}  # not a game


def _relative(datasette, scope) -> tuple[str, str]:
    """The path as received (percent-encoded, without the base_url prefix) and the query string."""
    raw = scope.get("raw_path") or scope["path"].encode()
    path = raw.decode("latin-1").partition("?")[0]
    base = datasette.setting("base_url")
    if base != "/" and path.startswith(base):
        path = "/" + path[len(base):]
    return path, scope.get("query_string", b"").decode("latin-1")


async def canonical_path(datasette, path: str) -> str | None:
    """The canonical form of ``path`` (relative to the base_url) when it differs, else None."""
    db = datasette.get_database(DATABASE_NAME)
    if path.startswith("/law/") and len(path) > 5:
        received = path[5:]
        if _PLAIN_ID_RE.fullmatch(received):
            hit = await db.execute("select 1 from laws where id = ?", [received])
            if hit.first() is not None:
                return None
        found = await db.execute_fn(lambda conn: canonical_law_address(conn, received))
        target = law_path(found[1], found[2]) if found else None
        return target if target and target != path else None
    one = re.fullmatch(r"/([^/]+?)(\.json)?(/*)", path)  # a game's page, /<game>
    if one and one.group(1) not in RESERVED and one.group(1) not in datasette.databases:
        games = {r["slug"]: r["name"] for r in (await db.execute("select slug, name from games")).rows}
        slug = canonical_game(one.group(1), games)
        if slug:
            target = f"/{slug}{one.group(2) or ''}"
            return target if target != path else None
    m = re.fullmatch(r"/([^/]+)/([^/]+?)(/*)", path)
    if m and m.group(1) not in RESERVED and m.group(1) not in datasette.databases:
        games = {r["slug"]: r["name"] for r in (await db.execute("select slug, name from games")).rows}
        slug = canonical_game(m.group(1), games)
        if slug:
            try:  # bytes that are no UTF-8 ("%FF") name no law: a 404, not a redirect to a reworded address
                number = normalise_value(urllib.parse.unquote(m.group(2), errors="strict")).strip()
            except UnicodeDecodeError:
                return None
            if not re.fullmatch(r"[A-Za-z0-9]+", number):  # no law is numbered so: the short path's 404
                return None
            target = f"/{slug}/{urllib.parse.quote(number)}"
            return target if target != path else None
    return None


@hookimpl
def asgi_wrapper(datasette):
    def wrap(app):
        async def canonical(scope, receive, send):
            if scope["type"] == "http" and scope.get("method") in ("GET", "HEAD") and DATABASE_NAME in datasette.databases:
                path, query = _relative(datasette, scope)
                target = await canonical_path(datasette, path)
                if target:
                    location = datasette.urls.path(target) + (f"?{query}" if query else "")
                    await send({"type": "http.response.start", "status": 301, "headers": [
                        (b"location", location.encode("latin-1")), (b"content-type", b"text/plain; charset=utf-8")]})
                    await send({"type": "http.response.body", "body": b"Moved permanently to the canonical address.\n"})
                    return
            await app(scope, receive, send)

        return canonical

    return wrap
