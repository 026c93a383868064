"""Served under a URL prefix (``cardlaws serve --base-url /cl/``, Datasette's ``base_url``): every
link, form action, asset and redirect of every kind of page carries the prefix, and every link
leads somewhere."""

from __future__ import annotations

import urllib.parse
from html.parser import HTMLParser

import pytest

from ingest.query.serve import make_datasette

PREFIX = "/cl/"
LAW = "002_acea09cb2742a4b7/ecarte/31"
PAGES = {  # one page of every kind, and the status it answers with
    "/cl/": 200, "/cl/cardlaws": 200, "/cl/cardlaws/laws": 200, "/cl/cardlaws/laws?_sort=game&game=ecarte": 200,
    f"/cl/law/{LAW}": 200, "/cl/law/001_eeed9204cf5d74d0/bridge/40": 200, "/cl/-/search?q=dealer+exposed+a+card": 200,
    "/cl/-/cite?text=Under+%C3%89cart%C3%A9+law+31+and+Bridge+Law+42": 200, "/cl/compare": 200,
    "/cl/compare/misdeal": 200, "/cl/cardlaws/game_summary": 200, "/cl/cardlaws/law_entities": 200,
    "/cl/cardlaws/deal_stands_after?situation=misdeal&remedy=new-deal": 200, "/cl/cardlaws/laws_mentioning?entity=dealer": 200,
    "/cl/cardlaws/sources/002_acea09cb2742a4b7": 200, "/cl/cardlaws?sql=select+id+from+laws+limit+3": 200,
    "/cl/ecarte/5": 302, "/cl/cardlaws/laws?_facet_size=3": 200, "/cl/law/no/such/law": 404, "/cl/whist/99": 404, "/cl/cardlaws/nothing": 404,
    "/cl/law": 200, "/cl/law/002_acea09cb2742a4b7": 200, "/cl/law/002_acea09cb2742a4b7/ecarte": 200, "/cl/games": 200,
    "/cl/ecarte": 200, "/cl/sql": 200, "/cl/law/no-such-book": 404, "/cl/cardlaws/remedy_by_game": 200,
}


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.found: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            # a fragment ("#main", the skip link) is a place in this page, not another address
            if value is not None and not value.startswith("#") and (tag, name) in {
                    ("a", "href"), ("link", "href"), ("script", "src"), ("img", "src"), ("form", "action")}:
                self.found.append((tag, value))


def links_of(page: str, html: str) -> list[str]:
    """The site's own addresses a page links to, as absolute paths with their query."""
    parser = Links()
    parser.feed(html)
    out = []
    for _, value in parser.found:
        url = urllib.parse.urlsplit(urllib.parse.urljoin("http://localhost" + page, value))
        if url.netloc == "localhost" and url.path:
            out.append(url.path + (f"?{url.query}" if url.query else ""))
    return out


@pytest.fixture(scope="module")
def prefixed(seed_db):
    return make_datasette(seed_db, base_url=PREFIX)


async def get(ds, path: str, **kwargs):
    """GET ``path`` (with its prefix) as a proxy forwards it: Datasette's test client adds the
    prefix itself, so it is given the path without it."""
    assert path.startswith(PREFIX), path
    return await ds.client.get("/" + path[len(PREFIX):], **kwargs)


async def test_every_link_of_every_kind_of_page_carries_the_prefix_and_leads_somewhere(prefixed):
    to_follow: dict[str, str] = {}
    for page, status in PAGES.items():
        response = await get(prefixed, page)
        assert response.status_code == status, (page, response.status_code)
        for link in links_of(page, response.text):
            assert link.startswith(PREFIX), (page, link)
            to_follow.setdefault(link, page)
    assert len(to_follow) > 150
    for link, page in to_follow.items():
        response = await get(prefixed, link)
        assert response.status_code in (200, 301, 302), (page, link, response.status_code)
        if response.status_code in (301, 302):
            assert response.headers["location"].startswith(PREFIX), (link, response.headers["location"])
        elif response.headers.get("content-type", "").startswith("text/html"):
            for inner in links_of(link, response.text):
                assert inner.startswith(PREFIX), (link, inner)


@pytest.mark.parametrize("path, location", [
    ("/cl/poker/6", f"{PREFIX}law/004_6dbc7a77bd2684ce/poker/6"),  # the short path's redirect
    ("/cl/Poker/6", f"{PREFIX}poker/6"),
    ("/cl/law/002_acea09cb2742a4b7%2Fecarte%2F31", f"{PREFIX}law/{LAW}"),
    (f"/cl/law/{LAW}/", f"{PREFIX}law/{LAW}"),
    ("/cl/law/002_acea09cb2742a4b7/ecarte/", f"{PREFIX}law/002_acea09cb2742a4b7/ecarte"),  # a code
    ("/cl/%C3%89cart%C3%A9", f"{PREFIX}ecarte"),  # a game's page
])
async def test_redirects_keep_the_prefix(prefixed, path, location):
    response = await get(prefixed, path)
    assert response.status_code in (301, 302) and response.headers["location"] == location


async def test_the_stylesheet_and_forms_carry_the_prefix(prefixed):
    html = (await get(prefixed, f"/cl/law/{LAW}")).text
    assert f'href="{PREFIX}static/cardlaws.css"' in html
    assert f'action="{PREFIX}-/search"' in html
