"""Small compositing primitives shared by the card and scene renderers.

Canvases are float32 BGR in 0..255 while painting (blending in floats avoids rounding
drift when many layers overlap) and become uint8 once, at the end. Every painter that
puts something opaque on a scene also writes an ID mask, which is how labels stay true
to the pixels: a corner index is visible exactly where the mask still holds its card.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from vision.synth.shapes import fill_circle, fill_poly

Colour = tuple[float, float, float]


def stamp(img: np.ndarray, mask: np.ndarray, colour: Colour, x: int, y: int, opacity: float = 1.0) -> None:
    """Blend a uniform colour through a coverage mask (255 = full) with its top-left at (x, y).

    Works on any numpy view, including a flipped one (``img[::-1, ::-1]``), which is how
    the card renderer draws the upside-down half of a card with upright coordinates.
    """
    h, w = mask.shape
    H, W = img.shape[:2]
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(W, x + w), min(H, y + h)
    if x1 <= x0 or y1 <= y0:
        return
    a = mask[y0 - y: y1 - y, x0 - x: x1 - x].astype(np.float32) * (opacity / 255.0)
    roi = img[y0:y1, x0:x1]
    a = a[..., None]
    roi[...] = roi * (1.0 - a) + np.asarray(colour, np.float32) * a


def stamp_image(img: np.ndarray, src: np.ndarray, alpha: np.ndarray, x: int, y: int) -> None:
    """Blend an image through its alpha (uint8) with its top-left at (x, y), clipped."""
    h, w = alpha.shape
    H, W = img.shape[:2]
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(W, x + w), min(H, y + h)
    if x1 <= x0 or y1 <= y0:
        return
    a = alpha[y0 - y: y1 - y, x0 - x: x1 - x].astype(np.float32)[..., None] / 255.0
    roi = img[y0:y1, x0:x1]
    roi[...] = roi * (1.0 - a) + src[y0 - y: y1 - y, x0 - x: x1 - x].astype(np.float32) * a


def rounded_rect_points(x0: float, y0: float, x1: float, y1: float, r: float, n: int = 8) -> np.ndarray:
    """Outline of a rounded rectangle as a polygon (float pixel coordinates)."""
    r = max(0.0, min(r, (x1 - x0) / 2, (y1 - y0) / 2))
    if r < 0.5:
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)
    pts = []
    for cx, cy, start in ((x1 - r, y0 + r, -np.pi / 2), (x1 - r, y1 - r, 0.0),
                          (x0 + r, y1 - r, np.pi / 2), (x0 + r, y0 + r, np.pi)):
        a = start + np.linspace(0, np.pi / 2, n)
        pts.append(np.stack([cx + r * np.cos(a), cy + r * np.sin(a)], axis=1))
    return np.concatenate(pts)


def rounded_rect_mask(w: int, h: int, r: float) -> np.ndarray:
    """Anti-aliased mask of a w×h rounded rectangle (the card's silhouette)."""
    mask = np.zeros((h, w), np.uint8)
    fill_poly(mask, rounded_rect_points(0, 0, w - 1, h - 1, r))
    return mask


def draw_polyline(img: np.ndarray, points: np.ndarray, colour: Colour, thickness: float, closed: bool = True) -> None:
    """Anti-aliased polyline in float coordinates on a float or uint8 image."""
    pts = np.round(np.asarray(points) * 16).astype(np.int32).reshape(-1, 1, 2)
    cv2.polylines(img, [pts], closed, tuple(float(c) for c in colour), max(1, int(round(thickness))),
                  cv2.LINE_AA, 4)


def poly_mask(shape: tuple[int, int], points: np.ndarray) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    fill_poly(mask, points)
    return mask


def circle_mask(shape: tuple[int, int], cx: float, cy: float, r: float) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    fill_circle(mask, cx, cy, r)
    return mask


def rotation(angle_deg: float, scale: float, centre_src: tuple[float, float],
             centre_dst: tuple[float, float]) -> np.ndarray:
    """2×3 affine: rotate/scale about ``centre_src`` of the source and put it at ``centre_dst``."""
    a = np.deg2rad(angle_deg)
    c, s = np.cos(a) * scale, np.sin(a) * scale
    m = np.array([[c, -s, 0.0], [s, c, 0.0]])
    m[:, 2] = np.asarray(centre_dst) - m[:, :2] @ np.asarray(centre_src)
    return m


def affine_bbox(m: np.ndarray, w: float, h: float, size: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """Integer box (x0, y0, x1, y1) of a w×h source rectangle mapped by ``m``, clipped to size (W, H)."""
    corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], np.float64) @ m.T
    x0 = max(0, int(np.floor(corners[:, 0].min())) - 1)
    y0 = max(0, int(np.floor(corners[:, 1].min())) - 1)
    x1 = min(size[0], int(np.ceil(corners[:, 0].max())) + 2)
    y1 = min(size[1], int(np.ceil(corners[:, 1].max())) + 2)
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1, y1


