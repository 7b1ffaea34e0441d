"""benchmarks/stills.py: each play of a rendered game read from one still frame."""

import json

import pytest

from benchmarks.stills import still_plays
from scorer.live_table import table_detector
from vision.synth.render_game import render

pytestmark = pytest.mark.video


def test_each_play_is_read_from_the_still_frame_before_the_next_event(tmp_path):
    render(11, tmp_path, size=(1920, 1080), max_events=5)
    truth = [json.loads(line) for line in (tmp_path / "truth.jsonl").read_text(encoding="utf-8").splitlines()]
    plays = still_plays(tmp_path, table_detector())
    assert [p.seq for p in plays] == [e["seq"] for e in truth if e["type"] == "play"] and plays
    # our own renderer's generated deck at 1080p: the detector reads every play from its still zone
    assert all(not p.missing for p in plays), [(p.cards, p.read) for p in plays]
    assert all(set(p.cards) <= set(p.read) for p in plays)
