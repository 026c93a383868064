"""The books' own words (ingest/build/words.py, table book_words) and the search's use of them: a
query asked in the books' terms is answered, one about anything else is not."""

from __future__ import annotations

import sqlite3

import pytest

from ingest.build.words import english_logprobs, printed_forms
from ingest.models import Law, Span
from ingest.query.search import Searcher


@pytest.fixture(scope="module")
def searcher(books_db):
    return Searcher(books_db.db_path)


def law(text: str, witness_of: str | None = None) -> Law:
    return Law(id="x/whist/1", source="x", game="whist", code_slug="whist", number="1", kind="law", ordinal=0,
               span=Span(0, len(text)), text=text, raw_text=text, line_start=1, line_end=1, page_start=None,
               page_end=None, witness_of=witness_of)


def test_the_books_words_are_kept_by_stem_with_their_english_probability(books_conn):
    rows = dict(books_conn.execute("select stem, english_logprob from book_words"))
    # "tierce" is printed in Cavendish's Piquet (law 63: "… a tierce …"), rare in English; "cards"
    # takes the probability of "card", the commoner form; "Vorhand" (Foster's Skat) is in no English list
    assert rows["tierc"] < -19 and -10 < rows["card"] < -8
    assert "vorhand" in rows and rows["vorhand"] is None
    assert all(stem == stem.lower() and stem.isalpha() for stem in rows)


def test_an_excerpt_s_copy_and_digits_add_no_word():
    forms = printed_forms([law("The Dealer deals 13 cards."), law("Zwischenhand", witness_of="y/whist/1")])
    assert forms == {"the": {"the"}, "dealer": {"dealer"}, "deal": {"deals"}, "card": {"cards"}}


def test_a_rebuild_takes_the_probabilities_from_the_previous_database(tmp_path):
    previous = tmp_path / "previous.db"
    with sqlite3.connect(previous) as conn:
        conn.execute("create table book_words (stem text primary key, english_logprob real)")
        conn.executemany("insert into book_words values (?, ?)", [("dealer", -1.0), ("card", None), ("other", -2.0)])
    laws = [law("Dealer cards")]
    assert english_logprobs(laws, previous) == {"dealer": -1.0, "card": None}  # as stored, not English's
    assert english_logprobs([law("Dealer cards trump")], previous)["dealer"] < -10  # a new word: read again


def test_a_previous_table_with_a_value_that_is_no_number_is_computed_again(tmp_path):
    previous = tmp_path / "previous.db"
    with sqlite3.connect(previous) as conn:
        conn.execute("create table book_words (stem text primary key, english_logprob real)")
        conn.executemany("insert into book_words values (?, ?)", [("dealer", "abc"), ("card", -1.0)])
    got = english_logprobs([law("Dealer cards")], previous)
    assert got["card"] != -1.0 and isinstance(got["dealer"], float) and got["dealer"] < -10


@pytest.mark.parametrize("query", [
    "tierce",  # Cavendish's Piquet 63 and the piquet laws on sequences
    "quint",
    "a player threw away some cards without saying how many",  # "player", "cards": the books' words
])
def test_a_query_in_the_books_terms_is_answered_without_a_vocabulary_word(searcher, query):
    assert searcher.books_own_words(query.split())
    assert searcher.answer(query).results


@pytest.mark.parametrize("query, game", [
    ("parking rules near the town hall", None),  # "rules" is printed, but English's word too
    ("who won the world cup in 1966", None),
    ("tierce", "poker"),  # piquet's word, not the poker laws'
    # "remedy" is the books' word, but "home", "sore" and "throat" are not all printed: not the books'
    ("home remedy for a sore throat", None),
])
def test_a_query_about_anything_else_has_none_of_the_books_own_words(searcher, query, game):
    assert searcher.books_own_words(query.split(), game=game) == []
    assert searcher.answer(query, game=game).results == []

