"""Each seed excerpt, segmented into its laws: numbers, first and last words, lines, pages and
notes, as read by hand from corpus/seeds/ (see shared/seeds/SEEDS.md)."""

from __future__ import annotations

import sqlite3

import pytest

# (number, kind, first words, last words, line_start, line_end, page_start, page_end, note start)
SEED_000 = [
    ("5", "law", "It sometimes happens, that the dealer", "the trouble of dealing again.", 1, 1, None, None, None),
    ("6", "law", "When a player deals out of turn", "the deal is good.", 1, 1, None, None, None),
    ("7", "law", "Should there be a misdeal", "had no misdeal been made.", 1, 1, None, None, None),
    ("8", "law", "If the elder hand perceive", "as in the preceding case.", 1, 1, None, None, None),
    ("9", "law", "If the cards have been seen by both parties", "obliging him to lose the deal.", 1, 1, None, None, None),
    ("10", "law", "If the elder hand should have a deficiency", "or claim the deal.", 1, 1, None, None, None),
    ("11", "law", "If however it can be proved", "not be allowed to reckon the king.", 1, 1, None, None, None),
    ("12", "law", "He who after having taken in his cards", "the right of marking the king.", 1, 1, None, None, None),
]
SEED_001 = [
    ("V", "clause", "Should a player have more than thirteen cards", "less than thirteen cards.", 1, 2, 234, 234, None),
    ("VI", "clause", "Should the dealer deal two cards at once", "he may do so.", 3, 6, 234, 234, None),
    ("VII", "clause", "Should the dealer omit to have the pack cut", "but not after having done so.", 7, 9, 234, 234, None),
    ("40", "law", "If, whilst dealing, a card be exposed", "the exposed card cannot be called.", 10, 15, 234, 235, None),
    ("41", "law", "If, in dealing, one of the last cards be exposed", "the privilege is not thereby lost.", 16, 18, 235, 235, None),
    ("42", "law", "If the dealer, before he has dealt fifty-one cards", "may exact a new deal.", 19, 20, 235, 235, None),
    ("43", "law", "Should three players have their right number of cards—the fourth", "search the other pack for it, or them.", 21, 25, 235, 235, None),
    ("44", "law", "If a pack, during or after a rubber", "the dealer deals again.", 26, 29, 235, 235, None),
    ("45", "law", "Any one dealing out of turn", "as if no mistake had been made.", 30, 32, 235, 235, None),
    ("46", "law", "A player can neither shuffle, cut, nor deal", "without the permission of his opponents.", 33, 34, 235, 235, None),
]
SEED_002 = [
    ("31", "law", "If the dealer give his adversary more cards", "the dealer is not entitled to see them.", 1, 2, None, None, None),
    ("32", "law", "If the dealer give his adversary less cards", "he has it completed from the stock.", 3, 3, None, None, None),
    ("33", "law", "If the dealer give himself more cards", "entitled to look at the cards he draws.", 4, 4, None, None, None),
    ("34", "law", "If the dealer give himself less cards", "all cards which cannot be played to.", 5, 5, None, None, None),
    ("35", "law", "If a faced card be found in the stock", "the next card given instead.", 6, 6, None, None, None),
    ("36", "law", "If, in giving cards, any of the non-dealer's are exposed", "he must take them.", 7, 7, None, None, None),
    ("37", "law", "If, after giving the cards, the dealer turn up a card in error", "the option of taking the exposed card.", 8, 8, None, None, None),
    ("38", "law", "If the dealer accept when there are not sufficient cards", "on there being cards enough in the stock.", 9, 9, None, None, None),
]
SEED_003 = [
    ("ii", "law", "If a card be exposed", "a fresh deal may be demanded.", 3, 3, None, None, None),
    ("iii", "law", "Dealer must not look at bottom card", "opponents may call a fresh deal.", 5, 7, None, None, None),
    ("iv", "law", "Too many or too few cards is a misdeal—an exposed or face card.", "a fresh deal may be demanded.", 9, 10, None, None,
     "In cases of a misdeal, the deal passes to the next player."),
    ("v", "law", "After the first round has been played", "no fresh deal can be called.", 14, 15, None, None,
     "If the first player hold fewer than thirteen cards"),
    ("vi", "law", "If two cards be dealt to the same player", "before dealing another card.", 20, 21, None, None,
     "The dealer must not touch the cards after they have left his hands"),
    ("vii", "law", "If the trump-card be not taken into the dealer's hand", "as an exposed card, and called.", 28, 30, None, None,
     "After this, no one has a right to ask what was the trump-card"),
    ("viii", "law", "If the third hand play before the second", "to win the trick if he can.", 35, 38, None, None, None),
    ("ix", "law", "If a player lead out of his turn", "does not cause a revoke.", 40, 42, None, None,
     "Calling a card is the insisting of its being played"),
    ("x", "law", "If a player trump by mistake", "when it is called by his adversaries.", 47, 50, None, None, None),
    ("xi", "law", "If, before a trick be turned, a player discover", "can be called when the suit is played.", 52, 54, None, None, None),
    ("xii", "law", "Before a trick is turned", "may see the preceding trick.", 56, 57, None, None,
     "Only one trick is to be shown; not m"),
]
SEED_004 = [
    ("6", "law", "The cards shall be dealt, face downwards", "to whom they are severally dealt.", 1, 3, 47, 47, None),
    ("7", "law", "The dealer shall give one card from the top", "shall give to each player five cards.", 5, 7, 48, 48, None),
    ("8", "law", "If the cards be dealt without the pack having been cut", "a new deal by the same dealer.", 8, 10, 48, 48, None),
    ("9", "law", "If the fact that the cards have been dealt", "the deal shall stand.", 11, 13, 48, 48, None),
    ("10", "law", "If a card be found face upwards in the pack", "a new deal by the same dealer.", 14, 16, 48, 48, None),
    ("11", "law", "If the dealer, while dealing, accidentally expose a card", "after the deal is completed.", 17, 21, 48, 48, None),
    ("12", "law", "If any player have more or less than five cards", "a new deal by the same dealer.", 22, 25, 48, 48, None),
    ("13", "law", "If any player have more or less than five cards", "forfeit his stake in that game.", 26, 30, 48, 48, None),
    ("14", "law", "If a player be compelled to retire", "his ante or straddle only in that game.", 31, 34, 48, 49, None),
]
SEEDS = {
    "000_d29d92d83d86afb5": ("ecarte", SEED_000),
    "001_eeed9204cf5d74d0": ("bridge", SEED_001),
    "002_acea09cb2742a4b7": ("ecarte", SEED_002),
    "003_ea313244f1a1cb18": ("whist", SEED_003),
    "004_6dbc7a77bd2684ce": ("poker", SEED_004),
}


