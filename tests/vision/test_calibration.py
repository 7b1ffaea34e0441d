"""Calibration on rendered camera frames: markers → homography → upright seat zones."""

import subprocess
import sys

import cv2
import numpy as np
import pytest

from vision.live.calibration import (
    Calibration,
    CalibrationError,
    camera_for,
    fine_scale,
    marker_corners_cm,
    rectify_zone,
    seat_of,
    zone_point_to_table,
    zone_size,
)
from vision.synth.table_canvas import camera_homography, camera_view, canvas_to_table, table_canvas

PX = 8.0


def frame(tilt=0.2, turn=7.0, size=(1280, 720), canvas=None, zoom=0.95):
    canvas = table_canvas(PX) if canvas is None else canvas
    h = camera_homography(canvas.shape[0], size, tilt=tilt, turn_deg=turn, zoom=zoom)
    truth = h @ np.linalg.inv(canvas_to_table(PX))  # table cm → camera px
    return camera_view(canvas, h, size), truth


def to_px(h, pts):
    return cv2.perspectiveTransform(np.asarray(pts, float).reshape(-1, 1, 2), h).reshape(-1, 2)


@pytest.mark.parametrize("tilt,turn,size,zoom", [(0.0, 0.0, (1280, 720), 0.95), (0.25, 12.0, (1280, 720), 0.9),
                                                 (0.15, -30.0, (1920, 1080), 0.7)])
def test_the_homography_puts_table_points_where_the_camera_sees_them(tilt, turn, size, zoom):
    image, truth = frame(tilt, turn, size, zoom=zoom)
    cal = Calibration.from_image(image)
    assert cal.markers == (0, 1, 2, 3)
    probe = np.array([[0, 0], [30, -20], [-44, 44], [12.5, 33]])
    assert np.abs(cal.to_image(probe) - to_px(truth, probe)).max() < 1.5
    assert np.abs(cal.to_table(to_px(truth, probe)) - probe).max() < 0.3
    assert cal.error_px < 1.0


def test_marker_corner_zero_is_top_left_as_read_from_south():
    np.testing.assert_allclose(marker_corners_cm(0)[0], [-43.0, -37.0])
    np.testing.assert_allclose(marker_corners_cm(2)[2], [43.0, 37.0])


def test_two_markers_are_enough_and_fewer_is_a_clear_error():
    image, truth = frame()
    hidden = image.copy()
    for marker_id in (2, 3):  # cover two markers with a hand
        c = to_px(truth, marker_corners_cm(marker_id)).mean(axis=0).astype(int)
        cv2.circle(hidden, tuple(c), 40, (90, 120, 170), -1)
    cal = Calibration.from_image(hidden)
    assert cal.markers == (0, 1)
    cv2.circle(hidden, tuple(to_px(truth, marker_corners_cm(1)).mean(axis=0).astype(int)), 40, (90, 120, 170), -1)
    with pytest.raises(CalibrationError, match=r"found 1 of the 4 table markers \(missing 1, 2, 3\)"):
        Calibration.from_image(hidden)


def test_a_bumped_camera_is_noticed():
    image, _ = frame(turn=5.0)
    cal = Calibration.from_image(image)
    assert not cal.moved(image)
    bumped, _ = frame(turn=9.0)
    assert cal.moved(bumped)


def test_zones_come_out_upright_as_each_player_sees_them():
    """A arrow drawn on the table pointing away from each player must point up in their zone."""
    canvas = table_canvas(PX)
    t2c = np.linalg.inv(canvas_to_table(PX))
    arrows = {"S": ((0, -30), (0, -16)), "N": ((0, 30), (0, 16)), "E": ((30, 0), (16, 0)), "W": ((-30, 0), (-16, 0))}
    for tail, head in arrows.values():
        a, b = to_px(t2c, [tail, head]).astype(int)
        cv2.arrowedLine(canvas, tuple(a), tuple(b), (255, 255, 255), 6, tipLength=0.4)
    image, _ = frame(canvas=canvas)
    cal = Calibration.from_image(image)
    for seat in "SNEW":
        zone = rectify_zone(image, cal, seat)
        assert zone.shape[1::-1] == zone_size()
        white = np.argwhere(cv2.cvtColor(zone, cv2.COLOR_BGR2GRAY) > 200)
        rows = white[:, 0]
        top, bottom = rows.min(), rows.max()
        # the arrow head (wide) is at the top: more white pixels in the upper part of the arrow
        upper = (rows < (top + bottom) / 2).sum()
        lower = (rows >= (top + bottom) / 2).sum()
        assert upper > lower, seat
        centre = zone_point_to_table(seat, white[:, ::-1].mean(axis=0, keepdims=True))[0]
        assert seat_of(tuple(centre)) == seat


