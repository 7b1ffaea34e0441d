"""What the lens and the camera's mount do to a frame: defocus, motion blur, a bump, a drift.

Pixel lengths are given for a 1080p frame and scaled with the frame's height. Each function
takes ``(frame, t, index, severity, seed, clip)`` and returns a new frame of the same shape
and dtype; the same arguments give the same frame.
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

from vision.corruptions.common import DEFAULT_CLIP, Clip, level, pixel_scale, video_rng

#: defocus: the blur disk's radius in 1080p pixels, by severity
DEFOCUS = (1.0, 2.0, 3.0)
#: motion blur: the streak's length in 1080p pixels, by severity
MOTION_BLUR = (3.0, 5.0, 9.0)
#: a bump: how far the picture moves, in 1080p pixels, by severity
BUMP = (2.0, 3.5, 5.0)
#: a drift: how far the picture has moved by the video's end, in 1080p pixels, by severity
DRIFT = (0.7, 2.0, 4.0)
_FINE = 8  # kernels are drawn this many times finer, then summed down


@lru_cache(maxsize=16)
def disk_kernel(radius: float) -> np.ndarray:
    """A defocused lens's blur: a disk of ``radius`` pixels, its edge pixels weighed by how
    much of them it covers; sums to 1."""
    half = int(math.ceil(radius))
    side = 2 * half + 1
    fine = (np.arange(side * _FINE, dtype=np.float64) + 0.5) / _FINE - half - 0.5
    inside = (fine[None, :] ** 2 + fine[:, None] ** 2) <= radius * radius
    kernel = inside.reshape(side, _FINE, side, _FINE).mean(axis=(1, 3))
    return (kernel / kernel.sum()).astype(np.float32)


@lru_cache(maxsize=16)
def line_kernel(length: float, angle: float) -> np.ndarray:
    """A streak ``length`` pixels long at ``angle`` (radians), centred; sums to 1."""
    half = int(math.ceil(length / 2)) + 1
    side = 2 * half + 1
    canvas = np.zeros((side * _FINE, side * _FINE), dtype=np.float32)
    centre = np.array([side * _FINE / 2, side * _FINE / 2])
    step = np.array([math.cos(angle), math.sin(angle)]) * length * _FINE / 2
    a, b = np.round((centre - step) * 16).astype(int), np.round((centre + step) * 16).astype(int)
    cv2.line(canvas, tuple(int(v) for v in a), tuple(int(v) for v in b), 1.0, thickness=_FINE,
             lineType=cv2.LINE_AA, shift=4)
    kernel = canvas.reshape(side, _FINE, side, _FINE).sum(axis=(1, 3))
    return kernel / kernel.sum()


def defocus(frame: np.ndarray, t: float, index: int, severity: int, seed: int,
            clip: Clip = DEFAULT_CLIP) -> np.ndarray:
    """Out of focus: the frame blurred by a disk of radius 1, 2 or 3 pixels (at 1080p)."""
    kernel = disk_kernel(round(level(severity, DEFOCUS) * pixel_scale(frame), 2))
    return cv2.filter2D(frame, -1, kernel, borderType=cv2.BORDER_REFLECT)


def motion_blur(frame: np.ndarray, t: float, index: int, severity: int, seed: int,
                clip: Clip = DEFAULT_CLIP) -> np.ndarray:
    """A camera that shakes while it exposes (a table knocked, a mount that sways): every
    frame streaked 3, 5 or 9 pixels (at 1080p) in one direction drawn for the video."""
    angle = round(float(video_rng(seed, "motion_blur").uniform(0.0, math.pi)), 4)
    kernel = line_kernel(round(level(severity, MOTION_BLUR) * pixel_scale(frame), 2), angle)
    return cv2.filter2D(frame, -1, kernel, borderType=cv2.BORDER_REFLECT)


def shifted(frame: np.ndarray, dx: float, dy: float) -> np.ndarray:
    """The picture moved by (dx, dy) pixels, sub-pixel amounts interpolated; what comes in at
    an edge repeats the edge's pixels."""
    matrix = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]], dtype=np.float64)
    return cv2.warpAffine(frame, matrix, (frame.shape[1], frame.shape[0]), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def bump_at(seed: int, clip: Clip = DEFAULT_CLIP) -> tuple[float, float]:
    """The bump's moment (between 30 and 60 % of the video) and the direction it moves the
    picture in (radians)."""
    rng = video_rng(seed, "bump")
    moment, angle = rng.uniform(0.3, 0.6), rng.uniform(0.0, 2 * math.pi)
    return float(moment * clip.duration), float(angle)


def bump_shift(t: float, severity: int, seed: int, clip: Clip = DEFAULT_CLIP,
               scale: float = 1.0) -> tuple[float, float]:
    """How far the bump has moved the picture at ``t``: nothing before its moment, then
    2, 3.5 or 5 pixels (at 1080p; times ``scale``) for good."""
    moment, angle = bump_at(seed, clip)
    if t < moment:
        return 0.0, 0.0
    distance = level(severity, BUMP) * scale
    return distance * math.cos(angle), distance * math.sin(angle)


def bump(frame: np.ndarray, t: float, index: int, severity: int, seed: int, clip: Clip = DEFAULT_CLIP) -> np.ndarray:
    """A camera bumped: at one moment (``bump_at``) the picture moves by 2, 3.5 or 5 pixels
    (at 1080p) and stays there."""
    dx, dy = bump_shift(t, severity, seed, clip, pixel_scale(frame))
    return frame.copy() if dx == dy == 0.0 else shifted(frame, dx, dy)


def drift_shift(t: float, severity: int, seed: int, clip: Clip = DEFAULT_CLIP,
                scale: float = 1.0) -> tuple[float, float]:
    """How far the drift has moved the picture at ``t``: evenly, in one direction drawn for
    the video, to 0.7, 2 or 4 pixels (at 1080p; times ``scale``) at its end."""
    angle = float(video_rng(seed, "drift").uniform(0.0, 2 * math.pi))
    distance = level(severity, DRIFT) * scale * min(1.0, max(0.0, t / clip.duration))
    return distance * math.cos(angle), distance * math.sin(angle)


def drift(frame: np.ndarray, t: float, index: int, severity: int, seed: int, clip: Clip = DEFAULT_CLIP) -> np.ndarray:
    """A camera mount that slowly gives (``drift_shift``)."""
    dx, dy = drift_shift(t, severity, seed, clip, pixel_scale(frame))
    return shifted(frame, dx, dy)
