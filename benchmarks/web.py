"""Live pages at scale: event-to-viewer latency with many SSE viewers on one server.

Starts ``guandan serve`` (waitress, its live streams served by ``web.streams``) on a fresh
store, connects N viewers (asyncio sockets in this process, so they cost little) to one
table's stream or to the tournament's (the standings pages follow it), then writes through
the API with a bearer token — play events on the table, or results entered for the
tournament — and times each from the POST to its arrival at every viewer. Each viewer
counts what it receives: every event once, in order, or the run fails.
Target: p99 ≤ 100 ms with 1,000 viewers on loopback, on two cores.
``--stream page`` and ``--stream overlay`` time what a viewer of the tournament page (or of
its OBS standings overlay) sees: from the POST to the new standings in hand — pushed in the
stream where the server pushes them (``?push=page`` / ``?push=standings``), else fetched again
on the news as ``web/static/tournament.js`` does (one fetch at a time, and one more after it),
so the same command measures a server of either kind.
``--refetch PATH`` times only the fetching again: every viewer asking at once.
Run: ``.venv/bin/python benchmarks/web.py [--viewers 1000] [--stream table|standings|page|overlay]
[--events 60] [--rate 4]``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Awaitable, Callable
from pathlib import Path

if not __package__:  # run as a file: make the project importable
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from store.event_store import Store  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def post(base: str, path: str, body: dict, token: str) -> None:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    urllib.request.urlopen(req, timeout=30).read()


async def viewer(port: int, path: str, got: list[tuple[int, float]], ready: asyncio.Event, counter: list) -> None:
    """One page following ``path``: appends (event number, arrival time) to ``got`` — a
    table's ``seq`` of each event in an update, or the tournament's count of results."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    event = None
    while True:
        line = await reader.readline()
        if not line:
            return
        line = line.rstrip(b"\r\n")
        if line.startswith(b"event: "):
            event = line[7:]
        elif line.startswith(b"data: "):
            now = time.perf_counter()
            if event in (b"snapshot", b"version") and not counter[2].get(id(got)):
                counter[2][id(got)] = True
                counter[0] += 1
                if counter[0] == counter[1]:
                    ready.set()
            elif event == b"update":  # {"events": [...], "snapshot": {...}}: read only the events
                events = line[6:line.index(b', "snapshot": ')] + b"}"
                got.extend((e["seq"], now) for e in json.loads(events)["events"])
            elif event == b"version":  # "rounds.results.confirmations.withdrawals"
                got.append((int(json.loads(line[6:]).split(".")[1]), now))


LINE_LIMIT = 64 * 1024 * 1024  # a pushed page is one line of the stream
SEES = {"page": ("/api/tournaments/1/stream?push=page&lang=zh", "/tournament/1"),
        "overlay": ("/api/tournaments/1/stream?push=standings", "/api/tournaments/1/standings")}


def results_count(version: bytes | str) -> int:
    """The count of results in a tournament's version ("rounds.results.confirmations.withdrawals")."""
    return int(str(version if isinstance(version, str) else version.decode()).strip('"').split(".")[1])


