"""Evidence for the referee's console at a table with a clock: a play committed at a seat's
press keeps its frame, as one committed when it settles does, and the console's crop of
it is the seat's zone. (Before, a clock table — the demo's — kept no picture at all.)"""

import cv2
import numpy as np

from engine.events import Deal
from rulebook import profiles
from store.event_store import Store
from table.clock_turns import ClockTurns
from table.record_link import StoreLink
from table.runtime import TableRuntime
from tests.vision.conftest import detector  # noqa: F401 (the fixture)
from tests.web.test_referee_console import BOMB_AT_S, DEMO_VIDEO
from vision.live.calibration import zone_size
from vision.live.camera import Frame
from vision.live.grouping import Laid
from web import evidence


def test_a_play_committed_at_a_press_keeps_its_evidence_frame(tmp_path, detector):  # noqa: F811
    store = Store(tmp_path / "table.db")
    rt = TableRuntime(detector, profiles.load("linyi"), table="t1", link=StoreLink(store, "t1"), auto_commit=False)
    video = cv2.VideoCapture(DEMO_VIDEO)
    video.set(cv2.CAP_PROP_POS_FRAMES, int(BOMB_AT_S * video.get(cv2.CAP_PROP_FPS)))
    ok, image = video.read()
    assert ok
    rt.process(Frame(image, BOMB_AT_S, 1))
    rt.record(Deal, leader="E")
    tracker = rt.seats.zones["E"].tracker
    tracker.on_table.clear()
    tracker.stable = Laid(("S8", "H8", "C8", "D8"), (0.9, 0.9, 0.6, 0.9), (), ((), (), (("C6", 0.3),), ()))
    assert ClockTurns(rt).press("E", rt.record)
    play = store.body_at("t1", 2)
    assert (play["type"], play["cards"]) == ("play", ["S8", "H8", "C8", "D8"])
    assert play["choices"][2] == [["C8", 0.6], ["C6", 0.3]]
    jpeg = store.frame("t1", 2)
    assert jpeg is not None and jpeg.startswith(b"\xff\xd8")
    zone = cv2.imdecode(np.frombuffer(evidence.zone(jpeg), np.uint8), cv2.IMREAD_COLOR)
    assert zone.shape[:2] == zone_size()[::-1] and float(np.std(zone)) > 5  # the zone, not a blank
    assert ClockTurns(rt).press("N", rt.record)  # a pass: nothing to show
    assert store.body_at("t1", 3)["type"] == "pass" and store.frame("t1", 3) is None
