"""Every corruption by name, with what each severity means."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from vision.corruptions import hand, light, optics
from vision.corruptions.common import Clip

#: a frame corruption: (frame, t, index, severity, seed, clip) → frame
FrameFunction = Callable[[np.ndarray, float, int, int, int, Clip], np.ndarray]


@dataclass(frozen=True)
class Corruption:
    """One corruption: its name, what it does, what severity 1, 2 and 3 are, and how it is
    put on a video — ``pixels`` (``frame`` changes each frame, one at a time), ``codec`` (the
    video re-encoded, ``vision.corruptions.codec``) or ``frames`` (which frames are delivered,
    ``vision.corruptions.frames``). ``calibrated``: ``frame`` draws on the table plane and
    wants the table's calibration in its ``Clip``."""

    name: str
    what: str
    levels: tuple[str, str, str]
    kind: str = "pixels"
    frame: FrameFunction | None = None
    calibrated: bool = False


CORRUPTIONS: dict[str, Corruption] = {c.name: c for c in (
    Corruption("noise", "sensor noise: read noise σ, plus shot noise (variance ∝ signal)",
               ("σ 3 + shot 0.05", "σ 6 + shot 0.1", "σ 12 + shot 0.2"), frame=light.noise),
    Corruption("h264", "re-encoded as H.264 (x264, 1 s buffer, key frame every 2 s)",
               ("4 Mbit/s", "2 Mbit/s", "1 Mbit/s"), kind="codec"),
    Corruption("exposure", "exposure ramps: a new gain level every 8 s, reached over 3 s",
               ("gain ±12 %", "gain ±25 %", "gain ±40 %"), frame=light.exposure),
    Corruption("flicker", "50 Hz mains flicker through a rolling shutter (beats at 10 Hz at 30 fps)",
               ("±2 %", "±4 %", "±8 %"), frame=light.flicker),
    Corruption("white_balance", "white balance: red and blue gains off and drifting",
               ("±6 %", "±12 %", "±20 %"), frame=light.white_balance),
    Corruption("vignette", "vignetting: light falling off toward the corners",
               ("corners −20 %", "corners −35 %", "corners −50 %"), frame=light.vignette),
    Corruption("defocus", "out of focus: a disk blur (radius at 1080p)",
               ("r 1 px", "r 2 px", "r 3 px"), frame=optics.defocus),
    Corruption("motion_blur", "a shaking camera: a linear streak (length at 1080p)",
               ("3 px", "5 px", "9 px"), frame=optics.motion_blur),
    Corruption("bump", "the camera bumped once (30–60 % in) and left so (at 1080p)",
               ("2 px", "3.5 px", "5 px"), frame=optics.bump),
    Corruption("drift", "the camera drifting evenly, by the video's end (at 1080p)",
               ("0.7 px", "2 px", "4 px"), frame=optics.drift),
    Corruption("shadow", "an arm's shadow sweeping the table in 1–2 s, 4 a minute",
               ("−25 % light", "−40 % light", "−55 % light"), frame=light.shadow),
    Corruption("hand", "a hand resting over a seat's zone, 4 times a minute",
               ("1 s", "2 s", "3 s"), frame=hand.hand, calibrated=True),
    Corruption("drop", "frames dropped: only some delivered, at their own times",
               ("10 fps", "7.5 fps", "5 fps"), kind="frames"),
)}
