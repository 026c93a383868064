"""The plain questions a law answers (corpus/questions): read with clear errors, kept with their
law, embedded, and searched beside the law's own words."""

from __future__ import annotations

import csv
import hashlib
import sqlite3
from pathlib import Path

import pytest

from ingest.build.pipeline import build
from ingest.models import CorpusError
from ingest.paths import CORPUS
from ingest.query.search import Searcher

CLUB = ("1. If the dealer expose a card in dealing, there must be a new deal.\n"
        "2. A player who revokes loses three tricks.\n")
SIDECAR = 'title = "Club rules"\ngame = "whist"\n'
HEADER = "law_id,form,text,opening\n"


@pytest.fixture
def club(tmp_path, write_source):
    write_source(tmp_path / "c", "club", CLUB, SIDECAR)
    return tmp_path


def write(folder: Path, text: str | bytes, name: str = "club.csv") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return folder


def test_questions_are_kept_with_their_law_embedded_and_searched(club, tagger):
    questions = write(club / "q", HEADER + "club/whist/1,question,What if the dealer flips a card over while dealing?,If the dealer\n"
                      "club/whist/1,question,dealer shows a card by mistake,If the dealer\n"
                      "club/whist/1,account,I dealt and one card landed face up,If the dealer\n"
                      "club/whist/2,question,penalty for not following suit when you could,A player who\n")
    report = build([club / "c"], club / "c.db", tagger=tagger, questions_dir=questions)
    assert not [w for w in report.warnings if "questions" in w]
    conn = sqlite3.connect(club / "c.db")
    rows = conn.execute("select law_id, n, question, length(vector) from law_questions order by law_id, n").fetchall()
    assert rows == [("club/whist/1", 0, "What if the dealer flips a card over while dealing?", 384 * 4),
                    ("club/whist/1", 1, "dealer shows a card by mistake", 384 * 4),
                    ("club/whist/2", 0, "penalty for not following suit when you could", 384 * 4)]
    assert conn.execute("select questions from laws where id = 'club/whist/2'").fetchone()[0] == \
        "penalty for not following suit when you could"
    # "flips" is in no law's text: the law is found by its question's words and its question's vector
    found = conn.execute("select l.id from laws_fts join laws l on l.rowid = laws_fts.rowid "
                         "where laws_fts match '{questions} : flips'").fetchall()
    assert found == [("club/whist/1",)]
    # an account is searched by its words; it has no vector (law_questions holds the questions)
    assert conn.execute("select accounts from laws where id = 'club/whist/1'").fetchone()[0] == \
        "I dealt and one card landed face up"
    assert conn.execute("select l.id from laws_fts join laws l on l.rowid = laws_fts.rowid "
                        "where laws_fts match '{accounts} : landed'").fetchall() == [("club/whist/1",)]
    searcher = Searcher(club / "c.db")
    assert searcher.questions.law_cosines(searcher.query_vector("dealer flipped a card")).argmax() == \
        searcher.index.position["club/whist/1"]
    # a rebuild reuses the questions' vectors
    assert build([club / "c"], club / "c.db", tagger=tagger, questions_dir=questions).embedded_questions == 0


def test_a_byte_order_mark_and_a_form_in_capitals_are_read(club, tagger):
    questions = write(club / "q", "\ufeff" + HEADER + "club/whist/1,Question,dealer shows a card,If\n")
    build([club / "c"], club / "c.db", tagger=tagger, questions_dir=questions, embed=False)
    assert sqlite3.connect(club / "c.db").execute("select questions from laws where id = 'club/whist/1'").fetchone() == \
        ("dealer shows a card",)


def test_a_file_named_after_no_book_is_a_warning(club, tagger):
    questions = write(club / "q", HEADER + "club/whist/1,question,dealer shows a card,If\n", name="clubb.csv")
    report = build([club / "c"], club / "c.db", tagger=tagger, questions_dir=questions, embed=False)
    assert [w for w in report.warnings if "clubb.csv: no book or source is named 'clubb'" in w]


