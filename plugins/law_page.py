"""A page for each law at ``/law/<law id>``: its text with entity mentions marked, its note,
clauses, citation and provenance (book, code, pages, file lines)."""

from __future__ import annotations

from datasette import hookimpl
from datasette.version import __version__
from datasette.utils.asgi import Response
from markupsafe import Markup, escape

from pathlib import Path

from ingest.citation import bibtex, csl_json, full_citation, pages, short_citation
from ingest.search import searcher_for
from ingest.serve import DATABASE_NAME


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


async def law_page(datasette, request):
    law_id = request.url_vars["law_id"]
    db = datasette.get_database(DATABASE_NAME)

    async def one(sql, params):
        rows = (await db.execute(sql, params)).rows
        return dict(rows[0]) if rows else None

    law = await one("select * from laws where id = ?", [law_id])
    if law is None:
        context = {"ok": False, "status": 404, "title": "No such law",
                   "error": f"There is no law with id {law_id} in this database."}
        html = await datasette.render_template("error.html", context, request=request)
        return Response.html(html, status=404)
    source = await one("select * from sources where slug = ?", [law["source"]])
    game = await one("select * from games where slug = ?", [law["game"]])
    code = await one("select * from codes where id = ?", [law["code"]])
    parent = await one("select id, number, text from laws where id = ?", [law["parent"]])
    mentions = [dict(r) for r in (await db.execute(
        "select le.*, e.label, e.kind from law_entities le join entities e on e.id = le.entity_id "
        "where le.law_id = ? order by le.start", [law_id])).rows]
    clauses = [dict(r) for r in (await db.execute(
        "select id, number, text from laws where parent = ? order by ordinal", [law_id])).rows]
    witness_of = await one(
        "select l.id, l.number, s.title from laws l join sources s on s.slug = l.source where l.id = ?",
        [law["witness_of"]],
    )
    witnesses = [dict(r) for r in (await db.execute(
        "select l.id, s.title from laws l join sources s on s.slug = l.source where l.witness_of = ?", [law_id])).rows]
    rulings = [dict(r) for r in (await db.execute(
        "select distinct r.id, r.title, coalesce(nullif(r.decision, ''), r.text) as decision, s.title as source_title "
        "from ruling_citations c "
        "join rulings r on r.id = c.ruling_id join sources s on s.slug = r.source where c.law_id = ? "
        "order by r.id", [law_id])).rows]
    neighbours = {
        name: await one(
            f"select id, number from laws where source = ? and ordinal {op} ? "
            f"order by ordinal {order} limit 1",
            [law["source"], law["ordinal"]],
        )
        for name, op, order in (("previous", "<", "desc"), ("next", ">", "asc"))
    }
    references = [dict(r) for r in (await db.execute(
        "select x.text, x.status, x.target_id, g.name || ' ' || t.number as label, s.title as source_title "
        "from cross_references x left join laws t on t.id = x.target_id left join games g on g.slug = t.game "
        "left join sources s on s.slug = t.source where x.law_id = ? order by x.start", [law_id])).rows]
    cited_by = [dict(r) for r in (await db.execute(
        "select distinct x.law_id, g.name || ' ' || l.number as label, s.title as source_title from cross_references x "
        "join laws l on l.id = x.law_id join games g on g.slug = l.game join sources s on s.slug = l.source "
        "where x.target_id = ? order by l.ordinal", [law_id])).rows]
    decides = [dict(r) for r in (await db.execute(
        "select s.id, s.label from law_situations ls join situations s on s.id = ls.situation_id "
        "where ls.law_id = coalesce(?, ?) order by s.rowid", [law["witness_of"], law_id])).rows]
    remedies = [dict(r) for r in (await db.execute(
        "select remedy, text from law_remedies where law_id = ? order by remedy", [law_id])).rows]
    parallel_rows = [dict(r) for r in (await db.execute(
        "select p.other_id, p.score, p.kind, g.name || ' ' || l.number as label, s.title as source_title "
        "from parallels p join laws l on l.id = p.other_id join games g on g.slug = l.game "
        "join sources s on s.slug = l.source where p.law_id = coalesce(?, ?) and p.kind = 'other-edition' "
        "order by p.score desc", [law["witness_of"], law_id])).rows]
    similar = []
    nearest = searcher_for(Path(db.path)).similar(law_id, limit=5, other_games=True)
    for other_id, score in nearest:
        row = await one(
            "select l.id, l.number, l.kind, substr(l.text, 1, 160) as text, g.name as game_name, s.title as source_title "
            "from laws l join games g on g.slug = l.game join sources s on s.slug = l.source where l.id = ?", [other_id])
        if row:
            similar.append({**row, "score": score})
    entities = {}
    for m in mentions:
        entities.setdefault(m["entity_id"], {"id": m["entity_id"], "label": m["label"], "kind": m["kind"], "mentions": []})
        entities[m["entity_id"]]["mentions"].append(m["text"])
    parent_number = parent["number"] if parent else None
    context = {
        "law": law,
        "source": source,
        "game": game,
        "code": code,
        "parent": parent,
        "clauses": clauses,
        "witness_of": witness_of,
        "witnesses": witnesses,
        "rulings": rulings,
        "similar": similar,
        "references": references,
        "cited_by": cited_by,
        "decides": decides,
        "remedies": remedies,
        "other_editions": parallel_rows,
        "entities": sorted(entities.values(), key=lambda e: e["label"]),
        "text_html": highlight(law["text"], mentions),
        "pages": pages(law),
        "short_citation": short_citation(law, source, game["name"], parent_number),
        "bibtex": bibtex(law, source, game["name"], parent_number),
        "csl_json": csl_json(law, source, game["name"], parent_number),
        "full_citation": full_citation(law, source, game["name"], parent_number, code["title"] if code else None),
        "database": db.name,
        "metadata": datasette.metadata(),
        "datasette_version": __version__,
        **neighbours,
    }
    return Response.html(await datasette.render_template("law.html", context, request=request))


async def all_laws(datasette, request):
    return Response.redirect(datasette.urls.table(DATABASE_NAME, "laws"))


async def law_export(datasette, request):
    """``/law/<id>.bib`` and ``/law/<id>.csl.json``: the citation to download."""
    law_id, fmt = request.url_vars["law_id"], request.url_vars["fmt"]
    db = datasette.get_database(DATABASE_NAME)
    rows = (await db.execute(
        "select l.*, g.name as game_name, p.number as parent_number from laws l join games g on g.slug = l.game "
        "left join laws p on p.id = l.parent where l.id = ?", [law_id])).rows
    if not rows:
        return Response.text(f"No law with id {law_id}\n", status=404)
    law = dict(rows[0])
    source = dict((await db.execute("select * from sources where slug = ?", [law["source"]])).rows[0])
    if fmt == "bib":
        return Response.text(bibtex(law, source, law["game_name"], law["parent_number"]) + "\n",
                             headers={"content-type": "application/x-bibtex; charset=utf-8"})
    return Response.json([csl_json(law, source, law["game_name"], law["parent_number"])])


@hookimpl
def register_routes():
    return [
        (r"^/law/?$", all_laws),
        (r"^/law/(?P<law_id>.+)\.(?P<fmt>bib|csl\.json)$", law_export),
        (r"^/law/(?P<law_id>.+)$", law_page),
    ]