@pytest.fixture(scope="module")
def conn(seed_db):
    c = sqlite3.connect(seed_db)
    c.row_factory = sqlite3.Row
    yield c
    c.close()


@pytest.mark.parametrize("source", sorted(SEEDS))
def test_seed_laws_in_order(conn, source):
    game, expected = SEEDS[source]
    rows = conn.execute("select * from laws where source = ? order by ordinal", [source]).fetchall()
    assert [r["number"] for r in rows] == [e[0] for e in expected]
    for row, (number, kind, first, last, l1, l2, p1, p2, note) in zip(rows, expected):
        assert row["game"] == game
        assert row["kind"] == kind, number
        assert row["text"].startswith(first), (number, row["text"][:80])
        assert row["text"].endswith(last), (number, row["text"][-80:])
        assert (row["line_start"], row["line_end"]) == (l1, l2), number
        assert (row["page_start"], row["page_end"]) == (p1, p2), number
        if note is None:
            assert row["note"] is None, number
        else:
            assert row["note"].startswith(note), (number, row["note"])
        assert row["raw_text"].startswith(number), number
        assert row["id"] == f"{source}/{game}/{number}"


def test_law_count_per_seed(conn):
    counts = dict(conn.execute("select source, count(*) from laws group by source").fetchall())
    assert counts == {s: len(e) for s, (_, e) in SEEDS.items()}


