"""Text helpers shared by the build and the query side, and the one normalisation every text that
enters the project goes through (corpus files, sidecars, queries, citations, URL parameters):

- :func:`unify_line_ends`: a bare ``\\r``, U+2028 and U+2029 become ``\\n`` (``\\r\\n`` is kept),
  one character for one, so offsets do not move and a line is what a text editor calls one (a form
  feed or U+0085 is not a line end);
- :func:`decode_lines`: bytes → text, each line UTF-8, or Windows-1252 where it is not valid UTF-8
  (and the lines so read are reported);
- :func:`normalise`: what the project matches on: NFC, soft hyphens and zero-width characters
  removed (a soft hyphen at a line end joins the word), compatibility letters folded (``ﬁ`` →
  ``fi``, ``ſ`` → ``s``, full-width ``Ａ`` → ``A``);
- :func:`normalise_with_offsets`: the same, with a map from each character of the result back to
  the text given, so offsets found in the normalised text point into the original;
- :func:`normalise_value`: a name, title or parameter: NFC, invisible characters removed, lines
  unified, nothing folded.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

# soft hyphen, zero-width space, non-joiner and joiner, word joiner, BOM / zero-width no-break
# space, Mongolian vowel separator: characters that print as nothing
INVISIBLE = "\u00ad\u200b\u200c\u200d\u2060\ufeff\u180e"
_INVISIBLE_RE = re.compile(f"[{INVISIBLE}]")
_SOFT_HYPHEN_BREAK_RE = re.compile(r"\u00ad[ \t]*(?:\r\n|\n)[ \t]*")
_OTHER_LINE_END_RE = re.compile(r"\r(?!\n)|[\u2028\u2029]")
_LINE_END_BYTES_RE = re.compile(rb"(\r\n|\r|\n|\xe2\x80\xa8|\xe2\x80\xa9)")  # U+2028, U+2029 as UTF-8


class _NotCombining(dict):
    """A ``str.translate`` table that drops combining marks (``unicodedata.combining``), filled as
    characters are met: one table look-up a character, not a Python call."""

    def __missing__(self, code: int) -> int | None:
        kept = None if unicodedata.combining(chr(code)) else code
        self[code] = kept
        return kept


_DROP_COMBINING = _NotCombining()


def fold(s: str) -> str:
    """``s`` with its accents removed, for matching names in any accent: ``Écarté`` → ``Ecarte``
    (NFKD, then every combining mark dropped; ASCII is returned as it is, NFKD leaving it so)."""
    if s.isascii():
        return s
    return unicodedata.normalize("NFKD", s).translate(_DROP_COMBINING)


def unify_line_ends(text: str) -> str:
    """``text`` with each bare ``\\r``, U+2028 and U+2029 replaced by ``\\n`` (``\\r\\n`` kept):
    one character for one, so every offset stays where it was, and counting ``\\n`` counts the
    lines a text editor shows. A form feed and U+0085 are left as they are (not line ends)."""
    return _OTHER_LINE_END_RE.sub("\n", text)


def line_count(text: str) -> int:
    """Lines of ``text`` as a text editor counts them (line ends ``\\n``, ``\\r\\n``, ``\\r``,
    U+2028, U+2029), a last line without its end included; 0 for an empty text."""
    text = unify_line_ends(text)
    return text.count("\n") + (0 if text.endswith("\n") or not text else 1)


@functools.cache
def _folded(ch: str) -> str:
    """A compatibility letter as the letters it prints as (``ﬁ`` → ``fi``); any other character
    as it is. Only letters whose compatibility form is all letters fold: ``½``, ``²`` and ``™``
    stay."""
    if not unicodedata.category(ch).startswith("L"):
        return ch
    nfkc = unicodedata.normalize("NFKC", ch)
    if nfkc != ch and all(unicodedata.category(c).startswith(("L", "M")) for c in nfkc):
        return nfkc
    return ch


def fold_letters(text: str) -> str:
    """``text`` with compatibility letters (ligatures, long s, full-width and styled letters)
    written as plain letters."""
    if text.isascii():
        return text
    return "".join(_folded(ch) for ch in text)


def strip_invisible(text: str) -> str:
    """``text`` without soft hyphens and zero-width characters; a soft hyphen ending a line joins
    the word across it (``dea\\u00ad\\nler`` → ``dealer``)."""
    return _INVISIBLE_RE.sub("", _SOFT_HYPHEN_BREAK_RE.sub("", text))


def normalise(text: str) -> str:
    """The form the project matches on: lines unified, invisible characters removed,
    compatibility letters folded, NFC. Idempotent."""
    return unicodedata.normalize("NFC", fold_letters(strip_invisible(unify_line_ends(text))))


def normalise_value(text: str) -> str:
    """A name, title or parameter as it enters: lines unified, invisible characters removed,
    NFC, and nothing folded (a title keeps its ligatures as printed)."""
    return unicodedata.normalize("NFC", strip_invisible(unify_line_ends(text)))


@dataclass(frozen=True)
class Normalised:
    """:func:`normalise` of ``original``, as ``text``, with ``starts[i]`` the offset in
    ``original`` of the character ``text[i]`` came from (``starts[len(text)] == len(original)``)."""

    original: str
    text: str
    starts: tuple[int, ...]

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The span of ``original`` that ``text[start:end]`` came from (half-open offsets)."""
        if end <= start:
            return self.starts[start], self.starts[start]
        return self.starts[start], self.starts[end]


