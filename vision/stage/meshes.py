"""The scene's shapes as vertex arrays (float32): a card's grid, the table's quads, and the
unit sphere, cylinder and box that arms and hands are built from.

A card is a flat grid fine enough to bend (the vertex shader curves it); everything else is
placed by a matrix per instance, so each shape is uploaded once.
"""

from __future__ import annotations

import numpy as np

from vision.stage.table import CARD_H, CARD_W, CLOTH_CM, WOOD_CM


def card_grid(columns: int = 8, rows: int = 12) -> np.ndarray:
    """Triangles of a card lying in z = 0, centred, counter-clockwise seen from its face:
    (x, y, z) per vertex."""
    xs = np.linspace(-CARD_W / 2, CARD_W / 2, columns + 1)
    ys = np.linspace(-CARD_H / 2, CARD_H / 2, rows + 1)
    tris = []
    for i in range(columns):
        for j in range(rows):
            a, b = (xs[i], ys[j]), (xs[i + 1], ys[j])
            c, d = (xs[i + 1], ys[j + 1]), (xs[i], ys[j + 1])
            tris += [a, b, c, a, c, d]
    out = np.zeros((len(tris), 3), np.float32)
    out[:, :2] = tris
    return out


def table_quads() -> np.ndarray:
    """The cloth (z = 0) and the wood below it, as triangles of (x, y, z)."""
    def quad(half: float, z: float) -> list[tuple[float, float, float]]:
        a, b, c, d = (-half, -half, z), (half, -half, z), (half, half, z), (-half, half, z)
        return [a, b, c, a, c, d]
    return np.array(quad(WOOD_CM / 2, -0.25) + quad(CLOTH_CM / 2, 0.0), np.float32)


def sphere(rings: int = 10, segments: int = 16) -> np.ndarray:
    """A unit sphere: (x, y, z, nx, ny, nz) per vertex."""
    tris = []
    for i in range(rings):
        t0, t1 = np.pi * i / rings, np.pi * (i + 1) / rings
        for j in range(segments):
            p0, p1 = 2 * np.pi * j / segments, 2 * np.pi * (j + 1) / segments
            quad = [_polar(t0, p0), _polar(t1, p0), _polar(t1, p1), _polar(t0, p1)]
            tris += [quad[0], quad[1], quad[2], quad[0], quad[2], quad[3]]
    v = np.array(tris, np.float32)
    return np.concatenate([v, v], axis=1)


def _polar(theta: float, phi: float) -> tuple[float, float, float]:
    return (np.sin(theta) * np.cos(phi), np.sin(theta) * np.sin(phi), np.cos(theta))


def cylinder(segments: int = 16) -> np.ndarray:
    """A unit cylinder along +z from 0 to 1, open at its ends (spheres close an arm's)."""
    out = []
    for j in range(segments):
        p0, p1 = 2 * np.pi * j / segments, 2 * np.pi * (j + 1) / segments
        a = (np.cos(p0), np.sin(p0))
        b = (np.cos(p1), np.sin(p1))
        corners = [(*a, 0.0, *a, 0.0), (*b, 0.0, *b, 0.0), (*b, 1.0, *b, 0.0), (*a, 1.0, *a, 0.0)]
        out += [corners[0], corners[1], corners[2], corners[0], corners[2], corners[3]]
    return np.array(out, np.float32)


def box() -> np.ndarray:
    """A unit cube centred on the origin, with flat normals."""
    out = []
    for axis in range(3):
        for sign in (-1.0, 1.0):
            n = np.zeros(3)
            n[axis] = sign
            u, v = np.zeros(3), np.zeros(3)
            u[(axis + 1) % 3], v[(axis + 2) % 3] = 0.5, 0.5
            c = n * 0.5
            quad = [c - u - v, c + u - v, c + u + v, c - u + v]
            if sign < 0:
                quad = quad[::-1]
            for p in (quad[0], quad[1], quad[2], quad[0], quad[2], quad[3]):
                out.append((*p, *n))
    return np.array(out, np.float32)


def fullscreen() -> np.ndarray:
    """Two triangles over the whole viewport (x, y in clip space)."""
    return np.array([(-1, -1), (1, -1), (1, 1), (-1, -1), (1, 1), (-1, 1)], np.float32)
