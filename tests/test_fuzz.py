"""Fuzz: every endpoint, pages and JSON, with generated parameters and path parts (hypothesis),
against a real server on 127.0.0.1: no 500, no traceback, every error a clear 4xx with a message.
``max_examples`` keeps it well under a minute."""

from __future__ import annotations

import sqlite3
import time
import urllib.parse

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ingest.evaluate.server import spawn

ODD = ["", " ", "0", "-1", "99999999999999999999", "1e9", "max", "'", '"', "%", "%2F", "~2F", "~", "../", "\x00",
       "<script>alert(1)</script>", "' OR 1=1 --", "NEAR(a b", "a:b^2", "*", "$null", "dea\u00adler", "ﬁnesse",
       "e\u0301carte\u0301", "\u2028", "\U0001f0a1", "x" * 3000, "[1,2]", "{}", "null", "true", "ecarte", "whist",
       "bridge", "misdeal", "1,2", "~2Fecarte~2F31"]
PARAMS = ["q", "game", "source", "mode", "limit", "text", "context", "family", "sort", "_sort", "_sort_desc", "_size",
          "_next", "_search", "_facet", "_facet_array", "_shape", "_col", "_nocol", "_labels", "_json", "_where",
          "entities__arraycontains", "game__in", "number__gt", "sql", "_timelimit", "format", "_facet_size", "x"]


@pytest.fixture(scope="module")
def site(seed_db):
    server, base = spawn(seed_db)
    conn = sqlite3.connect(seed_db)
    values = {
        "law": [r[0] for r in conn.execute("select id from laws limit 8")],
        "situation": [r[0] for r in conn.execute("select id from situations limit 5")],
        "table": [r[0] for r in conn.execute("select name from sqlite_master where type in ('table', 'view') limit 30")],
    }
    with httpx.Client(base_url=base, timeout=30) as client:
        yield client, values
    server.terminate()
    server.wait(timeout=10)


def endpoints(values: dict) -> list[str]:
    """Address templates: ``{p}`` is a generated path part."""
    laws = values["law"]
    return [
        "/", "/-/search", "/-/search.json", "/-/cite", "/-/cite.json", "/compare", "/compare.json",
        "/compare/{p}", "/compare/{p}.json", *(f"/compare/{s}" for s in values["situation"]),
        "/law/{p}", "/law/{p}.json", "/law/{p}.bib", "/law/{p}.csl.json", *(f"/law/{i}" for i in laws),
        *(f"/law/{i}.json" for i in laws[:3]), "/law", "/ecarte/{p}", "/{p}/31", "/{p}/{p}", "/{p}",
        "/cardlaws", "/cardlaws.json", "/cardlaws/{p}", "/cardlaws/{p}.json",
        *(f"/cardlaws/{t}" for t in values["table"]), *(f"/cardlaws/{t}.json" for t in values["table"]),
        "/cardlaws/laws_mentioning", "/cardlaws/deal_stands_after.json", "/cardlaws/laws/{p}", "/cardlaws/laws/{p}.json",
    ]


text = st.one_of(st.sampled_from(ODD), st.text(max_size=30), st.integers(-10, 500).map(str))


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_no_parameter_makes_a_500_or_a_traceback(site, data):
    client, values = site
    template = data.draw(st.sampled_from(endpoints(values)), label="endpoint")
    path = template
    while "{p}" in path:
        path = path.replace("{p}", urllib.parse.quote(data.draw(text, label="path part"), safe=""), 1)
    params = data.draw(st.lists(st.tuples(st.sampled_from(PARAMS), text), max_size=5), label="params")
    url = path + ("?" + urllib.parse.urlencode(params) if params else "")
    started = time.monotonic()
    response = client.get(url)
    assert response.status_code < 500, (url, response.status_code, response.text[:500])
    assert "Traceback" not in response.text, url
    if response.status_code >= 400:
        assert response.status_code in (400, 403, 404, 405, 414), (url, response.status_code)
        assert response.text.strip(), url  # a message, not an empty page
    assert time.monotonic() - started < 10, url
