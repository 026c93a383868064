"""The build side: corpus texts and catalogued books → a new database, one stage a module.

``read`` (sources: ``corpus`` sidecars, ``catalog`` books, ``fetch`` into the cache) → ``clean``
→ ``segment`` → tag (the shared :mod:`ingest.tag` and :mod:`ingest.situations`) → ``link``
(footnotes, excerpt witnesses, cross-references, ruling citations, parallels; ``citing`` keeps the
citations when nothing they read changed) → ``vectors``
(law embeddings, reused when unchanged) → ``load`` (rows into SQLite); ``pipeline.build`` runs
them atomically. Nothing on the query side or in ``plugins/`` imports this package.
"""