def paste_affine(canvas: np.ndarray, ids: np.ndarray | None, src: np.ndarray, alpha: np.ndarray,
                 m: np.ndarray, ident: int, shadow: float = 0.0,
                 shadow_offset: tuple[float, float] = (1.0, 1.5)) -> tuple[int, int, int, int] | None:
    """Paint ``src`` through ``alpha`` onto ``canvas`` mapped by the 2×3 affine ``m``.

    Only the destination's bounding box is warped (cards are small next to the scene).
    Pixels where the warped alpha is at least one half take ``ident`` in ``ids``; that is the
    ownership rule every label relies on. ``shadow`` darkens the canvas under a blurred,
    offset copy of the silhouette first (a card lying on cloth). Returns the painted box
    (x0, y0, x1, y1), or None when nothing lands on the canvas.
    """
    H, W = canvas.shape[:2]
    h, w = alpha.shape
    box = affine_bbox(m, w, h, (W, H))
    if box is None:
        return None
    x0, y0, x1, y1 = box
    pad = 4 if shadow > 0 else 0
    sx0, sy0, sx1, sy1 = max(0, x0 - pad), max(0, y0 - pad), min(W, x1 + pad), min(H, y1 + pad)
    local = m.astype(np.float64).copy()
    local[0, 2] -= sx0
    local[1, 2] -= sy0
    size = (sx1 - sx0, sy1 - sy0)
    a = cv2.warpAffine(alpha, local, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    roi = canvas[sy0:sy1, sx0:sx1]
    if shadow > 0:
        sh = np.float32([[1, 0, shadow_offset[0]], [0, 1, shadow_offset[1]]])
        s = cv2.warpAffine(a, sh, size, flags=cv2.INTER_LINEAR)
        s = cv2.GaussianBlur(s, (0, 0), 1.2).astype(np.float32) * (shadow / 255.0)
        roi *= (1.0 - s)[..., None]
    img = cv2.warpAffine(src, local, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    af = a.astype(np.float32)[..., None] * (1.0 / 255.0)
    roi[...] = roi * (1.0 - af) + img.astype(np.float32) * af
    if ids is not None:
        ids[sy0:sy1, sx0:sx1][a >= 128] = ident
    return sx0, sy0, sx1, sy1


def soft_blur(img: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian blur whose cost does not grow with sigma: large blurs run on a shrunk copy.

    Shadows and shading need blurs of several centimetres; at full resolution those are the
    slowest step of a scene, and a blur that wide has nothing left for the full grid to keep.
    """
    if sigma <= 3.0:
        return cv2.GaussianBlur(img, (0, 0), max(0.3, sigma))
    h, w = img.shape[:2]
    f = sigma / 2.0
    small = cv2.resize(img, (max(1, int(w / f)), max(1, int(h / f))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), 2.0)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


_BANK_SIZE = 1024


@functools.lru_cache(maxsize=1)
def _noise_bank() -> np.ndarray:
    return np.random.default_rng(20240).standard_normal((_BANK_SIZE, _BANK_SIZE, 3), dtype=np.float32)


def gaussian_noise(rng: np.random.Generator, h: int, w: int, channels: int = 3) -> np.ndarray:
    """Unit Gaussian noise (h, w, channels), float32: a random window of a fixed noise bank.

    Drawing a fresh 640×640×3 normal field costs more than the rest of the camera step;
    a window at a random offset, with random flips, of one bank drawn once per process is
    just as white and costs a copy. Determinism is kept: the bank has a fixed seed.
    """
    if h > _BANK_SIZE or w > _BANK_SIZE:
        return rng.standard_normal((h, w, channels), dtype=np.float32)
    bank = _noise_bank()
    y, x = int(rng.integers(0, _BANK_SIZE - h + 1)), int(rng.integers(0, _BANK_SIZE - w + 1))
    c = int(rng.integers(0, 4 - channels)) if channels < 3 else 0
    win = bank[y:y + h, x:x + w, c:c + channels]
    flip = int(rng.integers(0, 4))
    if flip & 1:
        win = win[::-1]
    if flip & 2:
        win = win[:, ::-1]
    return np.ascontiguousarray(win)
