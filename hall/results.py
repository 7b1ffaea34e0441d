"""A tournament on the hall: each table's finished match entered into the tournament as a
provisional result, its record as the evidence, for a referee to confirm.

The feed follows the hall's event store as the live pages do (``Store.since`` on the global
id) and keeps each table's match replayed as its events arrive, so a finished match is seen
once, at the event that ends it (the levels passed, time called, a forfeit). It then enters
the record up to that event through the tournament desk (``store.tournament_desk``), which
checks it as it checks a record typed in at the terminal — with the match replayed here, so
it is not replayed twice (unless a referee's correction is in the record: a replay applies
those in place, the feed does not). The hall server wakes the feed as soon as it has stored
events (``wake``), so a result is entered without waiting for the next look at the store.

Which tournament table a hall table is: its id is the table's number in the latest round
drawn (``7``) or names the round too (``2-7``: round 2, table 7). Any other id is not a
tournament table and is left alone.

Exactly once: the record entered is the record up to the ending event, whatever follows it,
so the same match always gives the same record; the desk takes the same record again as the
entry it made already. A hall server restarted (or a table node resending after a restart)
therefore yields one result, never two. A refusal (a table not in the round, a second match
at a table that has a result, a match under another profile) is logged and kept in
``refusals`` for the console; it never stops the feed.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass

from engine.events import RecordError, event_from_json
from engine.match import Match
from engine.referee_events import Correction, Missed
from hall.tournament_db import HallTournament
from rulebook import profiles
from store import tournament_desk as desk
from store.event_store import Store
from store.tournament_store import StoreError, TournamentStore

log = logging.getLogger("guandan.hall.results")

POLL_S = 0.5  # how often the store is read for new events


@dataclass(frozen=True)
class Intake:
    """What became of one hall table's finished match."""

    table: str
    entered: desk.Entered | None = None
    refused: str | None = None


@dataclass
class _Follow:
    match: Match | None = None
    last_seq: int = -1  # the seq of the last event followed: the ending event's once it ended
    over: bool = False  # entered (or refused): nothing more to do for this table
    corrected: bool = False  # a referee's correction is in the record: the desk replays it itself


def tournament_table(table: str) -> tuple[int | None, int] | None:
    """(round or None for the latest drawn, table number) for a hall table id, or None."""
    return desk.table_named(table)


class ResultFeed:
    """Follows ``store`` and enters each tournament table's finished match, provisional.
    ``step`` does one pass (tests call it); ``start`` runs it on a thread."""

    def __init__(self, store: Store, by: str = "hall", poll: float = POLL_S) -> None:
        self.store = store
        self.by = by
        self.poll = poll
        self._tournament = HallTournament(store.path, "entering finished matches into the tournament")
        self.last_id = 0
        self.intakes: list[Intake] = []
        self._tables: dict[str, _Follow] = {}
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def tournament(self) -> TournamentStore | None:
        return self._tournament.store

    @property
    def refusals(self) -> list[Intake]:
        return [i for i in self.intakes if i.refused is not None]

    def start(self) -> ResultFeed:
        self._thread = threading.Thread(target=self._run, name="hall-results", daemon=True)
        self._thread.start()
        return self

    def wake(self) -> None:
        """Events were stored: look now rather than at the next poll."""
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join()
        self._tournament.close()

    def _run(self) -> None:
        while not self._stop.is_set():
            read_from = self.last_id
            try:
                self.step()
            except Exception as exc:  # a store gone away: the feed tries again, the intake goes on
                log.error("cannot follow the tournament's results (%s)", exc)
            # a step reads a few thousand events: the store may hold more already (a round under
            # way read on start, 2.5 million events at 2,048 tables), so it waits only once it has
            # read them all, not a poll after each read (a restarted hall entered no result for minutes)
            if self.last_id == read_from:
                self._wake.wait(self.poll)
                self._wake.clear()

    def step(self, now: float | None = None) -> list[Intake]:
        """Read what the store has beyond what was read; enter every match that ended, all
        those of one read together (``desk.enter_records``: one load of the tournament and
        one commit, however many tables time was called at)."""
        if self._tournament.open(time.monotonic() if now is None else now) is None:
            return []
        done: list[Intake] = []
        ended: list[tuple[str, _Follow]] = []
        for stored in self.store.since(self.last_id):
            self.last_id = stored.id
            follow = self._follow(stored.table, stored.body)
            if isinstance(follow, Intake):
                done.append(follow)
            elif follow is not None:
                ended.append((stored.table, follow))
        if ended:
            done += self._enter(ended)
        self.intakes += done
        return done

    def _follow(self, table: str, body: dict) -> Intake | _Follow | None:
        """The table's match one event on: its follow once it ended, a refusal if the
        record broke, else None."""
        if tournament_table(table) is None:
            return None
        follow = self._tables.setdefault(table, _Follow())
        if follow.over:
            return None
        try:
            event = event_from_json(body)
            if follow.match is None:
                follow.match = Match(profiles.load(event.profile), event)
            else:
                follow.match.push(event)
        except (RecordError, ValueError, AttributeError) as exc:
            follow.over = True  # a broken record is the referee's at the console; no result from it
            return Intake(table, refused=f"the record breaks at seq {body.get('seq')}: {exc}")
        follow.last_seq = event.seq
        follow.corrected = follow.corrected or isinstance(event, Correction) or (
            isinstance(event, Missed) and event.before is not None)
        if follow.match.result is None:
            return None
        follow.over = True
        return follow

    def _enter(self, ended: list[tuple[str, _Follow]]) -> list[Intake]:
        records = []
        for table, follow in ended:
            round_no, number = tournament_table(table)
            text = self.store.record_text(table, follow.last_seq)  # as stored: not written out again
            records.append(desk.RecordIn(round_no, number, text, f"hall:{table}",
                                         None if follow.corrected else follow.match))
        try:
            outcomes: list = desk.enter_records(self.tournament, records, self.by)
        except StoreError as exc:  # the store itself (a refusal is returned, not raised): none went in
            outcomes = [exc] * len(records)
        out = []
        for (table, follow), got in zip(ended, outcomes, strict=True):
            follow.match = None
            if isinstance(got, desk.Entered):
                out.append(Intake(table, entered=got))
            else:
                log.warning("table %s: its result is not entered: %s", table, got)
                out.append(Intake(table, refused=str(got)))
        return out
