"""Link laws to their law pages wherever Datasette shows them: a law's number in the laws table,
law ids in other columns, and site paths (``/law/…``, ``/compare/…``) returned by canned queries."""

from __future__ import annotations

from datasette import hookimpl
from markupsafe import Markup

LAW_ID_COLUMNS = {("laws", "id"), ("laws", "parent"), ("law_entities", "law_id")}
# the columns of canned queries (metadata.yml, db/queries/) that hold a site path to link
LINK_COLUMNS = {"page", "code_page", "compare", "laws_table"}


@hookimpl
def render_cell(row, value, column, table, datasette):
    if not isinstance(value, str) or not value:
        return None
    if table == "laws" and column == "number":
        return Markup('<a href="{href}" title="The law\'s page">{number}</a>').format(
            href=datasette.urls.path(f"/law/{row['id']}"), number=value)
    if (table, column) in LAW_ID_COLUMNS:
        return Markup('<a href="{href}">{id}</a>').format(href=datasette.urls.path(f"/law/{value}"), id=value)
    if column in LINK_COLUMNS and value.startswith(("/law/", "/compare/", "/cardlaws/")):
        return Markup('<a href="{href}">{page}</a>').format(href=datasette.urls.path(value), page=value)
    return None
