"""Segmentation: the "nothing lost" property on every seed and on generated texts, and the
numbering rules on small texts."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.build.clean import read_document
from ingest.build.corpus import read_sidecar
from ingest.build.segment import overlaps, segment, uncovered
from ingest.models import CodeSpec, Source
from ingest.numbering import roman_value
from ingest.paths import SEEDS


def _segment(text: str, page_marker: str = "{N}"):
    code = CodeSpec(slug="whist", game="whist")
    src = Source(slug="t", path=Path("t.txt"), title="t", sha256="", codes=(code,), page_marker=page_marker)
    doc = read_document(src, text.encode("utf-8"))
    return doc, segment(doc, code)


def test_every_seed_loses_nothing_and_doubles_nothing():
    for path in sorted(SEEDS.glob("*.txt")):
        data = path.read_bytes()
        doc = read_document(read_sidecar(path, data), data)
        for code in doc.source.codes:
            seg = segment(doc, code)
            assert seg.laws, path
            assert uncovered(doc, seg) == [], path
            assert overlaps(seg) == [], path


def test_number_inside_a_sentence_is_not_a_law():
    _, seg = _segment("1. The dealer gives 5 cards. He deals 2. Then 3.\n2. The pone cuts.\n")
    assert [law.number for law in seg.laws] == ["1", "2"]
    assert seg.laws[0].text == "The dealer gives 5 cards. He deals 2. Then 3."


def test_run_on_law_needs_the_next_number():
    _, seg = _segment("4. As in law 9. The dealer deals. 5. The pone cuts. 7. Nothing.")
    assert [law.number for law in seg.laws] == ["4", "5"]


def test_lettered_laws_continue_the_sequence():
    _, seg = _segment("47. A.\n47a. B.\n47b. C.\n48. D.\n")
    assert [law.number for law in seg.laws] == ["47", "47a", "47b", "48"]


def test_clauses_restart_under_each_law():
    _, seg = _segment("1. A new deal may be demanded:\nI. If a card be exposed.\nII. If the pack be not cut.\n"
                      "2. A player may:\nI. Ask what trumps are.\n")
    assert [(law.kind, law.number, law.parent) for law in seg.laws] == [
        ("law", "1", None), ("clause", "I", "t/whist/1"), ("clause", "II", "t/whist/1"),
        ("law", "2", None), ("clause", "I", "t/whist/2"),
    ]
    assert seg.laws[2].id == "t/whist/1/II"


def test_duplicated_number_is_flagged_never_merged():
    _, seg = _segment("1. One.\n2. Two.\n2. Two again.\n3. Three.\n")
    assert [law.id for law in seg.laws] == ["t/whist/1", "t/whist/2", "t/whist/2~2", "t/whist/3"]
    assert any("duplicated" in w and "t.txt:3" in w for w in seg.warnings)


def test_unclosed_note_runs_to_the_end_of_its_paragraph():
    _, seg = _segment("i. A law.\n\n[A note that never\ncloses\n\nii. Next law.\n")
    assert [law.number for law in seg.laws] == ["i", "ii"]
    assert seg.laws[0].note == "A note that never closes"


def test_roman_values():
    assert [roman_value(s) for s in ["i", "iv", "ix", "xii", "XL", "xcix"]] == [1, 4, 9, 12, 40, 99]


# --- generated texts -------------------------------------------------------------------------

WORDS = ["the", "dealer", "deals", "a", "card", "if", "pone", "exposed", "trump", "new", "deal", "may",
         "claim", "5", "law", "[21]", "cards", "stock", "elder", "hand", "—", "--", "_called_", "it", "vi"]
# a sentence opens with a word, as law texts do; any word may follow
sentence = st.tuples(
    st.sampled_from([w for w in WORDS if w.isalpha()]), st.lists(st.sampled_from(WORDS), max_size=11)
).map(lambda t: " ".join([t[0], *t[1]]).capitalize() + ".")
body = st.lists(sentence, min_size=1, max_size=4).map(" ".join)


@st.composite
def codes(draw):
    """A code of n laws, numbered from a random start, with random separators, page markers,
    notes and a fragment before the first law."""
    n = draw(st.integers(1, 12))
    first = draw(st.integers(1, 60))
    parts = []
    if draw(st.booleans()):
        parts.append(draw(body) + "]\n\n")
    page = draw(st.integers(2, 300))
    for i in range(n):
        label = f"{first + i}." + draw(st.sampled_from(["", "—", "--"]))
        text = draw(body)
        if draw(st.booleans()):
            words = text.split(" ")
            k = draw(st.integers(0, len(words)))
            page += 1
            text = " ".join(words[:k] + [f"{{{page}}}"] + words[k:])
        parts.append(f"{label} {text}")
        if draw(st.booleans()):
            parts.append("\n\n[" + draw(body) + "]\n\n")
        else:
            parts.append(draw(st.sampled_from(["\n", "\n\n", " ", "  "])))
    return "".join(parts), n, first


@settings(max_examples=200, deadline=None)
@given(codes())
def test_generated_codes_lose_nothing(generated):
    text, n, first = generated
    doc, seg = _segment(text)
    assert uncovered(doc, seg) == []
    assert overlaps(seg) == []
    assert [law.number for law in seg.laws] == [str(first + i) for i in range(n)]
    for law in seg.laws:
        assert "{" not in law.text and "--" not in law.text


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("iv1234567890.—-[]{} \n\tAaBb_=")), max_size=200))
def test_arbitrary_text_never_crashes_and_loses_nothing(text):
    if not text.strip():
        return
    doc, seg = _segment(text)
    assert uncovered(doc, seg) == []
    assert overlaps(seg) == []


def test_unclosed_note_stops_at_the_next_law_and_is_warned():
    _, seg = _segment("1. Law one.\n[This note never closes\n2. Law two.\n3. Law three.\n")
    assert [law.number for law in seg.laws] == ["1", "2", "3"]
    assert seg.laws[0].note == "This note never closes"
    assert any("t.txt:2" in w and "not closed" in w for w in seg.warnings)


def test_form_feed_before_a_label_is_a_line_start():
    _, seg = _segment("1. One.\n\f2. Two.\n")
    assert [law.number for law in seg.laws] == ["1", "2"]


def test_a_comma_or_colon_for_the_full_stop_is_a_label_only_in_sequence():
    _, seg = _segment("1. The dealer deals.\n2: The pone cuts.\n3, The elder hand leads.\n9, Nothing here.\n")
    assert [(law.number, law.text) for law in seg.laws] == [
        ("1", "The dealer deals."), ("2", "The pone cuts."), ("3", "The elder hand leads. 9, Nothing here.")]


def test_listed_cases_become_clauses_of_their_law():
    text = ("12. There must be a new deal--\n\n    (a) If a card be faced.\n\n    (b) If the pack be imperfect.\n"
            "13. The exposed cards are:\n  1st. Two cards played at once.\n  2d. A card dropped face up.\n"
            "14. A card so named (b) is not an item, nor is\n(c) out of sequence.\n")
    doc, seg = _segment(text)
    assert [(law.id, law.kind, law.parent, law.text) for law in seg.laws] == [
        ("t/whist/12", "law", None, "There must be a new deal—"),
        ("t/whist/12/a", "clause", "t/whist/12", "If a card be faced."),
        ("t/whist/12/b", "clause", "t/whist/12", "If the pack be imperfect."),
        ("t/whist/13", "law", None, "The exposed cards are:"),
        ("t/whist/13/1st", "clause", "t/whist/13", "Two cards played at once."),
        ("t/whist/13/2d", "clause", "t/whist/13", "A card dropped face up."),
        ("t/whist/14", "law", None, "A card so named (b) is not an item, nor is (c) out of sequence."),
    ]
    assert [law.ordinal for law in seg.laws] == list(range(1, 8))
    assert uncovered(doc, seg) == [] and overlaps(seg) == []


def test_a_rule_in_capitals_is_a_law_not_a_heading():
    code = CodeSpec(slug="bridge", game="bridge", numbering="unnumbered", unit="paragraph")
    src = Source(slug="t", path=Path("t.txt"), title="t", sha256="", codes=(code,))
    text = "THE DEAL\n\nThe cards are dealt face down.\n\nTHERE IS NO MISDEAL.\n\nA NEW DEAL\n\nThere must be one.\n"
    seg = segment(read_document(src, text.encode()), code)
    assert [(law.number, law.section, law.text) for law in seg.laws] == [
        ("1", "THE DEAL", "The cards are dealt face down."), ("2", "THE DEAL", "THERE IS NO MISDEAL."),
        ("3", "A NEW DEAL", "There must be one.")]


def test_a_paragraph_in_parentheses_and_a_lettered_footnote_are_notes():
    text = ("1. Honours are counted.\n\n    (Note of the transcriber.)\n\n2. A double may be re-doubled.[A] Go on.\n"
            "(as in Bridge).\n\n    [A] In some clubs doubling ceases at 100.\n\n3. Last law.\n")
    doc, seg = _segment(text)
    assert [(law.number, law.text, law.note) for law in seg.laws] == [
        ("1", "Honours are counted.", "(Note of the transcriber.)"),
        ("2", "A double may be re-doubled.[A] Go on. (as in Bridge).", "[A] In some clubs doubling ceases at 100."),
        ("3", "Last law.", None)]
    assert uncovered(doc, seg) == [] and overlaps(seg) == []
