"""``guandan tournament result --record``, ``confirm`` and ``withdraw`` as a director runs them:
a result read from a table's record is provisional (待确认) until confirmed, the next round is
drawn only once every result is final, a withdrawn pair forfeits; each refusal one line in both
languages, the asker's first, with exit status 2."""

from __future__ import annotations

import pytest

from tests.scorer.test_tournament_cli import as_json, guandan, ok, write_pairs


@pytest.mark.slow
def test_a_recorded_result_is_confirmed_before_the_next_draw(tmp_path):
    record = tmp_path / "table1.jsonl"
    ok("selfplay", "--seed", "5", "--hands", "3", "--profile", "linquan", "--out", str(record))
    db = str(tmp_path / "t.db")
    ok("tournament", "new", "x", "--pairs", str(write_pairs(tmp_path / "p.csv", 2)), "--format", "swiss",
       "--rounds", "2", "--profile", "linquan", "--db", db)
    ok("tournament", "draw", "--db", db)
    zh = ok("tournament", "result", "1", "--record", str(record), "--db", db)
    assert "第1轮第1桌" in zh and "待裁判确认" in zh
    again = as_json("tournament", "result", "1", "--record", str(record), "--db", db)
    assert again["repeated"] is True and again["state"] == "provisional" and again["entry"] == 1
    out = guandan("tournament", "draw", "--db", db)
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert out.stderr.startswith("guandan: 第1轮第1桌的成绩待确认")
    assert "provisional results at table(s) 1" in out.stderr
    out = guandan("tournament", "draw", "--lang", "en", "--db", db)
    assert out.stderr.startswith("guandan: round 1 has provisional results") and "待确认" in out.stderr
    assert "result confirmed" in ok("tournament", "confirm", "1", "--by", "李", "--lang", "en", "--db", db)
    out = guandan("tournament", "confirm", "1", "--db", db)
    assert out.returncode == 2 and "已是最终成绩" in out.stderr and "final already" in out.stderr
    assert len(as_json("tournament", "draw", "--db", db)) == 1


@pytest.mark.slow
def test_a_pair_withdraws_and_forfeits(tmp_path):
    db = str(tmp_path / "t.db")
    ok("tournament", "new", "x", "--pairs", str(write_pairs(tmp_path / "p.csv", 4)), "--format", "swiss",
       "--rounds", "2", "--profile", "linquan", "--seed", "1", "--db", db)
    draw = as_json("tournament", "draw", "--db", db)
    gone = draw[0]["ns"]
    out = ok("tournament", "withdraw", gone, "--db", db)
    assert f"组合 {gone} 自第1轮起退赛" in out and "按 " in out
    out = guandan("tournament", "withdraw", gone, "--lang", "en", "--db", db)
    assert out.returncode == 2 and out.stderr.startswith(f"guandan: pair '{gone}' withdrew in round 1 already")
    other = draw[1]
    ok("tournament", "result", str(other["table"]), other["ns"], other["ew"], "--levels", "J", "5", "--db", db)
    out = ok("tournament", "draw", "--lang", "en", "--db", db)
    assert f"{gone} forfeits" in out
    standings = {s["pair"]: s for s in as_json("tournament", "standings", "--db", db)}
    assert standings[gone]["played"] == 2 and standings[gone]["points"] == 0


def test_help_lists_confirm_and_withdraw():
    out = ok("tournament", "--help")
    assert "confirm" in out and "withdraw" in out
    assert "provisional" in ok("tournament", "result", "--help")
