"""The search page at ``/-/search`` and its JSON at ``/-/search.json``: what the query was
understood to ask (games, situations, the books' words for modern ones), one ranked list of laws
across games, best first, with why each matched, the same laws grouped by game, and, when nothing
answers the query well enough, the nearest laws offered apart."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from datasette import hookimpl
from datasette.utils.asgi import Response
from markupsafe import Markup, escape

from ingest import vocabulary
from ingest.query.cache import per_database
from ingest.query.search import MAX_LIMIT, MODES, ModeUnavailable, QueryError, searcher_for, term_stem
from ingest.query.serve import DATABASE_NAME
from ingest.text import fold, normalise_value


def _mark(snippet: str, terms: list[str]) -> Markup:
    """The snippet as HTML with the matched terms marked."""
    stems = sorted({term_stem(t) for t in terms}, key=len, reverse=True)
    if not stems:
        return Markup(escape(snippet))
    pattern = re.compile(r"(?i)\b(?:" + "|".join(re.escape(s) for s in stems) + r")[\w-]*")
    out, pos = [], 0
    for m in pattern.finditer(snippet):  # one pass over the plain text: marks never nest
        out += [escape(snippet[pos : m.start()]), Markup("<mark>{}</mark>").format(m.group(0))]
        pos = m.end()
    out.append(escape(snippet[pos:]))
    return Markup("").join(out)


def _choices(db_path: Path) -> tuple[list[dict], list[dict]]:
    """The games (by name) and the books with laws (by title) the search form offers: read once
    per database file."""
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        games = sorted((dict(r) for r in conn.execute("select slug, name from games")), key=lambda g: fold(g["name"]).lower())
        sources = [dict(r) for r in conn.execute(
            "select slug, title from sources where slug in (select distinct source from laws) order by title")]
    finally:
        conn.close()
    return games, sources


async def search_view(datasette, request):
    db = datasette.get_database(DATABASE_NAME)
    args = request.args
    query = (args.get("q") or "").strip()
    game = normalise_value(args.get("game") or "").strip() or None
    source = normalise_value(args.get("source") or "").strip() or None
    mode = args.get("mode") or "ranked"
    wants_json = request.url_vars.get("format") == "json"
    error, answer, status = None, None, 400
    given = args.get("limit") or "20"  # ASCII digits only: int() would take "5_0", "+5" and other scripts' digits
    limit = int(given) if re.fullmatch(r"[0-9]{1,3}", given) else 0
    if not 1 <= limit <= MAX_LIMIT:
        limit, error = 20, f"limit: give a whole number from 1 to {MAX_LIMIT}"
    if mode not in MODES:
        error = f"mode must be one of {', '.join(MODES)}"
    elif query and not error:
        searcher = searcher_for(Path(db.path))
        try:
            answer = await datasette.get_database(DATABASE_NAME).execute_fn(
                lambda conn: searcher.answer(query, mode=mode, limit=limit, game=game, source=source))
        except QueryError as e:  # the query's fault (400), or the installation's (503)
            error, status = str(e), 503 if isinstance(e, ModeUnavailable) else 400
    elif wants_json and not error:
        error = "give a query: ?q=…"
    if wants_json:
        if error:
            return Response.json({"ok": False, "error": error}, status=status)
        return Response.json(answer.as_json())
    hits = answer.results if answer else []
    nearest = answer.nearest if answer else []
    games, sources = per_database(Path(db.path), "search-choices", _choices)
    by_game: dict[str, list] = {}
    for h in hits:
        by_game.setdefault(h.game_name, []).append(h)
    names = {g["slug"]: g["name"] for g in games}
    labels = {sit.id: sit.label for sit in vocabulary.situations()}
    understood = answer.understood if answer else None
    context = {
        "understood_games": [names.get(g, g) for g in understood.games] if understood else [],
        "understood_situations": [(sit, labels.get(sit, sit)) for sit in understood.situations] if understood else [],
        "understood_rewrites": _by_modern_word(understood.rewrites if understood else []),
        "nearest": [{"hit": h, "snippet_html": _mark(h.snippet, h.matched)} for h in nearest],
        "q": query, "game": game, "source": source, "mode": mode, "limit": limit, "error": error,
        "hits": [{"hit": h, "snippet_html": _mark(h.snippet, h.matched)} for h in hits],
        "by_game": sorted(by_game.items(), key=lambda kv: -len(kv[1])), "games": games, "sources": sources,
        "modes": MODES, "metadata": datasette.metadata(),
    }
    return Response.html(await datasette.render_template("search.html", context, request=request),
                         status=status if error else 200)


@hookimpl
def register_routes():
    return [(r"^/-/search(\.(?P<format>json))?$", search_view)]


def _by_modern_word(rewrites: list[tuple[str, str]]) -> list[tuple[str, list[str]]]:
    """``(modern word, [the books' words])`` in the order found: each modern word once."""
    grouped: dict[str, list[str]] = {}
    for modern, books in rewrites:
        grouped.setdefault(modern, []).append(books)
    return list(grouped.items())
