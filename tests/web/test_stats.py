"""Statistics for commentators (web/stats.py, engine.stats, rulebook.stat_words): per table
and over every table, as JSON and as pages, every word in 中文 and English."""

from __future__ import annotations

import random
import re
from dataclasses import replace

from engine.bots import self_play
from engine.record import dumps, parse_lines, replay
from engine.stats import match_stats
from engine.tournament import Pair, Tournament
from rulebook import profiles
from rulebook.stat_words import PLAYER_FIGURES, STAT_WORDS, TABLE_FIGURES
from scorer.cli import DEMO_RECORD
from store import tournament_desk as desk
from store.event_store import Store
from store.tournament_store import TournamentStore
from tests.web.conftest import ARTIFACTS, header_json
from web import create_app

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


def named_match(seed: int, names: str) -> str:
    """A finished linquan bot match's record, its seats' players named ``names`` and the seat."""
    events = self_play(profiles.load("linquan"), random.Random(seed), max_hands=3)
    return dumps([replace(events[0], players={s: f"{names}{s}" for s in "ENWS"}), *events[1:]])


def hall_of(path, event: str, own: str, others: tuple[str, ...] = ()) -> Store:
    """A hall's database: a tournament ``event`` (four pairs, round 1 drawn) whose table 1
    was played as ``own`` and entered from its record, table 2's result typed by a referee;
    the hall's tables hold ``own`` (table 1) and ``others`` (tables 9, 10, …: other matches
    played in the same hall)."""
    store = Store(path)
    for table, text in (("1", own), *((str(9 + i), t) for i, t in enumerate(others))):
        record = parse_lines(text.splitlines())
        store.add_table(table, record.header.to_json())
        store.append(table, [e.to_json() for e in record.events[1:]])
    pairs = [Pair(f"p{i}", f"第{i}队", ("甲", "乙")) for i in range(1, 5)]
    with TournamentStore.open(store.path, create=True) as t_store:
        t_store.save_tournament(Tournament(event, "swiss", 2, profiles.load("linquan"), 7, pairs), "linquan")
        desk.draw_next(t_store, None, "裁判长")
        desk.enter_record(t_store, None, 1, own, "hall:1", "hall")
        two = desk.load(t_store).draws[1][1]
        desk.enter_levels(t_store, None, 2, two.ns, two.ew, "9", "A+", None, "李")
    return store


def test_a_tournaments_statistics_count_its_own_matches_only(tmp_path):
    """Two tournaments, each in its hall's real database; the first hall also played the
    second event's match (its table 9): each tournament's statistics count the matches
    entered as its results and nothing else, where the store's count every table."""
    spring, autumn = named_match(5, "春"), named_match(6, "秋")
    halls = {"春季赛": hall_of(tmp_path / "spring.db", "春季赛", spring, others=(autumn,)),
             "秋季赛": hall_of(tmp_path / "autumn.db", "秋季赛", autumn)}
    for event, names, text in (("春季赛", "春", spring), ("秋季赛", "秋", autumn)):
        app = create_app(halls[event], start_hub=False)
        try:
            client = app.test_client()
            data = client.get("/api/tournaments/1/stats").get_json()
            seats, table = match_stats(replay(parse_lines(text.splitlines()), profiles.load))
            assert data["tournament"] == 1 and data["name"] == event
            assert {row["player"] for row in data["players"]} == {f"{names}{s}" for s in "ENWS"}
            east = next(row for row in data["players"] if row["player"] == f"{names}E")
            assert east["tables"] == ["1-1"] and east["bombs"] == seats["E"].bombs
            assert [row["table"] for row in data["tables"]] == ["1-1"]
            assert data["total"]["matches"] == 1 and data["total"]["bombs"] == table.bombs
            assert data["without_record"] == 1  # table 2's typed result: no record to count
            other = "秋" if names == "春" else "春"
            every = {row["player"] for row in client.get("/api/stats").get_json()["players"]}
            assert ({f"{other}{s}" for s in "ENWS"} <= every) is (event == "春季赛")  # the hall's every table
            zh = client.get("/tournament/1/stats").get_data(as_text=True)
            en = client.get("/tournament/1/stats?lang=en").get_data(as_text=True)
            assert f"{event} 技术统计" in zh and f"{names}E" in zh and f"{other}E" not in zh
            assert f"{event}: statistics" in en and "Matches" in en and "match (round-table)" in en
            assert "另有 1 场成绩没有比赛记录" in zh and "1 more results have no game record" in en
            page = client.get("/tournament/1?lang=en").get_data(as_text=True)
            assert 'href="/tournament/1/stats?lang=en">Statistics</a>' in page  # the tournament page links to it
            assert client.get("/api/tournaments/2/stats").status_code == 404
        finally:
            app.config["HUB"].stop()


def test_the_page_on_a_phone(server, browser):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(server + "/stats/1")
    assert page.inner_text("#player-stats thead th:first-child") == "座位"
    assert page.inner_text("#player-stats tbody tr:first-child th") == "东 · Bot E"
    # the wide table scrolls in its own box; the page itself does not
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(ARTIFACTS / "stats-phone.png"), full_page=True)
    page.close()
