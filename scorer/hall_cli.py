"""``guandan hall``: the hall server, a table node playing a record, and a simulated hall.

``hall serve`` stores what the tables publish (add ``--web`` for the pages in the same
process, or run ``guandan serve`` on the same store); ``hall node`` publishes a recorded
match as one table would; ``hall simulate`` drives many tables at once for load tests.
A bad broker address or an unreachable broker ends in one line, exit status 2.
"""

from __future__ import annotations

import _thread
import logging
import sqlite3
import tempfile
import threading
import time
from argparse import Namespace
from pathlib import Path

from engine.events import RecordError
from engine.record import parse_lines
from hall import topics
from hall.broker import check_reachable, parse_broker
from hall.errors import HallError
from hall.ingest import Ingest
from hall.node import Node
from hall.outbox import Outbox
from hall.simulate import Simulation, bot_matches, pool, table_names
from rulebook import profiles
from scorer.heap import keep_full_collections_short
from scorer.serve_cli import (
    DB_HELP,
    DEFAULT_DB,
    IDLE_CONNECTIONS,
    ServeError,
    lang_option,
    listening,
    open_store,
    tcp_port,
)
from store.db import display
from store.event_store import Store
from web import create_app

DEFAULT_BROKER = "mqtt://127.0.0.1:1883"
DEFAULT_HALL = "main"
REPORT_EVERY_S = 10.0


def _logging() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s", datefmt="%H:%M:%S")


def _report(ingest: Ingest, stop: threading.Event) -> None:
    """A line every few seconds; wakes the main thread if the store stopped taking events."""
    log = logging.getLogger("guandan.hall")
    last, last_t = 0, time.monotonic()
    while not stop.wait(1.0):
        if ingest.failed is not None:
            _thread.interrupt_main()
            return
        now, stored = time.monotonic(), ingest.stats.stored
        if now - last_t >= REPORT_EVERY_S:
            log.info("%d table(s) online; %s; %.0f events/s", ingest.presence.online(), ingest.stats.line(),
                     (stored - last) / (now - last_t))
            last, last_t = stored, now


def _open_store(path: str) -> Store:
    try:
        return open_store(path)
    except ServeError as exc:
        raise HallError(exc.code, **exc.values) from None


def _open_outbox(path: str | Path) -> Outbox:
    try:
        return Outbox(path)
    except sqlite3.Error as exc:
        raise HallError("outbox_unopenable", path=path, why=exc) from None


def serve(args: Namespace) -> None:
    broker = parse_broker(args.broker)
    check_reachable(broker)
    store = _open_store(args.db)
    db = display(args.db)
    print(f"# hall {args.hall}: {broker} → {db}" + (f"; pages on http://{args.host}:{args.web}/" if args.web
                                                  else "; pages: guandan serve --db " + db), flush=True)
    _logging()
    keep_full_collections_short()  # it holds every table's match replayed: millions of objects
    ingest = Ingest(store, broker, args.hall).start()
    stop = threading.Event()
    threading.Thread(target=_report, args=(ingest, stop), name="hall-report", daemon=True).start()
    try:
        if args.web:
            app = create_app(store, hall=ingest)
            listening(app, args.host, args.web, threads=args.threads, channel_timeout=3600,
                      connection_limit=args.threads + IDLE_CONNECTIONS, ident="guandan").run()
        else:
            while ingest.failed is None:
                time.sleep(1)
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        ingest.stop()
    if ingest.failed is not None:
        raise HallError("hall_store_failed", name=display(args.db), why=ingest.failed)
    print(f"# stopped: {ingest.stats.line()}")


def node(args: Namespace) -> None:
    """Publish a recorded match as a table node would, in (scaled) real time."""
    try:
        record = parse_lines(Path(args.record).read_text(encoding="utf-8").splitlines())
    except FileNotFoundError:
        raise HallError("no_file", path=args.record) from None
    except RecordError as exc:
        raise HallError("record_unreadable", path=args.record, why=exc) from None
    broker = parse_broker(args.broker)
    check_reachable(broker)
    table = topics.check_name("table", args.table or record.header.table or Path(args.record).stem)
    outbox = _open_outbox(args.outbox or f"outbox-{table}.db")
    _logging()
    table_node = Node(broker, outbox, [table], hall=args.hall).start()
    start = time.monotonic()
    interrupted = False
    try:
        for event in record.events:
            if args.speed:
                time.sleep(max(0.0, event.t / args.speed - (time.monotonic() - start)))
            table_node.publish(table, event.to_json())
        print(f"table {table}: {len(record.events)} events written to {outbox.path}; waiting for the broker",
              flush=True)
        while not table_node.wait_sent(1.0):
            pass
    except KeyboardInterrupt:
        interrupted = True
    finally:
        table_node.stop()
    if interrupted:
        print(f"table {table}: {table_node.unsent()} event(s) left in {outbox.path} for the next start")
    else:
        print(f"table {table}: every event acknowledged by {broker}")