def test_camera_resolution_at_the_zones_is_the_pixels_a_centimetre_takes():
    flat, truth = frame(tilt=0.0, turn=0.0)
    scale = float(np.sqrt(abs(np.linalg.det(truth[:2, :2]))) / truth[2, 2])  # straight down: one scale
    resolution = Calibration.from_image(flat).zone_resolution()
    assert set(resolution) == {"S", "E", "N", "W"}
    assert all(abs(px - scale) < 0.02 * scale for px in resolution.values()), (resolution, scale)
    assert 6.0 < scale < 8.0  # 720p over a 90 cm table
    big = Calibration.from_image(frame(tilt=0.0, turn=0.0, size=(1920, 1080))[0]).zone_resolution()
    assert abs(big["S"] / resolution["S"] - 1.5) < 0.03
    tilted = Calibration.from_image(frame(tilt=0.25, turn=0.0)[0]).zone_resolution()
    assert abs(tilted["S"] - tilted["N"]) > 0.3  # a tilted camera sees the near zone larger


def test_seat_of_follows_design_section_5():
    assert seat_of((0, -20)) == "S" and seat_of((0, 20)) == "N"
    assert seat_of((20, 5)) == "E" and seat_of((-20, -5)) == "W"
    assert seat_of((3, 3)) is None and seat_of((0, 41)) is None


