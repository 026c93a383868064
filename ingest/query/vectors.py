"""Vectors of one database in memory: the laws' (:class:`VectorIndex`) and their plain questions'
(:class:`QuestionIndex`), searched with numpy (this Python loads no SQLite extension)."""

from __future__ import annotations

import sqlite3

import numpy as np

# a law's question is shown as why it was found ("asked as: …") from this cosine with the query on:
# over the 379 training queries, the nearest question of 52 % of the laws graded 2 reaches it, of
# 8 % of the laws judged not to answer
SHOWN_COSINE = 0.60


class VectorIndex:
    """Law vectors of one database in memory: ids, filter columns and a float32 matrix."""

    def __init__(self, conn: sqlite3.Connection, model: str) -> None:
        rows = conn.execute(
            "select e.law_id, l.game, l.source, l.kind, e.vector from law_embeddings e "
            "join laws l on l.id = e.law_id where e.model = ? and l.witness_of is null order by l.ordinal",
            [model],
        ).fetchall()
        self.ids = [r[0] for r in rows]
        self.position = {law_id: i for i, law_id in enumerate(self.ids)}
        self.games = np.array([r[1] for r in rows], dtype=object)
        self.sources = np.array([r[2] for r in rows], dtype=object)
        self.kinds = np.array([r[3] for r in rows], dtype=object)
        dim = len(rows[0][4]) // 4 if rows else 0
        self.matrix = (np.frombuffer(b"".join(r[4] for r in rows), dtype=np.float32).reshape(len(rows), dim)
                       if rows else np.zeros((0, 0), dtype=np.float32))

    def mask(self, game=None, source=None, kind=None, exclude_game=None) -> np.ndarray | None:
        """Which laws the filters keep (``None``: all of them)."""
        if not (game or source or kind or exclude_game):
            return None
        keep = np.ones(len(self.ids), dtype=bool)
        for values, want in ((self.games, game), (self.sources, source), (self.kinds, kind)):
            if want:
                keep &= values == want
        if exclude_game:
            keep &= self.games != exclude_game
        return keep

    def nearest(self, vector: np.ndarray, k: int, keep: np.ndarray) -> list[tuple[str, float]]:
        """The ``k`` laws most like ``vector`` among those ``keep`` allows, best first."""
        if not len(self.ids):
            return []
        return self.nearest_by(self.matrix @ vector, k, keep)

    def nearest_by(self, scores: np.ndarray, k: int, keep: np.ndarray | None) -> list[tuple[str, float]]:
        """The ``k`` laws of highest ``scores`` (one a law, by row) among those ``keep`` allows."""
        if not len(self.ids):
            return []
        if keep is not None:
            scores = np.where(keep, scores, -np.inf)
        k = min(k, len(self.ids) if keep is None else int(keep.sum()))
        if k <= 0:
            return []
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top])]
        return [(self.ids[i], float(scores[i])) for i in top]


class QuestionIndex:
    """The vectors of the laws' plain questions (``law_questions``), and for each question the row
    of its law in a :class:`VectorIndex`: a law is as near a query as its nearest question."""

    def __init__(self, conn: sqlite3.Connection, model: str, laws: VectorIndex) -> None:
        has = conn.execute("select 1 from sqlite_master where name = 'law_questions'").fetchone()
        rows = conn.execute("select law_id, vector, question from law_questions where model = ? and vector is not null",
                            [model]).fetchall() if has else []
        rows = [r for r in rows if r[0] in laws.position]
        self.law_rows = np.array([laws.position[r[0]] for r in rows], dtype=np.intp)
        self.texts = [r[2] for r in rows]
        self.law_count = len(laws.ids)
        dim = laws.matrix.shape[1] if rows else 0
        self.matrix = (np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), dim)
                       if rows else np.zeros((0, 0), dtype=np.float32))

    def nearest_question(self, vector: np.ndarray, law_row: int, least: float = SHOWN_COSINE) -> str | None:
        """The question of the law at ``law_row`` nearest ``vector``, if its cosine is ``least`` or
        more (else None: the law was found by other means than a question like the query)."""
        mine = np.flatnonzero(self.law_rows == law_row)
        if not len(mine):
            return None
        cosines = self.matrix[mine] @ vector
        best = int(np.argmax(cosines))
        return self.texts[mine[best]] if cosines[best] >= least else None

    def law_cosines(self, vector: np.ndarray) -> np.ndarray:
        """For each law of the :class:`VectorIndex` (by row), the best cosine of ``vector`` with one
        of its questions (0 for a law with none): float32, one value a law."""
        out = np.zeros(self.law_count, dtype=np.float32)
        if len(self.law_rows):
            np.maximum.at(out, self.law_rows, self.matrix @ vector)
        return out
