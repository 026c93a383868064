"""Fetch: bring the catalogued books into the cache, from their public addresses or a mirror.

:func:`fetch_books` downloads each book's ``download`` address (or ``URL_BASE/<slug>.txt``, or
copies ``MIRROR/<slug>.txt``) into ``BOOK_CACHE/<slug>.txt`` (:data:`ingest.paths.BOOK_CACHE`),
writing each file whole (a temporary file renamed into place), with retries on network errors and
server errors (5xx), and records what it got in ``BOOK_CACHE/manifest.json``: bytes, sha256, where
from, and whether it is the copy the catalog was made from.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from ..paths import BOOK_CACHE
from .catalog import BookEntry

RETRIES = 3


@dataclass
class FetchReport:
    """Per book: ``fetched`` (slug → where from), ``failed`` (slug → reason), ``skipped`` (already
    in the cache), ``differs`` (slug → the sha256 of a copy in the cache that is not the catalogued
    copy: a truncated download, another edition)."""

    fetched: dict[str, str] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    differs: dict[str, str] = field(default_factory=dict)
    offline: str | None = None  # why a host could not be reached, if one could not


def _download(url: str, dest: Path, client: httpx.Client, retries: int, backoff: float) -> None:
    last: Exception | None = None
    for attempt in range(retries):
        try:
            with client.stream("GET", url) as response:
                if response.status_code >= 500:
                    raise httpx.HTTPStatusError(f"server error {response.status_code}", request=response.request, response=response)
                response.raise_for_status()
                with open(dest, "wb") as f:
                    f.writelines(response.iter_bytes())
            return
        except httpx.HTTPStatusError as e:
            last = e
            if e.response.status_code < 500:
                break  # 404 and the like: asking again will not help
        except httpx.ConnectError as e:
            last = e
            if attempt + 1 == retries:
                raise Offline(str(e) or "cannot connect") from None
        except httpx.HTTPError as e:
            last = e
        time.sleep(backoff * (2**attempt))
    raise RuntimeError(str(last) or type(last).__name__)


class Offline(RuntimeError):
    """The address could not be reached at all (no network, or no such host)."""


def fetch_books(
    books: list[BookEntry],
    cache: Path = BOOK_CACHE,
    mirror: Path | None = None,
    url_base: str | None = None,
    force: bool = False,
    progress: Callable[[Iterable, int, str], Iterable] = lambda items, n, label: items,
    retries: int = RETRIES,
    backoff: float = 0.5,
    timeout: float = 30.0,
    give_up_offline: bool = False,
) -> FetchReport:
    """Fetch every book into ``cache`` (already-present books are kept unless ``force``), and
    check each copy in the cache against the catalog's sha256 (``FetchReport.differs``).

    Never raises for one book's failure: it is recorded in the report and the next book is
    fetched (unless ``give_up_offline`` and a host could not be reached at all: then the rest are
    recorded as not tried). Raises :class:`OSError` only if the cache folder cannot be written.
    """
    cache.mkdir(parents=True, exist_ok=True)
    manifest_path = cache / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    report = FetchReport()
    with httpx.Client(timeout=timeout, follow_redirects=True) as client:
        for book in progress(books, len(books), "Fetching books"):
            dest = cache / f"{book.slug}.txt"
            if dest.exists() and not force:
                report.skipped.append(book.slug)
                digest = hashlib.sha256(dest.read_bytes()).hexdigest()
                if book.sha256 and digest != book.sha256:
                    report.differs[book.slug] = digest
                continue
            tmp = dest.with_name(f".{dest.name}.part")
            if give_up_offline and report.offline:
                report.failed[book.slug] = f"not tried: {report.offline}"
                continue
            try:
                if mirror is not None:
                    origin = mirror / f"{book.slug}.txt"
                    if not origin.is_file():
                        raise RuntimeError(f"{origin} not found in the mirror")
                    shutil.copyfile(origin, tmp)
                else:
                    origin = f"{url_base.rstrip('/')}/{book.slug}.txt" if url_base else book.download
                    _download(origin, tmp, client, retries, backoff)
                data = tmp.read_bytes()
                if not data.strip():
                    raise RuntimeError("received an empty file")
                os.replace(tmp, dest)
            except (RuntimeError, OSError) as e:
                tmp.unlink(missing_ok=True)
                report.failed[book.slug] = str(e)
                if isinstance(e, Offline):
                    report.offline = str(e)
                continue
            digest = hashlib.sha256(data).hexdigest()
            manifest[book.slug] = {
                "from": str(origin), "bytes": len(data), "sha256": digest,
                "catalogued_copy": digest == book.sha256,
            }
            report.fetched[book.slug] = str(origin)
            if book.sha256 and digest != book.sha256:
                report.differs[book.slug] = digest
    manifest_path.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return report
