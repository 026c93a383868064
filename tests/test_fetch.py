"""Fetching the books: from a folder, and over HTTP from a server on 127.0.0.1 (with retries on
server errors), recording what was fetched; the CLI's messages and exit status."""

from __future__ import annotations

import hashlib
import json
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest
from click.testing import CliRunner

from ingest.build.catalog import BookEntry
from ingest.build.fetch import fetch_books
from ingest.cli import main


class FlakyHandler(SimpleHTTPRequestHandler):
    """Serves a folder, answering 503 to the first request for each path."""

    seen: ClassVar[set[str]] = set()

    def do_GET(self):
        if self.path not in self.seen:
            self.seen.add(self.path)
            self.send_error(503, "try again")
            return
        super().do_GET()

    def log_message(self, *args):
        pass


@pytest.fixture
def server(tmp_path):
    root = tmp_path / "www"
    root.mkdir()
    FlakyHandler.seen = set()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(FlakyHandler, directory=str(root)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield root, f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def book(slug, url, sha=None):
    return BookEntry(slug=slug, title=slug, download=url, sha256=sha)


def test_download_retries_a_server_error_and_records_the_checksum(tmp_path, server):
    root, base = server
    (root / "a.txt").write_text("1. The dealer deals.\n")
    sha = hashlib.sha256(b"1. The dealer deals.\n").hexdigest()
    cache = tmp_path / "cache"
    report = fetch_books([book("a", f"{base}/a.txt", sha), book("b", f"{base}/missing.txt")], cache, backoff=0.01)
    assert report.fetched == {"a": f"{base}/a.txt"}
    assert "404" in report.failed["b"]
    assert (cache / "a.txt").read_text() == "1. The dealer deals.\n"
    assert not (cache / "b.txt").exists() and not list(cache.glob(".*.part"))
    manifest = json.loads((cache / "manifest.json").read_text())
    assert manifest["a"] == {"from": f"{base}/a.txt", "bytes": 21, "sha256": sha, "catalogued_copy": True}


def test_books_already_in_the_cache_are_kept_unless_forced(tmp_path, server):
    root, base = server
    (root / "a.txt").write_text("new\n")
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "a.txt").write_text("old\n")
    assert fetch_books([book("a", f"{base}/a.txt")], cache, backoff=0.01).skipped == ["a"]
    assert (cache / "a.txt").read_text() == "old\n"
    fetch_books([book("a", f"{base}/a.txt")], cache, force=True, backoff=0.01)
    assert (cache / "a.txt").read_text() == "new\n"


def test_cli_fetches_every_catalogued_book_from_a_url_base(tmp_path, server, shared_corpus):
    root, base = server
    for path in shared_corpus.glob("*.txt"):
        (root / path.name).write_bytes(path.read_bytes())
    cache = tmp_path / "cache"
    result = CliRunner().invoke(main, ["corpus", "fetch", "--url-base", base, "--cache", str(cache)])
    assert result.exit_code == 0, result.output
    assert "9 fetched, 0 kept, 0 failed" in result.stderr
    manifest = json.loads((cache / "manifest.json").read_text())
    assert len(manifest) == 9 and all(m["catalogued_copy"] for m in manifest.values())


def test_cli_fetch_from_a_mirror_reports_missing_books(tmp_path, shared_corpus):
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "peel-round-games-with-cards-1891.txt").write_bytes(
        (shared_corpus / "peel-round-games-with-cards-1891.txt").read_bytes())
    result = CliRunner().invoke(main, ["corpus", "fetch", "--mirror", str(mirror), "--cache", str(tmp_path / "c")])
    assert result.exit_code == 1
    assert "1 fetched, 0 kept, 8 failed" in result.stderr
    assert "error: hoffmann-hoyles-games-modernized-1909:" in result.stderr and "not found in the mirror" in result.stderr


def test_offline_gives_up_after_the_first_unreachable_book(tmp_path):
    import socket

    with socket.socket() as s:  # a port on 127.0.0.1 that nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    books = [book(slug, f"http://127.0.0.1:{port}/{slug}.txt") for slug in ("a", "b", "c")]
    report = fetch_books(books, tmp_path, backoff=0.01, retries=2, give_up_offline=True)
    assert report.offline and set(report.failed) == {"a", "b", "c"}
    assert report.failed["b"].startswith("not tried: ")



def test_a_first_serve_takes_the_books_from_the_team_s_folder_beside_the_clone(tmp_path, monkeypatch):
    from ingest import cli

    # the team's layout: shared/ beside the clone (main/), as the tests read it too
    assert cli.SIBLING_MIRROR == cli.paths.PROJECT_ROOT.parent / "shared" / "corpus"
    named, beside = tmp_path / "copies", tmp_path / "shared" / "corpus"
    named.mkdir()
    monkeypatch.setattr(cli, "SIBLING_MIRROR", beside)
    assert cli.first_build_mirror(None) is None  # no copies beside: download
    beside.mkdir(parents=True)
    assert cli.first_build_mirror(None) == beside
    assert cli.first_build_mirror(named) == named  # --mirror or $CARDLAWS_MIRROR first
