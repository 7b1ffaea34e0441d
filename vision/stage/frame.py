"""What one frame shows, as the renderer takes it: the cards' and solids' placements, the
lamps and the camera's settings of the moment.

Plain arrays, so the choreography can build a frame without knowing OpenGL, and a test can
build one by hand.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from vision.stage.table import CARD_T

#: floats per card instance: its model matrix (column-major), bend, and (face layer, back layer, gloss, shininess)
CARD_FLOATS = 24
#: floats per solid instance: its model matrix and (r, g, b in sRGB 0–1, specular strength)
SOLID_FLOATS = 20
SOLIDS = ("sphere", "cylinder", "box")


@dataclass(frozen=True)
class Lamp:
    """A lamp over the table: ``level`` is the light falling straight below it on the cloth
    (linear, per channel); ``cone`` its shade's inner and outer half-angles (degrees);
    ``radius`` its bulb and shade, which sets how soft its shadows are."""

    position: tuple[float, float, float]
    level: tuple[float, float, float]
    axis: tuple[float, float, float] = (0.0, 0.0, -1.0)
    cone: tuple[float, float] = (35.0, 70.0)
    radius: float = 6.0


@dataclass(frozen=True)
class Optics:
    """What stays set through a game: the camera's exposure and white balance (per channel,
    linear), the room's ambient light, the distance in focus (cm), ``blur`` the circle of
    confusion in pixels per unit of relative defocus, ``least`` the blur even what is in
    focus gets (pixels: the sensor's anti-aliasing filter, the lens's softness), and
    ``vignette`` the share of light the lens loses at the frame's corners."""

    exposure: tuple[float, float, float] = (1.0, 1.0, 1.0)
    ambient: tuple[float, float, float] = (0.25, 0.25, 0.25)
    focus: float = 130.0
    blur: float = 0.0
    least: float = 0.0
    vignette: float = 0.0


@dataclass(frozen=True)
class Look:
    """What changes from frame to frame at the sensor: ``gain`` the exposure's and the
    lamps' slow drift (per channel, linear), ``noise`` (shot, read) in linear units (the
    variance is shot × signal + read²), ``frame`` the noise's seed."""

    gain: tuple[float, float, float] = (1.0, 1.0, 1.0)
    noise: tuple[float, float] = (0.0, 0.0)
    frame: int = 0


@dataclass
class Frame:
    """One frame's scene. Frames whose cards and solids are equal are drawn once: only the
    sensor's pass runs again."""

    cards: np.ndarray = field(default_factory=lambda: np.zeros((0, CARD_FLOATS), np.float32))
    solids: dict[str, np.ndarray] = field(default_factory=dict)
    look: Look = Look()

    def scene_key(self) -> bytes:
        """What the scene pass draws from, as bytes to compare."""
        parts = [np.ascontiguousarray(self.cards, np.float32).tobytes()]
        parts += [kind.encode() + np.ascontiguousarray(self.solids[kind], np.float32).tobytes()
                  for kind in sorted(self.solids)]
        return b"|".join(parts)


def card_instance(x: float, y: float, z: float, yaw: float, flip: float, bend: tuple[float, float],
                  face: int, back: int, gloss: float = 0.04, shininess: float = 600.0) -> np.ndarray:
    """A card's instance row: its underside at height ``z``, centred at (x, y), turned
    ``yaw`` radians, turned over about its own up axis by ``flip`` (0 face up, 1 face down), bent by
    ``bend`` (cm of rise at the ends along its width and its height; negative: the middle
    rises); ``face`` and ``back`` are layers of the renderer's card pictures."""
    bx, by = bend
    rest = max(0.0, -bx) + max(0.0, -by)  # lowest point on the table
    turned = (abs(bx) + abs(by)) * (1 - math.cos(math.pi * flip)) / 2  # face down, the bend's other side is lowest
    model = translate(x, y, z + CARD_T / 2 + turned) @ rotate_z(yaw) @ rotate_y(math.pi * flip)
    return np.concatenate([model.T.ravel(), [bx, by, rest, 0.0], [face, back, gloss, shininess]]).astype(np.float32)


def solid_instance(model: np.ndarray, colour: tuple[float, float, float], specular: float = 0.1) -> np.ndarray:
    """A solid's instance row."""
    return np.concatenate([model.T.ravel(), [*colour, specular]]).astype(np.float32)


def translate(x: float, y: float, z: float) -> np.ndarray:
    m = np.eye(4)
    m[:3, 3] = (x, y, z)
    return m


def scale(x: float, y: float, z: float) -> np.ndarray:
    return np.diag([x, y, z, 1.0])


def rotate_z(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    m = np.eye(4)
    m[:2, :2] = [[c, -s], [s, c]]
    return m


def rotate_y(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    m = np.eye(4)
    m[0, 0], m[0, 2], m[2, 0], m[2, 2] = c, s, -s, c
    return m


def aligned(start: np.ndarray, end: np.ndarray, radius: float) -> np.ndarray:
    """The matrix that lays the unit cylinder (z from 0 to 1) from ``start`` to ``end``."""
    axis = np.asarray(end, float) - np.asarray(start, float)
    length = float(np.linalg.norm(axis))
    z = axis / max(length, 1e-9)
    helper = np.array([0.0, 0.0, 1.0]) if abs(z[2]) < 0.9 else np.array([1.0, 0.0, 0.0])
    x = np.cross(helper, z)
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    m = np.eye(4)
    m[:3, 0], m[:3, 1], m[:3, 2], m[:3, 3] = x * radius, y * radius, z * length, start
    return m
