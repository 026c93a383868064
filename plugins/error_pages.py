"""Error pages: every error a clear 4xx (or a plain 500 that names nothing of the request), in
HTML or, for a ``.json`` address, JSON (``{"ok": false, "error": …}``); a not-found page never repeats the
request's text.

This replaces Datasette's default exception handler, which prints each error with ``rich`` when
``rich`` is installed (spaCy brings it): outside an ``except`` block that printing raises, so every
not-found of Datasette's own turned into a 500 with a traceback."""

from __future__ import annotations

import sys
import traceback

import datasette.handle_exception as default_handler
from datasette import hookimpl
from datasette.plugins import pm
from datasette.utils.asgi import Base400, NotFound
from datasette.views.base import DatasetteError
from markupsafe import Markup

from ingest.query.serve import error_response

if pm.is_registered(default_handler):
    pm.unregister(default_handler)

NOT_FOUND = "There is nothing at this address."


def describe(exception: Exception) -> tuple[int, str, str | None]:
    """``(status, message, title)`` for an exception raised while answering a request."""
    if isinstance(exception, NotFound):
        return 404, NOT_FOUND, "Not found"
    if isinstance(exception, Base400):
        return exception.status, str(exception.args[0]) if exception.args else "Bad request", None
    if isinstance(exception, DatasetteError):  # an error in what was asked ("Cannot sort table by …"), which
        # Datasette 0.65.5 often raises without a status, so as a 500: it is the request's fault, a 400
        message = Markup(exception.message) if exception.message_is_html else exception.message
        return (400 if exception.status == 500 else exception.status), message, exception.title
    traceback.print_exception(exception, file=sys.stderr)  # for the server's log, never the page
    return 500, "Something went wrong on our side; the error is logged.", "Server error"


@hookimpl
def handle_exception(datasette, request, exception):
    async def inner():
        status, message, title = describe(exception)
        return await error_response(datasette, request.path, status, message, title, request)

    return inner
