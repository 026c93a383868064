"""Cross-game comparison pages: ``/compare`` (situations × games, counts linked; ``?family=`` and
``?sort=<game>``) and ``/compare/<situation>`` (each game's and each book's laws that decide it,
remedies marked), each with a ``.json`` form."""

from __future__ import annotations

import re

from datasette import hookimpl
from datasette.utils.asgi import Response
from markupsafe import Markup, escape

from ingest import vocabulary
from ingest.query.serve import DATABASE_NAME, error_response, not_found
from ingest.text import normalise_value


async def _games(db, family: str | None, families: dict[str, list[str]]):
    rows = [dict(r) for r in (await db.execute("select slug, name from games order by slug")).rows]
    if family:
        rows = [g for g in rows if g["slug"] in families.get(family, [])]
    return rows


async def _no_such_family(datasette, request, families: dict[str, list[str]]):
    """The 400 of a ``?family=`` that names no family: the error page, or the JSON error."""
    return await error_response(datasette, request.path, 400,
                                f"family: no such family of games (families: {', '.join(families)})", request=request)


async def compare_index(datasette, request):
    db = datasette.get_database(DATABASE_NAME)
    families = vocabulary.families()
    family = normalise_value(request.args.get("family") or "").strip() or None
    if family and family not in families:
        return await _no_such_family(datasette, request, families)
    games = await _games(db, family, families)
    situations = [dict(r) for r in (await db.execute("select id, label from situations order by rowid")).rows]
    counts = {(r["situation"], r["game"]): r["laws"] for r in (await db.execute(
        "select situation, game, laws from situation_game_counts")).rows}
    matrix = [{"situation": s["id"], "label": s["label"],
               "games": {g["slug"]: counts.get((s["id"], g["slug"]), 0) for g in games}} for s in situations]
    sort = request.args.get("sort")
    if sort and any(g["slug"] == sort for g in games):
        matrix.sort(key=lambda row: -row["games"][sort])
    if request.url_vars.get("format") == "json":
        return Response.json({"games": games, "situations": matrix, "family": family})
    return Response.html(await datasette.render_template("compare.html", {
        "games": games, "matrix": matrix, "families": families, "family": family, "sort": sort,
        "metadata": datasette.metadata()}, request=request))


def _marked(text: str, phrases: list[str]) -> Markup:
    out, pos = [], 0
    spans = sorted({(m.start(), m.end()) for p in phrases for m in re.finditer(re.escape(p), text)})
    for start, end in spans:
        if start < pos:
            continue
        out += [escape(text[pos:start]), Markup('<mark class="remedy">{}</mark>').format(text[start:end])]
        pos = end
    out.append(escape(text[pos:]))
    return Markup("").join(out)


async def compare_situation(datasette, request):
    db = datasette.get_database(DATABASE_NAME)
    situation_id = request.url_vars["situation"]
    rows = (await db.execute("select * from situations where id = ?", [situation_id])).rows
    if not rows:
        return await not_found(datasette, request, "There is no situation at this address; /compare lists them all.",
                               "No such situation")
    situation = dict(rows[0])
    families = vocabulary.families()
    family = normalise_value(request.args.get("family") or "").strip() or None
    if family and family not in families:
        return await _no_such_family(datasette, request, families)
    games = await _games(db, family, families)
    laws = [dict(r) for r in (await db.execute(
        "select l.id, l.game, l.source, l.code, l.number, l.kind, l.text, l.citation, ls.grade, ls.origin, "
        "c.title as code_title, coalesce(c.year, s.year) as year, s.title as source_title, g.name as game_name "
        "from law_situations ls join laws l on l.id = ls.law_id join sources s on s.slug = l.source "
        "join codes c on c.id = l.code join games g on g.slug = l.game "
        "where ls.situation_id = ? and l.witness_of is null order by coalesce(c.year, s.year), l.ordinal",
        [situation_id])).rows]
    remedies: dict[str, list[tuple[str, str]]] = {}
    for r in (await db.execute(
            "select r.law_id, r.remedy, r.evidence from law_remedies r where r.situation_id = ?", [situation_id])).rows:
        remedies.setdefault(r["law_id"], []).append((r["remedy"], r["evidence"]))
    columns, summary = [], {}
    for g in games:
        codes: dict[str, dict] = {}  # the game's codes in date order: how the rule changed
        touching = []
        for law in (x for x in laws if x["game"] == g["slug"]):
            if law["grade"] != "decides":
                touching.append({"id": law["id"], "citation": law["citation"]})
                continue
            code = codes.setdefault(law["code"], {"code": law["code"], "title": law["code_title"],
                                                  "book": law["source_title"], "year": law["year"], "laws": []})
            law_remedies = sorted({r for r, _ in remedies.get(law["id"], [])})
            for r in law_remedies:
                summary.setdefault(r, {})[g["slug"]] = g["name"]
            code["laws"].append({
                "id": law["id"], "number": law["number"], "kind": law["kind"], "text": law["text"],
                "remedies": law_remedies, "citation": law["citation"], "predicted": law["origin"] == "predicted",
                "html": _marked(law["text"], [t for _, t in remedies.get(law["id"], [])]),
            })
        columns.append({"game": g["slug"], "name": g["name"], "codes": list(codes.values()), "touching": touching})
    summary_rows = sorted(({"remedy": r, "games": sorted(games_.values())} for r, games_ in summary.items()),
                          key=lambda row: -len(row["games"]))
    if request.url_vars.get("format") == "json":
        for col in columns:
            for code in col["codes"]:
                for law in code["laws"]:
                    law.pop("html")
        return Response.json({"situation": situation, "summary": summary_rows, "games": columns})
    return Response.html(await datasette.render_template("compare_situation.html", {
        "situation": situation, "columns": [c for c in columns if c["codes"]], "summary": summary_rows,
        "without": [c for c in columns if not c["codes"]], "families": families, "family": family,
        "metadata": datasette.metadata()}, request=request))


@hookimpl
def register_routes():
    return [
        (r"^/compare(\.(?P<format>json))?$", compare_index),
        (r"^/compare/(?!codes(?:\.json)?$)(?P<situation>[a-z0-9-]+)(\.(?P<format>json))?$", compare_situation),
    ]
