"""Addresses in every equivalent form answer with a 301 to the canonical one; not-found pages
never repeat the request's text; unknown filters are 400s naming the parameter; every page carries
an ETag and a Cache-Control and answers a conditional request with a 304."""

from __future__ import annotations

import re
import sqlite3

import pytest

from ingest.query.serve import make_datasette

LAW = "002_acea09cb2742a4b7/ecarte/31"


@pytest.mark.parametrize("path, canonical", [
    ("/law/002_acea09cb2742a4b7%2Fecarte%2F31", f"/law/{LAW}"),  # separators percent-encoded
    ("/law/002_acea09cb2742a4b7%2fecarte%2f31", f"/law/{LAW}"),
    ("/law/002_acea09cb2742a4b7~2Fecarte~2F31", f"/law/{LAW}"),  # Datasette's tilde encoding
    (f"/law/{LAW}/", f"/law/{LAW}"),  # a trailing slash
    ("/law/002_acea09cb2742a4b7/%C3%89cart%C3%A9/31", f"/law/{LAW}"),  # another case and accent
    ("/law/002_acea09cb2742a4b7/ecarte/3%C2%AD1", f"/law/{LAW}"),  # a soft hyphen pasted in
    ("/law/002_acea09cb2742a4b7%2Fecarte%2F31.json", f"/law/{LAW}.json"),
    ("/law/002_acea09cb2742a4b7~2Fecarte~2F31.csl.json", f"/law/{LAW}.csl.json"),
    ("/law/003_ea313244f1a1cb18/whist/IX", "/law/003_ea313244f1a1cb18/whist/ix"),
    ("/law/002_acea09cb2742a4b7/", "/law/002_acea09cb2742a4b7"),  # a book
    ("/law/002_acea09cb2742a4b7~2Fecarte", "/law/002_acea09cb2742a4b7/ecarte"),  # a code
    ("/Ecarte/31", "/ecarte/31"),  # short paths: the game in any case or accent
    ("/%C3%A9cart%C3%A9/31", "/ecarte/31"),
    ("/%C3%89CART%C3%89/31/", "/ecarte/31"),
    ("/Whist/ix", "/whist/ix"),
    ("/poker/6/", "/poker/6"),
])
async def test_every_equivalent_form_is_a_301_to_the_canonical_one(datasette, path, canonical):
    response = await datasette.client.get(path + "?x=1")
    assert response.status_code == 301, (path, response.status_code)
    assert response.headers["location"] == canonical + "?x=1"
    followed = await datasette.client.get(canonical)
    assert followed.status_code in (200, 302), canonical


@pytest.mark.parametrize("path", [f"/law/{LAW}", f"/law/{LAW}.json", "/ecarte/31", "/cardlaws/laws", "/law/003_ea313244f1a1cb18/whist/ix"])
async def test_canonical_addresses_are_not_redirected(datasette, path):
    assert (await datasette.client.get(path)).status_code in (200, 302)


async def test_books_and_codes_have_pages_of_their_own(datasette):
    code = await datasette.client.get("/law/002_acea09cb2742a4b7/ecarte")
    assert code.status_code == 200
    # the excerpt prints laws 31 to 38 of Hoffmann's Écarté (corpus/seeds/002_…txt), each linked in order
    links = re.findall(r'href="/law/002_acea09cb2742a4b7/ecarte/(\d+)"', code.text)
    assert links == [str(n) for n in range(31, 39)]
    book = await datasette.client.get("/law/002_acea09cb2742a4b7")
    assert book.status_code == 200 and 'href="/law/002_acea09cb2742a4b7/ecarte"' in book.text


EVIL = "Site-moved-to-www.evil.example-call-555-0100"


@pytest.mark.parametrize("path", [
    f"/law/{EVIL}", f"/law/{EVIL}.json", f"/law/{EVIL}.bib", f"/law/a/{EVIL}/", f"/compare/{EVIL.lower()}",
    f"/compare/{EVIL.lower()}.json", f"/poker/{EVIL}", f"/{EVIL.lower()}/1", f"/cardlaws/{EVIL}", f"/{EVIL}",
    f"/cardlaws/laws/{EVIL}", f"/-/{EVIL}",
])
async def test_not_found_pages_never_repeat_the_request(datasette, path):
    response = await datasette.client.get(path)
    assert response.status_code == 404, (path, response.status_code)
    assert "evil" not in response.text.lower() and "555" not in response.text


