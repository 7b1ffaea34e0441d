"""The camera round trip says how sharp its photograph is (vision/synth/camera.py)."""

import numpy as np
import pytest

from vision.synth.camera import CameraConfig, Capture, camera_round_trip

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
