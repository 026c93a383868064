"""A page for each law at ``/law/<law id>``: its text with entity mentions marked, its note,
clauses, citations and provenance (book, code, pages, file lines); ``/law/<id>.json`` its record,
``/law/<id>.bib`` and ``/law/<id>.csl.json`` its citation to download."""

from __future__ import annotations

from datasette import hookimpl
from datasette.utils.asgi import Response
from datasette.version import __version__
from markupsafe import Markup, escape

from ingest.query.addresses import law_path
from ingest.query.laws import law_record
from ingest.query.serve import DATABASE_NAME, not_found


def highlight(text: str, mentions: list[dict]) -> Markup:
    """``text`` as HTML with each mention wrapped in ``<mark>`` (overlapping mentions: the first
    and longest wins); mentions are rows of ``law_entities`` joined to ``entities``."""
    out, pos = [], 0
    for m in sorted(mentions, key=lambda m: (m["start"], -m["end"])):
        if m["start"] < pos:
            continue
        out.append(escape(text[pos : m["start"]]))
        out.append(
            Markup('<mark class="entity entity-{kind}" title="{label}">{words}</mark>').format(
                kind=m["kind"], label=m["label"], words=text[m["start"] : m["end"]]
            )
        )
        pos = m["end"]
    out.append(escape(text[pos:]))
    return Markup("").join(out)


async def _not_found(datasette, request) -> Response:
    """A 404 that never repeats the address asked for (a crafted link must not make the site say
    what its author wants)."""
    message = Markup('There is no law at this address. Every law is listed in <a href="{}">the laws table</a>.') \
        .format(datasette.urls.table(DATABASE_NAME, "laws"))
    return await not_found(datasette, request, message, "No such law")


async def law_page(datasette, request):
    law_id = request.url_vars["law_id"]
    db = datasette.get_database(DATABASE_NAME)
    rec = await db.execute_fn(lambda conn: law_record(conn, law_id))
    if rec is None:
        return await _not_found(datasette, request)
    entities: dict[str, dict] = {}
    for m in rec.mentions:
        entities.setdefault(m["entity_id"], {"id": m["entity_id"], "label": m["label"], "kind": m["kind"], "mentions": []})
        entities[m["entity_id"]]["mentions"].append(m["text"])
    context = {
        **{name: getattr(rec, name) for name in (
            "law", "source", "game", "code", "parent", "clauses", "witness_of", "witnesses", "rulings",
            "references", "cited_by", "decides", "remedies", "parallels", "previous", "next",
            "pages", "short_citation", "full_citation", "bibtex", "label", "questions", "accounts")},
        "canonical": datasette.absolute_url(request, datasette.urls.path(law_path(law_id))),
        "entities": sorted(entities.values(), key=lambda e: e["label"]),
        "text_html": highlight(rec.law["text"], rec.mentions),
        "database": db.name,
        "metadata": datasette.metadata(),
        "datasette_version": __version__,
    }
    return Response.html(await datasette.render_template("law.html", context, request=request))


async def law_export(datasette, request):
    """``/law/<id>.json`` (the law's record), ``.bib`` and ``.csl.json`` (its citation)."""
    law_id, fmt = request.url_vars["law_id"], request.url_vars["fmt"]
    rec = await datasette.get_database(DATABASE_NAME).execute_fn(lambda conn: law_record(conn, law_id))
    if rec is None:
        if fmt == "bib":
            return Response.text("There is no law at this address.\n", status=404)
        return await not_found(datasette, request, "There is no law at this address.", "No such law")
    if fmt == "bib":
        return Response.text(rec.bibtex + "\n", headers={"content-type": "application/x-bibtex; charset=utf-8"})
    if fmt == "json":
        return Response.json(rec.as_json())
    return Response.json([rec.csl_json])


@hookimpl
def register_routes():
    return [
        # a law's id has three parts or more (<book>/<code>/<number>…); /law, a book and a code are book_pages'
        (r"^/law/(?P<law_id>[^/]+/[^/]+/.+?)\.(?P<fmt>bib|csl\.json|json)$", law_export),
        (r"^/law/(?P<law_id>[^/]+/[^/]+/.+)$", law_page),
    ]