@pytest.mark.parametrize("path, parameter, accepted", [
    ("/-/search.json?q=dealer&game=canasta", "game", "ecarte"),
    ("/-/search?q=dealer&game=canasta", "game", "ecarte"),
    ("/-/search.json?q=dealer&source=canasta", "source", "002_acea09cb2742a4b7"),
    ("/-/search?q=dealer&source=canasta", "source", "002_acea09cb2742a4b7"),
    ("/-/cite.json?text=Law+1&context=canasta", "context", None),
    ("/-/cite?text=Law+1&context=canasta", "context", None),
    ("/compare.json?family=canasta", "family", "whist"),
    ("/compare/misdeal.json?family=canasta", "family", "whist"),
])
async def test_an_unknown_filter_is_a_400_naming_the_parameter(datasette, path, parameter, accepted):
    response = await datasette.client.get(path)
    assert response.status_code == 400, path
    if ".json" in path:
        text = response.json()["error"]
    else:  # the page's message (the form keeps what was asked, as a search form does)
        text = re.search(r'class="message-error">(.*?)</p>', response.text, re.DOTALL).group(1)
    assert text.startswith(f"{parameter}: ") and "canasta" not in text
    if accepted:
        assert accepted in text


async def test_pages_carry_an_etag_and_a_conditional_request_is_a_304(seed_db, tmp_path):
    ds = make_datasette(seed_db)
    digest = ds.get_database("cardlaws").hash
    tags = set()
    for path in (f"/law/{LAW}", f"/law/{LAW}.json", "/cardlaws/laws?_sort=game", "/cardlaws/laws.json", "/-/search?q=misdeal",
                 "/compare", "/static/cardlaws.css", "/ecarte/31", "/law/nothing-here"):
        response = await ds.client.get(path)
        etag = response.headers["etag"]
        assert etag.startswith(f'W/"{digest[:24]}-'), path
        assert response.headers["cache-control"] == "public, max-age=300", path
        again = await ds.client.get(path, headers={"if-none-match": etag})
        assert again.status_code == 304 and again.content == b"", path
        assert (await ds.client.get(path, headers={"if-none-match": 'W/"other"'})).status_code == response.status_code
        tags.add(etag)
    assert len(tags) == 1  # one database, one site: one tag
    assert "etag" not in (await ds.client.get("/-/versions.json")).headers  # introspection: not cached
    personal = await ds.client.get(f"/law/{LAW}", headers={"cookie": "ds_actor=x"})
    assert "etag" not in personal.headers and "public" not in personal.headers.get("cache-control", "")
    # another database, another tag
    other = tmp_path / "other.db"
    other.write_bytes(seed_db.read_bytes())
    conn = sqlite3.connect(other)
    conn.execute("update games set name = 'Ecarte' where slug = 'ecarte'")
    conn.commit()
    conn.close()
    assert (await make_datasette(other).client.get("/compare")).headers["etag"] not in tags


async def test_datasette_full_text_search_is_normalised_too(datasette):
    plain = (await datasette.client.get("/cardlaws/laws.json?_search=misdeal&_shape=array")).json()
    odd = (await datasette.client.get("/cardlaws/laws.json?_search=mis%C2%ADdeal&_shape=array")).json()
    assert odd == plain and plain


def test_the_command_line_takes_every_form_of_a_law_id(seed_db):
    from click.testing import CliRunner

    from ingest.cli import main

    for given in (LAW, "002_acea09cb2742a4b7%2FEcart%C3%A9%2F31", "002_acea09cb2742a4b7/ÉCARTÉ/3\u00ad1"):
        result = CliRunner().invoke(main, ["show", given, "--json", "--db", str(seed_db)])
        assert result.exit_code == 0 and f'"id": "{LAW}"' in result.output, given


def test_a_base_url_must_start_and_end_with_a_slash(seed_db):
    from click.testing import CliRunner

    from ingest.cli import main

    result = CliRunner().invoke(main, ["serve", "--base-url", "cl", "--db", str(seed_db)])
    assert result.exit_code == 2 and "--base-url" in result.output and "start and end with '/'" in result.output
