"""The tournament in the hall's database, found once it is there.

A hall server may start before the tournament is made (``guandan tournament new --db`` on
the same database, any time), and most halls run none: whatever follows the tournament
(``hall.results``, ``hall.draw_post``) asks here, and the database is looked at again only
every ``OPEN_EVERY_S`` until it holds one.
"""

from __future__ import annotations

import logging

from store.tournament_store import StoreError, TournamentStore

log = logging.getLogger("guandan.hall.tournament")

OPEN_EVERY_S = 5.0  # how often a database without a tournament is looked at again


class HallTournament:
    def __init__(self, path: str, doing: str) -> None:
        self.path = path
        self.doing = doing  # what follows it, for the log: "entering finished matches"
        self.store: TournamentStore | None = None
        self._next_open = 0.0

    def open(self, now: float) -> TournamentStore | None:
        """The tournament's store, or None while the database holds none (``now``: a
        monotonic time, for when to look again)."""
        if self.store is not None or now < self._next_open:
            return self.store
        self._next_open = now + OPEN_EVERY_S
        try:
            self.store = TournamentStore.open(self.path)
        except StoreError:
            return None  # no tournament in this database (yet)
        log.info("%s: %s", self.store.name, self.doing)
        return self.store

    def close(self) -> None:
        if self.store is not None:
            self.store.close()
