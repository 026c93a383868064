"""The front door, ``/``: what the site is, the search box with example questions, every game by
family and every book with its codes, and the ways in (compare, cite, SQL, the laws). Datasette's
own index (its databases, ``_memory``) is no longer the home page but stays reachable: the
database at ``/cardlaws`` and Datasette's index as ``/.json``."""

from __future__ import annotations

from datasette import hookimpl
from datasette.utils.asgi import Response
from datasette.version import __version__

from ingest.query import pages
from ingest.query.serve import DATABASE_NAME

# questions a newcomer might ask, each a search that finds the laws deciding it
EXAMPLES = ("dealer accidentally flipped a card", "too many cards dealt", "a player revoked",
            "the pack was not cut")


def _counts(conn) -> dict:
    """The front door's figures: laws and clauses (an excerpt's copy of a book's law not counted
    again), games, codes, the catalogued law books (each has an address it was fetched from) and
    the other sources of laws (no catalogued address: seed 000, an older English code of Écarté
    whose book is not identified, or a user's own text)."""
    row = conn.execute("select count(case when parent is null and witness_of is null then 1 end), "
                       "count(case when parent is not null and witness_of is null then 1 end), "
                       "count(distinct game), (select count(*) from codes), "
                       "(select count(*) from sources where kind = 'laws' and address is not null), "
                       "(select count(*) from sources where kind = 'laws' and address is null) "
                       "from laws").fetchone()
    return dict(zip(("laws", "clauses", "games", "codes", "books", "other_sources"), row))


async def front_door(datasette, request):
    db = datasette.get_database(DATABASE_NAME)
    context = {
        "families": await db.execute_fn(pages.games_by_family),
        "books": await db.execute_fn(pages.books),
        "counts": await db.execute_fn(_counts),
        "examples": EXAMPLES,
        "canonical": datasette.absolute_url(request, datasette.urls.path("/")),
        "metadata": datasette.metadata(), "database": DATABASE_NAME, "datasette_version": __version__,
    }
    return Response.html(await datasette.render_template("front.html", context, request=request))


@hookimpl
def register_routes():
    return [(r"^/$", front_door)]
