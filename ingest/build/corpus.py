"""Find corpus texts and read their sidecars (the README's "Adding a text" lists the keys).

A source is ``NAME.txt`` with ``NAME.toml`` beside it. :func:`find_sources` walks corpus folders;
:func:`read_sidecar` validates one sidecar; every problem raises :class:`CorpusError` naming the
file and the field.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from pathlib import Path

from .. import vocabulary
from ..models import CodeSpec, CorpusError, Source
from ..text import line_count as count_lines
from ..text import normalise_value

SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
SOURCE_SLUG_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
PAGE_MARKERS = ("{N}", "[N]")

_TOP_KEYS = {
    "title": str,
    "author": str,
    "year": int,
    "url": str,
    "page_marker": str,
    "excerpt_of": str,
    "game": str,
    "codes": list,
    "sections": list,  # the old name of "codes", still read with a warning
}
_CODE_TYPES = {"authority": str, "year": int, "edition": str, "aliases": list, "family": str, "title": str}
_CODE_KEYS = {"game": str, "title": str, "start_line": int, "end_line": int, "slug": str,
              "authority": str, "year": int, "edition": str, "aliases": list, "family": str}


def check_code_record(c: dict, where: str) -> None:
    """Check what a catalog entry or sidecar says a code is (``authority``, ``year``, ``edition``,
    ``aliases``, ``family``). Raises :class:`CorpusError` naming ``where`` and the field: a wrong
    type, a year outside 1700–1950, an alias given twice, a family that ``games.toml`` does not
    know."""
    for key, typ in _CODE_TYPES.items():
        if key in c and not isinstance(c[key], typ) or (typ is int and isinstance(c.get(key), bool)):
            raise CorpusError(f"{where}: field {key!r} must be {typ.__name__}")
    if "year" in c and not 1700 <= c["year"] <= 1950:
        raise CorpusError(f"{where}: field 'year' = {c['year']} is not the year of a code (1700–1950)")
    aliases = c.get("aliases", [])
    if not all(isinstance(a, str) and a.strip() for a in aliases):
        raise CorpusError(f"{where}: field 'aliases' must be a list of names")
    folded = [" ".join(a.lower().split()) for a in aliases]
    dup = next((a for a, f in zip(aliases, folded) if folded.count(f) > 1), None)
    if dup:
        raise CorpusError(f"{where}: field 'aliases' names {dup!r} twice")
    known = set(vocabulary.families()) | set(vocabulary.games())
    if "family" in c and c["family"] not in known:
        raise CorpusError(f"{where}: field 'family' = {c['family']!r} is not a family in ingest/vocabulary/games.toml "
                          f"(families: {', '.join(sorted(vocabulary.families()))}, or a game)")


def check_aliases_per_game(codes: list[CodeSpec], where: str) -> None:
    """Raise :class:`CorpusError` (naming ``where``) when one alias names two codes of one game in a
    book: a citation by that name could not tell them apart."""
    seen: dict[tuple[str, str], str] = {}
    for code in codes:
        for alias in code.aliases:
            key = (code.game, " ".join(alias.lower().split()))
            if key in seen and seen[key] != code.slug:
                raise CorpusError(f"{where}: alias {alias!r} names two {code.game} codes ({seen[key]!r} and {code.slug!r})")
            seen[key] = code.slug


def find_texts(corpus_dirs: list[Path]) -> list[Path]:
    """Every ``*.txt`` below each folder (recursively), sorted, without duplicates.

    Raises :class:`CorpusError` if a folder does not exist.
    """
    seen: dict[Path, None] = {}
    for d in corpus_dirs:
        if not d.is_dir():
            raise CorpusError(f"{d}: corpus folder not found")
        for p in sorted(d.rglob("*.txt")):
            if p.is_file():
                seen.setdefault(p.resolve(), None)
    return list(seen)


def _check_type(path: Path, where: str, key: str, value: object, typ: type) -> None:
    ok = isinstance(value, typ) and not (typ is int and isinstance(value, bool))
    if not ok:
        raise CorpusError(
            f"{path}: field {where}{key!r} must be {typ.__name__}, not {type(value).__name__}"
        )


def _check_game(path: Path, where: str, game: str) -> None:
    if not SLUG_RE.match(game):
        raise CorpusError(
            f"{path}: field {where}'game' = {game!r} is not a game slug "
            "(lower-case ASCII letters, digits and hyphens, e.g. 'ecarte', 'auction-bridge')"
        )


def _normalised(value: object) -> object:
    """Every string in a parsed sidecar as :func:`~ingest.text.normalise_value` makes it."""
    if isinstance(value, str):
        return normalise_value(value)
    if isinstance(value, list):
        return [_normalised(v) for v in value]
    if isinstance(value, dict):
        return {k: _normalised(v) for k, v in value.items()}
    return value


def read_sidecar(text_path: Path, data: bytes | None = None, warnings: list[str] | None = None) -> Source:
    """Read and validate the sidecar of ``text_path`` (``NAME.toml`` beside ``NAME.txt``).

    ``data`` is the text file's bytes (read from disk when ``None``), used for the checksum and
    the line-range check. Returns a :class:`Source`; a deprecated key (``[[sections]]``, now
    ``[[codes]]``) adds a line to ``warnings``.

    Raises :class:`CorpusError` for: a missing sidecar; malformed TOML (with its line); an unknown
    key; a missing ``title``; a wrong type; neither or both of ``game`` and ``codes``; a bad game
    slug or page marker; a code whose lines fall outside the file or overlap another.
    """
    sidecar = text_path.with_suffix(".toml")
    if not sidecar.is_file():
        raise CorpusError(
            f"{text_path}: no sidecar; create {sidecar.name} beside it with at least "
            "'title' and 'game' (see 'Adding a text' in the README)"
        )
    try:
        meta = _normalised(tomllib.loads(normalise_value(sidecar.read_bytes().decode("utf-8-sig"))))
    except tomllib.TOMLDecodeError as e:
        raise CorpusError(f"{sidecar}: malformed TOML: {e}") from None
    except UnicodeDecodeError as e:
        raise CorpusError(f"{sidecar}: not UTF-8 ({e.reason} at byte {e.start})") from None
    except OSError as e:
        raise CorpusError(f"{sidecar}: cannot be read ({e.strerror})") from None

    for key, value in meta.items():
        if key not in _TOP_KEYS:
            raise CorpusError(
                f"{sidecar}: unknown key {key!r} (known: {', '.join(sorted(_TOP_KEYS))})"
            )
        _check_type(sidecar, "", key, value, _TOP_KEYS[key])
    if "url" in meta and not re.match(r"https?://", meta["url"]):
        raise CorpusError(f"{sidecar}: field 'url' must be an http:// or https:// address")
    if "year" in meta and not 1000 <= meta["year"] <= 2100:
        raise CorpusError(f"{sidecar}: field 'year' = {meta['year']} is not a year")
    if "title" not in meta or not meta["title"].strip():
        raise CorpusError(f"{sidecar}: field 'title' is required")
    page_marker = meta.get("page_marker", "{N}")
    if page_marker not in PAGE_MARKERS:
        raise CorpusError(
            f"{sidecar}: field 'page_marker' = {page_marker!r} must be \"{{N}}\" or \"[N]\""
        )
    codes_key = "codes"
    if "sections" in meta:
        if "codes" in meta:
            raise CorpusError(f"{sidecar}: give [[codes]] only ([[sections]] is its old name)")
        codes_key = "sections"
        meta["codes"] = meta.pop("sections")
        if warnings is not None:
            warnings.append(f"{sidecar}: [[sections]] is deprecated; call the tables [[codes]] (read as codes)")
    if ("game" in meta) == ("codes" in meta):
        raise CorpusError(
            f"{sidecar}: give either 'game' (the whole file is one game's laws) or "
            "[[codes]] tables (one per code of laws), not "
            + ("both" if "game" in meta else "neither")
        )

    if data is None:
        data = text_path.read_bytes()
    line_count = count_lines(data.decode("utf-8", errors="replace"))

    codes: list[CodeSpec] = []
    if "game" in meta:
        _check_game(sidecar, "", meta["game"])
        codes.append(CodeSpec(slug=meta["game"], game=meta["game"]))
    else:
        codes = _read_codes(sidecar, meta["codes"], line_count, codes_key)

    slug = text_path.stem
    if not SOURCE_SLUG_RE.match(slug):
        raise CorpusError(
            f"{text_path}: the file name must be URL-safe (letters, digits, '-', '_', '.') "
            "since it becomes part of every law id"
        )
    return Source(
        slug=slug,
        path=text_path,
        title=meta["title"].strip(),
        sha256=hashlib.sha256(data).hexdigest(),
        codes=tuple(codes),
        author=meta.get("author"),
        year=meta.get("year"),
        url=meta.get("url"),
        page_marker=page_marker,
        excerpt_of=meta.get("excerpt_of"),
        kind="excerpt" if meta.get("excerpt_of") else "laws",
    )


def _read_codes(sidecar: Path, tables: list, line_count: int, name: str = "codes") -> list[CodeSpec]:
    """The ``[[codes]]`` tables (``name`` is what the sidecar calls them, for its messages)."""
    if not tables:
        raise CorpusError(f"{sidecar}: [[{name}]] is empty")
    codes: list[CodeSpec] = []
    used: dict[str, int] = {}
    for i, sec in enumerate(tables, start=1):
        where = f"{name}[{i}]."
        if not isinstance(sec, dict):
            raise CorpusError(f"{sidecar}: {name}[{i}] must be a table ([[{name}]])")
        for key, value in sec.items():
            if key not in _CODE_KEYS:
                raise CorpusError(
                    f"{sidecar}: unknown key {where}{key} "
                    f"(known: {', '.join(sorted(_CODE_KEYS))})"
                )
            _check_type(sidecar, where, key, value, _CODE_KEYS[key])
        for key in ("game", "start_line", "end_line"):
            if key not in sec:
                raise CorpusError(f"{sidecar}: field {where}{key} is required")
        _check_game(sidecar, where, sec["game"])
        start, end = sec["start_line"], sec["end_line"]
        if not 1 <= start <= end <= line_count:
            raise CorpusError(
                f"{sidecar}: {where[:-1]} lines {start}–{end} fall outside the file "
                f"({line_count} lines) or end before they start"
            )
        for other in codes:
            if other.start_line <= end and start <= other.end_line:
                raise CorpusError(
                    f"{sidecar}: {where[:-1]} lines {start}–{end} overlap the code "
                    f"{other.slug!r} at lines {other.start_line}–{other.end_line}"
                )
        base = slug = sec.get("slug") or sec["game"]
        n = 1
        while slug in used:
            n += 1
            slug = f"{base}-{n}"
        used[slug] = 1
        if not SLUG_RE.match(slug):
            raise CorpusError(f"{sidecar}: field {where}slug = {slug!r} is not a slug")
        check_code_record(sec, f"{sidecar}: {where[:-1]}")
        codes.append(CodeSpec(slug, sec["game"], sec.get("title"), start, end, authority=sec.get("authority"),
                              year=sec.get("year"), edition=sec.get("edition"),
                              aliases=tuple(sec.get("aliases", ())), family=sec.get("family")))
    check_aliases_per_game(codes, str(sidecar))
    return codes
