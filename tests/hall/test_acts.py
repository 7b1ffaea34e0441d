"""Referee acts made at the hall server's console travel down to the table's node, are
stored in the table's own record under its next seq, and come back up with the record."""

from __future__ import annotations

import json
import re
import threading
import uuid

import paho.mqtt.client as mqtt
import pytest

from engine.events import event_from_json
from hall import topics
from hall.acts import SentActs, TableActs, act_message
from hall.node import Node
from hall.outbox import Outbox
from hall.relay import Relay
from store.event_store import SeqTaken, Store
from table.record_link import StoreLink
from tests.hall.broker import needs_mosquitto
from tests.hall.conftest import HALL, match, stored, wait_for
from web import create_app

PASSWORD = "s3cret-pass"


def _table(tmp_path, events: int = 6) -> tuple[Store, list[dict]]:
    """A camera table's own store, its first ``events`` written as the runtime writes them."""
    table = Store(tmp_path / "table.db")
    record = match("t1")
    write = StoreLink(table, "t1").append
    for body in record[:events]:
        write(event_from_json(body))
    return table, record


def _node(address, outbox: Outbox, table: Store) -> Node:
    return Node(address, outbox, ["t1"], hall=HALL, acts=TableActs(table, "t1").take)


def _camera_table(tmp_path, address, store: Store, outbox: Outbox, start_ingest):
    """The hall server, and a camera table relaying its first events to it as a node that
    takes acts: (ingest, the table's store, its match, the relay)."""
    ingest = start_ingest()
    table, record = _table(tmp_path)
    relay = Relay(table, "t1", _node(address, outbox, table).start(), every=0.05).start()
    wait_for(lambda: len(stored(store, "t1")) == 6 and ingest.route("t1") == "send", what="the table at the hall")
    return ingest, table, record, relay


def _hall_console(store: Store, ingest):
    store.add_user("li", PASSWORD)
    app = create_app(store, start_hub=False, hall=ingest)
    return app, {"Authorization": f"Bearer {store.new_token('li')}"}


# --- the node's side, on its own ------------------------------------------------------


def test_an_act_is_stored_once_however_often_it_comes(tmp_path):
    table, _ = _table(tmp_path)
    acts = TableActs(table, "t1")
    message = act_message("a1", "penalty", {"seat": "E", "penalty": "warning", "why": "slow"}, "li")
    first = acts.take("t1", "a1", message)
    assert first == {"id": "a1", "table": "t1", "state": "recorded", "seq": 6}
    table.append("t1", [{**match("t1")[6], "seq": 7}])  # the camera went on
    assert acts.take("t1", "a1", message) == first  # delivered again (the node died before clearing it)
    assert [b["type"] for b in stored(table, "t1")].count("penalty") == 1
    with pytest.raises(ValueError, match="table t2"):
        acts.take("t2", "a9", message)  # a node of one table is handed only that table's acts
    body = table.body_at("t1", 6)
    assert body == {"seq": 6, "t": body["t"], "type": "penalty", "seat": "E", "penalty": "warning", "alert": None,
                    "by": "li", "why": "slow"}


def test_an_act_that_would_break_the_tables_record_is_refused_once_for_its_reason(tmp_path):
    table, _ = _table(tmp_path)
    acts = TableActs(table, "t1")
    wrong = act_message("a2", "correction", {"target": 0, "cards": [], "why": "x"}, "li")
    reply = acts.take("t1", "a2", wrong)
    assert reply["state"] == "refused"
    assert reply["error"] == "第0条不是本桌记录中的出牌或过牌 / event 0 is not a play or a pass of this table"
    assert acts.take("t1", "a2", wrong) == reply and table.next_seq("t1") == 6
    assert acts.take("t1", "a3", b"{not json")["error"] == "裁判操作的消息不是JSON / the act's message is not JSON"
    other = act_message("a4", "penalty", {"seat": "E", "penalty": "warning"}, "li")
    assert acts.take("t1", "a5", other)["error"] == \
        "裁判操作的消息没有带上自己的编号 / the act's message does not carry its own id"
    bribe = acts.take("t1", "a6", act_message("a6", "bribe", {}, "li"))["error"]
    assert bribe.startswith("没有裁判操作 'bribe'（可用：correction, missed") and "/ no referee act 'bribe'" in bribe
    thrice = act_message("a7", "correction", {"target": 3, "cards": ["S3", "S3", "S3"], "why": "x"}, "li")
    assert acts.take("t1", "a7", thrice)["error"] == \
        "S3 出现了3次；两副牌中每张牌只有2张 / S3 appears 3 times; two decks hold only 2"