def test_run_on_laws_are_split_inside_one_line(conn):
    # seed 000 prints laws 5–12 on one single line: "… dealing again. 6. When a player deals …"
    raw6 = conn.execute("select raw_text from laws where id = '000_d29d92d83d86afb5/ecarte/6'").fetchone()[0]
    assert raw6.startswith("6. When a player deals out of turn")
    assert raw6.endswith("if the play have commenced, or the discard been put out before the discovery, the deal is good.")


def test_clauses_whose_law_is_missing_have_no_parent(conn):
    rows = conn.execute("select number, parent from laws where kind = 'clause'").fetchall()
    assert [(r["number"], r["parent"]) for r in rows] == [("V", None), ("VI", None), ("VII", None)]


def test_number_without_period_continues_the_sequence(conn):
    row = conn.execute("select * from laws where id = '001_eeed9204cf5d74d0/bridge/46'").fetchone()
    assert row["raw_text"].startswith("46 A player")
    assert row["text"].startswith("A player can neither")


def test_page_marker_inside_a_law_is_removed_from_its_text(conn):
    law40 = conn.execute("select text, raw_text from laws where id = '001_eeed9204cf5d74d0/bridge/40'").fetchone()
    assert "{235}" in law40["raw_text"]
    assert "by a player who has looked at" in law40["text"]
    law14 = conn.execute("select text, raw_text from laws where id = '004_6dbc7a77bd2684ce/poker/14'").fetchone()
    assert "[49]" in law14["raw_text"]
    assert "his stake, if he has staked" in law14["text"]


def test_marker_on_its_own_line_between_laws_belongs_to_neither(conn):
    raw6, raw7 = [r[0] for r in conn.execute(
        "select raw_text from laws where id in ('004_6dbc7a77bd2684ce/poker/6', '004_6dbc7a77bd2684ce/poker/7') order by ordinal")]
    assert "[48]" not in raw6 and "[48]" not in raw7


def test_italics_and_double_dash_cleaned(conn):
    ix = conn.execute("select text, raw_text from laws where id = '003_ea313244f1a1cb18/whist/ix'").fetchone()
    assert "_called_" in ix["raw_text"] and "that card may be called, if" in ix["text"]
    iv = conn.execute("select text from laws where id = '003_ea313244f1a1cb18/whist/iv'").fetchone()
    assert "misdeal—an exposed" in iv["text"]


def test_opening_fragment_is_kept_apart(conn):
    rows = conn.execute("select * from fragments").fetchall()
    assert [(r["source"], r["text"], r["line_start"]) for r in rows] == [
        ("003_ea313244f1a1cb18", ". The right-hand adversary cuts to dealer.]", 1)
    ]
    ii = conn.execute("select raw_text from laws where id = '003_ea313244f1a1cb18/whist/ii'").fetchone()[0]
    assert "right-hand adversary" not in ii


def test_sources_record_sidecars_and_checksums(conn):
    import hashlib

    from ingest.paths import SEEDS as SEED_DIR

    rows = {r["slug"]: r for r in conn.execute("select * from sources")}
    assert set(rows) == set(SEEDS)
    for slug, row in rows.items():
        data = (SEED_DIR / f"{slug}.txt").read_bytes()
        assert row["sha256"] == hashlib.sha256(data).hexdigest()
        assert row["file"] == f"{slug}.txt"
    assert rows["002_acea09cb2742a4b7"]["excerpt_of"] == "hoffmann-hoyles-games-modernized-1909"
    assert rows["000_d29d92d83d86afb5"]["title"] == "An Older English Code of Écarté (source unidentified)"
    assert rows["004_6dbc7a77bd2684ce"]["page_marker"] == "[N]"
