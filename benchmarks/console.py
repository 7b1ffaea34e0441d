"""The referee console over a big hall: how fast it opens, and whether the queue stays in order.

Fills a fresh store with ``--tables`` tables (2,048 by default), each a hand in play with the
items a camera table raises: plays read at a low confidence (some with the reader's
runner-ups), a play that is no combination, a covered zone and the out-of-turn pass after it.
Starts ``guandan serve`` (waitress) on it, logs a referee in, gives them a few tables, then
times the console: the page (``GET /referee``, the first ``PAGE`` items in it) and the queue
API, cold (the first request works out every table's items) and warm; then decides items
one by one through the same API the console uses and times the queue after each. Each
answer is checked to be in the console's order: the referee's own tables first, then
rulings, doubts, notices, each oldest first. With ``--browser``, also the time until
headless Chromium shows the console with its first item open.
Target: the console opens in ≤ 1 s.
Run: ``.venv/bin/python benchmarks/console.py [--tables 2048] [--decide 20] [--browser]``.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

if not __package__:  # run as a file: make the project importable
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from benchmarks.web import free_port  # noqa: E402
from store.event_store import Store  # noqa: E402

KINDS = ("ruling", "doubt", "notice")
PASSWORD = "bench-password"


def table_events() -> list[dict]:
    """A hand in play at a camera table, with its items for the referee."""
    return [
        {"seq": 1, "t": 1.0, "type": "deal", "leader": "E"},
        {"seq": 2, "t": 3.0, "type": "play", "seat": "E", "cards": ["S5", "H5"], "confidence": 0.61,
         "choices": [[["S5", 0.61], ["S6", 0.3]], [["H5", 0.97]]]},
        {"seq": 3, "t": 5.0, "type": "play", "seat": "N", "cards": ["S9", "H9"], "confidence": 0.93},
        {"seq": 4, "t": 7.0, "type": "play", "seat": "W", "cards": ["SK", "HQ"], "confidence": 0.55,
         "choices": [[["SK", 0.9]], [["HQ", 0.55], ["HK", 0.41]]]},
        {"seq": 5, "t": 9.0, "type": "camera_note", "code": "zone_covered", "values": {"seat": "S"}, "seat": "S"},
        {"seq": 6, "t": 11.0, "type": "pass", "seat": "N"},
        {"seq": 7, "t": 13.0, "type": "play", "seat": "W", "cards": ["DA", "CA"], "confidence": 0.72},
    ]


def fill(store: Store, tables: int) -> None:
    header = {"seq": 0, "t": 0.0, "type": "header", "format": "guandan-record/1", "profile": "linyi",
              "reports_heard": False}
    for i in range(tables):
        store.add_table(f"h{i}", header | {"table": f"h{i}"})
    store.append_many({f"h{i}": table_events() for i in range(tables)})


class Referee:
    """A logged-in referee's session against the server at ``base``."""

    def __init__(self, base: str, user: str) -> None:
        self.base = base
        self.http = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        page = self.get("/referee/login")
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        form = urllib.parse.urlencode({"user": user, "password": PASSWORD, "csrf_token": csrf}).encode()
        self.http.open(base + "/referee/login", data=form, timeout=60).read()
        # the logged-in session's token, from a page that is not the console (not yet asked for)
        self.csrf = re.search(r'name="csrf_token" value="([^"]+)"', self.get("/referee/login")).group(1)

    def get(self, path: str) -> str:
        with self.http.open(self.base + path, timeout=60) as r:
            return r.read().decode()

    def send(self, method: str, path: str, body: dict) -> dict:
        req = urllib.request.Request(self.base + path, data=json.dumps(body).encode(), method=method,
                                     headers={"Content-Type": "application/json", "X-CSRF-Token": self.csrf})
        with self.http.open(req, timeout=60) as r:
            return json.loads(r.read())


def timed(fn) -> tuple[float, object]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def in_order(items: list[dict]) -> bool:
    keys = [(not i["mine"], KINDS.index(i["kind"]), i["received"]) for i in items]
    return keys == sorted(keys)


