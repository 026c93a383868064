"""Every kind of page of the site in real headless Chromium (Debian's, driven by Playwright), at a
desktop width (1280×900) and a phone's (390×844): it answers, it does not scroll sideways (a wide
table scrolls inside its own box), it has one ``main`` landmark, a skip link and ``lang``, and
axe-core (run in the page, from the ``axe-playwright-python`` package: no network) finds no
violation of serious or critical impact under its WCAG 2 A/AA rules, none disabled or excluded.
Screenshots go to tests/artifacts/ (git-ignored).

To check another page, add a line to ``PAGES``."""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

import pytest

from ingest.evaluate.server import spawn

playwright_api = pytest.importorskip("playwright.sync_api", reason="pip install -e '.[test]' installs Playwright")
axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright",
                                     reason="pip install -e '.[test]' installs axe-playwright-python")
expect = playwright_api.expect

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).parent / "artifacts"
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Debian's chromium is not installed: apt-get install chromium (.ci/run installs it)")

LAW = "/law/hoffmann-hoyles-games-modernized-1909/ecarte/31"
# (name, address, a selector that shows the page has its content, the status it answers with)
PAGES = [
    ("home", "/", "main h1", 200),
    ("law", LAW, "#law-text", 200),
    ("clause", "/law/elwell-bridge-axioms-and-laws-1907/bridge/36/c", "#law-text", 200),
    ("search", "/-/search?q=dealer+accidentally+flipped+a+card", ".search-ranked li", 200),
    ("compare", "/compare", "table.compare-matrix td.n4", 200),
    ("compare-situation", "/compare/exposed-card-in-dealing", ".compare-game", 200),
    ("compare-codes", "/compare/codes?a=foster-complete-hoyle-1914/english-whist&b=hoffmann-hoyles-games-modernized-1909/whist",
     "table.codes-aligned", 200),
    ("cite", "/-/cite?text=Under+%C3%89cart%C3%A9+law+31+(Hoyle%27s+Games+Modernized)+and+Bridge+Law+42", ".cite-linked", 200),
    ("laws-list", "/cardlaws/laws", "table.laws-list td.law-number a", 200),
    ("laws-list-filtered", "/cardlaws/laws?game=ecarte&entities__arraycontains=elder_hand", "table.laws-list td.law-number a", 200),
    ("laws-every-column", "/cardlaws/laws?_col=number&_col=game&_col=ordinal&_col=text&_col=raw_text&_col=entities",
     "table.rows-and-columns td", 200),
    ("datasette-table", "/cardlaws/codes", "table.rows-and-columns td", 200),
    ("datasette-row", "/cardlaws/games/ecarte", "table.rows-and-columns td", 200),
    ("datasette-database", "/cardlaws", "main h1", 200),
    ("datasette-query", "/cardlaws?sql=select+game%2C+count(*)+as+laws+from+laws+group+by+game", "table.rows-and-columns td", 200),
    ("books", "/law", "ul.level-list li", 200),
    ("book", "/law/hoffmann-hoyles-games-modernized-1909", "table.level-table td", 200),
    ("code", "/law/hoffmann-hoyles-games-modernized-1909/whist", "ol.code-contents li", 200),
    ("games", "/games", "main h1", 200),
    ("game", "/ecarte", "table.level-table td", 200),
    ("sql", "/sql", "ul.query-list li", 200),
    ("canned-query", "/cardlaws/remedy_by_game?situation=exposed-card-in-dealing&remedy=new-deal", "table.rows-and-columns td", 200),
    ("not-found", "/no/such/page", "form.error-search input[type=search]", 404),
    ("database-not-found", "/ecarte-and-whist", "form.error-search input[type=search]", 404),
]
WIDTHS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
WAIT_MS = 60_000  # a busy 2-core machine: wait on conditions, with room for load


@pytest.fixture(scope="module")
def site(books_db):
    proc, base = spawn(books_db.db_path, timeout=120)
    yield base
    proc.terminate()
    proc.wait(timeout=30)


@pytest.fixture(scope="module")
def axe():
    return axe_playwright.Axe()