def normalise_with_offsets(text: str) -> Normalised:
    """:func:`normalise` with the map back to ``text`` (see :class:`Normalised`). A character
    removed (a soft hyphen) belongs to no span unless it lies inside one; a folded ligature's
    letters all map to the ligature; characters NFC composes map to the first of them."""
    if normalise(text) == text:
        return Normalised(text, text, tuple(range(len(text) + 1)))
    text_u = unify_line_ends(text)
    chars: list[str] = []
    starts: list[int] = []
    i = 0
    while i < len(text_u):
        m = _SOFT_HYPHEN_BREAK_RE.match(text_u, i)
        if m:
            i = m.end()
            continue
        ch = text_u[i]
        if ch not in INVISIBLE:
            for c in _folded(ch):
                chars.append(c)
                starts.append(i)
        i += 1
    # NFC by runs: a run is extended while composing it with the next character changes the result
    out: list[str] = []
    out_starts: list[int] = []
    run_start = 0
    for k in range(1, len(chars) + 1):
        if k < len(chars):
            run, nxt = "".join(chars[run_start:k]), chars[k]
            nfc = unicodedata.normalize
            if unicodedata.combining(nxt) or nfc("NFC", run + nxt) != nfc("NFC", run) + nfc("NFC", nxt):
                continue
        composed = unicodedata.normalize("NFC", "".join(chars[run_start:k]))
        out.append(composed)
        out_starts += [starts[run_start]] * len(composed)
        run_start = k
    result = "".join(out)
    return Normalised(text, result, (*out_starts, len(text)))


def decode_lines(data: bytes) -> tuple[str, list[int]]:
    """Decode ``data`` line by line: each line as UTF-8, or, where it is not valid UTF-8, as
    Windows-1252 (Latin-1 for the five bytes Windows-1252 leaves undefined). Returns the text
    (line ends as they are) and the 1-based numbers of the lines read as Windows-1252, counted as
    a text editor counts them."""
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError:
        pass
    parts = _LINE_END_BYTES_RE.split(data)
    out: list[str] = []
    bad: list[int] = []
    line = 1
    for k, part in enumerate(parts):
        if k % 2:  # a line end
            out.append(part.decode("utf-8"))
            line += 1
            continue
        try:
            chunk = part.decode("utf-8")
        except UnicodeDecodeError:
            chunk = "".join(_cp1252(bytes([b])) for b in part) if part else ""
            bad.append(line)
        out.append(chunk)
    return "".join(out), bad


def _cp1252(b: bytes) -> str:
    try:
        return b.decode("cp1252")
    except UnicodeDecodeError:
        return b.decode("latin-1")


@functools.lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """A light stem of a lower-case word: a plural, ``-ed`` or ``-ing`` and then a final ``e`` taken
    off (``revoke``, ``revokes``, ``revoked``, ``revoking`` → ``revok``; ``parties`` → ``party``)."""
    if word.endswith("ing") and len(word) > 5:
        word = word[:-3]
    elif word.endswith("ed") and len(word) > 4:
        word = word[:-2]
    elif word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith(("ses", "xes", "zes", "ches", "shes")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        word = word[:-1]
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


_LETTERS = re.compile(r"[^\W\d_]+")


def letter_words(text: str) -> list[str]:
    """The words of ``text`` as runs of letters (digits and punctuation split them), accents
    folded, lower case: what the build compares laws by (:func:`ingest.build.link.word_vectors`)
    and counts as the books' words (:mod:`ingest.build.words`)."""
    return _LETTERS.findall(fold(text).lower())
