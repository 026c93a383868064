"""Clean: bytes → :class:`Document`, and a raw span → readable text.

- :func:`decode` reads each line as UTF-8 (BOM dropped), or as Windows-1252 where a line is not
  valid UTF-8 (with a warning naming the file and the lines); NFC; a bare ``\r``, U+2028 and
  U+2029 end lines as ``\n`` does (:func:`ingest.text.unify_line_ends`); NUL bytes and empty files
  are errors.
- :func:`find_page_markers` finds printed page numbers, ``{235}`` or ``[48]`` as the sidecar's
  ``page_marker`` says; other bracketed numbers are footnote references.
- :func:`clean_text` turns an exact source span into the words a reader wants: page markers and
  footnote references removed, Gutenberg ``_italic_``/``=bold=`` and Markdown ``**bold**`` and
  ``[link](target)`` markup removed, ``--`` as an em dash, words broken
  at a line-end hyphen joined again, lines joined with single spaces, soft hyphens and zero-width
  characters removed and compatibility letters folded (:func:`ingest.text.normalise`).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from pathlib import Path

from ..models import CorpusError, Document, PageMarker, Source
from ..text import decode_lines, normalise, strip_invisible, unify_line_ends

_MARKER_RE = {
    "{N}": re.compile(r"\{(\d{1,4})\}"),
    "[N]": re.compile(r"\[(\d{1,4})\]"),
}
_ITALIC_RE = re.compile(r"(?<![A-Za-z])_(?=\S)([^_]*?\S)_(?![A-Za-z])")
_BOLD_RE = re.compile(r"(?<![=A-Za-z0-9])=(?=\S)([^=]*?\S)=(?![=A-Za-z0-9])")
_HYPHEN_BREAK_RE = re.compile(r"([A-Za-z]+)-[ \t]*\r?\n[ \t]*([a-z]+)")
_SPACES_RE = re.compile(r"\s+")
_MD_BOLD_RE = re.compile(r"\*\*(\S(?:[^*]*?\S)?)\*\*")
_MD_LINK_RE = re.compile(r"\[([^\]\n]+)\]\([^)\s]+\)")
_STRAY_MARKUP_RE = re.compile(r"=_|_=")
_FOOTNOTE_REF_RE = re.compile(r"\[(\d{1,3})\]")
_SPACE_BEFORE_PUNCT_RE = re.compile(r" ([,;:.!?])")


def decode(data: bytes, path: object, warnings: list[str] | None = None) -> str:
    """Decode a corpus file's bytes; ``path`` is only used in messages.

    Each line is read as UTF-8 (a leading BOM is removed); a line that is not valid UTF-8 is read
    as Windows-1252 (Latin-1 plus curly quotes, dashes and "…" at 0x80–0x9F; Latin-1 for the five
    bytes Windows-1252 leaves undefined), and named in a line added to ``warnings`` (file and
    line), never silently. The text is NFC; a bare ``\r``, U+2028 and U+2029 become ``\n``
    (``\r\n`` is kept), so offsets map back to the file's lines as a text editor numbers them.

    Raises :class:`CorpusError` for an empty (or whitespace-only) file and for a binary file
    (one with a NUL byte, reported with its line).
    """
    if b"\x00" in data:
        line = len(re.findall(rb"\r\n|\r|\n", data[: data.index(b"\x00")])) + 1
        raise CorpusError(f"{path}:{line}: binary file (NUL byte); a corpus text must be plain text")
    text, cp1252_lines = decode_lines(data)
    if cp1252_lines and warnings is not None:
        shown = ", ".join(map(str, cp1252_lines[:5]))
        more = f" and {len(cp1252_lines) - 5} more" if len(cp1252_lines) > 5 else ""
        where = f"{path}:{cp1252_lines[0]}" if len(cp1252_lines) == 1 else f"{path}: lines {shown}{more}"
        warnings.append(f"{where}: not valid UTF-8; read as Windows-1252 (save the file as UTF-8 to silence this)")
    text = unicodedata.normalize("NFC", unify_line_ends(text.removeprefix("\ufeff")))
    if not strip_invisible(text).strip():
        raise CorpusError(f"{path}: empty file")
    return text


def find_page_markers(text: str, style: str) -> list[PageMarker]:
    """Page markers in ``text`` for ``style`` ``"{N}"`` or ``"[N]"``, in order of offset."""
    return [PageMarker(m.start(), m.end(), int(m.group(1))) for m in _MARKER_RE[style].finditer(text)]


def read_document(source: Source, data: bytes, warnings: list[str] | None = None) -> Document:
    """Decode ``data`` (the bytes of ``source.path``) and locate its page markers; lines read as
    Windows-1252 add to ``warnings``."""
    text = decode(data, source.path, warnings)
    return Document(source=source, text=text, page_markers=find_page_markers(text, source.page_marker))


@functools.cache
def english_words() -> frozenset[str]:
    """Lower-case English words from ``spacy-lookups-data``: the lemma index, the lookup lemmas,
    and the lexeme-probability table's words more common than e^-20 (``misdeal`` is about e^-19.5).
    Loaded once, on the first line-end hyphen that needs judging (about 2 s)."""
    import spacy_lookups_data
    import srsly

    def table(name: str) -> dict:
        path = Path(spacy_lookups_data.en[name])
        gz = path.with_name(path.name + ".gz")
        return srsly.read_gzip_json(gz) if gz.exists() else srsly.read_json(path)

    words: set[str] = set()
    for pos_words in table("lemma_index").values():
        words.update(pos_words)
    words.update(v.lower() for v in table("lemma_lookup").values())
    probs = table("lexeme_prob")
    words.update(w for w, p in probs.items() if p > -20 and w.isalpha() and w.islower())
    return frozenset(words)


_WORD_RE = re.compile(r"[A-Za-z]+")


def words_of(text: str) -> frozenset[str]:
    """The lower-case words of a text (to recognise a word broken at a line end)."""
    return frozenset(w.lower() for w in _WORD_RE.findall(text))


def clean_text(raw: str, page_marker: str = "{N}", known_words: frozenset[str] = frozenset()) -> str:
    """Readable text of an exact source span.

    A word hyphenated across a line break is joined when the joined word is an English word or one
    of ``known_words`` (pass the document's own words, :func:`words_of`): ``some-\\nthing`` →
    ``something``; it keeps its hyphen otherwise: ``trump-\\ncard`` → ``trump-card``.
    Returns a single line with no leading or trailing spaces.
    """

    def join(m: re.Match) -> str:
        left, right = m.group(1), m.group(2)
        joined = (left + right).lower()
        if joined in known_words or joined in english_words():
            return left + right
        return f"{left}-{right}"

    text = _MARKER_RE[page_marker].sub(" ", strip_invisible(unify_line_ends(raw)))
    if page_marker == "{N}":  # then [21] is a footnote reference; its text goes to the note
        text = _FOOTNOTE_REF_RE.sub("", text)
    text = _MD_LINK_RE.sub(r"\1", text)
    text = _MD_BOLD_RE.sub(r"\1", text)
    text = _HYPHEN_BREAK_RE.sub(join, text)
    text = _BOLD_RE.sub(r"\1", text)
    text = _ITALIC_RE.sub(r"\1", text)
    text = _STRAY_MARKUP_RE.sub("", text)
    text = text.replace("--", "—")
    text = _SPACES_RE.sub(" ", normalise(text)).strip()
    return _SPACE_BEFORE_PUNCT_RE.sub(r"\1", text)
