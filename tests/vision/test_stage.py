"""The stage, the second rendered world (vision/stage): its table is seen as DESIGN §5 lays
it out, its cards lie where the markers' homography says, its arms cast shadows, and a
staged hand is a video with a truth record the engine replays. Real OpenGL (Mesa's
llvmpipe through EGL), no mocks."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.stage.frame import Frame
from vision.stage.setting import random_setting
from vision.stage.table import MARKER_CENTRES, marker_corners

SIZE = (1280, 720)


def plain_cards(n: int = 4) -> list[np.ndarray]:
    """Card pictures for tests that need no real faces: white, a dark frame, a number."""
    out = []
    for i in range(n):
        picture = np.full((402, 288, 4), 255, np.uint8)
        cv2.rectangle(picture, (6, 6), (281, 395), (20, 20, 20, 255), 4)
        cv2.putText(picture, str(i), (16, 70), cv2.FONT_HERSHEY_SIMPLEX, 2.2, (30, 30, 180, 255), 5)
        out.append(picture)
    return out


@pytest.fixture(scope="module")
def clean():
    """A set with a perfect lens and no sensor noise, and its renderer."""
    setting = random_setting(7, SIZE, distortion=False, noise=False)
    renderer = setting.renderer(plain_cards())
    yield setting, renderer
    renderer.release()


def markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """The ArUco markers found in a frame (corners refined to a fraction of a pixel)."""
    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), parameters)
    corners, ids, _ = detector.detectMarkers(image)
    return {} if ids is None else {int(i): c[0] for c, i in zip(corners, ids.ravel(), strict=True)}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_frame_shows_the_four_markers_where_the_camera_puts_them(seed):
    setting = random_setting(seed, SIZE)
    renderer = setting.renderer(plain_cards())
    try:
        image = renderer.draw(Frame(look=setting.look(0.0, 0)))
    finally:
        renderer.release()
    found = markers(image)
    assert sorted(found) == sorted(MARKER_CENTRES)
    for marker, corners in found.items():
        assert np.abs(corners - setting.camera.project(marker_corners(marker))).max() < 2.0, marker


def test_without_distortion_and_noise_a_seed_gives_the_same_frame_twice(clean):
    setting, renderer = clean
    first = renderer.draw(Frame(look=setting.look(3.0, 90)))
    again = setting.renderer(plain_cards())
    try:
        second = again.draw(Frame(look=setting.look(3.0, 90)))
    finally:
        again.release()
    assert np.array_equal(first, second)