async def fetch_again(port: int, path: str) -> Callable[[], Awaitable[None]]:
    """A GET of ``path`` on one kept-alive connection: what a page does on news."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)

    async def get() -> None:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        head = (await reader.readuntil(b"\r\n\r\n")).lower()
        await reader.readexactly(int(head.split(b"content-length:")[1].split(b"\r\n")[0]))
    return get


async def seer(port: int, kind: str, got: list[tuple[int, float]], ready: asyncio.Event, counter: list) -> None:
    """One tournament page (``kind`` page) or overlay following the stream as
    ``tournament.js`` does: appends (results count, time) whenever the viewer has the
    standings with that many results in hand — a push's arrival, or the end of a fetch
    made after the news of that count (when the server only sends ``version``)."""
    stream_path, page_path = SEES[kind]
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=LINE_LIMIT)
    writer.write(f"GET {stream_path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    get = await fetch_again(port, page_path)
    known, pushed, running, again = [0], False, [False], [False]

    async def refetch() -> None:  # coalesced, as tournament.js: one at a time, one more after
        if running[0]:
            again[0] = True
            return
        running[0] = True
        while True:
            count = known[0]
            await get()
            counter[2]["fetches"] = counter[2].get("fetches", 0) + 1
            got.append((count, time.perf_counter()))
            if not again[0]:
                break
            again[0] = False
        running[0] = False

    event, ident, first = None, None, True
    while True:
        line = await reader.readline()
        if not line:
            return
        line = line.rstrip(b"\r\n")
        if line.startswith(b"event: "):
            event = line[7:]
        elif line.startswith(b"id: "):
            ident = line[4:]
        elif line.startswith(b"data: "):
            now = time.perf_counter()
            if event == b"version":
                count = results_count(line[6:])
                if first:
                    first = False
                    counter[0] += 1
                    if counter[0] == counter[1]:
                        ready.set()
                elif count > known[0] and not pushed:
                    known[0] = count
                    asyncio.create_task(refetch())
                known[0] = max(known[0], count)
            elif event in (b"page", b"standings"):
                pushed = True
                counter[2]["pushes"] = counter[2].get("pushes", 0) + 1
                got.append((results_count(ident), now))
            event, ident = None, None


def table_writes(n: int) -> list[tuple[int, str, dict]]:
    """``n`` play events for table b1, numbered by ``seq``: East leads a single, the others pass."""
    seats = ["E", "N", "W", "S"]
    singles = ["S3", "S4", "S5", "S6", "S7", "S8", "S9", "ST", "SJ", "SQ", "SK", "SA", "H3", "H4", "H5"]
    writes = []
    for i in range(n):
        seq = i + 2
        event = {"seq": seq, "t": float(seq), "type": "pass", "seat": seats[i % 4]}
        if i % 4 == 0:
            event |= {"type": "play", "cards": [singles[i // 4 % len(singles)]]}
        writes.append((seq, "/api/tables/b1/events", {"events": [event]}))
    return writes


def standings_writes(base: str, n: int) -> list[tuple[int, str, dict]]:
    """A forfeit entered for each of round 1's first ``n`` tables, numbered by the results
    count it makes."""
    tables = json.loads(urllib.request.urlopen(base + "/api/tournaments/1/draws?round=1").read())[0]["tables"]
    return [(i + 1, "/api/tournaments/1/results", {"table": tb["table"], "forfeit": tb["ns"]})
            for i, tb in enumerate(tables[:n])]


async def run(args, base: str, port: int, token: str) -> tuple[dict, list[list]]:
    sent: dict[int, float] = {}
    ready = asyncio.Event()
    counter = [0, args.viewers, {}]
    path = "/api/tables/b1/stream" if args.stream == "table" else "/api/tournaments/1/stream"
    gots: list[list] = [[] for _ in range(args.viewers)]
    if args.stream in SEES:
        tasks = [asyncio.create_task(seer(port, args.stream, got, ready, counter)) for got in gots]
    else:
        tasks = [asyncio.create_task(viewer(port, path, got, ready, counter)) for got in gots]
    await asyncio.wait_for(ready.wait(), 120)
    loop = asyncio.get_running_loop()
    writes = table_writes(args.events) if args.stream == "table" else standings_writes(base, args.events)
    for number, url, body in writes:
        sent[number] = time.perf_counter()
        await loop.run_in_executor(None, post, base, url, body, token)
        await asyncio.sleep(1 / args.rate)
    await asyncio.sleep(args.settle)
    for t in tasks:
        t.cancel()
    args.updates = {k: v for k, v in counter[2].items() if isinstance(k, str)}
    return sent, gots


async def refetch(port: int, path: str, viewers: int, rounds: int = 3) -> list[list[float]]:
    """What follows a standings page's news: ``viewers`` kept-alive connections each GET
    ``path`` at the same moment (``rounds`` times); each round's seconds to every answer."""
    async def one(go: asyncio.Event, done: list[float], t0: list[float]) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        await go.wait()
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        head = (await reader.readuntil(b"\r\n\r\n")).lower()
        await reader.readexactly(int(head.split(b"content-length:")[1].split(b"\r\n")[0]))
        done.append(time.perf_counter() - t0[0])
        writer.close()

    out = []
    for _ in range(rounds):
        go, done, t0 = asyncio.Event(), [], [0.0]
        tasks = [asyncio.create_task(one(go, done, t0)) for _ in range(viewers)]
        await asyncio.sleep(2)  # all connected, kept alive
        t0[0] = time.perf_counter()
        go.set()
        await asyncio.gather(*tasks)
        out.append(sorted(done))
    return out


