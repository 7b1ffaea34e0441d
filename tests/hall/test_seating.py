"""A tournament on the hall, down to its tables (hall/draw_post.py, hall/table_seating.py):
each table's node is told the pairs drawn at it and shows them on its page and its clock,
the hall's own page for the table shows the same, and a provisional result is confirmed by
a player of each side pressing their seat button.

The real programs: Mosquitto and ``guandan hall serve --web`` as processes, the tournament
made and drawn through the desk as ``guandan tournament`` does, table nodes wired as
``guandan run --hall`` wires them (``tests/hall/table_node.py``) with the clock box emulated
on a real serial pair, and the table's pages (``guandan serve`` on the node's store, and the
hall server's) in headless Chromium."""

from __future__ import annotations

import json
import signal
import time

import paho.mqtt.client as mqtt

from engine.tournament import Pair, Tournament
from hall import topics
from hall.draw_post import DrawPost
from hall.node import Node
from hall.outbox import Outbox
from hall.seating import SeatedPair, read, read_confirmation
from hall.table_seating import TableSeating
from hardware.board import digits, level_text, pair_text
from hardware.emulator import DeviceEmulator
from hardware.ptypair import PtyPair
from rulebook import profiles
from store import seatings
from store import tournament_desk as desk
from store.event_store import Store
from store.tournament_store import TournamentStore
from tests.hall.broker import needs_mosquitto
from tests.hall.conftest import HALL, match, wait_for
from tests.hall.table_node import TableNode
from tests.hall.test_cli import _listening
from tests.hall.test_tournament_e2e import api, states
from tests.hall.tournament_hall import hall_with_round_one
from tests.ports import free_port
from tests.web.conftest import ARTIFACTS


def seat_texts(ns: str, ew: str) -> dict[str, str]:
    return {"N": ns, "S": ns, "E": ew, "W": ew}


def shows(node: TableNode, texts: dict[str, str]) -> bool:
    return node.box.displays == texts


