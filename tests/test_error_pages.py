"""Not-found pages: every unknown address, Datasette's own ("Database not found", "Table not
found") included, is the site's friendly 404 (the search box, the ways in), and leaves no traceback
in the server's log. And the laws list's chosen columns never lose the column it is sorted by (a
500 in Datasette 0.65.5)."""

from __future__ import annotations

import pytest

UNKNOWN = ["/no/such/page", "/ecarte-and-whist", "/cardlaws/nothing", "/cardlaws/laws/nothing", "/-/nothing",
           "/cardlaws/laws/nothing.json"]


@pytest.mark.parametrize("path", UNKNOWN)
async def test_an_unknown_address_is_a_friendly_404_without_a_traceback(datasette, capfd, path):
    capfd.readouterr()
    response = await datasette.client.get(path)
    assert response.status_code == 404
    out, err = capfd.readouterr()
    assert "Traceback" not in err + out
    if path.endswith(".json"):
        assert response.json() == {"ok": False, "error": "There is nothing at this address."}  # the one JSON error shape
        return
    html = response.text
    assert "database not found" not in html.lower() and "table not found" not in html.lower()  # Datasette's
    assert '<form class="error-search" action="/-/search"' in html and 'name="q"' in html
    assert '<a href="/">the front page</a>' in html and 'href="/cardlaws/laws"' in html
    assert '<html lang="en">' in html and '<main id="main"' in html


# every error of a .json address is {"ok": false, "error": …} in JSON; of a page, the site's error page
ERRORS = [
    ("/law/000_d29d92d83d86afb5/ecarte/9999.json", 404, "There is no law at this address."),
    ("/law/000_d29d92d83d86afb5/ecarte/9999.csl.json", 404, "There is no law at this address."),
    ("/law/nope.json", 404, "There is no book at this address. Every book is listed at /law."),
    ("/law/000_d29d92d83d86afb5/nope.json", 404, "There is no code of laws at this address. Every book and its codes are listed at /law."),
    ("/law/%FF.json", 404, "There is no book at this address. Every book is listed at /law."),
    ("/compare/nope.json", 404, "There is no situation at this address; /compare lists them all."),
    ("/compare.json?family=nope", 400, None), ("/compare/misdeal.json?family=nope", 400, None),
    ("/-/search.json?q=a%00b", 400, "q: contains a NUL character"),
    ("/-/search.json?q=dealer&limit=99999999999999999999999", 400, None),
]


@pytest.mark.parametrize("path, status, message", ERRORS)
async def test_every_json_error_has_one_shape_and_every_page_error_is_a_page(datasette, path, status, message):
    response = await datasette.client.get(path)
    assert response.status_code == status
    assert response.headers["content-type"] == "application/json; charset=utf-8"
    body = response.json()
    assert set(body) == {"ok", "error"} and body["ok"] is False and body["error"]
    if message:
        assert body["error"] == message
    if path.endswith(".csl.json"):
        return
    page = await datasette.client.get(path.replace(".json", "", 1))
    assert page.status_code == status and page.headers["content-type"].startswith("text/html")
    assert '<main id="main"' in page.text and "error-box" in page.text


@pytest.mark.parametrize("path", ["/ecarte/%FF", "/ecarte/31%ED%A0%80", "/%C3%A9cart%C3%A9/%ED%A0%80", "/ecarte/31.json"])
async def test_a_short_path_no_law_has_is_a_404_at_once(datasette, path):
    # not a 301 to a reworded address, then Datasette's 302 to its tilde form, then a 404
    response = await datasette.client.get(path)
    assert response.status_code == 404
    if path.endswith(".json"):
        assert set(response.json()) == {"ok", "error"}


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
@pytest.mark.parametrize("path", ["/-/search.json?q=dealer", "/law/000_d29d92d83d86afb5/ecarte/5", "/", "/cardlaws/laws"])
async def test_the_site_is_read_only(datasette, method, path):
    response = await datasette.client.request(method, path)
    assert response.status_code == 405 and response.headers["allow"] == "GET, HEAD"
    if ".json" in path:
        assert response.json() == {"ok": False, "error": "This site is read-only: use GET."}
    else:
        assert "This site is read-only" in response.text and '<main id="main"' in response.text
    assert (await datasette.client.get(path)).status_code == 200


@pytest.mark.parametrize("query", ["_nocol=ordinal", "_nocol=ordinal&_nocol=raw_text", "_col=number&_col=game",
                                   "_col=number&_size=5"])
async def test_hiding_the_column_the_laws_are_sorted_by_is_not_an_error(datasette, query):
    response = await datasette.client.get(f"/cardlaws/laws?{query}")
    assert response.status_code == 200, query
    data = (await datasette.client.get(f"/cardlaws/laws.json?{query}&_shape=objects")).json()
    assert data["rows"] and data["next"] is None or data["next_url"]


async def test_the_laws_list_shows_labels_and_each_law_once(datasette):
    html = (await datasette.client.get("/cardlaws/laws?game=ecarte")).text
    assert 'href="/law/002_acea09cb2742a4b7/ecarte/31">31</a>' in html  # the number, linked to the law's page
    assert ">elder hand</a>" in html and ">elder_hand</a>" not in html  # the entity facet's label, not its slug
    assert "Every column" in html and "_col=raw_text" in html
    law_31 = "If the dealer give his adversary more cards than he has asked for"
    assert html.count(law_31) == 1  # the text once (not its raw text beside it)
