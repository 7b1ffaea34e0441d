"""Live streams at the cost of a socket: the Server-Sent Events that pages follow, served
from one asyncio loop beside waitress, on waitress's own port.

Under waitress every open stream held a worker thread: a thousand viewers of a table or
of the standings were a thousand threads on a hall's two cores, woken together on every
event. Here waitress still accepts every connection and reads every request; a request
for a live stream (``/api/tables/<id>/stream``, with a broadcast delay or without,
``/api/tables/<id>/ticker``, ``/api/hall/stream``, ``/api/tournaments/1/stream``) is then
taken from it (``web.stream_handover``) and its socket joins the loop. A viewer is a socket
and what the kernel and the transport buffer for it.

What a viewer receives is its stream's feed (``web.feeds``), the one description of each
stream that the Flask routes follow too: the table's snapshot and its updates, a delayed
table's (``?delay=S``), the commentary ticker's lines, the hall's summaries. The viewers of
one feed are grouped by where they stand (``News.place``); on each change of the hub (and
every ``DELAY_TICK_S`` for the delayed tables, one ``DelayedFeed`` for every viewer of a
table at one delay) each group's news is made into bytes once and written to each of its
viewers. A keep-alive comment goes out every ``KEEPALIVE_S``.

A tournament page asks for its news with what it shows (``?push=page&lang=zh&since=V``;
the overlay ``?push=standings``): it gets ``version`` now, then, instead of a ``version`` it
would answer by fetching the page again (a thousand Flask requests a result), a ``page``
event whose data is the page's content in its language (or ``standings``, as the API gives
them), its id the version — the messages and when each is due as ``web.feeds.TournamentFeed``
says, made once per change and language by ``web.tournament``'s ``Watch.pushed`` in the
poller's thread, not the loop's, and written to every follower whose page shows another
version; a follower still taking the last push is sent only the newest when it has
(``_Viewer.send_push``).

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
import logging
import re
import threading
import time
from collections.abc import Callable, Hashable, Mapping
from typing import Protocol
from urllib.parse import parse_qs

from store.tournament_store import TournamentStore
from web.feeds import (
    TICK_S,
    DelayedFeed,
    Feed,
    HallFeed,
    TableFeed,
    TickerFeed,
    push_message,
    ticker_after,
    version_message,
)
from web.hub import Hub
from web.sse import KEEPALIVE, KEEPALIVE_S, LANGS, asked_push, broadcast_delay, push_key

TOURNAMENT_POLL_S = 0.02  # one version query this often, whoever follows: a result shows in ≤ 20 ms
SLOW_BYTES = 4 * 1024 * 1024  # a viewer this far behind is dropped (its page reconnects)
DELAY_TICK_S = TICK_S  # the delayed tables' feeds are ticked this often (``web.feeds``)
HEAD = (b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nCache-Control: no-cache\r\n"
        b"X-Accel-Buffering: no\r\nX-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\n"
        b"Connection: close\r\nServer: guandan\r\n\r\n")
_TABLE = re.compile(r"/api/tables/([^/]+)/stream")
_TICKER = re.compile(r"/api/tables/([^/]+)/ticker")
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


class _Following:
    """The viewers of one feed, grouped by where they stand (``web.feeds.News.place``)."""

    def __init__(self, feed: Feed) -> None:
        self.feed = feed
        self.groups: dict[Hashable, set[_Viewer]] = {}

    def viewers(self) -> list[_Viewer]:
        return [v for viewers in self.groups.values() for v in viewers]


class StreamServer:
    """The live streams of one app, on an asyncio loop in a thread of their own."""

    def __init__(self, hub: Hub, tournament: Callable[[], Followed | None]) -> None:
        self.hub = hub
        self.open_tournament = tournament  # the app's tournament, opened if its database holds one
        self.tournament: Followed | None = None
        self.loop = asyncio.new_event_loop()
        #: what is followed — ("table", id), ("delayed", id, delay), ("ticker", id, lang),
        #: ("hall",) — and by whom
        self.following: dict[tuple, _Following] = {}
        self.followers: set[_Viewer] = set()  # the tournament's
        self._ticking = False  # _let_out is due: some delayed table is followed
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
        every = [v for following in self.following.values() for v in following.viewers()]
        return [v for v in every + list(self.followers) if v.transport is not None]

    # --- taking a request over (waitress's thread) -----------------------------------------

    def route(self, method: str, path: str, query: str,
              headers: Mapping[str, str] | None = None) -> tuple[tuple, object] | None:
        """What this server would stream for the request — the feed followed, ("table", id),
        ("delayed", id, delay), ("ticker", id, lang), ("hall",) or ("tournament",), and what
        the follower says it has (the ticker's last line, the tournament's query) — or None
        (waitress serves it: a delay or a ticker line that is not one, an unknown table).
        ``headers``: the request's, as waitress keeps them (``LAST_EVENT_ID``)."""
        if method != "GET":
            return None
        if path == _TOURNAMENT:
            return (("tournament",), query) if self._tournament() is not None else None
        if self.hub.stopped:
            return None
        if path == _HALL:
            return ("hall",), None
        m = _TABLE.fullmatch(path) or _TICKER.fullmatch(path)
        if m is None or self.hub.view(m[1]) is None:
            return None
        args = parse_qs(query)
        if m.re is _TICKER:
            try:
                after = ticker_after((headers or {}).get("LAST_EVENT_ID"), args.get("after", [None])[-1])
            except ValueError:
                return None
            lang = args.get("lang", [None])[-1]
            return ("ticker", m[1], lang if lang in LANGS else None), after
        delay = broadcast_delay(query)
        if delay is None:
            return None
        return (("table", m[1]) if delay == 0 else ("delayed", m[1], delay)), None

    def _tournament(self) -> Followed | None:
        """The tournament, opened by its first follower's request whether or not a page has
        opened it (None while the database holds none)."""
        if self.tournament is None:
            self.tournament = self.open_tournament()
        return self.tournament

    def take(self, sock, what: tuple[tuple, object]) -> None:
        """Follow ``what`` (``route``'s answer) on ``sock`` (a connection whose request has
        been read)."""
        self.loop.call_soon_threadsafe(lambda: self.loop.create_task(self._join(sock, what)))

    # --- in the loop ------------------------------------------------------------------------

    async def _join(self, sock, what: tuple[tuple, object]) -> None:
        try:
            _, viewer = await self.loop.connect_accepted_socket(lambda: _Viewer(self), sock)
        except OSError:
            sock.close()
            return
        viewer.send(HEAD)
        key, since = what
        if key[0] == "tournament":
            self._follow(viewer, since or "")
        elif self.hub.stopped:
            viewer.transport.close()
        else:
            following = self.following.get(key)
            if following is None:
                following = self.following[key] = _Following(self._feed(key))
            news = following.feed.first(since)
            if news.text:
                viewer.send(news.text.encode())
            following.groups.setdefault(news.place, set()).add(viewer)
            if following.feed.ticked and not self._ticking:
                self._ticking = True
                self.loop.call_later(DELAY_TICK_S, self._let_out)

    def _feed(self, key: tuple) -> Feed:
        """The feed ``key`` names (``route``)."""
        kind = key[0]
        if kind == "table":
            return TableFeed(self.hub, key[1])
        if kind == "delayed":
            return DelayedFeed(self.hub, key[1], key[2])
        if kind == "ticker":
            return TickerFeed(self.hub, key[1], key[2])
        return HallFeed(self.hub)

    def _move(self, key: tuple, following: _Following) -> None:
        """Send each group of the feed's viewers its news, made once and written to each of
        them, and regroup them where they stand now; a feed nobody follows is dropped."""
        now: dict[Hashable, set[_Viewer]] = {}
        for place, viewers in following.groups.items():
            if not viewers:
                continue
            news = following.feed.news(place)
            if news.text:
                message = news.text.encode()
                for viewer in list(viewers):
                    viewer.send(message)
            now.setdefault(news.place, set()).update(viewers)
        if now:
            following.groups = now
        else:
            del self.following[key]

    def _let_out(self) -> None:
        """Let the events that fell due out to each delayed table's viewers: one snapshot a
        table that moved, made once for all of them; ticks while any are followed."""
        now = time.time()
        for key, following in list(self.following.items()):
            if not following.feed.ticked:
                continue
            if not following.viewers():
                del self.following[key]
            elif following.feed.tick(now):
                self._move(key, following)
        self._ticking = any(f.feed.ticked for f in self.following.values())
        if self._ticking:
            self.loop.call_later(DELAY_TICK_S, self._let_out)

    def _follow(self, viewer: _Viewer, query: str) -> None:
        """A tournament follower: ``version`` now; a push when its page shows another."""
        if self._version is None:
            self._version = self.tournament.store.version()
        viewer.version = self._version
        viewer.push, since = asked_push(query)
        viewer.send(version_message(self._version).encode())
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
        for following in self.following.values():
            for viewers in following.groups.values():
                viewers.discard(viewer)

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
        """Nothing more will come: every stream but the tournament's ends."""
        for following in self.following.values():
            for viewer in following.viewers():
                if viewer.transport is not None:
                    viewer.transport.close()
        self.following.clear()

    def _fan_out(self) -> None:
        """The hub moved: each feed it moves sends its news, one message per place a group
        of its viewers stands."""
        self._woken = False
        for key, following in list(self.following.items()):
            if not following.feed.ticked:
                self._move(key, following)

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
                made = (push_key(push, version, live), push_message(push, data, version).encode())
            except Exception:  # a page that will not render: its followers keep what they show
                log.exception("the tournament's %s push could not be made", push[0])
                made = None
            self.loop.call_soon_threadsafe(self._tell_pushes, {push: made}, n == len(lacking) - 1)

    def _tell_version(self, version: str) -> None:
        """A new version, to the followers who follow only the version (pushes carry theirs)."""
        message = version_message(version).encode()
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