def test_a_law_the_file_does_not_list_is_a_warning(club, tagger):
    questions = write(club / "q", HEADER + "club/whist/1,question,dealer shows a card by mistake,If the dealer\n")
    report = build([club / "c"], club / "c.db", tagger=tagger, questions_dir=questions, embed=False)
    assert [w for w in report.warnings if "1 law(s) of the book not listed: club/whist/2" in w]


@pytest.mark.parametrize("text, message", [
    ("law_id,question,opening\nclub/whist/1,x,\n", r"club\.csv:1: the header must be law_id,form,text,opening"),
    (HEADER + "club/whist/1,question,dealer shows a card,If\nclub/whist/9,question,who deals?,\n",
     r"club\.csv:3: law_id 'club/whist/9' is not a law of club"),
    (HEADER + "club/whist/1,question,dealer shows a card,If\nclub/whist/1,account,Dealer  shows a card,If\n",
     r"club\.csv:3: 'Dealer shows a card' is listed twice for club/whist/1"),
    (HEADER + "club/whist/1,question," + "word " * 41 + ",If\n", r"club\.csv:2: the text has over 40 words"),
    (HEADER + "club/whist/1,story,dealer shows a card,If\n", r"club\.csv:2: form must be question or account"),
    (HEADER + "club/whist/1,question,,If\n", r"club\.csv:2: form must be question or account, with a text"),
    # a comma left outside quotes would cut the text short and lose its end
    (HEADER + "club/whist/1,question,if we each win a game, who wins?,If\n",
     r"club\.csv:2: 5 fields, where 4 are expected \(a comma inside a text must be within double quotes\)"),
    (HEADER + 'club/whist/1,question,"dealer shows a card,If\nclub/whist/2,question,revoke penalty,A\n',
     r"club\.csv:2-3: a field runs over more than one line \(a double quote left open\?\)"),
    # line numbers are the file's, blank lines counted
    (HEADER + "club/whist/1,question,dealer shows a card,If\n\n\nclub/whist/9,question,who deals?,\n",
     r"club\.csv:5: law_id 'club/whist/9' is not a law of club"),
    (HEADER + "club/whist/1,question,dealer shows a card,If\nclub/whist/1,account,dealer shows a card?,If\n",
     r"club\.csv:3: 'dealer shows a card\?' is listed twice for club/whist/1"),
    (HEADER + "club/whist/1,question,???,If\n", r"club\.csv:2: the text must be words"),
    (HEADER + "club/whist/1,question,dealer\x00shows,If\n", r"club\.csv:2: the text must be words, without control"),
    (HEADER.encode() + "club/whist/1,question,écarté,If\n".encode("latin-1"), r"club\.csv:2: not UTF-8 text"),
])
def test_a_bad_questions_file_names_its_file_and_line_and_leaves_the_database(club, tagger, text, message):
    build([club / "c"], club / "c.db", tagger=tagger, embed=False)
    before = hashlib.sha256((club / "c.db").read_bytes()).hexdigest()
    with pytest.raises(CorpusError, match=message):
        build([club / "c"], club / "c.db", tagger=tagger, questions_dir=write(club / "q", text), embed=False)
    assert hashlib.sha256((club / "c.db").read_bytes()).hexdigest() == before


def test_every_law_of_the_books_is_listed_in_its_book_s_questions(books_conn):
    listed: dict[str, set[str]] = {}
    for path in sorted((CORPUS / "questions").glob("*.csv")):
        with open(path, newline="", encoding="utf-8") as f:
            listed[path.stem] = {row["law_id"] for row in csv.DictReader(f)}
    laws = books_conn.execute("select id, source from laws where witness_of is null").fetchall()
    assert {source for _, source in laws} <= set(listed)
    assert not [law_id for law_id, source in laws if law_id not in listed[source]]
    asked = books_conn.execute("select count(distinct law_id), count(*) from law_questions").fetchone()
    assert asked[0] > 0.95 * len(laws) and asked[1] > 2 * len(laws)
    told = books_conn.execute("select count(*) from laws where accounts is not null and witness_of is null").fetchone()[0]
    assert told > 0.95 * len(laws)


