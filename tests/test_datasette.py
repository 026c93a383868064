"""The served site through Datasette's own test client: the laws table, a law page, facets,
full-text search, the cross-game view and a canned query."""

from __future__ import annotations

import pytest


async def get(datasette, path):
    response = await datasette.client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return response


async def test_laws_table_json(datasette):
    rows = (await get(datasette, "/cardlaws/laws.json?_shape=array&_size=100")).json()
    assert len(rows) == 46
    assert rows[0]["id"] == "000_d29d92d83d86afb5/ecarte/5"  # reading order, not id order
    assert {r["game"] for r in rows} == {"ecarte", "bridge", "whist", "poker"}


async def test_law_page_shows_text_note_entities_pages_lines(datasette):
    html = (await get(datasette, "/law/003_ea313244f1a1cb18/whist/iv")).text
    assert "Too many or too few cards is a" in html
    assert '<mark class="entity entity-event" title="misdeal">misdeal</mark>' in html
    assert "In cases of a misdeal, the deal passes to the next player." in html
    assert "003_ea313244f1a1cb18.txt, lines 9–10" in html
    assert "Whist law iv (Enquire Within Upon Everything 1894)" in html
    page = (await get(datasette, "/law/001_eeed9204cf5d74d0/bridge/40")).text
    assert "pp. 234–235" in page
    assert "exposed card" in page and "new deal" in page


async def test_unknown_law_is_a_404(datasette):
    response = await datasette.client.get("/law/no/such/law")
    assert response.status_code == 404
    assert "There is no law at this address" in response.text and "no/such" not in response.text


async def test_entity_facet(datasette):
    data = (await get(datasette, "/cardlaws/laws.json?_facet_array=entities&_size=0")).json()
    facet = {r["value"]: r["count"] for r in data["facet_results"]["entities"]["results"]}
    assert facet["dealer"] >= 20
    assert facet["foul_hand"] == 2  # poker 13 and 14
    filtered = (await get(datasette, "/cardlaws/laws.json?entities__arraycontains=elder_hand&_shape=array")).json()
    assert sorted(r["id"] for r in filtered) == [
        "000_d29d92d83d86afb5/ecarte/10", "000_d29d92d83d86afb5/ecarte/11", "000_d29d92d83d86afb5/ecarte/8",
    ]


async def test_game_facet_is_configured(datasette):
    data = (await get(datasette, "/cardlaws/laws.json?_size=0")).json()
    games = {r["value"]: r["count"] for r in data["facet_results"]["game"]["results"]}
    assert games == {"ecarte": 16, "bridge": 10, "whist": 11, "poker": 9}


async def test_full_text_search_uses_porter_stemming(datasette):
    rows = (await get(datasette, "/cardlaws/laws.json?_search=exposing&_shape=array")).json()
    ids = {r["id"] for r in rows}
    assert "004_6dbc7a77bd2684ce/poker/11" in ids  # "accidentally expose a card"
    assert "002_acea09cb2742a4b7/ecarte/36" in ids  # "any of the non-dealer's are exposed"
    notes = (await get(datasette, "/cardlaws/laws.json?_search=onlookers&_shape=array")).json()
    assert notes == []
    note_hit = (await get(datasette, "/cardlaws/laws.json?_search=insisting&_shape=array")).json()
    assert [r["id"] for r in note_hit] == ["003_ea313244f1a1cb18/whist/ix"]  # found in the note


async def test_cross_game_view(datasette):
    rows = (await get(datasette, "/cardlaws/entity_game_counts.json?entity=new_deal&_shape=array")).json()
    by_game = {r["game"]: r["laws"] for r in rows}
    assert set(by_game) == {"bridge", "ecarte", "poker", "whist"}
    assert by_game["poker"] == 3  # laws 8, 10 and 12 order "a new deal by the same dealer"


async def test_canned_query_across_games(datasette):
    rows = (await get(datasette, "/cardlaws/laws_mentioning.json?entity=foul_hand&_shape=array")).json()
    assert [(r["game"], r["number"]) for r in rows] == [("poker", "13"), ("poker", "14")]
    assert rows[0]["page"] == "/law/004_6dbc7a77bd2684ce/poker/13"


@pytest.mark.parametrize("path, expected", [
    ("/", "<title>Card Laws: the laws of card games from historic rule books</title>"),
    ("/cardlaws", "<title>cardlaws</title>"),
    ("/cardlaws/laws", "46 laws and clauses"),  # the seeds' 8 + 10 + 8 + 11 + 9 laws
    ("/cardlaws/game_summary", "<td class=\"col-game"),
    ("/cardlaws/sources", "Hoyle"),
])
async def test_pages_render(datasette, path, expected):
    response = await get(datasette, path)
    assert response.status_code == 200
    assert expected in response.text


async def test_laws_table_links_numbers_to_law_pages(datasette):
    html = (await get(datasette, "/cardlaws/laws?game=poker")).text
    assert '<a href="/law/004_6dbc7a77bd2684ce/poker/6"' in html


async def test_database_is_served_read_only(datasette):
    response = await datasette.client.get("/cardlaws.json?sql=delete+from+laws")
    assert response.status_code in (400, 403)


@pytest.mark.parametrize("path", ["/cardlaws/games?number__gt=99999999999999999999",
                                  "/cardlaws/laws.json?ordinal__lt=-99999999999999999999"])
async def test_a_number_beyond_64_bits_is_a_clear_400(datasette, path):
    # found by the fuzz test: Datasette 0.65.5 hands it to SQLite, which cannot hold it (a 500)
    response = await datasette.client.get(path)
    assert response.status_code == 400 and "too large" in response.text


@pytest.mark.parametrize("path, says", [("/cardlaws/games?_where=%00", "NUL"), ("/cardlaws/games?_facet=%7B%7D", "column")])
async def test_parameters_datasette_cannot_read_are_a_clear_400(datasette, path, says):
    # found by the fuzz test: a NUL in SQL text and a _facet of {} were 500s
    response = await datasette.client.get(path)
    assert response.status_code == 400 and says in response.text
