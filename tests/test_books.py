"""The nine books, built the default way (seeds + catalogued books from the cache): boundaries
against the hand-read gold, the styles of each book, and what the build links together.
Expected values come from reading the books (shared/corpus/SOURCES.md and the texts)."""

from __future__ import annotations

import pytest

from ingest.evaluate.boundaries import evaluate, load_gold


@pytest.fixture(scope="module")
def conn(books_conn):
    return books_conn


def one(conn, sql, *params):
    row = conn.execute(sql, params).fetchone()
    assert row is not None, (sql, params)
    return row


def test_law_boundaries_against_the_gold(conn):
    gold, ranges = load_gold()
    assert len(gold) >= 150 and len({g["source"] for g in gold}) >= 7
    results = evaluate(conn, gold, ranges)
    matched = sum(r["boundaries"] for r in results.values())
    built = sum(r["built"] for r in results.values())
    assert matched / len(gold) >= 0.95  # recall (measured 0.966)
    assert matched / built >= 0.95  # precision (measured 0.969)


def test_every_book_with_laws_is_built_and_nothing_is_missing(books_db):
    assert books_db.missing_books == []
    for slug, n in books_db.laws_by_source.items():
        if slug.startswith(("cavendish-piquet-cases", "pembridge")):
            assert n == 0, slug  # rulings and commentary, not codes
        else:
            assert n > 0, slug


@pytest.mark.parametrize("code, laws", [
    ("hoffmann-hoyles-games-modernized-1909/ecarte", 51),
    ("hoffmann-hoyles-games-modernized-1909/loo", 17),
    ("hoffmann-hoyles-games-modernized-1909/bezique", 66),
    ("peel-round-games-with-cards-1891/poker", 81),
    ("cavendish-laws-of-piquet-8th-ed/piquet", 78),
    ("foster-complete-hoyle-1914/skat", 61),
    ("foster-complete-hoyle-1914/hearts", 30),
])
def test_laws_per_code(conn, code, laws):
    assert one(conn, "select count(*) from laws where code = ? and kind = 'law'", code)[0] == laws


def test_bold_heads_and_lettered_laws_of_foster(conn):
    law1 = one(conn, "select * from laws where id = 'foster-complete-hoyle-1914/poker/1'")
    assert law1["text"].startswith("Formation of Table. A poker table is complete with seven")
    assert one(conn, "select count(*) from laws where id = 'foster-complete-hoyle-1914/auction-bridge/47a'")[0] == 1
    assert one(conn, "select number from laws where id = 'foster-complete-hoyle-1914/auction-bridge/50c'")[0] == "50c"
    euchre20 = one(conn, "select text, section from laws where id = 'foster-complete-hoyle-1914/euchre/20'")
    assert euchre20["text"].startswith("MAKING THE TRUMP. If the dealer does not take up the trump")


def test_law_and_sec_clauses_of_duplicate_whist(conn):
    law = one(conn, "select * from laws where id = 'foster-complete-hoyle-1914/duplicate-whist/I'")
    assert law["text"] == "SHUFFLING."
    secs = conn.execute("select number from laws where parent = ? order by ordinal", [law["id"]]).fetchall()
    assert [r[0] for r in secs][:2] == ["1", "2"]


def test_three_hand_and_lettered_duplicate_auction(conn):
    assert one(conn, "select count(*) from laws where code = 'foster-complete-hoyle-1914/three-hand-auction'")[0] == 15
    letters = [r[0] for r in conn.execute(
        "select number from laws where code = 'foster-complete-hoyle-1914/duplicate-auction' and kind = 'law' order by ordinal")]
    assert letters == list("ABCDEFGH")


def test_range_entries_are_references(conn):
    row = one(conn, "select * from laws where id = 'hoffmann-hoyles-games-modernized-1909/auction-bridge/5-to-10'")
    assert row["kind"] == "reference" and row["number"] == "5 to 10" and row["text"] == "As in Bridge."


def test_etiquette_is_kept_apart(conn):
    kinds = {r[0] for r in conn.execute(
        "select distinct kind from laws where code = 'hoffmann-hoyles-games-modernized-1909/whist-etiquette'")}
    assert kinds == {"etiquette"}
    assert one(conn, "select count(*) from laws where code = 'foster-complete-hoyle-1914/auction-etiquette'")[0] == 12


