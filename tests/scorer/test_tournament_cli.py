"""``guandan tournament`` as organisers run it: real subprocesses, real files (and a real
PostgreSQL database), both languages, the JSON shapes other programs read, and every
refusal as one line with exit status 2."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

# make check leaves these out: about 30 tests, each starting the tournament commands several times
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def guandan(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scorer.cli", *args], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)


def ok(*args: str) -> str:
    out = guandan(*args)
    assert out.returncode == 0, out.stderr
    return out.stdout


def as_json(*args: str):
    return json.loads(ok(*args, "--json"))


def write_pairs(path: Path, n: int) -> Path:
    lines = ["id,name,players"] + [f"p{i},第{i}队,选手{i}甲/选手{i}乙" for i in range(1, n + 1)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def swiss(tmp_path) -> Path:
    """A linquan Swiss event of 5 pairs, 3 rounds, round 1 drawn."""
    db = tmp_path / "event.db"
    ok("tournament", "new", "公司赛", "--pairs", str(write_pairs(tmp_path / "pairs.csv", 5)), "--format", "swiss",
       "--rounds", "3", "--profile", "linquan", "--seed", "42", "--db", str(db))
    ok("tournament", "draw", "--db", str(db))
    return db


def test_help_lists_the_actions():
    out = ok("tournament", "--help")
    for action in ("new", "draw", "result", "standings", "sheet"):
        assert action in out


def test_a_swiss_event_from_start_to_standings(tmp_path, db_target):
    db = db_target  # a SQLite file or a postgresql:// URL
    pairs = write_pairs(tmp_path / "pairs.csv", 5)
    created = as_json("tournament", "new", "公司赛", "--pairs", str(pairs), "--format", "swiss", "--rounds", "3",
                      "--profile", "linquan", "--seed", "42", "--db", db)
    assert created == {"name": "公司赛", "format": "swiss", "rounds": 3, "profile": "linquan", "seed": 42,
                       "pairs": ["p1", "p2", "p3", "p4", "p5"]}
    byes = []
    for r in (1, 2, 3):
        draw = as_json("tournament", "draw", "--db", db)
        games = [d for d in draw if d["table"] is not None]
        assert [set(d) for d in games] == [{"table", "ns", "ew"}] * 2
        assert [d["table"] for d in games] == [1, 2]
        (bye,) = [d for d in draw if d["table"] is None]
        assert set(bye) == {"table", "bye"}
        byes.append(bye["bye"])
        for d in games:
            entered = as_json("tournament", "result", str(d["table"]), d["ns"], d["ew"], "--levels", "J", "5",
                              "--db", db)
            assert entered["round"] == r and entered["winner"] == d["ns"] and entered["correction"] is False
            assert entered["scores"][d["ns"]]["small_points"] == 6  # J over 5
            assert entered["entered_by"] == "cli"
    assert len(set(byes)) == 3  # never a second bye while another pair has none

    standings = as_json("tournament", "standings", "--db", db)
    assert [s["rank"] for s in standings] == [1, 2, 3, 4, 5]
    assert list(standings[0]) == ["rank", "pair", "name", "played", "points", "small_points", "lot"]
    assert sum(s["points"] for s in standings) == 6 * 2 + 3 * 1  # six games won, three 1-point byes
    keys = [(-s["points"], -s["small_points"], s["lot"]) for s in standings]
    assert keys == sorted(keys)

    csv_path, html_path, sheet = tmp_path / "s.csv", tmp_path / "s.html", tmp_path / "sheet.html"
    ok("tournament", "standings", "--csv", str(csv_path), "--html", str(html_path), "--db", db)
    with csv_path.open(encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))
    assert [r["pair"] for r in rows] == [s["pair"] for s in standings]
    assert rows[0]["points"] == str(standings[0]["points"])
    page = html_path.read_text(encoding="utf-8")
    for term in ("名次", "积分", "小分", "Standings", "@media print", "size: A4"):
        assert term in page
    ok("tournament", "sheet", "--round", "2", "--html", str(sheet), "--db", db)
    page = sheet.read_text(encoding="utf-8")
    for term in ("积分记录表", "Score sheet", "轮空", "Bye", "第2轮", "Round 2", "小分", "@media print", "size: A4",
                 "选手1甲"):
        assert term in page


def test_readable_tables_in_chinese_then_english(swiss):
    zh = ok("tournament", "sheet", "--round", "1", "--html", str(swiss.parent / "x.html"), "--db", str(swiss))
    assert "第1轮对阵" in zh and "桌号" in zh and "轮空" in zh and "南北" in zh
    en = ok("tournament", "standings", "--lang", "en", "--db", str(swiss))
    assert "Standings" in en and "Rank" in en and "Small pts" in en
    zh = ok("tournament", "standings", "--db", str(swiss))
    assert "名次" in zh and "积分" in zh and "小分" in zh and "抽签" in zh


def test_a_correction_is_kept_and_counts(swiss):
    db = str(swiss)
    d = next(x for x in as_json("tournament", "sheet", "--round", "1", "--html", str(swiss.parent / "x.html"),
                                "--db", db) if x["table"] == 1)
    first = ok("tournament", "result", "1", d["ns"], d["ew"], "--levels", "J", "5", "--db", db)
    assert "第1轮第1桌" in first and "小分 6:0" in first
    again = as_json("tournament", "result", "1", d["ew"], d["ns"], "--levels", "A+", "7", "--by", "裁判长",
                    "--db", db)
    assert again["correction"] is True and again["winner"] == d["ew"] and again["entered_by"] == "裁判长"
    lines = {s["pair"]: s for s in as_json("tournament", "standings", "--db", db)}
    assert lines[d["ew"]]["small_points"] == 15 - 7 and lines[d["ns"]]["points"] == 0
    en = ok("tournament", "result", "1", "--forfeit", "NS", "--lang", "en", "--db", db)
    assert "forfeited" in en and "correction" in en


@pytest.mark.parametrize("args, message", [
    (["draw"], "round 1 still lacks results for table(s) 1, 2"),
    (["draw", "--round", "1"], "round 1 is already drawn"),
    (["result", "1", "zz", "p1", "--levels", "J", "5"], "unknown pair 'zz'"),
    (["result", "9", "p1", "p2", "--levels", "J", "5"], "round 1 has no table 9"),
    (["result", "1", "p1", "p2", "--levels", "J", "1"], "not a level"),
    (["result", "1", "p1", "--levels", "J", "5"], "needs the two pairs"),
    (["result", "1", "--levels", "J", "5", "--forfeit", "NS"], "exactly one of"),
    (["result", "1", "--forfeit", "NS", "--winner", "p1"], "--winner goes with --levels"),
    (["result", "1", "--record", "{tmp}/nowhere.jsonl"], "nowhere.jsonl: no such file"),
    (["result", "1", "p1", "p2", "--levels", "J", "5", "--round", "3"], "round 3 has not been drawn"),
    (["sheet", "--round", "2", "--html", "{tmp}/x.html"], "round 2 has not been drawn"),
    (["standings", "--html", "{tmp}/no/such/dir/x.html"], "No such file or directory"),
])
def test_refusals_are_one_line_and_status_2(swiss, args, message):
    out = guandan("tournament", *(a.replace("{tmp}", str(swiss.parent)) for a in args), "--db", str(swiss))
    assert out.returncode == 2, out.stdout
    assert message in out.stderr
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    if "No such file" not in message:  # the system's words for a file it cannot write
        zh, en = out.stderr.removeprefix("guandan: ").split(" / ", 1)
        assert any("\u4e00" <= c <= "\u9fff" for c in zh) and message in en  # Chinese first by default
        out = guandan("tournament", *(a.replace("{tmp}", str(swiss.parent)) for a in args), "--lang", "en",
                      "--db", str(swiss))
        assert out.stderr.removeprefix("guandan: ").split(" / ", 1)[1] == zh + "\n"


def test_a_pair_not_at_the_table(swiss):
    draw = as_json("tournament", "sheet", "--round", "1", "--html", str(swiss.parent / "x.html"), "--db", str(swiss))
    elsewhere = next(d for d in draw if d["table"] == 2)["ns"]
    one = next(d for d in draw if d["table"] == 1)["ns"]
    out = guandan("tournament", "result", "1", one, elsewhere, "--levels", "J", "5", "--db", str(swiss))
    assert out.returncode == 2 and f"pair '{elsewhere}' does not play at table 1 in round 1" in out.stderr


@pytest.mark.parametrize("content, extra, message", [
    ("p1,甲\np2,乙\n", [], "must be a header naming the columns id,name"),
    ("id,team\np1,甲\np2,乙\n", [], "must be a header naming the columns id,name"),
    ("id,name\np1,甲\np2,乙\np1,丙\n", [], "line 4: duplicate pair id 'p1'"),
    ("id,name\np1,甲\n,乙\n", [], "line 3: a pair without an id"),
    ("id,name\np1,甲\n", [], "at least 2 pairs"),
    ("id,name\np1,甲\np2,乙\n", ["--profile", "moon"], "no such profile"),
    (None, [], "no such file"),
])
def test_bad_pairs_files_and_settings(tmp_path, content, extra, message):
    pairs = tmp_path / "pairs.csv"
    if content is not None:
        pairs.write_text(content, encoding="utf-8")
    db = tmp_path / "x.db"
    out = guandan("tournament", "new", "x", "--pairs", str(pairs), "--format", "swiss", "--rounds", "2",
                  "--db", str(db), *extra)
    assert out.returncode == 2 and message in out.stderr and out.stderr.count("\n") == 1
    assert " / " in out.stderr  # both languages, a profile's own refusal too
    assert not db.exists()


def test_new_refuses_an_existing_file_and_a_swiss_without_rounds(swiss, tmp_path):
    pairs = write_pairs(tmp_path / "more.csv", 4)
    out = guandan("tournament", "new", "again", "--pairs", str(pairs), "--format", "swiss", "--rounds", "2",
                  "--db", str(swiss))
    assert out.returncode == 2 and "already holds a tournament" in out.stderr
    out = guandan("tournament", "new", "x", "--pairs", str(pairs), "--format", "swiss", "--db", str(tmp_path / "y.db"))
    assert out.returncode == 2 and "needs --rounds" in out.stderr


@pytest.mark.parametrize("args, zh, en", [
    (["new", "x", "--pairs", "{pairs}", "--format", "swiss", "--rounds", "2", "--profile", "moon",
      "--db", "{tmp}/new.db"],
     "moon：没有这个规则；内置规则为 jiangsu, ", "moon: no such profile; bundled profiles are jiangsu, "),
    (["new", "again", "--pairs", "{pairs}", "--format", "swiss", "--rounds", "2", "--db", "{db}"],
     "{db}：已存有一项比赛", "{db}: already holds a tournament"),
    (["draw", "--db", "{tmp}/missing.db"],
     "{tmp}/missing.db：没有这个比赛文件", "{tmp}/missing.db: no such tournament file"),
])
def test_profile_and_store_errors_in_chinese_then_english_with_lang(swiss, args, zh, en):
    """The organiser's mistakes the profile and the store refuse speak as the desk's do: one
    line, Chinese first, English first with ``--lang en``."""
    def filled(text: str) -> str:
        return text.format(pairs=swiss.parent / "pairs.csv", tmp=swiss.parent, db=swiss)

    out = guandan("tournament", *map(filled, args))
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    first, second = out.stderr.removeprefix("guandan: ").rstrip("\n").split(" / ")
    assert filled(zh) in first and filled(en) in second
    out = guandan("tournament", *map(filled, args), "--lang", "en")
    assert out.returncode == 2 and out.stderr.removeprefix("guandan: ").rstrip("\n") == f"{second} / {first}"
    assert not (swiss.parent / "new.db").exists() and not (swiss.parent / "missing.db").exists()


def test_every_action_needs_the_file(tmp_path):
    for args in (["draw"], ["standings"], ["result", "1", "a", "b", "--levels", "2", "3"],
                 ["sheet", "--round", "1", "--html", str(tmp_path / "x.html")]):
        out = guandan("tournament", *args, "--db", str(tmp_path / "missing.db"))
        assert out.returncode == 2 and "no such tournament file" in out.stderr and "Traceback" not in out.stderr
    assert not (tmp_path / "missing.db").exists()


def test_a_knockout_tie_needs_the_extra_hand(tmp_path):
    db = str(tmp_path / "ko.db")
    ok("tournament", "new", "淘汰赛", "--pairs", str(write_pairs(tmp_path / "p.csv", 3)), "--format", "knockout",
       "--profile", "jiangsu", "--db", db)
    draw = as_json("tournament", "draw", "--db", db)
    assert draw == [{"table": None, "bye": "p1"}, {"table": 1, "ns": "p2", "ew": "p3"}]
    out = guandan("tournament", "result", "1", "p2", "p3", "--levels", "8", "8", "--db", db)
    assert out.returncode == 2 and "must be decided" in out.stderr and "--winner" in out.stderr
    decided = as_json("tournament", "result", "1", "p2", "p3", "--levels", "8", "8", "--winner", "p3", "--db", db)
    assert decided["winner"] == "p3" and decided["reason"] == "extra_hand"
    assert as_json("tournament", "draw", "--db", db) == [{"table": 1, "ns": "p1", "ew": "p3"}]
    ok("tournament", "result", "1", "p1", "p3", "--levels", "A+", "Q", "--db", db)
    standings = as_json("tournament", "standings", "--db", db)
    assert [s["pair"] for s in standings] == ["p1", "p3", "p2"]
    assert [s["reached"] for s in standings] == [3, 2, 1]
    out = guandan("tournament", "draw", "--db", db)
    assert out.returncode == 2 and "all 2 rounds" in out.stderr


def test_round_robin_in_seeded_groups(tmp_path):
    db = str(tmp_path / "rr.db")
    created = as_json("tournament", "new", "临沂常规赛", "--pairs", str(write_pairs(tmp_path / "p.csv", 8)),
                      "--format", "roundrobin", "--groups", "2", "--seeding", "order", "--profile", "linyi",
                      "--db", db)
    assert created["groups"] == [["p1", "p4", "p5", "p8"], ["p2", "p3", "p6", "p7"]] and created["rounds"] == 3
    draw = as_json("tournament", "draw", "--db", db)
    assert [d["group"] for d in draw] == [1, 1, 2, 2] and [d["table"] for d in draw] == [1, 2, 3, 4]
    for d in draw:
        ok("tournament", "result", str(d["table"]), d["ns"], d["ew"], "--levels", "9", "4", "--db", db)
    standings = as_json("tournament", "standings", "--db", db)
    assert list(standings[0]) == ["group", "rank", "pair", "name", "played", "points", "wins", "upgrades",
                                  "level_points", "lot"]
    assert [(s["group"], s["rank"]) for s in standings] == [(g, r) for g in (1, 2) for r in (1, 2, 3, 4)]
    assert "第1组" in ok("tournament", "standings", "--db", db)


def test_a_result_from_a_table_record(tmp_path):
    record = tmp_path / "table1.jsonl"
    ok("selfplay", "--seed", "5", "--hands", "3", "--profile", "linquan", "--out", str(record))
    replayed = json.loads(ok("replay", "--json", str(record)))["result"]
    db = str(tmp_path / "t.db")
    ok("tournament", "new", "x", "--pairs", str(write_pairs(tmp_path / "p.csv", 2)), "--format", "swiss",
       "--rounds", "1", "--profile", "linquan", "--db", db)
    (table,) = as_json("tournament", "draw", "--db", db)
    entered = as_json("tournament", "result", "1", "--record", str(record), "--db", db)
    side_pair = {"NS": table["ns"], "EW": table["ew"]}
    assert entered["winner"] == side_pair.get(replayed["winner"])
    for side, pair in side_pair.items():
        assert entered["scores"][pair]["small_points"] == replayed["small_points"][side]
        assert entered["scores"][pair]["level_points"] == replayed["level_points"][side]
    other = tmp_path / "jiangsu.jsonl"
    ok("selfplay", "--seed", "5", "--hands", "1", "--profile", "jiangsu", "--out", str(other))
    out = guandan("tournament", "result", "1", "--record", str(other), "--db", db)
    assert out.returncode == 2 and "played under profile 'jiangsu'" in out.stderr
