"""The camera over the table: where it hangs, how it is turned, its lens, and the matrices
OpenGL draws with.

A pinhole camera in OpenCV's convention (x right, y down, z forward) with OpenCV's radial
distortion (k1, k2), so whatever a live loop learns of lenses from OpenCV applies here as at
a real table. The scene is drawn undistorted, a little wider than the frame; the lens pass
(``vision.stage.shaders``) bends it into the frame the camera delivers.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np

from vision.stage.table import CLOTH_CM

NEAR_CM, FAR_CM = 5.0, 800.0


@dataclass(frozen=True)
class Camera:
    """A posed camera: ``rotation`` maps world directions to camera axes (rows: right,
    down, forward), ``centre`` is the lens's position in table centimetres."""

    width: int
    height: int
    rotation: np.ndarray
    centre: np.ndarray
    focal: float
    cx: float
    cy: float
    k1: float = 0.0
    k2: float = 0.0

    @property
    def size(self) -> tuple[int, int]:
        return self.width, self.height

    def to_camera(self, points: np.ndarray) -> np.ndarray:
        """World points (N×3) in camera coordinates."""
        return (np.asarray(points, np.float64) - self.centre) @ self.rotation.T

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (N×3, or N×2 on the cloth) as pixels of the delivered frame, the
        lens's distortion included."""
        points = np.asarray(points, np.float64)
        if points.shape[1] == 2:
            points = np.column_stack([points, np.zeros(len(points))])
        cam = self.to_camera(points)
        xy = cam[:, :2] / cam[:, 2:3]
        xy = distort(xy, self.k1, self.k2)
        return xy * self.focal + (self.cx, self.cy)

    def render_focal(self) -> float:
        """The focal length (pixels) of the undistorted picture the scene is drawn as: short
        enough that every pixel the lens bends into the frame was drawn."""
        u = np.linspace(0, self.width, 33)
        v = np.linspace(0, self.height, 19)
        border = np.concatenate([np.column_stack([u, np.zeros_like(u)]),
                                 np.column_stack([u, np.full_like(u, self.height)]),
                                 np.column_stack([np.zeros_like(v), v]),
                                 np.column_stack([np.full_like(v, self.width), v])])
        xd = (border - (self.cx, self.cy)) / self.focal
        xu = undistort(xd, self.k1, self.k2)
        span = np.abs(xd).max(axis=0) * self.focal
        reach = np.abs(xu).max(axis=0)
        return float(min(1.0, *(span / (reach * self.focal))) * self.focal) * 0.995

    def view_matrix(self) -> np.ndarray:
        """World → OpenGL eye coordinates (y up, looking down −z)."""
        flip = np.diag([1.0, -1.0, -1.0])
        m = np.eye(4)
        m[:3, :3] = flip @ self.rotation
        m[:3, 3] = -(flip @ self.rotation @ self.centre)
        return m

    def projection_matrix(self, focal: float | None = None) -> np.ndarray:
        """Eye → clip coordinates for a picture of the frame's size drawn with ``focal``
        (the undistorted render's by default), principal point kept."""
        f = self.render_focal() if focal is None else focal
        w, h, n, far = self.width, self.height, NEAR_CM, FAR_CM
        return np.array([
            [2 * f / w, 0, 1 - 2 * self.cx / w, 0],
            [0, 2 * f / h, 2 * self.cy / h - 1, 0],
            [0, 0, -(far + n) / (far - n), -2 * far * n / (far - n)],
            [0, 0, -1, 0],
        ])


def distort(xy: np.ndarray, k1: float, k2: float) -> np.ndarray:
    """OpenCV's radial model on normalised image coordinates."""
    r2 = (xy ** 2).sum(axis=1, keepdims=True)
    return xy * (1 + k1 * r2 + k2 * r2 * r2)


def undistort(xy: np.ndarray, k1: float, k2: float, rounds: int = 8) -> np.ndarray:
    """The inverse of ``distort`` by fixed-point rounds (the lens pass does the same on the GPU)."""
    out = xy.copy()
    for _ in range(rounds):
        r2 = (out ** 2).sum(axis=1, keepdims=True)
        out = xy / (1 + k1 * r2 + k2 * r2 * r2)
    return out


def posed(size: tuple[int, int], height: float, tilt_deg: float, tilt_toward_deg: float, yaw_deg: float,
          k1: float = 0.0, k2: float = 0.0, margin_cm: float = 8.0, aim: tuple[float, float] = (0.0, 0.0),
          offset: tuple[float, float] = (0.0, 0.0)) -> Camera:
    """A camera ``height`` cm over the cloth, its axis tilted ``tilt_deg`` from the vertical
    toward the compass angle ``tilt_toward_deg`` (0: East, 90: North) and aimed at ``aim``,
    its picture turned ``yaw_deg`` about the axis; the focal length is the longest that
    keeps the cloth and ``margin_cm`` of wood around it in the frame after distortion.
    ``offset``: the principal point's shift from the frame's centre, as a share of it."""
    w, h = size
    tilt, toward, yaw = (math.radians(a) for a in (tilt_deg, tilt_toward_deg, yaw_deg))
    forward = np.array([math.sin(tilt) * math.cos(toward), math.sin(tilt) * math.sin(toward), -math.cos(tilt)])
    centre = np.array([aim[0], aim[1], 0.0]) - forward * (height / math.cos(tilt))
    right0 = np.array([math.cos(yaw), math.sin(yaw), 0.0])
    right = right0 - right0.dot(forward) * forward
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    rotation = np.stack([right, down, forward])
    cx, cy = w / 2 * (1 + offset[0]), h / 2 * (1 + offset[1])
    half = CLOTH_CM / 2 + margin_cm
    edge = np.linspace(-half, half, 41)
    ring = np.concatenate([np.column_stack([edge, np.full_like(edge, s * half)]) for s in (-1, 1)]
                          + [np.column_stack([np.full_like(edge, s * half), edge]) for s in (-1, 1)])
    probe = Camera(w, h, rotation, centre, 1.0, cx, cy, k1, k2)
    cam = probe.to_camera(np.column_stack([ring, np.zeros(len(ring))]))
    xd = distort(cam[:, :2] / cam[:, 2:3], k1, k2)
    room = np.array([[cx, cy], [w - cx, h - cy]])  # pixels from the principal point to each side
    focal = min(float((room[0][i] if c < 0 else room[1][i]) / abs(c)) for xy in xd for i, c in enumerate(xy) if c)
    return Camera(w, h, rotation, centre, focal, cx, cy, k1, k2)


