"""What `make demo` asks of the referee: the open items on the console after the demo has run.

Starts ``guandan demo`` (the bundled recording read live, the emulated clock, a fresh
``var/demo.db``), lets it run ``--seconds`` (90 by default, as a visitor would watch it),
stops it, and lists the demo table's open console items (``web.referee_queue.table_items``,
what ``/referee`` shows) by kind and code; a ruling on a play the truth record does not
hold the same violation for is a false ruling. Target: ≤ 2 open items, no false ruling.
Run: ``.venv/bin/python benchmarks/demo_console.py [--seconds 90]``.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

if not __package__:  # run as a file: make the project importable
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from benchmarks.machine import describe  # noqa: E402
from engine.record import parse_lines, replay  # noqa: E402
from rulebook import profiles  # noqa: E402
from scorer.demo import DEMO_TRUTH, VAR  # noqa: E402
from store.event_store import Store  # noqa: E402
from web.referee_queue import table_items  # noqa: E402
from web.snapshot import TableView  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def run_demo(seconds: float, port: int) -> None:
    """``guandan demo`` for ``seconds`` of its recording, then Ctrl-C."""
    demo = subprocess.Popen([sys.executable, "-m", "scorer.cli", "demo", "--lang", "en", "--port", str(port)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    started = None
    ends = time.monotonic() + seconds + 120  # the models' first compile before the recording starts
    for line in demo.stdout:
        if started is None and "127.0.0.1" in line:
            started = time.monotonic()
            ends = started + seconds
        if time.monotonic() >= ends:
            break
    demo.send_signal(signal.SIGINT)
    try:
        demo.wait(timeout=30)
    except subprocess.TimeoutExpired:
        demo.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=90.0)
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    print(f"machine: {describe()}")
    run_demo(args.seconds, args.port)
    store = Store(VAR / "demo.db")
    view = TableView("demo", profiles.load)
    for stored in store.since(0):
        if stored.table == "demo":
            view.add(stored)
    items = table_items(view)
    truth = replay(parse_lines(DEMO_TRUTH.read_text(encoding="utf-8").splitlines()), profiles.load)
    true_rulings = Counter((v.code, v.seat) for v in truth.violations)
    print(f"{len(items)} open console items after {args.seconds:g} s of the demo:")
    false = 0
    for item in items:
        ruling = item["kind"] == "ruling" and not any(true_rulings[(code, item["seat"])] for code in item["codes"])
        false += ruling
        play = " ".join(item["play"]["cards"]) if item.get("play") and item["play"].get("cards") else ""
        print(f"  {item['kind']:<8} {','.join(item['codes']):<30} seat {item['seat']} {play}"
              + ("  (FALSE ruling: not in the truth)" if ruling else ""))
    kinds = Counter(item["kind"] for item in items)
    print(f"by kind: {dict(kinds)}; false rulings: {false} (target: ≤ 2 items, no false ruling)")


if __name__ == "__main__":
    main()
