"""Link laws to their law pages wherever Datasette shows them: a law's number in the laws table,
law ids in other columns, and ``/law/…`` paths returned by canned queries."""

from __future__ import annotations

from datasette import hookimpl
from markupsafe import Markup

LAW_ID_COLUMNS = {("laws", "id"), ("laws", "parent"), ("law_entities", "law_id")}


@hookimpl
def render_cell(row, value, column, table, datasette):
    if not isinstance(value, str) or not value:
        return None
    if table == "laws" and column == "number":
        return Markup('<a href="{href}" title="The law\'s page">{number}</a>').format(
            href=datasette.urls.path(f"/law/{row['id']}"), number=value)
    if (table, column) in LAW_ID_COLUMNS:
        return Markup('<a href="{href}">{id}</a>').format(href=datasette.urls.path(f"/law/{value}"), id=value)
    if column == "page" and value.startswith("/law/"):
        return Markup('<a href="{href}">{page}</a>').format(href=datasette.urls.path(value), page=value)
    return None
