"""A hand resting over a seat's play zone: a player leaning on the table, reaching for a
cup, holding their cards over the zone while they think.

The hand is drawn on the table plane, in centimetres (DESIGN §5), and put into the frame
through the table's homography (the four ArUco markers, ``vision.live.calibration``): a palm
(an ellipse 10 × 18 cm) with the forearm behind it reaching back past the seat's table edge,
shaded as something round (lighter along its ridge), in a skin colour drawn for the event,
with a soft shadow beside it. It slides in from the seat's edge in 0.3 s, rests 1, 2 or
3 s (by severity) over the zone, 16–28 cm out from the centre, and slides back, four times
a minute, over a seat drawn for each time.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.corruptions.common import DEFAULT_CLIP, Clip, frame_rng, level, scheduled, smoothstep, video_rng
from vision.live.calibration import Calibration

#: how long the hand rests over the zone, by severity (seconds)
RESTING_S = (1.0, 2.0, 3.0)
SLIDE_S = 0.3
HAND_PERIOD_S = 15.0
#: unit vector from the table's centre toward each seat (+x East, +y North)
TOWARD = {"S": (0.0, -1.0), "N": (0.0, 1.0), "E": (1.0, 0.0), "W": (-1.0, 0.0)}
PALM_CM = (5.0, 9.0)  # semi-axes across and along the arm
FOREARM_HALF_WIDTH_CM = 3.8
SLIDE_CM = 30.0  # how far out the hand starts and ends its slide


@dataclass(frozen=True)
class HandVisit:
    """One time a hand rests over a zone: when it comes and goes, the seat, where it rests
    (the palm's centre, table cm) and its colour (BGR)."""

    start: float
    end: float
    seat: str
    centre_cm: tuple[float, float]
    colour: tuple[float, float, float]
    resting: tuple[float, float]  # when it lies still, from and to

    def reach(self, t: float) -> float:
        """How far the hand has come in: 0 off the table, 1 at rest."""
        return float(smoothstep((t - self.start) / SLIDE_S) * smoothstep((self.end - t) / SLIDE_S))


def skin_colour(rng: np.random.Generator) -> tuple[float, float, float]:
    """A skin colour, BGR: hue 8–22°, saturation 0.3–0.55, value 0.55–0.9."""
    hsv = np.array([[[rng.uniform(4, 11), rng.uniform(0.3, 0.55) * 255, rng.uniform(0.55, 0.9) * 255]]],
                   dtype=np.float32)
    bgr = cv2.cvtColor(np.round(hsv).astype(np.uint8), cv2.COLOR_HSV2BGR)[0, 0]
    return tuple(float(v) for v in bgr)


def hand_visit(t: float, severity: int, seed: int) -> HandVisit | None:
    """The hand's visit under way at ``t``, or None."""
    length = level(severity, RESTING_S) + 2 * SLIDE_S
    longest = RESTING_S[-1] + 2 * SLIDE_S  # visits start where they would at severity 3
    event = scheduled(seed, "hand", t, HAND_PERIOD_S, longest)
    if event is None:
        return None
    k, start = event
    if t >= start + length:
        return None
    rng = video_rng(seed, "hand-visit", k)
    seat = "SENW"[int(rng.integers(4))]
    out, across = rng.uniform(16.0, 28.0), rng.uniform(-12.0, 12.0)
    ux, uy = TOWARD[seat]
    centre = (ux * out - uy * across, uy * out + ux * across)
    return HandVisit(start, start + length, seat, (float(centre[0]), float(centre[1])), skin_colour(rng),
                     (start + SLIDE_S, start + length - SLIDE_S))


def hand_visits(duration: float, severity: int, seed: int, step: float = 0.1) -> list[HandVisit]:
    """Every visit in the first ``duration`` seconds."""
    visits: dict[float, HandVisit] = {}
    for t in np.arange(0.0, duration, step):
        if (visit := hand_visit(float(t), severity, seed)) is not None:
            visits.setdefault(visit.start, visit)
    return sorted(visits.values(), key=lambda v: v.start)


def _coverage(along: np.ndarray, across: np.ndarray, soft: float) -> tuple[np.ndarray, np.ndarray]:
    """How much of each point the palm and forearm cover (0–1, edges ``soft`` cm wide) and how
    bright they are there (a rounded surface: lighter along the arm's ridge). ``along``: cm
    from the palm's centre toward the seat; ``across``: cm to its side."""
    a, b = PALM_CM
    rho = np.sqrt((across / a) ** 2 + (along / b) ** 2)
    palm = np.clip((1.0 - rho) * b / soft + 0.5, 0.0, 1.0)
    palm_shade = np.sqrt(np.clip(1.0 - rho**2, 0.0, 1.0))
    arm_rho = np.abs(across) / FOREARM_HALF_WIDTH_CM
    behind = np.clip(along / soft + 0.5, 0.0, 1.0)
    arm = np.clip((1.0 - arm_rho) * FOREARM_HALF_WIDTH_CM / soft + 0.5, 0.0, 1.0) * behind
    arm_shade = np.sqrt(np.clip(1.0 - arm_rho**2, 0.0, 1.0))
    cover = np.maximum(palm, arm)
    shade = np.where(palm >= arm, palm_shade, arm_shade)
    return cover, 0.62 + 0.38 * shade


def hand(frame: np.ndarray, t: float, index: int, severity: int, seed: int, clip: Clip = DEFAULT_CLIP) -> np.ndarray:
    """A hand over a seat's zone (``hand_visit``) drawn into the frame; the table's homography
    is ``clip.calibration``'s, or taken from this frame's markers."""
    visit = hand_visit(t, severity, seed)
    out = frame.copy()
    if visit is None:
        return out
    calibration = clip.calibration or Calibration.from_image(frame)
    ux, uy = TOWARD[visit.seat]
    slide = SLIDE_CM * (1.0 - visit.reach(t))
    cx, cy = visit.centre_cm[0] + ux * slide, visit.centre_cm[1] + uy * slide
    # the pixels it may cover: the palm and the forearm out to 60 cm, and its shadow beside it
    reach_cm = 60.0
    corners = []
    for along in (-PALM_CM[1] - 3, reach_cm):
        for across in (-PALM_CM[0] - 3, PALM_CM[0] + 3):
            corners.append((cx + ux * along - uy * across, cy + uy * along + ux * across))
    pixels = calibration.to_image(np.array(corners))
    height, width = frame.shape[:2]
    x0, y0 = np.floor(pixels.min(axis=0)).astype(int)
    x1, y1 = np.ceil(pixels.max(axis=0)).astype(int) + 1
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(width, x1), min(height, y1)
    if x0 >= x1 or y0 >= y1:
        return out
    ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float64)
    table = calibration.to_table(np.stack([xs.ravel(), ys.ravel()], axis=1))
    dx, dy = table[:, 0] - cx, table[:, 1] - cy
    along = (dx * ux + dy * uy).reshape(xs.shape)
    across = (-dx * uy + dy * ux).reshape(xs.shape)
    soft = 0.6
    cover, shade = _coverage(along, across, soft)
    shadow, _ = _coverage(along + 2.0, across - 2.5, 4.0)  # cast by a lamp above and to one side
    rng = frame_rng(seed, "hand", index)
    texture = 1.0 + 0.03 * cv2.GaussianBlur(rng.standard_normal(cover.shape).astype(np.float32), (0, 0), 1.5)
    region = out[y0:y1, x0:x1].astype(np.float32)
    region *= (1.0 - 0.35 * shadow * (1.0 - cover))[..., None].astype(np.float32)
    skin = np.asarray(visit.colour, dtype=np.float32) * (shade * texture)[..., None].astype(np.float32)
    alpha = cover[..., None].astype(np.float32)
    region = region * (1.0 - alpha) + skin * alpha
    out[y0:y1, x0:x1] = np.clip(region + 0.5, 0, 255).astype(np.uint8)
    return out
