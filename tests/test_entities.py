"""Entity tagging on hand-checked sentences, including the known traps: the lookup table turns
"elder" into "old"; "-eth" verbs; "trump" vs "trump card"; the many ways a card is exposed."""

from __future__ import annotations

import pytest


def tags(tagger, text: str) -> list[tuple[str, str]]:
    (mentions,) = list(tagger.tag([text]))
    for m in mentions:
        assert text[m.start : m.end] == m.text
    return [(m.entity_id, m.text) for m in mentions]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("If the elder hand perceive that the dealer has not given him as many cards",
         [("elder_hand", "elder hand"), ("dealer", "dealer")]),
        ("The Eldest Hand leads.", [("elder_hand", "Eldest Hand")]),
        ("the younger hand may discard", [("younger_hand", "younger hand"), ("discard", "discard")]),
        ("the non-dealer may claim a fresh deal", [("non_dealer", "non-dealer"), ("new_deal", "fresh deal")]),
        ("The pone cuts, and the dealer deals again.",
         [("non_dealer", "pone"), ("cut", "cuts"), ("dealer", "dealer"), ("new_deal", "deals again")]),
        ("If the dealer turneth up a card", [("dealer", "dealer"), ("exposed_card", "turneth up a card")]),
        ("the trump-card must be left, face upwards, on the table", [("trump_card", "trump-card")]),
        ("If a player trump by mistake", []),
        ("he may ask \"What are Trumps?\"", []),
        ("If a card be found face upwards in the pack", [("exposed_card", "card be found face upwards"), ("pack", "pack")]),
        ("If a faced card be found in the stock", [("exposed_card", "faced card"), ("stock", "stock")]),
        ("the dealer turns up one or more cards in dealing",
         [("dealer", "dealer"), ("exposed_card", "turns up one or more cards")]),
        ("If the dealer turns up the trump card, he must leave it",
         [("dealer", "dealer"), ("trump_card", "trump card")]),
        ("Should there be a misdeal, the deal passes", [("misdeal", "misdeal")]),
        ("A player who revokes, or who renounces, or reneges", [("revoke", "revokes"), ("revoke", "renounces"), ("revoke", "reneges")]),
        ("his stake shall remain in the pool, with his ante", [("stake", "stake"), ("stake", "pool"), ("stake", "ante")]),
        ("Any one dealing out of turn, or with the adversary's cards",
         [("deal_out_of_turn", "dealing out of turn"), ("deal_out_of_turn", "with the adversary's cards"), ("adversary", "adversary")]),
        ("If a player lead out of his turn", [("lead_out_of_turn", "lead out of his turn")]),
        ("such hand is a foul hand", [("foul_hand", "foul hand")]),
        ("the exposed card cannot be called", [("exposed_card", "exposed card"), ("called_card", "card cannot be called")]),
        ("the deck was not cut", [("pack", "deck"), ("cut", "cut")]),
        ("the talon", [("stock", "talon")]),
        ("the winner of the trick", [("trick", "trick")]),
        ("his partner and his adversaries", [("partner", "partner"), ("adversary", "adversaries")]),
    ],
)
def test_hand_checked_sentences(tagger, text, expected):
    assert tags(tagger, text) == expected


def test_elder_is_not_lemmatized_to_old(tagger):
    doc = tagger.nlp("the elder hand and the eldest")
    assert [t.lemma_ for t in doc][:2] == ["the", "elder"]
    assert doc[-1].lemma_ == "elder"


def test_every_taxonomy_entity_is_loaded(tagger):
    ids = {e.id for e in tagger.entities}
    assert {
        "dealer", "non_dealer", "elder_hand", "younger_hand", "adversary", "partner", "pack", "stock",
        "trump_card", "trick", "stake", "misdeal", "new_deal", "exposed_card", "called_card", "revoke",
        "discard", "cut", "deal_out_of_turn", "lead_out_of_turn", "foul_hand",
    } <= ids


def test_mentions_are_stored_with_offsets(seed_db):
    import sqlite3

    conn = sqlite3.connect(seed_db)
    rows = conn.execute(
        "select l.text, le.start, le.end, le.text, le.entity_id from law_entities le join laws l on l.id = le.law_id"
    ).fetchall()
    assert len(rows) > 100
    for text, start, end, words, _ in rows:
        assert text[start:end] == words
    law8 = conn.execute(
        "select entity_id, text from law_entities where law_id = '000_d29d92d83d86afb5/ecarte/8' order by start"
    ).fetchall()
    assert law8 == [("elder_hand", "elder hand"), ("dealer", "dealer"), ("dealer", "dealer")]
    facet = conn.execute("select entities from laws where id = '004_6dbc7a77bd2684ce/poker/13'").fetchone()[0]
    assert facet == '["foul_hand", "stake"]'
