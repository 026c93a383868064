"""The site is read-only: a request by any method but GET or HEAD is answered 405 Method Not
Allowed (with ``Allow: GET, HEAD``), as the site's error page or, for a ``.json`` address, the one
JSON error. Datasette 0.65.5 and the project's own pages answered a POST, PUT or DELETE as if it
were a GET; the database is served immutable, and nothing here takes a form by POST."""

from __future__ import annotations

from datasette import hookimpl

from ingest.query.serve import error_response

ALLOWED = ("GET", "HEAD")


@hookimpl
def asgi_wrapper(datasette):
    def wrap(app):
        async def read_only(scope, receive, send):
            if scope["type"] == "http" and scope.get("method", "GET") not in ALLOWED:
                response = await error_response(datasette, scope.get("path", "/"), 405,
                                                "This site is read-only: use GET.", "Method not allowed")
                response.headers["allow"] = ", ".join(ALLOWED)
                await response.asgi_send(send)
                return
            await app(scope, receive, send)

        return read_only

    return wrap
