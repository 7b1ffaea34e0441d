"""End to end: a hall of 16 camera tables plays a 3-round Swiss under each rule profile.

The real programs: Mosquitto, ``guandan hall serve --web`` (the intake, the result feed and
the pages in one process), ``guandan tournament`` for the event and its standings, a table
node publishing each table's bot match, and a referee in headless Chromium. Each round is
drawn over the API; every table's finished match comes in by itself as a provisional
result, the next draw is refused until all are confirmed (over the API, and in the last
round on the tournament page), and in the end the standings page shows what
``guandan tournament standings --json`` says."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from engine.bots import self_play
from hall.broker import parse_broker
from hall.node import Node
from hall.outbox import Outbox
from rulebook import profiles
from store.event_store import Store
from tests.hall.broker import needs_mosquitto
from tests.hall.conftest import HALL, wait_for
from tests.hall.test_cli import _listening
from tests.ports import free_port
from tests.web.conftest import ARTIFACTS, PASSWORD

ROOT = Path(__file__).resolve().parents[2]
TABLES = 16
ROUNDS = 3


def guandan(*args: str) -> str:
    out = subprocess.run([sys.executable, "-m", "scorer.cli", *args], capture_output=True, text=True, timeout=120,
                         cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return out.stdout


def api(base: str, path: str, token: str | None = None, body: dict | None = None) -> tuple[int, object]:
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, headers=headers, method="GET" if body is None else "POST")
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def states(base: str, round_no: int) -> list[str]:
    return [t["state"] for t in api(base, f"/api/tournaments/1/draws?round={round_no}")[1][0]["tables"]]


@needs_mosquitto
@pytest.mark.parametrize("profile", profiles.names())
def test_a_hall_of_16_tables_plays_a_three_round_swiss(profile, tmp_path, broker, browser):
    db, web = tmp_path / "hall.db", free_port()
    hall = Store(db)
    hall.add_user("li", PASSWORD)
    token = hall.new_token("li")
    hall.close()
    pairs = tmp_path / "pairs.csv"
    pairs.write_text("id,name\n" + "".join(f"p{i},第{i}队\n" for i in range(1, 2 * TABLES + 1)), encoding="utf-8")
    guandan("tournament", "new", "厅赛", "--pairs", str(pairs), "--format", "swiss", "--rounds", str(ROUNDS),
            "--profile", profile, "--seed", "4", "--db", str(db))
    server = subprocess.Popen([sys.executable, "-m", "scorer.cli", "hall", "serve", "--broker", broker.url,
                               "--db", str(db), "--hall", HALL, "--web", str(web)], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    tables = [f"{r}-{n}" for r in range(1, ROUNDS + 1) for n in range(1, TABLES + 1)]
    base = f"http://127.0.0.1:{web}"
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    node = Node(parse_broker(broker.url), Outbox(tmp_path / "outbox.db"), tables, hall=HALL, name="gateway")
    try:
        node.start()
        wait_for(lambda: _listening(web), 30, "the hall server's pages")
        for r in range(1, ROUNDS + 1):
            status, drawn = api(base, "/api/tournaments/1/draws", token, {})
            assert status == 201 and drawn["round"] == r and len(drawn["tables"]) == TABLES, drawn
            node.publish_many((f"{r}-{n}", event.to_json()) for n in range(1, TABLES + 1)
                              for event in self_play(profiles.load(profile), random.Random(100 * r + n),
                                                     max_hands=1, table=f"{r}-{n}"))
            wait_for(lambda r=r: states(base, r) == ["provisional"] * TABLES, 60, f"round {r}'s results")
            status, refused = api(base, "/api/tournaments/1/draws", token, {})
            assert status == 400 and (("待确认" in refused["error"] and "provisional" in refused["error"])
                                      if r < ROUNDS else f"all {ROUNDS} rounds" in refused["error"])
            if r < ROUNDS:
                for n in range(1, TABLES + 1):
                    assert api(base, f"/api/tournaments/1/results/{n}/confirm", token, {})[0] == 201
            else:  # the last round at the tournament page, as a referee
                page.goto(base + "/referee/login?next=/tournament/1")
                page.fill('input[name="user"]', "li")
                page.fill('input[name="password"]', PASSWORD)
                page.click('button[type="submit"]')
                for n in range(1, TABLES + 1):
                    page.click(f'#draw tr[data-table="{n}"] button.t-confirm')
                    page.wait_for_selector(f'#draw tr.state-final[data-table="{n}"]', timeout=30_000)
            assert states(base, r) == ["final"] * TABLES
        results = api(base, "/api/tournaments/1/results")[1]
        assert len(results) == ROUNDS * TABLES and {e["source"] for e in results} == {f"hall:{t}" for t in tables}
        expected = json.loads(guandan("tournament", "standings", "--json", "--db", str(db)))
        assert api(base, "/api/tournaments/1/standings")[1]["rows"] == [
            row | {"withdrawn": None} for row in expected]
        page.goto(base + "/tournament/1")
        shown = [cell.split(" ")[0] for cell in page.locator("#standings tbody td.c-pair").all_inner_texts()]
        assert shown == [row["pair"] for row in expected]
        page.screenshot(path=str(ARTIFACTS / f"tournament-hall-{profile}.png"), full_page=True)
    finally:
        page.close()
        node.stop(timeout=0.5)
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=30)
