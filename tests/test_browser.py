"""A reader's path through the site in real headless Chromium (Debian's, driven by Playwright):
home → a game → a law → copy its citation → search in modern words → a hit → a comparison → a
cross-reference; at desktop and phone widths. Screenshots go to tests/artifacts/ (git-ignored)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ingest.evaluate.server import spawn

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).parent / "artifacts"
WAIT_MS = 60_000
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed (.ci/run installs it)")


@pytest.fixture(scope="module")
def site(books_db):
    proc, base = spawn(books_db.db_path)
    yield base
    proc.terminate()
    proc.wait(timeout=10)


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_a_readers_path(site, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  permissions=["clipboard-read", "clipboard-write"])
    context.set_default_timeout(WAIT_MS)  # a busy 2-core machine: every wait on a condition, with room for load
    context.set_default_navigation_timeout(WAIT_MS)
    page = context.new_page()
    page.goto(site + "/")
    shot(page, "01-home")
    page.click("text=Browse every law")  # the front door's way into the laws table
    page.wait_for_url("**/cardlaws/laws**")
    page.click("a[href*='game=ecarte']")  # the game facet
    page.wait_for_url("**game=ecarte**")
    shot(page, "02-game")
    page.click("td.law-number a[href^='/law/hoffmann-hoyles-games-modernized-1909/ecarte/']")  # the laws list's number column
    page.wait_for_url("**/law/**")
    assert page.inner_text("h1").startswith("Law ")
    shot(page, "03-law")
    page.click("button[data-copy='cite-short']")
    expect(page.locator("button[data-copy='cite-short']")).to_have_text("Copied", timeout=WAIT_MS)
    assert page.evaluate("navigator.clipboard.readText()") == page.inner_text("#cite-short")
    page.fill("form.nav-search input[name=q]", "dealer accidentally flipped a card")
    page.press("form.nav-search input[name=q]", "Enter")
    page.wait_for_url("**/-/search?q=**")
    expect(page.locator(".search-ranked li").nth(5)).to_be_visible()
    shot(page, "04-search")
    page.click(".search-ranked li:first-child a.hit-title")
    page.wait_for_url("**/law/**")
    page.goto(site + "/compare")
    shot(page, "05-compare")
    page.click("a[href='/compare/exposed-card-in-dealing']")
    page.wait_for_url("**/compare/exposed-card-in-dealing")
    expect(page.locator(".compare-game").nth(9)).to_be_visible()
    shot(page, "06-compare-situation")
    page.goto(site + "/law/hoffmann-hoyles-games-modernized-1909/loo/14")
    page.click(".law-references a[href='/law/hoffmann-hoyles-games-modernized-1909/loo/9']")
    page.wait_for_url("**/loo/9")
    expect(page.locator(".law-references h2", has_text="Cited by")).to_be_visible()
    shot(page, "07-cross-reference")
    context.close()


@pytest.mark.parametrize("path", ["/law/hoffmann-hoyles-games-modernized-1909/bridge/40",
                                  "/-/search?q=deck+wasn%27t+cut", "/compare/misdeal", "/-/cite?text=Bridge+Law+42"])
def test_pages_read_at_phone_width(site, browser, path):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.set_default_timeout(WAIT_MS)
    page.goto(site + path, timeout=WAIT_MS)
    expect(page.locator("main")).to_be_visible(timeout=WAIT_MS)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"{path} scrolls sideways by {overflow}px at phone width"
    shot(page, "phone" + path.replace("/", "_").split("?")[0])