def browser_open(base: str, user: str) -> float:
    """Seconds from asking for the console to its first item shown open, in headless Chromium."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--headless=new", "--no-sandbox"])
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(base + "/referee/login")
        page.fill('input[name="user"]', user)
        page.fill('input[name="password"]', PASSWORD)
        page.click('button[type="submit"]')
        page.wait_for_selector("#queue > li.selected")
        start = time.perf_counter()
        page.goto(base + "/referee")
        page.wait_for_selector("#queue > li.selected")
        seconds = time.perf_counter() - start
        browser.close()
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=2048)
    parser.add_argument("--decide", type=int, default=20, help="items decided one by one, the queue timed after each")
    parser.add_argument("--browser", action="store_true", help="also time the page in headless Chromium")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "hall.db"
        store = Store(db)
        took, _ = timed(lambda: fill(store, args.tables))
        store.add_user("li", PASSWORD)
        events = args.tables * len(table_events())
        print(f"store: {args.tables} tables, {events} events, written in {took:.1f} s")
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        start = time.perf_counter()
        server = subprocess.Popen([sys.executable, "-m", "scorer.cli", "serve", "--db", str(db), "--port", str(port)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        try:
            while True:
                try:
                    urllib.request.urlopen(base + "/api/openapi.json", timeout=60).read()
                    break
                except OSError:
                    time.sleep(0.1)
            print(f"server up (every table's record replayed) in {time.perf_counter() - start:.1f} s")
            li = Referee(base, "li")
            mine = [f"h{i}" for i in range(0, args.tables, max(1, args.tables // 8))]
            li.send("PUT", "/api/referee/assignments", {"referee": "li", "tables": mine})
            cold, page = timed(lambda: li.get("/referee"))
            warm = [timed(lambda: li.get("/referee"))[0] for _ in range(5)]
            api = [timed(lambda: json.loads(li.get("/api/referee/queue?limit=60")))[0] for _ in range(5)]
            queue = json.loads(li.get("/api/referee/queue?limit=60"))
            print(f"queue: {queue['total']} open items ({', '.join(f'{k} {n}' for k, n in queue['counts'].items())})")
            print(f"console page (GET /referee, {len(page) // 1024} KB): first {cold * 1000:.0f} ms, "
                  f"then median {statistics.median(warm) * 1000:.0f} ms")
            print(f"queue API (first 60 items): median {statistics.median(api) * 1000:.0f} ms")
            ordered = in_order(queue["items"]) and {i["table"] for i in queue["items"][:len(mine)]} <= set(mine)
            after = []
            for _ in range(args.decide):
                item = queue["items"][0]
                if item["kind"] == "ruling":
                    li.send("POST", f"/api/tables/{item['table']}/referee/penalty",
                            {"seat": item["penalty"]["seat"], "penalty": "warning", "alert": item["id"], "why": ""})
                else:
                    li.send("POST", f"/api/tables/{item['table']}/referee/alert_done",
                            {"alert": item["id"], "action": "ack", "why": ""})
                took, queue = timed(lambda: json.loads(li.get("/api/referee/queue?limit=60")))
                after.append(took)
                ordered = ordered and in_order(queue["items"]) and item["key"] not in {i["key"] for i in queue["items"]}
            if after:
                print(f"after each of {len(after)} decisions: the queue in median "
                      f"{statistics.median(after) * 1000:.0f} ms, max {max(after) * 1000:.0f} ms")
            print(f"ordered (own tables first, then rulings, doubts, notices, oldest first; decided items gone): "
                  f"{'yes' if ordered else 'NO'}")
            if args.browser:
                shown = browser_open(base, "li")
                print(f"headless Chromium, console shown with its first item open: {shown * 1000:.0f} ms")
            print(f"target: opens in ≤ 1 s — {'met' if max(cold, *warm) <= 1.0 else 'NOT met'}")
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
