"""The API's check that a table's record still replays, without replaying all of it per write.

Every write through the API — a table node's events, a referee's act — is refused when the
stored record followed by the new events would no longer replay. Replaying the whole record
for that costs time in proportion to its length, so a match published one event per
request would slow with every write. ``Replays`` keeps,
per table, the match replayed from the events the hub has seen; it takes on events stored
since (whoever wrote them: this server, a table node or the hall ingester writing to the
store directly) and checks new events on a fork of it (``Match.fork``). The verdict and its
message are those of a full replay: whatever could make them differ — an empty record, a
correction (it acts on earlier events), an event a stored correction targets — goes through
the full replay, as before.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable, Sequence

from engine.events import Correction, Event, Missed, RecordError
from engine.match import Match
from engine.profile import Profile
from engine.record import parse_lines, read_line, replay
from store.event_store import StoredEvent

ProfileFor = Callable[[str], Profile]


def replay_all(stored: Sequence[StoredEvent], new: list[dict], profile_for: ProfileFor) -> None:
    """The full check: the stored events, then the new ones not already stored, replayed
    from their JSON lines. Raises ``RecordError`` where the record breaks, without the line
    (the lines are the check's, not the writer's)."""
    have = {s.body["seq"] for s in stored}
    bodies = [s.body for s in stored] + [b for b in new if b["seq"] not in have]
    try:
        replay(parse_lines(json.dumps(b) for b in bodies), profile_for)
    except RecordError as exc:
        raise exc.without_line from None


def _again(error: RecordError) -> RecordError:
    """A new ``RecordError`` saying what ``error`` says: one kept to be raised at every write
    is raised afresh, so that no traceback grows on it."""
    return RecordError(error.code, seq=error.seq, **error.values)


def _parsed(bodies: Iterable[dict]) -> list[Event]:
    """The events of ``bodies`` as ``parse_lines`` reads them: from their JSON lines (as the
    store holds them), skipping what it skips."""
    return [e for e in (read_line(json.dumps(b)) for b in bodies) if e is not None]


class _Table:
    """One table's stored record replayed: the first ``count`` events of its hub view.

    The view only grows, so ``count`` and the global id of the last event taken pin the
    prefix; any other view means starting again. ``parse_error`` and ``replay_error`` keep
    why the stored record itself does not replay (every write is refused then), without the
    line, and apart, as a full replay reads every line before it replays any."""

    def __init__(self, profile_for: ProfileFor) -> None:
        self.profile_for = profile_for
        self.lock = threading.Lock()
        self.count = 0
        self.last_id = 0
        self.match: Match | None = None
        self.parse_error: RecordError | None = None
        self.replay_error: RecordError | None = None
        self.seqs: set[int] = set()
        self.corrected: set[int] = set()  # the seqs a stored correction targets

    def follow(self, stored: Sequence[StoredEvent]) -> None:
        """Catch up with ``stored`` (the view): push what is new onto the match, or replay
        it all where pushing could differ from a replay."""
        n = len(stored)
        same_prefix = 0 < self.count <= n and stored[self.count - 1].id == self.last_id
        if not same_prefix:
            self.rebuild(stored)
            return
        if n == self.count:
            return
        if self.match is None:  # the stored record is broken: what came since may change why
            self.rebuild(stored)
            return
        tail = stored[self.count:n]
        try:
            events = _parsed(s.body for s in tail)
        except RecordError:
            self.rebuild(stored)  # the record's own message, from the full replay
            return
        if any(isinstance(e, (Correction, Missed)) or e.seq in self.corrected for e in events):
            self.rebuild(stored)
            return
        taken, self.count = self.count, 0  # half-pushed, the match is not to be trusted
        try:
            for event in events:
                self.match.push(event)
        except RecordError:
            self.rebuild(stored)  # the replay says where it broke
            return
        self.count = taken
        self._took(tail)

    def rebuild(self, stored: Sequence[StoredEvent]) -> None:
        """Replay the stored record from its lines, as ``replay_all`` does."""
        self.count, self.last_id, self.match = 0, 0, None
        self.parse_error = self.replay_error = None
        self.seqs, self.corrected = set(), set()
        try:
            record = parse_lines(json.dumps(s.body) for s in stored)
        except RecordError as exc:
            self.parse_error = exc.without_line
        else:
            try:
                self.match = replay(record, self.profile_for)
            except RecordError as exc:
                self.replay_error = exc.without_line
            self.corrected = {e.target for e in record.events if isinstance(e, Correction)}
        self._took(stored)

    def _took(self, stored: Sequence[StoredEvent]) -> None:
        if stored:
            self.count += len(stored)
            self.last_id = stored[-1].id
            self.seqs.update(s.body["seq"] for s in stored)


class Replays:
    """Per table, the stored record replayed, for checking writes. Safe to share between
    threads (waitress serves each request on its own): one lock per table, so a table's
    rebuild never holds up a write to another."""

    def __init__(self) -> None:
        self._tables: dict[str, _Table] = {}
        self._lock = threading.Lock()

    def check(self, table: str, stored: Sequence[StoredEvent], new: list[dict], profile_for: ProfileFor) -> None:
        """Raise ``RecordError`` — with the message a full replay gives — when ``stored`` (the
        table's events as the hub has them, oldest first) followed by those of ``new`` not
        already stored would not replay."""
        stored = stored[:]  # the hub appends to its view meanwhile; check what stood at the call
        with self._lock:
            state = self._tables.get(table)
            if state is None or state.profile_for is not profile_for:  # other profiles: another replay
                state = self._tables[table] = _Table(profile_for)
        with state.lock:
            if not stored:
                replay_all(stored, new, profile_for)  # the error names the missing header
                return
            state.follow(stored)
            if state.parse_error is not None:
                raise _again(state.parse_error)
            events = _parsed(b for b in new if b["seq"] not in state.seqs)
            if any(isinstance(e, (Correction, Missed)) or e.seq in state.corrected for e in events):
                replay_all(stored, new, profile_for)  # a correction or missed play acts on what came before it
                return
            if state.replay_error is not None:
                raise _again(state.replay_error)
            fork = state.match.fork()
        for event in events:
            fork.push(event)
