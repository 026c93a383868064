"""SQL functions for search, for people who write SQL: ``search_laws(query [, limit])`` and
``similar_laws(law_id [, limit])`` return a JSON array of ``{"id", "score"}``, best first (an
empty array for a query with no words; ``limit`` is kept between 1 and 200), to join with
``json_each``::

    select laws.* from json_each(search_laws('dealer flipped a card', 10)) j
    join laws on laws.id = json_extract(j.value, '$.id')
"""

from __future__ import annotations

import json
from pathlib import Path

from datasette import hookimpl

from ingest.query.search import ModeUnavailable, QueryError, searcher_for
from ingest.query.serve import DATABASE_NAME


@hookimpl
def prepare_connection(conn, database, datasette):
    if database != DATABASE_NAME:
        return
    path = Path(datasette.get_database(DATABASE_NAME).path)

    def _limit(value, default):
        try:
            return max(1, min(int(value), 200))
        except (TypeError, ValueError):
            return default

    def search_laws(query, limit=10):
        try:
            hits = searcher_for(path).search(str(query or ""), limit=_limit(limit, 10))
        except ModeUnavailable:
            raise  # an SQL error saying why, not an empty list that reads as "no law"
        except QueryError:
            return "[]"
        return json.dumps([{"id": h.id, "score": round(h.score, 6)} for h in hits])

    def similar_laws(law_id, limit=5):
        pairs = searcher_for(path).similar(str(law_id), limit=_limit(limit, 5), other_games=False)
        return json.dumps([{"id": i, "score": round(s, 6)} for i, s in pairs])

    conn.create_function("search_laws", -1, search_laws)
    conn.create_function("similar_laws", -1, similar_laws)
