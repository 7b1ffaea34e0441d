"""Things on the table that are not face-up cards: hands and arms, face-down piles, phones,
cups, chips, score sheets, pens, coins and stray ArUco markers.

They teach the detector what is *not* an index (a score sheet full of handwritten digits
is the classic false positive) and they hide indices, which is where labels must follow
the pixels: every prop paints ``OCCLUDER`` into the scene's ID mask wherever it is opaque,
so an index under a thumb loses its label exactly as far as the thumb covers it.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.synth import fonts
from vision.synth.deck import Deck, back_image
from vision.synth.labels import OCCLUDER
from vision.synth.raster import gaussian_noise, paste_affine, rotation, rounded_rect_mask, soft_blur, stamp
from vision.synth.shapes import fill_circle, fill_poly

SKINS = ((150, 180, 225), (120, 160, 215), (95, 135, 190), (70, 105, 160), (50, 75, 115), (165, 190, 230))
CLOTH = ((40, 40, 40), (150, 60, 30), (200, 200, 200), (40, 40, 140), (60, 110, 60), (120, 120, 160), (90, 60, 50))


def _paste_patch(canvas: np.ndarray, ids: np.ndarray, patch: tuple[np.ndarray, np.ndarray], rng: np.random.Generator,
                 centre: tuple[float, float], shadow: float = 0.45, ppc: float = 10.0) -> None:
    bgr, alpha = patch
    h, w = alpha.shape
    m = rotation(rng.uniform(-180, 180), 1.0, (w / 2, h / 2), centre)
    off = (rng.uniform(0.1, 0.5) * ppc, rng.uniform(0.1, 0.5) * ppc)
    paste_affine(canvas, ids, bgr, alpha, m, OCCLUDER, shadow=shadow, shadow_offset=off)


# ------------------------------------------------------------------------------ patches

def _blank(w_cm: float, h_cm: float, ppc: float) -> tuple[np.ndarray, int, int]:
    w, h = max(3, int(round(w_cm * ppc))), max(3, int(round(h_cm * ppc)))
    return np.zeros((h, w, 3), np.float32), w, h


def phone_patch(rng: np.random.Generator, ppc: float) -> tuple[np.ndarray, np.ndarray]:
    img, w, h = _blank(rng.uniform(6.8, 7.8), rng.uniform(14, 16.5), ppc)
    body = rng.choice([(25, 25, 25), (200, 200, 205), (60, 50, 45), (150, 170, 190)]).astype(np.float32)
    img[...] = body
    inset = int(round(0.35 * ppc))
    screen = img[inset:h - inset, inset:w - inset]
    sh, sw = screen.shape[:2]
    if sh > 2 and sw > 2:
        if rng.random() < 0.5:  # dark screen with a sky reflection
            g = np.linspace(0, 1, sh, dtype=np.float32)[:, None, None]
            screen[...] = 15 + g * rng.uniform(10, 60)
        else:  # lit screen: an app of blocks and lines
            screen[...] = rng.choice([(245, 245, 245), (40, 30, 30), (235, 225, 210)])
            for _ in range(int(rng.integers(3, 9))):
                y0 = int(rng.integers(0, sh))
                x0 = int(rng.integers(0, max(1, sw // 2)))
                colour = tuple(float(v) for v in rng.integers(0, 255, 3))
                x1, y1 = int(x0 + rng.uniform(0.2, 0.9) * sw), int(y0 + rng.uniform(0.3, 1.5) * ppc)
                cv2.rectangle(screen, (x0, y0), (x1, y1), colour, -1)
    alpha = rounded_rect_mask(w, h, 0.9 * ppc)
    return img, alpha


def cup_patch(rng: np.random.Generator, ppc: float) -> tuple[np.ndarray, np.ndarray]:
    r = rng.uniform(3.6, 4.6) * ppc
    img, w, h = _blank(2 * r / ppc + 3.2, 2 * r / ppc + 0.2, ppc)
    alpha = np.zeros((h, w), np.uint8)
    cx, cy = r + 0.1 * ppc, h / 2
    rim = np.asarray(rng.choice([(235, 235, 235), (60, 140, 200), (180, 90, 40), (30, 30, 30)]), np.float32)
    liquid = np.asarray(rng.choice([(40, 90, 150), (20, 40, 70), (120, 160, 170), (60, 120, 90)]), np.float32)
    handle = np.zeros((h, w), np.uint8)
    cv2.rectangle(handle, (int(cx + r * 0.8), int(cy - 0.6 * ppc)), (int(cx + r + 2.8 * ppc), int(cy + 0.6 * ppc)),
                  255, -1)
    fill_circle(alpha, cx, cy, r)
    alpha = np.maximum(alpha, handle)
    img[...] = rim
    inner = np.zeros((h, w), np.uint8)
    fill_circle(inner, cx, cy, r * rng.uniform(0.82, 0.9))
    stamp(img, inner, tuple(liquid), 0, 0)
    hl = np.zeros((h, w), np.uint8)
    cv2.ellipse(hl, (int(cx - r * 0.3), int(cy - r * 0.3)), (max(1, int(r * 0.25)), max(1, int(r * 0.12))), -30, 0, 360,
                255, -1, cv2.LINE_AA)
    stamp(img, cv2.GaussianBlur(hl, (0, 0), max(0.5, r * 0.05)), (250, 250, 250), 0, 0, opacity=0.7)
    return img, alpha


def chip_patch(rng: np.random.Generator, ppc: float) -> tuple[np.ndarray, np.ndarray]:
    r = rng.uniform(1.7, 2.1) * ppc
    img, w, h = _blank(2 * r / ppc + 0.2, 2 * r / ppc + 0.2, ppc)
    alpha = np.zeros((h, w), np.uint8)
    c = w / 2
    fill_circle(alpha, c, c, r)
    colour = np.asarray(rng.choice([(40, 40, 200), (200, 80, 30), (40, 150, 40), (30, 30, 30), (230, 230, 230)]),
                        np.float32)
    img[...] = colour
    marks = np.zeros((h, w), np.uint8)
    for k in range(8):
        a = k * np.pi / 4
        p = np.array([[np.cos(a + d) * rr + c, np.sin(a + d) * rr + c] for d, rr in
                      ((-0.15, r * 0.72), (0.15, r * 0.72), (0.15, r * 0.98), (-0.15, r * 0.98))])
        fill_poly(marks, p)
    fill_circle(marks, c, c, r * 0.55)
    stamp(img, marks, (235, 235, 235), 0, 0)
    inner = np.zeros((h, w), np.uint8)
    fill_circle(inner, c, c, r * 0.45)
    stamp(img, inner, tuple(colour * 0.85), 0, 0)
    return img, alpha


def sheet_patch(rng: np.random.Generator, ppc: float) -> tuple[np.ndarray, np.ndarray]:
    """A score sheet: ruled paper with handwritten digits, letters and ranks (hard negatives)."""
    img, w, h = _blank(rng.uniform(12, 15.5), rng.uniform(17, 22), ppc)
    img[...] = np.asarray(rng.choice([(245, 245, 245), (215, 235, 245), (235, 240, 240)]), np.float32)
    line = (200.0, 170.0, 140.0) if rng.random() < 0.6 else (170.0, 170.0, 170.0)
    step = rng.uniform(0.7, 1.0) * ppc
    y = 1.5 * ppc
    while y < h - 0.3 * ppc:
        cv2.line(img, (0, int(y)), (w, int(y)), line, 1, cv2.LINE_AA)
        y += step
    if rng.random() < 0.5:
        for x in (w * 0.35, w * 0.67):
            cv2.line(img, (int(x), int(1.5 * ppc)), (int(x), h), line, 1, cv2.LINE_AA)
    ink = (120.0, 50.0, 20.0) if rng.random() < 0.5 else (30.0, 30.0, 30.0)
    scripts = fonts.script_fonts()
    font = scripts[int(rng.integers(len(scripts)))]
    words = ["A", "K", "Q", "J", "10", "2", "3", "5", "7", "9", "E/W", "S/N", "+2", "-1", "A+", "Round 3", "12",
             "8", "Lv 6", "OK"]
    y = 1.5 * ppc
    while y < h - step:
        x = rng.uniform(0.3, 1.5) * ppc
        for _ in range(int(rng.integers(1, 4))):
            text = str(rng.choice(words))
            m = fonts.text_mask(font, text, step * rng.uniform(0.45, 0.7), 1.0, rng.uniform(0.0, 0.25))
            stamp(img, m, ink, int(x), int(y - m.shape[0] - 0.1 * ppc))
            x += m.shape[1] + rng.uniform(0.8, 3.0) * ppc
        y += step
    return img, np.full((h, w), 255, np.uint8)


def pen_patch(rng: np.random.Generator, ppc: float) -> tuple[np.ndarray, np.ndarray]:
    img, w, h = _blank(rng.uniform(0.8, 1.2), rng.uniform(12, 15), ppc)
    colour = np.asarray(rng.choice([(30, 30, 30), (160, 60, 20), (30, 30, 180), (220, 220, 220)]), np.float32)
    shade = 0.7 + 0.3 * np.sin(np.linspace(0, np.pi, w, dtype=np.float32))
    img[...] = colour * shade[None, :, None]
    img[: int(h * 0.25)] = np.asarray(rng.choice([(200, 200, 200), (30, 30, 30)]), np.float32)
    return img, rounded_rect_mask(w, h, w / 2)


def marker_patch(rng: np.random.Generator, ppc: float) -> tuple[np.ndarray, np.ndarray]:
    """An ArUco-like square (the table's calibration markers can enter a zone image)."""
    img, w, h = _blank(8.0, 8.0, ppc)
    img[...] = 245
    cells = rng.integers(0, 2, (6, 6))
    cells[0, :] = cells[-1, :] = cells[:, 0] = cells[:, -1] = 0
    grid = cv2.resize((cells * 255).astype(np.uint8), (int(6 * ppc), int(6 * ppc)), interpolation=cv2.INTER_NEAREST)
    inner = img[int(ppc): int(ppc) + grid.shape[0], int(ppc): int(ppc) + grid.shape[1]]
    inner[...] = np.where(grid[..., None] > 0, 245.0, 20.0)
    return img, np.full((h, w), 255, np.uint8)


def coin_patch(rng: np.random.Generator, ppc: float) -> tuple[np.ndarray, np.ndarray]:
    r = rng.uniform(1.0, 1.3) * ppc
    img, w, h = _blank(2 * r / ppc + 0.2, 2 * r / ppc + 0.2, ppc)
    alpha = np.zeros((h, w), np.uint8)
    fill_circle(alpha, w / 2, h / 2, r)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    g = 0.75 + 0.25 * np.cos((xx + yy) / max(1.0, r) * 1.5)
    base = np.asarray(rng.choice([(80, 160, 200), (190, 190, 190), (60, 110, 150)]), np.float32)
    img[...] = base * g[..., None]
    return img, alpha


PATCHES = {"phone": phone_patch, "cup": cup_patch, "chips": chip_patch, "sheet": sheet_patch,
           "pen": pen_patch, "marker": marker_patch, "coin": coin_patch}
PATCH_P = {"phone": 0.16, "cup": 0.14, "chips": 0.18, "sheet": 0.2, "pen": 0.12, "marker": 0.08, "coin": 0.12}


def paint_distractor(canvas: np.ndarray, ids: np.ndarray, rng: np.random.Generator, ppc: float,
                     centre: tuple[float, float]) -> str:
    """Paint one random prop centred at ``centre``; returns its kind."""
    names = list(PATCHES)
    p = np.array([PATCH_P[n] for n in names])
    kind = names[int(rng.choice(len(names), p=p / p.sum()))]
    count = int(rng.integers(1, 5)) if kind in ("chips", "coin") else 1
    for _ in range(count):
        c = (centre[0] + rng.normal(0, 1.5) * ppc * (count > 1), centre[1] + rng.normal(0, 1.5) * ppc * (count > 1))
        _paste_patch(canvas, ids, PATCHES[kind](rng, ppc), rng, c, shadow=rng.uniform(0.2, 0.5), ppc=ppc)
    return kind


# ------------------------------------------------------------------------------ piles

def paint_pile(canvas: np.ndarray, ids: np.ndarray, rng: np.random.Generator, style: Deck, level: float,
               ppc: float, centre: tuple[float, float]) -> None:
    """A face-down pile of played cards (card backs, loosely squared)."""
    back = back_image(style, level)
    h, w = back.alpha.shape
    base = rng.uniform(-180, 180)
    messy = rng.uniform(3, 30)
    for _ in range(int(rng.integers(2, 12))):
        m = rotation(base + rng.normal(0, messy), ppc / level, (w / 2, h / 2),
                     (centre[0] + rng.normal(0, 0.6) * ppc, centre[1] + rng.normal(0, 0.6) * ppc))
        paste_affine(canvas, ids, back.bgr, back.alpha, m, OCCLUDER, shadow=0.3)


# ------------------------------------------------------------------------------ hands

def _edge_point(rng: np.random.Generator, size: tuple[int, int], side: int, margin: float) -> np.ndarray:
    w, h = size
    t = rng.uniform(0.1, 0.9)
    return np.array([(t * w, -margin), (w + margin, t * h), (t * w, h + margin), (-margin, t * h)][side])


def hand_mask(rng: np.random.Generator, size: tuple[int, int], ppc: float,
              target: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """Masks (arm+hand, sleeve) of an arm reaching from an image edge to ``target``."""
    w, h = size
    side = 2 if rng.random() < 0.45 else int(rng.integers(0, 4))  # the owner's own hand comes from below
    p0 = _edge_point(rng, size, side, 3 * ppc)
    p1 = np.asarray(target, np.float64)
    d = p1 - p0
    dist = float(np.hypot(*d)) or 1.0
    u = d / dist
    n = np.array([-u[1], u[0]])
    arm_w = rng.uniform(5.5, 8.0) * ppc
    palm_l, palm_w = rng.uniform(8.0, 10.0) * ppc, rng.uniform(7.5, 9.0) * ppc
    wrist = p1 - u * palm_l * 0.45
    mask = np.zeros((h, w), np.uint8)

    def line(a: np.ndarray, b: np.ndarray, thick: float, target_mask: np.ndarray = mask) -> None:
        cv2.line(target_mask, (int(a[0] * 16), int(a[1] * 16)), (int(b[0] * 16), int(b[1] * 16)), 255,
                 max(1, int(thick)), cv2.LINE_AA, 4)

    line(p0, wrist, arm_w)
    angle = float(np.degrees(np.arctan2(u[1], u[0])))
    cv2.ellipse(mask, (int(p1[0] * 16), int(p1[1] * 16)), (int(palm_l * 8), int(palm_w * 8)), angle, 0, 360, 255, -1,
                cv2.LINE_AA, 4)
    if rng.random() < 0.75:  # an open hand: fingers and a thumb; otherwise a fist
        front = p1 + u * palm_l * 0.4
        spread = rng.uniform(0.05, 0.35)
        for k in range(4):
            a = (k - 1.5) * spread
            dir_k = u * np.cos(a) + n * np.sin(a)
            base = front + n * (k - 1.5) * palm_w * 0.22
            line(base, base + dir_k * rng.uniform(5.0, 7.5) * ppc, rng.uniform(1.5, 2.0) * ppc)
        side_sign = 1 if rng.random() < 0.5 else -1
        tb = p1 + n * side_sign * palm_w * 0.4
        line(tb, tb + (u * 0.6 + n * side_sign * 0.8) * rng.uniform(4.0, 6.0) * ppc, 2.2 * ppc)
    sleeve = np.zeros((h, w), np.uint8)
    if rng.random() < 0.7:
        line(p0, p0 + u * dist * rng.uniform(0.2, 0.6), arm_w * 1.3, sleeve)
    return mask, sleeve


def paint_hand(canvas: np.ndarray, ids: np.ndarray, rng: np.random.Generator, ppc: float,
               target: tuple[float, float]) -> None:
    """An arm and hand (skin tones, optional sleeve) with its soft shadow, over everything."""
    h, w = canvas.shape[:2]
    mask, sleeve = hand_mask(rng, (w, h), ppc, target)
    both = np.maximum(mask, sleeve)
    # the shadow falls first, offset and soft
    off = rng.uniform(1.0, 4.0) * ppc
    a = rng.uniform(0, 2 * np.pi)
    sh = cv2.warpAffine(both, np.float32([[1, 0, off * np.cos(a)], [0, 1, off * np.sin(a)]]), (w, h))
    sh = soft_blur(sh, max(1.0, 0.8 * ppc)).astype(np.float32) * (rng.uniform(0.25, 0.55) / 255)
    canvas *= (1 - sh)[..., None]
    skin = np.asarray(SKINS[int(rng.integers(len(SKINS)))], np.float32) * rng.uniform(0.85, 1.1)
    cloth = np.asarray(CLOTH[int(rng.integers(len(CLOTH)))], np.float32)
    ys, xs = np.nonzero(both)
    if len(xs) == 0:
        return
    pad = int(2 * ppc)
    x0, y0 = max(0, xs.min() - pad), max(0, ys.min() - pad)
    x1, y1 = min(w, xs.max() + pad + 1), min(h, ys.max() + pad + 1)
    roi = canvas[y0:y1, x0:x1]
    m, sl = mask[y0:y1, x0:x1], sleeve[y0:y1, x0:x1]
    # skin: darker toward the silhouette's edges (a cylinder lit from above)
    roundness = soft_blur(m, max(1.0, 1.2 * ppc)).astype(np.float32) / 255
    shade = (0.7 + 0.35 * roundness)[..., None]
    colour = skin * shade + gaussian_noise(rng, y1 - y0, x1 - x0, 1) * 3
    am = m.astype(np.float32)[..., None] / 255
    roi[...] = roi * (1 - am) + colour * am
    if sl.any():
        ss = sl.astype(np.float32)[..., None] / 255
        sround = soft_blur(sl, max(1.0, 1.5 * ppc)).astype(np.float32)[..., None] / 255
        roi[...] = roi * (1 - ss) + cloth * (0.65 + 0.4 * sround) * ss
    ids[both >= 128] = OCCLUDER
