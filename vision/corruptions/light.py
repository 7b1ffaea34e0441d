"""What the sensor and the light do to a frame: noise, exposure, mains flicker, white
balance, vignetting and an arm's shadow.

Each function takes ``(frame, t, index, severity, seed, clip)`` — a BGR uint8 frame, its
time in seconds and number in the video, severity 1 to 3, the corruption's seed and the
video's ``Clip`` — and returns a new frame of the same shape and dtype; the same arguments
give the same frame.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from vision.corruptions.common import DEFAULT_CLIP, Clip, frame_rng, gained, level, scheduled, smoothstep, video_rng

#: read noise σ (grey levels) and shot noise (variance per grey level of signal), by severity
NOISE = ((3.0, 0.05), (6.0, 0.1), (12.0, 0.2))


def noise(frame: np.ndarray, t: float, index: int, severity: int, seed: int, clip: Clip = DEFAULT_CLIP) -> np.ndarray:
    """Sensor noise: Gaussian read noise of σ 3, 6 or 12 grey levels plus shot noise whose
    variance grows with the signal (0.05, 0.1, 0.2 × the grey level: σ 3, 4.5 or 6.3 more at
    200), fresh in every frame and every channel."""
    read, shot = level(severity, NOISE)
    signal = frame.astype(np.float32)
    sigma = np.sqrt(signal * shot + read * read)
    sigma *= frame_rng(seed, "noise", index).standard_normal(frame.shape, dtype=np.float32)
    signal += sigma
    np.clip(signal, 0.0, 255.0, out=signal)
    signal += 0.5
    return signal.astype(np.uint8)


#: exposure: the gain's greatest departure from 1, by severity; a new level every so many
#: seconds, reached over a ramp of so many seconds
EXPOSURE = (0.12, 0.25, 0.4)
EXPOSURE_PERIOD_S, EXPOSURE_RAMP_S = 8.0, 3.0


def exposure_gain(t: float, severity: int, seed: int) -> float:
    """The exposure corruption's gain at ``t``: a level drawn for each ``EXPOSURE_PERIOD_S``
    (between 1 − a and 1 + a), each reached from the one before over ``EXPOSURE_RAMP_S``, as
    an automatic exposure hunting after the light, or the light changing."""
    a = level(severity, EXPOSURE)
    k = int(math.floor(t / EXPOSURE_PERIOD_S))

    def target(j: int) -> float:
        return 0.0 if j < 0 else float(video_rng(seed, "exposure", j).uniform(-1.0, 1.0))

    before, now = target(k - 1), target(k)
    x = float(smoothstep((t - k * EXPOSURE_PERIOD_S) / EXPOSURE_RAMP_S))
    return 1.0 + a * (before + (now - before) * x)


def exposure(frame: np.ndarray, t: float, index: int, severity: int, seed: int,
             clip: Clip = DEFAULT_CLIP) -> np.ndarray:
    """Slow exposure ramps: the whole frame's gain moves to a new level (up to ±12, 25 or
    40 %) over 3 s, every 8 s (``exposure_gain``)."""
    return gained(frame, exposure_gain(t, severity, seed))


#: flicker: the light's swing (a fraction of its mean), by severity; the mains' frequency
#: (China's 50 Hz: the light swings at 100 Hz); a rolling shutter's readout, in frames
FLICKER = (0.02, 0.04, 0.08)
MAINS_HZ = 50.0
READOUT_FRAMES = 0.5


def flicker(frame: np.ndarray, t: float, index: int, severity: int, seed: int,
            clip: Clip = DEFAULT_CLIP) -> np.ndarray:
    """Mains flicker: lamps on 50 Hz swing by ±2, 4 or 8 % at 100 Hz, which a 30 fps camera
    samples beating at 10 Hz; with a rolling shutter reading the rows over half a frame, the
    frame shows about 1.7 bright and dark bands that roll down from frame to frame."""
    swing = level(severity, FLICKER)
    phase = video_rng(seed, "flicker").uniform(0.0, 2 * math.pi)
    rows = frame.shape[0]
    row_t = t + (READOUT_FRAMES / clip.fps) * np.arange(rows, dtype=np.float64) / rows
    gain = 1.0 + swing * np.sin(2 * math.pi * 2 * MAINS_HZ * row_t + phase)
    return gained(frame, gain.astype(np.float32).reshape(rows, 1, 1))


#: white balance: the red and blue gains' greatest departure from green's, by severity
WHITE_BALANCE = (0.06, 0.12, 0.2)


def white_balance_gains(t: float, severity: int, seed: int) -> np.ndarray:
    """The (B, G, R) gains at ``t``: blue and red each off by a fixed share drawn for the video
    and drifting (a sine of 15–40 s) around it, within ± the severity's amount; green is 1."""
    a = level(severity, WHITE_BALANCE)
    rng = video_rng(seed, "white_balance")
    offset, period, phase = rng.uniform(-1, 1, 2), rng.uniform(15.0, 40.0, 2), rng.uniform(0, 2 * math.pi, 2)
    drift = np.sin(2 * math.pi * t / period + phase)
    blue, red = 1.0 + a * (0.6 * offset + 0.4 * drift)
    return np.array([blue, 1.0, red], dtype=np.float32)


