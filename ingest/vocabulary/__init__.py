"""The card-law vocabulary, kept as data in this folder, and one loader a file.

| file | loader | what it holds |
|---|---|---|
| ``games.toml`` | :func:`games`, :func:`aliases`, :func:`families` | game slugs and names, other names of games, families |
| ``entities.toml`` | :func:`entities` | the entity taxonomy and the phrases that mention each entity |
| ``lemmas.toml`` | :func:`lemmas` | corrections to spaCy's lookup lemmas |
| ``situations.toml`` | :func:`situations`, :func:`remedies` | situations a law decides, remedies, and their cue phrases |
| ``search_terms.toml`` | :func:`search_terms` | modern words → the books' words |

Every loader reads its file through :func:`read_toml` and raises :class:`VocabularyError` (a
:class:`~ingest.models.CorpusError`) whose message names the file and the entry or field at fault.
Each file is read once per process (the loaders are cached); pass another folder to read a copy.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ..models import CorpusError, Entity

FOLDER = Path(__file__).resolve().parent


class VocabularyError(CorpusError):
    """A vocabulary file that cannot be used; the message names the file and the entry or field."""


def read_toml(path: Path) -> dict:
    """The TOML document at ``path``. Raises :class:`VocabularyError` naming the file when it is
    missing, unreadable or malformed."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise VocabularyError(f"{path}: cannot be read ({e.strerror})") from None
    except tomllib.TOMLDecodeError as e:
        raise VocabularyError(f"{path}: malformed TOML: {e}") from None


def _table(path: Path, data: dict, key: str, required: bool = True) -> dict:
    value = data.get(key, {} if not required else None)
    if not isinstance(value, dict):
        raise VocabularyError(f"{path}: [{key}] must be a table" if value is not None else f"{path}: lacks [{key}]")
    return value


def _entries(path: Path, data: dict, key: str, fields: tuple[str, ...]) -> list[dict]:
    """The ``[[key]]`` array of tables, each checked for ``fields`` and a unique ``id``."""
    out, seen = [], set()
    for i, entry in enumerate(data.get(key, []), start=1):
        for f in fields:
            if f not in entry:
                raise VocabularyError(f"{path}: {key}[{i}] ({entry.get('id', '?')}) lacks {f!r}")
        if entry["id"] in seen:
            raise VocabularyError(f"{path}: {key}[{i}]: duplicate id {entry['id']!r}")
        seen.add(entry["id"])
        out.append(entry)
    return out


# ---------------------------------------------------------------------------------- games.toml

@functools.cache
def _games_file(folder: Path) -> dict:
    path = folder / "games.toml"
    data = read_toml(path)
    names = _table(path, data, "games")
    for alias, slug in _table(path, data, "aliases", required=False).items():
        if slug not in names:
            raise VocabularyError(f"{path}: alias {alias!r} names unknown game {slug!r}")
    seen: dict[str, str] = {}
    for family, members in _table(path, data, "families", required=False).items():
        unknown = [g for g in members if g not in names]
        if unknown:
            raise VocabularyError(f"{path}: family {family!r} names unknown game(s) {', '.join(map(repr, unknown))}")
        for g in members:
            if g in seen:
                raise VocabularyError(f"{path}: game {g!r} is in two families ({seen[g]!r} and {family!r})")
            seen[g] = family
    known = {n.casefold() for n in [*names, *names.values(), *data.get("aliases", {})]}
    unknown = [n for n in data.get("everyday", {}).get("names", []) if n.casefold() not in known]
    if unknown:
        raise VocabularyError(f"{path}: [everyday] names {', '.join(map(repr, unknown))}: no game's name or alias")
    return data


def games(folder: Path = FOLDER) -> dict[str, str]:
    """Game slug → display name (``ecarte`` → ``Écarté``), from ``games.toml`` ``[games]``."""
    return dict(_games_file(folder)["games"])


def aliases(folder: Path = FOLDER) -> dict[str, str]:
    """Other names of games → their slugs (``auction`` → ``auction-bridge``), ``[aliases]``."""
    return dict(_games_file(folder).get("aliases", {}))


