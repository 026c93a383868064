"""Guessable short paths ``/<game>/<number>`` (``/ecarte/31``): the law when one book has it, a
page of choices with their sources when several do (never a silent pick)."""

from __future__ import annotations

from datasette import hookimpl
from datasette.utils.asgi import Response

from ingest.query.serve import DATABASE_NAME, not_found

# not the first part of another path: the database, static files, /law, /compare, /-/…
# (any game and number: one no law has, "%FF" included, is this page's 404, not Datasette's, which would first
# redirect an address holding "%" to its tilde-encoded form)
PATTERN = r"^/(?!(?:cardlaws|static|law|compare|-|_memory)/)(?P<game>[^/]+)/(?P<number>[^/]+)$"


async def short_path(datasette, request):
    game, number = request.url_vars["game"], request.url_vars["number"]
    db = datasette.get_database(DATABASE_NAME)
    name = (await db.execute("select name from games where slug = ?", [game])).rows
    rows = [dict(r) for r in (await db.execute(
        "select l.id, l.number, l.kind, substr(l.text, 1, 200) as text, s.title, s.author, s.year, "
        "c.title as code_title, c.year as code_year, l.citation from laws l "
        "join sources s on s.slug = l.source join codes c on c.id = l.code where l.game = ? and lower(l.number) = lower(?) and l.parent is null "
        "and l.witness_of is null and l.numbered = 1 order by s.year, l.ordinal", [game, number])).rows]
    if len(rows) == 1:
        return Response.redirect(datasette.urls.path(f"/law/{rows[0]['id']}"))
    if not rows and request.path.endswith(".json"):  # a short path has no JSON form: the JSON 404
        return await not_found(datasette, request, "There is no page at this address; a law's JSON is /law/<id>.json.")
    context = {"game": game, "game_name": name[0]["name"] if name else None, "number": number, "laws": rows,
               "metadata": datasette.metadata()}
    html = await datasette.render_template("choices.html", context, request=request)
    return Response.html(html, status=200 if rows else 404)


@hookimpl
def register_routes():
    return [(PATTERN, short_path)]