@needs_mosquitto
def test_a_round_reaches_its_tables_and_their_seat_buttons_confirm_the_results(tmp_path, broker, browser):
    hall = hall_with_round_one(tmp_path, broker.url)
    db, base, web, token, server = hall.db, hall.base, hall.web, hall.token, hall.server
    t1, t2 = hall.tables
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    at_hall = browser.new_page(viewport={"width": 1200, "height": 900})  # the hall server's page for table 1
    nodes: list[TableNode] = []
    try:
        # two tables' nodes, started after the draw: one named by the table's number, one by round and number
        one = TableNode(tmp_path / "one", broker.url, "1", match("1", seed=1)[0], pages=True)
        nodes.append(one)
        two = TableNode(tmp_path / "two", broker.url, "1-2", match("1-2", seed=2)[0])
        nodes.append(two)
        wait_for(lambda: shows(one, {s: "t  1" for s in "ESWN"}), 20, "table 1 on its clock")
        wait_for(lambda: shows(one, seat_texts(pair_text(t1.ns, 1), pair_text(t1.ew, 1))), 10,
                 "each seat's own pair on table 1's clock")
        wait_for(lambda: two.box.displays["N"] in ("t  2", pair_text(t2.ns, 1)), 10, "table 2 on its clock")
        assert two.seating.seating.pairs["NS"].id == t2.ns
        one.wait_pages()
        # the seating reaches the table's pages on its own path, not with the clock's displays
        wait_for(lambda: one.snapshot().get("seating") is not None, 20, "table 1's seating on its pages")
        assert one.snapshot()["seating"]["pairs"]["NS"]["id"] == t1.ns
        page.goto(f"{one.url}/table/1?lang=en")
        page.wait_for_selector(f'#seating .seating-pairs:has-text("第{t1.ns[1:]}队")')
        assert "厅赛 · round 1 of 2 · table 1" in page.inner_text("#seating")
        assert page.inner_text("#seat-E .seat-pair") == f"第{t1.ew[1:]}队"
        wait_for(lambda: _listening(web), 30, "the hall server's pages")

        # the hall's own pages for the two tables, once their records are up: the same seating
        wait_for(lambda: {"1", "1-2"} <= {t["table"] for t in api(base, "/api/tables")[1]}, 20, "both tables up")
        at_hall.goto(f"{base}/table/1")  # Chinese by default
        at_hall.wait_for_selector('#seating .seating-head:has-text("厅赛 · 第1轮（共2轮）· 第1桌")')
        assert [at_hall.inner_text(f"#seat-{s} .seat-pair") for s in "NSEW"] == \
            [f"第{t1.ns[1:]}队"] * 2 + [f"第{t1.ew[1:]}队"] * 2
        assert f"南北方 第{t1.ns[1:]}队 {t1.ns}" in at_hall.inner_text("#seating .seating-pairs")
        at_hall.goto(f"{base}/table/1-2?lang=en")
        at_hall.wait_for_selector('#seating .seating-head:has-text("厅赛 · round 1 of 2 · table 2")')
        assert f"North-South 第{t2.ns[1:]}队 {t2.ns}" in at_hall.inner_text("#seating .seating-pairs")
        assert at_hall.inner_text("#seat-W .seat-pair") == f"第{t2.ew[1:]}队"
        at_hall.goto(f"{base}/table/1?lang=en")
        at_hall.wait_for_selector('#seating .seating-head:has-text("round 1 of 2 · table 1")')

        # table 1's match ends: the hall enters it as provisional, the clock shows it for the seats to confirm
        one.play(match("1", seed=1)[1:])
        wait_for(lambda: states(base, 1)[0] == "provisional", 30, "table 1's provisional result")
        wait_for(lambda: set(one.box.lamps.values()) == {"BLINK"}, 10, "the lamps asking for a press")
        levels = api(base, "/api/tournaments/1/draws?round=1")[1][0]["tables"][0]["result"]["levels"]
        ns, ew = level_text(levels[t1.ns]), level_text(levels[t1.ew])
        assert shows(one, seat_texts(digits(f"{ns}.{ew}"), digits(f"{ew}.{ns}")))
        page.wait_for_selector("#seating .state-provisional")
        at_hall.wait_for_selector("#seating .state-provisional")  # live at the hall too
        one.box.press("E")
        one.box.press("W")  # one side alone confirms nothing
        wait_for(lambda: one.box.lamps == {"E": "ON", "W": "ON", "N": "BLINK", "S": "BLINK"}, 10, "East-West pressed")
        page.wait_for_selector('#seating .state-provisional:has-text("pressed: East-West")')
        time.sleep(1.0)  # the hall looks for confirmations twice a second
        assert states(base, 1)[0] == "provisional"
        one.box.press("S")  # and a player of the other side: final
        wait_for(lambda: states(base, 1)[0] == "final", 20, "table 1's result confirmed")
        (entry,) = [e for e in api(base, "/api/tournaments/1/results")[1] if e["table"] == 1]
        assert entry["state"] == "final" and entry["confirmed_by"] == desk.SEAT_BUTTONS == "座位按键/seat buttons"
        wait_for(lambda: set(one.box.lamps.values()) == {"OFF"}, 10, "the lamps off: nothing to press")
        page.wait_for_selector("#seating .state-final")  # live, no reload
        at_hall.wait_for_selector("#seating .state-final")
        page.screenshot(path=str(ARTIFACTS / "table-seating-confirmed.png"), full_page=True)
        pressed = [e.body["seat"] for e in Store(db).events("1") if e.body["type"] == "press"]
        assert pressed == ["E", "W", "S"]  # the presses are the table's record, up at the hall too

        # a referee enters table 2's result: final at once, its clock shows it with nothing to press
        status, _ = api(base, "/api/tournaments/1/results", token,
                        {"table": 2, "pairs": [t2.ns, t2.ew], "levels": ["A+", "9"]})
        assert status == 201
        wait_for(lambda: shows(two, seat_texts(" PA.9", " 9.PA")) and set(two.box.lamps.values()) == {"OFF"}, 10,
                 "table 2's final result on its clock")

        # round 2: the running node of table "1" is told its new pairs at once; node "1-2" keeps round 1's
        status, drawn = api(base, "/api/tournaments/1/draws", token, {})
        assert status == 201 and drawn["round"] == 2
        r2 = drawn["tables"][0]
        wait_for(lambda: shows(one, seat_texts(pair_text(r2["ns"], 0), pair_text(r2["ew"], 0))), 10,
                 "round 2's pairs on table 1's clock")
        page.wait_for_selector('#seating:has-text("round 2 of 2")')
        at_hall.wait_for_selector('#seating .seating-head:has-text("round 2 of 2 · table 1")')
        assert [at_hall.inner_text(f"#seat-{s} .seat-pair") for s in "NE"] == [f"第{r2[s][1:]}队" for s in ("ns", "ew")]
        assert two.seating.seating.round == 1 and two.seating.seating.state == "final"
        assert [row["played"] for row in api(base, "/api/tournaments/1/standings")[1]["rows"]] == [1] * 4
    finally:
        page.close()
        at_hall.close()
        for node in nodes:
            node.close()
        server.send_signal(signal.SIGINT)
        said = server.communicate(timeout=30)[0]
    assert "Traceback" not in said
    assert "round 1, table 1: result 1 confirmed with the seat buttons" in said


