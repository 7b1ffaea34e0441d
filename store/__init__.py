"""What a table and a tournament keep: the event store (every table's record, evidence
frames, referee accounts) and the tournament store, on SQLite or PostgreSQL.

Stores keep facts and nothing derived: a match is replayed from its record
(``engine.match``), standings are worked out from results (``engine.tournament``).
Below the live table, the hall and the web, above the engine: nothing here reads a
camera or serves a page.
"""
