"""``/sql``: SQL across games, the third way in. The tables and views (with the descriptions of
``metadata.yml`` and their row counts), a diagram of how the tables join (drawn from the
database's own foreign keys), a box to write a query in, and the canned queries (``db/queries/``
and ``metadata.yml``) with their parameters, each linked with example values; ``/sql.json`` the same
as data."""

from __future__ import annotations

import urllib.parse

from datasette import hookimpl
from datasette.utils.asgi import Response
from datasette.version import __version__

from ingest.query.queries import load_queries
from ingest.query.serve import DATABASE_NAME

# where each table stands in the diagram (centre x, y in a 960 × 540 box); laws in the middle
LAYOUT = {
    "fragments": (110, 50), "sources": (480, 50), "rulings": (850, 50),
    "cross_references": (110, 160), "codes": (290, 150), "games": (670, 150),
    "law_embeddings": (110, 290), "laws": (480, 270), "ruling_citations": (850, 270),
    "law_entities": (200, 400), "law_situations": (400, 400), "law_remedies": (600, 400), "parallels": (820, 400),
    "entities": (200, 500), "situations": (500, 500), "laws_fts": (880, 340),
}
BOX = (150, 44)
EXAMPLE_SQL = """select game, count(*) as laws
from laws
where witness_of is null and parent is null
group by game
order by laws desc"""


def _schema(conn) -> dict:
    names = conn.execute("select name, type from sqlite_master where type in ('table', 'view') "
                         "and name not like 'laws_fts_%' and name not like 'sqlite_%' order by name").fetchall()
    out = {"tables": [], "views": [], "joins": []}
    for name, kind in names:
        count = conn.execute(f'select count(*) from "{name}"').fetchone()[0] if kind == "table" else None
        out["tables" if kind == "table" else "views"].append({"name": name, "rows": count})
        for fk in conn.execute(f"pragma foreign_key_list('{name}')").fetchall():
            out["joins"].append({"table": name, "column": fk[3], "other": fk[2], "other_column": fk[4]})
    return out


def diagram(schema: dict) -> dict:
    """Boxes and lines for the tables in :data:`LAYOUT` (one line per pair of tables joined)."""
    rows = {t["name"]: t["rows"] for t in schema["tables"]}
    boxes = [{"name": n, "x": x - BOX[0] // 2, "y": y - BOX[1] // 2, "cx": x, "cy": y, "rows": rows.get(n)}
             for n, (x, y) in LAYOUT.items() if n in rows]
    pairs = {}
    for j in schema["joins"]:
        if j["table"] in LAYOUT and j["other"] in LAYOUT and j["table"] != j["other"]:
            pairs.setdefault((j["table"], j["other"]), []).append(j["column"])
    lines = [{"x1": LAYOUT[a][0], "y1": LAYOUT[a][1], "x2": LAYOUT[b][0], "y2": LAYOUT[b][1],
              "label": f"{a}.{', '.join(cols)} → {b}"} for (a, b), cols in pairs.items()]
    if "laws_fts" in rows:
        lines.append({"x1": LAYOUT["laws_fts"][0], "y1": LAYOUT["laws_fts"][1], "x2": LAYOUT["laws"][0],
                      "y2": LAYOUT["laws"][1], "label": "laws_fts.rowid → laws (full-text index)", "dashed": True})
    return {"boxes": boxes, "lines": lines, "width": 960, "height": 540, "box": BOX}


async def sql_page(datasette, request):
    db = datasette.get_database(DATABASE_NAME)
    schema = await db.execute_fn(_schema)
    for group in ("tables", "views"):
        for t in schema[group]:
            t["description"] = datasette.metadata("description", database=DATABASE_NAME, table=t["name"]) or ""
    ours = {q["name"]: q for q in load_queries()}
    canned = []
    for name, q in (await datasette.get_canned_queries(DATABASE_NAME, request.actor)).items():
        example = ours[name]["example"] if name in ours else {}
        canned.append({"name": name, "title": q.get("title") or name, "sql": q["sql"],
                       "parameters": ours[name]["parameters"] if name in ours else {},
                       "description": ours[name]["description"] if name in ours else q.get("description", ""),
                       "example": example,
                       "href": datasette.urls.database(DATABASE_NAME) + "/" + name
                       + ("?" + urllib.parse.urlencode(example) if example else "")})
    if request.url_vars.get("format"):
        return Response.json({**schema, "queries": canned})
    context = {**schema, "queries": canned, "diagram": diagram(schema), "example_sql": EXAMPLE_SQL,
               "canonical": datasette.absolute_url(request, datasette.urls.path("/sql")),
               "metadata": datasette.metadata(), "database": DATABASE_NAME, "datasette_version": __version__}
    return Response.html(await datasette.render_template("sql.html", context, request=request))


@hookimpl
def register_routes():
    return [(r"^/sql(?P<format>\.json)?$", sql_page)]