def white_balance(frame: np.ndarray, t: float, index: int, severity: int, seed: int,
                  clip: Clip = DEFAULT_CLIP) -> np.ndarray:
    """A white-balance shift, slowly drifting: per-channel gains (``white_balance_gains``)."""
    return gained(frame, white_balance_gains(t, severity, seed))


#: vignetting: how much darker the frame's corners are than its optical centre, by severity
VIGNETTE = (0.2, 0.35, 0.5)


@lru_cache(maxsize=8)
def _vignette_gain(height: int, width: int, darker: float, cx: float, cy: float) -> np.ndarray:
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    half_diagonal = math.hypot(width, height) / 2
    rho2 = ((x - cx) ** 2 + (y - cy) ** 2) / half_diagonal**2
    return (1.0 - darker * rho2)[..., None].clip(0.0, 1.0)


def vignette(frame: np.ndarray, t: float, index: int, severity: int, seed: int,
             clip: Clip = DEFAULT_CLIP) -> np.ndarray:
    """Vignetting: the light falls off with the square of the distance from the optical
    centre (drawn within 5 % of the frame's middle), a corner 20, 35 or 50 % darker."""
    height, width = frame.shape[:2]
    dx, dy = video_rng(seed, "vignette").uniform(-0.05, 0.05, 2)
    return gained(frame, _vignette_gain(height, width, level(severity, VIGNETTE),
                                        width * (0.5 + dx), height * (0.5 + dy)))


#: an arm's shadow: how much light it takes at its middle, by severity; one crossing in
#: every so many seconds, each lasting 1–2 s
SHADOW = (0.25, 0.4, 0.55)
SHADOW_PERIOD_S, SHADOW_CROSSING_S = 15.0, (1.0, 2.0)


def shadow_crossing(t: float, seed: int) -> tuple[float, float, float] | None:
    """The crossing under way at ``t``: (its start, how long it takes, the direction it moves
    in, radians), or None. Four a minute, each at a moment of its quarter minute."""
    longest = SHADOW_CROSSING_S[1]
    event = scheduled(seed, "shadow", t, SHADOW_PERIOD_S, longest)
    if event is None:
        return None
    k, start = event
    rng = video_rng(seed, "shadow-crossing", k)
    length, angle = rng.uniform(*SHADOW_CROSSING_S), rng.uniform(0.0, 2 * math.pi)
    return (start, float(length), float(angle)) if t < start + length else None


def shadow(frame: np.ndarray, t: float, index: int, severity: int, seed: int, clip: Clip = DEFAULT_CLIP) -> np.ndarray:
    """An arm's shadow crossing the table: a soft dark band (a Gaussian across, σ a twentieth
    of the frame's diagonal, about 12 cm of a table that fills the frame's height, taking 25,
    40 or 55 % of the light at its middle) that sweeps the frame from one side to the other in
    1–2 s, four times a minute (``shadow_crossing``)."""
    crossing = shadow_crossing(t, seed)
    if crossing is None:
        return frame.copy()
    start, length, angle = crossing
    height, width = frame.shape[:2]
    diagonal = math.hypot(width, height)
    sigma = diagonal / 20
    c, s = math.cos(angle), math.sin(angle)
    # the band's line is across the direction it moves in; its position along that direction
    # goes from off the frame on one side to off it on the other
    corners = np.array([[0, 0], [width, 0], [0, height], [width, height]], dtype=np.float32) @ (c, s)
    lo, hi = corners.min() - 2.5 * sigma, corners.max() + 2.5 * sigma
    centre = lo + (hi - lo) * (t - start) / length
    along = (np.arange(width, dtype=np.float32) * c)[None, :] + (np.arange(height, dtype=np.float32) * s)[:, None]
    along -= centre
    along *= along
    along *= -0.5 / sigma**2
    dark = np.exp(along, out=along)
    gain = 1.0 - level(severity, SHADOW) * dark
    return gained(frame, gain[..., None])
