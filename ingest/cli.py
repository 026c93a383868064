"""The ``cardlaws`` command line: build, serve, show, search, cite and corpus fetch. It sits on
top of both halves: the build side (:mod:`ingest.build`) and the query side (:mod:`ingest.query`).

Exit status: 0 on success, 1 on a user error (a message on stderr, no traceback), 2 on bad usage.
"""

from __future__ import annotations

import difflib
import socket
import sys
from pathlib import Path

import click

from . import paths
from .cli_options import CACHE_OPTION, DB_OPTION, fail, open_database, progress, text_argument
from .models import CorpusError


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardlaws")
def main() -> None:
    """Card Laws: the numbered laws of card games, from historic rule books, in SQLite.

    \b
    Typical use:
      cardlaws build              build db/cardlaws.db from the corpus
      cardlaws serve              build if needed, then browse it at http://127.0.0.1:8001
      cardlaws show SOURCE/CODE/NUMBER
    """


def books_origin(mirror: Path | None, url_base: str | None = None) -> str:
    """Where the books are fetched from, said before fetching."""
    if mirror is not None:
        return f"the mirror {mirror}"
    if url_base:
        return url_base
    return "their catalogued addresses (corpus/catalog.toml)"


# the kinds of build warning, for the summary (the details with --verbose)
WARNING_KINDS = [
    ("text kept as a fragment (a preamble, a heading's text)", "kept as a fragment"),
    ("reviewed tags moved to the case a law lists", "the tag moves there"),
    ("reviewed tags of a law deciding through its cases", "through the cases it lists"),
    ("reviewed evidence running on into a law's cases", "only the opening of the evidence"),
    ("numbers printed twice (kept as …~2)", "is duplicated"),
    ("numbers out of order or skipped", "out of order"),
    ("lines not in UTF-8, read as Windows-1252", "Windows-1252"),
]


def _report_warnings(warnings: list[str], verbose: bool) -> None:
    """Every warning with --verbose; else the warnings of the known kinds counted, the others in full."""
    if verbose:
        for w in warnings:
            click.secho(f"warning: {w}", fg="yellow", err=True)
        return
    counts: dict[str, int] = {}
    for w in warnings:
        kind = next((label for label, needle in WARNING_KINDS if needle in w), None)
        if kind is None:
            click.secho(f"warning: {w}", fg="yellow", err=True)
        else:
            counts[kind] = counts.get(kind, 0) + 1
    for kind, n in counts.items():
        click.secho(f"warnings: {n} × {kind}", fg="yellow", err=True)
    if counts:
        click.echo("(build --verbose lists each with its file and line)", err=True)


def _run_build(corpus: tuple[Path, ...], db_path: Path, cache: Path | None = None, verbose: bool = False,
               questions: Path | None = None) -> None:
    from .build.pipeline import build

    dirs = list(corpus) or [paths.SEEDS]
    books_cache = None if corpus else (cache or paths.BOOK_CACHE)
    try:
        report = build(dirs, db_path, progress=progress, cache=books_cache,
                       rulings_dir=None if corpus else paths.CORPUS / "rulings",
                       annotations_dir=None if corpus else paths.CORPUS / "annotations",
                       questions_dir=questions or (None if corpus else paths.CORPUS / "questions"),
                       on_wait=lambda message: click.secho(f"{message}…", fg="yellow", err=True))
    except OSError as e:
        fail(f"cannot write {db_path}: {e.strerror}")
    except CorpusError as e:
        kept = f"{db_path} was left as it was" if db_path.exists() else "no database was written"
        fail(f"{e}\nthe build stopped; {kept}")
    _report_warnings(report.warnings, verbose)
    if report.missing_books:
        click.secho(
            f"{len(report.missing_books)} catalogued book(s) are not in the cache ({books_cache}) and were "
            f"not built: {', '.join(report.missing_books)}. Get them with 'cardlaws corpus fetch' "
            "(or 'cardlaws corpus fetch --mirror DIR' from a folder of copies).",
            fg="yellow", err=True,
        )
    if report.skipped_books:
        click.secho(
            f"{len(report.skipped_books)} catalogued book(s) in the cache are not the catalogued copy and were left "
            f"out: {', '.join(report.skipped_books)}. Fetch them again with 'cardlaws corpus fetch --force'.",
            fg="yellow", err=True,
        )
    c = report.counts
    click.echo(
        f"Built {db_path} in {report.seconds:.1f} s: {c.get('laws', 0)} laws and clauses from "
        f"{c.get('sources', 0)} source(s) of {c.get('games', 0)} game(s); "
        f"{c.get('laws', 0) - report.tagged} laws' tagging kept from the previous build, {report.tagged} tagged; "
        f"{c.get('law_entities', 0)} entity mentions; {c.get('law_embeddings', 0)} law vectors "
        f"({report.embedded} computed, {c.get('law_embeddings', 0) - report.embedded} kept from the previous build); "
        f"{c.get('law_questions', 0)} plain questions ({report.embedded_questions} embedded); "
        f"citations {'kept from the previous build' if report.citations_kept else 'resolved'}; "
        f"{c.get('fragments', 0)} fragment(s); "
        f"{len(report.warnings)} warning(s)",
        err=True,
    )