def simulate(args: Namespace) -> None:
    if args.tables < 1 or args.seconds <= 0 or args.rate <= 0 or args.matches < 1:
        raise HallError("simulate_counts")
    profiles.load(args.profile)
    broker = parse_broker(args.broker)
    check_reachable(broker)
    prefix = args.prefix or time.strftime("sim%H%M%S")
    path = Path(args.outbox or Path(tempfile.mkdtemp(prefix="guandan-hall-")) / "outbox.db")
    outbox = _open_outbox(path)
    print(f"# {args.tables} table(s) on {min(args.clients, args.tables)} connection(s) → {broker} "
          f"(hall {args.hall}), {args.rate:g} events/s each for {args.seconds:g} s", flush=True)
    nodes = pool(broker, outbox, table_names(prefix, args.tables), args.clients, args.hall, prefix)
    sim = Simulation(nodes, bot_matches(args.profile, min(args.tables, args.matches), args.seed), args.rate,
                     seed=args.seed).start()
    started = time.monotonic()
    try:
        published = sim.run(args.seconds)
    except KeyboardInterrupt:
        published = sim.published
    took = time.monotonic() - started
    try:
        drained = sim.wait_sent(args.drain)
    except KeyboardInterrupt:
        drained = False
    sim.stop()
    left = outbox.count_unsent()
    outbox.close()
    print(f"{published} events from {args.tables} table(s) in {took:.1f} s ({published / took:.0f}/s)")
    if not drained:
        raise HallError("not_acknowledged", left=left, seconds=f"{args.drain:g}", path=path)
    print("every event acknowledged by the broker")
    if not args.outbox:
        path.unlink()
        for suffix in ("-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        path.parent.rmdir()


def add_parsers(sub) -> None:
    """Register ``hall`` and its actions with the ``guandan`` parser."""
    p = sub.add_parser("hall", help="a hall: table nodes report to one server over MQTT (docs/hall.md)",
                       description="Many tables, one hall server: table nodes publish their events to an MQTT "
                                   "broker (Mosquitto); the hall server stores each exactly once. See docs/hall.md.")
    hsub = p.add_subparsers(dest="hall_command", required=True, metavar="ACTION")

    def common(q) -> None:
        q.add_argument("--broker", default=DEFAULT_BROKER, help=f"the MQTT broker (default {DEFAULT_BROKER})")
        q.add_argument("--hall", default=DEFAULT_HALL, help=f"the hall's name in the topics (default {DEFAULT_HALL})")
        lang_option(q)

    s = hsub.add_parser("serve", help="store every table's events from the broker (the hall server)",
                        description="Subscribe to the hall's tables and store each event exactly once in the "
                                    "event store (a SQLite file or a PostgreSQL database); show the pages "
                                    "with 'guandan serve --db FILE|URL' or --web.")
    common(s)
    s.add_argument("--db", default=DEFAULT_DB, metavar="FILE|URL", help=DB_HELP)
    s.add_argument("--web", type=tcp_port, metavar="PORT", help="also serve the web pages on this port")
    s.add_argument("--host", default="127.0.0.1", help="address for --web (default 127.0.0.1)")
    s.add_argument("--threads", type=int, default=300, help="web worker threads for --web (default 300)")
    s.set_defaults(func=serve)

    n = hsub.add_parser("node", help="publish a recorded match as a table node would",
                        description="Publish a game record through a table node: every event goes to the "
                                    "outbox first, then to the broker; stops when the broker has them all.")
    n.add_argument("record", help="a game record (.jsonl)")
    common(n)
    n.add_argument("--table", help="table id (default: the header's table name or the file name)")
    n.add_argument("--speed", type=float, default=0.0,
                   help="play back at this many times real time (default: publish everything at once)")
    n.add_argument("--outbox", help="the node's outbox (SQLite file, default outbox-TABLE.db)")
    n.set_defaults(func=node)

    m = hsub.add_parser("simulate", help="many tables playing bot matches at once, for load tests",
                        description="Simulate a hall: N tables on a few MQTT connections, each playing a bot "
                                    "match at --rate events a second, through an outbox as real nodes do.")
    common(m)
    m.add_argument("--tables", type=int, default=16, help="number of tables (default 16)")
    m.add_argument("--seconds", type=float, default=60.0, help="how long to play (default 60)")
    m.add_argument("--rate", type=float, default=0.5, metavar="EVENTS_PER_S",
                   help="events a second per table (default 0.5; a real table makes about 0.2)")
    m.add_argument("--clients", type=int, default=8, help="MQTT connections shared by the tables (default 8)")
    m.add_argument("--prefix", help="table ids are PREFIX-0001 … (default simHHMMSS, new each run)")
    m.add_argument("--profile", default=profiles.DEFAULT, help="rule profile of the bot matches")
    m.add_argument("--matches", type=int, default=8, help="distinct bot matches dealt round the tables (default 8)")
    m.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    m.add_argument("--outbox", help="keep the outbox in this file (default: a temporary file)")
    m.add_argument("--drain", type=float, default=60.0,
                   help="seconds to wait for the broker to acknowledge the rest at the end (default 60)")
    m.set_defaults(func=simulate)
