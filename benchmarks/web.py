"""Live pages at scale: event-to-client latency with many SSE clients on one server.

Starts ``guandan serve`` (waitress) on a fresh store, connects N clients to one table's
stream (asyncio sockets, so the clients cost little), then posts play events through the
API with a bearer token and times each event from the POST to its arrival at every client.
Target: p99 ≤ 100 ms with 200 clients on loopback.
Run: ``.venv/bin/python benchmarks/web.py [--clients 200] [--events 60] [--rate 4]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
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


async def client(port: int, path: str, arrivals: dict[int, list[float]], ready: asyncio.Event, counter: list) -> None:
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
            if event == b"snapshot":
                counter[0] += 1
                if counter[0] == counter[1]:
                    ready.set()
            elif event == b"update":  # {"events": [...], "snapshot": {...}}: read only the events
                events = line[6:line.index(b', "snapshot": ')] + b"}"
                for e in json.loads(events)["events"]:
                    arrivals.setdefault(e["seq"], []).append(now)


async def run(args, base: str, port: int, token: str) -> tuple[dict, dict]:
    arrivals: dict[int, list[float]] = {}
    sent: dict[int, float] = {}
    ready = asyncio.Event()
    counter = [0, args.clients]
    tasks = [asyncio.create_task(client(port, "/api/tables/b1/stream", arrivals, ready, counter))
             for _ in range(args.clients)]
    await asyncio.wait_for(ready.wait(), 120)
    loop = asyncio.get_running_loop()
    seats = ["E", "N", "W", "S"]
    singles = ["S3", "S4", "S5", "S6", "S7", "S8", "S9", "ST", "SJ", "SQ", "SK", "SA", "H3", "H4", "H5"]
    for i in range(args.events):
        seq = i + 2
        event = {"seq": seq, "t": float(seq), "type": "pass", "seat": seats[i % 4]}
        if i % 4 == 0:  # East leads a single, the others pass: a trick every four events
            event |= {"type": "play", "cards": [singles[i // 4 % len(singles)]]}
        body = {"events": [event]}
        sent[seq] = time.perf_counter()
        await loop.run_in_executor(None, post, base, "/api/tables/b1/events", body, token)
        await asyncio.sleep(1 / args.rate)
    await asyncio.sleep(2)
    for t in tasks:
        t.cancel()
    return sent, arrivals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--events", type=int, default=60)
    parser.add_argument("--rate", type=float, default=4.0, help="events per second")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        store = Store(db)
        store.add_user("bench", "bench-password")
        token = store.new_token("bench")
        store.add_table("b1", {"seq": 0, "t": 0, "type": "header", "format": "guandan-record/1",
                               "profile": "linyi", "table": "b1"})
        store.append("b1", [{"seq": 1, "t": 1, "type": "deal", "leader": "E"}])
        port = free_port()
        server = subprocess.Popen([sys.executable, "-m", "scorer.cli", "serve", "--db", str(db), "--port", str(port),
                                   "--threads", str(args.clients + 20)], stdout=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen(base + "/api/tables", timeout=2).read()
                    break
                except OSError:
                    time.sleep(0.1)
            sent, arrivals = asyncio.run(run(args, base, port, token))
        finally:
            server.terminate()
            server.wait(timeout=10)
    latencies = sorted(t - sent[seq] for seq, times in arrivals.items() for t in times)
    expected = args.events * args.clients
    p99 = latencies[int(len(latencies) * 0.99) - 1]
    print(f"{args.clients} SSE clients, {args.events} events at {args.rate}/s: "
          f"{len(latencies)} of {expected} deliveries")
    print(f"event → client latency: median {statistics.median(latencies) * 1000:.1f} ms   "
          f"p99 {p99 * 1000:.1f} ms   max {latencies[-1] * 1000:.1f} ms")


if __name__ == "__main__":
    main()
