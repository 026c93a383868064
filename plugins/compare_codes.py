"""Two codes side by side: ``/compare/codes?a=<code id>&b=<code id>`` (and ``.json``), their laws
aligned by what they say and decide, differences marked word by word, laws with no counterpart
listed as such."""

from __future__ import annotations

from datasette import hookimpl
from datasette.utils.asgi import Response

from ingest.query.compare import CodeError, align_codes, check_codes, code_laws
from ingest.query.serve import DATABASE_NAME

CODES_SQL = ("select c.id, c.title, c.year, c.family, s.title as book, s.year as book_year from codes c "
             "join sources s on s.slug = c.source where c.laws > 0 order by c.family, coalesce(c.year, s.year), c.id")


async def compare_codes(datasette, request):
    db = datasette.get_database(DATABASE_NAME)
    wants_json = request.url_vars.get("format") == "json"
    a, b = request.args.get("a"), request.args.get("b")
    codes = [dict(r) for r in (await db.execute(CODES_SQL)).rows]
    code_a = code_b = error = None
    rows = []
    if a or b or wants_json:
        try:
            code_a, code_b = await db.execute_fn(lambda conn: check_codes(conn, a, b))
            rows = await db.execute_fn(lambda conn: align_codes(code_laws(conn, a), code_laws(conn, b)))
        except CodeError as e:
            error = str(e)
    if wants_json:
        if error:
            return Response.json({"ok": False, "error": error}, status=400)
        return Response.json({"a": code_a, "b": code_b, "pairs": [r.as_json() for r in rows]})
    context = {"codes": codes, "a": a or "", "b": b or "", "code_a": code_a, "code_b": code_b, "rows": rows,
               "paired": sum(1 for r in rows if r.a and r.b), "error": error, "metadata": datasette.metadata()}
    return Response.html(await datasette.render_template("compare_codes.html", context, request=request),
                         status=400 if error else 200)


@hookimpl
def register_routes():
    return [(r"^/compare/codes(\.(?P<format>json))?$", compare_codes)]
