"""The options and checks the ``cardlaws`` commands share (:mod:`ingest.cli`): the database
option (a regular file), text arguments (UTF-8), opening a built database read-only (its schema
checked), the progress bar of long steps, and exiting with a message (status 1)."""

from __future__ import annotations

import sqlite3
import sys
import time
from pathlib import Path

import click

from . import paths


def _db_path(ctx: click.Context, param: click.Parameter, value: Path) -> Path:
    """``--db``: a file path, and where something is there, a regular file (a named pipe would
    block the reader; an empty value names the current folder)."""
    if not str(value).strip() or value == Path("."):
        raise click.BadParameter("give the path of a database file", param=param)
    if value.exists() and not value.is_file():
        raise click.BadParameter(f"{value} is not a regular file", param=param)
    return value


DB_OPTION = click.option(
    "--db", "db_path", type=click.Path(dir_okay=False, path_type=Path), default=paths.DEFAULT_DB,
    show_default="db/cardlaws.db in the project", help="The SQLite database file.", callback=_db_path,
)


def text_argument(value: str | None, what: str) -> str | None:
    """``value`` as given, unless the shell passed bytes that are not UTF-8 (Python keeps them as
    lone surrogates): then exit with status 1 naming ``what``."""
    if value is not None:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            fail(f"{what}: not valid UTF-8 text")
    return value


def fail(message: str) -> None:
    """Print ``message`` on stderr and exit with status 1."""
    click.secho(f"error: {message}", fg="red", err=True)
    sys.exit(1)


CACHE_OPTION = click.option(
    "--cache", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="Folder of fetched books (default: .cache/books in the project, or $CARDLAWS_CACHE).",
)


def progress(items, length, label):
    """A progress bar on stderr for a long step: the count done of ``length`` and the rate; where
    stderr is not a terminal (a log), one line when the step is done."""
    start = time.monotonic()
    shown: list = []  # the bar, once made (it draws itself once before)

    def rate(_item) -> str | None:
        elapsed = time.monotonic() - start
        done = shown[0].pos if shown else 0
        return f"{done / elapsed:.1f}/s" if done and elapsed > 0 else None

    with click.progressbar(items, length=length, label=label, file=sys.stderr, show_pos=True,
                           item_show_func=rate) as bar:
        shown.append(bar)
        yield from bar
    elapsed = time.monotonic() - start
    if not sys.stderr.isatty() and length:
        click.echo(f"{label}: {length} in {elapsed:.1f} s ({length / max(elapsed, 1e-9):.1f}/s)", err=True)


def open_database(db_path: Path) -> sqlite3.Connection:
    """A read-only connection to the database at ``db_path``; exits with a message when there is
    none, when it is not a Card Laws database, or when another version of the schema built it."""
    from .schema_version import SchemaError, check_schema

    if not db_path.exists():
        fail(f"no database at {db_path}; run 'cardlaws build --db {db_path}' first")
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        conn.execute("select 1 from laws limit 1")
        check_schema(conn, db_path)
    except sqlite3.DatabaseError as e:
        fail(f"{db_path} is not a Card Laws database ({e})")
    except SchemaError as e:
        fail(str(e))
    return conn
