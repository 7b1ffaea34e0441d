"""Live streams at the cost of a socket: the Server-Sent Events that pages follow, served
from one asyncio loop beside waitress, on waitress's own port.

Under waitress every open stream held a worker thread: a thousand viewers of a table or
of the standings were a thousand threads on a hall's two cores, woken together on every
event. Here waitress still accepts every connection and reads every request; a request
for a live stream (``/api/tables/<id>/stream``, with a broadcast delay or without,
``/api/hall/stream``, ``/api/tournaments/1/stream``) is then taken from it
(``web.stream_handover``) and its socket joins the loop. A viewer is a socket and what the
kernel and the transport buffer for it; each change is made into bytes once, for every
viewer of the table (or the hall) who stands at the same place, and written to each.

What a viewer receives is what the Flask routes send (web.api, web.tournament): the table's
snapshot, then one ``update`` per change numbered with the store's event id (``Hub.update``
reads events and snapshot together, so each event goes out once); with ``?delay=S`` (a
streamer's delayed view) the table as it stood S seconds ago, then its snapshot again each
time events fall due — one ``DelayedView`` for every viewer of the table at that delay, let
out every ``DELAY_TICK_S``; the hall's summaries, then a ``table`` summary for each table
that moved; the tournament's ``version`` now and on each change; a keep-alive comment every
``KEEPALIVE_S``. Both speak the messages and read the URL as ``web.sse`` says.

A tournament page asks for its news with what it shows (``?push=page&lang=zh&since=V``;
the overlay ``?push=standings``): it gets ``version`` now, then, instead of a ``version`` it
would answer by fetching the page again (a thousand Flask requests a result), a ``page``
event whose data is the page's content in its language (or ``standings``, as the API gives
them), its id the version — made once per change and language by ``web.tournament``'s
``Watch.pushed`` in the poller's thread, not the loop's, and written to every follower
whose page shows another version; a follower still taking the last push is sent only the
newest when it has (``_Viewer.send_push``).

Every stream is public, as the pages are. Anything else — a delay that is not one, a table
the hub has not seen yet, a database that holds no tournament, a request behind another on
a kept-alive connection — stays with waitress and its routes (and their answers: 400, 404).
The tournament is opened by the first request that follows it, here as in Flask's routes
(``web.tournament.opened``): a page reconnecting to a server just started is often the
tournament's first request there, and it is served by the loop as every later one is.

Fed by the hub (``Hub.subscribe``: called once per change, from the hub's thread) and,
for the tournament, by one thread that reads the store's version every
``TOURNAMENT_POLL_S`` while anyone follows it, and makes the pushes. A viewer whose
socket stops taking data (``SLOW_BYTES`` waiting) is closed: its page reconnects and
starts from a snapshot.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import threading
import time
from collections.abc import Callable
from typing import Protocol

from store.tournament_store import TournamentStore
from web.hub import Hub
from web.snapshot import DelayedView
from web.sse import KEEPALIVE, KEEPALIVE_S, asked_push, broadcast_delay, push_key, sse, table_update

TOURNAMENT_POLL_S = 0.02  # one version query this often, whoever follows: a result shows in ≤ 20 ms
SLOW_BYTES = 4 * 1024 * 1024  # a viewer this far behind is dropped (its page reconnects)
DELAY_TICK_S = 0.1  # a delayed stream's events fall due this often: a tenth of a second late at most
HEAD = (b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nCache-Control: no-cache\r\n"
        b"X-Accel-Buffering: no\r\nX-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\n"
        b"Connection: close\r\nServer: guandan\r\n\r\n")
_TABLE = re.compile(r"/api/tables/([^/]+)/stream")
_TOURNAMENT = "/api/tournaments/1/stream"
_HALL = "/api/hall/stream"
_KEEPALIVE = KEEPALIVE.encode()
log = logging.getLogger("guandan.web.streams")


class Followed(Protocol):
    """What the streams need of the tournament (``web.tournament.Watch``): its store, whose
    version they follow, and the pushes its followers ask for."""

    store: TournamentStore

    def pushed(self, what: str, lang: str) -> str: ...


class _Viewer(asyncio.Protocol):
    """One open stream: its transport, and what it follows."""

    def __init__(self, streams: StreamServer) -> None:
        self.streams = streams
        self.transport: asyncio.Transport | None = None
        self.version: str | None = None  # the tournament's version it was last sent
        self.push: tuple[str, str] | None = None  # what it asked pushed: ("page", lang), ("standings", "")
        self.shown: tuple | None = None  # the push_key of what its page shows (None: not known)
        self.held: bytes | None = None  # the newest push, held while the last one is written
        self.paused = False  # the transport's buffer is past its high-water mark

    def connection_made(self, transport) -> None:
        self.transport = transport

    def pause_writing(self) -> None:
        self.paused = True

    def resume_writing(self) -> None:
        self.paused = False
        if self.held is not None:
            held, self.held = self.held, None
            self.send(held)

    def data_received(self, data: bytes) -> None:
        pass  # a stream's client says nothing more

    def connection_lost(self, exc) -> None:
        self.streams.forget(self)

    def send(self, data: bytes) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        if self.transport.get_write_buffer_size() > SLOW_BYTES:
            self.transport.abort()
            return
        self.transport.write(data)

    def send_push(self, data: bytes) -> None:
        """A push: only the newest counts. While the last one is still being written (a
        slow reader, a big page) the newest waits, replacing any before it, so a burst of
        results costs a slow follower one page more, never a backlog or a drop."""
        if self.paused:
            self.held = data
        else:
            self.send(data)


class _Delayed:
    """The viewers of one table at one broadcast delay, and the table as they see it: fed
    and made into a snapshot once for all of them."""

    def __init__(self, late: DelayedView) -> None:
        self.late = late
        self.viewers: set[_Viewer] = set()
        self.text = ""  # the snapshot as JSON text, as it stood at the last feed


class StreamServer:
    """The live streams of one app, on an asyncio loop in a thread of their own."""

    def __init__(self, hub: Hub, tournament: Callable[[], Followed | None], tables: Callable[[], list[str]]) -> None:
        self.hub = hub
        self.all_tables = tables  # the store's tables, as the hall's stream first lists them
        self.open_tournament = tournament  # the app's tournament, opened if its database holds one
        self.tournament: Followed | None = None
        self.loop = asyncio.new_event_loop()
        self.tables: dict[str, dict[tuple[int, int], set[_Viewer]]] = {}  # table → (seen, stamp) → viewers
        self.followers: set[_Viewer] = set()  # the tournament's
        self.hall: dict[tuple[int, int], set[_Viewer]] = {}  # (seen, seatings' mark) → the hall's viewers
        self.delayed: dict[tuple[str, float], _Delayed] = {}  # (table, delay) → its viewers
        self._ticking = False  # _let_out is due: some delayed group is open
        self._version: str | None = None
        self._pushed_at: tuple[str, int] | None = None  # (version, hall tables) the poller last pushed
        self._lacking = False  # a follower joined whose page needs a push
        self._woken = False
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="streams", daemon=True)
        self._poller: threading.Thread | None = None

    def start(self) -> StreamServer:
        self.hub.subscribe(self._changed)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Close every stream and the loop."""
        if self._stopped.is_set():
            return
        self._stopped.set()
        self.hub.unsubscribe(self._changed)
        if self._thread.is_alive():
            self.loop.call_soon_threadsafe(self._close_all)
            self._thread.join(5)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.call_later(KEEPALIVE_S, self._keep_alive)
        self.loop.run_forever()
        self.loop.close()

    def _close_all(self) -> None:
        for viewer in self.viewers():
            viewer.transport.close()
        self.loop.call_soon(self.loop.stop)

    def viewers(self) -> list[_Viewer]:
        """Every open stream (in the loop's thread)."""
        every = [v for groups in self.tables.values() for vs in groups.values() for v in vs]
        every += [v for vs in self.hall.values() for v in vs]
        every += [v for group in self.delayed.values() for v in group.viewers]
        return [v for v in every + list(self.followers) if v.transport is not None]

    # --- taking a request over (waitress's thread) -----------------------------------------

    def route(self, method: str, path: str, query: str) -> tuple[str, object] | None:
        """What this server would stream for the request — ("table", table), ("delayed",
        (table, delay)), ("tournament", query), ("hall", None) — or None (waitress serves it)."""
        if method != "GET":
            return None
        m = _TABLE.fullmatch(path)
        if m:
            delay = broadcast_delay(query)
            if delay is None or self.hub.view(m[1]) is None or self.hub.stopped:
                return None
            return ("table", m[1]) if delay == 0 else ("delayed", (m[1], delay))
        if path == _TOURNAMENT and self._tournament() is not None:
            return "tournament", query
        if path == _HALL and not self.hub.stopped:
            return "hall", None
        return None

    def _tournament(self) -> Followed | None:
        """The tournament, opened by its first follower's request whether or not a page has
        opened it (None while the database holds none)."""
        if self.tournament is None:
            self.tournament = self.open_tournament()
        return self.tournament

    def take(self, sock, what: tuple[str, object]) -> None:
        """Follow ``what`` on ``sock`` (a connection whose request has been read)."""
        self.loop.call_soon_threadsafe(lambda: self.loop.create_task(self._join(sock, what)))

    # --- in the loop ------------------------------------------------------------------------

    async def _join(self, sock, what: tuple[str, object]) -> None:
        try:
            _, viewer = await self.loop.connect_accepted_socket(lambda: _Viewer(self), sock)
        except OSError:
            sock.close()
            return
        viewer.send(HEAD)
        kind, table = what
        if kind in ("table", "hall", "delayed") and self.hub.stopped:
            viewer.transport.close()
        elif kind == "hall":
            self.hub.catch_up()
            seen, seated = self.hub.last_id, self.hub.seated  # read before the summaries, as a table's stamp
            summaries = [self.hub.summary(t) for t in self.all_tables()]
            viewer.send(sse("hall", json.dumps(summaries, ensure_ascii=False), seen).encode())
            self.hall.setdefault((seen, seated), set()).add(viewer)
        elif kind == "table":
            stamp = self.hub.stamp(table)  # read before the snapshot: a seating changed between goes out again
            ident, text = self.hub.snapshot(table)
            viewer.send(sse("snapshot", text, ident).encode())
            self.tables.setdefault(table, {}).setdefault((ident, stamp), set()).add(viewer)
        elif kind == "delayed":
            self._delay(viewer, *table)
        else:
            self._follow(viewer, table or "")

    def _delay(self, viewer: _Viewer, table: str, delay: float) -> None:
        """A viewer of ``table`` at a broadcast delay: the table as it stood ``delay``
        seconds ago now, then as the events fall due (``_let_out``)."""
        group = self.delayed.get((table, delay))
        if group is None:
            group = self.delayed[(table, delay)] = _Delayed(DelayedView(self.hub.view(table), delay))
            group.late.feed(time.time())
            group.text = self._late_snapshot(group)
        viewer.send(sse("snapshot", group.text, group.late.view.last_id).encode())
        group.viewers.add(viewer)
        if not self._ticking:
            self._ticking = True
            self.loop.call_later(DELAY_TICK_S, self._let_out)

    def _late_snapshot(self, group: _Delayed) -> str:
        table = group.late.view.table
        return json.dumps(group.late.view.snapshot(self.hub.store.frames(table)), ensure_ascii=False)

    def _let_out(self) -> None:
        """Let the events that fell due out to each delayed group: one snapshot a group that
        moved, made once and written to each of its viewers; ticks while any are open."""
        now = time.time()
        for key, group in list(self.delayed.items()):
            if not group.viewers:
                del self.delayed[key]
            elif group.late.feed(now):
                group.text = self._late_snapshot(group)
                message = sse("update", table_update([], group.text), group.late.view.last_id).encode()
                for viewer in list(group.viewers):
                    viewer.send(message)
        self._ticking = bool(self.delayed)
        if self._ticking:
            self.loop.call_later(DELAY_TICK_S, self._let_out)

    def _follow(self, viewer: _Viewer, query: str) -> None:
        """A tournament follower: ``version`` now; a push when its page shows another."""
        if self._version is None:
            self._version = self.tournament.store.version()
        viewer.version = self._version
        viewer.push, since = asked_push(query)
        viewer.send(sse("version", json.dumps(self._version)).encode())
        if viewer.push is not None:
            if since == self._version:
                viewer.shown = push_key(viewer.push, since, len(self.hub.views))
            else:
                self._lacking = True  # the poller makes it what it lacks
        self.followers.add(viewer)
        if self._poller is None:
            self._poller = threading.Thread(target=self._poll_tournament, name="tournament-streams", daemon=True)
            self._poller.start()

    def forget(self, viewer: _Viewer) -> None:
        viewer.transport = None
        self.followers.discard(viewer)
        for groups in self.tables.values():
            for viewers in groups.values():
                viewers.discard(viewer)
        for viewers in self.hall.values():
            viewers.discard(viewer)
        for group in self.delayed.values():
            group.viewers.discard(viewer)

    def _changed(self) -> None:
        """The hub moved (its thread): one fan-out is enough for any number of moves."""
        try:
            if self.hub.stopped:
                self.loop.call_soon_threadsafe(self._hub_stopped)
            elif not self._woken:
                self._woken = True
                self.loop.call_soon_threadsafe(self._fan_out)
        except RuntimeError:  # the loop is closed: this server has stopped
            pass

    def _hub_stopped(self) -> None:
        for groups in self.tables.values():
            for viewers in groups.values():
                for viewer in list(viewers):
                    if viewer.transport is not None:
                        viewer.transport.close()
        for viewers in self.hall.values():
            for viewer in list(viewers):
                if viewer.transport is not None:
                    viewer.transport.close()
        for group in self.delayed.values():
            for viewer in list(group.viewers):
                if viewer.transport is not None:
                    viewer.transport.close()
        self.tables.clear()
        self.hall.clear()
        self.delayed.clear()

    def _fan_out(self) -> None:
        """Send each table's change to its viewers: one message per place a group stands."""
        self._woken = False
        hub = self.hub
        for table, groups in list(self.tables.items()):
            moved = hub.stamp(table)
            last = hub.last_id
            now: dict[tuple[int, int], set[_Viewer]] = {}
            for (seen, stamp), viewers in groups.items():
                if not viewers:
                    continue
                key = (seen, stamp)
                if last > seen or moved != stamp:
                    now_id, text, events = hub.update(table, seen)
                    if now_id > seen or moved != stamp:  # new events, or the table's seating changed
                        message = sse("update", table_update(events, text), now_id).encode()
                        for viewer in viewers:
                            viewer.send(message)
                        key = (now_id, moved)
                    else:
                        key = (last, stamp)  # other tables moved on
                now.setdefault(key, set()).update(viewers)
            if now:
                self.tables[table] = now
            else:
                del self.tables[table]
        self._fan_out_hall()

    def _fan_out_hall(self) -> None:
        """Send the hall's viewers a summary of each table that moved since they last heard:
        new events, or a new seating (the pairs a round's draw seats there)."""
        last, seated = self.hub.last_id, self.hub.seated
        now: set[_Viewer] = set()
        for (seen, was_seated), viewers in self.hall.items():
            if viewers and (last > seen or seated > was_seated):
                message = "".join(sse("table", json.dumps(self.hub.summary(t), ensure_ascii=False), last)
                                  for t in self.hub.changed_since(seen, was_seated)).encode()
                for viewer in viewers:
                    viewer.send(message)
            now |= {v for v in viewers if v.transport is not None}
        self.hall = {(last, seated): now} if now else {}

    def _poll_tournament(self) -> None:
        """Read the tournament's version while anyone follows it; tell them of a change, and
        make the pushes its followers lack."""
        watch = self.tournament
        while not self._stopped.wait(TOURNAMENT_POLL_S):
            if not self.followers:
                continue
            version = watch.store.version()
            if version != self._version:
                self._version = version
                self.loop.call_soon_threadsafe(self._tell_version, version)
            now = (version, len(self.hub.views))
            if now != self._pushed_at or self._lacking:
                self._pushed_at, self._lacking = now, False
                self._make_pushes(watch, *now)

    def _make_pushes(self, watch: Followed, version: str, live: int) -> None:
        """Make each push some follower lacks, once for all of them (here, in the poller's
        thread: a big page takes a while to render, and the loop goes on writing), and hand
        each to the loop as soon as it is made — the standings first: at a hall's size the
        page takes a tenth of a second to make alone and several in a busy server, and the
        overlays need not wait for it."""
        lacking = sorted({v.push for v in list(self.followers) if v.push is not None and
                          v.shown != push_key(v.push, version, live)}, key=lambda push: push[0] != "standings")
        for n, push in enumerate(lacking):
            try:
                data = watch.pushed(*push)
                made = (push_key(push, version, live), sse(push[0], data, version).encode())
            except Exception:  # a page that will not render: its followers keep what they show
                log.exception("the tournament's %s push could not be made", push[0])
                made = None
            self.loop.call_soon_threadsafe(self._tell_pushes, {push: made}, n == len(lacking) - 1)

    def _tell_version(self, version: str) -> None:
        """A new version, to the followers who follow only the version (pushes carry theirs)."""
        message = sse("version", json.dumps(version)).encode()
        for viewer in list(self.followers):
            if viewer.version != version:
                viewer.version = version
                if viewer.push is None:
                    viewer.send(message)

    def _tell_pushes(self, messages: dict[tuple[str, str], tuple[tuple, bytes] | None], last: bool = True) -> None:
        """Each push to the followers who asked for it and show something else; one who
        asked for a push nobody lacked when these were made gets its own on the poller's
        next turn (None: it could not be made; not tried again until the next change).
        ``last``: the last of one change's pushes (only then is a push missing news)."""
        for viewer in list(self.followers):
            if viewer.push is None:
                continue
            if viewer.push not in messages:
                self._lacking = self._lacking or (last and viewer.shown is None)
                continue
            made = messages[viewer.push]
            if made is None:
                continue
            key, message = made
            if viewer.shown != key:
                viewer.shown = key
                viewer.send_push(message)

    def _keep_alive(self) -> None:
        for viewer in self.viewers():
            viewer.send(_KEEPALIVE)
        self.loop.call_later(KEEPALIVE_S, self._keep_alive)
