"""The tournament on the web (web/tournament.py) with the real Flask test client on a real
SQLite store that holds both the hall's tables and the tournament: the page in both
languages, the printable sheets, the standings overlay, the JSON API with its refusals in
both languages, writes refused to anonymous callers exactly as the rest of the API, a
referee confirming from the page with the session's CSRF token, and the live stream."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from engine.bots import self_play
from engine.record import dumps
from engine.tournament import Pair, Tournament
from rulebook import profiles
from store import tournament_desk as desk
from store.event_store import Store
from store.tournament_store import TournamentStore
from tests.web.conftest import header_json
from tests.web.test_api import login
from web import create_app

ROOT = Path(__file__).resolve().parents[2]


def record(seed: int = 5) -> str:
    return dumps(self_play(profiles.load("linquan"), random.Random(seed), max_hands=3))


@pytest.fixture
def tournament(store):
    """Four pairs, a linquan Swiss of two rounds, round 1 drawn, in the hall's own database."""
    pairs = [Pair(f"p{i}", f"第{i}队", ("甲", "乙")) for i in range(1, 5)]
    with TournamentStore.open(store.path, create=True) as t_store:
        t_store.save_tournament(Tournament("公司杯", "swiss", 2, profiles.load("linquan"), 7, pairs), "linquan")
        desk.draw_next(t_store, None, "裁判长")
        yield t_store


def draw_of(client) -> list[dict]:
    return client.get("/api/tournaments/1/draws?round=1").get_json()[0]["tables"]


def test_without_a_tournament_the_pages_say_so_in_both_languages(client):
    for url in ("/tournament/1", "/overlay/tournament/1", "/api/tournaments/1/standings"):
        r = client.get(url)
        assert r.status_code == 404 and "没有比赛" in r.get_data(as_text=True) and "holds no tournament" in \
            r.get_data(as_text=True), url


def test_the_page_in_chinese_then_english(client, store, tournament):
    store.add_table("1-2", header_json("1-2", "linquan"))  # the hall's table for round 1, table 2
    zh = client.get("/tournament/1").get_data(as_text=True)
    assert "第1轮（共2轮）" in zh
    assert "公司杯" in zh and "成绩名次表" in zh and "第1轮对阵" in zh and "比赛中" in zh and "各组合战绩" in zh
    for word in ("名次", "积分", "小分", "抽签"):  # linquan's tie-break columns
        assert f">{word}<" in zh, word
    assert 'href="/table/1?lang=zh">1<' in zh  # the hall has a table 1: its state links to its page
    assert 'href="/table/1-2?lang=zh">2<' in zh
    assert "/tournament/1/sheet/1" in zh and "/tournament/1/standings" in zh
    en = client.get("/tournament/1?lang=en").get_data(as_text=True)
    assert "round 1 of 2" in en
    assert "Standings" in en and "Round 1 draw" in en and "playing" in en and "Small pts" in en
    assert client.get("/tournament/2").status_code == 404


def test_the_site_menu_links_to_the_tournament_where_there_is_one(app, client):
    assert ">赛事<" not in client.get("/").get_data(as_text=True)
    with TournamentStore.open(app.config["STORE"].path, create=True) as t_store:
        t_store.save_tournament(Tournament("公司杯", "swiss", 1, profiles.load("linquan"), 7,
                                           [Pair("p1", "甲"), Pair("p2", "乙")]), "linquan")
    assert ">赛事<" not in client.get("/").get_data(as_text=True)  # a "no" is kept a few seconds
    app.extensions.pop("guandan.tournament.none_until")
    assert '<a href="/tournament/1?lang=zh">赛事</a>' in client.get("/").get_data(as_text=True)
    assert '<a href="/tournament/1?lang=en">Tournament</a>' in client.get("/?lang=en").get_data(as_text=True)


def test_a_round_robin_shows_its_groups_in_their_column(app, client):
    pairs = [Pair(f"p{i}", f"第{i}队") for i in range(1, 5)]
    with TournamentStore.open(app.config["STORE"].path, create=True) as t_store:
        t_store.save_tournament(Tournament("循环赛", "roundrobin", 3, profiles.load("linyi"), 7,
                                           [Pair(p.id, p.name, group=1 + i % 2) for i, p in enumerate(pairs)]),
                                "linyi")
        desk.draw_next(t_store, None, "裁判长")
    page = client.get("/tournament/1").get_data(as_text=True)
    assert '<th class="c-group">组别</th>' in page and '<th class="c-upgrades">升级数</th>' in page


