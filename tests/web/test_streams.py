"""The live streams served beside waitress (web/streams.py), against ``guandan serve`` as a
real process on loopback with four worker threads — fewer than the viewers, so every stream
here would have stalled when each held a thread: two hundred viewers of one table each
receive the snapshot and then every event once, in order, while pages are still served;
the tournament's viewers each get every version once, the first of them a fresh server's
first requests (as on a server that had no tournament when it started, they are served by
the loop as later ones are); the tournament page's viewers are pushed the page's content in
their language and the overlay's the standings — the same as a fresh load and the API show
— with nothing to fetch again; the hall's see the table move to its last event, and a
table's new seating (a round drawn); a stream asked for on a connection kept alive after a
page is taken over too; viewers of a streamer's delayed view (more than the threads) each
see every event the delay late; a delay that is not one and an unknown table stay with
waitress's routes. In-process: keep-alives, the end of the streams when the hub stops (no
keep-alive loop), closing the server with streams open, a follower slow to read its pushes
sent only the newest."""

from __future__ import annotations

import asyncio
import http.client
import json
import re
import socket
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from engine.tournament import Pair, Tournament
from rulebook import profiles
from scorer.serve_cli import listening
from store import seatings
from store import tournament_desk as desk
from store.event_store import Store
from store.tournament_store import TournamentStore
from tests.web.conftest import header_json, start_serve
from web import create_app, streams

VIEWERS = 200
LOOPS = streams.HEAD.decode().split("\r\n\r\n")[0]  # the head of a stream the loop took over from waitress
EVENTS = 20
RESULTS = 20  # entered one by one for a follower slow to read


@pytest.fixture
def db(tmp_path):
    """A store with table b1 dealt, a user's token, and a tournament of 24 pairs (round 1 drawn)."""
    store = Store(tmp_path / "live.db")
    store.add_user("li", "s3cret-pass")
    store.add_table("b1", header_json("b1"))
    store.append("b1", [{"seq": 1, "t": 1, "type": "deal", "leader": "E"}])
    pairs = [Pair(f"p{i}", f"第{i}队", ("甲", "乙")) for i in range(1, 25)]
    with TournamentStore.open(store.path, create=True) as t_store:
        t_store.save_tournament(Tournament("杯", "swiss", 2, profiles.load("linquan"), 7, pairs), "linquan")
        desk.draw_next(t_store, None, "裁判长")
    return store


@pytest.fixture
def served(db):
    """``guandan serve`` with four threads on ``db``: (base URL, port, bearer token)."""
    proc, base = start_serve(db.path, threads=4)
    yield base, int(base.rsplit(":", 1)[1]), db.new_token("li")
    proc.terminate()
    proc.wait(timeout=10)


def post(base: str, path: str, body: dict, token: str) -> None:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    urllib.request.urlopen(req, timeout=30).read()


def messages(text: str) -> list[tuple[str | None, str, str]]:
    """An SSE body as (id, event, data) messages; comments (keep-alives) left out."""
    out = []
    for block in text.split("\n\n")[:-1]:
        fields = dict(line.split(": ", 1) for line in block.split("\n") if line and not line.startswith(":"))
        if fields:
            out.append((fields.get("id"), fields["event"], fields["data"]))
    return out


async def _viewer(port: int, path: str, body: list[str], connected: asyncio.Event, counter: list,
                  arrivals: list[float] | None = None) -> None:
    """One stream's viewer: its head, then what it reads, into ``body``; with ``arrivals``,
    the wall-clock time each message after the first was read whole."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    head = await reader.readuntil(b"\r\n\r\n")
    body.append(head.decode())
    first = await reader.readuntil(b"\n\n")
    body.append(first.decode())
    counter[0] += 1
    if counter[0] == counter[1]:
        connected.set()
    try:
        while chunk := await reader.readuntil(b"\n\n") if arrivals is not None else await reader.read(65536):
            body.append(chunk.decode())
            if arrivals is not None and not chunk.startswith(b":"):  # a keep-alive is no message
                arrivals.append(time.time())
    except asyncio.IncompleteReadError:
        pass
    finally:
        writer.close()


def follow(port: int, path: str, viewers: int, then) -> list[tuple[str, list]]:
    """Open ``viewers`` streams of ``path``; once all have their first message, ``then()``
    (in a thread) and a little while to deliver; each viewer's response head and messages."""
    return follow_each(port, [path] * viewers, then)


