"""The catalog: validated, and locating codes by their text in any copy of a book (Latin-1 or
UTF-8, CRLF or LF, with or without a Gutenberg header); clear errors for a wrong or truncated copy."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from dataclasses import replace

import pytest

from ingest.build.catalog import load_catalog
from ingest.build.pipeline import build
from ingest.models import CorpusError


@pytest.fixture(scope="module")
def catalog():
    return {b.slug: b for b in load_catalog()}


def test_catalog_describes_the_nine_books(catalog, shared_corpus):
    assert len(catalog) == 9
    for slug, book in catalog.items():
        data = (shared_corpus / f"{slug}.txt").read_bytes()
        assert book.sha256 == hashlib.sha256(data).hexdigest(), slug
        assert book.title and book.download.startswith("https://") and book.licence
    assert catalog["pembridge-whist-or-bumblepuppy-1895"].kind == "commentary"
    assert catalog["cavendish-piquet-cases-and-decisions-8th-ed"].kind == "rulings"


def _laws(db):
    return sqlite3.connect(db).execute("select id, number, text, line_start from laws order by ordinal").fetchall()


def test_a_differently_encoded_copy_gives_the_same_laws(tmp_path, catalog, shared_corpus, tagger):
    book = catalog["peel-round-games-with-cards-1891"]
    original = (shared_corpus / f"{book.slug}.txt").read_text(encoding="utf-8")
    header = "The Project Gutenberg EBook of Round Games with Cards\n" + "\n" * 9  # 10 lines more
    copy = (header + original).replace("\n", "\r\n").encode("latin-1", errors="replace")
    for folder, data in (("a", original.encode("utf-8")), ("b", copy)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / f"{book.slug}.txt").write_bytes(data)
        build([], tmp_path / f"{folder}.db", tagger=tagger, cache=tmp_path / folder, catalog=[book])
    a, b = _laws(tmp_path / "a.db"), _laws(tmp_path / "b.db")
    assert len(a) == len(b) == 81
    assert [(x[0], x[1]) for x in a] == [(x[0], x[1]) for x in b]
    assert all(y[3] == x[3] + 10 for x, y in zip(a, b))
    assert sum(x[2] == y[2] for x, y in zip(a, b)) >= 78  # a few curly quotes do not survive Latin-1


def test_a_copy_whose_heading_is_not_found_is_left_out_with_a_warning(tmp_path, catalog, tagger):
    from ingest.paths import SEEDS

    book = catalog["cavendish-laws-of-piquet-8th-ed"]
    (tmp_path / f"{book.slug}.txt").write_text("Some other book entirely.\n1. A law.\n")
    report = build([SEEDS], tmp_path / "x.db", tagger=tagger, cache=tmp_path, catalog=[book])
    assert list(report.skipped_books) == [book.slug]
    warning = next(w for w in report.warnings if book.slug in w)
    assert "code 'piquet': its heading '# LAWS OF PIQUET' was not found" in warning
    assert "not the catalogued one" in warning and "cardlaws corpus fetch --force" in warning
    assert report.counts["laws"] == 46  # the seeds were built


def test_a_book_cut_in_half_is_left_out_and_the_rest_is_built(tmp_path, catalog, shared_corpus, tagger):
    foster, peel = catalog["foster-complete-hoyle-1914"], catalog["peel-round-games-with-cards-1891"]
    data = (shared_corpus / f"{foster.slug}.txt").read_bytes()
    (tmp_path / f"{foster.slug}.txt").write_bytes(data[: len(data) // 2])
    shutil.copy(shared_corpus / f"{peel.slug}.txt", tmp_path)
    report = build([], tmp_path / "x.db", tagger=tagger, cache=tmp_path, catalog=[foster, peel], embed=False)
    assert list(report.skipped_books) == [foster.slug]
    assert "code 'cinch': its heading 'CINCH LAWS.' was not found" in report.skipped_books[foster.slug]
    assert report.laws_by_source == {peel.slug: 81}


def test_a_cut_copy_given_with_corpus_still_stops_the_build(tmp_path, shared_corpus, tagger, write_source):
    lines = (shared_corpus / "peel-round-games-with-cards-1891.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    sidecar = 'title = "Round Games"\n[[codes]]\ngame = "poker"\nstart_line = 10\nend_line = 3000\n'
    write_source(tmp_path / "corpus", "peel", "".join(lines[:1500]), sidecar)
    with pytest.raises(CorpusError, match=r"peel\.toml: codes\[1\] lines 10–3000 fall outside the file \(1500 lines\)"):
        build([tmp_path / "corpus"], tmp_path / "x.db", tagger=tagger)
    assert not (tmp_path / "x.db").exists()


def test_unknown_catalog_key_is_an_error(tmp_path):
    path = tmp_path / "catalog.toml"
    path.write_text('[[book]]\nslug = "x"\ntitle = "X"\ndownload = "https://example.org/x.txt"\ncolour = "red"\n')
    with pytest.raises(CorpusError, match=r"book 'x': unknown key 'colour'"):
        load_catalog(path)


@pytest.mark.parametrize("fields, message", [
    ('family = "canasta"', r"code\[1\]: field 'family' = 'canasta' is not a family"),
    ('aliases = ["Club Code", "club  code"]', r"code\[1\]: field 'aliases' names 'Club Code' twice"),
    ("year = 1650", r"code\[1\]: field 'year' = 1650 is not the year of a code \(1700–1950\)"),
    ('year = "1900"', r"code\[1\]: field 'year' must be int"),
])
def test_bad_code_records_name_the_file_and_field(tmp_path, fields, message):
    path = tmp_path / "catalog.toml"
    path.write_text('[[book]]\nslug = "x"\ntitle = "X"\ndownload = "https://example.org/x.txt"\n'
                    f'[[book.code]]\ngame = "whist"\nstart = "LAWS"\n{fields}\n')
    with pytest.raises(CorpusError, match=str(path).replace(".", r"\.") + r": book 'x', " + message):
        load_catalog(path)


def test_codes_are_records_with_authority_year_and_aliases(books_conn):
    import json

    code = books_conn.execute("select * from codes where id = 'hoffmann-hoyles-games-modernized-1909/whist'").fetchone()
    # the book's heading: "(Reprinted, by permission, from the Revised Code, 1900.)"
    assert (code["year"], code["edition"], code["family"], code["numbered"]) == (1900, "Revised Code, 1900", "whist", 1)
    assert "Revised Code" in json.loads(code["aliases"])
    elwell = books_conn.execute("select numbered, year from codes where id = 'elwell-bridge-axioms-and-laws-1907/bridge'").fetchone()
    assert tuple(elwell) == (0, 1907)
    auction = books_conn.execute("select family from codes where id = 'foster-complete-hoyle-1914/auction-bridge'").fetchone()
    assert auction["family"] == "bridge"


def test_missing_books_are_reported_not_fatal(tmp_path, catalog, tagger):
    from ingest.paths import SEEDS

    report = build([SEEDS], tmp_path / "x.db", tagger=tagger, cache=tmp_path / "empty", catalog=list(catalog.values()))
    assert sorted(report.missing_books) == sorted(catalog)
    assert report.counts["laws"] == 46


def test_duplicate_numbers_in_a_book_are_flagged(tmp_path, catalog, shared_corpus, tagger):
    book = replace(catalog["peel-round-games-with-cards-1891"])
    text = (shared_corpus / f"{book.slug}.txt").read_text(encoding="utf-8")
    (tmp_path / f"{book.slug}.txt").write_text(text.replace("\n12. If any player", "\n11. If any player", 1))
    report = build([], tmp_path / "x.db", tagger=tagger, cache=tmp_path, catalog=[book])
    assert any("number 11 is duplicated" in w and "[poker]" in w for w in report.warnings)
    ids = [r[0] for r in sqlite3.connect(tmp_path / "x.db").execute("select id from laws where number = '11'")]
    assert ids == ["peel-round-games-with-cards-1891/poker/11", "peel-round-games-with-cards-1891/poker/11~2"]