@pytest.mark.slow
def test_markers_and_calibrate_commands(tmp_path):
    pdf = tmp_path / "markers.pdf"
    out = subprocess.run([sys.executable, "-m", "scorer.cli", "markers", "--out", str(pdf)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and pdf.read_bytes().startswith(b"%PDF")
    image, _ = frame()
    shot = tmp_path / "table.jpg"
    cv2.imwrite(str(shot), image)
    picture = tmp_path / "cal.png"
    out = subprocess.run([sys.executable, "-m", "scorer.cli", "calibrate", str(shot), "--out", str(picture),
                          "--lang", "en"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "markers 0, 1, 2, 3 found" in out.stdout and cv2.imread(str(picture)).shape == image.shape
    # 720p over the whole table is coarser than the reader wants, and the organiser is told
    assert "camera resolution at the play zones: S " in out.stdout
    assert "cards are read reliably from 8 px/cm" in out.stdout
    assert "a camera of 1920×1080 or more gives every zone 8 px/cm" in out.stdout  # this one is 720p
    blank = tmp_path / "blank.jpg"
    cv2.imwrite(str(blank), np.zeros((480, 640, 3), np.uint8))
    out = subprocess.run([sys.executable, "-m", "scorer.cli", "calibrate", str(blank), "--out", str(picture),
                          "--lang", "en"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "found 0 of the 4 table markers" in out.stderr and "Traceback" not in out.stderr
    zh = subprocess.run([sys.executable, "-m", "scorer.cli", "calibrate", str(shot), "--out", str(picture)],
                        capture_output=True, text=True, timeout=60)  # Chinese by default
    assert zh.returncode == 0 and zh.stdout.startswith("找到标记 0, 1, 2, 3；重投影误差")
    assert "各出牌区的摄像分辨率（像素/厘米）：南 " in zh.stdout and "8像素/厘米以上才能可靠识牌" in zh.stdout
    for unwritable in (tmp_path / "no-such-folder" / "cal.png", tmp_path / "cal.txt"):  # no folder, no writer
        out = subprocess.run([sys.executable, "-m", "scorer.cli", "calibrate", str(shot), "--out", str(unwritable),
                              "--lang", "en"], capture_output=True, text=True, timeout=60)
        assert out.returncode == 2 and "Traceback" not in out.stderr
        assert f"{unwritable}: the calibration picture could not be written" in out.stderr


def test_calibrating_from_a_video_says_nothing_of_images_and_markers_help_shows_one_percent_sign(tmp_path):
    """A video is a source as good as a picture: no "not an image" on the way to calibrating
    from its first frame; and the markers' description says "100%", not "100%%"."""
    image, _ = frame()
    video = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (image.shape[1], image.shape[0]))
    for _ in range(3):
        writer.write(image)
    writer.release()
    out = subprocess.run([sys.executable, "-m", "scorer.cli", "calibrate", str(video), "--out",
                          str(tmp_path / "cal.png"), "--lang", "en"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "markers 0, 1, 2, 3 found" in out.stdout
    assert "not an image" not in out.stderr
    shown = subprocess.run([sys.executable, "-m", "scorer.cli", "markers", "--help"], capture_output=True, text=True,
                           timeout=60).stdout
    assert "100%." in shown and "%%" not in shown


@pytest.mark.slow
def test_calibrating_a_1080p_camera_a_little_too_far_names_the_size_that_would_do_not_1080p(tmp_path):
    """A 1080p video whose zones come out at 7.2–7.8 px/cm: the warning's advice names the
    camera size computed from the frame it saw (2560×1440), never the 1080p it already is."""
    image, _ = frame(tilt=0.1, turn=3.0, size=(1920, 1080), zoom=0.72)
    video = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (1920, 1080))
    for _ in range(3):
        writer.write(image)
    writer.release()
    picture = str(tmp_path / "cal.png")
    en = subprocess.run([sys.executable, "-m", "scorer.cli", "calibrate", str(video), "--out", picture, "--lang", "en"],
                        capture_output=True, text=True, timeout=60)
    assert en.returncode == 0, en.stderr
    warning = en.stdout.strip().splitlines()[-1]
    assert warning.startswith("warning: seat N's zone is seen at 7.") and "use 1080p" not in en.stdout
    assert warning.endswith("bring the camera closer, zoom in, or use a camera of 2560×1440 or more")
    zh = subprocess.run([sys.executable, "-m", "scorer.cli", "calibrate", str(video), "--out", picture],
                        capture_output=True, text=True, timeout=60)
    warning = zh.stdout.strip().splitlines()[-1]
    assert warning.startswith("注意：北家出牌区只有7.") and "改用1080p" not in zh.stdout
    assert warning.endswith("请把摄像头移近、放大画面，或改用2560×1440及以上的摄像头")


def test_the_camera_a_table_wants_is_the_smallest_size_that_sees_every_zone_at_8_px_per_cm():
    assert camera_for((1280, 720), 6.5) == (1920, 1080)  # 6.5 × 1.5 = 9.75
    assert camera_for((1280, 720), 8.2) == (1280, 720)
    assert camera_for((1920, 1080), 4.2) == (3840, 2160)  # twice the pixels: 8.4
    assert camera_for((1920, 1080), 3.0) is None  # even 4K gives 6


def test_fine_scale_is_the_cameras_px_per_cm_over_the_zones_in_quarter_steps():
    assert fine_scale(10.4) is None and fine_scale(12.4) is None  # 1080p over the table: a plain warp
    assert fine_scale(12.5) == 1.25 and fine_scale(19.6) == 1.75 and fine_scale(35.0) == 2.0


def test_a_zone_drawn_finer_and_shrunk_does_not_alias_and_lies_where_the_plain_one_does():
    image, _ = frame(tilt=0.0, turn=0.0, size=(3840, 2160))
    cal = Calibration.from_image(image)
    fine = fine_scale(cal.zone_resolution()["S"])
    assert fine == 2.0
    # in the south zone: a one-pixel checkerboard (detail no zone pixel can hold) on its left,
    # a white disc on black on its right, to find the zone's geometry by
    (bx, by), (dx, dy) = cal.to_image(np.array([[-12.0, -23.0], [12.0, -23.0]])).round().astype(int)
    rows, cols = np.indices((160, 160))
    image[by - 80:by + 80, bx - 80:bx + 80] = (((rows + cols) % 2) * 255)[..., None].astype(np.uint8)
    image[dy - 80:dy + 80, dx - 80:dx + 80] = 0
    cv2.circle(image, (int(dx), int(dy)), 40, (255, 255, 255), -1, cv2.LINE_AA)
    plain, drawn = rectify_zone(image, cal, "S"), rectify_zone(image, cal, "S", fine=fine)
    assert drawn.shape == plain.shape
    grey_plain, grey_drawn = (cv2.cvtColor(z, cv2.COLOR_BGR2GRAY).astype(float) for z in (plain, drawn))
    zone = np.array([[cx, (23.0 - 10.0) * 10] for cx in (280 - 120, 280 + 120)])  # the two centres, zone px
    (x, y), (u, v) = zone.round().astype(int)
    board = (slice(y - 25, y + 25), slice(x - 25, x + 25))
    assert abs(grey_drawn[board].mean() - 127.5) < 10  # the checkerboard shrinks to its mean grey
    assert grey_drawn[board].std() < grey_plain[board].std() / 3  # the plain warp aliases it
    # the disc's centre (its brightness-weighted centroid) is the same in both within a tenth of a pixel
    window = (slice(v - 30, v + 30), slice(u - 30, u + 30))
    centres = []
    for grey in (grey_plain, grey_drawn):
        w = grey[window]
        r, c = np.indices(w.shape)
        centres.append(np.array([(w * r).sum(), (w * c).sum()]) / w.sum())
    assert np.abs(centres[0] - centres[1]).max() < 0.1
    with pytest.raises(ValueError, match="quarter step"):
        rectify_zone(image, cal, "S", fine=1.3)
