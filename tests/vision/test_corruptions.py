"""The corruption suite (vision/corruptions): each corruption on a real frame of a table with
its four markers, drawn here with cv2.aruco, and on short real video files."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.corruptions import CORRUPTIONS, SEVERITIES, Clip, corrupt_video
from vision.corruptions.codec import h264, write_h264
from vision.corruptions.frames import drop_every, kept
from vision.corruptions.hand import hand_visit, hand_visits
from vision.corruptions.light import shadow_crossing
from vision.corruptions.optics import bump_at, bump_shift, drift_shift
from vision.live.calibration import (
    DICTIONARY,
    MARKER_CM,
    MARKERS,
    Calibration,
    seat_of,
)

SIZE = (1280, 720)
CANVAS_CM, PX_PER_CM = 100.0, 8.0
CLIP = Clip(fps=30.0, duration=20.0)
PIXELS = [name for name, c in CORRUPTIONS.items() if c.kind == "pixels"]


def canvas_px(x_cm: float, y_cm: float) -> tuple[int, int]:
    """Table cm → the flat canvas's pixel (North up)."""
    return int(round((x_cm + CANVAS_CM / 2) * PX_PER_CM)), int(round((CANVAS_CM / 2 - y_cm) * PX_PER_CM))


def draw_table() -> np.ndarray:
    """A 1280×720 frame of a felt table seen a little from the South: the four markers where
    DESIGN §5 lays them, and a few cards in every zone."""
    rng = np.random.default_rng(7)
    side = int(CANVAS_CM * PX_PER_CM)
    felt = np.empty((side, side, 3), np.float32)
    felt[:] = (40, 120, 45)
    felt += cv2.GaussianBlur(rng.normal(0, 12, (side, side, 3)).astype(np.float32), (0, 0), 1.2)
    canvas = np.clip(felt, 0, 255).astype(np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    marker_px = int(MARKER_CM * PX_PER_CM)
    for marker_id, (cx, cy) in MARKERS.items():
        x0, y0 = canvas_px(cx - MARKER_CM / 2 - 1, cy + MARKER_CM / 2 + 1)
        canvas[y0:y0 + marker_px + 16, x0:x0 + marker_px + 16] = 255
        tile = cv2.aruco.generateImageMarker(dictionary, marker_id, marker_px)
        canvas[y0 + 8:y0 + 8 + marker_px, x0 + 8:x0 + 8 + marker_px] = tile[..., None]
    for k, (x, y) in enumerate([(-8, -24), (0, -24), (8, -24), (-4, 24), (4, 24), (24, -4), (24, 4), (-24, 0)]):
        (x0, y0), (x1, y1) = canvas_px(x - 3, y + 4.5), canvas_px(x + 3, y - 4.5)
        cv2.rectangle(canvas, (x0, y0), (x1, y1), (235, 235, 235), -1)
        cv2.putText(canvas, "AKQJ"[k % 4], (x0 + 4, y0 + 22), cv2.FONT_HERSHEY_SIMPLEX, 0.8,
                    (20, 20, 200) if k % 2 else (20, 20, 20), 2, cv2.LINE_AA)
    quad = np.float32([[330, 40], [950, 40], [1080, 700], [200, 700]])  # seen from above the South edge
    warp = cv2.getPerspectiveTransform(np.float32([[0, 0], [side, 0], [side, side], [0, side]]), quad)
    return cv2.warpPerspective(canvas, warp, SIZE, borderValue=(30, 30, 30))


@pytest.fixture(scope="module")
def table() -> np.ndarray:
    return draw_table()


@pytest.fixture(scope="module")
def clip(table) -> Clip:
    calibration = Calibration.from_image(table)
    assert calibration.markers == (0, 1, 2, 3)
    return Clip(CLIP.fps, CLIP.duration, calibration)


def moment(name: str, seed: int) -> float:
    """A time at which corruption ``name`` (seed ``seed``) is under way in a 20 s clip."""
    if name == "shadow":
        for t in np.arange(0.0, CLIP.duration, 0.05):
            if (crossing := shadow_crossing(float(t), seed)) is not None:
                return crossing[0] + crossing[1] / 2
    if name == "hand":
        rest = hand_visits(CLIP.duration, 1, seed)[0].resting
        return (rest[0] + rest[1]) / 2
    return CLIP.duration - 1.0  # past the bump, most of the drift, exposure's second level


def corrupt(name: str, frame: np.ndarray, severity: int, seed: int, clip: Clip, t: float | None = None):
    t = moment(name, seed) if t is None else t
    return CORRUPTIONS[name].frame(frame, t, int(t * clip.fps), severity, seed, clip)


def mad(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a.astype(np.float32) - b.astype(np.float32)).mean())