def fresh_store(db: Path, stream: str, events: int) -> str:
    """The store the server starts on (one table, or a tournament with ``events`` tables in
    round 1); returns the bearer token."""
    store = Store(db)
    store.add_user("bench", "bench-password")
    token = store.new_token("bench")
    store.add_table("b1", {"seq": 0, "t": 0, "type": "header", "format": "guandan-record/1",
                           "profile": "linyi", "table": "b1"})
    store.append("b1", [{"seq": 1, "t": 1, "type": "deal", "leader": "E"}])
    if stream != "table":
        from engine.tournament import Pair, Tournament
        from rulebook import profiles
        from store import tournament_desk as desk
        from store.tournament_store import TournamentStore
        pairs = [Pair(f"p{i}", f"第{i}队", ("甲", "乙")) for i in range(1, 2 * events + 1)]
        with TournamentStore.open(db, create=True) as t_store:
            t_store.save_tournament(Tournament("bench", "swiss", 2, profiles.load("linquan"), 7, pairs), "linquan")
            desk.draw_next(t_store, None, "bench")
    return token


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", "--clients", type=int, default=1000)
    parser.add_argument("--stream", choices=["table", "standings", *SEES], default="table",
                        help="one table's stream, the tournament's (the news the standings pages follow), or "
                             "what the tournament page's (or overlay's) viewer sees: the new standings in hand")
    parser.add_argument("--events", type=int, default=60)
    parser.add_argument("--rate", type=float, default=4.0, help="events per second")
    parser.add_argument("--refetch", metavar="PATH",
                        help="no stream: every viewer GETs PATH at once, as the standings pages do on news "
                             "(/tournament/1, /api/tournaments/1/standings), three times")
    parser.add_argument("--threads", type=int, default=300,
                        help="the server's waitress threads (guandan serve's default)")
    parser.add_argument("--settle", type=float, default=2.0,
                        help="seconds after the last write for the last deliveries (a page fetched again takes longer)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        token = fresh_store(db, args.stream, args.events)
        port = free_port()
        server = subprocess.Popen([sys.executable, "-m", "scorer.cli", "serve", "--db", str(db), "--port", str(port),
                                   "--threads", str(args.threads)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen(base + "/api/tables", timeout=2).read()
                    if args.stream != "table":  # the page opens the tournament before its stream
                        urllib.request.urlopen(base + "/tournament/1", timeout=10).read()
                    break
                except OSError:
                    time.sleep(0.1)
            gc.disable()  # the viewers stand for a thousand browsers: no collector pauses of this process
            if args.refetch:
                rounds = asyncio.run(refetch(port, args.refetch, args.viewers))
            else:
                sent, gots = asyncio.run(run(args, base, port, token))
            gc.enable()
        finally:
            server.terminate()
            server.wait(timeout=10)
    if args.refetch:
        for times in rounds:
            print(f"{args.viewers} GET {args.refetch} at once: median {statistics.median(times) * 1000:.0f} ms   "
                  f"p99 {times[int(len(times) * 0.99) - 1] * 1000:.0f} ms   last {times[-1] * 1000:.0f} ms")
        return
    if args.stream in SEES:
        report_seen(args, sent, gots)
        return
    expected = sorted(sent)
    exact = sum(1 for got in gots if [n for n, _ in got] == expected)
    latencies = sorted(t - sent[n] for got in gots for n, t in got if n in sent)
    p99 = latencies[int(len(latencies) * 0.99) - 1]
    print(f"{args.viewers} viewers of the {args.stream} stream, {args.events} events at {args.rate}/s: "
          f"{len(latencies)} of {len(expected) * args.viewers} deliveries; "
          f"{exact} of {args.viewers} viewers got every event once, in order")
    print(f"event → viewer latency: first {latencies[0] * 1000:.1f} ms   "
          f"median {statistics.median(latencies) * 1000:.1f} ms   p99 {p99 * 1000:.1f} ms   "
          f"max {latencies[-1] * 1000:.1f} ms")
    per_event = {n: sorted(t - sent[n] for got in gots for m, t in got if m == n) for n in sent}
    worst = sorted(per_event.items(), key=lambda kv: -kv[1][-1])[:3]
    print("slowest events (number: first / last arrival, ms): " + ", ".join(
        f"{n}: {ts[0] * 1000:.0f} / {ts[-1] * 1000:.0f}" for n, ts in worst))
    if exact != args.viewers:
        sys.exit(1)


def report_seen(args, sent: dict[int, float], gots: list[list[tuple[int, float]]]) -> None:
    """What the page's (or overlay's) viewers saw: for each result and viewer, the time
    from its POST to the first standings in hand that count it."""
    latencies, complete = [], 0
    for got in gots:
        for number, t0 in sent.items():
            seen = next((t for count, t in got if count >= number), None)
            if seen is not None:
                latencies.append(max(seen - t0, 0.0))
        complete += bool(got) and max(count for count, _ in got) >= max(sent)
    latencies.sort()
    if not latencies:
        sys.exit(f"no viewer saw a result ({args.updates})")
    print(f"{args.viewers} {args.stream} viewers, {args.events} results at {args.rate}/s: {len(latencies)} of "
          f"{len(sent) * args.viewers} (result, viewer) seen; {complete} of {args.viewers} viewers saw the last result")
    p99 = latencies[int(len(latencies) * 0.99) - 1]
    print(f"result → standings in the viewer's hand: median {statistics.median(latencies) * 1000:.0f} ms   "
          f"p99 {p99 * 1000:.0f} ms   max {latencies[-1] * 1000:.0f} ms")
    each = [f"{n / args.viewers:.1f} {kind}" for kind, n in sorted(args.updates.items())]
    print("updates a viewer: " + ", ".join(each))
    if complete != args.viewers:
        sys.exit(1)


if __name__ == "__main__":
    main()
