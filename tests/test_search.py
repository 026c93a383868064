"""Search: ranking on hand-picked queries (the right law in the top 3, read from the books),
punctuation and empty queries, filters, the JSON endpoint and page, the SQL functions, and
re-embedding only what a rebuild changed."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from ingest.build.pipeline import build
from ingest.cli import main
from ingest.paths import SEEDS
from ingest.query.search import QueryError, Searcher
from ingest.query.serve import make_datasette


@pytest.fixture(scope="module")
def searcher(books_db):
    return Searcher(books_db.db_path)


@pytest.mark.parametrize("query, expected", [
    # Peel's Poker 11: "If the dealer, while dealing, accidentally expose a card …"
    ("dealer accidentally flipped a card", "peel-round-games-with-cards-1891/poker/11"),
    # Hoffmann's Écarté 35: "If a faced card be found in the stock after discarding …"
    ("card found face up in the deck", "hoffmann-hoyles-games-modernized-1909/ecarte/35"),
    # Enquire Within, Whist xii: "… the player who made it may see the preceding trick"
    ("someone looked at the last trick", "enquire-within-upon-everything-1894/whist/xii"),
])
def test_the_right_law_is_in_the_top_three(searcher, query, expected):
    assert expected in [h.id for h in searcher.search(query, limit=3)]


def test_a_deal_without_a_cut_is_found_in_the_top_five(searcher):
    # Peel's Poker 8 decides it ("If the cards be dealt without the pack having been cut …"); laws on
    # how to cut rank close to it, so this one is held to the top five (measured: fifth)
    assert "peel-round-games-with-cards-1891/poker/8" in [h.id for h in searcher.search("cards dealt without cutting the deck", limit=5)]


def test_reneging_finds_revokes_in_several_games(searcher):
    hits = searcher.search("player reneged", limit=10)
    assert all("revoke" in h.text.lower() or "renounce" in h.text.lower() for h in hits[:3])
    assert len({h.game for h in hits}) >= 3


def test_excerpt_laws_are_shown_once_as_the_book_law(searcher):
    ids = [h.id for h in searcher.search("dealer give his adversary more cards than he has asked for", limit=20)]
    assert "hoffmann-hoyles-games-modernized-1909/ecarte/31" in ids
    assert "002_acea09cb2742a4b7/ecarte/31" not in ids


@pytest.mark.parametrize("query", ["non-dealer", "King's", "didn't follow suit", '"exposed card"', "deal*",
                                   "(unbalanced", 'card" OR 1=1 --', "NEAR(dealer", "écarté"])
def test_punctuation_never_raises(searcher, query):
    hits = searcher.search(query, limit=5)
    assert 1 <= len(hits) <= 5  # every one of these has a word the books use
    assert all(h.snippet for h in hits)


@pytest.mark.parametrize("query", ["", "   ", "*", "?!", '""'])
def test_a_query_without_words_is_a_clear_error(searcher, query):
    with pytest.raises(QueryError, match="no words"):
        searcher.search(query)


def test_unknown_filters_and_overlong_queries_are_clear_errors(searcher):
    with pytest.raises(QueryError, match="game: no such game"):
        searcher.search("misdeal", game="canasta")
    with pytest.raises(QueryError, match="too long"):
        searcher.search("dealer " * 1500)
    assert searcher.search("dealer " * 30, limit=3)  # repeated words count once


def test_filters_apply_before_ranking(searcher):
    hits = searcher.search("dealer exposed a card", game="poker", limit=15)
    assert len(hits) == 15 and {h.game for h in hits} == {"poker"}
    hits = searcher.search("revoke", source="enquire-within-upon-everything-1894", mode="dense", limit=5)
    assert {h.source for h in hits} == {"enquire-within-upon-everything-1894"}


@pytest.mark.parametrize("mode", ["lexical", "dense", "hybrid"])
def test_every_mode_ranks(searcher, mode):
    hits = searcher.search("misdeal", mode=mode, limit=5)
    assert len(hits) == 5 and hits[0].score >= hits[-1].score


def test_cli_json_contract(books_db):
    result = CliRunner().invoke(main, ["search", "deck wasn't cut", "--json", "--limit", "4", "--db", str(books_db.db_path)])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert len(rows) == 4
    assert {"id", "game", "source", "number", "score", "snippet"} <= set(rows[0])
    assert [r["score"] for r in rows] == sorted((r["score"] for r in rows), reverse=True)
    empty = CliRunner().invoke(main, ["search", "  ", "--db", str(books_db.db_path)])
    assert empty.exit_code == 1 and "no words" in empty.stderr


async def test_search_json_endpoint_returns_the_cli_list(books_db):
    ds = make_datasette(books_db.db_path)
    response = await ds.client.get("/-/search.json?q=deck+wasn%27t+cut&limit=4")
    assert response.status_code == 200
    cli = CliRunner().invoke(main, ["search", "deck wasn't cut", "--json", "--limit", "4", "--db", str(books_db.db_path)])
    assert response.json() == json.loads(cli.stdout)
    filtered = (await ds.client.get("/-/search.json?q=misdeal&game=euchre&limit=5")).json()
    assert filtered and {r["game"] for r in filtered} == {"euchre"}
    assert (await ds.client.get("/-/search.json?q=")).status_code == 400
    assert (await ds.client.get("/-/search.json?q=misdeal&limit=abc")).status_code == 400
    assert (await ds.client.get("/-/search.json?q=misdeal&game=canasta")).status_code == 400


async def test_search_page_lists_hits_grouped_by_game_and_escapes_the_query(books_db):
    ds = make_datasette(books_db.db_path)
    html = (await ds.client.get("/-/search?q=dealer+accidentally+flipped+a+card+%3Cscript%3E")).text
    assert '<a class="hit-title" href="/law/peel-round-games-with-cards-1891/poker/11">' in html
    assert "By game" in html and "<mark>" in html
    assert "flipped a card &lt;script&gt;" in html and "flipped a card <script>" not in html
    assert 'class="nav-search"' in html
    home = (await ds.client.get("/")).text
    assert 'action="/-/search"' in home


async def test_sql_functions_join_with_json_each(books_db):
    ds = make_datasette(books_db.db_path)
    sql = ("select json_extract(j.value, '$.id') as id from json_each(search_laws('card found face up in the deck', 3)) j")
    rows = (await ds.client.get("/cardlaws.json", params={"sql": sql, "_shape": "array"})).json()
    assert "hoffmann-hoyles-games-modernized-1909/ecarte/35" in [r["id"] for r in rows]
    sql = "select count(*) as n from json_each(similar_laws('hoffmann-hoyles-games-modernized-1909/ecarte/35', 4))"
    assert (await ds.client.get("/cardlaws.json", params={"sql": sql, "_shape": "array"})).json() == [{"n": 4}]


async def test_law_page_shows_parallels_in_other_codes(books_db):
    ds = make_datasette(books_db.db_path)
    html = (await ds.client.get("/law/peel-round-games-with-cards-1891/poker/11")).text
    section = html.split("Parallels in other games and codes")[1].split("</section>")[0]
    assert section.count("<li>") == 5 and "/law/peel-" not in section


def test_a_rebuild_with_one_changed_law_re_embeds_one_law(tmp_path, tagger):
    corpus = tmp_path / "corpus"
    shutil.copytree(SEEDS, corpus)
    db = tmp_path / "x.db"
    first = build([corpus], db, tagger=tagger)
    assert first.embedded == 46
    path = corpus / "004_6dbc7a77bd2684ce.txt"
    path.write_bytes(path.read_bytes().replace(b"ordinary", b"ordinary").replace(b"five cards.", b"five cards each."))
    again = build([corpus], db, tagger=tagger)
    assert again.embedded == 1
    assert build([corpus], db, tagger=tagger).embedded == 0