def test_the_act_and_the_note_that_it_was_taken_are_one_write(tmp_path):
    """An act whose seq the camera took a moment before is not noted as taken: it is built
    again on top of the camera's event."""
    table, record = _table(tmp_path)
    body = {"seq": 6, "t": 1.0, "type": "penalty", "seat": "E", "penalty": "warning", "alert": None, "by": "li",
            "why": "slow"}
    table.append("t1", [record[6]])
    with pytest.raises(SeqTaken):
        table.append_act("t1", body, "a1")
    assert table.act_taken("a1") is None
    assert TableActs(table, "t1").take("t1", "a1", act_message("a1", "penalty", body, "li"))["seq"] == 7


def test_the_hall_server_follows_what_became_of_each_act():
    sent = SentActs()
    message = act_message("a1", "missed", {"seat": "N", "cards": ["HR"], "why": "covered"}, "li")
    assert sent.sent("t1", "a1", message) and sent.get("a1").state == "pending"
    sent.cleared("t1", "a1")
    assert sent.get("a1").state == "taken"
    assert sent.replied("t1", "a1", json.dumps({"id": "a1", "state": "recorded", "seq": 40}).encode())
    sent.sent("t1", "a1", message)  # its retained message seen again (a restart) changes nothing
    a = sent.get("a1")
    assert (a.state, a.seq, a.act, a.by, a.fields["cards"]) == ("recorded", 40, "missed", "li", ["HR"])
    assert sent.replied("t2", "b1", json.dumps({"id": "b1", "state": "refused", "error": "no"}).encode())
    assert [x.id for x in sent.all()] == ["b1", "a1"] and [x.id for x in sent.all("t2")] == ["b1"]
    assert not sent.replied("t1", "a1", b"[]") and not sent.sent("t1", "c1", b"{}")


# --- through the broker -----------------------------------------------------------------

@needs_mosquitto
def test_an_act_made_at_the_hall_goes_down_to_the_table_and_comes_back_with_its_record(
        tmp_path, address, store, outbox, start_ingest):
    ingest, table, record, relay = _camera_table(tmp_path, address, store, outbox, start_ingest)
    app, auth = _hall_console(store, ingest)
    client = app.test_client()
    r = client.post("/api/tables/t1/referee/penalty", json={"seat": "E", "penalty": "warning", "why": "slow"},
                    headers=auth)
    assert r.status_code == 202 and r.get_json()["state"] == "pending"
    act = r.get_json()["sent"]
    assert len(stored(store, "t1")) == 6  # not written at the hall: its seq is the table's to give
    wait_for(lambda: table.next_seq("t1") == 7, what="the act at the table")
    write = StoreLink(table, "t1").append  # the camera goes on after it
    for n, body in enumerate(record[6:12], start=7):
        write(event_from_json({**body, "seq": n}))
    wait_for(lambda: stored(store, "t1") == stored(table, "t1") and len(stored(table, "t1")) == 13,
             what="the record, the act in it, back at the hall")
    assert stored(store, "t1")[6]["type"] == "penalty" and stored(store, "t1")[6]["by"] == "li"
    wait_for(lambda: ingest.sent.get(act).state == "recorded", what="the node's reply")
    assert ingest.sent.get(act).seq == 6 and ingest.stats.conflicts == 0
    # refused: a correction of the header, sent past the hall's own check
    bad = ingest.send_act("t1", "correction", {"target": 0, "cards": [], "why": "x"}, "li")
    wait_for(lambda: ingest.sent.get(bad).state == "refused", what="the refusal")
    assert "not a play or a pass" in ingest.sent.get(bad).error and len(stored(table, "t1")) == 13
    listed = client.get("/api/tables/t1/referee/sent").get_json()
    assert [(a["id"], a["state"], a["seq"]) for a in listed] == [(bad, "refused", None), (act, "recorded", 6)]
    assert listed[1]["fields"] == {"seat": "E", "penalty": "warning", "alert": None, "why": "slow"}
    # the hall's own check refuses what it can see is wrong, before anything is sent
    r = client.post("/api/tables/t1/referee/correction", json={"target": 1, "cards": ["S9"], "why": "x"},
                    headers=auth)
    assert r.status_code == 400 and "not a play or a pass" in r.get_json()["error"] and len(ingest.sent.all()) == 2
    relay.close()
    app.config["HUB"].stop()


