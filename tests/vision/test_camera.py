"""Camera sources on real video files: order, timestamps, stale frames dropped, reconnects."""

import time

import cv2
import numpy as np
import pytest

from vision.live.camera import LiveCamera, VideoFile


def write_video(path, frames=30, fps=30.0, size=(160, 120)):
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, size)
    for i in range(frames):
        image = np.full((size[1], size[0], 3), (i * 8) % 256, np.uint8)
        cv2.putText(image, str(i), (10, 60), cv2.FONT_HERSHEY_SIMPLEX, 1.5, (0, 0, 255), 3)
        writer.write(image)
    writer.release()


def test_a_video_file_is_read_in_order_with_its_timestamps(tmp_path):
    path = tmp_path / "clip.avi"
    write_video(path, frames=12, fps=24.0)
    video = VideoFile(str(path))
    frames = []
    while (f := video.read()) is not None:
        frames.append(f)
    video.close()
    assert [f.number for f in frames] == list(range(12))
    assert frames[6].t == pytest.approx(0.25)


def test_a_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(OSError, match="cannot open this video"):
        VideoFile(str(tmp_path / "nope.avi"))


def test_a_live_source_hands_out_only_the_newest_frame_and_reconnects(tmp_path):
    path = tmp_path / "loop.avi"
    write_video(path, frames=40)
    events = []
    camera = LiveCamera(str(path), on_status=lambda up, why: events.append((up, why))).start()
    try:
        first = camera.latest(timeout=5)
        assert first is not None
        time.sleep(0.3)  # the file plays out faster than we ask: older frames are dropped
        newest = camera.latest(timeout=5)
        assert newest.number > first.number
        deadline = time.monotonic() + 10
        while camera.reconnects == 0 and time.monotonic() < deadline:  # end of file: the source "dropped"
            time.sleep(0.05)
        assert camera.reconnects >= 1 and camera.dropped > 0
        assert (False, "camera_stopped") in events and events[0][0] is True
    finally:
        camera.stop()


def test_a_camera_that_never_opens_is_reported_down(tmp_path):
    events = []
    camera = LiveCamera(str(tmp_path / "absent.avi"), on_status=lambda up, why: events.append((up, why))).start()
    try:
        assert camera.latest(timeout=0.5) is None
    finally:
        camera.stop()
    assert camera.up is False and events[0] == (False, "camera_cannot_open")


def test_a_recording_standing_in_for_a_camera_plays_in_real_time_and_ends(tmp_path):
    path = tmp_path / "clip.avi"
    write_video(path, frames=24, fps=24.0)  # one second
    events = []
    started = time.monotonic()
    camera = LiveCamera(str(path), on_status=lambda up, why: events.append((up, why)), paced=True).start()
    try:
        frames = []
        while (frame := camera.latest(timeout=2)) is not None:
            frames.append(frame)
        took = time.monotonic() - started
    finally:
        camera.stop()
    assert camera.ended and events[-1] == (False, "recording_ended") and camera.reconnects == 0
    assert took >= 0.9  # not faster than filmed
    assert frames[-1].number == 23 and frames[-1].t == pytest.approx(23 / 24)
    assert len(frames) >= 6  # a loop that keeps up sees many of them
