"""``guandan scan`` as a process: a rendered video in, a valid record out, clear errors."""

import subprocess
import sys

from engine.record import parse_lines, replay
from scorer import profiles
from vision.render_game import render


def test_scan_reads_a_rendered_game_into_a_record_that_replays(tmp_path):
    render(11, tmp_path, size=(1280, 720), max_events=3)
    out = tmp_path / "scan.jsonl"
    done = subprocess.run([sys.executable, "-m", "scorer.cli", "scan", str(tmp_path / "game.mp4"), "--out", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "events" in done.stdout
    record = parse_lines(out.read_text(encoding="utf-8").splitlines())
    assert record.header.table == "game"
    replay(record, profiles.load)  # whatever the detector read, the record is well formed


def test_scan_of_a_missing_video_is_one_clear_line(tmp_path):
    done = subprocess.run([sys.executable, "-m", "scorer.cli", "scan", str(tmp_path / "none.mp4"), "--out",
                           str(tmp_path / "x.jsonl")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "cannot open this video" in done.stderr and "Traceback" not in done.stderr