@needs_mosquitto
def test_a_hall_without_a_tournament_sends_no_seating(tmp_path, store, address, start_ingest):
    start_ingest()
    seating = TableSeating(Store(tmp_path / "table.db"), "1")
    node = Node(address, Outbox(tmp_path / "outbox.db"), ["1"], hall=HALL, seating=seating.take).start()
    heard: list[str] = []
    watcher = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    watcher.on_message = lambda client, userdata, message: heard.append(message.topic)
    watcher.connect(address.host, address.port)
    watcher.subscribe(f"guandan/{HALL}/tables/+/seating")
    watcher.loop_start()
    try:
        time.sleep(1.5)  # the post looks at the store twice a second
        assert heard == [] and seating.seating is None and not seating.press("N")
        assert seatings.read(store) == {}  # nor anything for the hall's pages
    finally:
        watcher.loop_stop()
        watcher.disconnect()
        node.stop(timeout=0.5)


BODY = {"event": "厅赛", "round": 1, "rounds": 2, "table": 7, "state": "provisional",
        "pairs": {"NS": {"id": "p1", "name": "第1队", "number": 1}, "EW": {"id": "p2", "name": "第2队", "number": 2}},
        "result": {"entry": 3, "winner": "NS", "reason": "levels", "levels": {"NS": "A+", "EW": "9"}}}


def test_a_seating_message_is_read_whole_or_refused():
    body = BODY
    seating = read(json.dumps(body).encode())
    assert seating.awaiting == 3 and seating.to_json() == body
    assert seating.confirmation({"NS": "N", "EW": "E"}) == {"round": 1, "table": 7, "entry": 3,
                                                             "seats": {"NS": "N", "EW": "E"}}
    assert read(seating.message()) == seating
    for broken in (b"{", b"[]", json.dumps(body | {"state": "won"}).encode(),
                   json.dumps(body | {"pairs": {"NS": body["pairs"]["NS"]}}).encode(),
                   json.dumps(body | {"round": -1}).encode()):
        try:
            read(broken)
        except ValueError as exc:
            assert "not a seating message" in str(exc)
        else:
            raise AssertionError(f"read {broken!r}")
    assert read_confirmation(b'{"round": 1, "table": 7, "entry": 3, "seats": {}}') == (1, 7, 3)
    assert topics.parse(HALL, topics.seating(HALL, "2-7")) == ("seating", "2-7", "")
    assert topics.parse(HALL, topics.confirm(HALL, "7")) == ("confirm", "7", "")


