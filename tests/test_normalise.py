"""One normalisation for every text that enters: soft hyphens and zero-width characters, ligatures,
decomposed accents, every kind of line end, Windows-1252 lines in a UTF-8 file. The examples are
made by hand; the property tests generate texts with all of these at once and check that no law,
word, line number or offset is lost or shifted."""

from __future__ import annotations

import hashlib
import re
import sqlite3
import unicodedata
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ingest.build.clean import decode
from ingest.build.pipeline import build
from ingest.build.segment import segment, uncovered
from ingest.models import CodeSpec, Document, Source
from ingest.text import decode_lines, fold_letters, line_count, normalise, normalise_with_offsets, unify_line_ends

SHY, ZWSP, ZWJ, WJ, BOM = "\u00ad", "\u200b", "\u200d", "\u2060", "\ufeff"


def test_soft_hyphens_are_removed_from_text_and_kept_in_raw_text(tmp_path, tagger, write_source):
    law = f"1. If the dea{SHY}ler exposes a card, the el{SHY}der hand may claim a mis{SHY}deal.\n2. The pone cuts.\n"
    write_source(tmp_path / "c", "shy", law, 'title = "Soft"\ngame = "ecarte"\n')
    build([tmp_path / "c"], tmp_path / "x.db", tagger=tagger, embed=False)
    conn = sqlite3.connect(tmp_path / "x.db")
    text, raw, entities = conn.execute("select text, raw_text, entities from laws where number = '1'").fetchone()
    assert text == "If the dealer exposes a card, the elder hand may claim a misdeal."
    assert raw.count(SHY) == 3 and raw.startswith("1. If the dea\u00adler")
    for entity in ("dealer", "elder_hand", "misdeal"):
        assert f'"{entity}"' in entities
    hits = conn.execute("select l.number from laws_fts join laws l on l.rowid = laws_fts.rowid "
                        "where laws_fts match 'dealer'").fetchall()
    assert hits == [("1",)]


def test_ligatures_are_folded_in_text_and_kept_in_raw_text():
    assert fold_letters("the \ufb06ock, \ufb01ve \ufb02ush, \u017fhall, \uff21") == "the stock, five flush, shall, A"
    assert fold_letters("\u00bd \u00b2 \u2122") == "\u00bd \u00b2 \u2122"  # not letters: kept


def test_a_file_with_bare_carriage_returns_is_one_law_a_line(tmp_path, tagger, write_source):
    data = b"1. The dealer deals.\r2. The pone cuts.\r3. A misdeal.\r"
    write_source(tmp_path / "c", "mac", data, 'title = "Old Mac"\ngame = "ecarte"\n')
    report = build([tmp_path / "c"], tmp_path / "x.db", tagger=tagger, embed=False)
    rows = sqlite3.connect(tmp_path / "x.db").execute(
        "select number, text, line_start, line_end from laws order by ordinal").fetchall()
    assert rows == [("1", "The dealer deals.", 1, 1), ("2", "The pone cuts.", 2, 2), ("3", "A misdeal.", 3, 3)]
    assert report.warnings == []


def test_line_ends_are_those_of_a_text_editor():
    text = "a\nb\r\nc\rd\u2028e\u2029f\x0cstill f\x85still f\n"
    assert line_count(text) == 6
    assert unify_line_ends(text) == "a\nb\r\nc\nd\ne\nf\x0cstill f\x85still f\n"
    assert len(unify_line_ends(text)) == len(text)  # one character for one: offsets do not move


def test_a_windows_1252_line_is_read_as_such_and_named_in_a_warning():
    data = "1. Écarté: the dealer.\n2. The “pone” cuts.\n".encode() + "3. Café — élder hand.\n".encode("cp1252")
    warnings: list[str] = []
    text = decode(data, "book.txt", warnings)
    assert text == "1. Écarté: the dealer.\n2. The “pone” cuts.\n3. Café — élder hand.\n"
    assert warnings == ["book.txt:3: not valid UTF-8; read as Windows-1252 (save the file as UTF-8 to silence this)"]
    assert decode_lines(b"ok\n\x81\x8d\n") == ("ok\n\x81\x8d\n", [2])  # undefined in cp1252: Latin-1


def test_a_sidecar_is_normalised(tmp_path, tagger, write_source):
    title = unicodedata.normalize("NFD", f"Hoyle{SHY}'s Écarté")
    write_source(tmp_path / "c", "side", "1. The dealer deals.\n", f'title = "{title}"\r\ngame = "ecarte"\r\n')
    build([tmp_path / "c"], tmp_path / "x.db", tagger=tagger, embed=False)
    (got,) = sqlite3.connect(tmp_path / "x.db").execute("select title from sources").fetchone()
    assert got == "Hoyle's Écarté" and unicodedata.is_normalized("NFC", got)


def test_queries_are_normalised(books_conn, books_db):
    from ingest.query.search import Searcher

    searcher = Searcher(books_db.db_path)
    plain = [h.id for h in searcher.search("misdeal exposed card", mode="lexical", limit=5)]
    odd = [h.id for h in searcher.search(f"mis{SHY}deal ex{ZWSP}posed c{WJ}ard", mode="lexical", limit=5)]
    assert odd == plain and plain


