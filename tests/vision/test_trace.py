"""The zone trace (vision.live.trace): a zone's states and the table's decisions, as the live
loop goes through a play, a hand resting over it, a card knocked askew and the trick cleared."""

import json

import pytest

from rulebook import profiles
from table.runtime import TableRuntime
from vision.live.camera import Frame
from vision.live.trace import ZoneTrace


@pytest.mark.video
def test_the_trace_says_what_each_zone_was_in_and_why_a_play_was_recorded_or_not(detector, tmp_path):
    from vision.synth.render_game import Renderer, TableState

    renderer = Renderer(5, (1920, 1080))
    rt = TableRuntime(detector, profiles.load("jiangsu"))
    rt.seats.trace = trace = ZoneTrace(tmp_path, source="test")
    clock = {"t": 0.0, "n": 0}

    def show(state: TableState, seconds: float) -> None:
        image = renderer.camera(renderer.view(renderer.table(state)))
        for _ in range(int(seconds * 10)):
            rt.process(Frame(image, clock["t"], clock["n"]))
            clock["t"] += 0.1
            clock["n"] += 1

    row = ["S5", "H9", "CK"]
    rows = {"S": row, "E": [], "W": [], "N": []}
    show(TableState(), 1.0)
    show(TableState(rows=rows, hand=("S", 1.0)), 0.3)
    show(TableState(rows=rows), 1.5)
    show(TableState(rows=rows, hand=("S", 1.0)), 1.0)  # a hand resting over the cards
    show(TableState(rows=rows, knocked={"S": (1, 0.9, 0.6)}), 1.5)  # one knocked askew: the same cards
    show(TableState(), 1.5)
    trace.close()
    lines = [json.loads(line) for line in (tmp_path / "trace.jsonl").read_text(encoding="utf-8").splitlines()]
    assert "camera" in lines[0] and lines[0]["camera"]["mode"] in ("off", "trial")  # measured at calibration
    south = [line for line in lines if line.get("seat") == "S"]
    said = [line.get("decision") or line["state"] for line in south]
    play = next(e for e in rt.events if e.type == "play")
    assert said[:2] == ["moving", "empty"] and "covered" in said  # the first frame: nothing to compare with
    assert [line for line in south if line.get("decision") == "recorded"] == [
        {"t": play.t, "frame": next(line["frame"] for line in south if line.get("decision") == "recorded"),
         "seat": "S", "decision": "recorded", "seq": play.seq, "cards": list(play.cards)}]
    decisions = [line["decision"] for line in south if "decision" in line]
    assert decisions.index("recorded") < decisions.index("cleared") and decisions[-1] == "cleared"
    assert all(line["cards"] == row for line in south if line.get("state") == "cards")
    pictures = [line["picture"] for line in south if "picture" in line]
    assert pictures and all((tmp_path / p).stat().st_size > 1000 for p in pictures)
    zh, en = ((tmp_path / f"trace.{lang}.html").read_text(encoding="utf-8") for lang in ("zh", "en"))
    assert "摄像头（从标记测得）" in zh and "the camera (measured on the markers)" in en
    assert "南 (S)" in zh and "被遮住" in zh and "出牌区已清空" in zh and "记录为出牌" in zh
    assert "South (S)" in en and "covered" in en and "recorded as a play" in en
