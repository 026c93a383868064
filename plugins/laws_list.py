"""Labels for the laws list (``templates/table-cardlaws-laws.html``) and for the facets of every
table (``templates/_facet_results.html``): a game's display name, a book's short title, an entity's
or a situation's label where Datasette would show a slug (``elder_hand``, ``exposed-card-in-dealing``).
They are read from the database once per build (the games, sources, entities and situations tables)."""

from __future__ import annotations

import sqlite3
import urllib.parse
from pathlib import Path

from datasette import hookimpl

from ingest.query.cache import per_database
from ingest.query.serve import DATABASE_NAME

# what a facet of the laws table is called on the page, by column
FACET_NAMES = {"game": "Game", "source": "Book", "kind": "Kind", "entities": "Entity", "situations": "Situation",
               "code": "Code", "entity": "Entity", "situation_id": "Situation", "remedy": "Remedy"}
FACET_ORDER = ["game", "source", "code", "kind", "situations", "entities"]  # the laws list's facets, first to last
SHORT_TITLE = 44  # characters of a book's title in the list; the whole title is its tooltip


def short_title(title: str, year: int | None) -> str:
    """A book's title cut at a word before ``SHORT_TITLE`` characters and at its first colon or
    parenthesis, with its year: "Hoyle's Games Modernized, 1909"."""
    cut = title.split(" (")[0].split(": ")[0]
    if len(cut) > SHORT_TITLE:
        cut = cut[:SHORT_TITLE].rsplit(" ", 1)[0] + "…"
    return f"{cut}, {year}" if year and str(year) not in cut else cut


def load_labels(db_path: Path) -> dict:
    """``{"games": {slug: name}, "sources": {slug: {"title", "short"}}, "entities": {id: label},
    "situations": {id: label}}`` from the database at ``db_path``."""
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        def pairs(sql: str) -> dict:
            try:
                return dict(conn.execute(sql).fetchall())
            except sqlite3.Error:  # a table this database lacks (an old build): slugs stay as they are
                return {}

        sources = {}
        for slug, title, year in conn.execute("select slug, title, year from sources"):
            sources[slug] = {"title": title, "short": short_title(title or slug, year)}
        return {
            "games": pairs("select slug, name from games"),
            "sources": sources,
            "entities": pairs("select id, label from entities"),
            "situations": pairs("select id, label from situations"),
        }
    finally:
        conn.close()


def facet_value_label(labels: dict, column: str, value, label) -> str:
    """What a facet shows for ``value``: an entity's or situation's label for the array facets,
    a game's name, a book's short title; else Datasette's label (a foreign key's) or the value."""
    if value is None or value == "":
        return "-"
    if column in ("entities", "entity"):
        return labels["entities"].get(value, str(value).replace("_", " "))
    if column in ("situations", "situation_id"):
        return labels["situations"].get(value, str(value).replace("-", " "))
    if column == "game" and value in labels["games"]:
        return labels["games"][value]
    if column == "source" and value in labels["sources"]:
        return labels["sources"][value]["short"]
    if column == "remedy":
        return str(value).replace("-", " ")
    return str(label if label not in (None, "") else value)


def in_facet_order(facets: list[dict]) -> list[dict]:
    """The facets of the laws list in ``FACET_ORDER`` (Datasette puts the longest first)."""
    def rank(f):
        return FACET_ORDER.index(f["name"]) if f["name"] in FACET_ORDER else len(FACET_ORDER)
    return sorted(facets, key=rank)


def keep_sort_column(query_string: str) -> str:
    """The query of a laws-list address with the column the list is sorted by by default (``ordinal``)
    kept among the chosen columns: Datasette 0.65.5 fails (a 500) when ``_nocol=ordinal`` or a
    ``_col`` list without it leaves out the column it pages by. Unchanged when another sort is asked."""
    args = urllib.parse.parse_qsl(query_string, keep_blank_values=True)
    names = {k for k, _ in args}
    if "_sort" in names or "_sort_desc" in names or not names & {"_col", "_nocol"}:
        return query_string
    args = [(k, v) for k, v in args if not (k == "_nocol" and v == "ordinal")]
    if "_col" in names and ("_col", "ordinal") not in args:
        args.append(("_col", "ordinal"))
    return urllib.parse.urlencode(args)


def plain(value):
    """A cell's value: Datasette gives a foreign key's cell as ``{"value", "label"}``."""
    return value.get("value") if isinstance(value, dict) else value


def every_column_url(request, columns) -> str:
    """The address of this list with every column shown (Datasette's ``_col``), the id always being."""
    args = [(k, v) for k, v in urllib.parse.parse_qsl(request.query_string, keep_blank_values=True)
            if k not in ("_col", "_nocol")]
    args += [("_col", c["name"]) for c in columns if not c.get("is_pk")]
    return request.path + "?" + urllib.parse.urlencode(args)


@hookimpl
def extra_template_vars(template, database, datasette):
    if not template.startswith("table"):
        return {}
    db = datasette.databases.get(DATABASE_NAME)
    if db is None or db.path is None:
        return {}
    labels = per_database(Path(db.path), "laws-list-labels", load_labels)
    return {
        "laws_labels": labels,
        "facet_name": lambda column: FACET_NAMES.get(column, column.replace("_", " ")),
        "facet_label": lambda column, value, label=None: facet_value_label(labels, column, value, label),
        "every_column_url": every_column_url,
        "plain": plain,
        "in_facet_order": in_facet_order,
    }


@hookimpl
def asgi_wrapper(datasette):
    def wrap(app):
        async def sorted_column_kept(scope, receive, send):
            if scope["type"] == "http" and scope.get("query_string") and \
                    scope.get("path", "").split(".")[0] == f"/{DATABASE_NAME}/laws":
                query = scope["query_string"].decode("latin-1")
                kept = keep_sort_column(query)
                if kept != query:
                    scope = dict(scope, query_string=kept.encode("latin-1"))
            await app(scope, receive, send)

        return sorted_column_kept

    return wrap
