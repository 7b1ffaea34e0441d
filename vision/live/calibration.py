"""The table plane: ArUco markers → a homography, and each seat's play zone rectified.

Table coordinates are centimetres, origin at the table centre, +x toward East, +y toward
North (DESIGN §5). Four ``DICT_4X4_50`` markers, 6 cm square, lie at the corners of the
90 cm table, upright as read from the South seat. From the markers a camera at any height
or angle gives a homography table → image; each seat's zone is then warped into an
upright, fixed-scale image, the way the seat's player sees their own cards, which is what
the detector was trained on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

MARKER_CM = 6.0
BORDER_CM = 1.0
TABLE_CM = 90.0
MARKERS = {0: (-40.0, -40.0), 1: (40.0, -40.0), 2: (40.0, 40.0), 3: (-40.0, 40.0)}
DICTIONARY = cv2.aruco.DICT_4X4_50
ZONE_NEAR_CM, ZONE_FAR_CM, ZONE_HALF_WIDTH_CM = 10.0, 36.0, 28.0
PX_PER_CM = 10.0
#: camera pixels per table centimetre at a play zone: the detector reads most indices from
#: ``GOOD_PX_PER_CM``, fewer between the two, under half below ``MIN_PX_PER_CM``
#: (models/README.md). A 720p camera that shows the whole table gives about 6.5; 1080p about 9.
MIN_PX_PER_CM, GOOD_PX_PER_CM = 6.0, 8.0


class CalibrationError(ValueError):
    """The markers cannot give a homography; the message says what is wrong, in English for
    ``guandan calibrate``, and ``code`` with ``values`` let a console word it in Chinese too
    (``rulebook.i18n.ALERTS``)."""

    def __init__(self, code: str, message: str, **values: object) -> None:
        super().__init__(message)
        self.code = code
        self.values = values


def marker_corners_cm(marker_id: int) -> np.ndarray:
    """OpenCV's corner order (top-left, top-right, bottom-right, bottom-left) in table cm,
    for a marker laid upright as read from South (its top edge toward North)."""
    cx, cy = MARKERS[marker_id]
    h = MARKER_CM / 2
    return np.array([[cx - h, cy + h], [cx + h, cy + h], [cx + h, cy - h], [cx - h, cy - h]], dtype=np.float64)


def find_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """Marker id → its four corners in image pixels, for the table's markers found."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICTIONARY),
                                       cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(gray)
    found: dict[int, np.ndarray] = {}
    for c, i in zip(corners, [] if ids is None else ids.ravel(), strict=False):
        if int(i) in MARKERS:
            found[int(i)] = c.reshape(4, 2).astype(np.float64)
    return found


