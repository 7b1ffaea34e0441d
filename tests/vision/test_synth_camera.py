"""The camera round trip says how sharp its photograph is (vision/synth/camera.py)."""

import cv2
import numpy as np
import pytest

from vision.synth.camera import CameraConfig, Capture, camera_round_trip, local_scale, oblique_homography, oblique_photo

CLEAN = dict(scale=(1.0, 1.0), warp=0.0, noise=(0.0, 0.0), jpeg_prob=0.0)


def stripes(period: int = 4, size: int = 96) -> np.ndarray:
    row = np.where((np.arange(size) // (period // 2)) % 2 == 0, 40, 215).astype(np.uint8)
    return np.repeat(np.repeat(row[None, :, None], size, axis=0), 3, axis=2)


def contrast(img: np.ndarray) -> float:
    middle = img[16:-16, 16:-16, 1].astype(float)
    return float(middle.max() - middle.min())


def test_a_perfect_camera_keeps_every_pixel_of_the_table():
    cap = Capture(scale=1.0, motion_px=0.0, defocus_px=0.0)
    assert cap.sharp_px_per_cm(10.0) == pytest.approx(10.0)
    assert Capture(0.5, 0.0, 0.0).sharp_px_per_cm(10.0) == pytest.approx(5.0)  # half the camera pixels
    assert Capture(1.0, 0.0, 1.0).sharp_px_per_cm(10.0) < 5.0  # a blur two pixels wide halves it, and more


@pytest.mark.parametrize("seed", range(4))
def test_the_reported_blur_is_the_blur_in_the_pixels(seed):
    sharp_img, sharp = camera_round_trip(stripes(), np.random.default_rng(seed),
                                         CameraConfig(**CLEAN, motion_prob=0.0, defocus_prob=0.0))
    soft_img, soft = camera_round_trip(stripes(), np.random.default_rng(seed),
                                       CameraConfig(**CLEAN, motion_prob=0.0, defocus_prob=1.0))
    assert (sharp.motion_px, sharp.defocus_px) == (0.0, 0.0) and soft.defocus_px >= 0.3
    assert soft.sharp_px_per_cm(10) < sharp.sharp_px_per_cm(10)
    assert contrast(soft_img) < contrast(sharp_img) - 5  # the stripes really are washed out


def test_a_recipe_sets_how_wide_the_blur_is():
    """A finder's blur set asks for defocus and smears wider than the default camera's; the
    drawn sizes come from its ranges, and the picture is the softer for them."""
    wide = CameraConfig(**CLEAN, motion_prob=1.0, motion_px=(6.0, 8.0), defocus_prob=1.0, defocus_px=(1.8, 2.2))
    narrow = CameraConfig(**CLEAN, motion_prob=1.0, defocus_prob=1.0)
    wide_img, w = camera_round_trip(stripes(), np.random.default_rng(5), wide)
    narrow_img, n = camera_round_trip(stripes(), np.random.default_rng(5), narrow)
    assert 6.0 <= w.motion_px <= 8.0 and 1.8 <= w.defocus_px <= 2.2
    assert 1.5 <= n.motion_px <= 5.0 and 0.3 <= n.defocus_px <= 1.0
    assert contrast(wide_img) < contrast(narrow_img) - 5


@pytest.mark.parametrize("seed", range(3))
def test_a_leaning_camera_holds_the_whole_zone_smaller_and_smaller_away_from_it(seed):
    """The leaning camera's picture holds every corner of the zone, no zone pixel is drawn
    bigger than rendered, and ``local_scale`` is the area a small square there is given."""
    size = 200
    hom = oblique_homography(np.random.default_rng(seed), size, (35.0, 45.0))
    corners = np.float32([[[0, 0], [size, 0], [size, size], [0, size]]])
    seen = cv2.perspectiveTransform(corners, hom)[0]
    assert seen.min() >= 0 and seen.max() <= size
    scales = [local_scale(hom, (x, y)) for x in (5, 100, 195) for y in (5, 100, 195)]
    assert max(scales) < 1.0 and max(scales) / min(scales) > 1.15  # the far side smaller
    square = np.float32([[[100, 100], [101, 100], [101, 101], [100, 101]]])
    area = cv2.contourArea(cv2.perspectiveTransform(square, hom)[0])
    assert local_scale(hom, (100.5, 100.5)) == pytest.approx(np.sqrt(area), rel=0.01)
    picture, capture, view = oblique_photo(stripes(size=size), np.random.default_rng(seed),
                                           CameraConfig(**CLEAN, motion_prob=0.0, defocus_prob=0.0, tilt=(40.0, 40.0)))
    assert picture.shape == (size, size, 3) and capture.scale == 1.0 and view.shape == (3, 3)
    assert not CameraConfig().oblique and CameraConfig(tilt=(20.0, 50.0)).oblique
