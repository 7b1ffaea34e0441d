"""``guandan demo``: the bundled match, told hand by hand, then live on the dashboard.

The record is replayed through the rules engine and printed; then it is played back into
a fresh SQLite store (``var/demo.db``) at a multiple of real time while the web server
shows it: the hall, the table page and the OBS overlay on localhost. Until the camera
pipeline exists this stands in for a live table.
"""

from __future__ import annotations

import threading
import time
from argparse import Namespace
from pathlib import Path

from engine.record import Record, parse_lines
from scorer.store import Store

VAR = Path(__file__).resolve().parent.parent / "var"


def play_back(store: Store, table: str, record: Record, speed: float, stop: threading.Event | None = None) -> None:
    """Store the record's events (the table already made) as if they were happening now,
    ``speed`` times faster; ``stop`` ends it early."""
    stop = stop or threading.Event()
    start = time.monotonic()
    for event in record.events[1:]:
        wait = event.t / speed - (time.monotonic() - start)
        if wait > 0 and stop.wait(wait):
            return
        store.append(table, [event.to_json()])


def serve_demo(args: Namespace, record_path: Path) -> None:
    from waitress import serve

    from web import create_app

    VAR.mkdir(exist_ok=True)
    db = VAR / "demo.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    store = Store(db)
    stop = threading.Event()
    record = parse_lines(record_path.read_text(encoding="utf-8").splitlines())
    store.add_table("demo", record.header.to_json())
    player = threading.Thread(target=play_back, args=(store, "demo", record, args.speed, stop), daemon=True)
    app = create_app(store)
    base = f"http://127.0.0.1:{args.port}"
    print(f"\n# live: {base}/  ·  table {base}/table/demo  ·  OBS overlay {base}/overlay/demo"
          f"  ({args.speed:g}× real time; Ctrl-C stops)", flush=True)
    player.start()
    try:
        serve(app, host="127.0.0.1", port=args.port, threads=64, connection_limit=200, ident="guandan-demo")
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