@dataclass(frozen=True)
class Calibration:
    """Table cm → image pixels, and how well the markers agree with it."""

    homography: np.ndarray
    markers: tuple[int, ...]
    error_px: float  # mean reprojection error of the marker corners

    @classmethod
    def from_image(cls, image: np.ndarray) -> Calibration:
        found = find_markers(image)
        missing = sorted(set(MARKERS) - set(found))
        if len(found) < 2:
            raise CalibrationError(
                "markers_missing",
                f"found {len(found)} of the 4 table markers (missing {', '.join(map(str, missing))}): need at "
                "least 2 — check they are in view, flat, lit without glare, and printed at 100% "
                "('guandan markers')", found=len(found), missing=", ".join(map(str, missing)))
        table = np.vstack([marker_corners_cm(i) for i in sorted(found)])
        pixels = np.vstack([found[i] for i in sorted(found)])
        homography, _ = cv2.findHomography(table, pixels, 0)
        if homography is None:
            raise CalibrationError("markers_no_plane",
                                   "the markers found do not fit one table plane (are they laid as printed?)")
        projected = cv2.perspectiveTransform(table.reshape(-1, 1, 2), homography).reshape(-1, 2)
        error = float(np.linalg.norm(projected - pixels, axis=1).mean())
        return cls(homography, tuple(sorted(found)), error)

    def to_image(self, points_cm: np.ndarray) -> np.ndarray:
        pts = np.asarray(points_cm, dtype=np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def to_table(self, points_px: np.ndarray) -> np.ndarray:
        pts = np.asarray(points_px, dtype=np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, np.linalg.inv(self.homography)).reshape(-1, 2)

    def px_per_cm(self, point_cm: tuple[float, float]) -> float:
        """Camera pixels per table centimetre at a table point: the square root of the area,
        in pixels, that one square centimetre there takes in the image."""
        x, y = point_cm
        a, b, c = self.to_image(np.array([[x, y], [x + 1.0, y], [x, y + 1.0]]))
        (ux, uy), (vx, vy) = b - a, c - a
        return float(np.sqrt(abs(ux * vy - uy * vx)))

    def zone_resolution(self) -> dict[str, float]:
        """Each seat's camera px/cm at its play zone's centre: what decides whether its cards
        can be read (``MIN_PX_PER_CM``, ``GOOD_PX_PER_CM``)."""
        width, height = zone_size(1.0)
        return {seat: self.px_per_cm(tuple(zone_to_table(seat, 1.0) @ (width / 2, height / 2, 1.0))[:2])
                for seat in _ZONE_AXES}

    def moved(self, image: np.ndarray, tolerance_px: float = 3.0) -> bool:
        """Whether the markers in ``image`` are no longer where this calibration puts them
        (the camera was bumped); markers not found count as not moved."""
        found = find_markers(image)
        for marker_id, corners in found.items():
            expected = self.to_image(marker_corners_cm(marker_id))
            if np.linalg.norm(expected - corners, axis=1).mean() > tolerance_px:
                return True
        return False


# --- seat zones -----------------------------------------------------------------------------

#: per seat: (zone pixel → table cm) as an affine map of (column, row): the player's view is
#: upright, their left on the left
_ZONE_AXES = {
    #      origin (col 0, row 0)                 +column direction   +row direction
    "S": ((-ZONE_HALF_WIDTH_CM, -ZONE_NEAR_CM), (1.0, 0.0), (0.0, -1.0)),
    "N": ((ZONE_HALF_WIDTH_CM, ZONE_NEAR_CM), (-1.0, 0.0), (0.0, 1.0)),
    "E": ((ZONE_NEAR_CM, -ZONE_HALF_WIDTH_CM), (0.0, 1.0), (1.0, 0.0)),
    "W": ((-ZONE_NEAR_CM, ZONE_HALF_WIDTH_CM), (0.0, -1.0), (-1.0, 0.0)),
}


def zone_size(px_per_cm: float = PX_PER_CM) -> tuple[int, int]:
    """(width, height) in pixels of a rectified zone."""
    return (int(round(2 * ZONE_HALF_WIDTH_CM * px_per_cm)), int(round((ZONE_FAR_CM - ZONE_NEAR_CM) * px_per_cm)))


def zone_to_table(seat: str, px_per_cm: float = PX_PER_CM) -> np.ndarray:
    """3×3 matrix: zone pixel (column, row, 1) → table cm."""
    (ox, oy), (cx, cy), (rx, ry) = _ZONE_AXES[seat]
    s = 1.0 / px_per_cm
    return np.array([[cx * s, rx * s, ox], [cy * s, ry * s, oy], [0.0, 0.0, 1.0]])


#: a zone is drawn finer, then shrunk, in quarter steps (its sides, 56 × 26 cm, are whole
#: pixels at every step) up to this many times (``rectify_zone``)
MAX_FINE, FINE_STEP = 2.0, 0.25


#: the camera sizes sold for tables, smallest first
CAMERA_SIZES = ((1280, 720), (1920, 1080), (2560, 1440), (3840, 2160))


def camera_for(frame_size: tuple[int, int], least_px_per_cm: float,
               wanted: float = GOOD_PX_PER_CM) -> tuple[int, int] | None:
    """The smallest camera size (``CAMERA_SIZES``) that, from where this camera stands and at
    the same field of view, sees every play zone at ``wanted`` px/cm, given that a frame of
    ``frame_size`` sees the coarsest at ``least_px_per_cm``; None if even 4K does not."""
    width, height = frame_size
    for size in CAMERA_SIZES:
        if least_px_per_cm * min(size[0] / width, size[1] / height) >= wanted:
            return size
    return None


def fine_scale(camera_px_per_cm: float, px_per_cm: float = PX_PER_CM) -> float | None:
    """How many times finer than ``px_per_cm`` a zone should be warped before it is shrunk
    to size (``rectify_zone``'s ``fine``): the camera's own px/cm over the zone's, rounded
    down to a quarter step, at most ``MAX_FINE``; None under 1.25, where a plain warp loses
    nothing (a 1080p camera over the whole table gives about 1)."""
    scale = min(MAX_FINE, math.floor(camera_px_per_cm / px_per_cm / FINE_STEP) * FINE_STEP)
    return scale if scale >= 1.25 else None


def rectify_zone(image: np.ndarray, calibration: Calibration, seat: str, px_per_cm: float = PX_PER_CM,
                 fine: float | None = None) -> np.ndarray:
    """The seat's play zone, upright as its player sees it, at ``px_per_cm``.

    ``fine`` (a quarter step over 1, up to ``MAX_FINE``; ``fine_scale`` says which): warp the
    zone that many times finer and shrink it by area. A camera that sees the zone finer than
    it is drawn (1440p, 4K) would otherwise be sampled one pixel in two or four, and its
    zones alias, and rows of held-out decks filmed in 4K read fewer cards right than drawn
    this way (``docs/benchmarks.md``, "Seat zones by camera"). Either way zone pixel i is table
    point i / ``px_per_cm``."""
    size = zone_size(px_per_cm)
    zone_to_image = calibration.homography @ zone_to_table(seat, px_per_cm)
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    if fine is None:
        return cv2.warpPerspective(image, zone_to_image, size, flags=flags, borderMode=cv2.BORDER_REPLICATE)
    if round(fine / FINE_STEP) * FINE_STEP != fine or not 1.0 < fine <= MAX_FINE:
        raise ValueError(f"a zone is drawn finer by a quarter step up to {MAX_FINE:g} times, not {fine}")
    # shrinking by area maps continuous coordinates by the scale alone, so the fine zone's
    # pixel j (centre j + 0.5) is the zone's continuous (j + 0.5) / fine, pixel (j + 0.5) / fine - 0.5
    shift = 0.5 / fine - 0.5
    fine_to_zone = np.array([[1.0 / fine, 0.0, shift], [0.0, 1.0 / fine, shift], [0.0, 0.0, 1.0]])
    drawn = cv2.warpPerspective(image, zone_to_image @ fine_to_zone, (round(size[0] * fine), round(size[1] * fine)),
                                flags=flags, borderMode=cv2.BORDER_REPLICATE)
    return cv2.resize(drawn, size, interpolation=cv2.INTER_AREA)


def zone_point_to_table(seat: str, points_px: np.ndarray, px_per_cm: float = PX_PER_CM) -> np.ndarray:
    """Zone pixel coordinates → table cm (for grouping corner indices into cards)."""
    pts = np.asarray(points_px, dtype=np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, zone_to_table(seat, px_per_cm)).reshape(-1, 2)


def seat_of(point_cm: tuple[float, float]) -> str | None:
    """The seat whose direction dominates a table point, within 10–36 cm of the centre
    (DESIGN §5); ``None`` outside every zone."""
    x, y = point_cm
    if abs(y) >= abs(x):
        seat, d = ("S" if y < 0 else "N"), abs(y)
    else:
        seat, d = ("E" if x > 0 else "W"), abs(x)
    return seat if ZONE_NEAR_CM <= d <= ZONE_FAR_CM else None
