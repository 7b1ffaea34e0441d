"""The small parts on their own: broker addresses, topics, the outbox."""

from __future__ import annotations

import pytest

from hall import topics
from hall.broker import BrokerAddress, parse_broker
from hall.errors import HallError
from hall.outbox import Outbox


def test_broker_addresses():
    assert parse_broker("mqtt://hall.local") == BrokerAddress("hall.local", 1883)
    assert parse_broker("mqtt://10.0.0.5:1884/") == BrokerAddress("10.0.0.5", 1884)
    assert str(parse_broker("mqtt://127.0.0.1:9")) == "mqtt://127.0.0.1:9"
    for bad, says in [("127.0.0.1:1883", "expected mqtt://HOST:PORT"), ("http://x", "expected"),
                      ("mqtt://", "expected"), ("mqtt://h:99999", "out of range"), ("mqtt://h/x", "expected"),
                      ("mqtts://h", "TLS")]:
        with pytest.raises(HallError, match=says):
            parse_broker(bad)


def test_topics_round_trip():
    assert topics.parse("h", topics.event("h", "t1", 7)) == ("event", "t1", "7")
    assert topics.parse("h", topics.table_status("h", "t1")) == ("table_status", "t1", "")
    assert topics.parse("h", topics.node_status("h", "n1")) == ("node_status", "n1", "")
    assert topics.parse("h", topics.resend("h", "t1")) == ("resend", "t1", "")
    assert topics.parse("h", "guandan/other/tables/t1/status") is None
    assert topics.parse("h", "guandan/h/tables/t1/events") is None
    with pytest.raises(HallError, match="1-40 letters"):
        topics.check_name("table", "a/b")


def test_the_outbox_keeps_order_and_marks_only_what_was_acknowledged(tmp_path):
    box = Outbox(tmp_path / "o.db")
    box.put("n", [("t1", 0, "a"), ("t2", 0, "b"), ("t1", 1, "c")])
    box.put("n", [("t1", 1, "changed?")])  # already there: kept as it was
    box.put("other", [("t9", 0, "z")])
    rows = box.unsent("n", 0, 10)
    assert [(r.table, r.seq, r.line) for r in rows] == [("t1", 0, "a"), ("t2", 0, "b"), ("t1", 1, "c")]
    assert [r.seq for r in box.unsent("n", rows[0].id, 10)] == [0, 1]
    box.mark_sent([("t1", 0), ("t1", 1)])
    assert [(r.table, r.seq) for r in box.unsent("n", 0, 10)] == [("t2", 0)]
    assert box.progress("n") == {"t1": (1, 1), "t2": (0, -1)}
    assert box.rewind("t1", 1) == rows[2].id  # the hall asks for t1 again from seq 1
    assert [(r.table, r.seq) for r in box.unsent("n", 0, 10)] == [("t2", 0), ("t1", 1)]
    assert box.rewind("t1", 5) is None
    assert box.count_unsent("n") == 2 and box.count_unsent() == 3
