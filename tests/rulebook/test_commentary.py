"""A broadcast's words (rulebook.commentary): the ticker, the highlights' titles, the
chapters, in 中文 and English."""

from __future__ import annotations

import doctest
import re
from string import Formatter

import pytest

import rulebook.commentary
from engine.events import Deal, Pass, PlayCards
from engine.match import Match
from engine.record import parse_lines, replay
from rulebook import profiles
from rulebook.commentary import WORDS, bomb_cards, chapter_lines, chapters, ticker, timestamp
from scorer.cli import DEMO_RECORD


@pytest.fixture(scope="module")
def demo() -> Match:
    return replay(parse_lines(DEMO_RECORD.read_text(encoding="utf-8").splitlines()), profiles.load)


def test_the_examples_run():
    assert doctest.testmod(rulebook.commentary, report=False).failed == 0


@pytest.mark.parametrize("key", sorted(WORDS))
def test_each_line_has_both_languages_with_the_same_values(key):
    zh, en = WORDS[key]
    names = [{f for _, f, _, _ in Formatter().parse(text) if f} for text in (zh, en)]
    assert zh and en
    if key != "jiefeng":  # 西家接风 needs no partner named: the Chinese term says it
        assert names[0] == names[1]


def test_bombs_as_players_say_them():
    play = Match(profiles.load("jiangsu"))
    play.push(Deal(seq=1, t=0.0, leader="E"))
    entry = play.push(PlayCards(seq=2, t=1.0, seat="E", cards=("H2", "CA", "CA", "DA")))  # a wildcard for an A
    assert bomb_cards(entry.reading, "2") == "AAAA"
    play.push(Pass(seq=3, t=2.0, seat="N"))
    entry = play.push(PlayCards(seq=4, t=3.0, seat="W", cards=("ST", "ST", "HT", "CT", "DT")))
    assert bomb_cards(entry.reading, "2") == "10 10 10 10 10"
    entry = play.push(PlayCards(seq=5, t=4.0, seat="S", cards=("HT", "HJ", "HQ", "HK", "HA")))
    assert bomb_cards(entry.reading, "2") == "♥10JQKA"
    (zh, en) = (ticker(play)[-1].zh, ticker(play)[-1].en)
    assert zh == "南家打出同花顺 ♥10JQKA，压过西家5张炸弹"
    assert en == "South plays a straight flush ♥10JQKA over West's 5-card bomb"


def test_the_demo_ticker_in_both_languages(demo):
    lines = ticker(demo)
    kinds = {line.kind for line in lines}
    assert kinds >= {"deal", "bomb", "straight_flush", "report", "out", "jiefeng", "finish", "double_down",
                     "hand_end", "resist", "tribute", "give_back", "time_called", "result"}
    by_kind = {}
    for line in lines:
        by_kind.setdefault(line.kind, line)
    assert (by_kind["report"].zh, by_kind["report"].en) == ("北家报牌：剩 8 张", "North reports 8 left (报牌)")
    bomb = by_kind["bomb"]
    assert re.fullmatch(r"[东南西北]家打出\d+张炸弹 \S+，压过[东南西北]家\S+", lines[1].zh), lines[1].zh
    assert lines[1].en == "South bombs with 3333 (4-card bomb) over West's straight" and bomb.seq > 0
    assert by_kind["jiefeng"].zh.endswith("家接风")
    assert all(re.search(r"[\u4e00-\u9fff]", line.zh) for line in lines)
    assert [line.seq for line in lines] == sorted(line.seq for line in lines)
    assert lines[-1].kind == "result" and lines[-1].zh.startswith("比赛结束：胜方：东西方")


def test_the_demo_chapters(demo):
    for lang in ("zh", "en"):
        found = chapters(demo, lang)
        assert found[0][0] == 0.0 and len(found) >= 3
        times = [t for t, _ in found]
        assert all(b - a >= 10 for a, b in zip(times, times[1:], strict=False))
        lines = chapter_lines(demo, lang)
        assert lines[0].startswith("00:00 ")
        assert all(re.fullmatch(r"(\d+:)?\d\d:\d\d \S.*", line) for line in lines)
    zh = chapter_lines(demo, "zh")
    assert zh[0] == "00:00 第1把 · 打2" and "01:12 南家4张炸弹" in zh and "11:15 南家同花顺" in zh
    assert any("双下" in line for line in zh) and any("接风" in line for line in zh)
    assert chapter_lines(demo, "en")[0] == "00:00 Hand 1 · playing 2"


def test_chapters_from_a_later_start(demo):
    found = chapters(demo, "zh", start=600.0)
    assert found[0] == (0.0, "南家接风")  # the moment the video opens on
    assert found[1][1] == "第2把 · 打3，东西方抗贡" and 10 <= found[1][0] < 20


def test_timestamps():
    assert [timestamp(s) for s in (0, 59.9, 61, 3599, 3612.7)] == ["00:00", "00:59", "01:01", "59:59", "1:00:12"]
