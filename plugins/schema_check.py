"""Refuse to start on a database built by another version of the schema (``datasette`` run
directly; ``cardlaws serve`` checks before it starts): the message says to rebuild it."""

from __future__ import annotations

from datasette import hookimpl

from ingest.query.serve import DATABASE_NAME
from ingest.schema_version import check_schema_file


@hookimpl
def startup(datasette):
    db = datasette.databases.get(DATABASE_NAME)
    if db is not None and db.path:
        check_schema_file(db.path)