@needs_mosquitto
def test_an_act_for_a_table_whose_node_is_away_waits_at_the_broker(tmp_path, address, store, outbox, start_ingest):
    ingest, table, _, relay = _camera_table(tmp_path, address, store, outbox, start_ingest)
    relay.close()
    wait_for(lambda: ingest.presence.get("t1").state == "offline", what="the node gone")
    assert ingest.route("t1") == "send"
    act = ingest.send_act("t1", "level_adjust", {"side": "NS", "levels": -1, "why": "penalty"}, "li")
    assert ingest.sent.get(act).state == "pending" and table.next_seq("t1") == 6
    ingest.stop()  # the hall server restarts meanwhile, too
    again = start_ingest()
    wait_for(lambda: again.sent.get(act) is not None, what="the waiting act, from the broker")
    relay = Relay(table, "t1", _node(address, Outbox(outbox.path), table).start(), every=0.05).start()
    wait_for(lambda: len(stored(store, "t1")) == 7, what="the act, stored at the table and back at the hall")
    assert stored(store, "t1")[6] | {"t": 0} == {"seq": 6, "t": 0, "type": "level_adjust", "side": "NS",
                                                 "levels": -1, "by": "li", "why": "penalty"}
    wait_for(lambda: again.sent.get(act).state == "recorded", what="the reply")
    retained = _retained(address, topics.acts_filter(HALL, "t1"))
    assert retained == []  # taken, so cleared: a node starting later gets nothing again
    relay.close()


@needs_mosquitto
def test_a_nodes_table_that_takes_no_acts_still_refuses_them(address, store, outbox, start_ingest, nodes):
    """A recorded match played back (``guandan hall node``) or the simulator take no acts:
    the hall's console refuses, saying so; a table made at the server takes acts as ever."""
    ingest = start_ingest()
    nodes.append(Node(address, outbox, ["t1"], hall=HALL).start())
    nodes[0].publish_many(("t1", body) for body in match("t1")[:5])
    wait_for(lambda: len(stored(store, "t1")) == 5 and ingest.presence.get("t1") is not None, what="t1")
    app, auth = _hall_console(store, ingest)
    client = app.test_client()
    act = {"seat": "E", "penalty": "warning", "why": "slow"}
    r = client.post("/api/tables/t1/referee/penalty", json=act, headers=auth)
    assert r.status_code == 409 and "takes no referee acts" in r.get_json()["error"] and "节点" in r.get_json()["error"]
    assert len(stored(store, "t1")) == 5 and ingest.sent.all() == []
    client.post("/api/tables", json={"id": "paper", "header": {**match("paper")[0], "table": "paper"}}, headers=auth)
    client.post("/api/tables/paper/events", json={"events": match("paper")[1:3]}, headers=auth)
    assert client.post("/api/tables/paper/referee/penalty", json=act, headers=auth).status_code == 201
    app.config["HUB"].stop()


@needs_mosquitto
def test_the_hall_referee_console_lists_the_acts_sent_and_what_became_of_them(
        tmp_path, address, store, outbox, start_ingest):
    ingest, table, _, relay = _camera_table(tmp_path, address, store, outbox, start_ingest)
    app, _ = _hall_console(store, ingest)
    client = app.test_client()
    page = client.get("/referee/login").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    client.post("/referee/login", data={"user": "li", "password": PASSWORD, "csrf_token": csrf})
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/referee").get_data(as_text=True)).group(1)
    r = client.post("/referee/act", data={"table": "t1", "act": "penalty", "seat": "W", "penalty": "warning",
                                          "why": "slow", "csrf_token": csrf}, follow_redirects=True)
    assert "已发往牌桌节点" in r.get_data(as_text=True)
    ingest.send_act("t1", "correction", {"target": 0, "cards": [], "why": "x"}, "li")
    wait_for(lambda: [a.state for a in ingest.sent.all()] == ["refused", "recorded"], what="both answers")
    page = client.get("/referee").get_data(as_text=True)
    assert "发往牌桌的裁判操作" in page and "已记入第6条" in page and "牌桌拒绝" in page
    assert "not a play or a pass" in page
    english = client.get("/referee?lang=en").get_data(as_text=True)
    assert "recorded as event 6" in english and "refused by the table" in english
    relay.close()
    app.config["HUB"].stop()


def _retained(address, topic: str) -> list[bytes]:
    """The retained messages under ``topic`` now, as a fresh subscriber gets them: the
    broker sends them on subscribing, before a message this subscriber publishes after."""
    got: list[bytes] = []
    done = threading.Event()
    marker = "peek/" + uuid.uuid4().hex

    def on_message(client, userdata, message) -> None:
        if message.topic == marker:
            done.set()
        elif message.payload:
            got.append(message.payload)

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="peek-" + marker[5:], clean_session=True)
    client.on_message = on_message
    client.on_subscribe = lambda c, u, mid, codes, p: c.publish(marker, b"x", qos=1)
    client.on_connect = lambda c, u, f, r, p: c.subscribe([(topic, 1), (marker, 1)])
    client.connect(address.host, address.port)
    client.loop_start()
    try:
        assert done.wait(10), "the broker never answered"
    finally:
        client.loop_stop()
        client.disconnect()
    return got