def test_a_law_is_found_by_the_plain_question_it_answers(books_db):
    # Hoffmann's Bézique law 27: "A player may not count the brisques in his tricks so long as more
    # than twelve cards remain in the stock" (the brisques are the aces and tens) answers "when may I
    # add up my aces and tens": no word of the query but "may" is the law's, so the laws' own words
    # and vectors (hybrid) miss it, and its plain questions ("When can I count my aces and tens?") find it
    searcher = Searcher(books_db.db_path)
    law = "hoffmann-hoyles-games-modernized-1909/bezique/27"
    query = "when may I add up my aces and tens"
    hits = {h.id: h for h in searcher.search(query, game="bezique", limit=10)}
    assert law in hits and hits[law].asked == "When can I count my aces and tens?"  # why it was found
    assert law not in [h.id for h in searcher.search(query, mode="hybrid", game="bezique", limit=20)]


async def test_the_search_says_which_question_a_law_was_found_by(books_db):
    from ingest.query.serve import make_datasette

    ds = make_datasette(books_db.db_path)
    data = (await ds.client.get("/-/search.json?q=when+may+I+add+up+my+aces+and+tens&game=bezique")).json()
    asked = {r["id"]: r["asked"] for r in data["results"]}
    assert asked["hoffmann-hoyles-games-modernized-1909/bezique/27"] == "When can I count my aces and tens?"
    html = (await ds.client.get("/-/search?q=when+may+I+add+up+my+aces+and+tens&game=bezique")).text
    assert "asked as: “When can I count my aces and tens?”" in html


async def test_the_law_page_and_record_list_the_questions_the_law_answers(books_db):
    from ingest.query.serve import make_datasette

    ds = make_datasette(books_db.db_path)
    law = "hoffmann-hoyles-games-modernized-1909/bezique/27"
    html = (await ds.client.get(f"/law/{law}")).text
    section = html.split("Questions this law answers")[1].split("</section>")[0]
    assert 'href="/-/search?q=When%20can%20I%20count%20my%20aces%20and%20tens%3F"' in section
    record = (await ds.client.get(f"/law/{law}.json")).json()
    assert "When can I count my aces and tens?" in record["questions"] and isinstance(record["questions"], list)
    assert record["accounts"] and "As players tell it" in section


def test_show_prints_the_questions_the_law_answers(books_db):
    from click.testing import CliRunner

    from ingest.cli import main

    result = CliRunner().invoke(main, ["show", "hoffmann-hoyles-games-modernized-1909/bezique/27",
                                       "--db", str(books_db.db_path)])
    assert result.exit_code == 0, result.output
    assert "Asked as: When can I count my aces and tens?; counting brisques in my tricks too early" in result.output


def test_an_excerpt_s_copy_of_a_law_has_its_book_law_s_questions(books_conn):
    # the seed excerpt 001_… prints Hoffmann's Bridge laws; its law 40 is a witness of the book's
    copy, book, copy_told, book_told = books_conn.execute(
        "select c.questions, b.questions, c.accounts, b.accounts from laws c join laws b on b.id = c.witness_of "
        "where c.id = '001_eeed9204cf5d74d0/bridge/40'").fetchone()
    assert copy == book and book and copy_told == book_told and book_told
    assert not books_conn.execute("select 1 from law_questions where law_id = '001_eeed9204cf5d74d0/bridge/40'").fetchone()


def test_build_reads_a_questions_folder_for_your_own_texts(club):
    from click.testing import CliRunner

    from ingest.cli import main

    questions = write(club / "q", HEADER + "club/whist/1,question,dealer shows a card,If\n")
    result = CliRunner().invoke(main, ["build", "--corpus", str(club / "c"), "--questions", str(questions),
                                       "--db", str(club / "c.db")])
    assert result.exit_code == 0, result.output
    assert sqlite3.connect(club / "c.db").execute("select questions from laws where id = 'club/whist/1'").fetchone() == \
        ("dealer shows a card",)


def test_search_names_the_unknown_game_not_the_query(books_db):
    from click.testing import CliRunner

    from ingest.cli import main

    result = CliRunner().invoke(main, ["search", "renege", "--game", "chess", "--db", str(books_db.db_path)])
    assert result.exit_code == 1 and "game: no such game" in result.stderr and "'renege'" not in result.stderr