def everyday_names(folder: Path = FOLDER) -> frozenset[str]:
    """Game names that are also everyday words ("put", "hearts"), ``[everyday] names``: a query names
    the game by one only where it opens the query or follows a word of ``[everyday] before``
    ("at put", "in hearts"), not in "I put my cards down" or "no hearts left"."""
    return frozenset(_games_file(folder).get("everyday", {}).get("names", []))


def everyday_names_before(folder: Path = FOLDER) -> frozenset[str]:
    """The words after which an everyday game name (:func:`everyday_names`) names its game."""
    return frozenset(_games_file(folder).get("everyday", {}).get("before", []))


def families(folder: Path = FOLDER) -> dict[str, list[str]]:
    """Family slug → its games' slugs, ``[families]`` (a game in none is a family of its own, not
    listed here)."""
    return {k: list(v) for k, v in _games_file(folder).get("families", {}).items()}


def family_of(game: str, folder: Path = FOLDER) -> str:
    """The family of ``game``: the ``[families]`` entry listing it, else the game itself."""
    return next((f for f, members in families(folder).items() if game in members), game)


# ------------------------------------------------------------------------------- entities.toml

@dataclass(frozen=True)
class EntityEntry:
    """An entity of ``entities.toml`` with the phrases that mention it and the entities it yields
    to where their mentions overlap."""

    entity: Entity
    phrases: tuple[str, ...]
    yields_to: tuple[str, ...] = ()


@functools.cache
def entities(folder: Path = FOLDER) -> tuple[EntityEntry, ...]:
    """The entity taxonomy, in file order. Raises :class:`VocabularyError` for a missing field,
    a duplicate id or a ``yields_to`` naming no entity."""
    path = folder / "entities.toml"
    data = read_toml(path)
    out = []
    for e in _entries(path, data, "entity", ("id", "label", "kind", "definition", "phrases")):
        out.append(EntityEntry(Entity(e["id"], e["label"], e["kind"], e["definition"]),
                               tuple(e["phrases"]), tuple(e.get("yields_to", []))))
    ids = {e.entity.id for e in out}
    for e in out:
        for other in e.yields_to:
            if other not in ids:
                raise VocabularyError(f"{path}: entity {e.entity.id!r} yields_to unknown entity {other!r}")
    return tuple(out)


# --------------------------------------------------------------------------------- lemmas.toml

@functools.cache
def lemmas(folder: Path = FOLDER) -> dict[str, str]:
    """Word form → the lemma the tagger must use (``elder`` → ``elder``), ``[lemmas]``."""
    path = folder / "lemmas.toml"
    return dict(_table(path, read_toml(path), "lemmas", required=False))


# ----------------------------------------------------------------------------- situations.toml

@dataclass(frozen=True)
class SituationEntry:
    """A situation a law can decide (``corpus/annotations/README.md`` defines them): its id, label, definition and the
    cue phrases that propose it."""

    id: str
    label: str
    description: str
    cues: tuple[str, ...]
    asked: tuple[str, ...] = ()  # how a player asks about it, in modern words (search recognises these)


@functools.cache
def _situations_file(folder: Path) -> dict:
    return read_toml(folder / "situations.toml")


def situations(folder: Path = FOLDER) -> tuple[SituationEntry, ...]:
    """The situations, in file order. Raises :class:`VocabularyError` for a missing field or a
    duplicate id."""
    path = folder / "situations.toml"
    entries = _entries(path, _situations_file(folder), "situation", ("id", "label", "description", "cues"))
    return tuple(SituationEntry(s["id"], s["label"], s["description"], tuple(s["cues"]), tuple(s.get("asked", ())))
                 for s in entries)


def remedies(folder: Path = FOLDER) -> dict[str, tuple[str, ...]]:
    """Remedy id → its cue phrases, ``[remedies]``, in file order."""
    path = folder / "situations.toml"
    return {k: tuple(v) for k, v in _table(path, _situations_file(folder), "remedies", required=False).items()}


# --------------------------------------------------------------------------- search_terms.toml

@functools.cache
def search_terms(folder: Path = FOLDER) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``(modern word or phrase, the books' words)`` pairs of ``[expand]``, keys lower-cased, in
    file order (a key ending in ``*`` matches any word it begins)."""
    path = folder / "search_terms.toml"
    return tuple((k.lower(), tuple(v)) for k, v in _table(path, read_toml(path), "expand").items())
