"""Paging any table in any order shows every row exactly once: walk ``next_url`` from the first
page for every sortable column of every table, ascending and with ``_sort_desc``, and compare the
rows seen with the table itself."""

from __future__ import annotations

import sqlite3

import pytest

from ingest.query.serve import make_datasette


def tables(db) -> dict[str, tuple[list[str], list[str]]]:
    """Every table but the FTS index's own (SQLite's internals, which Datasette hides): its
    columns and primary key (rowid when none)."""
    conn = sqlite3.connect(db)
    out = {}
    for (name,) in conn.execute("select name from sqlite_master where type = 'table' and name not like 'laws_fts_%'"):
        info = conn.execute(f"pragma table_info([{name}])").fetchall()
        pks = [r[1] for r in sorted((r for r in info if r[5]), key=lambda r: r[5])] or ["rowid"]
        out[name] = ([r[1] for r in info], pks)
    return out


def every_row(db, table: str, pks: list[str]) -> list[tuple]:
    cols = ", ".join(f"[{c}]" if c != "rowid" else "rowid" for c in pks)
    return sorted(sqlite3.connect(db).execute(f"select {cols} from [{table}]").fetchall())


def binary(db, table: str, column: str) -> bool:
    return sqlite3.connect(db).execute(f"select 1 from [{table}] where typeof([{column}]) = 'blob'").fetchone() is not None


async def walk(ds, table: str, pks: list[str], arg: str, column: str, size: int) -> list[tuple]:
    url = f"/cardlaws/{table}.json?_shape=objects&_nofacet=1&_nocount=1&_size={size}&{arg}={column}"
    seen: list[tuple] = []
    for _ in range(10_000):
        response = await ds.client.get(url.replace("http://localhost", ""))
        assert response.status_code == 200, (url, response.text[:300])
        data = response.json()
        seen += [tuple(row[k] for k in pks) for row in data["rows"]]
        if not data.get("next_url"):
            return seen
        url = data["next_url"]
    raise AssertionError("paging did not end")


async def test_every_table_in_every_order_shows_every_row_once(seed_db):
    ds = make_datasette(seed_db)
    walks = 0
    for table, (columns, pks) in tables(seed_db).items():
        expected = every_row(seed_db, table, pks)
        size = max(3, len(expected) // 6)  # about six pages a walk
        for column in ds.table_metadata("cardlaws", table).get("sortable_columns") or columns:
            if binary(seed_db, table, column):
                continue
            for arg in ("_sort", "_sort_desc"):
                seen = await walk(ds, table, pks, arg, column, size)
                assert len(seen) == len(expected) and sorted(seen) == expected, (table, arg, column, len(seen), len(expected))
                walks += 1
    assert walks > 150


@pytest.mark.parametrize("arg", ["_sort", "_sort_desc"])
async def test_the_laws_of_the_books_in_every_order(books_db, arg):
    ds = make_datasette(books_db.db_path)
    columns, pks = tables(books_db.db_path)["laws"]
    expected = every_row(books_db.db_path, "laws", pks)
    assert len(expected) == 1540  # the books and seeds: laws, clauses and the cases laws list
    seen = await walk(ds, "laws", pks, arg, "game", 25)  # the example: 1,334 of 1,472 were seen
    assert sorted(seen) == expected
    for column in columns:
        seen = await walk(ds, "laws", pks, arg, column, 200)
        assert len(seen) == len(expected) and sorted(seen) == expected, (arg, column)


async def test_the_first_page_still_looks_like_a_first_page(datasette):
    data = (await datasette.client.get("/cardlaws/laws.json?_sort=game&_size=5&_shape=objects")).json()
    assert [r["game"] for r in data["rows"]] == ["bridge"] * 5
    assert [r["id"] for r in data["rows"]] == sorted(r["id"] for r in data["rows"])  # ties by primary key
    plain = (await datasette.client.get("/cardlaws/laws.json?_size=5&_shape=objects")).json()  # unique sort: untouched
    assert plain["rows"][0]["id"] == "000_d29d92d83d86afb5/ecarte/5"


async def test_a_column_of_binary_values_is_a_clear_400(seed_db):
    ds = make_datasette(seed_db)
    response = await ds.client.get("/cardlaws/laws_fts_data.json?_sort=block")
    assert response.status_code == 400 and "binary values" in response.json()["error"]
    assert (await ds.client.get("/cardlaws/law_embeddings.json?_sort_desc=vector")).status_code == 400  # not sortable
