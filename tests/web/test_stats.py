"""Statistics for commentators (web/stats.py, engine.stats, rulebook.stat_words): per table
and over every table, as JSON and as pages, every word in 中文 and English."""

from __future__ import annotations

import re

from engine.record import parse_lines, replay
from engine.stats import match_stats
from rulebook import profiles
from rulebook.stat_words import PLAYER_FIGURES, STAT_WORDS, TABLE_FIGURES
from scorer.cli import DEMO_RECORD
from tests.web.conftest import ARTIFACTS, header_json

HAN = re.compile(r"[\u4e00-\u9fff]")


def demo_stats():
    return match_stats(replay(parse_lines(DEMO_RECORD.read_text(encoding="utf-8").splitlines()), profiles.load))


def test_a_tables_statistics_as_json(client):
    data = client.get("/api/tables/1/stats").get_json()
    seats, table = demo_stats()
    assert [row["seat"] for row in data["players"]] == ["E", "N", "W", "S"]
    east = data["players"][0]
    assert east["name"] == "Bot E" and east["seat_name"] == {"zh": "东", "en": "East"}
    assert {k: east[k] for k in seats["E"].to_json()} == seats["E"].to_json()
    assert east["first_out_rate"] == round(east["places"][0] / east["hands"], 3)
    assert data["table_stats"] == table.to_json() and data["table_stats"]["bombs"] == 13
    for key in PLAYER_FIGURES + TABLE_FIGURES:
        label = data["labels"][key]
        assert HAN.search(label["zh"]) and label["en"] and label["zh"] != label["en"]
    assert client.get("/api/tables/nope/stats").status_code == 404


def test_every_tables_statistics_and_each_players_over_them(client, store):
    record = parse_lines(DEMO_RECORD.read_text(encoding="utf-8").splitlines())
    store.add_table("2", record.header.to_json())
    store.append("2", [e.to_json() for e in record.events[1:]])
    store.add_table("3", header_json("3", "jiangsu"))  # nobody named: each seat is its own player
    store.append("3", [{"seq": 1, "t": 1, "type": "deal", "leader": "E"},
                       {"seq": 2, "t": 5, "type": "play", "seat": "E", "cards": ["S9", "H9", "C9", "D9"]}])
    data = client.get("/api/stats").get_json()
    seats, table = demo_stats()
    by_name = {row["player"]: row for row in data["players"]}
    assert by_name["Bot E"]["tables"] == ["1", "2"] and by_name["Bot E"]["matches"] == 2
    assert by_name["Bot E"]["bombs"] == 2 * seats["E"].bombs
    assert by_name["Bot E"]["think_longest"] == seats["E"].think_longest
    unnamed = [row for row in data["players"] if row["player"] is None]
    assert {row["label"]["zh"] for row in unnamed} == {"3桌东家", "3桌南家", "3桌西家", "3桌北家"}
    east3 = next(row for row in unnamed if row["label"]["en"] == "table 3, East")
    assert east3["bombs"] == 1 and east3["timed"] == 1 and east3["think_longest"] == 4.0
    assert [row["table"] for row in data["tables"]] == ["1", "2", "3"]
    assert data["total"]["bombs"] == 2 * table.bombs + 1 and data["total"]["matches"] == 3


def test_the_pages_in_each_language(client):
    zh = client.get("/stats/1").get_data(as_text=True)
    en = client.get("/stats/1?lang=en").get_data(as_text=True)
    for key in PLAYER_FIGURES + TABLE_FIGURES:
        word_zh, word_en = STAT_WORDS[key]
        assert f">{word_zh}</th>" in zh and f">{word_en}</th>" in en.replace("&#39;", "'")
    assert "牌桌 1 技术统计" in zh and "Table 1: statistics" in en
    assert "东 · Bot E" in zh and "East · Bot E" in en
    assert "上游率" in zh and "first-out rate (上游)" in en and "67%" in zh  # Bot E: 4 of 6 hands first out
    assert "用时：从轮到该家" in zh and "think time: from the seat's turn" in en.replace("&#39;", "'")
    every = client.get("/stats?lang=en").get_data(as_text=True)
    assert "Statistics of every table" in every and 'href="/stats/1?lang=en"' in every
    assert client.get("/stats/nope").status_code == 404


def test_the_page_on_a_phone(server, browser):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(server + "/stats/1")
    assert page.inner_text("#player-stats thead th:first-child") == "座位"
    assert page.inner_text("#player-stats tbody tr:first-child th") == "东 · Bot E"
    # the wide table scrolls in its own box; the page itself does not
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(ARTIFACTS / "stats-phone.png"), full_page=True)
    page.close()