@pytest.mark.parametrize("name", PIXELS)
def test_a_corruption_changes_the_frame_the_same_way_for_a_seed(table, clip, name):
    before = table.copy()
    once, again = corrupt(name, table, 2, 3, clip), corrupt(name, table, 2, 3, clip)
    assert np.array_equal(table, before)  # the frame given is left alone
    assert once.shape == table.shape and once.dtype == np.uint8
    assert mad(once, table) > 0.2
    assert np.array_equal(once, again)


@pytest.mark.parametrize("name", [n for n in PIXELS if n != "hand"])  # the hand: how long, not how much
def test_severity_three_changes_the_frame_more_than_severity_one(table, clip, name):
    t = moment(name, 5)
    changes = [mad(corrupt(name, table, severity, 5, clip, t), table) for severity in SEVERITIES]
    assert changes[0] < changes[1] < changes[2], changes


def test_the_hand_rests_longer_at_a_higher_severity():
    rests = [[v.resting[1] - v.resting[0] for v in hand_visits(60.0, severity, 11)] for severity in SEVERITIES]
    assert [round(r[0], 6) for r in rests] == [1.0, 2.0, 3.0]
    assert [len(r) for r in rests] == [4, 4, 4]  # four times a minute, at the same moments
    assert len({v.start for s in SEVERITIES for v in hand_visits(60.0, s, 11)}) == 4


def seed_for(seat: str) -> int:
    return next(s for s in range(200) if hand_visits(CLIP.duration, 1, s)[0].seat == seat)


@pytest.mark.parametrize("seat", "SENW")
def test_the_hand_lands_over_the_seats_zone(table, clip, seat):
    seed = seed_for(seat)
    visit = hand_visits(CLIP.duration, 1, seed)[0]
    t = moment("hand", seed)
    assert hand_visit(t, 1, seed) == visit
    out = corrupt("hand", table, 1, seed, clip, t)
    changed = np.argwhere(np.abs(out.astype(int) - table).sum(axis=2) > 60)[:, ::-1].astype(float)
    where = clip.calibration.to_table(changed)
    u, v = np.round(clip.calibration.to_image(np.array([visit.centre_cm]))[0]).astype(int)
    assert np.abs(out[v, u].astype(int) - table[v, u]).sum() > 60  # the palm's middle is where it says
    in_zones = [seat_of(tuple(p)) for p in where]
    in_zones = [z for z in in_zones if z is not None]
    assert in_zones.count(seat) / len(in_zones) > 0.9  # what it covers of the zones is the seat's
    # without the calibration the markers in the frame give the same hand
    assert np.array_equal(out, corrupt("hand", table, 1, seed, Clip(clip.fps, clip.duration), t))
    # and the hand is gone when it is not visiting
    assert np.array_equal(corrupt("hand", table, 1, seed, clip, visit.end + 0.05), table)


@pytest.mark.parametrize("severity", SEVERITIES)
def test_the_bump_moves_the_picture_by_the_pixels_it_says(table, clip, severity):
    seed = 2
    when, _ = bump_at(seed, clip)
    assert 0.3 * clip.duration <= when <= 0.6 * clip.duration
    assert np.array_equal(corrupt("bump", table, severity, seed, clip, when - 0.1), table)
    after = corrupt("bump", table, severity, seed, clip, when + 0.1)
    assert np.array_equal(after, corrupt("bump", table, severity, seed, clip, clip.duration))  # and stays
    gray = [cv2.cvtColor(f, cv2.COLOR_BGR2GRAY).astype(np.float32) for f in (table, after)]
    window = cv2.createHanningWindow(gray[0].shape[::-1], cv2.CV_32F)
    (dx, dy), _ = cv2.phaseCorrelate(gray[0], gray[1], window)
    want = bump_shift(clip.duration, severity, seed, clip, SIZE[1] / 1080)
    assert math.hypot(dx - want[0], dy - want[1]) < 0.3
    assert math.hypot(*want) == pytest.approx((2.0, 3.5, 5.0)[severity - 1] * SIZE[1] / 1080)


def test_the_drift_grows_evenly_to_its_end(clip):
    ends = [math.hypot(*drift_shift(clip.duration, s, 4, clip)) for s in SEVERITIES]
    assert ends == pytest.approx([0.7, 2.0, 4.0])
    assert math.hypot(*drift_shift(clip.duration / 2, 3, 4, clip)) == pytest.approx(2.0)
    assert drift_shift(0.0, 3, 4, clip) == (0.0, 0.0)


