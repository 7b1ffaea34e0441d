"""Labels from pixels: which corner indices a scene shows, as YOLO boxes.

Every painter writes an ID mask beside the image: 0 for the table, the placement's
number for each face-up card, ``OCCLUDER`` for hands, props and face-down cards. A
label is derived, never assumed: an index counts as visible when at least ``min_visible``
of its area (rasterised, the same rule as the pixels) still belongs to its own card in
the mask and inside the image. The box is the axis-aligned box of the index's rotated
rectangle, clipped to the image. Class ids are positions in ``engine.cards.ALL_CARDS``.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from engine.cards import ALL_CARDS
from vision.synth.camera import local_scale

OCCLUDER = 65535  # ID of anything opaque that is not a face-up card
CLASS_OF = {c: i for i, c in enumerate(ALL_CARDS)}
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Placed:
    """A face-up card in a scene: its mask ID, name, card→scene affine and index boxes (card
    px), and how tall its index's rank and suit sign are printed (cm; None where unknown)."""

    ident: int
    card: str
    m: np.ndarray
    boxes: tuple[Box, ...]
    marks_cm: tuple[float, float] | None = None


@dataclass(frozen=True)
class Label:
    """One visible corner index: class id, pixel box in the scene, its visible fraction, its
    card's printed mark heights (``Placed.marks_cm``) and how far the index is turned from
    upright in the scene (degrees clockwise as the image is seen, in (−180, 180]): the box
    is the upright box around a turned rectangle, and how turned tells how much of the box
    is ink."""

    cls: int
    box: Box
    visible: float
    ident: int
    corner: int
    marks_cm: tuple[float, float] | None = None
    turn_deg: float = 0.0
    #: picture pixels per zone pixel at the index: 1 but in a picture left in a leaning
    #: camera's perspective (``vision.synth.camera.oblique_photo``), where the far cards are smaller
    scale: float = 1.0

    def yolo(self, width: int, height: int) -> str:
        x0, y0, x1, y1 = self.box
        return (f"{self.cls} {(x0 + x1) / 2 / width:.6f} {(y0 + y1) / 2 / height:.6f} "
                f"{(x1 - x0) / width:.6f} {(y1 - y0) / height:.6f}")


def index_polygon(m: np.ndarray, box: Box) -> np.ndarray:
    """The four corners of a card-pixel box mapped into the scene (4×2).

    Both boxes are in edge coordinates (pixel i spans [i, i + 1), as labels and detectors
    count), while ``m`` maps pixel centres, as ``cv2.warpAffine`` paints the card: so the
    corners are taken to centre coordinates (−0.5), mapped, and brought back (+0.5). Mapped
    without that shift, labels lie up to about a pixel off the ink, the more the more the
    card is turned."""
    x0, y0, x1, y1 = box
    pts = np.array([[x0, y0, 1], [x1, y0, 1], [x1, y1, 1], [x0, y1, 1]], np.float64)
    pts[:, :2] -= 0.5
    return pts @ np.asarray(m, np.float64).T + 0.5


def visible_fraction(ids: np.ndarray, ident: int, poly: np.ndarray) -> float:
    """Share of the polygon's pixels (inside or outside the image) that show card ``ident``."""
    H, W = ids.shape
    x0, y0 = np.floor(poly.min(axis=0)).astype(int)
    x1, y1 = np.ceil(poly.max(axis=0)).astype(int) + 1
    local = np.zeros((y1 - y0, x1 - x0), np.uint8)
    # the polygon is in edge coordinates, fillPoly's in pixel centres
    cv2.fillPoly(local, [np.round((poly - 0.5 - (x0, y0)) * 16).astype(np.int32)], 1, cv2.LINE_8, 4)
    total = int(local.sum())
    if total == 0:
        return 0.0
    cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(W, x1), min(H, y1)
    if cx1 <= cx0 or cy1 <= cy0:
        return 0.0
    inside = local[cy0 - y0: cy1 - y0, cx0 - x0: cx1 - x0]
    seen = int(np.count_nonzero(inside & (ids[cy0:cy1, cx0:cx1] == ident)))
    return seen / total


def turn_of(m: np.ndarray, corner: int) -> float:
    """How far corner index ``corner`` (0 top-left, 1 bottom-right, 2 top-right, 3
    bottom-left: ``vision.synth.faces.corners_of``'s order) of a card placed by ``m`` is
    turned from upright: degrees clockwise as the image is seen (its y axis points down),
    in (−180, 180]. The bottom corners' indices are printed upside down."""
    m = np.asarray(m, np.float64)
    return _turn_along(m[0, 0], m[1, 0], corner)


def _turn_along(dx: float, dy: float, corner: int) -> float:
    """``turn_of`` for a card whose top edge runs along (``dx``, ``dy``) in the image."""
    deg = float(np.degrees(np.arctan2(dy, dx))) + (180.0 if corner in (1, 3) else 0.0)
    return round(-((-deg + 180.0) % 360.0 - 180.0), 3) + 0.0  # never -0.0


def scene_labels(ids: np.ndarray, placed: list[Placed], min_visible: float = 0.6, min_px: float = 2.0,
                 view: np.ndarray | None = None) -> list[Label]:
    """Every corner index that is at least ``min_visible`` unoccluded, in placement order.
    ``view``: the homography from the zone to a picture of the same size left in a leaning
    camera's perspective; the boxes are then the upright boxes around the indices as the
    picture shows them (visibility is still judged in the zone, where the cards were laid:
    the picture holds all of it, ``vision.synth.camera.oblique_homography``)."""
    H, W = ids.shape
    out: list[Label] = []
    for p in placed:
        for k, box in enumerate(p.boxes):
            poly = index_polygon(p.m, box)
            frac = visible_fraction(ids, p.ident, poly)
            if frac < min_visible:
                continue
            turn, scale = turn_of(p.m, k), 1.0
            if view is not None:
                centre = tuple(poly.mean(axis=0) - 0.5)
                poly = cv2.perspectiveTransform((poly - 0.5)[None], np.asarray(view, np.float64))[0] + 0.5
                turn, scale = _turn_along(*(poly[1] - poly[0]), k), local_scale(view, centre)
            x0, y0 = max(0.0, float(poly[:, 0].min())), max(0.0, float(poly[:, 1].min()))
            x1, y1 = min(float(W), float(poly[:, 0].max())), min(float(H), float(poly[:, 1].max()))
            if x1 - x0 < min_px or y1 - y0 < min_px:
                continue
            out.append(Label(CLASS_OF[p.card], (x0, y0, x1, y1), frac, p.ident, k, p.marks_cm, turn, scale))
    return out


def yolo_text(labels: list[Label], width: int, height: int) -> str:
    """A YOLO label file: one ``class cx cy w h`` line (normalised) per label."""
    return "".join(lab.yolo(width, height) + "\n" for lab in labels)


def parse_yolo(text: str) -> list[tuple[int, float, float, float, float]]:
    """Read a YOLO label file back; raises ValueError on a malformed line."""
    rows = []
    for n, line in enumerate(text.splitlines(), 1):
        parts = line.split()
        if len(parts) != 5:
            raise ValueError(f"line {n}: expected 5 fields, got {len(parts)}")
        cls = int(parts[0])
        cx, cy, w, h = (float(v) for v in parts[1:])
        if not 0 <= cls < len(ALL_CARDS):
            raise ValueError(f"line {n}: class {cls} out of range")
        if not (0 <= cx <= 1 and 0 <= cy <= 1 and 0 < w <= 1 and 0 < h <= 1):
            raise ValueError(f"line {n}: box out of range")
        rows.append((cls, cx, cy, w, h))
    return rows
