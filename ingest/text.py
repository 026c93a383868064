"""Text helpers shared by the build and the query side."""

from __future__ import annotations

import unicodedata


def fold(s: str) -> str:
    """``s`` with its accents removed, for matching names in any accent: ``Écarté`` → ``Ecarte``."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", s) if not unicodedata.combining(ch))
