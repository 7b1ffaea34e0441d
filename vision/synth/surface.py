"""The table under the cards: felt, wood, printed cloth and play mats with markings.

The background is most of every image, and a detector trained on one flat green learns
that "not green" means "card". So the surface varies in colour (including white cloth,
the hardest case), in texture (grain, weave, mottling) and carries printed lines and
letters, all scaled in cm so that a weave stays a weave at any px/cm.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.synth import fonts
from vision.synth.raster import gaussian_noise, stamp

# BGR base colours of tables seen at card games, and how often each kind appears
FELTS = ((55, 115, 25), (40, 80, 20), (70, 120, 60), (130, 75, 20), (95, 45, 20), (45, 45, 150),
         (55, 35, 110), (105, 105, 105), (38, 38, 38), (150, 140, 120), (70, 70, 70))
WOODS = ((60, 105, 160), (40, 70, 115), (90, 140, 190), (30, 45, 70))
CLOTHS = ((225, 225, 225), (200, 215, 230), (230, 205, 170), (180, 200, 190))
KINDS = ("felt", "wood", "cloth", "mat")
KIND_P = (0.5, 0.2, 0.12, 0.18)


def smooth_noise(rng: np.random.Generator, size: tuple[int, int], cells: int) -> np.ndarray:
    """Low-frequency noise in about -1..1: a cells×cells random grid, upsampled smoothly."""
    w, h = size
    grid = rng.standard_normal((cells + 1, cells + 1)).astype(np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)


def _jitter(rng: np.random.Generator, colour: tuple[float, ...], amount: float) -> np.ndarray:
    c = np.asarray(colour, np.float32) * rng.uniform(1 - amount, 1 + amount)
    return np.clip(c + rng.normal(0, 8, 3), 5, 250).astype(np.float32)


def _axes(w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    """Pixel coordinates as a row and a column: broadcasting them is cheaper than a mesh grid."""
    return np.arange(w, dtype=np.float32)[None, :], np.arange(h, dtype=np.float32)[:, None]


def _weave(rng: np.random.Generator, w: int, h: int, ppc: float) -> np.ndarray | None:
    period = rng.uniform(0.08, 0.3) * ppc
    if period < 2.2:  # finer than the pixels: only noise survives sampling
        return None
    xx, yy = _axes(w, h)
    a = rng.uniform(0, np.pi)
    k = np.float32(2 * np.pi / period)
    ca, sa = np.float32(np.cos(a)) * k, np.float32(np.sin(a)) * k
    # sin(u)·sin(v) with u, v the weave's rotated axes, as sums of outer products
    su = np.sin(xx * ca) * np.cos(yy * sa) + np.cos(xx * ca) * np.sin(yy * sa)
    sv = np.sin(yy * ca) * np.cos(xx * sa) - np.cos(yy * ca) * np.sin(xx * sa)
    return su * sv


def table_surface(rng: np.random.Generator, size: tuple[int, int], ppc: float) -> np.ndarray:
    """A table surface of ``size`` (W, H) at ``ppc`` pixels per cm, float32 BGR."""
    w, h = size
    kind = KINDS[int(rng.choice(len(KINDS), p=KIND_P))]
    img = np.empty((h, w, 3), np.float32)
    if kind == "wood":
        base = _jitter(rng, WOODS[int(rng.integers(len(WOODS)))], 0.15)
        a = rng.uniform(0, np.pi)
        xx, yy = _axes(w, h)
        across = xx * np.float32(-np.sin(a)) + yy * np.float32(np.cos(a))
        warp = smooth_noise(rng, size, 3) * rng.uniform(0.5, 2.0) * ppc
        grain = np.sin((across + warp) * 2 * np.pi / (rng.uniform(0.4, 1.5) * ppc))
        fine = cv2.GaussianBlur(gaussian_noise(rng, h, w, 1)[..., 0], (0, 0), sigmaX=max(0.6, ppc * 0.4), sigmaY=0.3)
        shade = 1 + 0.08 * grain + 0.05 * fine
        img[...] = base * shade[..., None]
        if rng.random() < 0.5:  # plank joints
            period = rng.uniform(8, 20) * ppc
            joints = (np.abs(across % period) < max(1.0, 0.08 * ppc))
            img[joints] *= 0.6
    elif kind == "cloth":
        base = _jitter(rng, CLOTHS[int(rng.integers(len(CLOTHS)))], 0.05)
        img[...] = base
        if rng.random() < 0.6:  # gingham or a printed check
            p = rng.uniform(1.0, 4.0) * ppc
            xx, yy = _axes(w, h)
            tint = _jitter(rng, FELTS[int(rng.integers(len(FELTS)))], 0.2)
            band = ((xx // p) % 2 == 0).astype(np.float32) + ((yy // p) % 2 == 0).astype(np.float32)
            t = (band * rng.uniform(0.12, 0.3))[..., None]
            img[...] = img * (1 - t) + tint * t
    else:
        img[...] = _jitter(rng, FELTS[int(rng.integers(len(FELTS)))], 0.2)
    # mottling, weave and grain noise on every kind
    img *= (1 + rng.uniform(0.02, 0.08) * smooth_noise(rng, size, int(rng.integers(2, 7))))[..., None]
    weave = _weave(rng, w, h, ppc) if kind in ("felt", "mat", "cloth") else None
    if weave is not None:
        img += (weave * rng.uniform(2, 9))[..., None]
    img += gaussian_noise(rng, h, w, 1) * np.float32(rng.uniform(1.5, 6))
    if kind == "mat":
        _mat_markings(rng, img, ppc)
    return img


def _mat_markings(rng: np.random.Generator, img: np.ndarray, ppc: float) -> None:
    """Printed lines and lettering of a card-table mat (zone borders, seat letters, logos)."""
    h, w = img.shape[:2]
    colour = tuple(float(v) for v in rng.choice([(230, 230, 230), (40, 190, 230), (30, 30, 30), (200, 200, 120)]))
    thick = max(1, int(round(rng.uniform(0.15, 0.5) * ppc)))
    for _ in range(int(rng.integers(1, 4))):
        if rng.random() < 0.5:
            x = int(rng.integers(0, w))
            cv2.line(img, (x, -10), (x + int(rng.normal(0, w * 0.1)), h + 10), colour, thick, cv2.LINE_AA)
        else:
            y = int(rng.integers(0, h))
            cv2.line(img, (-10, y), (w + 10, y + int(rng.normal(0, h * 0.1))), colour, thick, cv2.LINE_AA)
    if rng.random() < 0.6:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(4, 15) * ppc
        cv2.circle(img, (int(cx), int(cy)), int(r), colour, thick, cv2.LINE_AA)
    if rng.random() < 0.6:
        cat = fonts.script_fonts()
        font = cat[int(rng.integers(len(cat)))]
        text = str(rng.choice(["S", "N", "E", "W", "SOUTH", "NORTH", "EAST", "WEST", "GUANDAN", "CLUB 2024"]))
        cjk = fonts.cjk_font()
        if cjk is not None and rng.random() < 0.4:
            font, text = cjk, str(rng.choice(["南", "北", "东", "西", "掼蛋", "比赛专用"]))
        m = fonts.text_mask(font, text, rng.uniform(1.0, 4.0) * ppc)
        stamp(img, m, colour, int(rng.uniform(-0.2, 1.0) * w), int(rng.uniform(-0.2, 1.0) * h), opacity=0.85)
