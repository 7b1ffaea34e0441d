"""The set for one game, drawn from its seed: the cloth and the wood, the camera, the lamps,
the camera's optics and sensor, and how its exposure drifts.

Every choice is a range a tournament hall could show, so a loop tuned in another world
meets tables it was not tuned on: any cloth colour, any camera turn, one lamp or two, warm
or cool light, a lens that is a little soft, a sensor that is a little noisy.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np

from vision.stage import textures
from vision.stage.camera import Camera, random_camera
from vision.stage.frame import Lamp, Look, Optics
from vision.stage.renderer import Renderer

#: lamps' colours from warm to cool (linear, relative)
LIGHT_COLOURS = ((1.0, 0.86, 0.68), (1.0, 0.93, 0.82), (1.0, 1.0, 1.0), (0.92, 0.97, 1.06))


@dataclass(frozen=True)
class Drift:
    """Slow wanders of the exposure (all channels) and the white balance (red and blue
    against green), as sums of long sines: ``amounts`` (exposure, white balance),
    ``periods`` and ``phases`` of three terms each."""

    amounts: tuple[float, float]
    periods: tuple[float, ...]
    phases: tuple[float, ...]

    def gain(self, t: float) -> tuple[float, float, float]:
        def wave(k: int) -> float:
            return sum(math.sin(2 * math.pi * t / self.periods[k * 3 + i] + self.phases[k * 3 + i])
                       for i in range(3)) / 3
        exposure = 1 + self.amounts[0] * wave(0)
        red, blue = self.amounts[1] * wave(1), self.amounts[1] * wave(2)
        return exposure * (1 + red), exposure, exposure * (1 + blue)


@dataclass(frozen=True)
class Setting:
    """A table, its camera and its light."""

    seed: int
    camera: Camera
    felt: str
    wood: str
    lamps: tuple[Lamp, ...]
    optics: Optics
    noise: tuple[float, float]
    drift: Drift
    wood_turn: float

    @property
    def style(self) -> str:
        """A short name of the look, for a summary line."""
        return f"{self.felt} felt, {self.wood}, {len(self.lamps)} lamp{'s' * (len(self.lamps) > 1)}"

    def look(self, t: float, frame: int) -> Look:
        """The sensor's settings at video time ``t`` (seconds), frame number ``frame``."""
        return Look(gain=self.drift.gain(t), noise=self.noise, frame=self.seed * 1_000_003 + frame)

    def renderer(self, cards: list[np.ndarray], samples: int = 0) -> Renderer:
        """A renderer of this set with these card pictures (faces, then backs)."""
        cloth = textures.felt(self.seed, textures.FELTS[self.felt])
        wood = textures.wood(self.seed + 1, textures.WOODS[self.wood])
        return Renderer(self.camera, cloth, wood, cards, self.lamps, self.optics, self.wood_turn, samples)


def random_setting(seed: int, size: tuple[int, int], distortion: bool = True, noise: bool = True) -> Setting:
    """The set for game ``seed`` at frame ``size``; ``distortion`` and ``noise`` off give a
    clean pinhole picture (for tests that check geometry or compare frames)."""
    rng = random.Random(f"stage-setting-{seed}")
    felt, wood = textures.table_style(rng)
    camera = random_camera(rng, size, distortion)
    lamps = _lamps(rng)
    scale = size[0] / 1920
    colour = np.asarray(lamps[0].level) / max(lamps[0].level)
    white = rng.uniform(0.75, 1.05) / (0.88 * (1.1 + 0.25))  # a white card under the lamp, to this share of full scale
    exposure = tuple(float(white / c * rng.uniform(0.96, 1.04)) for c in colour)
    aim = camera.rotation[2]
    focus = float(camera.centre[2] / max(1e-6, -aim[2])) + rng.uniform(-6, 6)
    optics = Optics(exposure=exposure, ambient=tuple(rng.uniform(0.18, 0.32) * c for c in rng.choice(LIGHT_COLOURS)),
                    focus=focus, blur=rng.uniform(3, 14) * scale, least=rng.uniform(0.45, 0.8) * scale,
                    vignette=rng.uniform(0.08, 0.35))
    sensor = (rng.uniform(0.0003, 0.0015), rng.uniform(0.002, 0.006)) if noise else (0.0, 0.0)
    drift = Drift((rng.uniform(0.02, 0.07), rng.uniform(0.01, 0.03)),
                  tuple(rng.uniform(20, 120) for _ in range(9)), tuple(rng.uniform(0, 2 * math.pi) for _ in range(9)))
    return Setting(seed, camera, felt, wood, lamps, optics, sensor, drift, rng.uniform(0, math.pi))


def _lamps(rng: random.Random) -> tuple[Lamp, ...]:
    """One lamp over the table, sometimes a weaker second one."""
    colour = rng.choice(LIGHT_COLOURS)
    main = Lamp((rng.uniform(-30, 30), rng.uniform(-30, 30), rng.uniform(90, 150)),
                tuple(rng.uniform(0.75, 1.0) * c for c in colour), cone=_cone(rng), radius=rng.uniform(4, 12))
    if rng.random() < 0.6:
        return (main,)
    angle = rng.uniform(0, 2 * math.pi)
    second = Lamp((70 * math.cos(angle), 70 * math.sin(angle), rng.uniform(110, 180)),
                  tuple(rng.uniform(0.25, 0.55) * c for c in rng.choice(LIGHT_COLOURS)), cone=_cone(rng),
                  radius=rng.uniform(6, 15))
    return main, second


def _cone(rng: random.Random) -> tuple[float, float]:
    inner = rng.uniform(25, 45)
    return inner, inner + rng.uniform(15, 35)
