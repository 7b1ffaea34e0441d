"""The stage, the second rendered world (vision/stage): its table is seen as DESIGN §5 lays
it out, its cards lie where the markers' homography says, its arms cast shadows, and a
staged hand is a video with a truth record the engine replays. Real OpenGL (Mesa's
llvmpipe through EGL), no mocks."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.stage.faces import CARDS, PRINTED, faces, usable_heldout
from vision.stage.frame import Frame, card_instance
from vision.stage.setting import random_setting
from vision.stage.table import MARKER_CENTRES, marker_corners

SIZE = (1280, 720)


def plain_cards(n: int = 4) -> list[np.ndarray]:
    """Card pictures for tests that need no real faces: white, a number in the corner."""
    out = []
    for i in range(n):
        picture = np.full((402, 288, 4), 255, np.uint8)
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


def test_a_card_lies_where_the_markers_homography_puts_it(clean):
    setting, renderer = clean
    at = (12.0, -20.0)
    card = card_instance(at[0], at[1], 0.0, 0.3, 0.0, (0.15, 0.0), face=2, back=3)
    image = renderer.draw(Frame(cards=card[None], look=setting.look(0.0, 0)))
    found = markers(image)
    table = np.concatenate([marker_corners(m) for m in sorted(found)])
    pixels = np.concatenate([found[m] for m in sorted(found)])
    homography, _ = cv2.findHomography(table, pixels)
    expected = cv2.perspectiveTransform(np.array([[at]], np.float64), homography)[0, 0]
    bright = (cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) > 150).astype(np.uint8)
    contours, _ = cv2.findContours(bright, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    near = [c for c in contours if cv2.pointPolygonTest(c, tuple(float(v) for v in expected), False) >= 0]
    assert near, "no bright card where the homography points"
    moments = cv2.moments(near[0])
    centre = np.array([moments["m10"] / moments["m00"], moments["m01"] / moments["m00"]])
    assert np.linalg.norm(centre - expected) < 1.5
    ends = cv2.perspectiveTransform(np.array([[(0.0, 0.0), (1.0, 0.0)]]), homography)[0]
    px_per_cm = float(np.linalg.norm(ends[1] - ends[0]))
    assert abs(moments["m00"] / px_per_cm ** 2 - 6.3 * 8.8) < 0.1 * 6.3 * 8.8  # a card's area, not a blob


def redness(picture: np.ndarray) -> float:
    """The share of a face's pixels inked red (RGBA)."""
    r, g, b = (picture[..., i].astype(int) for i in range(3))
    return float(((r > 150) & (g < 110) & (b < 110)).mean())


@pytest.mark.parametrize("design", [PRINTED, *usable_heldout()[:1]])
def test_the_faces_of_a_design_are_its_cards_in_order(design):
    pictures = faces(design)
    assert len(pictures) == len(CARDS) == 54
    assert {p.shape for p in pictures} == {(402, 288, 4)}
    red = {card: redness(p) for card, p in zip(CARDS, pictures, strict=True)}
    for rank in "2579T":  # hearts and diamonds are inked red, spades and clubs not: the sheet's rows are read right
        assert min(red["H" + rank], red["D" + rank]) > 4 * max(red["S" + rank], red["C" + rank], 0.001), rank
    assert red["HR"] > red["SB"]
