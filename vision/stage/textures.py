"""The table's materials as pictures: felt cloth with the markers printed on it, and wood.

Drawn procedurally from a seed (numpy and OpenCV), in sRGB bytes; the shaders light them in
linear light. Felt is fibres over a mottled dye, not a flat colour: a flat cloth would make
a change detector's job easier than any real table does.
"""

from __future__ import annotations

import random

import cv2
import numpy as np

from vision.stage.table import CLOTH_CM, MARKER_BORDER_CM, MARKER_CENTRES, MARKER_CM

#: the cloth's picture: pixels per centimetre (a whole number, so the markers' cells fall on pixels)
CLOTH_PX_PER_CM = 24
#: tournament cloths: green, blue, red and grey felts (sRGB)
FELTS: dict[str, tuple[int, int, int]] = {
    "green": (34, 104, 58), "dark-green": (22, 72, 44), "blue": (32, 66, 122), "navy": (26, 40, 78),
    "red": (128, 30, 36), "wine": (88, 26, 38), "grey": (104, 106, 108), "charcoal": (58, 60, 64),
}
#: woods: oak, walnut, maple, teak (sRGB)
WOODS: dict[str, tuple[int, int, int]] = {
    "oak": (168, 124, 78), "walnut": (92, 62, 42), "maple": (204, 166, 118), "teak": (140, 92, 54),
}


def _noise(rng: np.random.Generator, size: int, cells: int, sigma: float = 0.0) -> np.ndarray:
    """Smooth noise in about [-1, 1]: a ``cells``×``cells`` grid of random values, upsampled."""
    grid = rng.standard_normal((cells, cells)).astype(np.float32)
    out = cv2.resize(grid, (size, size), interpolation=cv2.INTER_CUBIC)
    if sigma:
        out = cv2.GaussianBlur(out, (0, 0), sigma)
    return out / max(1e-6, float(np.abs(out).max()))


def felt(seed: int, colour: tuple[int, int, int]) -> np.ndarray:
    """The cloth (RGB bytes, row 0 at North, column 0 at West) with the four markers printed."""
    rng = np.random.default_rng(seed)
    n = int(CLOTH_CM * CLOTH_PX_PER_CM)
    base = np.array(colour, np.float32)
    small = n // 8  # the dye's slow variations, drawn small and enlarged
    tint = 1 + 0.03 * np.stack([_noise(rng, small, 5) for _ in range(3)], axis=-1)
    shade = 1 + 0.07 * _noise(rng, small, 6) + 0.04 * _noise(rng, small, 40)
    dye = cv2.resize(tint * shade[..., None] * base, (n, n), interpolation=cv2.INTER_LINEAR)
    weave = (np.sin(np.arange(n) * (2 * np.pi / 3.0)) * 0.025).astype(np.float32)
    fine = 1 + 0.05 * _noise(rng, n, 300) + weave[None, :] + weave[:, None]
    image = np.clip(cv2.multiply(dye, cv2.merge([fine, fine, fine])), 0, 255).astype(np.uint8)
    _fibres(rng, image, base / 255)
    _print_markers(image, rng)
    return image


def _fibres(rng: np.random.Generator, image: np.ndarray, base: np.ndarray) -> None:
    """Short curled fibres lighter and darker than the dye, drawn in place."""
    n = image.shape[0]
    count = n * n // 60
    for level in np.linspace(0.72, 1.3, 8):
        k = count // 8
        start = rng.uniform(0, n, (k, 2))
        angle = rng.uniform(0, np.pi, k)
        length = rng.uniform(3, 14, k)
        mid = start + np.column_stack([np.cos(angle), np.sin(angle)]) * (length / 2)[:, None]
        bend = rng.normal(0, 1.5, (k, 2))
        end = start + np.column_stack([np.cos(angle), np.sin(angle)]) * length[:, None] + bend
        lines = np.stack([start, mid + bend / 2, end], axis=1).round().astype(np.int32)
        colour = tuple(int(c) for c in np.clip(base * level * 255, 0, 255))
        cv2.polylines(image, list(lines), False, colour, 1, cv2.LINE_AA)


def marker_picture(marker: int, px_per_cm: int) -> np.ndarray:
    """An ArUco marker of DICT_4X4_50 with its white border (grey bytes, top row North)."""
    aruco = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    inner = cv2.aruco.generateImageMarker(aruco, marker, int(MARKER_CM * px_per_cm))
    pad = int(MARKER_BORDER_CM * px_per_cm)
    return cv2.copyMakeBorder(inner, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255)


def _print_markers(image: np.ndarray, rng: np.random.Generator) -> None:
    """Print the markers onto the cloth in place: the ink takes the felt's texture (its fibres
    show through both inks), white ink a little off-white."""
    p = CLOTH_PX_PER_CM
    half = CLOTH_CM / 2
    for marker, (cx, cy) in MARKER_CENTRES.items():
        picture = marker_picture(marker, p).astype(np.float32) / 255
        side = picture.shape[0]
        col, row = int(round((cx + half) * p)) - side // 2, int(round((half - cy) * p)) - side // 2
        patch = image[row:row + side, col:col + side].astype(np.float32)
        texture = patch.mean(axis=-1, keepdims=True)
        texture = 0.85 + 0.15 * texture / max(1.0, float(texture.mean()))
        white = np.array([226, 224, 216], np.float32) * rng.uniform(0.95, 1.0)
        black = np.array([24, 24, 26], np.float32)
        ink = black + (white - black) * picture[..., None]
        image[row:row + side, col:col + side] = np.clip(ink * texture, 0, 255).astype(np.uint8)


def wood(seed: int, colour: tuple[int, int, int], size: int = 1024) -> np.ndarray:
    """A wooden tabletop of planks (RGB bytes), grain along the rows."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:size, 0:size].astype(np.float32)
    k = size / 2048  # the grain's scale is set for a 2048-pixel picture of the wood
    warp = (40 * _noise(rng, size, 5) + 10 * _noise(rng, size, 24)) * k
    plank_px = size / rng.integers(14, 24)
    plank = np.floor((y + 0.15 * warp) / plank_px)
    offset = (plank * 7919.0) % 97
    figure = 6 * k * _noise(rng, size, 10) * (1 + 0.5 * np.sin(x / size * 9 + plank))
    grain = np.sin((y + warp + offset * 5 * k + figure) * (2 * np.pi / (rng.uniform(22, 40) * k)))
    rings = 0.5 + 0.5 * np.sign(grain) * np.abs(grain) ** 0.6
    fine = _noise(rng, size, 512)
    per_plank = 1 + 0.08 * np.sin(plank * 12.9898 + offset)
    shade = per_plank * (0.84 + 0.16 * rings) * (1 + 0.04 * fine)
    seam = np.abs(((y + 0.15 * warp) % plank_px) - plank_px / 2) > plank_px / 2 - max(0.7, 1.2 * k)
    shade = np.where(seam, shade * 0.55, shade)
    base = np.array(colour, np.float32)
    image = base * shade[..., None]
    image[..., 2] *= 0.92 + 0.08 * rings  # the dark grain is a little redder
    return np.clip(image, 0, 255).astype(np.uint8)


def table_style(rng: random.Random) -> tuple[str, str]:
    """A cloth and a wood for a table."""
    return rng.choice(sorted(FELTS)), rng.choice(sorted(WOODS))
