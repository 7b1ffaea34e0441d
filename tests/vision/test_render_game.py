"""The game renderer: a real video, its truth, and frames the calibration can read."""

import cv2

from engine.record import parse_lines, replay
from scorer import profiles
from vision.calibration import Calibration, rectify_zone
from vision.render_game import render


def test_a_short_clip_has_its_truth_and_a_readable_table(tmp_path):
    meta = render(5, tmp_path, size=(1280, 720), max_events=5)
    assert meta["fps"] == 30
    truth = parse_lines((tmp_path / "truth.jsonl").read_text(encoding="utf-8").splitlines())
    match = replay(truth, profiles.load)
    assert match.violations == [] and len(truth.events) == meta["events"] == 6
    first_play = next(e for e in truth.events if e.type == "play")
    video = cv2.VideoCapture(str(tmp_path / "game.mp4"))
    assert int(video.get(cv2.CAP_PROP_FRAME_COUNT)) == meta["frames"]
    assert (video.get(cv2.CAP_PROP_FRAME_WIDTH), video.get(cv2.CAP_PROP_FRAME_HEIGHT)) == (1280, 720)
    frame_at = int((first_play.t + 0.3) * meta["fps"])
    for _ in range(frame_at + 1):
        ok, frame = video.read()
    assert ok
    calibration = Calibration.from_image(frame)
    assert calibration.markers == (0, 1, 2, 3)
    zone = rectify_zone(frame, calibration, first_play.seat)
    others = [rectify_zone(frame, calibration, s) for s in "ESWN" if s != first_play.seat]
    bright = lambda z: float((cv2.cvtColor(z, cv2.COLOR_BGR2GRAY) > 170).mean())  # noqa: E731  white card paper
    assert bright(zone) > 0.05 and all(bright(z) < 0.01 for z in others)