@pytest.mark.parametrize("width", WIDTHS, ids=list(WIDTHS))
@pytest.mark.parametrize("name, path, ready, status", PAGES, ids=[p[0] for p in PAGES])
def test_page_fits_and_is_accessible(site, browser, axe, name, path, ready, status, width):
    context = browser.new_context(viewport=WIDTHS[width])
    context.set_default_timeout(WAIT_MS)
    context.set_default_navigation_timeout(WAIT_MS)
    page = context.new_page()
    try:
        response = page.goto(site + path, wait_until="load")
        assert response is not None and response.status == status, (path, response and response.status)
        expect(page.locator(ready).first).to_be_visible(timeout=WAIT_MS)
        expect(page.locator("main")).to_have_count(1, timeout=WAIT_MS)
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page.locator("a.skip-link[href='#main']")).to_have_count(1)
        expect(page.locator("nav.site-nav a")).to_have_count(6)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"site-{name}-{width}.png"), full_page=True)
        overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{path} scrolls sideways by {overflow}px at {WIDTHS[width]['width']}px"
        results = axe.run(page, options={"runOnly": {"type": "tag", "values": AXE_TAGS}, "resultTypes": ["violations"]})
        bad = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
        assert not bad, f"{path} at {width}:\n" + "\n".join(
            f"{v['id']} ({v['impact']}): {v['help']} — " + "; ".join(n["target"][0] if isinstance(n["target"][0], str)
                                                                     else str(n["target"]) for n in v["nodes"][:5])
            for v in bad)
    finally:
        context.close()


@contextlib.contextmanager
def open_page(browser, width: str):
    """A new page at one of ``WIDTHS``, closed after the test's checks."""
    page = browser.new_page(viewport=WIDTHS[width])
    try:
        yield page
    finally:
        page.close()


def test_the_laws_list_starts_above_the_fold_and_fits_a_desktop(site, browser):
    """The first row of the laws list is in the first screen at 1280×900, and the list is no wider
    than the window."""
    with open_page(browser, "desktop") as page:
        page.goto(site + "/cardlaws/laws")
        first = page.locator("table.laws-list tbody tr").first
        expect(first).to_be_visible(timeout=WAIT_MS)
        box = first.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 900, box
        assert page.evaluate("document.querySelector('table.laws-list').scrollWidth") <= 1280
        # labels, not slugs, in the facets; the law's text once
        facets = page.inner_text("aside.laws-facets")
        assert "elder hand" in facets and "elder_hand" not in facets, facets[:400]
        assert "Écarté" in facets
        text = page.locator("table.laws-list tbody tr").first.inner_text()
        opening = page.locator("table.laws-list tbody tr td.law-opening").first.inner_text().rstrip("…. ")[:40]
        assert text.count(opening) == 1


def test_the_site_navigation_and_the_skip_link_work_from_a_datasette_page(site, browser):
    with open_page(browser, "desktop") as page:
        page.goto(site + "/cardlaws/codes")
        expect(page.locator("table.rows-and-columns")).to_be_visible(timeout=WAIT_MS)
        page.keyboard.press("Tab")
        expect(page.locator("a.skip-link")).to_be_focused(timeout=WAIT_MS)
        expect(page.locator("a.skip-link")).to_be_visible(timeout=WAIT_MS)  # shown when focused
        page.fill("form.nav-search input[name=q]", "the deck was not cut")
        page.click("form.nav-search button[type=submit]")
        page.wait_for_url("**/-/search?q=**", timeout=WAIT_MS)
        expect(page.locator(".search-ranked li").first).to_be_visible(timeout=WAIT_MS)
        page.click("nav.site-nav a:text-is('Compare')")
        page.wait_for_url("**/compare", timeout=WAIT_MS)
        expect(page.locator("table.compare-matrix")).to_be_visible(timeout=WAIT_MS)


def test_the_compare_grid_keeps_its_headers_in_view_on_a_phone(site, browser):
    """The grid scrolls inside its own box; its header row and first column stay where they are."""
    with open_page(browser, "phone") as page:
        page.goto(site + "/compare")
        corner = page.locator("table.compare-matrix thead th.corner")
        expect(corner).to_be_visible(timeout=WAIT_MS)
        first_row_head = page.locator("table.compare-matrix tbody th").first
        before = (corner.bounding_box(), first_row_head.bounding_box())
        page.evaluate("(() => { const s = document.querySelector('.compare-scroll'); s.scrollLeft = 400; s.scrollTop = 200; })()")
        expect(page.locator(".compare-scroll")).to_have_js_property("scrollLeft", 400, timeout=WAIT_MS)
        after = (corner.bounding_box(), first_row_head.bounding_box())
        assert after[0]["x"] == before[0]["x"] and after[0]["y"] == before[0]["y"]  # the corner stays
        assert after[1]["x"] == before[1]["x"]  # the situations' column stays
