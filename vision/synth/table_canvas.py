"""A table seen from straight above, drawn in table centimetres, and a camera's view of it.

Used to render test frames and games: the felt, the four markers where DESIGN §5 puts them,
and any image patches laid on the table; then a perspective warp gives what a tilted camera
at some height would see. The mapping canvas pixel ↔ table cm is explicit, so tests know
the truth.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.live.calibration import BORDER_CM, DICTIONARY, MARKER_CM, MARKERS, TABLE_CM


def canvas_to_table(px_per_cm: float, margin_cm: float = 5.0) -> np.ndarray:
    """3×3: canvas pixel (column, row) → table cm (North up)."""
    half = TABLE_CM / 2 + margin_cm
    s = 1.0 / px_per_cm
    return np.array([[s, 0.0, -half], [0.0, -s, half], [0.0, 0.0, 1.0]])


def canvas_side(px_per_cm: float, margin_cm: float = 5.0) -> int:
    """The square canvas's side in pixels: the table and its margin on all four sides."""
    return int(round((TABLE_CM + 2 * margin_cm) * px_per_cm))


def table_canvas(px_per_cm: float = 8.0, felt=(58, 104, 32), margin_cm: float = 5.0) -> np.ndarray:
    """The table top with its markers (upright as read from South), BGR."""
    side = canvas_side(px_per_cm, margin_cm)
    canvas = np.full((side, side, 3), (40, 40, 40), np.uint8)
    t2c = np.linalg.inv(canvas_to_table(px_per_cm, margin_cm))
    corner = cv2.perspectiveTransform(np.array([[[-TABLE_CM / 2, TABLE_CM / 2]], [[TABLE_CM / 2, -TABLE_CM / 2]]]), t2c)
    (x1, y1), (x2, y2) = corner.reshape(2, 2).astype(int)
    canvas[y1:y2, x1:x2] = felt
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    size = int(round((MARKER_CM + 2 * BORDER_CM) * px_per_cm))
    inner = int(round(MARKER_CM * px_per_cm))
    for marker_id, (cx, cy) in MARKERS.items():
        tile = np.full((size, size), 255, np.uint8)
        pad = (size - inner) // 2
        tile[pad:pad + inner, pad:pad + inner] = cv2.aruco.generateImageMarker(dictionary, marker_id, inner)
        col, row = cv2.perspectiveTransform(np.array([[[cx, cy]]], dtype=np.float64), t2c).ravel()
        r0, c0 = int(round(row - size / 2)), int(round(col - size / 2))
        canvas[r0:r0 + size, c0:c0 + size] = tile[:, :, None]
    return canvas


def camera_homography(canvas_side: int, out_size: tuple[int, int], tilt: float = 0.15, turn_deg: float = 0.0,
                      zoom: float = 0.95, shift: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """A plausible overhead camera: the canvas square seen with some keystone (``tilt``),
    turned, zoomed to fit ``out_size`` (width, height). Canvas px → camera px."""
    w, h = out_size
    s = canvas_side
    src = np.array([[0, 0], [s, 0], [s, s], [0, s]], dtype=np.float32)
    side = zoom * min(w, h)
    top, bottom = side * (1 - tilt), side
    cx, cy = w / 2 + shift[0], h / 2 + shift[1]
    dst = np.array([[cx - top / 2, cy - side / 2], [cx + top / 2, cy - side / 2],
                    [cx + bottom / 2, cy + side / 2], [cx - bottom / 2, cy + side / 2]], dtype=np.float32)
    turn = cv2.getRotationMatrix2D((cx, cy), turn_deg, 1.0)
    dst = (np.hstack([dst, np.ones((4, 1), np.float32)]) @ turn.T).astype(np.float32)
    return cv2.getPerspectiveTransform(src, dst)


def camera_view(canvas: np.ndarray, homography: np.ndarray, out_size: tuple[int, int]) -> np.ndarray:
    return cv2.warpPerspective(canvas, homography, out_size, flags=cv2.INTER_AREA, borderValue=(30, 30, 30))