def random_camera(rng: random.Random, size: tuple[int, int], distortion: bool = True) -> Camera:
    """A camera as a tournament rigs one: 100–160 cm up, tilted up to 15°, turned any way,
    a lens with some barrel (or a little pincushion) distortion; without ``distortion`` the
    same camera with a perfect lens.

    A lens's distortion is drawn as what it does at the frame's corner (from 8 % barrel to
    3 % pincushion), as lenses are specified: the same k1 would fold a wide lens's corners
    and leave a narrow one's straight."""
    height, tilt, toward, yaw = rng.uniform(100, 160), rng.uniform(0, 15), rng.uniform(0, 360), rng.uniform(0, 360)
    at_corner = rng.uniform(-0.08, 0.03), rng.uniform(-0.01, 0.01)
    pose = dict(height=height, tilt_deg=tilt, tilt_toward_deg=toward, yaw_deg=yaw, margin_cm=rng.uniform(2, 10),
                aim=(rng.uniform(-4, 4), rng.uniform(-4, 4)),
                offset=(rng.uniform(-0.02, 0.02), rng.uniform(-0.02, 0.02)))
    pinhole = posed(size, **pose)
    if not distortion:
        return pinhole
    corner2 = ((size[0] / 2) ** 2 + (size[1] / 2) ** 2) / pinhole.focal ** 2
    return posed(size, k1=at_corner[0] / corner2, k2=at_corner[1] / corner2 ** 2, **pose)


def lens_map(camera: Camera, vignette: float = 0.0) -> np.ndarray:
    """For each pixel the camera delivers (rows from the top): how far (pixels, x and y)
    from it the undistorted render holds its light, and the square root of the share of
    light vignetting leaves it (the scene is drawn in the camera's gamma of 2); half floats,
    RGBA, small offsets kept precise."""
    w, h = camera.size
    v, u = np.mgrid[0:h, 0:w].astype(np.float64) + 0.5
    xd = np.column_stack([(u.ravel() - camera.cx) / camera.focal, (v.ravel() - camera.cy) / camera.focal])
    xu = undistort(xd, camera.k1, camera.k2, rounds=6)
    f = camera.render_focal()
    out = np.zeros((h * w, 4), np.float32)
    out[:, 0] = xu[:, 0] * f + camera.cx - u.ravel()
    out[:, 1] = xu[:, 1] * f + camera.cy - v.ravel()
    r2 = ((u.ravel() - w / 2) ** 2 + (v.ravel() - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    out[:, 2] = np.sqrt(1.0 - vignette * r2)
    return out.reshape(h, w, 4).astype(np.float16)


def delivered(camera: Camera, render_focal: float, box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """Where a box of the undistorted render (drawn with ``render_focal``) lies in the
    delivered frame, its edges bent by the lens, a few pixels wider."""
    x, y, w, h = box
    t = np.linspace(0.0, 1.0, 17)
    edge = np.concatenate([np.column_stack([x + w * t, np.full_like(t, y)]),
                           np.column_stack([x + w * t, np.full_like(t, y + h)]),
                           np.column_stack([np.full_like(t, x), y + h * t]),
                           np.column_stack([np.full_like(t, x + w), y + h * t])])
    bent = distort((edge - (camera.cx, camera.cy)) / render_focal, camera.k1, camera.k2) * camera.focal
    bent += (camera.cx, camera.cy)
    x0, y0 = np.floor(bent.min(axis=0)) - 3
    x1, y1 = np.ceil(bent.max(axis=0)) + 3
    x0, y0 = max(0, int(x0)), max(0, int(y0))
    x1, y1 = min(camera.width, int(x1)), min(camera.height, int(y1))
    return x0, y0, max(0, x1 - x0), max(0, y1 - y0)


def on_table(camera: Camera, render_focal: float, box: tuple[int, int, int, int], half: float,
             texels: int) -> tuple[int, int, int, int] | None:
    """The texels of a map of the table's plane (``texels`` a side over ``half`` cm either
    side of the centre) that a box of the undistorted render sees (None: all of them)."""
    x, y, w, h = box
    corners = np.array([(x, y), (x + w, y), (x, y + h), (x + w, y + h)], float)
    rays = np.column_stack([(corners - (camera.cx, camera.cy)) / render_focal, np.ones(4)]) @ camera.rotation
    if (rays[:, 2] >= -1e-6).any():
        return None
    ground = camera.centre[:2] + rays[:, :2] * (-camera.centre[2] / rays[:, 2])[:, None]
    texel = (ground + half) / (2 * half) * texels
    x0, y0 = np.clip(np.floor(texel.min(axis=0)) - 4, 0, texels).astype(int)
    x1, y1 = np.clip(np.ceil(texel.max(axis=0)) + 4, 0, texels).astype(int)
    return int(x0), int(y0), int(max(0, x1 - x0)), int(max(0, y1 - y0))