@main.command("build")
@click.option(
    "--corpus", multiple=True, type=click.Path(file_okay=False, path_type=Path),
    help="A folder of texts (*.txt, each with a NAME.toml sidecar), searched recursively. "
    "Repeat for several. Default: the project's corpus/seeds plus the catalogued books in the cache.",
)
@click.option(
    "--questions", "questions_dir", type=click.Path(file_okay=False, exists=True, path_type=Path),
    help="A folder of plain questions and accounts, one <source>.csv a source (the layout of "
    "corpus/questions, whose README explains it). Default: corpus/questions for the books; none with --corpus.",
)
@DB_OPTION
@CACHE_OPTION
@click.option("--verbose", "-v", is_flag=True, help="List every warning with its file and line (default: counted by kind).")
def build_command(corpus: tuple[Path, ...], questions_dir: Path | None, db_path: Path, cache: Path | None,
                  verbose: bool) -> None:
    """Build the database from corpus texts: clean, segment into laws, tag entities, load.

    The new database replaces the old one only when the build succeeds; on bad input (a missing
    or malformed sidecar, an empty or binary file, a section outside its file) the error names
    the file and the previous database is left as it was.

    With no --corpus it builds the project's seed excerpts plus every catalogued book found in
    the cache (see 'cardlaws corpus fetch'); with --corpus, only the texts in those folders.
    The reviewed situation tags of corpus/annotations are loaded over the tagger's proposals,
    and the plain questions of corpus/questions are kept with the laws they ask about.
    """
    _run_build(corpus, db_path, cache, verbose, questions_dir)


# a folder of copies of the books where the team keeps them, beside the clone: `serve` takes the
# books from it on a first build when no --mirror or CARDLAWS_MIRROR is given (as the tests do)
SIBLING_MIRROR = paths.PROJECT_ROOT.parent / "shared" / "corpus"

def first_build_mirror(mirror: Path | None) -> Path | None:
    """Where a first ``serve`` takes the books from: ``mirror`` (--mirror or $CARDLAWS_MIRROR) if
    given, else :data:`SIBLING_MIRROR` when that folder exists, else None (download them)."""
    return mirror if mirror is not None else (SIBLING_MIRROR if SIBLING_MIRROR.is_dir() else None)


MIRROR_OPTION = click.option(
    "--mirror", type=click.Path(file_okay=False, exists=True, path_type=Path), envvar="CARDLAWS_MIRROR",
    help="Copy the books from this folder (<slug>.txt files) instead of downloading them "
    "[env: CARDLAWS_MIRROR].",
)


