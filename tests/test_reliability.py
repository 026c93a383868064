"""Reliability: a database of another schema is refused with a message saying to rebuild it; a
build never replaces a file that is not a Card Laws database; two builds of one database at once
take turns and leave it whole; `corpus fetch` says which books are
not the catalogued copy."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from ingest.build.lock import build_lock
from ingest.cli import main
from ingest.paths import SEEDS
from ingest.query.serve import make_datasette
from ingest.schema_version import SCHEMA_VERSION, SchemaError


def _altered_copy(seed_db, db, statement: str):
    """A copy of the seed database at ``db`` with ``statement`` run on it."""
    shutil.copy(seed_db, db)
    conn = sqlite3.connect(db)
    conn.execute(statement)
    conn.commit()
    conn.close()
    return db


@pytest.fixture
def old_db(tmp_path, seed_db):
    return _altered_copy(seed_db, tmp_path / "old.db", "pragma user_version = 0")


def test_the_build_stores_the_schema_version(seed_db):
    assert sqlite3.connect(seed_db).execute("pragma user_version").fetchone()[0] == SCHEMA_VERSION


@pytest.mark.parametrize("args", [
    ["show", "000_d29d92d83d86afb5/ecarte/5"], ["search", "misdeal"], ["cite", "Écarté law 5"], ["serve", "--port", "1"],
])
def test_a_database_of_another_schema_is_refused(old_db, args):
    result = CliRunner().invoke(main, [*args, "--db", str(old_db)])
    assert result.exit_code == 1, result.output
    assert f"{old_db} was built by another version of Card Laws (schema version 0; this one reads version " \
           f"{SCHEMA_VERSION}): rebuild it with 'cardlaws build --db {old_db}'" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("args", [["show", "000_d29d92d83d86afb5/ecarte/5"], ["search", "misdeal"], ["serve", "--port", "1"]])
def test_a_database_missing_a_table_since_its_build_is_refused_naming_the_table(tmp_path, seed_db, args):
    db = _altered_copy(seed_db, tmp_path / "damaged.db", "drop table laws_fts")
    result = CliRunner().invoke(main, [*args, "--db", str(db)])
    assert result.exit_code == 1, result.output
    assert f"{db} is not a complete Card Laws database (no table laws_fts): rebuild it" in result.output
    assert "Traceback" not in result.output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
@pytest.mark.parametrize("args", [["search", "misdeal"], ["build"], ["show", "x/y/1"]])
def test_db_must_name_a_regular_file(tmp_path, args):
    pipe = tmp_path / "pipe.db"
    os.mkfifo(pipe)  # a reader would block on it for ever
    for value, message in ((str(pipe), f"{pipe} is not a regular file"), ("", "give the path of a database file")):
        result = CliRunner().invoke(main, [*args, "--db", value])
        assert result.exit_code == 2, result.output
        assert message in result.output and "Traceback" not in result.output


def test_arguments_that_are_not_utf8_and_ports_out_of_range_are_named(seed_db):
    undecodable = b"\xff".decode("utf-8", "surrogateescape")  # what Python makes of the shell's byte 0xff
    for args, message in ((["show", undecodable], "LAW_ID: not valid UTF-8 text"),
                          (["cite", "law 3", "--context", undecodable], "--context: not valid UTF-8 text")):
        result = CliRunner().invoke(main, [*args, "--db", str(seed_db)])
        assert result.exit_code == 1 and message in result.output, result.output
    result = CliRunner().invoke(main, ["serve", "--db", str(seed_db), "--port", "99999"])
    assert result.exit_code == 2 and "99999 is not in the range 1<=x<=65535" in result.output


def test_serve_says_when_its_port_is_taken_before_announcing_the_address(seed_db):
    import socket

    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--db", str(seed_db), "--port", str(port)])
    assert result.exit_code == 1, result.output
    assert f"--port: cannot listen on 127.0.0.1:{port}" in result.output and "Serving" not in result.output


def test_datasette_refuses_it_too(old_db):
    with pytest.raises(SchemaError, match="rebuild it"):
        make_datasette(old_db)


@pytest.mark.parametrize("kind", ["notes", "another application's database"])
def test_a_build_never_replaces_a_file_that_is_not_a_card_laws_database(tmp_path, kind):
    db = tmp_path / "x.db"
    if kind == "notes":
        db.write_text("my important notes\n")
        message = f"{db}: not an SQLite database"
    else:
        with sqlite3.connect(db) as conn:
            conn.execute("create table customers (name text)")
        message = f"{db}: another application's database (tables: customers)"
    before = db.read_bytes()
    result = CliRunner().invoke(main, ["build", "--corpus", str(SEEDS), "--db", str(db)])
    assert result.exit_code == 1 and message in result.output and "left as it is" in result.output, result.output
    assert db.read_bytes() == before


def test_an_empty_file_or_a_card_laws_database_is_rebuilt(tmp_path, seed_db):
    empty = tmp_path / "empty.db"
    empty.touch()
    assert CliRunner().invoke(main, ["build", "--corpus", str(SEEDS), "--db", str(empty)]).exit_code == 0
    assert sqlite3.connect(empty).execute("select count(*) from laws").fetchone()[0] == 46


def test_two_builds_at_once_take_turns_and_leave_the_database_whole(tmp_path):
    db = tmp_path / "cardlaws.db"
    command = [sys.executable, "-m", "ingest.cli", "build", "--corpus", str(SEEDS), "--db", str(db)]
    # both builds find the database being built and wait
    with build_lock(db), open(tmp_path / "err0", "w") as err0, open(tmp_path / "err1", "w") as err1:
        procs = [subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err) for err in (err0, err1)]
        deadline = time.monotonic() + 120
        while not all("waiting for it to finish" in (tmp_path / f"err{i}").read_text() for i in range(2)):
            assert time.monotonic() < deadline, [(tmp_path / f"err{i}").read_text() for i in range(2)]
            assert all(p.poll() is None for p in procs)
            time.sleep(0.2)
        assert not db.exists()
    assert [p.wait(timeout=300) for p in procs] == [0, 0]
    err = (tmp_path / "err0").read_text()
    assert f"another build of {db} is running (process {os.getpid()}); waiting for it to finish" in err
    conn = sqlite3.connect(db)
    assert conn.execute("pragma integrity_check").fetchone()[0] == "ok"
    assert conn.execute("select count(*) from laws").fetchone()[0] == 46
    assert not list(tmp_path.glob(".cardlaws.db.building-*"))


def test_fetch_says_which_books_are_not_the_catalogued_copy(tmp_path, shared_corpus):
    mirror = tmp_path / "mirror"
    shutil.copytree(shared_corpus, mirror)
    foster = mirror / "foster-complete-hoyle-1914.txt"
    foster.write_bytes(foster.read_bytes()[: foster.stat().st_size // 2])
    result = CliRunner().invoke(main, ["corpus", "fetch", "--mirror", str(mirror), "--cache", str(tmp_path / "cache")])
    assert result.exit_code == 0, result.output
    assert "foster-complete-hoyle-1914: not the catalogued copy (sha256 " in result.output
    assert result.output.count("not the catalogued copy") == 1
    # fetched again (kept in the cache), it is checked again
    again = CliRunner().invoke(main, ["corpus", "fetch", "--mirror", str(mirror), "--cache", str(tmp_path / "cache")])
    assert "foster-complete-hoyle-1914: not the catalogued copy" in again.output
