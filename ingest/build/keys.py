"""Keys: the part of a kept stage's key that is the project's own code.

A stage whose output a rebuild may take back from the previous database (the tagging,
:mod:`.tagging`; the citations, :mod:`.citing`) keys it by a sha256 of what it read, including the
source of the modules that decide its output, so that editing one of them redoes the stage.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import util
from pathlib import Path


def hash_sources(h, modules: Iterable[str]) -> None:
    """Add each module's file name and source to the hash ``h`` (a ``hashlib`` object), in the
    order given. The files are found without importing the modules (importing ``ingest.tag``
    imports spaCy). Raises ``AttributeError`` for a module that cannot be found."""
    for path in (Path(util.find_spec(m).origin) for m in modules):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