@main.command()
@DB_OPTION
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8001, show_default=True, type=click.IntRange(1, 65535), help="Port to listen on.")
@click.option("--base-url", default="/", show_default=True, metavar="/PREFIX/",
              help="The path prefix the site is served under behind a proxy: every link, form, asset and "
              "redirect carries it.")
@MIRROR_OPTION
@CACHE_OPTION
def serve(db_path: Path, host: str, port: int, base_url: str, mirror: Path | None, cache: Path | None) -> None:
    """Serve the database in Datasette (building it first if it does not exist).

    A first build gets the catalogued books first (from --mirror, or downloaded); offline, it
    says so and serves what it has. Browse laws by game, facet by entity, read a law at
    /law/<id>, search the text, and run SQL across games.
    """
    if not db_path.exists():
        from .build.catalog import load_catalog
        from .build.fetch import fetch_books

        mirror = first_build_mirror(mirror)
        click.echo(f"{db_path} does not exist yet: getting the books from {books_origin(mirror)} and building it first.",
                   err=True)
        report = fetch_books(load_catalog(), cache or paths.BOOK_CACHE, mirror=mirror, progress=progress,
                             retries=2, timeout=15, give_up_offline=True)
        if report.failed:
            reason = next(iter(report.failed.values()))
            click.secho(
                f"Could not get {len(report.failed)} of the books ({reason}); serving what there is. "
                "To add them: 'cardlaws corpus fetch' (or 'cardlaws corpus fetch --mirror DIR' from a folder of "
                "copies), then 'cardlaws build'.", fg="yellow", err=True,
            )
        _run_build((), db_path, cache)
    import uvicorn

    from .query.serve import make_datasette

    if not (base_url.startswith("/") and base_url.endswith("/")):
        raise click.BadParameter("must start and end with '/', e.g. /cardlaws-site/", param_hint="--base-url")
    open_database(db_path).close()  # refuses a database of another schema, saying to rebuild it
    ds = make_datasette(db_path, base_url=base_url)
    try:  # say so before announcing the address, not after
        with socket.create_server((host, port)):
            pass
    except OSError as e:
        fail(f"--port: cannot listen on {host}:{port} ({e.strerror or e})")
    click.echo(f"Serving {db_path} at http://{host}:{port}{base_url} (Ctrl+C to stop)", err=True)
    uvicorn.run(ds.app(), host=host, port=port, log_level="warning")


@main.command()
@click.argument("query")
@click.option("--game", help="Only laws of this game (its slug: ecarte, whist, poker …).")
@click.option("--source", help="Only laws of this source (its slug).")
@click.option("--limit", default=10, show_default=True, type=int, help="How many laws (1 to 200).")
@click.option("--mode", type=click.Choice(["ranked", "hybrid", "lexical", "dense"]), default="ranked", show_default=True,
              help="The learned ranker over both lists; both fused by rank; full-text; or sentence vectors.")
@click.option("--json", "as_json", is_flag=True,
              help="Print {query, understood: {games, situations, rewrites}, results: [{id, game, source, number, score, "
                   "snippet, matched, entities, asked}], nearest: [...]}.")
