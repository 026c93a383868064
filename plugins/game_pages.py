"""The games: ``/games`` (every game, grouped by family, with law counts) and ``/<game>`` (a game:
its codes across the books in date order, the situations its laws decide, its family), each with a
``.json``. A game's address is its slug (``/ecarte``); its name in any case or accent
(``/Écarté``, ``/WHIST``) is a 301 to it (``canonical_paths``); ``/<game>/<number>`` is a short
path to a law (``short_paths``)."""

from __future__ import annotations

from datasette import hookimpl
from datasette.utils.asgi import Response
from datasette.version import __version__

from ingest import vocabulary
from ingest.query import pages
from ingest.query.serve import DATABASE_NAME, not_found


async def _render(datasette, request, template: str, data: dict, canonical: str) -> Response:
    if request.url_vars.get("format"):
        return Response.json(data)
    context = {**data, "canonical": datasette.absolute_url(request, datasette.urls.path(canonical)),
               "metadata": datasette.metadata(), "database": DATABASE_NAME, "datasette_version": __version__}
    return Response.html(await datasette.render_template(template, context, request=request))


async def every_game(datasette, request):
    groups = await datasette.get_database(DATABASE_NAME).execute_fn(pages.games_by_family)
    return await _render(datasette, request, "games.html", {"families": groups}, "/games")


async def one_game(datasette, request):
    slug = request.url_vars["game"]
    found = await datasette.get_database(DATABASE_NAME).execute_fn(lambda conn: pages.game(conn, slug))
    if found is None:  # a game of the vocabulary with no laws in this database
        return await not_found(datasette, request, "There is no game at this address. Every game is listed at /games.")
    return await _render(datasette, request, "game.html", {"game": found}, f"/{slug}")


@hookimpl
def register_routes():
    # only the vocabulary's game slugs: any other one-part address stays Datasette's (/cardlaws …)
    slugs = "|".join(sorted(vocabulary.games(), key=len, reverse=True))
    return [
        (r"^/games(?P<format>\.json)?$", every_game),
        (rf"^/(?P<game>{slugs})(?P<format>\.json)?$", one_game),
    ]