def test_a_severity_is_one_two_or_three(table, clip):
    with pytest.raises(ValueError):
        corrupt("noise", table, 4, 0, clip)


def test_seeds_differ(table, clip):
    assert not np.array_equal(corrupt("noise", table, 1, 0, clip, 1.0), corrupt("noise", table, 1, 1, clip, 1.0))
    assert not np.array_equal(corrupt("noise", table, 1, 0, clip, 1.0),
                              CORRUPTIONS["noise"].frame(table, 1.0 + 1 / 30, 31, 1, 0, clip))  # each frame its own


def test_the_drop_keeps_every_third_fourth_or_sixth_frame_of_30_fps():
    assert [drop_every(30.0, s) for s in SEVERITIES] == [3, 4, 6]
    assert [n for n in range(13) if kept(n, 30.0, 3)] == [0, 6, 12]
    assert [drop_every(25.0, s) for s in SEVERITIES] == [2, 3, 5]


def moving_frames(table: np.ndarray, count: int, size=(640, 360)) -> list[np.ndarray]:
    """``count`` frames of the table, smaller, with a fine grain on it, moving half a pixel a
    frame: detail an encoder has to spend bits on."""
    rng = np.random.default_rng(1)
    small = cv2.resize(table, size, interpolation=cv2.INTER_AREA).astype(np.float32)
    grained = np.clip(small + rng.normal(0, 8, small.shape[:2])[..., None], 0, 255).astype(np.uint8)
    return [cv2.warpAffine(grained, np.float32([[1, 0, n * 0.5], [0, 1, 0]]), size, borderMode=cv2.BORDER_REPLICATE)
            for n in range(count)]


def luma(frame: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)  # 4:2:0 keeps colour at half the size at any bitrate


def test_h264_at_1_mbit_degrades_more_than_at_4(table):
    frames = moving_frames(table, 12, (1280, 720))
    psnr = {}
    for severity in (1, 3):
        decoded = list(h264(frames, 30.0, severity))
        assert len(decoded) == len(frames)
        assert decoded[0].shape == frames[0].shape and decoded[0].dtype == np.uint8
        psnr[severity] = np.mean([cv2.PSNR(luma(a), luma(b)) for a, b in zip(frames, decoded, strict=True)])
        assert np.array_equal(decoded[-1], list(h264(frames, 30.0, severity))[-1])  # the same for the same frames
    assert psnr[3] < psnr[1] - 2.0, psnr  # about 31 dB against 35
    assert psnr[3] > 25  # degraded, still a picture of the table


def write_video(path, frames, fps=30.0):
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), fps, frames[0].shape[1::-1])
    for frame in frames:
        writer.write(frame)
    writer.release()


def read_video(path) -> tuple[float, list[np.ndarray]]:
    capture = cv2.VideoCapture(str(path))
    fps, frames = capture.get(cv2.CAP_PROP_FPS), []
    while (got := capture.read())[0]:
        frames.append(got[1])
    capture.release()
    return fps, frames


def test_a_whole_video_is_corrupted_frame_by_frame(tmp_path, table):
    frames = moving_frames(table, 13)
    write_video(tmp_path / "game.mp4", frames)
    fps, source = read_video(tmp_path / "game.mp4")
    out = corrupt_video(tmp_path / "game.mp4", tmp_path / "noise.mp4", CORRUPTIONS["noise"], 3, seed=1, progress=False)
    _, noisy = read_video(out)
    assert len(noisy) == 13
    assert np.mean([mad(a, b) for a, b in zip(source, noisy, strict=True)]) > 5
    # dropped: one frame in 6 kept, at a sixth of the rate, so each keeps its time
    out = corrupt_video(tmp_path / "game.mp4", tmp_path / "drop.mp4", CORRUPTIONS["drop"], 3, progress=False)
    drop_fps, dropped = read_video(out)
    assert drop_fps == pytest.approx(fps / 6) and len(dropped) == 3
    assert [int(np.argmin([mad(d, s) for s in source])) for d in dropped] == [0, 6, 12]
    # H.264: a file OpenCV reads back, every frame in it
    out = corrupt_video(tmp_path / "game.mp4", tmp_path / "h264.mp4", CORRUPTIONS["h264"], 2, progress=False)
    h264_fps, decoded = read_video(out)
    assert h264_fps == pytest.approx(fps) and len(decoded) == 13
    assert write_h264(iter(()), tmp_path / "none.mp4", 30.0, 1) == 0