@DB_OPTION
def search(query: str, game: str | None, source: str | None, limit: int, mode: str, as_json: bool, db_path: Path) -> None:
    """Search laws across games, in modern words ("dealer accidentally flipped a card"), best first.

    Says what it understood (games named, situations described, the books' words for modern ones);
    when no law answers the query well enough, prints none and offers the nearest laws apart.
    """
    import json

    from .query.search import QueryError, Searcher
    from .text import normalise_value

    open_database(db_path).close()
    game, source = (normalise_value(v).strip() if v else None for v in (game, source))
    try:
        answer = Searcher(db_path).answer(query, mode=mode, limit=limit, game=game, source=source)
    except QueryError as e:  # a filter's error names the filter ("game: no such game …"), the query's the query
        shown = query if len(query) <= 80 else query[:77] + "…"  # a 10,000-character query is not echoed whole
        message = str(e) if str(e).startswith(("game:", "source:", "limit:", "kind:")) else f"{e}: {shown!r}"
        if as_json:  # the site's shape for an error (/-/search.json), on stdout, and status 1
            click.echo(json.dumps({"ok": False, "error": message}, ensure_ascii=False))
        fail(message)
    if as_json:
        click.echo(json.dumps(answer.as_json(), ensure_ascii=False, indent=2))
        return
    understood = answer.understood
    said = [*understood.games, *(f"situation: {s}" for s in understood.situations[:3]),
            *(f"'{a}' → '{b}'" for a, b in understood.rewrites[:4])]
    if said:
        click.echo("Understood: " + " · ".join(said), err=True)
    hits = answer.results
    if not hits:
        # on stdout too: piped or redirected, the nearest laws must not read as answers
        click.echo("No law answers this query." + (" The nearest laws, not answers:" if answer.nearest else ""))
        hits = answer.nearest
    for i, h in enumerate(hits, start=1):
        click.echo(f"{i:2}. {h.label} — {h.source_title}  [{h.id}]")
        click.echo(f"    {h.snippet}")


@main.command()
@click.argument("text")
@click.option("--context", "context", metavar="LAW_ID", help="The law the text sits in (for 'the preceding Law', a bare 'Law 39').")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of {text, start, end, status, laws}.")
@DB_OPTION
def cite(text: str, context: str | None, as_json: bool, db_path: Path) -> None:
    """Find the law citations in a ruling's TEXT and resolve each: resolved (its law), ambiguous
    (every candidate: several books have that law) or unresolved (and why).

    Example: cardlaws cite "Under Écarté law 31 (Hoyle's Games Modernized) the non-dealer may claim a fresh deal"
    """
    import json

    from .cite import MAX_TEXT_CHARS, Resolver
    from .text import normalise_value

    text, context = text_argument(text, "TEXT"), text_argument(context, "--context")
    if not text.strip():
        fail("TEXT: give the text of a ruling to find its citations in")
    if len(text) > MAX_TEXT_CHARS:
        fail(f"TEXT: too long ({len(text):,} characters; {MAX_TEXT_CHARS:,} at most)")
    conn = open_database(db_path)
    context = normalise_value(context).strip() if context else None
    if context and conn.execute("select 1 from laws where id = ?", [context]).fetchone() is None:
        fail(f"--context: no law with id {context!r} in {db_path}")
    results = Resolver.from_db(conn).cite(text, context=context)
    if as_json:
        click.echo(json.dumps([r.as_json() for r in results], ensure_ascii=False, indent=2))
        return
    if not results:
        click.echo("No law citations found.", err=True)
    for r in results:
        click.echo(f"{r.citation.text!r} [{r.citation.start}:{r.citation.end}] {r.status}"
                   + (f": {r.reason}" if r.reason else ""))
        for law_id in r.laws:
            click.echo(f"    {law_id}")


@main.group()
def corpus() -> None:
    """The catalogued law books (corpus/catalog.toml): fetch them into the cache."""