def follow_each(port: int, paths: list[str], then, arrivals: list[list[float]] | None = None,
                settle: float = 1.5) -> list[tuple[str, list]]:
    """``follow``, a viewer for each of ``paths``; with ``arrivals`` (a list for each), the
    time each one's messages after the first arrived; ``settle`` seconds after ``then()``."""
    async def main():
        bodies: list[list[str]] = [[] for _ in paths]
        connected, counter = asyncio.Event(), [0, len(paths)]
        times = arrivals or [None] * len(paths)
        tasks = [asyncio.create_task(_viewer(port, path, body, connected, counter, at))
                 for path, body, at in zip(paths, bodies, times, strict=True)]
        await asyncio.wait_for(connected.wait(), 60)
        await asyncio.get_running_loop().run_in_executor(None, then)
        await asyncio.sleep(settle)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return [(body[0], messages("".join(body[1:]))) for body in bodies]
    # a loop of its own in a thread of its own: a browser test earlier in the session leaves
    # playwright's loop running in this one, where asyncio.run() refuses to start
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main()).result()


def play_events(base: str, token: str) -> list[int]:
    """Post ``EVENTS`` events to b1 one at a time: East leads singles, the others pass."""
    singles = ["S3", "S4", "S5", "S6", "S7", "S8"]
    for i in range(EVENTS):
        event = {"seq": i + 2, "t": float(i + 2), "type": "pass", "seat": "ENWS"[i % 4]}
        if i % 4 == 0:
            event |= {"type": "play", "cards": [singles[i // 4]]}
        post(base, "/api/tables/b1/events", {"events": [event]}, token)
        time.sleep(0.02)
    return list(range(2, EVENTS + 2))


@pytest.mark.slow
def test_two_hundred_viewers_of_a_table_each_get_every_event_once_in_order(served):
    base, port, token = served
    pages: list[int] = []

    def write_and_browse():
        play_events(base, token)
        pages.append(urllib.request.urlopen(base + "/table/b1", timeout=10).status)  # a page, with 200 streams open

    seen = follow(port, "/api/tables/b1/stream", VIEWERS, write_and_browse)
    assert pages == [200]
    for head, got in seen:
        assert head.startswith("HTTP/1.1 200 OK") and "Content-Type: text/event-stream" in head
        assert got[0][1] == "snapshot" and json.loads(got[0][2])["table"] == "b1"
        seqs = [e["seq"] for _, event, data in got[1:] for e in json.loads(data)["events"]]
        assert [event for _, event, _ in got[1:]] == ["update"] * len(got[1:])
        assert seqs == list(range(2, EVENTS + 2))  # every event once, in order
        ids = [int(ident) for ident, _, _ in got]
        assert ids == sorted(set(ids))
        last = json.loads(got[-1][2])["snapshot"]
        assert last["id"] == ids[-1]


@pytest.mark.slow
def test_the_tournaments_viewers_each_get_every_version_once(served):
    """Fifty followers, more than the server's threads, are the fresh server's first requests
    (pages reconnecting to a server just restarted): the loop serves them, as it serves
    those who come after a page has opened the tournament."""
    base, port, token = served
    first = follow_each(port, ["/api/tournaments/1/stream"] * 50, lambda: None, settle=0.1)
    assert all(head.startswith(LOOPS) and got[0][1] == "version" for head, got in first)
    tables = json.loads(urllib.request.urlopen(base + "/api/tournaments/1/draws?round=1").read())[0]["tables"]

    def enter_results():
        for tb in tables[:5]:
            post(base, "/api/tournaments/1/results", {"table": tb["table"], "forfeit": tb["ns"]}, token)
            time.sleep(0.1)

    seen = follow(port, "/api/tournaments/1/stream", 50, enter_results)
    for head, got in seen:
        assert head.startswith(LOOPS) and "Content-Type: text/event-stream" in head
        assert [event for _, event, _ in got] == ["version"] * 6
        assert [int(json.loads(data).split(".")[1]) for _, _, data in got] == [0, 1, 2, 3, 4, 5]


@pytest.fixture
def no_tournament_yet(tmp_path):
    """A store with no tournament, served in-process: (store, port)."""
    store = Store(tmp_path / "later.db")
    for _, _, port in serve_in_thread(store):
        yield store, port


def test_a_tournament_made_after_the_server_started_is_followed_from_the_loop(no_tournament_yet):
    """Before ``guandan tournament new`` a follower is told there is none (Flask's 404, in
    the asker's language); once the database holds one, its followers go to the loop, the
    first of them too — no page has to open it first."""
    store, port = no_tournament_yet
    with pytest.raises(urllib.error.HTTPError) as none:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tournaments/1/stream?lang=en", timeout=10)
    assert none.value.code == 404
    assert json.loads(none.value.read())["error"].startswith("this server's database holds no tournament")
    with TournamentStore.open(store.path, create=True) as t_store:
        pairs = [Pair(f"p{i}", f"第{i}队") for i in range(1, 5)]
        t_store.save_tournament(Tournament("杯", "swiss", 2, profiles.load("linquan"), 7, pairs), "linquan")
    sock = _open(port, "/api/tournaments/1/stream")
    head = b""
    while b"event: version" not in head and (chunk := sock.recv(65536)):
        head += chunk
    sock.close()
    assert head.decode().startswith(LOOPS) and b"event: version" in head


def get(base: str, path: str) -> str:
    return urllib.request.urlopen(base + path, timeout=10).read().decode()


def results_in(version: str) -> int:
    """The count of results in a tournament's version ("rounds.results.confirmations.withdrawals")."""
    return int(version.split(".")[1])


@pytest.mark.slow
def test_the_tournament_pages_viewers_are_pushed_what_they_show(served):
    """Each page's viewer is pushed the page's content in its language, each overlay the
    standings, every version in order up to the last (what a fresh load and the API then
    show), with no ``version`` to answer by fetching again; a page that shows the version
    already is pushed nothing until it changes."""
    base, port, token = served
    shown = re.search(r'data-version="([^"]+)"', get(base, "/tournament/1"))[1]  # opens the tournament too
    tables = json.loads(get(base, "/api/tournaments/1/draws?round=1"))[0]["tables"]
    paths = ([f"/api/tournaments/1/stream?push=page&lang=zh&since={shown}"] * 30 +
             ["/api/tournaments/1/stream?push=page&lang=en"] * 20 + ["/api/tournaments/1/stream?push=standings"] * 20)

    def enter_results():
        time.sleep(0.5)  # the pushes of what the pages without ``since`` show now go out first
        for tb in tables[:5]:
            post(base, "/api/tournaments/1/results", {"table": tb["table"], "forfeit": tb["ns"]}, token)
            time.sleep(0.1)

    seen = follow_each(port, paths, enter_results)
    final = {"zh": get(base, "/tournament/1"), "en": get(base, "/tournament/1?lang=en")}
    standings = get(base, "/api/tournaments/1/standings")
    last: dict[str, set[str]] = {}
    for path, (head, got) in zip(paths, seen, strict=True):
        assert "Content-Type: text/event-stream" in head
        assert got[0][1] == "version" and json.loads(got[0][2]) == shown
        pushed = "standings" if "standings" in path else "page"
        assert [event for _, event, _ in got[1:]] == [pushed] * len(got[1:])  # nothing to fetch again
        counts = [results_in(ident) for ident, _, _ in got[1:]]
        assert counts == sorted(set(counts)) and counts[-1] == 5  # in order, up to the last result
        if "since" in path:
            assert counts[0] > 0  # the page showed version 0: nothing pushed until it changed
        else:
            assert counts[0] == 0  # what the stream's follower shows now
        last.setdefault(path, set()).add(got[-1][2])
    for path, data in last.items():
        assert len(data) == 1  # one message, made once for every viewer
        (text,) = data
        if "standings" in path:
            assert json.loads(text) == json.loads(standings)
        else:
            lang = "en" if "lang=en" in path else "zh"
            content = json.loads(text)
            assert content.lstrip().startswith('<div id="tournament"') and content in final[lang]
    assert "Standings" in json.loads(last[paths[-21]].pop())


@pytest.mark.slow
def test_delayed_viewers_see_every_event_the_delay_late_more_of_them_than_threads(served, db):
    """A streamer's delayed view (``?delay=S``, the OBS overlay's option) from the loop: 40
    viewers at one second and 10 at half a second, with four server threads, each see the
    table as it stood then, every event let out no sooner than its delay after it was
    stored, and no more than a tick and the fan-out later."""
    base, port, token = served
    paths = ["/api/tables/b1/stream?delay=1"] * 40 + ["/api/tables/b1/stream?delay=0.5"] * 10
    arrivals: list[list[float]] = [[] for _ in paths]
    seen = follow_each(port, paths, lambda: play_events(base, token), arrivals, settle=2.5)
    stored = {s.id: s.received for s in db.since(0)}
    last = max(stored)
    for path, (head, got), times in zip(paths, seen, arrivals, strict=True):
        delay = float(path.rsplit("=", 1)[1])
        assert "Content-Type: text/event-stream" in head and got[0][1] == "snapshot"
        updates = got[1:]
        assert [event for _, event, _ in updates] == ["update"] * len(updates) and len(times) == len(updates)
        ids = [int(ident) for ident, _, _ in updates]
        assert ids == sorted(set(ids)) and ids[-1] == last  # in order, up to the last event
        for ident, at in zip(ids, times, strict=True):
            late = at - stored[ident]
            assert delay <= late <= delay + 1.0, (path, ident, late)
        assert json.loads(updates[-1][2])["snapshot"]["id"] == last


@pytest.mark.slow
def test_the_halls_viewers_see_the_table_move_to_its_last_event(served):
    base, port, token = served
    seen = follow(port, "/api/hall/stream", 50, lambda: play_events(base, token))
    for head, got in seen:
        assert "Content-Type: text/event-stream" in head
        assert got[0][1] == "hall" and [t["table"] for t in json.loads(got[0][2])] == ["b1"]
        moves = [(int(ident), json.loads(data)) for ident, event, data in got[1:]]
        assert moves and all(event == "table" for _, event, _ in got[1:])
        assert [ident for ident, _ in moves] == sorted({ident for ident, _ in moves})  # each change once, in order
        assert moves[-1][1]["table"] == "b1" and moves[-1][1]["id"] == moves[-1][0]  # the last event reached


#: a tournament table's seating as the hall keeps it for its pages (``store.seatings``)
SEATING = {"event": "杯", "round": 1, "rounds": 2, "table": 1, "state": "playing", "result": None,
           "pairs": {"NS": {"id": "p3", "name": "第3队", "number": 3},
                     "EW": {"id": "p8", "name": "第8队", "number": 8}}}


def test_the_halls_viewers_are_sent_a_tables_new_seating(in_process, db):
    """A round drawn changes no table's record, only its seating: the hall's viewers are
    sent the table's summary with the pairs drawn at it, as for an event."""
    _, _, port = in_process
    sock = _open(port, "/api/hall/stream")
    seen = b""
    while b"event: hall" not in seen:
        seen += sock.recv(65536)
    seatings.put(db, "b1", SEATING)  # as the hall server keeps what it sends the table
    while b"event: table" not in seen:
        seen += sock.recv(65536)
    sock.close()
    hall, table = messages(seen.split(b"\r\n\r\n", 1)[1].decode())[:2]
    assert json.loads(hall[2])[0]["pairs"] is None
    assert table[1] == "table" and json.loads(table[2])["pairs"] == SEATING["pairs"]


def test_a_stream_on_a_connection_kept_alive_after_a_page_and_what_stays_with_waitress(served):
    base, port, token = served
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/api/tables/b1")
    assert conn.getresponse().read()
    conn.request("GET", "/api/tables/b1/stream")  # the same socket
    stream = conn.getresponse()
    assert stream.status == 200 and stream.getheader("Connection") == "close"  # taken over: web.streams' head
    assert stream.readline().startswith(b"id: ")
    conn.close()
    missing = urllib.request.Request(base + "/api/tables/nope/stream")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(missing, timeout=10)
    assert refused.value.code == 404 and "nope" in json.loads(refused.value.read())["error"]
    with pytest.raises(urllib.error.HTTPError) as bad:
        urllib.request.urlopen(base + "/api/tables/b1/stream?delay=soon", timeout=10)
    assert bad.value.code == 400  # waitress's route: a delayed stream is its own


@pytest.fixture
def in_process(db, monkeypatch):
    """The app and its waitress server with the streams, run in a thread: (app, server, port)."""
    monkeypatch.setattr(streams, "KEEPALIVE_S", 0.3)
    yield from serve_in_thread(db)


def serve_in_thread(db: Store):
    """``db``'s app and its waitress server with the streams, run in a thread: yields (app,
    server, port), then stops them."""
    app = create_app(db)
    server = listening(app, "127.0.0.1", 0, threads=2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield app, server, server.effective_port
    app.config["HUB"].stop()
    server.close()
    thread.join(5)


def _open(port: int, path: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    return sock


def _read_until_closed(sock: socket.socket) -> bytes:
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def test_keep_alives_then_the_streams_end_when_the_hub_stops(in_process):
    app, server, port = in_process
    socks = [_open(port, "/api/tables/b1/stream"), _open(port, "/api/tables/b1/stream?delay=5")]
    time.sleep(0.8)
    app.config["HUB"].stop()
    for sock in socks:
        body = _read_until_closed(sock).decode()  # the stream ends: no loop of keep-alives
        assert body.count("event: snapshot") == 1 and ": keep-alive" in body
        sock.close()


def test_closing_the_server_with_streams_open_closes_them(in_process, caplog):
    app, server, port = in_process
    table = _open(port, "/api/tables/b1/stream")
    urllib.request.urlopen(f"http://127.0.0.1:{port}/tournament/1", timeout=10).read()
    standings = _open(port, "/api/tournaments/1/stream")
    time.sleep(0.3)
    server.close()
    assert b"event: snapshot" in _read_until_closed(table)
    assert b"event: version" in _read_until_closed(standings)
    assert "Bad file descriptor" not in caplog.text


@pytest.fixture
def big_field(tmp_path):
    """A tournament of 400 pairs (a page of about 200 KB), served in-process: (base URL, port, token)."""
    store = Store(tmp_path / "big.db")
    store.add_user("li", "s3cret-pass")
    pairs = [Pair(f"p{i}", f"第{i}队", ("甲", "乙")) for i in range(1, 401)]
    with TournamentStore.open(store.path, create=True) as t_store:
        t_store.save_tournament(Tournament("杯", "swiss", 2, profiles.load("linquan"), 7, pairs), "linquan")
        desk.draw_next(t_store, None, "裁判长")
    for _, _, port in serve_in_thread(store):
        yield f"http://127.0.0.1:{port}", int(port), store.new_token("li")


def _page_pushes(data: bytes) -> list[int]:
    """The results count of each whole ``page`` push in a stream's bytes (the head left out)."""
    body = data.split(b"\r\n\r\n", 1)[1].decode()
    pushes = [m for m in messages(body) if m[1] == "page"]
    assert all(json.loads(text).lstrip().startswith('<div id="tournament"') for _, _, text in pushes)
    return [results_in(ident) for ident, _, _ in pushes]


@pytest.mark.slow
def test_a_follower_slow_to_read_its_pushes_is_sent_only_the_newest(big_field):
    """A page whose socket takes the pushes slowly (a phone on a poor link) gets, once it
    reads again, the newest page, not every one it missed: a burst of results costs it a
    page more, never a backlog that would have it dropped (``SLOW_BYTES``)."""
    base, port, token = big_field
    get(base, "/tournament/1")
    tables = json.loads(get(base, "/api/tournaments/1/draws?round=1"))[0]["tables"]
    slow = socket.socket()
    slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connecting: a small window
    slow.connect(("127.0.0.1", port))
    slow.sendall(b"GET /api/tournaments/1/stream?push=page&lang=zh HTTP/1.1\r\nHost: x\r\n\r\n")
    reader = _open(port, "/api/tournaments/1/stream?push=page&lang=zh")
    kept: list[bytes] = []
    reading = threading.Thread(target=lambda: kept.append(_read_until_closed(reader)), daemon=True)
    reading.start()
    time.sleep(0.5)  # both are pushed the page as it stands
    for tb in tables[:RESULTS]:  # 21 pages of 240 KB: past what the kernel holds for a socket (2.8 MB here)
        post(base, "/api/tournaments/1/results", {"table": tb["table"], "forfeit": tb["ns"]}, token)
        time.sleep(0.1)
    time.sleep(0.5)
    slow.settimeout(1.0)
    data = b""
    try:
        while chunk := slow.recv(1 << 20):
            data += chunk
    except TimeoutError:
        pass
    reader.shutdown(socket.SHUT_RDWR)
    reading.join(5)
    everyone = _page_pushes(kept[0])
    assert everyone == sorted(set(everyone)) and everyone[-1] == RESULTS  # a reader: about one a result
    late = _page_pushes(data)
    assert late[0] == 0 and late[-1] == RESULTS and len(late) < len(everyone) - 3  # the newest, not all it missed
    slow.close()
