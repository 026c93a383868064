"""The site's levels on the books' database: the front door, every book, a book, a code's contents,
every game, a game, SQL across games and its canned queries; each address 200 with what the books
print, its equivalent forms a 301 to it, an unknown one a 404. Expected values are read from the
books (``hoffmann-hoyles-games-modernized-1909.txt`` and the others in the shared corpus)."""

from __future__ import annotations

import re
import urllib.parse

import pytest

from ingest.query.queries import load_queries
from ingest.query.serve import make_datasette

HOFFMANN = "hoffmann-hoyles-games-modernized-1909"
ECARTE = f"{HOFFMANN}/ecarte"  # "LAWS OF ÉCARTÉ", laws 1.-- to 51.-- (lines 1870–2103)
WHIST = f"{HOFFMANN}/whist"  # "THE LAWS OF WHIST. (Reprinted … from the Revised Code, 1900.)", line 5006


@pytest.fixture(scope="module")
def ds(books_db):
    return make_datasette(books_db.db_path)


async def get(ds, path: str):
    return await ds.client.get(path)


def hrefs(html: str) -> list[str]:
    return re.findall(r'href="([^"]+)"', html)


async def test_the_front_door_leads_to_every_game_every_book_and_every_way_in(ds):
    response = await get(ds, "/")
    assert response.status_code == 200
    html, links = response.text, hrefs(response.text)
    assert '<form class="front-search" action="/-/search" method="get"' in html
    examples = [h for h in links if h.startswith("/-/search?q=")]
    assert len(examples) >= 3
    for way in ("/compare", "/-/cite", "/sql", "/cardlaws/laws", "/games", "/law", "/cardlaws"):
        assert way in links, way
    for game in ("ecarte", "whist", "duplicate-whist", "bridge", "auction-bridge", "piquet", "poker", "skat", "cinch"):
        assert f"/{game}" in links, game
    for book in (HOFFMANN, "foster-complete-hoyle-1914", "elwell-bridge-axioms-and-laws-1907",
                 "enquire-within-upon-everything-1894", "peel-round-games-with-cards-1891",
                 "cavendish-laws-of-piquet-8th-ed", "cavendish-laws-of-piquet-au-cent-8th-ed"):
        assert f"/law/{book}" in links, book
    assert f"/law/{ECARTE}" in links  # a book's codes are listed with it
    # the games grouped by family: Duplicate Whist under the Whist family, Cinch under All-Fours
    whist_family = html[html.index("Whist family"):html.index("Bridge family")]
    assert 'href="/duplicate-whist"' in whist_family and 'href="/cinch"' not in whist_family
    assert "_memory" not in html


async def test_every_book_has_its_codes(ds):
    response = await get(ds, "/law")
    assert response.status_code == 200
    links = hrefs(response.text)
    for code in (ECARTE, WHIST, f"{HOFFMANN}/bridge", "foster-complete-hoyle-1914/skat",
                 "elwell-bridge-axioms-and-laws-1907/bridge", "enquire-within-upon-everything-1894/cribbage"):
        assert f"/law/{code}" in links, code
    data = (await get(ds, "/law.json")).json()
    hoffmann = next(b for b in data["books"] if b["slug"] == HOFFMANN)
    assert hoffmann["year"] == 1909 and {c["game"] for c in hoffmann["codes"]} >= {"ecarte", "whist", "bridge", "bezique"}


async def test_a_book_lists_its_codes_with_authority_and_year(ds):
    response = await get(ds, f"/law/{HOFFMANN}")
    assert response.status_code == 200
    html = response.text
    row = next(r for r in re.findall(r"<tr>.*?</tr>", html, re.DOTALL) if f'href="/law/{WHIST}"' in r)
    assert "the Turf and Portland Clubs" in row and "1900" in row  # "Reprinted … from the Revised Code, 1900"
    bridge = next(r for r in re.findall(r"<tr>.*?</tr>", html, re.DOTALL) if f'href="/law/{HOFFMANN}/bridge"' in r)
    assert "1904" in bridge
    assert f'<link rel="canonical" href="http://localhost/law/{HOFFMANN}">' in html


async def test_a_code_lists_every_law_in_printed_order_each_linked(ds):
    response = await get(ds, f"/law/{ECARTE}")
    assert response.status_code == 200
    numbers = re.findall(rf'href="/law/{re.escape(ECARTE)}/(\d+)"', response.text)
    assert numbers == [str(n) for n in range(1, 52)]  # 1.-- to 51.--, as printed
    assert f'href="/law/{ECARTE}/31">Écarté law 31</a>' in response.text
    assert "the principal clubs in London and elsewhere" in response.text  # its authority
    assert f'href="/law/{HOFFMANN}"' in response.text  # the breadcrumb to its book
    assert "Compare with another code of the Écarté family</summary>" in response.text  # its name, not its slug


