"""Datasette's own parameters as they enter. The numeric ones are checked before Datasette reads
them: 0.65.5 converts ``_timelimit``, ``_facet_size`` and a view's ``_next`` (an offset) with a bare
``int()``, so ``?_timelimit=x`` was a 500 with a traceback in the log, and passes a column filter's
number beyond 64 bits or a NUL character to SQLite (``?number__gt=99999999999999999999``,
``?_where=%00``: more 500s), runs a ``_where`` fragment's bind parameters with no values
(``?_where=slug=:x``: a 500), and reads a ``_facet`` value in braces as JSON (``?_facet={}``: a 500);
a bad one is a 400 naming the parameter. The full-text query ``_search`` goes through the one normalisation
(:func:`ingest.text.normalise`), as the laws' text did: ``?_search=dea%C2%ADler`` finds "dealer"."""

from __future__ import annotations

import json
import re
import urllib.parse

from datasette import hookimpl

from ingest.query.serve import DATABASE_NAME, error_response
from ingest.text import normalise

WHOLE = re.compile(r"\d{1,9}")
# a column filter's number beyond SQLite's 64-bit integers makes Datasette 0.65.5 fail (a 500)
HUGE_NUMBER = re.compile(r"[-+]?\d{19,}")
# SQL text in quotes, and a bind parameter outside them: 0.65.5 runs a ``_where`` fragment with no
# values for its parameters, so ``?_where=slug=:x`` (or ``?``, ``$x``, ``@x``) was a 500
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|\[[^\]]*\]|`[^`]*`")
_BIND = re.compile(r"\?|[:@$][A-Za-z_0-9]")


def bad_parameter(args: dict[str, list[str]], is_view: bool) -> str | None:
    """The message for the first bad numeric parameter in ``args``, or None."""
    for value in args.get("_timelimit", []):
        if not WHOLE.fullmatch(value):
            return "_timelimit: give a whole number of milliseconds"
    for value in args.get("_facet_size", []):
        if value != "max" and not WHOLE.fullmatch(value):
            return "_facet_size: give a whole number or max"
    if is_view:
        for value in args.get("_next", []):
            if not WHOLE.fullmatch(value):
                return "_next: a view's pages are numbered by offset; give a whole number"
    for name, values in args.items():
        if any(HUGE_NUMBER.fullmatch(v.strip()) and abs(int(v)) > 2**63 - 1 for v in values):
            return f"{name}: the number is too large (at most {2**63 - 1})"
        if any("\x00" in v for v in values):  # SQLite refuses a NUL in SQL text: another 500
            return f"{name}: contains a NUL character"
        if name == "_where" and any(_BIND.search(_QUOTED.sub("", v)) for v in values):
            return "_where: SQL parameters (?, :name, $name, @name) cannot be given values here; write the value"
        if name.startswith("_facet") and any(v.lstrip().startswith("{") and not _facet_config(v) for v in values):
            return f"{name}: give a column name (or a JSON object naming one)"
    return None


def _facet_config(value: str) -> bool:
    """Whether a ``_facet`` value in JSON is the one form Datasette reads: an object of one string."""
    try:
        config = json.loads(value)
    except ValueError:
        return False
    return isinstance(config, dict) and len(config) == 1 and all(isinstance(v, str) for v in config.values())


@hookimpl
def asgi_wrapper(datasette):
    views: set[str] = set()

    def wrap(app):
        async def checked(scope, receive, send):
            if scope["type"] == "http" and scope.get("query_string") and DATABASE_NAME in datasette.databases:
                if not views:
                    db = datasette.get_database(DATABASE_NAME)
                    views.update(await db.view_names() or ["-"])
                path = scope.get("path", "")
                m = re.match(rf"(?:.*)/{DATABASE_NAME}/([^/.]+)", path)
                args = urllib.parse.parse_qs(scope["query_string"].decode("latin-1"), keep_blank_values=True)
                message = bad_parameter(args, bool(m and m.group(1) in views))
                if not message and any(normalise(v) != v for v in args.get("_search", [])):
                    args["_search"] = [normalise(v) for v in args["_search"]]
                    scope = dict(scope, query_string=urllib.parse.urlencode(args, doseq=True).encode("latin-1"))
                if message:  # the site's error page, or its JSON error for a .json address
                    response = await error_response(datasette, path, 400, message, "Bad request")
                    await response.asgi_send(send)
                    return
            await app(scope, receive, send)

        return checked

    return wrap
