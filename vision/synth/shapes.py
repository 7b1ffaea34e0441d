"""Suit symbols and small icons drawn as polygons and circles with OpenCV.

Suits are drawn here rather than taken from a font: fonts disagree on (or lack) the suit
glyphs, and a deck's suits are part of its design, so their proportions are style
parameters (``SuitShape``). Everything returns an anti-aliased coverage mask (uint8,
255 = ink) that the card renderer tints with the suit's colour.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

_SHIFT = 4
_ONE = 1 << _SHIFT


@dataclass(frozen=True)
class SuitShape:
    """Proportions of a deck's suit symbols (all relative to the symbol's height)."""

    heart: str = "curve"          # "curve" (the classic parametric heart) or "circles" (two lobes + point)
    heart_width: float = 1.0      # width / height of hearts and spades
    diamond_width: float = 0.74   # width / height of diamonds
    diamond_bulge: float = 1.0    # superellipse exponent: <1 concave sides, 1 straight, >1 convex
    club_lobe: float = 0.22       # club lobe radius / height
    stem_width: float = 0.26      # base width of spade and club stems / height
    stem_flare: float = 2.0       # how concave the stem's sides are (1 = straight)


def _pts(points: np.ndarray) -> np.ndarray:
    return np.round(np.asarray(points, np.float64) * _ONE).astype(np.int32).reshape(-1, 1, 2)


def fill_poly(mask: np.ndarray, points: np.ndarray, value: int = 255) -> None:
    """Fill one polygon given in float pixel coordinates, anti-aliased, sub-pixel exact."""
    cv2.fillPoly(mask, [_pts(points)], int(value), cv2.LINE_AA, _SHIFT)


def fill_circle(mask: np.ndarray, cx: float, cy: float, r: float, value: int = 255) -> None:
    cv2.circle(mask, (int(round(cx * _ONE)), int(round(cy * _ONE))), max(1, int(round(r * _ONE))),
               int(value), -1, cv2.LINE_AA, _SHIFT)


def _fit(points: np.ndarray, x0: float, y0: float, w: float, h: float) -> np.ndarray:
    """Scale points so their bounding box is exactly (x0, y0, w, h)."""
    lo, hi = points.min(axis=0), points.max(axis=0)
    span = np.maximum(hi - lo, 1e-9)
    return (points - lo) / span * np.array([w, h]) + np.array([x0, y0])


def _heart_curve(n: int = 72) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    x = 16 * np.sin(t) ** 3
    y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
    return np.stack([x, y], axis=1)


def _draw_heart(mask: np.ndarray, x0: float, y0: float, w: float, h: float, shape: SuitShape) -> None:
    if shape.heart == "curve":
        fill_poly(mask, _fit(_heart_curve(), x0, y0, w, h))
        return
    r = w / 4.0 * 1.04
    for cx in (x0 + r * 0.98, x0 + w - r * 0.98):
        fill_circle(mask, cx, y0 + r, r)
    fill_poly(mask, np.array([[x0 + 0.02 * w, y0 + r * 1.25], [x0 + w / 2, y0 + r * 0.7],
                              [x0 + w * 0.98, y0 + r * 1.25], [x0 + w / 2, y0 + h]]))


def _draw_stem(mask: np.ndarray, cx: float, top: float, bottom: float, width: float, flare: float) -> None:
    ys = np.linspace(top, bottom, 12)
    u = (ys - top) / max(bottom - top, 1e-6)
    half = 0.03 * (bottom - top) + (width / 2) * u ** flare
    left = np.stack([cx - half, ys], axis=1)
    right = np.stack([cx + half, ys], axis=1)[::-1]
    fill_poly(mask, np.concatenate([left, right]))


def _draw_spade(mask: np.ndarray, x0: float, y0: float, w: float, h: float, shape: SuitShape) -> None:
    body = h * 0.8
    flipped = np.zeros_like(mask)
    # a spade is a heart upside down: draw it the right way up and flip the mask
    hh, ww = mask.shape
    _draw_heart(flipped, ww - 1 - x0 - w, hh - 1 - y0 - body, w, body, shape)
    np.maximum(mask, flipped[::-1, ::-1], out=mask)
    _draw_stem(mask, x0 + w / 2, y0 + body * 0.55, y0 + h, shape.stem_width * h, shape.stem_flare)


def _draw_club(mask: np.ndarray, x0: float, y0: float, w: float, h: float, shape: SuitShape) -> None:
    r = shape.club_lobe * h
    d = 1.75 * r
    cx = x0 + w / 2
    top = (cx, y0 + r)
    left = (cx - d / 2, y0 + r + 0.866 * d)
    right = (cx + d / 2, y0 + r + 0.866 * d)
    for c in (top, left, right):
        fill_circle(mask, c[0], c[1], r)
    fill_poly(mask, np.array([top, left, right]))
    _draw_stem(mask, cx, left[1], y0 + h, shape.stem_width * h, shape.stem_flare)


def _draw_diamond(mask: np.ndarray, x0: float, y0: float, w: float, h: float, shape: SuitShape) -> None:
    t = np.linspace(0, 2 * np.pi, 64, endpoint=False)
    e = 2.0 / shape.diamond_bulge
    x = np.sign(np.cos(t)) * np.abs(np.cos(t)) ** e
    y = np.sign(np.sin(t)) * np.abs(np.sin(t)) ** e
    fill_poly(mask, _fit(np.stack([x, y], axis=1), x0, y0, w, h))


def suit_aspect(suit: str, shape: SuitShape) -> float:
    """Width / height of a suit symbol."""
    if suit == "D":
        return shape.diamond_width
    if suit == "C":
        return 3.75 * shape.club_lobe
    return shape.heart_width * (0.92 if suit == "S" else 1.0)


@functools.lru_cache(maxsize=4096)
def suit_mask(suit: str, height: int, shape: SuitShape) -> np.ndarray:
    """Anti-aliased mask of one suit symbol (``S H C D``), ``height`` pixels tall. Read-only."""
    height = max(3, int(height))
    width = max(2, int(round(height * suit_aspect(suit, shape))))
    pad = 1
    mask = np.zeros((height + 2 * pad, width + 2 * pad), np.uint8)
    draw = {"H": _draw_heart, "S": _draw_spade, "C": _draw_club, "D": _draw_diamond}[suit]
    draw(mask, pad, pad, width - 1, height - 1, shape)
    mask.flags.writeable = False
    return mask


def star_points(cx: float, cy: float, r_out: float, r_in: float, n: int = 5, phase: float = -np.pi / 2) -> np.ndarray:
    """Vertices of an n-pointed star (jokers' corner icon and art)."""
    a = phase + np.arange(2 * n) * np.pi / n
    r = np.where(np.arange(2 * n) % 2 == 0, r_out, r_in)
    return np.stack([cx + r * np.cos(a), cy + r * np.sin(a)], axis=1)


@functools.lru_cache(maxsize=512)
def star_mask(height: int) -> np.ndarray:
    height = max(3, int(height))
    mask = np.zeros((height, height), np.uint8)
    c = (height - 1) / 2
    fill_poly(mask, star_points(c, c * 1.08, c, c * 0.42))
    mask.flags.writeable = False
    return mask


def ring_star_mask(height: int) -> np.ndarray:
    """A star knocked out of a filled disc: a joker corner many printed decks use."""
    height = max(5, int(height))
    mask = np.zeros((height, height), np.uint8)
    c = (height - 1) / 2
    fill_circle(mask, c, c, c)
    fill_poly(mask, star_points(c, c * 1.04, c * 0.62, c * 0.26), 0)
    mask.flags.writeable = False
    return mask


def wheel_mask(height: int, spokes: int = 8) -> np.ndarray:
    """A medallion: a ring round a disc cut into ``spokes`` alternating inked sectors and a
    small hub, as the round joker corners of some French-pattern decks."""
    height = max(7, int(height))
    mask = np.zeros((height, height), np.uint8)
    c = (height - 1) / 2
    fill_circle(mask, c, c, c)
    fill_circle(mask, c, c, c * 0.84, 0)
    step = 2 * np.pi / (2 * spokes)
    for k in range(spokes):
        a = np.linspace(2 * k * step, (2 * k + 1) * step, 8)
        sector = np.vstack([[c, c], np.column_stack([c + c * 0.78 * np.cos(a), c + c * 0.78 * np.sin(a)])])
        fill_poly(mask, sector)
    fill_circle(mask, c, c, c * 0.22)
    mask.flags.writeable = False
    return mask


def crown_points(x0: float, y0: float, w: float, h: float, spikes: int = 3) -> np.ndarray:
    """A crown outline (court and joker art): a band with ``spikes`` points on top."""
    pts = [(x0, y0 + h)]
    for i in range(spikes):
        a = x0 + w * i / spikes
        pts += [(a, y0 + h * 0.25 if i == 0 else y0 + h * 0.55), (a + w / (2 * spikes), y0)]
    pts += [(x0 + w, y0 + h * 0.25), (x0 + w, y0 + h)]
    return np.array(pts, np.float64)
