"""The site's stylesheets on every page, Datasette's own included (their addresses built with the
URL helpers, so they hold under a ``base_url`` prefix): ``cardlaws.css`` (the frame and Datasette's
pages) and ``pages.css`` (the site's own pages: front door, books, codes, games, SQL)."""

from __future__ import annotations

from datasette import hookimpl


@hookimpl
def extra_css_urls(datasette):
    return [datasette.urls.path("/static/cardlaws.css"), datasette.urls.path("/static/pages.css")]


# Datasette's SQL editor (CodeMirror) hides the labelled textarea behind one of its own without a
# name; this names it once CodeMirror has made it (on load, after Datasette's own onload handler)
NAME_SQL_EDITOR = """window.addEventListener("load", function () {
  document.querySelectorAll(".CodeMirror textarea").forEach(function (t) { t.setAttribute("aria-label", "SQL query"); });
});"""


@hookimpl
def extra_body_script(template):
    return NAME_SQL_EDITOR if template.startswith(("database", "query")) else None