async def test_a_code_shows_its_sections_and_clauses(ds):
    response = await get(ds, f"/law/{WHIST}")
    html = response.text
    sections = re.findall(r'<h3 id="section-\d+">([^<]+)</h3>', html)
    assert sections[:3] == ["CARDS", "CUTTING OR DRAWING", "FORMATION OF TABLE"]
    # law 1 under CARDS; law 4 under CUTTING OR DRAWING
    assert html.index(f'href="/law/{WHIST}/1"') < html.index("CUTTING OR DRAWING") < html.index(f'href="/law/{WHIST}/4"')
    data = (await get(ds, f"/law/{WHIST}.json")).json()
    laws = [law for s in data["sections"] for law in s["laws"]]
    assert [law["number"] for law in laws if law["depth"] == 0][:6] == ["1", "2", "3", "4", "5", "6"]
    clauses = [law for law in laws if law["depth"] == 1]
    assert clauses and all(c["parent"] for c in clauses)
    # every clause comes right after its law or another clause of it
    order = [law["id"] for law in laws]
    for c in clauses:
        assert order.index(c["parent"]) < order.index(c["id"])


async def test_every_game_by_family(ds):
    response = await get(ds, "/games")
    assert response.status_code == 200
    data = (await get(ds, "/games.json")).json()
    families = {f["family"]: [g["slug"] for g in f["games"]] for f in data["families"]}
    assert families["whist"] == ["whist", "duplicate-whist"]
    assert families["bridge"] == ["bridge", "auction-bridge"]
    assert "ecarte" in families[None]
    ecarte = next(g for f in data["families"] for g in f["games"] if g["slug"] == "ecarte")
    # Hoffmann's 51, Enquire Within's 15 and the older English code's 8 (the excerpt copies Hoffmann's)
    assert ecarte["laws"] == 51 + 15 + 8


async def test_a_game_lists_its_codes_in_date_order_and_what_it_decides(ds):
    response = await get(ds, "/ecarte")
    assert response.status_code == 200
    html = response.text
    # Enquire Within's "Rules of Ecarté" (1894) before Hoffmann's "Laws of Écarté" (1909)
    assert html.index('href="/law/enquire-within-upon-everything-1894/ecarte"') < html.index(f'href="/law/{ECARTE}"')
    assert 'href="/compare/exposed-card-in-dealing#ecarte"' in html
    data = (await get(ds, "/ecarte.json")).json()
    dates = [c["date"] for c in data["game"]["codes"] if c["date"]]
    assert dates == sorted(dates)
    whist = (await get(ds, "/whist.json")).json()["game"]
    years = [c["date"] for c in whist["codes"] if c["date"]]
    assert years == sorted(years) and years[0] == 1863  # Baldwin's English laws, the oldest code
    assert [g["slug"] for g in whist["family_games"]] == ["duplicate-whist"]
    assert all(s["laws"] > 0 for s in data["game"]["situations"])


async def test_a_law_page_has_breadcrumbs_a_canonical_link_and_neighbours_in_its_code(ds):
    html = (await get(ds, f"/law/{ECARTE}/31")).text
    crumbs = html[html.index('<ol class="breadcrumbs">'):html.index("</ol>", html.index('<ol class="breadcrumbs">'))]
    assert re.findall(r'href="([^"]+)"', crumbs) == ["/law", f"/law/{HOFFMANN}", f"/law/{ECARTE}"]
    assert f'<link rel="canonical" href="http://localhost/law/{ECARTE}/31">' in html
    assert f'rel="prev" href="/law/{ECARTE}/30"' in html and f'rel="next" href="/law/{ECARTE}/32"' in html
    first = (await get(ds, f"/law/{ECARTE}/1")).text  # the code's first law: nothing before it in the code
    assert 'rel="prev"' not in first and f'rel="next" href="/law/{ECARTE}/2"' in first
    last = (await get(ds, f"/law/{ECARTE}/51")).text
    assert 'rel="next"' not in last