def test_the_public_page_is_made_once_per_change_and_shared(client, token, tournament):
    first, again = (client.get("/tournament/1").get_data(as_text=True) for _ in range(2))
    assert first == again and "data-csrf" not in first
    cache = client.application.extensions["guandan.tournament"]._cache
    assert set(cache) == {("body", "zh"), ("page", "zh")}  # the content (what the stream pushes) and the page
    made = cache[("page", "zh")]
    client.get("/tournament/1")
    assert cache[("page", "zh")] is made  # not made again
    assert cache[("body", "zh")][1] in first  # the page is the content, wrapped
    tb = draw_of(client)[0]
    client.post("/api/tournaments/1/results", json={"table": tb["table"], "forfeit": tb["ns"]},
                headers={"Authorization": f"Bearer {token}"})
    assert "已确认" in client.get("/tournament/1").get_data(as_text=True)  # a change: made again
    client.application.config["STORE"].add_table("1-2", header_json("1-2", "linquan"))
    assert 'href="/table/1-2?lang=zh"' in client.get("/tournament/1").get_data(as_text=True)  # a new hall table
    assert set(cache) == {("body", "zh"), ("page", "zh")}  # one copy of each, made again
    assert client.get("/tournament/1?lang=en").get_data(as_text=True) != first


def test_the_printable_sheets(client, tournament):
    sheet = client.get("/tournament/1/sheet/1").get_data(as_text=True)
    assert "积分记录表" in sheet and "第1队" in sheet
    assert client.get("/tournament/1/sheet/2").status_code == 404
    assert "成绩名次表" in client.get("/tournament/1/standings").get_data(as_text=True)


def test_a_recorded_result_is_provisional_until_a_referee_confirms_it(client, token, tournament):
    auth = {"Authorization": f"Bearer {token}"}
    text = record()
    r = client.post("/api/tournaments/1/results", json={"table": 1, "record": text, "source": "hall:1"}, headers=auth)
    assert r.status_code == 201 and r.get_json()["state"] == "provisional" and r.get_json()["entered_by"] == "li"
    entry = r.get_json()["entry"]
    again = client.post("/api/tournaments/1/results", json={"table": 1, "record": text}, headers=auth)
    assert again.status_code == 200 and again.get_json()["repeated"] and again.get_json()["entry"] == entry
    assert [t["state"] for t in draw_of(client)] == ["provisional", "playing"]
    assert "待确认" in client.get("/tournament/1").get_data(as_text=True)
    ns, ew = draw_of(client)[1]["ns"], draw_of(client)[1]["ew"]
    r = client.post("/api/tournaments/1/results", json={"table": 2, "pairs": [ns, ew], "levels": ["J", "5"]},
                    headers=auth)
    assert r.status_code == 201 and r.get_json()["state"] == "final"
    refused = client.post("/api/tournaments/1/draws", headers=auth)
    assert refused.status_code == 400 and "待确认" in refused.get_json()["error"] and \
        "provisional results at table(s) 1" in refused.get_json()["error"]
    r = client.post("/api/tournaments/1/results/1/confirm", json={"entry": entry}, headers=auth)
    assert r.status_code == 201 and r.get_json()["state"] == "final" and r.get_json()["confirmed_by"] == "li"
    standings = client.get("/api/tournaments/1/standings").get_json()
    assert standings["columns"][:3] == ["rank", "pair", "name"] and len(standings["rows"]) == 4
    drawn = client.post("/api/tournaments/1/draws", headers=auth)
    assert drawn.status_code == 201 and drawn.get_json()["round"] == 2
    assert [e["state"] for e in client.get("/api/tournaments/1/results").get_json()] == ["final", "final"]
    assert client.get("/api/tournaments/1").get_json()["draw"]["round"] == 2


