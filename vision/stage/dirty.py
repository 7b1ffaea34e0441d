"""Which part of the picture a frame changes: the box, in the undistorted render's pixels,
round every card that moved and every arm of this frame or the last, and round the shadows
they throw from each lamp (as wide as their penumbra).

A CPU rasteriser spends most of a frame shading the table, and between two frames a hand
moves over a small part of it. Redrawing that box alone, the rest kept from the frame
before, is what makes whole hands affordable. Generous margins: a box too small would leave
a ghost of an arm behind.
"""

from __future__ import annotations

import numpy as np

from vision.stage.camera import Camera
from vision.stage.frame import CARD_FLOATS, Frame, Lamp
from vision.stage.table import CARD_H, CARD_W

#: the unit shapes' bounding boxes, as the renderer's meshes are built
UNIT_BOX = {"sphere": (-1.0, 1.0, -1.0, 1.0), "cylinder": (-1.0, 1.0, 0.0, 1.0), "box": (-0.5, 0.5, -0.5, 0.5)}
#: pixels added round the box: the lens's blur, filtering, a shadow's softening
MARGIN_PX = 12
#: past this share of the picture the whole scene is drawn again
WHOLE = 0.6


def _corners(lo: float, hi: float, zlo: float, zhi: float) -> np.ndarray:
    return np.array([(x, y, z, 1.0) for x in (lo, hi) for y in (lo, hi) for z in (zlo, zhi)])


CARD_CORNERS = np.array([(x, y, z, 1.0) for x in (-CARD_W / 2, CARD_W / 2) for y in (-CARD_H / 2, CARD_H / 2)
                         for z in (-0.5, 0.5)])


def _placed(rows: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """World points of ``corners`` placed by each instance row's model matrix (column-major)."""
    if not len(rows):
        return np.zeros((0, 3))
    models = rows[:, :16].reshape(-1, 4, 4).transpose(0, 2, 1)
    return (models @ corners.T).transpose(0, 2, 1)[..., :3].reshape(-1, 3)


def changed_points(before: Frame, after: Frame) -> np.ndarray:
    """World points bounding what differs between two frames: cards that moved, appeared or
    went, and every arm of either frame."""
    old = {row.tobytes() for row in before.cards}
    new = {row.tobytes() for row in after.cards}
    moved = [row for row in before.cards if row.tobytes() not in new] + \
            [row for row in after.cards if row.tobytes() not in old]
    points = [_placed(np.array(moved, np.float32).reshape(-1, CARD_FLOATS), CARD_CORNERS)]
    for frame in (before, after):
        for kind, rows in frame.solids.items():
            if len(rows):
                points.append(_placed(np.asarray(rows), _corners(*UNIT_BOX[kind])))
    return np.concatenate(points) if points else np.zeros((0, 3))


def with_shadows(points: np.ndarray, lamps: tuple[Lamp, ...]) -> np.ndarray:
    """The points and where each lamp throws the raised ones on the cloth, spread by the
    penumbra a lamp of that size gives at that height."""
    raised = points[points[:, 2] > 0.2]
    out = [points]
    for lamp in lamps:
        light = np.asarray(lamp.position, float)
        below = raised[raised[:, 2] < light[2] - 1.0]
        if not len(below):
            continue
        reach = light[2] / (light[2] - below[:, 2])
        on_cloth = light + (below - light) * reach[:, None]
        spread = lamp.radius * below[:, 2] / (light[2] - below[:, 2]) + 1.0
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            shifted = on_cloth.copy()
            shifted[:, 0] += dx * spread
            shifted[:, 1] += dy * spread
            shifted[:, 2] = 0.0
            out.append(shifted)
    return np.concatenate(out)


def dirty_box(before: Frame, after: Frame, camera: Camera, focal: float,
              lamps: tuple[Lamp, ...]) -> tuple[int, int, int, int] | None:
    """The box (x, y, width, height; rows from the top) of the render drawn with ``focal``
    that ``after`` changes from ``before``; None: draw it all (too much changed, or a point
    the camera cannot place)."""
    points = with_shadows(changed_points(before, after), lamps)
    if not len(points):
        return 0, 0, 0, 0
    cam = camera.to_camera(points)
    if (cam[:, 2] < 1.0).any():
        return None
    px = cam[:, :2] / cam[:, 2:3] * focal + (camera.cx, camera.cy)
    w, h = camera.size
    x0, y0 = np.floor(px.min(axis=0)) - MARGIN_PX
    x1, y1 = np.ceil(px.max(axis=0)) + MARGIN_PX
    x0, y0, x1, y1 = max(0, int(x0)), max(0, int(y0)), min(w, int(x1)), min(h, int(y1))
    if x1 <= x0 or y1 <= y0:
        return 0, 0, 0, 0
    if (x1 - x0) * (y1 - y0) > WHOLE * w * h:
        return None
    return x0, y0, x1 - x0, y1 - y0
