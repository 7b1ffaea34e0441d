"""The commentary ticker (web/broadcast.py, rulebook/commentary.py): the demo match's lines
in 中文 and English as JSON and as a Server-Sent Events stream from ``guandan serve``, read
whole, resumed, and live as the demo's events are played into a new table; the stream loop
serves its followers, Flask's own route the same feed."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request

import pytest

from engine.record import parse_lines
from scorer.cli import DEMO_RECORD
from tests.web.test_obs import post, sse_messages

HAN = re.compile(r"[\u4e00-\u9fff]")


def demo_events() -> tuple[dict, list[dict]]:
    record = parse_lines(DEMO_RECORD.read_text(encoding="utf-8").splitlines())
    return record.header.to_json(), [e.to_json() for e in record.events[1:]]


def test_the_demo_ticker_as_json(client):
    lines = client.get("/api/tables/1/ticker.json").get_json()
    assert [line["n"] for line in lines] == list(range(1, len(lines) + 1)) and len(lines) > 150
    assert all(HAN.search(line["zh"]) and line["en"] and not HAN.search(line["en"].split(" (")[0]) for line in lines)
    assert lines[0]["zh"] == "第1把开始：打2，东西方坐庄" and lines[0]["en"] == "Hand 1: playing 2, East-West's level"
    assert lines[1]["zh"] == "南家打出4张炸弹 3333，压过西家顺子"
    assert lines[-1]["kind"] == "result"
    snapshot = client.get("/api/tables/1").get_json()
    assert snapshot["ticker"] == [{k: v for k, v in line.items() if k != "n"} for line in lines[-20:]]
    assert client.get("/api/tables/nope/ticker.json").status_code == 404
    highlights = client.get("/api/tables/1/highlights").get_json()
    assert highlights[0]["kind"] == "bomb" and highlights[0]["title"]["zh"] == "4张炸弹"


@pytest.mark.slow
def test_the_demo_ticker_streams_whole_and_resumes(server):
    with urllib.request.urlopen(server + "/api/tables/1/ticker?after=0&lang=en", timeout=10) as stream:
        got = sse_messages(stream, lambda m: m[-1][1]["kind"] == "result", timeout=20)
    assert all(event == "line" for event, _, _ in got)
    assert [int(ident) for _, _, ident in got] == list(range(1, len(got) + 1))
    first = got[0][1]
    assert first["zh"] == "第1把开始：打2，东西方坐庄" and first["text"] == first["en"]
    assert any(m["kind"] == "jiefeng" and m["zh"].endswith("家接风") for _, m, _ in got)
    assert any(m["kind"] == "report" and m["zh"] == "北家报牌：剩 6 张" for _, m, _ in got)
    total = len(got)
    req = urllib.request.Request(server + "/api/tables/1/ticker", headers={"Last-Event-ID": str(total - 2)})
    with urllib.request.urlopen(req, timeout=10) as stream:
        again = sse_messages(stream, lambda m: len(m) == 2)
    assert [int(ident) for _, _, ident in again] == [total - 1, total] and "text" not in again[0][1]
    with urllib.request.urlopen(server + "/api/tables/1/ticker", timeout=10) as stream:  # a new follower: the backlog
        backlog = sse_messages(stream, lambda m: len(m) == 20)
    assert backlog[-1][1]["kind"] == "result" and int(backlog[0][2]) == total - 19


@pytest.mark.slow
def test_the_ticker_follows_the_demo_live(server, token):
    header, events = demo_events()
    post(server, "/api/tables", {"id": "live", "header": header | {"table": "live"}}, token)
    post(server, "/api/tables/live/events", {"events": events[:1]}, token)  # the deal
    with urllib.request.urlopen(server + "/api/tables/live/ticker?lang=zh", timeout=10) as stream:
        first = sse_messages(stream, lambda m: m)
        assert [m["zh"] for _, m, _ in first] == ["第1把开始：打2，东西方坐庄"]
        post(server, "/api/tables/live/events", {"events": events[1:14]}, token)  # up to the first bomb (seq 14)
        bomb = sse_messages(stream, lambda m: m)[-1][1]
        assert (bomb["kind"], bomb["text"]) == ("bomb", "南家打出4张炸弹 3333，压过西家顺子")
        assert bomb["en"] == "South bombs with 3333 (4-card bomb) over West's straight"
        post(server, "/api/tables/live/events", {"events": events[14:17]}, token)  # 北家 9999, and 报牌
        more = sse_messages(stream, lambda m: len(m) == 2)
    assert [m["zh"] for _, m, _ in more] == ["北家打出4张炸弹 9999，压过南家4张炸弹", "北家报牌：剩 8 张"]
    assert [m["en"] for _, m, _ in more] == ["North bombs with 9999 (4-card bomb) over South's 4-card bomb",
                                              "North reports 8 left (报牌)"]
    assert [int(i) for _, _, i in more] == [3, 4]
    lines = json.loads(urllib.request.urlopen(server + "/api/tables/live/ticker.json", timeout=10).read())
    assert len(lines) == 4


def test_the_ticker_under_flasks_own_server_is_the_same_feed(client):
    """Flask's route (``--debug``; under ``guandan serve`` the stream loop serves it) follows
    the same feed (``web.feeds.TickerFeed``): the lines from the first, in the asked language."""
    response = client.get("/api/tables/1/ticker?after=0&lang=en")
    chunks = response.response
    first = next(chunks).decode()
    assert first.startswith("id: 1\nevent: line\n")
    line = json.loads(first.split("data: ", 1)[1])
    assert line["n"] == 1 and line["text"] == line["en"] == "Hand 1: playing 2, East-West's level"
    response.close()
    assert client.get("/api/tables/1/ticker", headers={"Last-Event-ID": "soon"}).status_code == 400


@pytest.mark.slow
def test_the_tickers_followers_are_the_stream_loops_and_a_bad_resume_stays_with_waitress(server):
    """Under ``guandan serve`` a ticker's follower holds no thread: the stream loop takes it
    over (``web.streams``' head), as a table's; a resume point that is no line's number is
    left to waitress's route, which refuses it."""
    with urllib.request.urlopen(server + "/api/tables/1/ticker?after=0", timeout=10) as stream:
        assert stream.headers["Server"] == "guandan" and stream.headers["Connection"] == "close"
        assert sse_messages(stream, lambda m: m)[0][2] == "1"
    asked = urllib.request.Request(server + "/api/tables/1/ticker", headers={"Last-Event-ID": "soon"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(asked, timeout=10)
    assert refused.value.code == 400
