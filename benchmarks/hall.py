"""A hall at scale: many tables → Mosquitto → ``guandan hall serve`` → the store.

Starts a real Mosquitto (persistence on) and the hall server as a process on a fresh
store, then simulated tables play bot matches through a shared outbox: all but one on a
few pooled connections, the last on its own connection through a relay that can be cut.
Mid-run the broker is killed (SIGKILL: what it had not saved is lost) and started again
on the same port and persistence; later the single table is cut off for ``--cut-for``
seconds. At the end every event in the outbox must be in the store exactly once, with
the same content, in an unbroken seq run per table.

Latency is the store's ``received`` time minus the outbox's ``queued`` time (the moment
the node wrote the event), both wall-clock on this machine; figures are given over all
events and over the events written outside the two disruptions.
Target: ≥ 5,000 events/s sustained, p99 ≤ 200 ms.
Run: ``.venv/bin/python benchmarks/hall.py [--tables 2048] [--seconds 60] [--rate 2.5]``.
"""

from __future__ import annotations

import argparse
import json
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

if not __package__:  # run as a file: make the project importable
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from hall.broker import parse_broker  # noqa: E402
from hall.node import Node  # noqa: E402
from hall.outbox import Outbox  # noqa: E402
from hall.simulate import Simulation, bot_matches, pool, table_names  # noqa: E402
from tests.hall.broker import Cable, Mosquitto  # noqa: E402

HALL = "bench"
RECOVERY_S = 10.0  # after a disruption, events written this long are counted as disrupted


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a live process, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100.0


def percentile(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))]


