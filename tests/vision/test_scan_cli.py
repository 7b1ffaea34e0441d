"""``guandan scan`` as a process: a rendered video in, a valid record out, clear errors."""

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from engine.record import parse_lines, replay
from rulebook import profiles
from vision.synth.render_game import render

# make check leaves these out: scan reads rendered videos
pytestmark = pytest.mark.video


def test_scan_reads_a_rendered_game_into_a_record_that_replays(tmp_path):
    render(11, tmp_path, size=(1280, 720), max_events=3)
    out = tmp_path / "scan.jsonl"
    done = subprocess.run([sys.executable, "-m", "scorer.cli", "scan", str(tmp_path / "game.mp4"), "--out", str(out),
                           "--trace", str(tmp_path / "trace")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "条记录" in done.stdout  # Chinese by default
    # the zones' trace: every play recorded is in it, with the zone's picture as read
    traced = [json.loads(line) for line in (tmp_path / "trace" / "trace.jsonl").read_text("utf-8").splitlines()]
    recorded = [line for line in traced if line.get("decision") == "recorded"]
    assert recorded and all((tmp_path / "trace" / line["picture"]).exists() for line in traced if "picture" in line)
    assert "出牌区记录" in (tmp_path / "trace" / "trace.zh.html").read_text(encoding="utf-8")
    assert "zone trace" in (tmp_path / "trace" / "trace.en.html").read_text(encoding="utf-8")
    lines = out.read_text(encoding="utf-8").splitlines()
    record = parse_lines(lines)
    assert record.header.table == "game"
    match = replay(record, profiles.load)  # whatever the detector read, the record is well formed
    plays = [json.loads(line) for line in lines if '"type": "play"' in line]
    assert plays and all({"seat", "cards", "t"} <= set(p) for p in plays)
    assert [(p["seq"], p["cards"]) for p in plays] == [(line["seq"], line["cards"]) for line in recorded]
    # each violation line is one the engine finds on replay, right after the event it is about
    written = [json.loads(line) for line in lines if '"type": "violation"' in line]
    assert [(v["code"], v["seat"], v["seq"]) for v in written] == [(v.code, v.seat, v.seq) for v in match.violations]
    # the full-precision reader on request; a reader that is not there said in one line
    plain = subprocess.run([sys.executable, "-m", "scorer.cli", "scan", str(tmp_path / "game.mp4"), "--out",
                            str(tmp_path / "plain.jsonl"), "--reader", "models/reader.onnx", "--lang", "en"],
                           capture_output=True, text=True, timeout=300, cwd=Path(__file__).parents[2])
    assert plain.returncode == 0, plain.stderr
    assert [p["cards"] for p in map(json.loads, (tmp_path / "plain.jsonl").read_text(encoding="utf-8").splitlines())
            if p["type"] == "play"]
    missing = subprocess.run([sys.executable, "-m", "scorer.cli", "scan", str(tmp_path / "game.mp4"), "--out",
                              str(tmp_path / "x.jsonl"), "--reader", str(tmp_path / "none.onnx")],
                             capture_output=True, text=True, timeout=300)
    assert missing.returncode == 2 and "no such reader model" in missing.stderr and "Traceback" not in missing.stderr


def test_scan_of_a_missing_video_is_one_clear_line(tmp_path):
    done = subprocess.run([sys.executable, "-m", "scorer.cli", "scan", str(tmp_path / "none.mp4"), "--out",
                           str(tmp_path / "x.jsonl")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "cannot open this video" in done.stderr and "Traceback" not in done.stderr


def test_scan_takes_the_level_of_a_match_filmed_from_midway_and_refuses_a_bad_one(tmp_path):
    done = subprocess.run([sys.executable, "-m", "scorer.cli", "scan", str(tmp_path / "none.mp4"), "--out",
                           str(tmp_path / "x.jsonl"), "--level", "Z"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "not a level: 'Z'" in done.stderr and "Traceback" not in done.stderr


def test_a_violation_a_correction_withdraws_is_not_left_in_the_scan_record(tmp_path):
    """The camera corrects an earlier misread pair (table.recount): the duplicate card the
    engine saw meanwhile no longer holds, so the finished record does not claim it."""
    from engine.match import Match
    from scorer.table_cli import ScanWriter

    lines = ['{"seq":0,"t":0,"type":"header","format":"guandan-record/1","profile":"linyi"}',
             '{"seq":1,"t":1,"type":"deal","leader":"E"}',
             '{"seq":2,"t":2,"type":"play","seat":"E","cards":["S8","S8"]}',
             '{"seq":3,"t":3,"type":"play","seat":"N","cards":["SJ","SJ"]}',
             '{"seq":4,"t":4,"type":"pass","seat":"W"}',
             '{"seq":5,"t":5,"type":"pass","seat":"S"}',
             '{"seq":6,"t":6,"type":"pass","seat":"E"}',
             '{"seq":7,"t":7,"type":"play","seat":"N","cards":["S8"]}',
             '{"seq":8,"t":8,"type":"correction","target":2,"cards":["C8","C8"],"by":"camera","why":"recount"}']
    events = parse_lines(lines).events
    out = tmp_path / "scan.jsonl"
    match = Match(profiles.load("linyi"), events[0])
    with out.open("w", encoding="utf-8") as f:
        writer = ScanWriter(f)
        writer.append(events[0])
        writer.runtime = SimpleNamespace(match=match)  # the runtime, as far as the writer looks at it
        for event in events[1:]:
            match.push(event)
            writer.append(event)
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [v["code"] for v in written if v["type"] == "violation"] == ["duplicate_card"]  # as it was seen
    assert writer.stale()
    writer.rewrite(out, events)
    final = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [e for e in final if e["type"] == "violation"] == []
    assert [e["seq"] for e in final] == list(range(9)) and not list(tmp_path.glob("*.part"))
