"""The camera's blur measured on the table's markers, and zones sharpened against it: frames
of a rendered table, blurred afterwards as a lens out of focus or a shaking mount blurs
(the blurs drawn here by OpenCV's own shapes, not by the family ``vision.live.blur`` tries)."""

import json
import math
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from rulebook import profiles
from table.runtime import TableRuntime
from vision.live import blur as blur_module
from vision.live.blur import TRIAL_SURE, Blur, Sharpening, measure, sharpened_zone, spread
from vision.live.calibration import Calibration, rectify_zone
from vision.live.camera import Frame
from vision.live.trace import ZoneTrace

ROWS = {"S": ["H9", "DK", "S5", "CJ", "HA", "D3"], "N": ["C2", "H7", "SQ", "D8", "ST", "H4"],
        "E": ["D6", "SK", "H3", "C9", "DA", "S8"]}


@pytest.fixture(scope="module")
def table():
    from vision.synth.render_game import Renderer, TableState

    renderer = Renderer(5, (1920, 1080))
    return renderer.camera(renderer.view(renderer.table(TableState(rows={**ROWS, "W": []}))))


def disk(radius: float) -> np.ndarray:
    """A defocused lens: an antialiased disk drawn by OpenCV, 16 times finer, summed down."""
    fine = 16
    side = 2 * int(math.ceil(radius)) + 3
    canvas = np.zeros((side * fine, side * fine), np.float32)
    cv2.circle(canvas, (side * fine // 2, side * fine // 2), int(radius * fine), 1.0, -1, cv2.LINE_AA)
    kernel = canvas.reshape(side, fine, side, fine).sum(axis=(1, 3))
    return kernel / kernel.sum()


def streak(length: float, degrees: float) -> np.ndarray:
    """A shaking mount: a straight line drawn by OpenCV, 16 times finer, summed down."""
    fine = 16
    side = 2 * int(math.ceil(length / 2)) + 3
    canvas = np.zeros((side * fine, side * fine), np.float32)
    c = side * fine / 2
    dx, dy = math.cos(math.radians(degrees)) * length * fine / 2, math.sin(math.radians(degrees)) * length * fine / 2
    cv2.line(canvas, (int(c - dx), int(c - dy)), (int(c + dx), int(c + dy)), 1.0, fine, cv2.LINE_AA)
    kernel = canvas.reshape(side, fine, side, fine).sum(axis=(1, 3))
    return kernel / kernel.sum()


def blurred(image: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    return cv2.filter2D(image, -1, kernel, borderType=cv2.BORDER_REFLECT)


def test_the_demo_recordings_sharp_camera_is_left_alone():
    from scorer.demo import DEMO_VIDEO

    capture = cv2.VideoCapture(str(DEMO_VIDEO))
    ok, image = capture.read()
    capture.release()
    assert ok
    found = measure(image, Calibration.from_image(image))
    assert found is not None and found.spread < 0.9 * blur_module.SHARP_ENOUGH
    assert Sharpening(found, image.shape[0]).mode == "off"


def test_a_defocused_and_a_shaken_camera_are_measured_on_the_markers(table):
    """The rendered frame is a little soft already (its own resampling): what is measured
    is its blur and the added one together, as wide as the two combined."""
    own = measure(table, Calibration.from_image(table))
    out_of_focus = blurred(table, disk(2.5))
    lens = measure(out_of_focus, Calibration.from_image(out_of_focus))
    assert own is not None and lens is not None
    assert abs(lens.radius - 2.5) <= 0.5
    assert abs(lens.spread - math.hypot(own.spread, spread(disk(2.5)))) <= 0.25 * lens.spread
    shaken = blurred(table, streak(7.0, 30.0))
    shake = measure(shaken, Calibration.from_image(shaken))
    assert shake is not None and abs(shake.length - 7.0) <= 1.5 and shake.radius <= 1.0
    assert abs((math.degrees(shake.angle) - 30.0 + 90) % 180 - 90) <= 15
    assert abs(shake.spread - math.hypot(own.spread, spread(streak(7.0, 30.0)))) <= 0.25 * shake.spread
    assert shake.worth_sharpening(table.shape[0]) and lens.worth_sharpening(table.shape[0])


@pytest.mark.parametrize("degrees", [4.0, 100.0, 152.0])
def test_a_short_streak_near_an_axis_is_measured_at_its_angle(table, degrees):
    """A streak 5 pixels long, drawn a pixel wide (a lens's own spread under the shake),
    measured within half a step of the old family's 15°: fitted by zero-width streaks
    alone, with no disk between half a pixel and one, it was measured 10° off (here at
    100°; the suite's motion blur at 4.4° on render game 122: 15°), and a Wiener filter
    for the wrong streak left most indices unread."""
    shaken = blurred(table, streak(5.0, degrees))
    shake = measure(shaken, Calibration.from_image(shaken))
    assert shake is not None and abs(shake.length - 5.0) <= 1.0
    assert abs((math.degrees(shake.angle) - degrees + 90) % 180 - 90) <= 7


def test_a_shaken_cameras_zone_is_given_its_sharpness_back(table):
    shaken = blurred(table, streak(6.0, 120.0))
    calibration = Calibration.from_image(table)
    shake = measure(shaken, Calibration.from_image(shaken))
    sharp = rectify_zone(table, calibration, "S").astype(float)
    plain = rectify_zone(shaken, calibration, "S").astype(float)
    part, moved = sharpened_zone(shaken, calibration, "S", shake)
    restored = rectify_zone(part, moved, "S").astype(float)
    # where the cards' print and edges are (the felt's noise is the same either way)
    grey = cv2.cvtColor(rectify_zone(table, calibration, "S"), cv2.COLOR_BGR2GRAY).astype(np.float32)
    edges = np.hypot(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)) > 60
    assert edges.sum() > 1000
    assert np.abs(restored - sharp)[edges].mean() < 0.6 * np.abs(plain - sharp)[edges].mean()


def test_the_trial_keeps_the_picture_that_reads_more_sure_indices():
    blurry = Blur(radius=3.0, length=0.0, angle=0.0, residual=5.0)
    sure, unsure = SimpleNamespace(conf=0.8), SimpleNamespace(conf=0.3)
    trial = Sharpening(blurry, 1080)
    assert trial.mode == "trial"
    assert trial.weigh([sure, unsure], [sure, sure, sure]) is True
    while trial.mode == "trial":
        trial.weigh([sure], [sure, sure])
    assert trial.mode == "on" and trial.plain + trial.sharp >= TRIAL_SURE
    worse = Sharpening(blurry, 1080)
    while worse.mode == "trial":
        assert worse.weigh([sure, sure], [sure, unsure]) is False
    assert worse.mode == "off"  # the markers were blurred, the cards are not: the plain picture is kept
    even = Sharpening(blurry, 1080)
    while even.mode == "trial":
        even.weigh([sure] * 20, [sure] * 21)
    assert even.mode == "off"  # a sure index more in twenty is no reason to ring round every card
    assert Sharpening(None, 1080).mode == "off"


def read_right(detector, frame_image: np.ndarray, trace=None) -> tuple[int, TableRuntime]:
    rt = TableRuntime(detector, profiles.load("jiangsu"))
    rt.seats.trace = trace
    for n in range(8):
        rt.process(Frame(frame_image, n / 10, n))
    right = sum(card in ROWS[seat] for seat in ROWS for card in rt.seats.zones[seat].laid.cards)
    return right, rt


def test_a_shaken_cameras_zones_are_read_sharpened(detector, table, monkeypatch, tmp_path):
    """A 6-pixel streak at 1080p leaves the rows' indices unread; read sharpened, most of
    them are read right, the camera's trial settles on the sharpened picture, and the trace
    says what was measured and decided."""
    shaken = blurred(table, streak(6.0, 60.0))
    monkeypatch.setattr(blur_module, "TRIAL_SURE", 40)  # one table's rows: a short trial
    trace = ZoneTrace(tmp_path)
    sharpened_right, rt = read_right(detector, shaken, trace)
    trace.close()
    assert rt.seats.sharpening.mode == "on"
    camera = [json.loads(line)["camera"] for line in (tmp_path / "trace.jsonl").read_text().splitlines()
              if "camera" in json.loads(line)]
    assert [c["mode"] for c in camera] == ["trial", "on"] and camera[0]["streak_px"] >= 4
    assert "锐化后识别" in (tmp_path / "trace.zh.html").read_text(encoding="utf-8")
    assert "read sharpened" in (tmp_path / "trace.en.html").read_text(encoding="utf-8")
    monkeypatch.setattr(blur_module, "SHARP_ENOUGH", 100.0)  # a camera never sharpened
    plain_right, plain_rt = read_right(detector, shaken)
    assert plain_rt.seats.sharpening.mode == "off"
    cards = sum(len(row) for row in ROWS.values())
    assert sharpened_right >= 0.8 * cards and sharpened_right > plain_right
