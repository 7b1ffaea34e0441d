"""The lamps' light on the table's plane, worked out once per game.

Lamps and camera stay put through a game, so what each lamp sheds on each point of the
cloth and wood (its spot, its fall-off with distance, the angle it strikes at) and the
highlight it makes there toward the camera are the same in every frame. Working them out
afresh for every pixel of every frame is what a CPU rasteriser cannot afford; a baked map
read with one texture fetch is. Only the lamps' brightness (drifting), the shadows
(moving) and the cards and arms (small) are lit per frame.
"""

from __future__ import annotations

import numpy as np

from vision.stage.frame import Lamp

#: the square of table a lamp's shadow map covers (cm, centred)
SHADOW_REACH = 150.0
#: the baked map's side in pixels and the half-width it covers (cm)
BAKE_PX = 512
BAKE_HALF = 300.0
#: the spot's light outside its cone, as a share of the inside's (a lampshade's spill)
SPILL = 0.18
#: the cloth's and the wood's specular strength and shininess (Blinn-Phong)
CLOTH_GLOSS = (0.015, 4.0)
WOOD_GLOSS = (0.08, 40.0)


def smoothstep(edge0: float, edge1: float, x: np.ndarray) -> np.ndarray:
    t = np.clip((x - edge0) / (edge1 - edge0), 0.0, 1.0)
    return t * t * (3 - 2 * t)


def spot(lamp: Lamp, to_lamp: np.ndarray) -> np.ndarray:
    """The shade's factor for light leaving ``lamp`` along minus the unit vectors ``to_lamp``."""
    axis = np.asarray(lamp.axis, float) / np.linalg.norm(lamp.axis)
    inner, outer = np.cos(np.radians(lamp.cone[0])), np.cos(np.radians(lamp.cone[1]))
    return SPILL + (1 - SPILL) * smoothstep(outer, inner, -(to_lamp @ axis))


def table_bake(lamps: tuple[Lamp, ...], eye: np.ndarray, cloth_half: float) -> np.ndarray:
    """Per point of the table's plane (rows from −y, columns from −x): each of up to two
    lamps' irradiance per unit of its level (times its height squared, so a level is the
    light straight below it) and its highlight toward ``eye``; (BAKE_PX, BAKE_PX, 4) as
    (light 0, light 1, highlight 0, highlight 1)."""
    c = (np.arange(BAKE_PX) + 0.5) / BAKE_PX * 2 * BAKE_HALF - BAKE_HALF
    x, y = np.meshgrid(c, c)
    p = np.stack([x, y, np.zeros_like(x)], axis=-1).reshape(-1, 3)
    cloth = (np.abs(p[:, 0]) <= cloth_half) & (np.abs(p[:, 1]) <= cloth_half)
    ks = np.where(cloth, CLOTH_GLOSS[0], WOOD_GLOSS[0])
    shininess = np.where(cloth, CLOTH_GLOSS[1], WOOD_GLOSS[1])
    view = eye - p
    view /= np.linalg.norm(view, axis=1, keepdims=True)
    out = np.zeros((len(p), 4), np.float32)
    for i, lamp in enumerate(lamps[:2]):
        to_lamp = np.asarray(lamp.position, float) - p
        d2 = (to_lamp ** 2).sum(axis=1)
        to_lamp /= np.sqrt(d2)[:, None]
        ndl = np.clip(to_lamp[:, 2], 0.0, None)
        strength = spot(lamp, to_lamp) * ndl / d2 * lamp.position[2] ** 2
        half = to_lamp + view
        half /= np.linalg.norm(half, axis=1, keepdims=True)
        ndh = np.clip(half[:, 2], 0.0, None)
        highlight = ks * (shininess + 8) / (8 * np.pi) * ndh ** shininess
        out[:, i] = strength
        out[:, 2 + i] = strength * highlight
    return out.reshape(BAKE_PX, BAKE_PX, 4)


def lamp_matrix(lamp: Lamp) -> np.ndarray:
    """The lamp's view-projection for its shadow map: from the lamp toward the table's
    centre, wide enough for the square of ``SHADOW_REACH``."""
    eye = np.asarray(lamp.position, float)
    forward = -eye / np.linalg.norm(eye)
    helper = np.array([0.0, 1.0, 0.0]) if abs(forward[1]) < 0.9 else np.array([1.0, 0.0, 0.0])
    right = np.cross(forward, helper)
    right /= np.linalg.norm(right)
    up = np.cross(right, forward)
    view = np.eye(4)
    view[0, :3], view[1, :3], view[2, :3] = right, up, -forward
    view[:3, 3] = -view[:3, :3] @ eye
    t = lamp_tan(lamp)
    near, far = 1.0, 2000.0
    proj = np.array([[1 / t, 0, 0, 0], [0, 1 / t, 0, 0],
                     [0, 0, -(far + near) / (far - near), -2 * far * near / (far - near)], [0, 0, -1, 0]])
    return (proj @ view).astype(np.float32)


def lamp_tan(lamp: Lamp) -> float:
    """The tangent of the half-angle of a lamp's shadow map."""
    eye = np.asarray(lamp.position, float)
    forward = -eye / np.linalg.norm(eye)
    half = SHADOW_REACH / 2
    corners = np.array([(x, y, 0.0) for x in (-half, half) for y in (-half, half)]) - eye
    cos = corners @ forward / np.linalg.norm(corners, axis=1)
    return float(np.tan(np.arccos(cos.min())) * 1.05)
