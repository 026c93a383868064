"""The citation resolver as a page, ``/-/cite``, and as JSON, ``/-/cite.json?text=…&context=…``:
a ruling's text comes back with each citation linked to its law (or to the list of candidates)."""

from __future__ import annotations

from pathlib import Path

from datasette import hookimpl
from datasette.utils.asgi import Response
from markupsafe import Markup, escape

from ingest.cite import MAX_TEXT_CHARS
from ingest.query.cite import resolver_for
from ingest.query.laws import listed_laws
from ingest.query.serve import DATABASE_NAME
from ingest.text import normalise_value


def linked(text: str, results, law_url) -> Markup:
    """``text`` as HTML with each citation linked: to its law (``law_url(id)``) when resolved, to
    the list of candidates when ambiguous, marked when unresolved."""
    out, pos = [], 0
    for i, r in enumerate(results):
        c = r.citation
        out.append(escape(text[pos : c.start]))
        if r.status == "resolved" and len(r.laws) == 1:
            out.append(Markup('<a class="cite cite-resolved" href="{}">{}</a>').format(law_url(r.laws[0]), c.text))
        else:
            out.append(Markup('<a class="cite cite-{}" href="#citation-{}" title="{}">{}</a>').format(
                r.status, i, r.reason or r.status, c.text))
        pos = c.end
    out.append(escape(text[pos:]))
    return Markup("").join(out)


async def cite_view(datasette, request):
    db = datasette.get_database(DATABASE_NAME)
    text = request.args.get("text") or ""
    context = normalise_value(request.args.get("context") or "").strip() or None
    wants_json = request.url_vars.get("format") == "json"
    error = None
    if len(text) > MAX_TEXT_CHARS:
        text, error = "", f"text: too long ({MAX_TEXT_CHARS:,} characters at most)"
    elif not text.strip():
        text = ""  # only spaces: no text, as an empty one (the JSON's 400 below)
    elif context and (await db.execute("select 1 from laws where id = ?", [context])).first() is None:
        error = "context: no law has that id (give the id of the law the text sits in, as in its address /law/<id>)"
    results = resolver_for(Path(db.path)).cite(text, context=context) if text and not error else []
    if wants_json:
        if error or not text:
            return Response.json({"ok": False, "error": error or "text: give the text, ?text=…"}, status=400)
        return Response.json([r.as_json() for r in results])
    ids = [law_id for r in results for law_id in r.laws]
    listed = await db.execute_fn(lambda conn: listed_laws(conn, ids))
    titles = {i: f"{x['label']} — {x['source_title']}" for i, x in listed.items()}
    html = linked(text, results, lambda law_id: datasette.urls.path(f"/law/{law_id}"))
    context_ = {"text": text, "context": context or "", "error": error, "results": results,
                "html": html, "titles": titles, "metadata": datasette.metadata()}
    return Response.html(await datasette.render_template("cite.html", context_, request=request),
                         status=400 if error else 200)


@hookimpl
def register_routes():
    return [(r"^/-/cite(\.(?P<format>json))?$", cite_view)]