@needs_mosquitto
def test_each_table_name_is_kept_told_and_a_stale_confirmation_is_refused(tmp_path, store, address, start_ingest):
    """A knockout of four pairs (two tables, then one): each table is told on ``N`` and ``R-N``;
    ``2`` is cleared when the latest round has no table 2; a confirmation of an entry a referee
    has since corrected confirms nothing and is cleared."""
    pairs = [Pair(f"p{i}", f"第{i}队") for i in range(1, 5)]
    with TournamentStore.open(store.path, create=True) as t_store:
        t_store.save_tournament(Tournament("厅赛", "knockout", 2, profiles.load("jiangsu"), 3, pairs), "jiangsu")
        _, (t1, t2), _ = desk.draw_next(t_store, None, "裁判长")
        record = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in match("1", seed=1))
        shown = desk.enter_record(t_store, None, 1, record, "hall:1", "hall")  # provisional, as the hall enters it
    ingest = start_ingest()
    retained: dict[str, dict | None] = {}

    def heard(client, userdata, message):
        name = topics.parse(HALL, message.topic)[1]
        retained[name] = json.loads(message.payload) if message.payload else None

    watcher = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    watcher.on_message = heard
    watcher.connect(address.host, address.port)
    watcher.subscribe(f"guandan/{HALL}/tables/+/seating", qos=1)
    watcher.loop_start()
    try:
        wait_for(lambda: {"1", "2", "1-1", "1-2"} <= set(retained), 10, "round 1's seatings")
        assert retained["1"] == retained["1-1"] and retained["1"]["state"] == "provisional"
        assert retained["2"]["pairs"]["EW"]["id"] == t2.ew and retained["2"]["result"] is None
        wait_for(lambda: seatings.read(store) == retained, 10, "the same seatings kept for the hall's pages")
        with TournamentStore.open(store.path) as t_store:  # a referee corrects table 1 meanwhile
            desk.enter_levels(t_store, None, 1, t1.ns, t1.ew, "A+", "5", None, "李")
            desk.enter_levels(t_store, None, 2, t2.ns, t2.ew, "9", "A+", None, "李")
        wait_for(lambda: retained["1"]["result"]["entry"] != shown.entry, 10, "the correction sent down")
        stale = {"round": 1, "table": 1, "entry": shown.entry, "seats": {"NS": "N", "EW": "E"}}
        watcher.publish(topics.confirm(HALL, "1"), json.dumps(stale), qos=1, retain=True)
        time.sleep(1.0)
        assert ingest.draws.confirmed == []
        with TournamentStore.open(store.path) as t_store:
            assert [e.confirmed_by for e in t_store.entries()] == [None, None, None]
            desk.draw_next(t_store, None, "裁判长")  # the final: one table
        wait_for(lambda: retained.get("2-1") is not None and retained["2"] is None, 10, "round 2's one table")
        assert retained["1"] == retained["2-1"] and retained["1-2"]["state"] == "final"
        wait_for(lambda: seatings.read(store) == {n: b for n, b in retained.items() if b is not None}, 10,
                 "round 2's seatings kept for the hall's pages, table 2 gone")
    finally:
        watcher.loop_stop()
        watcher.disconnect()
    cleared = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)  # the stale confirmation is gone from the broker
    left: list[bytes] = []
    cleared.on_message = lambda client, userdata, message: left.append(message.payload)
    cleared.connect(address.host, address.port)
    cleared.subscribe(topics.confirm(HALL, "1"))
    cleared.loop_start()
    time.sleep(0.5)
    cleared.loop_stop()
    cleared.disconnect()
    assert left == []


