"""The search's topic classifier (``Ranker.about_cards``): a query asked about card play in words
no book prints and no vocabulary file knows is answered; a query about anything else is not."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ingest.query.rank import FEATURES, TOPIC_WORDS, Ranker, RankerError
from ingest.query.search import Searcher, normalise, words
from ingest.query.understand import understand, without_game_names


@pytest.fixture(scope="module")
def searcher(books_db):
    return Searcher(books_db.db_path)


def answered_by_another_rule(searcher: Searcher, query: str) -> bool:
    query = normalise(query)
    ws, extra, entities = searcher.query_terms(query)
    understood = understand(query, words(query), searcher.reader)
    return (searcher.understood_anything(understood, entities, extra) or searcher.in_the_books(ws)
            or bool(searcher.books_own_words(ws)))


@pytest.mark.parametrize("query", [
    # a tie at the end of a game: Cavendish's Piquet 71 and Hoffmann's Bézique 61 decide it, in
    # words of their own ("equal", "ties"), none of which the query uses
    "the game finished with both our totals exactly level",
    "we ended up on exactly the same total, who wins",
])
def test_a_question_about_card_play_in_words_no_book_prints_is_answered(searcher, query):
    assert not answered_by_another_rule(searcher, query)
    assert searcher.ranker.about_cards(searcher.query_vector(normalise(query)))
    assert searcher.answer(query).results


@pytest.mark.parametrize("query", [
    "how to reset my router password",
    "what is the capital of Australia",
    "best time of year to plant tulip bulbs",
])
def test_a_query_about_anything_else_is_not_taken_for_card_play(searcher, query):
    assert not searcher.ranker.about_cards(searcher.query_vector(normalise(query)))
    answer = searcher.answer(query)
    assert answer.results == [] and answer.nearest


@pytest.mark.parametrize("query", ["lol", "ok", "ha ha", "no idea"])
def test_a_word_or_two_is_never_answered_by_the_topic_classifier_alone(searcher, query):
    # a sentence vector of so little text is no evidence: the classifier takes these for card play
    assert len(words(query)) < TOPIC_WORDS and not answered_by_another_rule(searcher, query)
    assert searcher.answer(query).results == []


def test_the_topic_probability_is_a_probability(searcher):
    # the classifier reads the words searched, a named game's name set aside (as Searcher.answer does)
    p = searcher.ranker.card_probability(searcher.query_vector(without_game_names("who deals first at whist")))
    assert 0.9 < p <= 1.0


def test_a_ranker_file_without_its_topic_classifier_is_refused(tmp_path):
    meta = {"features": list(FEATURES), "threshold": 1.0, "trained_on": "x", "depth": 0}
    trees = {f"tree_{k}": np.zeros(1) for k in ("feature", "threshold", "left", "right", "value", "roots")}
    np.savez(tmp_path / "r.npz", **trees, meta=np.array(json.dumps(meta)))
    with pytest.raises(RankerError, match="other features"):
        Ranker.load(tmp_path / "r.npz")
    np.savez(tmp_path / "r.npz", **trees, topic=np.ones(384), meta=np.array(json.dumps(meta)))
    with pytest.raises(RankerError, match="cannot be read"):  # no topic_bias, topic_threshold
        Ranker.load(tmp_path / "r.npz")
