"""Arms and hands as spheres, cylinders and boxes: a sleeve from the shoulder past the
elbow, a bare forearm, a palm, four fingers and a thumb.

Simple shapes, but of a real arm's size and reach (upper arm 28 cm, forearm 26 cm), so an
arm over the table hides and shadows as much of it as a player's does. The elbow is found
from the shoulder and the wrist as a two-bone arm bends: down and out to the side.
"""

from __future__ import annotations

import math

import numpy as np

from vision.stage.frame import aligned, rotate_z, scale, solid_instance, translate
from vision.stage.motion import ArmActor

UPPER_ARM, FOREARM = 28.0, 26.0
SKINS = ((0.93, 0.76, 0.64), (0.87, 0.68, 0.54), (0.76, 0.57, 0.42), (0.6, 0.42, 0.3), (0.42, 0.29, 0.2))
SLEEVES = ((0.12, 0.14, 0.2), (0.75, 0.75, 0.78), (0.55, 0.1, 0.12), (0.15, 0.3, 0.55), (0.2, 0.35, 0.22),
           (0.9, 0.88, 0.82), (0.35, 0.3, 0.28), (0.6, 0.45, 0.2))


def elbow(shoulder: np.ndarray, wrist: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Where the elbow of an arm from ``shoulder`` to ``wrist`` is, bent down and toward ``out``."""
    span = wrist - shoulder
    reach = float(np.linalg.norm(span))
    axis = span / max(reach, 1e-9)
    if reach >= UPPER_ARM + FOREARM - 0.5:
        return shoulder + axis * UPPER_ARM * reach / (UPPER_ARM + FOREARM)
    along = (UPPER_ARM ** 2 - FOREARM ** 2 + reach ** 2) / (2 * reach)
    rise = math.sqrt(max(UPPER_ARM ** 2 - along ** 2, 0.0))
    bend = out - axis * float(out @ axis)
    bend /= max(float(np.linalg.norm(bend)), 1e-9)
    return shoulder + axis * along + bend * rise


def arm_solids(arm: ArmActor, t: float) -> dict[str, list[np.ndarray]]:
    """The arm at time ``t`` as solid instance rows, by shape."""
    x, y, z, yaw, lift = arm.track.at(t)
    tip = np.array([x, y, z])
    d = np.array([math.cos(yaw), math.sin(yaw), 0.0])
    side = np.array([-d[1], d[0], 0.0])
    up = np.array([0.0, 0.0, 1.0])
    shoulder = np.asarray(arm.shoulder, float)
    wrist = tip - d * 15.5 + up * 2.8
    outward = side * (1.0 if arm.left else -1.0)
    bend_dir = -up * 0.8 + outward * 0.6
    joint = elbow(shoulder, wrist, bend_dir)
    skin, sleeve = arm.skin, arm.sleeve
    cuff = joint + (wrist - joint) * 0.45
    spheres = [solid_instance(translate(*shoulder) @ scale(4.8, 4.8, 4.8), sleeve, 0.02),
               solid_instance(translate(*joint) @ scale(4.3, 4.3, 4.3), sleeve, 0.02),
               solid_instance(translate(*cuff) @ scale(3.5, 3.5, 3.5), sleeve, 0.02),
               solid_instance(translate(*wrist) @ scale(2.6, 2.6, 2.6), skin, 0.08)]
    cylinders = [solid_instance(aligned(shoulder, joint, 4.8), sleeve, 0.02),
                 solid_instance(aligned(joint, cuff, 3.9), sleeve, 0.02),
                 solid_instance(aligned(cuff, wrist, 2.9), skin, 0.08)]
    palm = tip - d * 9.5 + up * 2.0
    pitch = math.atan2(1.6, 9.0)  # the palm slopes down toward the fingers
    boxes = [solid_instance(translate(*palm) @ rotate_z(yaw) @ _pitch(pitch) @ scale(8.5, 8.0, 2.6), skin, 0.08)]
    finger_lift = up * (1.5 * lift)
    for i, offset in enumerate((-2.7, -0.9, 0.9, 2.7)):
        knuckle = tip - d * 5.2 + side * offset + up * 2.3
        shorter = abs(offset) * 0.35 + (0.9 if i in (0, 3) else 0.0)  # the little and the index finger
        end = tip + side * offset * 0.8 - d * shorter + up * 0.6 + finger_lift
        cylinders.append(solid_instance(aligned(knuckle, end, 0.78), skin, 0.08))
        spheres.append(solid_instance(translate(*end) @ scale(0.78, 0.78, 0.78), skin, 0.08))
    thumb_root = tip - d * 10.5 + outward * -3.8 + up * 2.0
    thumb_tip = tip - d * 5.0 + outward * -4.6 + up * 1.0
    cylinders.append(solid_instance(aligned(thumb_root, thumb_tip, 1.0), skin, 0.08))
    spheres.append(solid_instance(translate(*thumb_tip) @ scale(1.0, 1.0, 1.0), skin, 0.08))
    return {"sphere": spheres, "cylinder": cylinders, "box": boxes}


def _pitch(angle: float) -> np.ndarray:
    """A turn about the hand's sideways axis (its local y), fingers down for a positive angle."""
    c, s = math.cos(angle), math.sin(angle)
    m = np.eye(4)
    m[0, 0], m[0, 2], m[2, 0], m[2, 2] = c, s, -s, c
    return m
