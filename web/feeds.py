"""Each live stream's news, written once: what a new follower is sent, and what it is sent
after each change from where it stands.

A feed knows no socket and no thread. Where a follower stands (``News.place``) is a plain
value — the event id and seating mark a table's viewer has heard up to, the ticker lines it
has — so the stream loop beside waitress (``web.streams``, every live stream under
``guandan serve``) groups its viewers by place and makes each message once per group, and
``served`` follows one feed for one follower from a Flask route (``guandan serve --debug``,
and whatever the loop leaves to waitress: a refused stream's 400 or 404 is the route's).
Both speak the messages ``web.sse`` writes.

A table's, the hall's and the commentary ticker's feeds move when the hub does; a delayed
table's (``?delay=S``, a streamer's view) as time passes, each event falling due its delay
after it was stored (``tick``); the tournament's with its store's version (the loop's own
poller makes its pushes: ``web.streams``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass

from flask import Response, stream_with_context

from rulebook.commentary import TickerLine, ticker
from rulebook.i18n import LANGS
from web.hub import Hub
from web.snapshot import DelayedView, TableView
from web.sse import KEEPALIVE, KEEPALIVE_S, push_key, sse, table_update

TICK_S = 0.1  # a delayed table's events fall due this often: a tenth of a second late at most
TICKER_BACKLOG = 20  # the ticker's lines a new follower is sent first


@dataclass(frozen=True)
class News:
    """What a follower is sent (``messages``: whole SSE messages; none: nothing) and where
    it stands after it (``place``)."""

    messages: tuple[str, ...]
    place: Hashable

    @property
    def text(self) -> str:
        """The messages as written to a socket, one after the other."""
        return "".join(self.messages)


class Feed:
    """One live stream's news. ``first(since)``: what a new follower is sent (``since``:
    what it says it has — the ticker's last line, the version a tournament page shows);
    ``news(place)``: what a follower standing at ``place`` is sent now, made once for every
    follower there; ``wait(place, timeout)``: block until it may have moved (a Flask
    route's follower; the loop is told by the hub instead). ``ticked`` feeds move with the
    time (``tick``), the others with the hub."""

    ticked = False

    def first(self, since: object = None) -> News:
        raise NotImplementedError

    def news(self, place: Hashable) -> News:
        raise NotImplementedError

    def wait(self, place: Hashable, timeout: float) -> None:
        raise NotImplementedError

    def tick(self, now: float) -> bool:
        """Let out what fell due by ``now`` (wall-clock seconds); whether anything did."""
        return False

    @property
    def ended(self) -> bool:
        """Nothing more will come: the stream ends."""
        return False


class TableFeed(Feed):
    """A table's stream: its snapshot, then an ``update`` with the new events and the
    snapshot after each change — numbered with the store's event id (``Hub.update`` reads
    events and snapshot together, so each event goes out once) — and again when its
    seating changes (a round drawn). Place: (event id, seating stamp)."""

    def __init__(self, hub: Hub, table: str) -> None:
        self.hub, self.table = hub, table

    def first(self, since: object = None) -> News:
        stamp = self.hub.stamp(self.table)  # read before the snapshot: a seating changed between goes out again
        ident, text = self.hub.snapshot(self.table)
        return News((sse("snapshot", text, ident),), (ident, stamp))

    def news(self, place: Hashable) -> News:
        seen, stamp = place
        moved, last = self.hub.stamp(self.table), self.hub.last_id
        if last <= seen and moved == stamp:
            return News((), place)
        now_id, text, events = self.hub.update(self.table, seen)
        if now_id > seen or moved != stamp:  # new events, or the table's seating changed
            return News((sse("update", table_update(events, text), now_id),), (now_id, moved))
        return News((), (last, stamp))  # other tables moved on

    def wait(self, place: Hashable, timeout: float) -> None:
        seen, stamp = place
        self.hub.wait(seen, timeout, self.table, stamp)

    @property
    def ended(self) -> bool:
        return self.hub.stopped


class HallFeed(Feed):
    """The hall's stream: every table's summary, then a ``table`` summary for each table
    that moved — new events, or a new seating (the pairs a round's draw seats there).
    Place: (event id, the seatings' mark)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def first(self, since: object = None) -> News:
        self.hub.catch_up()
        seen, seated = self.hub.last_id, self.hub.seated  # read before the summaries, as a table's stamp
        summaries = [self.hub.summary(t["id"]) for t in self.hub.store.tables()]
        return News((sse("hall", json.dumps(summaries, ensure_ascii=False), seen),), (seen, seated))

    def news(self, place: Hashable) -> News:
        seen, was_seated = place
        last, seated = self.hub.last_id, self.hub.seated
        if last <= seen and seated == was_seated:
            return News((), place)
        return News(tuple(sse("table", json.dumps(self.hub.summary(t), ensure_ascii=False), last)
                          for t in self.hub.changed_since(seen, was_seated)), (last, seated))

    def wait(self, place: Hashable, timeout: float) -> None:
        seen, seated = place
        self.hub.wait(seen, timeout, seated=seated)

    @property
    def ended(self) -> bool:
        return self.hub.stopped


def ticker_of(view: TableView) -> list[TickerLine]:
    """A table's commentary ticker, worked out once per change of the table and shared
    (``Hub.derived``: the JSON route and every stream use this one function)."""
    return ticker(view.match) if view.match is not None else []


def ticker_after(last_event_id: str | None, after: str | None) -> int | None:
    """The ticker lines a follower has, from its ``Last-Event-ID`` or ``?after=N`` (None:
    neither, a new follower); ``ValueError`` where it is not a line's number."""
    asked = last_event_id or after
    if asked is None:
        return None
    if not asked.isdigit():
        raise ValueError(asked)
    return int(asked)


class TickerFeed(Feed):
    """The commentary ticker's stream: one ``line`` message per line, its data ``{"n",
    "seq", "t", "hand", "kind", "zh", "en"}`` (and ``text`` in ``lang``), its id the line's
    number ``n`` from 1; a follower that says it has line N (``first(N)``) goes on after
    it, a new one gets the last ``TICKER_BACKLOG`` lines first. A correction that takes
    lines back goes on from there. Place: (event id, lines sent)."""

    def __init__(self, hub: Hub, table: str, lang: str | None) -> None:
        self.hub, self.table = hub, table
        self.lang = lang if lang in LANGS else None

    def first(self, since: object = None) -> News:
        lines = self.hub.derived(self.table, ticker_of) or []
        sent = max(0, len(lines) - TICKER_BACKLOG) if since is None else int(since)
        return self._after(self.hub.last_id, sent)

    def news(self, place: Hashable) -> News:
        seen, sent = place
        if self.hub.last_id <= seen:
            return News((), place)
        return self._after(self.hub.last_id, sent)

    def _after(self, seen: int, sent: int) -> News:
        """The lines after line ``sent`` (the hub read up to ``seen`` before them)."""
        lines = self.hub.derived(self.table, ticker_of) or []
        sent = min(sent, len(lines))
        out = []
        for n in range(sent + 1, len(lines) + 1):
            data = lines[n - 1].to_json() | {"n": n}
            if self.lang:
                data["text"] = data[self.lang]
            out.append(sse("line", json.dumps(data, ensure_ascii=False), n))
        return News(tuple(out), (seen, len(lines)))

    def wait(self, place: Hashable, timeout: float) -> None:
        self.hub.wait(place[0], timeout)

    @property
    def ended(self) -> bool:
        return self.hub.stopped


class DelayedFeed(Feed):
    """A table as it stood ``delay`` seconds ago (the OBS overlay's ``?delay=S``): that
    snapshot, then the snapshot again (an ``update`` with no events) each time events fall
    due. One ``DelayedView``, fed by ``tick``, serves every follower of the feed: they
    all stand where it stands. Place: the last event let out."""

    ticked = True

    def __init__(self, hub: Hub, table: str, delay: float) -> None:
        self.hub = hub
        self.late = DelayedView(hub.view(table), delay)
        self.text = ""  # the snapshot as JSON text, as it stood at the last tick

    def first(self, since: object = None) -> News:
        if not self.text:  # its first follower: the table as it stood ``delay`` seconds ago
            self.tick(time.time())
        return News((sse("snapshot", self.text, self.late.view.last_id),), self.late.view.last_id)

    def tick(self, now: float) -> bool:
        if not self.late.feed(now) and self.text:
            return False
        table = self.late.view.table
        self.text = json.dumps(self.late.view.snapshot(self.hub.store.frames(table)), ensure_ascii=False)
        return True

    def news(self, place: Hashable) -> News:
        last = self.late.view.last_id
        if last == place:
            return News((), place)
        return News((sse("update", table_update([], self.text), last),), last)

    def wait(self, place: Hashable, timeout: float) -> None:
        time.sleep(TICK_S)
        self.hub.catch_up()

    @property
    def ended(self) -> bool:
        return self.hub.stopped


def version_message(version: str) -> str:
    """The tournament's ``version`` message."""
    return sse("version", json.dumps(version))


def push_message(push: tuple[str, str], data: str, version: str) -> str:
    """A tournament follower's push (``page``, ``standings``): what its page shows, made
    for ``version``."""
    return sse(push[0], data, version)


class TournamentFeed(Feed):
    """The tournament's stream: ``version`` now, then again whenever anything is entered;
    a follower that asked for a push (``web.sse.asked_push``: ``("page", lang)`` or
    ``("standings", "")``) is sent the page's content or the standings themselves instead,
    whenever its page shows another version or another set of the hall's tables (``push_key``).
    ``version`` reads the store's version (looked at every ``poll_s`` by a Flask route's
    follower), ``pushed`` makes a push's data, ``live`` counts the hall's tables. Place:
    (version sent, what its page shows)."""

    def __init__(self, version: Callable[[], str], pushed: Callable[[str, str], str], live: Callable[[], int],
                 push: tuple[str, str] | None, poll_s: float) -> None:
        self.version, self.pushed, self.live, self.push = version, pushed, live, push
        self.poll_s = poll_s

    def first(self, since: object = None) -> News:
        """``since``: the version the follower's page shows (None: not known)."""
        version = self.version()
        shown = push_key(self.push, version, self.live()) if self.push is not None and since == version else None
        return self._pushes((version_message(version),), version, shown)

    def news(self, place: Hashable) -> News:
        seen, shown = place
        version = self.version()
        return self._pushes((version_message(version),) if version != seen and self.push is None else (),
                            version, shown)

    def _pushes(self, messages: tuple[str, ...], version: str, shown: tuple | None) -> News:
        """``messages``, and the push when the follower's page shows something else."""
        if self.push is not None:
            key = push_key(self.push, version, self.live())
            if key != shown:
                messages, shown = (*messages, push_message(self.push, self.pushed(*self.push), version)), key
        return News(messages, (version, shown))

    def wait(self, place: Hashable, timeout: float) -> None:
        time.sleep(self.poll_s)


def followed(feed: Feed, since: object = None) -> Iterator[str]:
    """One follower's stream of ``feed``: its first news, then its news whenever it may
    have moved, and a keep-alive comment when nothing has been sent for ``KEEPALIVE_S``;
    it ends when the feed does."""
    news = feed.first(since)
    yield from news.messages
    place, quiet_since = news.place, time.monotonic()
    while not feed.ended:
        feed.wait(place, KEEPALIVE_S)
        if feed.ticked:
            feed.tick(time.time())
        news = feed.news(place)
        place = news.place
        if news.messages:
            quiet_since = time.monotonic()
            yield from news.messages
        elif time.monotonic() - quiet_since >= KEEPALIVE_S and not feed.ended:
            quiet_since = time.monotonic()
            yield KEEPALIVE


def served(feed: Feed, since: object = None) -> Response:
    """A Flask route's Server-Sent Events response following ``feed`` (``followed``)."""
    return Response(stream_with_context(followed(feed, since)), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
