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
        assert response.json()["status"] == 404
        return
    html = response.text
    assert "database not found" not in html.lower() and "table not found" not in html.lower()  # Datasette's
    assert '<form class="error-search" action="/-/search"' in html and 'name="q"' in html
    assert '<a href="/">the front page</a>' in html and 'href="/cardlaws/laws"' in html
    assert '<html lang="en">' in html and '<main id="main"' in html


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
