"""Where cards lie, by the rule books: a play in one row in its seat's zone, upright for
its owner, overlapping left to right as the player sees it so each card's top-left index
shows; a turned trick on the seat's pile by its edge.

"打出的牌需翻扣后放在靠自己的桌面上且居中" (Suzhou): played cards are turned face down and
put on the table near oneself, centred. DESIGN §5: the zone is 10–36 cm out from the centre
toward the seat, the row near its middle, the pile about 41 cm out.
"""

from __future__ import annotations

import math
import random

from vision.stage.motion import Pose
from vision.stage.table import CARD_T, PILE_CM, ROW_CM, at_seat, seat_axes, seat_yaw

#: the step between overlapping cards of a row (cm), and their jitter
STEP_CM = (1.6, 2.6)
#: how much higher than the card below a card lies in a stack (its thickness and some air)
LAYER_CM = CARD_T + 0.005


def row_poses(seat: str, count: int, base: float, rng: random.Random) -> list[Pose]:
    """The poses of a play's ``count`` cards in ``seat``'s zone, left to right as its player
    sees them (each later card on top), lying from height ``base`` up."""
    right, _, _ = seat_axes(seat)
    out = rng.uniform(*ROW_CM)
    step = rng.uniform(*STEP_CM)
    shift = rng.uniform(-3.0, 3.0)
    turn = rng.gauss(0.0, 0.05)
    yaw = seat_yaw(seat) + turn
    along = (math.cos(turn) * right[0] - math.sin(turn) * right[1],
             math.sin(turn) * right[0] + math.cos(turn) * right[1])
    centre = at_seat(seat, out, shift)
    poses = []
    for i in range(count):
        offset = (i - (count - 1) / 2) * step
        x = centre[0] + along[0] * offset + rng.gauss(0, 0.15)
        y = centre[1] + along[1] * offset + rng.gauss(0, 0.15)
        poses.append((x, y, base + i * LAYER_CM, yaw + rng.gauss(0, 0.025), 0.0))
    return poses


def stacked(poses: list[Pose], bends: list[tuple[float, float]]) -> list[Pose]:
    """A row's poses raised where needed so that no card passes through the one below it:
    a bent card rises as much as its bend (its ends, or its middle) above where it lies, and
    the card laid over it lies clear of that. Without it a corner of the card below, bent
    up, showed through the one above: an index no camera can see at a real table."""
    out: list[Pose] = []
    top = None
    for (x, y, z, yaw, flip), (bx, by) in zip(poses, bends, strict=True):
        if top is not None:
            z = max(z, top + LAYER_CM)
        out.append((x, y, z, yaw, flip))
        top = z + abs(bx) + abs(by)
    return out


def pile_spot(seat: str, rng: random.Random) -> tuple[float, float, float]:
    """Where ``seat`` keeps its pile of turned tricks: (x, y, yaw)."""
    x, y = at_seat(seat, rng.uniform(*PILE_CM), rng.uniform(-4.0, 4.0))
    return x, y, seat_yaw(seat) + rng.gauss(0.0, 0.08)


def pile_pose(spot: tuple[float, float, float], height: float, rng: random.Random) -> Pose:
    """A card put face down on a pile whose top is at ``height``: squared, a little askew."""
    x, y, yaw = spot
    return (x + rng.gauss(0, 0.25), y + rng.gauss(0, 0.25), height, yaw + rng.gauss(0, 0.04), 1.0)


def toward_seat(pose: Pose, seat: str, cm: float, lift: float) -> Pose:
    """``pose`` moved ``cm`` toward its seat's edge and raised ``lift``: a card still in the
    hand that lays it."""
    _, _, out = seat_axes(seat)
    x, y, z, yaw, flip = pose
    return (x + out[0] * cm, y + out[1] * cm, z + lift, yaw, flip)


def bend(rng: random.Random) -> tuple[float, float]:
    """A card's bend: up to 3 mm along its width or its height, ends up or middle up."""
    amount = rng.uniform(0.0, 0.3) * rng.choice((1, -1))
    return (amount, 0.0) if rng.random() < 0.5 else (0.0, amount)
