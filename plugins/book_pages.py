"""The books and their codes, like a legal code site's contents: ``/law`` (every book),
``/law/<book>`` (a book: its codes with authority and year, its rulings), ``/law/<book>/<code>``
(a code's contents: its sections and every law and clause in printed order, each linked to its
page); each with a ``.json``. A law's own page (``/law/<book>/<code>/<number>``) is ``law_page``'s:
its id has three parts or more, a book's one and a code's two, so the routes never meet."""

from __future__ import annotations

from datasette import hookimpl
from datasette.utils.asgi import Response
from datasette.version import __version__

from ingest.query import pages
from ingest.query.addresses import law_path
from ingest.query.serve import DATABASE_NAME, not_found


async def render(datasette, request, template: str, data: dict, canonical: str) -> Response:
    """``data`` as JSON for a ``.json`` address, else ``template`` with it and the page's canonical
    address (absolute, for ``<link rel="canonical">``)."""
    if request.url_vars.get("format"):
        return Response.json(data)
    context = {**data, "canonical": datasette.absolute_url(request, datasette.urls.path(canonical)),
               "metadata": datasette.metadata(), "database": DATABASE_NAME, "datasette_version": __version__}
    return Response.html(await datasette.render_template(template, context, request=request))


async def every_book(datasette, request):
    db = datasette.get_database(DATABASE_NAME)
    books = await db.execute_fn(pages.books)
    return await render(datasette, request, "books.html", {"books": books}, "/law")


async def one_book(datasette, request):
    db = datasette.get_database(DATABASE_NAME)
    found = await db.execute_fn(lambda conn: pages.book(conn, request.url_vars["book"]))
    if found is None:
        return await not_found(datasette, request, "There is no book at this address. Every book is listed at /law.")
    return await render(datasette, request, "book.html", {"book": found}, law_path(found["slug"]))


async def one_code(datasette, request):
    db = datasette.get_database(DATABASE_NAME)
    code_id = f"{request.url_vars['book']}/{request.url_vars['code']}"
    found = await db.execute_fn(lambda conn: pages.code_contents(conn, code_id))
    if found is None:
        return await not_found(datasette, request, "There is no code of laws at this address. Every book and its codes are listed at /law.")
    return await render(datasette, request, "code.html", found, law_path(code_id))


@hookimpl
def register_routes():
    return [
        (r"^/law(?P<format>\.json)?/?$", every_book),
        # a trailing slash: the canonical form (a 301, canonical_paths) for a book or code that exists, else a 404
        (r"^/law/(?P<book>[^/]+?)(?P<format>\.json)?/?$", one_book),
        (r"^/law/(?P<book>[^/]+)/(?P<code>[^/]+?)(?P<format>\.json)?/?$", one_code),
    ]