def test_the_hall_keeps_the_seatings_for_its_pages_while_the_broker_is_away(store):
    """The hall server keeps every table's seating in its own store (``store.seatings``),
    under the names the tables go by, for its pages: with no broker to send them to, the
    pages still follow the tournament; nothing is sent then."""
    pairs = [Pair(f"p{i}", f"第{i}队") for i in range(1, 5)]
    with TournamentStore.open(store.path, create=True) as t_store:
        t_store.save_tournament(Tournament("厅赛", "swiss", 2, profiles.load("jiangsu"), 4, pairs), "jiangsu")
        _, (t1, t2), _ = desk.draw_next(t_store, None, "裁判长")
    post = DrawPost(store, mqtt.Client(mqtt.CallbackAPIVersion.VERSION2), HALL)  # a client never connected
    try:
        assert post.step(now=0.0) == 0
        kept = seatings.read(store)
        assert set(kept) == {"1", "2", "1-1", "1-2"} and kept["1"] == kept["1-1"] and kept["2"] == kept["1-2"]
        assert read(json.dumps(kept["2"]).encode()).pairs == {
            "NS": SeatedPair(t2.ns, f"第{t2.ns[1:]}队", int(t2.ns[1:])),
            "EW": SeatedPair(t2.ew, f"第{t2.ew[1:]}队", int(t2.ew[1:]))}
        assert kept["1"]["state"] == "playing" and kept["1"]["result"] is None
        with TournamentStore.open(store.path) as t_store:  # a referee enters table 1's result
            desk.enter_levels(t_store, None, 1, t1.ns, t1.ew, "A+", "5", None, "李")
        assert post.step(now=0.1) == 0 and seatings.read(store) == kept  # kept again at most every 0.5 s
        assert post.step(now=0.6) == 0
        kept = seatings.read(store)
        assert kept["1"]["state"] == kept["1-1"]["state"] == "final" and kept["1"]["result"]["winner"] == "NS"
        assert kept["2"]["state"] == "playing"
    finally:
        post.stop()


def test_a_tables_seating_takes_one_press_a_side_and_survives_a_restart(tmp_path):
    store = Store(tmp_path / "table.db")
    seating, sent = TableSeating(store, "7"), []
    seating.send = lambda table, body: sent.append((table, body))
    assert not seating.press("N") and seating.board() is None  # nothing to confirm: the press is the turns'
    seating.take("7", json.dumps(BODY).encode())
    assert set(seating.board().lamps.values()) == {"BLINK"} and seating.board().page(0)["N"] == " PA.9"
    assert seating.press("N") and seating.press("S") and sent == []  # one side, twice
    assert seating.press("E") and seating.press("W")
    assert sent == [("7", {"round": 1, "table": 7, "entry": 3, "seats": {"NS": "N", "EW": "E"}})]
    again = TableSeating(store, "7")  # the node restarted: what it showed, presses included
    assert again.seating == seating.seating and set(again.board().lamps.values()) == {"ON"}
    seating.take("7", b"{")  # a broken message changes nothing
    assert seating.seating.awaiting == 3
    seating.take("7", json.dumps(BODY | {"result": BODY["result"] | {"entry": 4}}).encode())  # corrected: count again
    assert set(seating.board().lamps.values()) == {"BLINK"}
    seating.take("7", json.dumps(BODY | {"state": "final"}).encode())
    assert not seating.press("N") and set(seating.board().lamps.values()) == {"OFF"}
    seating.take("7", b"")  # no table 7 in the latest round
    assert seating.seating is None and TableSeating(store, "7").seating is None
    store.close()


@needs_mosquitto
def test_guandan_run_shows_its_tables_seating_on_the_clock_box(tmp_path, store, broker, start_ingest):
    """``guandan run --clock PORT --hall BROKER`` itself, a recording for its camera and the
    clock box emulated here on a real serial pair: the seating the hall sends shows on the
    box's displays once the table is up."""
    from tests.hall.test_tournament_results import new_tournament
    from tests.vision.test_run_cli import Table
    from vision.synth.render_game import render

    render(11, tmp_path, size=(1280, 720), max_events=3)
    new_tournament(store.path)
    start_ingest()
    with TournamentStore.open(store.path) as t_store:
        (t1, _) = t_store.load(profiles.load).draws[1]
    with PtyPair() as pair, DeviceEmulator(pair.device_end) as box:
        table = Table("--camera", str(tmp_path / "game.mp4"), "--db", str(tmp_path / "node.db"), "--table", "1",
                      "--port", str(free_port()), "--clock", pair.host_end, "--hall", broker.url, "--hall-name", HALL,
                      "--outbox", str(tmp_path / "outbox.db"), "--lang", "en")
        try:
            table.wait_for("# live table 1:")
            wait_for(lambda: box.displays == seat_texts(pair_text(t1.ns, 1), pair_text(t1.ew, 1)), 30,
                     "each seat's own pair on the box")
        finally:
            table.stop()