def test_unnumbered_laws_of_elwell_have_ordinals_and_say_so(conn):
    rows = conn.execute("select number, numbered, section, text from laws where code = "
                        "'elwell-bridge-axioms-and-laws-1907/bridge' order by ordinal").fetchall()
    assert rows[0]["number"] == "1" and rows[0]["numbered"] == 0
    assert rows[0]["section"] == "THE RUBBER"
    assert rows[0]["text"].startswith("The partners first winning two games win the rubber.")
    assert rows[1]["section"] == "SCORING"


def test_sections_from_caps_italic_and_markdown_heads(conn):
    assert one(conn, "select section from laws where id = 'hoffmann-hoyles-games-modernized-1909/bezique/4'")[0] == "CUTTING"
    assert one(conn, "select section from laws where id = 'peel-round-games-with-cards-1891/poker/1'")[0] == "The Deal"
    assert one(conn, "select section from laws where id = 'cavendish-laws-of-piquet-8th-ed/piquet/9'")[0] == "Dealing"


def test_footnotes_are_attached_to_the_law_that_cites_them(conn):
    law = one(conn, "select text, note, raw_text from laws where id = 'hoffmann-hoyles-games-modernized-1909/ecarte/51'")
    assert "[23]" in law["raw_text"] and "[23]" not in law["text"]
    assert law["note"].startswith("[23] ")


def test_ocr_slips_stay_as_printed(conn):
    assert "tight of the dealer" in one(conn, "select raw_text from laws where id = 'peel-round-games-with-cards-1891/poker/78'")[0]
    assert "afresh deal" in " ".join(r[0] for r in conn.execute(
        "select text from laws where source = 'cavendish-laws-of-piquet-8th-ed'"))


def test_markdown_is_text_and_list_items_are_clauses(conn):
    law59 = one(conn, "select id, text from laws where id = 'cavendish-laws-of-piquet-8th-ed/piquet/59'")
    clauses = conn.execute("select number, raw_text from laws where parent = ? order by ordinal", [law59["id"]]).fetchall()
    assert [c[0] for c in clauses] == ["I", "II", "III", "IV", "V"]
    assert clauses[0][1].startswith("- I. If a player accidentally drop")


def test_seed_excerpts_are_witnesses_of_the_books_laws(conn):
    pairs = {
        "002_acea09cb2742a4b7/ecarte/31": "hoffmann-hoyles-games-modernized-1909/ecarte/31",
        "001_eeed9204cf5d74d0/bridge/40": "hoffmann-hoyles-games-modernized-1909/bridge/40",
        "001_eeed9204cf5d74d0/bridge/46": "hoffmann-hoyles-games-modernized-1909/bridge/46",
        "003_ea313244f1a1cb18/whist/xii": "enquire-within-upon-everything-1894/whist/xii",
        "004_6dbc7a77bd2684ce/poker/14": "peel-round-games-with-cards-1891/poker/14",
    }
    for seed, book in pairs.items():
        assert one(conn, "select witness_of from laws where id = ?", seed)[0] == book
    assert one(conn, "select witness_of from laws where id = '000_d29d92d83d86afb5/ecarte/5'")[0] is None


def test_cases_and_decisions_are_rulings_citing_laws(conn):
    assert one(conn, "select count(*) from rulings")[0] == 22
    cited = conn.execute("select law_id, status from ruling_citations where ruling_id = "
                         "'cavendish-piquet-cases-and-decisions-8th-ed/case-I' order by law_id").fetchall()
    assert [(r[0], r[1]) for r in cited] == [
        ("cavendish-laws-of-piquet-8th-ed/piquet/46", "resolved"), ("cavendish-laws-of-piquet-8th-ed/piquet/51", "resolved")]
    assert one(conn, "select count(*) from laws where source = 'cavendish-piquet-cases-and-decisions-8th-ed'")[0] == 0


def test_commentary_is_catalogued_not_segmented(conn):
    row = one(conn, "select kind, title from sources where slug = 'pembridge-whist-or-bumblepuppy-1895'")
    assert row["kind"] == "commentary"
    assert one(conn, "select count(*) from laws where source = 'pembridge-whist-or-bumblepuppy-1895'")[0] == 0


def test_ids_are_unique_where_numbering_restarts(conn):
    # Hoffmann's Bridge law 6 prints clauses I.–III. and then I.–II. again
    ids = [r[0] for r in conn.execute("select id from laws where parent = 'hoffmann-hoyles-games-modernized-1909/bridge/6'")]
    assert len(ids) == len(set(ids)) == 5


