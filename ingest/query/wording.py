"""The books' words, as the search needs them to decide whether a query is asked about the books
at all: which laws print each word (by light stem, :func:`ingest.text.stem`, accents folded) and how
common the word is in English at large (the ``book_words`` table, :mod:`ingest.build.words`).

A query is always answered when every word of it is printed in a few laws (:meth:`BooksWords.in_the_books`)
or when one of its words is far commoner in the laws than in English (:meth:`BooksWords.own_words`);
:class:`ingest.query.search.Searcher` asks these with the laws the search is filtered to.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Callable, Iterable

import numpy as np
from spacy.lang.en.stop_words import STOP_WORDS

from ..text import fold, stem

IN_THE_BOOKS = 3  # laws a word must be printed in for a query of such words to be always answered
# a query of at most this many words (less the common ones), each of 3 letters or more, is answered
# when each is printed in one law: a term looked up ("umpire", printed once, in Foster's Duplicate
# Whist I 1; "uno duo", Foster's Skat 1; "revolution", ibid.). Of the 105 such queries of
# nonsense.txt and everyday.txt none has every word printed (2026-12-02).
SHORT_QUERY = 2
# a query holding one word of the books this much commoner in the laws than in English is answered
# (:meth:`BooksWords.own_words`): "cards" (printed in 54 % of the laws; English log probability
# −9.0) 8.4, "tierce" 12.8, "deciding" 8.2; "won" 6.2, "rules" 4.5, "wine" (taken for "win") 5.2.
# Chosen on the 459 training queries and 114 nonsense queries: unanswered 16 → 4, nonsense answered
# 1 → 2 (7.0 to 8.0 alike; 6.5 answered one more nonsense query)
KEYNESS = 7.5


class BooksWords:
    """The words of the laws of one database, by light stem → the rows (as a
    :class:`ingest.query.vectors.VectorIndex` orders them) of the laws printing them, and each
    printed stem's English log probability (None: in no English list; no entry at all for a
    database built before schema version 7, whose queries then get no keyness)."""

    def __init__(self, conn: sqlite3.Connection, texts: Iterable[tuple[int, str]],
                 words: Callable[[str], list[str]]) -> None:
        """``texts``: (row, law text) for each law with a vector; ``words``: the search's tokenizer."""
        self.rows: dict[str, list[int]] = {}
        for row, text in texts:
            for w in {stem(w) for w in words(fold(text))}:
                self.rows.setdefault(w, []).append(row)
        has = conn.execute("select 1 from sqlite_master where name = 'book_words'").fetchone()
        self.english = dict(conn.execute("select stem, english_logprob from book_words")) if has else {}

    def printing(self, word: str, keep: np.ndarray | None) -> list[int]:
        """Rows of the laws printing ``word`` in some form, among those ``keep`` allows (None: all)."""
        rows = self.rows.get(stem(fold(word.lower())), [])
        return [r for r in rows if keep[r]] if keep is not None else rows

    def in_the_books(self, ws: list[str], keep: np.ndarray | None) -> bool:
        """Whether every word of ``ws`` (a query's, less the common words) is printed, in some form,
        in at least ``IN_THE_BOOKS`` laws of those searched, or in one law for a query of at most
        ``SHORT_QUERY`` words of 3 letters or more: "deal", "picked", "misere", "vorhand" and
        "umpire" (1 law) are; "hi", "government" (no law), "government election" and "how long to
        boil an egg" ("boil": none) are not. Not FTS5's Porter stems: "his" is "hi" and "election"
        is "elect" to them. A query of function words alone (spaCy's English stop words: "no", "up",
        "again and again") is not answered by this rule, however often the books print them."""
        if not any(w not in STOP_WORDS for w in ws):
            return False
        short = len(ws) <= SHORT_QUERY and all(len(w) >= 3 for w in ws)
        return all(len(self.printing(w, keep)) >= (1 if short else IN_THE_BOOKS) for w in ws)

    def own_words(self, ws: list[str], keep: np.ndarray | None, total: int) -> list[str]:
        """The words of ``ws`` that are the books' own: their keyness, the natural log of the share
        of the ``total`` laws searched that print the word less the log of its probability in English
        (the highest among the stem and the forms the books print, as the build stored it; a word in
        no English list counts as 1e-9), is ``KEYNESS`` or more ("tierce"; "cards", "player"). None
        unless most words of ``ws`` are printed in some law searched: one such word in a query about
        something else ("home remedy for a sore throat", "a credit card payment") does not make it
        the books' (of 28 everyday queries built around such words, 27 were answered without this
        condition, 11 with it: 6 through a vocabulary word, 5 through this rule, such as "how many
        players are on a basketball team"; the 499 training queries are answered alike)."""
        if sum(bool(self.printing(w, keep)) for w in ws) * 2 <= len(ws):
            return []
        out = []
        for w in ws:
            s = stem(fold(w.lower()))
            rows = self.printing(w, keep)
            if not rows or not total or s not in self.english:
                continue
            english = self.english[s] if self.english[s] is not None else math.log(1e-9)
            if math.log(len(rows) / total) - english >= KEYNESS:
                out.append(w)
        return out
