"""The small parts on their own: broker addresses, topics, the outbox, the hall's refusals."""

from __future__ import annotations

import pytest

from hall import topics
from hall.broker import BrokerAddress, parse_broker
from hall.errors import HallError
from hall.outbox import Outbox
from rulebook.tournament_live import REFUSALS
from tests.web.test_refusals import PASSED_ON, ROOT, coded_calls, fields


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


#: where the hall's refusals are raised: the hall's modules and its command
HALL_CODE = [*sorted((ROOT / "hall").glob("*.py")), ROOT / "scorer/hall_cli.py"]


def test_every_refusal_of_the_hall_has_words_for_its_values():
    """The hall's errors (``HallError``, an act's ``Refusal``) are named by codes the rule
    books word in both languages; none is worded where it is raised."""
    found = 0
    for path in HALL_CODE:
        for line, code, values in coded_calls(path, {"HallError", "Refusal"}, 0):
            if code == PASSED_ON or path.name == "topics.py":
                continue  # passed on; a name's kind picks its code (below)
            assert code in REFUSALS and fields(code) <= values, f"{path.name}:{line}: {code}"
            found += 1
    assert found >= 15
    for kind, zh in (("hall", "赛场名"), ("node", "节点名"), ("table", "牌桌名")):
        with pytest.raises(HallError) as bad:
            topics.check_name(kind, "a/b")
        english = bad.value.text("en")
        assert english.startswith(f"a {kind} name is 1-40 letters") and f" / {zh}须为" in english
        assert str(bad.value).startswith(f"{zh}须为1–40个字母") and str(bad.value).endswith("got 'a/b'")


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