@pytest.mark.parametrize("body, zh, en", [
    ({"table": 9, "pairs": ["p1", "p2"], "levels": ["J", "5"]}, "第1轮没有第9桌", "round 1 has no table 9"),
    ({"table": 1, "record": "not json"}, "记录无法复盘", "cannot be replayed"),
    ({"table": 1, "record": "x", "forfeit": "NS"}, "只能给一个", "exactly one of"),
    ({"table": "1", "forfeit": "NS"}, "整数", "whole number"),
    ({"table": 1, "round": 2, "forfeit": "NS"}, "第2轮尚未编排", "round 2 has not been drawn"),
    ({"table": 1, "pairs": ["p1", "p2"], "levels": ["8", "8"], "winner": ["p1"]}, "组合编号", "is a pair id"),
    # the engine's refusals, worded by the desk
    ({"table": 1, "pairs": ["p1", "p9"], "levels": ["J", "5"]}, "没有组合 p9", "unknown pair 'p9'"),
    ({"table": 1, "pairs": ["p1", "p3"], "levels": ["J", "1"]}, "不是级数：1", "not a level: '1'"),
    ({"table": 1, "pairs": ["p1", "p3"], "levels": ["A+", "过A"]}, "只能有一对组合过A", "only one pair can pass A"),
    ({"table": 1, "pairs": ["p1", "p2"], "levels": ["J", "5"]}, "组合 p2 不在第1轮第1桌", "pair 'p2' does not play"),
])
def test_bad_results_are_refused_in_both_languages_with_nothing_entered(client, token, tournament, body, zh, en):
    r = client.post("/api/tournaments/1/results", json=body, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 400, r.get_json()
    assert zh in r.get_json()["error"] and en in r.get_json()["error"]
    assert client.get("/api/tournaments/1/results").get_json() == []


def test_a_second_record_for_a_table_and_a_draw_with_results_missing(client, token, tournament):
    auth = {"Authorization": f"Bearer {token}"}
    assert client.post("/api/tournaments/1/results", json={"table": 1, "record": record()}, headers=auth).status_code \
        == 201
    r = client.post("/api/tournaments/1/results", json={"table": 1, "record": record(6)}, headers=auth)
    assert r.status_code == 400 and "已有成绩" in r.get_json()["error"]
    assert "has a result already" in r.get_json()["error"]
    r = client.post("/api/tournaments/1/draws", headers=auth)
    assert r.status_code == 400 and "还缺第2桌" in r.get_json()["error"]
    assert len(client.get("/api/tournaments/1/results").get_json()) == 1


def test_the_record_kept_with_a_result_is_its_evidence(client, token, tournament):
    auth = {"Authorization": f"Bearer {token}"}
    entry = client.post("/api/tournaments/1/results", json={"table": 1, "record": record()}, headers=auth).get_json()
    kept = client.get(f"/api/tournaments/1/results/{entry['entry']}/record")
    assert kept.status_code == 200 and kept.get_data(as_text=True) == record()
    typed = client.post("/api/tournaments/1/results", json={"table": 2, "forfeit": "NS"}, headers=auth).get_json()
    r = client.get(f"/api/tournaments/1/results/{typed['entry']}/record")
    assert r.status_code == 404 and "没有附带比赛记录" in r.get_json()["error"]


def test_writes_refuse_anonymous_requests_as_the_rest_of_the_api(client, tournament):
    for url in ("/api/tournaments/1/results", "/api/tournaments/1/results/1/confirm", "/api/tournaments/1/draws"):
        r = client.post(url, json={"table": 1, "forfeit": "NS"})
        assert r.status_code == 401 and "log in as a referee" in r.get_json()["error"], url
        r = client.post(url, json={}, headers={"Authorization": "Bearer forged"})
        assert r.status_code == 401 and r.get_json()["error"] == "令牌无效或已撤销 / unknown or revoked token"
    assert client.get("/api/tournaments/1/results").get_json() == []


def test_a_referee_confirms_from_the_page_with_the_session(client, token, tournament):
    auth = {"Authorization": f"Bearer {token}"}
    entry = client.post("/api/tournaments/1/results", json={"table": 1, "record": record()}, headers=auth).get_json()
    assert "t-confirm" not in client.get("/tournament/1").get_data(as_text=True)  # the public sees no button
    login(client)
    page = client.get("/tournament/1").get_data(as_text=True)
    csrf = re.search(r'data-csrf="([^"]+)"', page).group(1)
    assert f'data-entry="{entry["entry"]}"' in page
    assert "待确认 1 桌，未完赛 1 桌" in page and re.search(r'<button class="t-draw" disabled>编排第2轮', page)
    assert client.post("/api/tournaments/1/results/1/confirm", json={}).status_code == 401  # no CSRF header
    r = client.post("/api/tournaments/1/results/1/confirm", json={"entry": entry["entry"]},
                    headers={"X-CSRF-Token": csrf})
    assert r.status_code == 201 and r.get_json()["confirmed_by"] == "li"
    r = client.post("/api/tournaments/1/results/1/confirm?lang=en", json={}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 400 and r.get_json()["error"].startswith("round 1, table 1's result is final already")


def test_the_overlay_and_its_options(client, tournament):
    page = client.get("/overlay/tournament/1?top=4&seconds=5&lang=en")
    assert page.status_code == 200 and "tournamentOverlay(1, 4, 5.0)" in page.get_data(as_text=True)
    assert "X-Frame-Options" not in page.headers  # OBS embeds it
    for bad in ("top=0", "top=99", "seconds=1", "top=x"):
        r = client.get(f"/overlay/tournament/1?{bad}")
        assert r.status_code == 400 and "每页" in r.get_data(as_text=True), bad


def test_the_api_is_in_the_openapi_document(client):
    paths = client.get("/api/openapi.json").get_json()["paths"]
    assert paths["/api/tournaments/{tid}/results"]["post"]["security"] == [{"bearer": []}, {"session": []}]
    assert "security" not in paths["/api/tournaments/{tid}/standings"]["get"]
    assert "/api/tournaments/{tid}/results/{table}/confirm" in paths


def test_the_stream_tells_of_each_entry(client, token, tournament):
    response = client.get("/api/tournaments/1/stream")
    chunks = response.response
    first = next(chunks).decode()
    version = json.loads(first.split("data: ")[1])
    tb = draw_of(client)[0]
    client.post("/api/tournaments/1/results", json={"table": tb["table"], "forfeit": tb["ns"]},
                headers={"Authorization": f"Bearer {token}"})
    second = next(chunks).decode()
    assert second.startswith("event: version") and json.loads(second.split("data: ")[1]) != version
    response.close()


def _message(chunk: bytes) -> tuple[str, str | None, str]:
    """One SSE message as (event, id, data)."""
    fields = dict(line.split(": ", 1) for line in chunk.decode().strip().split("\n"))
    return fields["event"], fields.get("id"), fields["data"]


def test_the_stream_pushes_what_its_follower_asks_under_flasks_own_server(client, token, tournament):
    """Flask's route (``--debug``; web.streams serves it under waitress) pushes as web.streams
    does: the standings now and after each entry, as the API gives them; the page's content
    in the asked language once the page shows another version than its ``since``."""
    first, second = draw_of(client)[:2]
    overlay = client.get("/api/tournaments/1/stream?push=standings").response
    event, _, version = _message(next(overlay))
    assert event == "version"
    event, ident, data = _message(next(overlay))
    assert (event, ident) == ("standings", json.loads(version))
    assert json.loads(data) == client.get("/api/tournaments/1/standings").get_json()
    client.post("/api/tournaments/1/results", json={"table": first["table"], "forfeit": first["ns"]},
                headers={"Authorization": f"Bearer {token}"})
    event, ident, data = _message(next(overlay))
    assert event == "standings" and ident != json.loads(version)
    assert json.loads(data) == client.get("/api/tournaments/1/standings").get_json()
    overlay.close()  # one stream at a time: the test client runs them in this one thread
    page = client.get(f"/api/tournaments/1/stream?push=page&lang=en&since={ident}").response
    assert _message(next(page))[0] == "version"  # and no push: the page shows this version
    client.post("/api/tournaments/1/results", json={"table": second["table"], "forfeit": second["ns"]},
                headers={"Authorization": f"Bearer {token}"})
    event, ident, data = _message(next(page))
    assert event == "page" and f'data-version="{ident}"' in json.loads(data)
    assert json.loads(data) in client.get("/tournament/1?lang=en").get_data(as_text=True)
    assert '<span class="t-state">final</span>' in json.loads(data)  # in English
    page.close()


def test_the_tournament_on_a_postgresql_database(pg_url):
    """The hall's store and the tournament in one PostgreSQL database, as a hall server runs."""
    hall = Store(pg_url)
    hall.add_user("li", "s3cret-pass")
    token = hall.new_token("li")
    with TournamentStore.open(pg_url, create=True) as t_store:
        t_store.save_tournament(Tournament("公司杯", "swiss", 2, profiles.load("linquan"), 7,
                                           [Pair(f"p{i}", f"第{i}队") for i in range(1, 5)]), "linquan")
        desk.draw_next(t_store, None, "裁判长")
    app = create_app(hall, start_hub=False)
    client = app.test_client()
    assert "第1轮对阵" in client.get("/tournament/1").get_data(as_text=True)
    r = client.post("/api/tournaments/1/results", json={"table": 1, "record": record()},
                    headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 201 and r.get_json()["state"] == "provisional"
    assert [t["state"] for t in draw_of(client)] == ["provisional", "playing"]
    app.config["HUB"].stop()
    hall.close()


def pushed_page(app, lang: str = "zh") -> str:
    """The page's content as the live stream pushes it to a follower in ``lang``."""
    return json.loads(app.extensions["guandan.tournament"].pushed("page", lang))


def rows_of(html: str, section: str) -> list[str]:
    """The rows of one of the page's tables (``standings``, ``draw``, ``history``)."""
    part = html.split(f'id="{section}"', 1)[1].split("</section>", 1)[0]
    return re.findall(r"<tr[ >].*?</tr>", part.split("<tbody>", 1)[1], re.S)


def test_a_result_changes_the_pushed_pages_standings_and_its_tables_row(app, client, store, token, tournament):
    store.add_table("1", header_json("1", "linquan"))
    client.get("/tournament/1")  # opens the tournament, as a visitor's first load does
    before = pushed_page(app)
    ns, ew = draw_of(client)[0]["ns"], draw_of(client)[0]["ew"]
    r = client.post("/api/tournaments/1/results", json={"table": 1, "pairs": [ns, ew], "levels": ["A", "5"]},
                    headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 201
    after = pushed_page(app)
    row = next(r for r in rows_of(after, "draw") if 'data-table="1"' in r)
    assert 'class="state-final"' in row and '<a href="/table/1?lang=zh">1</a>' in row and "已确认" in row
    assert f'data-pair="{ns}"' in row and f'data-pair="{ew}"' in row and re.search(r"A : 5 · 积分 \d+ : \d+", row)
    assert rows_of(after, "draw")[1] == rows_of(before, "draw")[1]  # the other table's row as it was
    assert rows_of(after, "standings") != rows_of(before, "standings")
    assert f'data-pair="{ns}"' in rows_of(after, "standings")[0] and ">1<" in rows_of(after, "standings")[0]
    assert any(f'data-pair="{ns}"' in r and "对手 " + ew in r and "A : 5" in r for r in rows_of(after, "history"))
    assert after in client.get("/tournament/1").get_data(as_text=True)  # a fresh load shows what was pushed
    en = pushed_page(app, "en")
    assert "final" in next(r for r in rows_of(en, "draw") if 'data-table="1"' in r) and "Standings" in en


def test_the_pages_rows_escape_what_the_organiser_typed(app, client, store):
    pairs = [Pair("p1", "<b>甲&乙</b>"), Pair("p2", '"丙"'), Pair("p3", "丁"), Pair("p4", "戊")]
    with TournamentStore.open(store.path, create=True) as t_store:
        t_store.save_tournament(Tournament("<i>杯</i>", "swiss", 2, profiles.load("linquan"), 7, pairs), "linquan")
        desk.draw_next(t_store, None, "裁判长")
        desk.withdraw(t_store, "p3", "裁判长")
    page = client.get("/tournament/1").get_data(as_text=True)
    assert "<b>" not in page and "<i>" not in page and page.count("&lt;b&gt;甲&amp;乙&lt;/b&gt;") == 3
    assert page.count("&#34;丙&#34;") == 3  # the standings, the draw, the history
    assert page.count('<span class="tag t-withdrawn">退赛</span>') == 3