async def test_law_page_shows_witnesses_and_rulings(books_db):
    from ingest.query.serve import make_datasette

    ds = make_datasette(books_db.db_path)
    book = (await ds.client.get("/law/hoffmann-hoyles-games-modernized-1909/ecarte/31")).text
    assert "Also printed in" in book and "/law/002_acea09cb2742a4b7/ecarte/31" in book
    seed = (await ds.client.get("/law/002_acea09cb2742a4b7/ecarte/31")).text
    assert 'href="/law/hoffmann-hoyles-games-modernized-1909/ecarte/31"' in seed
    law51 = (await ds.client.get("/law/cavendish-laws-of-piquet-8th-ed/piquet/51")).text
    assert "Rulings citing this law" in law51 and "Case I" in law51


def test_nothing_is_lost_in_any_code_of_any_book(shared_corpus):
    from ingest.build.catalog import load_catalog
    from ingest.build.read import read_books
    from ingest.build.segment import overlaps, segment, uncovered
    from ingest.vocabulary import games as load_games

    docs, missing = read_books(shared_corpus, load_catalog(), load_games())
    assert missing == [] and len(docs) == 9
    codes = 0
    for doc in docs:
        for code in doc.source.codes:
            seg = segment(doc, code)
            assert uncovered(doc, seg) == [], (doc.source.slug, code.slug)
            assert overlaps(seg) == [], (doc.source.slug, code.slug)
            codes += 1
    assert codes == 35


def test_fixes_found_by_reading_the_books(conn):
    # Hoffmann's Bridge law 57 ends "… Laws 55, 56, / 58." with 58 wrapped onto a line of its own
    law57 = one(conn, "select text, line_end from laws where id = 'hoffmann-hoyles-games-modernized-1909/bridge/57'")
    assert law57["text"].endswith("58.") and law57["line_end"] == 7206
    assert one(conn, "select count(*) from laws where id like 'hoffmann-hoyles-games-modernized-1909/bridge/58%'")[0] == 1
    # Foster's Cinch laws: one law per bold head, 20 of them
    assert one(conn, "select count(*) from laws where code = 'foster-complete-hoyle-1914/cinch'")[0] == 20
    # Elwell: "There must be a new deal--" lists its cases a–g, each a clause of that law (lines 998–1018)
    new_deal = one(conn, "select id, text, line_start, line_end from laws where code = "
                         "'elwell-bridge-axioms-and-laws-1907/bridge' and text like 'There must be a new deal%'")
    assert (new_deal["text"], new_deal["line_start"], new_deal["line_end"]) == ("There must be a new deal—", 998, 998)
    cases = conn.execute("select number, text, line_start, line_end from laws where parent = ? order by ordinal",
                         [new_deal["id"]]).fetchall()
    assert [c["number"] for c in cases] == list("abcdefg")
    assert (cases[-1]["text"], cases[-1]["line_start"], cases[-1]["line_end"]) == \
        ("If the last card do not come in its regular order to the dealer.", 1018, 1018)
    # ... and "THERE IS NO MISDEAL." (line 992) is a law of its own, not a heading
    assert one(conn, "select section, line_start from laws where code = 'elwell-bridge-axioms-and-laws-1907/bridge' "
                     "and text = 'THERE IS NO MISDEAL.'")[:] == ("THE DEAL", 992)
    # Foster's Auction law 37 lists the cases of a new deal as (_a_) to (_f_); Elwell's exposed cards 1st. 2d. 3d.
    assert [r[0] for r in conn.execute("select number from laws where parent = "
                                       "'foster-complete-hoyle-1914/auction-bridge/37' order by ordinal")] == list("abcdef")
    assert [r[0] for r in conn.execute("select l.number from laws l join laws p on p.id = l.parent where "
                                       "p.text like 'The following are exposed cards%' and p.code like 'elwell%' "
                                       "order by l.ordinal")] == ["1st", "2d", "3d"]
    # Duplicate Whist: LAW I.--SHUFFLING. heads its SEC. clauses
    assert one(conn, "select section from laws where id = 'foster-complete-hoyle-1914/duplicate-whist/I/2'")[0] == "SHUFFLING"
    # a footnote printed after the code belongs to the law citing it
    assert one(conn, "select note from laws where id = 'foster-complete-hoyle-1914/three-hand-auction/3'")[0] == \
        "[23] This hand is generally dealt opposite to the dealer."
    # Enquire Within's printed mottoes are not commentary on the law before them
    assert one(conn, "select note from laws where id = 'enquire-within-upon-everything-1894/put/vii'")[0] is None