def wait_stored(db: Path, expected: dict[str, int], timeout: float) -> dict[str, tuple[int, int]]:
    """Poll the store until every table holds its events; returns table → (count, max seq)."""
    deadline = time.monotonic() + timeout
    while True:
        with sqlite3.connect(db, timeout=30) as con:
            got = {t: (n, m) for t, n, m in con.execute(
                "SELECT table_id, COUNT(*), MAX(seq) FROM events GROUP BY table_id")}
        if all(got.get(t, (0, -1))[0] >= n for t, n in expected.items()) or time.monotonic() > deadline:
            return got
        time.sleep(1.0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=2048)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--rate", type=float, default=2.5, help="events a second per table (default 2.5)")
    ap.add_argument("--clients", type=int, default=8, help="pooled MQTT connections (default 8)")
    ap.add_argument("--cut-for", type=float, default=10.0, help="seconds the single table is cut off (default 10)")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="guandan-hall-bench-"))
    broker = Mosquitto(work / "broker").start()
    db, box = work / "hall.db", work / "outbox.db"
    server = subprocess.Popen([sys.executable, "-m", "scorer.cli", "hall", "serve", "--broker", broker.url,
                               "--db", str(db), "--hall", HALL], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True)
    cable = Cable(broker.port)
    outbox = Outbox(box)
    tables = table_names("b", args.tables)
    nodes = pool(parse_broker(broker.url), outbox, tables[:-1], args.clients, HALL, "b")
    nodes.append(Node(parse_broker(cable.url), outbox, tables[-1:], hall=HALL))
    print(f"# {args.tables} tables ({args.clients} pooled connections + 1 through a relay), {args.rate:g} events/s "
          f"each for {args.seconds:g} s: {args.tables * args.rate:.0f} events/s offered", flush=True)
    sim = Simulation(nodes, bot_matches("jiangsu", 8, seed=1), args.rate).start()
    own_cpu = time.process_time()  # the bot matches are played before the clock starts
    kill_at, cut_at = args.seconds * 0.35, args.seconds * 0.6
    try:
        time.sleep(1.0)  # the server subscribes before the first event
        mosquitto_cpu = 0.0
        player = threading.Thread(target=sim.run, args=(args.seconds,))
        started, wall = time.monotonic(), time.time()
        player.start()
        time.sleep(kill_at)
        mosquitto_cpu += cpu_seconds(broker.process.pid)
        broker.kill()
        killed = time.time()
        time.sleep(0.5)
        broker.start()
        print(f"# {killed - wall:.1f} s: broker killed (SIGKILL) and started again 0.5 s later", flush=True)
        time.sleep(max(0.0, started + cut_at - time.monotonic()))
        cut = time.time()
        cable.cut(args.cut_for)
        print(f"# {cut - wall:.1f} s: table {tables[-1]} cut off for {args.cut_for:g} s", flush=True)
        player.join()
        played = time.monotonic() - started
        if not sim.wait_sent(120):
            print("FAIL: the broker did not acknowledge every event within 120 s")
            return 1
        with sqlite3.connect(box) as con:
            expected = dict(con.execute("SELECT table_id, COUNT(*) FROM outbox GROUP BY table_id"))
        got = wait_stored(db, expected, 120)
        settled = time.monotonic() - started
        mosquitto_cpu += cpu_seconds(broker.process.pid)
        server_cpu = cpu_seconds(server.pid)
    finally:
        sim.stop()
        server.send_signal(signal.SIGINT)
        out, _ = server.communicate(timeout=60)
        broker.stop()
        cable.close()

    total = sum(expected.values())
    missing = {t: n - got.get(t, (0, -1))[0] for t, n in expected.items() if got.get(t, (0, -1))[0] != n}
    broken = [t for t, (n, top) in got.items() if top != n - 1]
    with sqlite3.connect(box) as con:
        con.execute("ATTACH ? AS store", (str(db),))
        rows = con.execute("SELECT o.table_id, o.queued, e.received, o.line, e.body FROM outbox o "
                           "JOIN store.events e ON e.table_id = o.table_id AND e.seq = o.seq").fetchall()
    differ = sum(json.loads(line) != json.loads(body) for *_, line, body in rows)
    lat_all = sorted(received - queued for _, queued, received, *_ in rows)
    calm = sorted(received - queued for table, queued, received, *_ in rows
                  if not killed <= queued < killed + RECOVERY_S
                  and not (table == tables[-1] and cut <= queued < cut + args.cut_for + RECOVERY_S))
    windows: dict[int, list[float]] = {}
    for _, queued, got_at, *_ in rows:
        windows.setdefault(int((queued - wall) // 5), []).append(got_at - queued)
    received = sorted(r for _, _, r, *_ in rows)
    span = received[-1] - received[0]
    stopped = next((line for line in out.splitlines() if line.startswith("# stopped:")), "# stopped: ?")

    print(f"{total} events from {len(expected)} tables in {played:.1f} s; all stored {settled:.1f} s after the start")
    print(f"stored exactly once: {'yes' if not missing and not broken and not differ else 'NO'} "
          f"({len(missing)} table(s) short, {len(broken)} with a gap, {differ} differing)")
    print(f"hall server: {stopped[len('# stopped: '):]}")
    print(f"sustained ingest: {len(received) / span:.0f} events/s over {span:.1f} s   target ≥ 5000")
    print(f"event → store latency, all events:       median {percentile(lat_all, .5) * 1e3:.1f} ms   "
          f"p99 {percentile(lat_all, .99) * 1e3:.1f} ms   max {lat_all[-1] * 1e3:.0f} ms")
    print(f"event → store latency, outside outages:  median {percentile(calm, .5) * 1e3:.1f} ms   "
          f"p99 {percentile(calm, .99) * 1e3:.1f} ms   max {calm[-1] * 1e3:.0f} ms   target p99 ≤ 200 ms")
    print("p99 by 5-s window of writing (ms): " + " ".join(
        f"{percentile(sorted(v), .99) * 1e3:.0f}" for _, v in sorted(windows.items()) if _ >= 0))
    print(f"CPU seconds: hall server {server_cpu:.1f}, mosquitto {mosquitto_cpu:.1f}, "
          f"this process (tables) {time.process_time() - own_cpu:.1f}")
    return 0 if not missing and not broken and not differ else 1


if __name__ == "__main__":
    sys.exit(main())
