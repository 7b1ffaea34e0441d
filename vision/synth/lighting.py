"""Light on the table: uneven illumination, soft shadows, glare and colour casts.

These act on the scene before the camera sees it (they are physics, not sensor), on
float32 BGR canvases in place. Glare is strongest on cards, which are glossy where felt is
not; it may wash an index out partly, as in a real hall under spotlights, but is kept
below full white so that a labelled index is never erased outright.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.synth.raster import soft_blur
from vision.synth.surface import smooth_noise


def uneven_light(img: np.ndarray, rng: np.random.Generator, strength: float) -> None:
    """Multiply by a smooth field: a lamp's falloff plus large, soft variations.

    The field is computed on a 1/8 grid and upsampled: it has no detail to lose.
    """
    h, w = img.shape[:2]
    sw, sh = max(2, w // 8), max(2, h // 8)
    xx = np.linspace(0, 1, sw, dtype=np.float32)[None, :]
    yy = np.linspace(0, 1, sh, dtype=np.float32)[:, None]
    a = rng.uniform(0, 2 * np.pi)
    ramp = ((xx - 0.5) * np.cos(a) + (yy - 0.5) * np.sin(a)) * rng.uniform(0, 0.6)
    cx, cy = rng.uniform(-0.3, 1.3), rng.uniform(-0.3, 1.3)
    spot = np.exp(-(((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * rng.uniform(0.4, 1.2) ** 2)))
    field = 1 + strength * (ramp + 0.5 * (spot - 0.5) + 0.25 * smooth_noise(rng, (sw, sh), 3))
    field = cv2.resize(np.clip(field, 0.4, 1.3).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    img *= field[..., None]


def soft_shadow(img: np.ndarray, rng: np.random.Generator, ppc: float) -> None:
    """A large blurred shadow (a player's head or body, a lamp arm) over part of the zone."""
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    n = int(rng.integers(5, 10))
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    r = rng.uniform(0.2, 0.6) * max(w, h)
    ang = np.sort(rng.uniform(0, 2 * np.pi, n))
    radii = r * rng.uniform(0.5, 1.2, n)
    pts = np.stack([cx + radii * np.cos(ang), cy + radii * np.sin(ang)], 1)
    cv2.fillPoly(mask, [pts.astype(np.int32)], 255)
    blur = max(1.0, rng.uniform(1.0, 4.0) * ppc)
    s = soft_blur(mask, blur).astype(np.float32) * (rng.uniform(0.2, 0.55) / 255)
    img *= (1 - s)[..., None]


def glare(img: np.ndarray, rng: np.random.Generator, gloss: np.ndarray, ppc: float) -> None:
    """Specular highlights: soft bright ellipses, stronger where ``gloss`` (0..1) is high."""
    h, w = img.shape[:2]
    layer = np.zeros((h, w), np.float32)
    for _ in range(int(rng.integers(1, 3))):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        ax = rng.uniform(2, 14) * ppc
        ay = ax * rng.uniform(0.15, 0.8)
        cv2.ellipse(layer, (int(cx), int(cy)), (max(1, int(ax)), max(1, int(ay))), rng.uniform(0, 180), 0, 360,
                    float(rng.uniform(0.3, 0.75)), -1)
    layer = soft_blur(layer, max(1.0, rng.uniform(0.5, 2.5) * ppc))
    k = (layer * (0.25 + 0.75 * gloss))[..., None]
    img[...] = img * (1 - k) + 255.0 * k


def colour_cast(img: np.ndarray, rng: np.random.Generator) -> None:
    """White balance and exposure: warm tungsten, cool LEDs, slightly under or over."""
    gains = np.array([rng.uniform(0.85, 1.1), 1.0, rng.uniform(0.9, 1.12)], np.float32) * rng.uniform(0.75, 1.1)
    img *= gains
