"""Cite: find law citations in a text (a ruling, or a law itself) and resolve them to laws.

Shared by the build (the link stage resolves the citations inside laws and rulings) and the
query side (``cardlaws cite``, ``/-/cite``). One verb a module: :mod:`.find` finds citations,
:mod:`.resolve` resolves them; :mod:`.records` holds the typed records they pass.
"""

from .records import CitableCode, CitableLaw, CitableSource, Citation, Cited, Member, Resolution
from .resolve import MAX_TEXT_CHARS, Resolver

__all__ = ["MAX_TEXT_CHARS", "CitableCode", "CitableLaw", "CitableSource", "Citation", "Cited", "Member", "Resolution", "Resolver"]
