"""Cleaning on small texts made for the purpose: encodings, BOM, CRLF, dashes, Gutenberg markup,
hyphenated line breaks and page markers (no seed has most of these)."""

from __future__ import annotations

import pytest

from ingest.build.clean import clean_text, decode, find_page_markers
from ingest.models import CorpusError, Document, Source


def test_latin1_bytes_are_read_as_latin1():
    assert decode("Écarté: the elder hand".encode("latin-1"), "x.txt") == "Écarté: the elder hand"


def test_utf8_bom_is_dropped_and_crlf_kept():
    text = decode(b"\xef\xbb\xbf1. The dealer deals.\r\n2. The pone cuts.\r\n", "x.txt")
    assert text == "1. The dealer deals.\r\n2. The pone cuts.\r\n"


def test_nul_byte_is_a_binary_file_error_naming_file_and_line():
    with pytest.raises(CorpusError, match=r"book\.txt:2: binary file"):
        decode(b"1. A law.\n\x00\x01", "book.txt")


def test_empty_file_is_an_error():
    with pytest.raises(CorpusError, match=r"book\.txt: empty file"):
        decode(b"  \n\n", "book.txt")


def test_double_dash_becomes_em_dash_and_lines_join():
    assert clean_text("the fourth have\r\nless--than thirteen") == "the fourth have less—than thirteen"


def test_gutenberg_italic_and_bold_markup_removed():
    assert clean_text("that card may be _called_, if =Ties.= _As in\nBridge._") == (
        "that card may be called, if Ties. As in Bridge."
    )


def test_hyphenated_line_break_joined_only_for_a_word():
    assert clean_text("he may some-\nthing and re-\nvoke") == "he may something and revoke"
    assert clean_text("the trump-\ncard is turned") == "the trump-card is turned"


def test_word_known_from_the_document_is_joined():
    assert clean_text("the non-\ndealer", known_words=frozenset({"nondealer"})) == "the nondealer"
    assert clean_text("the non-\ndealer") == "the non-dealer"


def test_page_markers_removed_in_either_style():
    assert clean_text("made by a player {235} who has", "{N}") == "made by a player who has"
    assert clean_text("his stake, [49] if he", "[N]") == "his stake, if he"
    # where pages are {N}, [21] is a footnote reference: not a page, but not text either (the
    # footnote's text is attached to the law's note)
    assert clean_text("the stake [21] is", "{N}") == "the stake is"
    assert find_page_markers("the stake [21] is {12}", "{N}")[0].page == 12


def _doc(text: str, style: str) -> Document:
    src = Source(slug="t", path=None, title="t", sha256="", codes=(), page_marker=style)  # type: ignore[arg-type]
    return Document(source=src, text=text, page_markers=find_page_markers(text, style))


def test_pages_before_the_first_marker_are_on_the_page_before_it():
    doc = _doc("one {12} two {13} three", "{N}")
    assert doc.page_of(0) == 11
    assert doc.page_of(doc.text.index("two")) == 12
    assert doc.page_of(doc.text.index("three")) == 13


def test_no_markers_no_pages():
    assert _doc("1. A law.", "{N}").page_of(3) is None


def test_lines_count_from_one_with_crlf():
    doc = _doc("a\r\nb\r\nc", "{N}")
    assert [doc.line_of(doc.text.index(ch)) for ch in "abc"] == [1, 2, 3]
    assert doc.line_count == 3


def test_windows_1252_quotes_and_ellipsis_are_kept():
    assert decode(b"1. He says \x93pass\x94 \x96 and waits\x85", "x.txt") == "1. He says “pass” – and waits…"