@corpus.command("fetch")
@MIRROR_OPTION
@click.option("--url-base", metavar="URL", help="Download every book as URL/<slug>.txt (your own mirror server).")
@CACHE_OPTION
@click.option("--force", is_flag=True, help="Fetch again books already in the cache.")
def corpus_fetch(mirror: Path | None, url_base: str | None, cache: Path | None, force: bool) -> None:
    """Fetch every catalogued book into the cache, from its public address (with retries), from
    --url-base, or from a local --mirror folder. What was fetched, its size and sha256, is
    recorded in the cache's manifest.json; every book in the cache is checked against the
    catalog's sha256, and each that differs is named. Exit status 1 if any book could not be
    fetched."""
    from .build.catalog import load_catalog
    from .build.fetch import fetch_books

    try:
        books = load_catalog()
        click.echo(f"Fetching {len(books)} books from {books_origin(mirror, url_base)} into {cache or paths.BOOK_CACHE}", err=True)
        report = fetch_books(books, cache or paths.BOOK_CACHE, mirror=mirror, url_base=url_base, force=force, progress=progress)
        catalogued = {b.slug: b.sha256 or "" for b in books}
    except (CorpusError, OSError) as e:
        fail(str(e))
    for slug, origin in report.fetched.items():
        click.echo(f"fetched {slug} from {origin}", err=True)
    if report.skipped:
        click.echo(f"{len(report.skipped)} book(s) already in the cache (--force fetches them again)", err=True)
    for slug, reason in report.failed.items():
        click.secho(f"error: {slug}: {reason}", fg="red", err=True)
    for slug, digest in report.differs.items():
        click.secho(f"warning: {slug}: not the catalogued copy (sha256 {digest[:16]}…, the catalog's "
                    f"{catalogued[slug][:16]}…): a truncated download or another edition; the build leaves out "
                    "a book whose codes it cannot find. Fetch it again with --force.", fg="yellow", err=True)
    click.echo(f"{len(report.fetched)} fetched, {len(report.skipped)} kept, {len(report.failed)} failed "
               f"into {cache or paths.BOOK_CACHE}", err=True)
    if report.failed:
        sys.exit(1)


@main.command()
@click.argument("law_id")
@click.option("--bibtex", "fmt", flag_value="bibtex", help="Print the citation as BibTeX instead.")
@click.option("--csl-json", "fmt", flag_value="csl-json", help="Print the citation as CSL-JSON instead.")
@click.option("--json", "fmt", flag_value="json", help="Print the law's record as JSON (as /law/<id>.json).")
@DB_OPTION
def show(law_id: str, fmt: str | None, db_path: Path) -> None:
    """Print one law with its citations (short and full) and provenance (book, page, file and
    lines); with --bibtex, --csl-json or --json, the citation or the whole record in that form.

    LAW_ID is the law's id, e.g. 002_acea09cb2742a4b7/ecarte/31 (the laws table lists them).
    """
    import json

    from .query.addresses import canonical_law_address
    from .query.laws import law_record

    law_id = text_argument(law_id, "LAW_ID")
    conn = open_database(db_path)
    rec = law_record(conn, law_id)
    if rec is None:  # any equivalent form of the id: encoded separators, another case or accent
        found = canonical_law_address(conn, law_id)
        rec = law_record(conn, found[1]) if found and found[0] == "law" and not found[2] else None
    if rec is None:
        ids = [r[0] for r in conn.execute("select id from laws")]
        close = difflib.get_close_matches(law_id, ids, n=3, cutoff=0.6)
        hint = (f"; did you mean {', '.join(close)}?" if close
                else "; law ids look like SOURCE/CODE/NUMBER, e.g. " + (ids[0] if ids else "002_acea09cb2742a4b7/ecarte/31"))
        fail(f"no law with id {law_id!r} in {db_path}{hint}")
    if fmt == "bibtex":
        click.echo(rec.bibtex)
        return
    if fmt in ("csl-json", "json"):
        data = [rec.csl_json] if fmt == "csl-json" else rec.as_json()
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    law, source = rec.law, rec.source
    lines = (f"line {law['line_start']}" if law["line_start"] == law["line_end"]
             else f"lines {law['line_start']}–{law['line_end']}")
    click.echo(rec.short_citation)
    click.echo()
    click.echo(f"{law['number']}. {law['text']}")
    if law["note"]:
        click.echo()
        click.echo(f"[{law['note']}]")
    click.echo()
    click.echo(f"Cite as:  {rec.full_citation}")
    click.echo(f"Source:   {source['file']}, {lines}" + (f", {rec.pages}" if rec.pages else ""))
    entities = sorted({m["label"] for m in rec.mentions})
    if entities:
        click.echo(f"Entities: {', '.join(entities)}")
    if rec.questions:
        click.echo(f"Asked as: {'; '.join(rec.questions)}")
    click.echo(f"Id:       {law['id']}")


if __name__ == "__main__":
    main()