def test_citation_offsets_point_into_the_text_as_given(seed_db):
    from ingest.query.cite import resolver_for

    resolver = resolver_for(seed_db)
    text = f"As {BOM}decided: under E\u0301carte\u0301 law 3{SHY}1 the non-dealer wins."
    (res,) = resolver.cite(text)
    assert text[res.citation.start : res.citation.end] == res.citation.text
    assert normalise(res.citation.text) == "Écarté law 31"
    (plain,) = resolver.cite("As decided: under Écarté law 31 the non-dealer wins.")
    assert res.laws == plain.laws and res.status == plain.status


# ---------------------------------------------------------------- properties

WORDS = ["the", "dealer", "elder", "hand", "misdeal", "stock", "deal", "again", "card", "exposed", "trump",
         "écarté", "partner", "shall", "pack", "revoke", "stake", "first", "flush", "offer", "younger", "cut"]
LIGATURES = {"st": "\ufb06", "fi": "\ufb01", "fl": "\ufb02", "ff": "\ufb00"}
LINE_ENDS = ["\n", "\r\n", "\r", "\u2028", "\u2029"]


@st.composite
def odd_word(draw, cp1252: bool):
    """A word as printed with oddities, and the word itself."""
    word = draw(st.sampled_from(WORDS))
    printed = word
    if not cp1252:
        for pair, lig in LIGATURES.items():
            if pair in printed and draw(st.booleans()):
                printed = printed.replace(pair, lig, 1)
        if draw(st.booleans()):
            printed = unicodedata.normalize("NFD", printed)
    if len(printed) > 2 and draw(st.booleans()):
        i = draw(st.integers(1, len(printed) - 1))
        if not unicodedata.combining(printed[i]):
            invisible = SHY if cp1252 else draw(st.sampled_from([SHY, ZWSP, ZWJ, WJ, BOM]))
            printed = printed[:i] + invisible + printed[i:]
    return printed, word


@st.composite
def odd_book(draw):
    """``(bytes, laws, cp1252 lines)``: numbered laws on lines ended in every way, some lines in
    Windows-1252; ``laws`` is ``(number, clean text, first line, soft hyphens, ligatures)``."""
    lines: list[tuple[str, bool]] = []  # (content, cp1252), each followed by a line end
    ends: list[str] = []
    laws = []
    for number in range(1, draw(st.integers(1, 6)) + 1):
        first_line = len(lines) + 1
        cp = draw(st.booleans())
        content, words, shy, lig = f"{number}.", [], 0, 0
        for _ in range(draw(st.integers(2, 9))):
            printed, word = draw(odd_word(cp))
            seps = [" ", " ", " ", "\x0c", "line"] + ([] if cp else ["\x85"])  # U+0085 has no Windows-1252 byte
            sep = draw(st.sampled_from(seps)) if words else " "
            if sep == "line":  # the law goes on on a new line, perhaps of another encoding
                lines.append((content, cp))
                ends.append(draw(st.sampled_from(LINE_ENDS)))
                cp = draw(st.booleans())
                content, sep = "", ""
                printed, word = draw(odd_word(cp))
            content += sep + printed
            words.append(word)
            shy += printed.count(SHY)
            lig += sum(printed.count(c) for c in LIGATURES.values())
        lines.append((content + ".", cp))
        ends.append(draw(st.sampled_from(LINE_ENDS)))
        laws.append((str(number), " ".join(words) + ".", first_line, shy, lig))
    data = b"".join((c.encode("cp1252") if cp else c.encode()) + e.encode() for (c, cp), e in zip(lines, ends))
    cp1252_lines = [i for i, (c, cp) in enumerate(lines, start=1) if cp and not c.isascii()]
    return data, laws, cp1252_lines


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(odd_book())
def test_no_law_word_line_or_offset_is_lost_or_shifted(tagger, book):
    data, laws, cp1252_lines = book
    warnings: list[str] = []
    text = decode(data, "odd.txt", warnings)
    source = Source("odd", Path("odd.txt"), "Odd", hashlib.sha256(data).hexdigest(), (CodeSpec("ecarte", "ecarte"),))
    doc = Document(source, text)
    seg = segment(doc, source.codes[0])
    assert uncovered(doc, seg) == []
    assert [(law.number, law.text, law.line_start) for law in seg.laws] == [(n, t, line) for n, t, line, _, _ in laws]
    for law, (_, _, _, shy, lig) in zip(seg.laws, laws):
        assert law.raw_text.count(SHY) == shy  # raw_text keeps the text as printed
        assert sum(law.raw_text.count(c) for c in LIGATURES.values()) == lig
        for m in tagger.mentions(tagger.nlp(law.text)):  # offsets into the clean text
            assert law.text[m.start : m.end] == m.text
    assert doc.line_count == len(re.findall(r"\n", unify_line_ends(text)))
    if cp1252_lines:
        shown = cp1252_lines[:5]
        assert len(warnings) == 1 and all(str(n) in warnings[0] for n in shown)
    else:
        assert warnings == []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(WORDS), st.sampled_from([" ", "\n", "\r", "\r\n", "\u2028", SHY, ZWSP, BOM,
                                                                    "\ufb01", "\ufb06", "e\u0301", "\u212b", "\u017f"])),
                max_size=40))
def test_offsets_of_normalised_text_point_into_the_original(parts):
    original = "".join(parts)
    norm = normalise_with_offsets(original)
    assert norm.text == normalise(original) == normalise(norm.text)  # one normalisation, idempotent
    assert list(norm.starts) == sorted(norm.starts) and norm.starts[-1] == len(original)
    for m in re.finditer(r"[^\W_]+", norm.text):
        start, end = norm.span(m.start(), m.end())
        assert normalise(original[start:end]).strip() == m.group(0)