@pytest.mark.parametrize("path, canonical", [
    ("/Ecarte", "/ecarte"), ("/%C3%89CART%C3%89", "/ecarte"), ("/ecarte/", "/ecarte"), ("/Auction%20Bridge", "/auction-bridge"),
    ("/Whist.json", "/whist.json"), (f"/law/{HOFFMANN.upper()}", f"/law/{HOFFMANN}"), (f"/law/{HOFFMANN}/", f"/law/{HOFFMANN}"),
    (f"/law/{HOFFMANN}%2Fecarte", f"/law/{ECARTE}"), (f"/law/{HOFFMANN}/%C3%89cart%C3%A9.json", f"/law/{ECARTE}.json"),
])
async def test_equivalent_forms_are_a_301_to_the_canonical_address(ds, path, canonical):
    response = await get(ds, path)
    assert response.status_code == 301 and response.headers["location"] == canonical
    assert (await get(ds, canonical)).status_code == 200


@pytest.mark.parametrize("path", [
    "/law/no-such-book", "/law/no-such-book/", f"/law/{HOFFMANN}/no-such-code", f"/law/{HOFFMANN}/no-such-code.json",
    "/nap", "/vingt-un.json", "/no-such-game", "/games/no-such-game", "/law/no-such-book.json",
])
async def test_unknown_books_codes_and_games_are_404(ds, path):
    response = await get(ds, path)
    assert response.status_code == 404, (path, response.status_code)
    assert "no-such" not in response.text


async def test_short_paths_still_lead_to_laws(ds):
    response = await get(ds, "/ecarte/31")  # one book has an Écarté law 31 (the excerpt copies it)
    assert response.status_code == 302 and response.headers["location"] == f"/law/{ECARTE}/31"
    choices = await get(ds, "/whist/1")  # several codes have a Whist law 1: a page of choices
    assert choices.status_code == 200 and f'href="/law/{WHIST}/1"' in choices.text


async def test_the_sql_page_explains_the_tables_and_lists_the_questions(ds):
    response = await get(ds, "/sql")
    assert response.status_code == 200
    html = response.text
    assert '<svg class="join-diagram"' in html
    for table in ("laws", "codes", "sources", "law_situations", "situations", "law_entities", "entities"):
        assert f'href="/cardlaws/{table}"' in html, table
    assert "law_situations.law_id → laws" in html and "codes.source → sources" in html  # drawn from the foreign keys
    queries = load_queries()
    assert len(queries) >= 10
    for q in queries:
        assert q["title"] in html.replace("&#39;", "'")
        for name in q["parameters"]:
            assert f"<code>{name}</code>" in html


@pytest.mark.parametrize("query", load_queries(), ids=lambda q: q["name"])
async def test_every_canned_query_returns_rows_with_its_example(ds, query):
    path = f"/cardlaws/{query['name']}.json?" + urllib.parse.urlencode({**query["example"], "_shape": "array"})
    response = await get(ds, path)
    assert response.status_code == 200, response.text
    assert len(response.json()) > 0


async def test_canned_queries_answer_what_the_books_say(ds):
    async def rows(name, **params):
        return (await get(ds, f"/cardlaws/{name}.json?" + urllib.parse.urlencode({**params, "_shape": "array"}))).json()

    # a card exposed in dealing gives a new deal in Écarté (Hoffmann's law 13: if the dealer "expose any of
    # his adversary's cards, the non-dealer … may claim a fresh deal") and in Whist (Hoffmann's law 30)
    new_deal = await rows("remedy_by_game", situation="exposed-card-in-dealing", remedy="new-deal")
    ecarte = next(r for r in new_deal if r["game"] == "Écarté" and r["code"] == "Laws of Écarté" and r["year"] == 1909)
    assert "Écarté law 13" in ecarte["citations"]
    assert any(r["game"] == "Whist" and "Whist law 30 (Hoffmann 1909)" in r["citations"] for r in new_deal)
    both = await rows("laws_mentioning_both", first="elder_hand", second="stock")
    # Cavendish's Piquet law 11: "If the elder hand find that he has a card too many … a card of the stock"
    assert any(r["page"] == "/law/cavendish-laws-of-piquet-8th-ed/piquet/11" for r in both)
    changed = await rows("remedy_changes_between_editions", situation="revoke")
    assert any(r["family"] == "whist" for r in changed)
    same = await rows("same_number_in_every_book", game="whist", number="1")
    assert same[0]["year"] == 1863 and same[0]["text"].startswith("The rubber is the best of three games")


@pytest.mark.parametrize("path", ["/-/search?q=dealer", "/compare", "/compare/revoke", "/-/cite"])
async def test_every_page_s_footer_names_the_datasette_version(books_db, path):
    from datasette.version import __version__

    from ingest.query.serve import make_datasette

    html = (await make_datasette(books_db.db_path).client.get(path)).text
    assert f'title="Datasette v{__version__}"' in html
