"""What every corruption shares: the clip it belongs to, its severities, its random draws
and the way a gain is put on a frame.

A corruption's random draws come from its seed alone, never from the severity: the same
seed puts the same shadow at the same moment at every severity, only darker, so severity 3
changes a frame more than severity 1 and a table of results compares like with like. Draws
made once for a video (a bump's moment, a drift's direction) come from ``video_rng``; draws
made for one frame (its noise) from ``frame_rng``, which any frame can make on its own, so a
frame is corrupted the same whether or not the frames before it were.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np

SEVERITIES = (1, 2, 3)
#: a frame size's pixel lengths are given for 1080p and scaled by the frame's height
REFERENCE_HEIGHT = 1080


@dataclass(frozen=True)
class Clip:
    """What a corruption may need to know about the video a frame belongs to: its frame rate,
    its length in seconds, and (for the hand) the table's calibration, taken from the video's
    first frame (``None``: taken from the frame being corrupted)."""

    fps: float = 30.0
    duration: float = 60.0
    calibration: Any = None  # vision.live.calibration.Calibration


DEFAULT_CLIP = Clip()


def level(severity: int, values: tuple):
    """The value of ``values`` (one for each severity, 1 to 3) that ``severity`` takes."""
    if severity not in SEVERITIES:
        raise ValueError(f"severity is 1, 2 or 3, not {severity!r}")
    return values[severity - 1]


def _salt(name: str) -> int:
    return zlib.crc32(name.encode())


def video_rng(seed: int, name: str, *more: int) -> np.random.Generator:
    """Draws made once for a video (or for its ``more``-th event) by corruption ``name``."""
    return np.random.default_rng([seed & 0xFFFFFFFF, _salt(name), *more])


def frame_rng(seed: int, name: str, index: int) -> np.random.Generator:
    """Draws made for frame ``index`` alone."""
    return np.random.default_rng([seed & 0xFFFFFFFF, _salt(name), 1 << 20, index])


def pixel_scale(frame: np.ndarray) -> float:
    """How many of this frame's pixels one pixel of a 1080p frame spans."""
    return frame.shape[0] / REFERENCE_HEIGHT


def gained(frame: np.ndarray, gain) -> np.ndarray:
    """``frame`` (BGR uint8) times ``gain``: a number, per channel (3,), per row (H, 1, 1),
    per pixel (H, W, 1) or (H, W, 3); saturated at 0 and 255, rounded."""
    out = frame.astype(np.float32)
    out *= np.asarray(gain, dtype=np.float32)
    np.clip(out, 0.0, 255.0, out=out)
    out += 0.5
    return out.astype(np.uint8)


def smoothstep(x):
    """0 below 0, 1 above 1, smooth between."""
    x = np.clip(x, 0.0, 1.0)
    return x * x * (3.0 - 2.0 * x)


def scheduled(seed: int, name: str, t: float, period: float, length: float) -> tuple[int, float] | None:
    """Events that happen once in every ``period`` seconds, each lasting ``length`` and starting
    at a moment of its period drawn from the seed: the event under way at ``t`` (its number and
    its start), or None."""
    k = int(np.floor(t / period))
    for event in (k, k - 1):
        if event < 0:
            continue
        start = event * period + video_rng(seed, name, event).uniform(0.0, max(0.0, period - length))
        if start <= t < start + length:
            return event, float(start)
    return None
