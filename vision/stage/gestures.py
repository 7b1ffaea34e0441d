"""What the players' hands do, as tracks: lay a play card by card or as a fan, slide a
squared stack in and spread it with no hand in sight, drop cards too fast to see, tap for a
pass, sweep a trick face down onto the pile, nudge a card, lean over the table.

Each gesture takes the cards' actors and a start time, adds keys to their tracks, and
returns the arm it used (or None) and the moments that matter: when the cards lie still
(a play's time in the record) and when the gesture is over.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from vision.stage.body import SKINS, SLEEVES
from vision.stage.layout import LAYER_CM, toward_seat
from vision.stage.motion import ArmActor, CardActor, Pose, Track
from vision.stage.table import EDGE_CM, at_seat, seat_axes, seat_yaw


@dataclass(frozen=True)
class Player:
    """How a seat's player looks and moves: skin, sleeve, which hand lays cards, how quick."""

    seat: str
    skin: tuple[float, float, float]
    sleeve: tuple[float, float, float]
    left: bool
    pace: float

    @staticmethod
    def random(seat: str, rng: random.Random) -> Player:
        return Player(seat, rng.choice(SKINS), rng.choice(SLEEVES), rng.random() < 0.12, rng.uniform(0.8, 1.25))


@dataclass(frozen=True)
class Done:
    """A gesture's moments: the cards lie still at ``still``; it is over at ``end``."""

    still: float
    end: float


def _arm(player: Player, rng: random.Random, t: float) -> ArmActor:
    """An arm of ``player`` entering over the table's edge at ``t``."""
    side = -1.0 if player.left else 1.0
    lateral = side * rng.uniform(12, 20)
    sx, sy = at_seat(player.seat, rng.uniform(60, 70), lateral)
    arm = ArmActor(player.seat, (sx, sy, rng.uniform(32, 42)), player.skin, player.sleeve, player.left,
                   Track(shown=t))
    ex, ey = at_seat(player.seat, EDGE_CM + rng.uniform(4, 10), lateral * 0.6)
    _reach(arm, t, (ex, ey, rng.uniform(7, 11)))
    return arm


def _reach(arm: ArmActor, t: float, tip: tuple[float, float, float], lift: float = 0.0) -> None:
    """Fingertips at ``tip`` at ``t``, the hand pointing away from the shoulder."""
    sx, sy, _ = arm.shoulder
    yaw = math.atan2(tip[1] - sy, tip[0] - sx)
    arm.track.key(t, (tip[0], tip[1], tip[2], yaw, lift))


def _withdraw(arm: ArmActor, t: float, rng: random.Random, took: float) -> float:
    """Take the hand back over the edge and out of sight; returns when it is gone."""
    x, y, z, _, _ = arm.track.last
    _reach(arm, t, (x, y, z + 3))
    ex, ey = at_seat(arm.seat, EDGE_CM + rng.uniform(8, 14), rng.uniform(-10, 10))
    _reach(arm, t + took, (ex, ey, 10.0))
    arm.track.hidden = t + took
    return t + took


def _card_key(card: CardActor, t: float, pose: Pose) -> None:
    card.track.key(t, pose)


def lay_by_hand(player: Player, cards: list[CardActor], poses: list[Pose], t: float, rng: random.Random,
                fan: bool) -> tuple[ArmActor, Done]:
    """The player's hand brings the cards in and lays them one by one (or all at once as a
    fan) in their row, then withdraws."""
    pace = player.pace
    arm = _arm(player, rng, t)
    t += rng.uniform(0.35, 0.55) * pace
    if fan:
        mid = poses[len(poses) // 2]
        _reach(arm, t, (mid[0], mid[1], mid[2] + 2.2))
        for card, pose in zip(cards, poses, strict=True):
            card.track.shown = t
            _card_key(card, t, toward_seat(pose, player.seat, 1.5, 1.6))
        t += rng.uniform(0.2, 0.35) * pace
        _reach(arm, t, (mid[0], mid[1], mid[2] + 0.9))
        for card, pose in zip(cards, poses, strict=True):
            _card_key(card, t, pose)
        still = t
    else:
        for card, pose in zip(cards, poses, strict=True):
            _reach(arm, t, (pose[0], pose[1], pose[2] + 2.0))
            card.track.shown = t
            _card_key(card, t, toward_seat(pose, player.seat, 1.2, 1.4))
            t += rng.uniform(0.14, 0.24) * pace
            _reach(arm, t, (pose[0], pose[1], pose[2] + 0.8))
            _card_key(card, t, pose)
            still = t
            t += rng.uniform(0.1, 0.22) * pace
    end = _withdraw(arm, still + rng.uniform(0.1, 0.25), rng, rng.uniform(0.35, 0.55) * pace)
    return arm, Done(still, end)


def slide_in(player: Player, cards: list[CardActor], poses: list[Pose], t: float, rng: random.Random) -> Done:
    """A squared stack slides in from the seat's edge with no hand in sight, stops, and is
    spread into the row."""
    _, _, out = seat_axes(player.seat)
    first = poses[0]
    centre = (sum(p[0] for p in poses) / len(poses), sum(p[1] for p in poses) / len(poses))
    yaw = seat_yaw(player.seat) + rng.gauss(0, 0.05)
    edge = EDGE_CM + rng.uniform(1, 4)
    beyond = edge - (centre[0] * out[0] + centre[1] * out[1])  # straight out from the row, to the edge
    start = (centre[0] + out[0] * beyond, centre[1] + out[1] * beyond)
    arrive = t + rng.uniform(0.5, 0.9) * player.pace
    for k, card in enumerate(cards):
        z = first[2] + k * LAYER_CM
        card.track.shown = t
        _card_key(card, t, (start[0], start[1], z, yaw, 0.0))
        _card_key(card, arrive, (centre[0], centre[1], z, yaw, 0.0))
    spread = arrive + rng.uniform(0.15, 0.5)
    still = spread + rng.uniform(0.3, 0.55) * player.pace
    for card, pose in zip(cards, poses, strict=True):
        card.track.hold(spread)
        _card_key(card, still, pose)
    return Done(still, still)


def drop_in(cards: list[CardActor], poses: list[Pose], t: float, fps: float, rng: random.Random) -> Done:
    """Cards appear in their row within one or two frames: a hand too fast for the camera."""
    last = t
    for i, (card, pose) in enumerate(zip(cards, poses, strict=True)):
        card.track.shown = t + (i % 2) * (1.0 / fps) * rng.choice((0, 1))
        _card_key(card, card.track.shown, pose)
        last = max(last, card.track.shown)
    return Done(last, last)


def tap(player: Player, t: float, rng: random.Random) -> tuple[ArmActor, Done]:
    """A pass: the hand comes in, taps the table once or twice near the player, goes."""
    arm = _arm(player, rng, t)
    x, y = at_seat(player.seat, rng.uniform(27, 38), rng.uniform(-8, 8))
    t += rng.uniform(0.3, 0.5) * player.pace
    _reach(arm, t, (x, y, 3.0))
    tapped = t + 0.12
    _reach(arm, tapped, (x, y, 0.9))
    t = tapped + 0.12
    _reach(arm, t, (x, y, 3.0))
    if rng.random() < 0.4:
        _reach(arm, t + 0.12, (x, y, 0.9))
        t += 0.24
        _reach(arm, t, (x, y, 3.0))
    end = _withdraw(arm, t + 0.05, rng, rng.uniform(0.3, 0.45) * player.pace)
    return arm, Done(tapped, end)


def sweep(player: Player, cards: list[CardActor], piled: list[Pose], t: float, rng: random.Random,
          by_hand: bool) -> tuple[ArmActor | None, Done]:
    """A trick ends: the seat's cards are gathered into a stack, turned face down and put on
    its pile (``piled``: each card's pose there) — by a hand, or sliding with none in sight."""
    xs = [c.track.last for c in cards]
    gather = (sum(p[0] for p in xs) / len(xs), sum(p[1] for p in xs) / len(xs))
    yaw = seat_yaw(player.seat) + rng.gauss(0, 0.05)
    arm = _arm(player, rng, t) if by_hand else None
    t += rng.uniform(0.35, 0.5) * player.pace if by_hand else 0.0
    if arm:
        _reach(arm, t, (gather[0], gather[1], 2.5))
    for card in cards:
        card.track.hold(t)
    t += rng.uniform(0.25, 0.4) * player.pace
    base = min(p[2] for p in xs)
    for k, card in enumerate(cards):
        _card_key(card, t, (gather[0], gather[1], base + k * LAYER_CM, yaw, 0.0))
    if arm:
        _reach(arm, t, (gather[0], gather[1], 1.8))
    turn = rng.uniform(0.3, 0.45) * player.pace
    for k, card in enumerate(cards):
        _card_key(card, t + turn / 2, (gather[0], gather[1], base + 3.6 + k * LAYER_CM, yaw, 0.5))
        _card_key(card, t + turn, (gather[0], gather[1], base + k * LAYER_CM, yaw, 1.0))
    t += turn
    if arm:
        _reach(arm, t, (gather[0], gather[1], 2.2))
    move = rng.uniform(0.3, 0.5) * player.pace
    for card, pose in zip(cards, piled, strict=True):
        _card_key(card, t + move, pose)
    t += move
    if arm:
        _reach(arm, t, (piled[-1][0], piled[-1][1], piled[-1][2] + 1.5))
        return arm, Done(t, _withdraw(arm, t + 0.1, rng, rng.uniform(0.35, 0.5) * player.pace))
    return None, Done(t, t)


def nudge(player: Player, card: CardActor, t: float, rng: random.Random) -> tuple[ArmActor, Done]:
    """A finger pushes a laid card 0.5–2 cm and the hand goes."""
    arm = _arm(player, rng, t)
    x, y, z, yaw, flip = card.track.last
    angle = rng.uniform(0, 2 * math.pi)
    push = rng.uniform(0.5, 2.0)
    dx, dy = math.cos(angle) * push, math.sin(angle) * push
    t += rng.uniform(0.35, 0.5) * player.pace
    _reach(arm, t, (x - dx * 2, y - dy * 2, z + 1.2))
    card.track.hold(t)
    t += rng.uniform(0.2, 0.35)
    _reach(arm, t, (x + dx - dx * 1.2, y + dy - dy * 1.2, z + 1.0))
    _card_key(card, t, (x + dx, y + dy, z, yaw + rng.gauss(0, 0.04), flip))
    return arm, Done(t, _withdraw(arm, t + 0.1, rng, rng.uniform(0.3, 0.45) * player.pace))


def lean(player: Player, over: tuple[float, float], t: float, rest: float, rng: random.Random) -> tuple[ArmActor, Done]:
    """The player leans over the table: a hand rests over ``over`` for ``rest`` seconds."""
    arm = _arm(player, rng, t)
    t += rng.uniform(0.4, 0.6) * player.pace
    height = rng.uniform(1.2, 4.0)
    _reach(arm, t, (over[0], over[1], height), lift=rng.uniform(0, 0.6))
    sway = rng.uniform(0.3, 1.2)
    _reach(arm, t + rest / 2, (over[0] + rng.gauss(0, sway), over[1] + rng.gauss(0, sway), height + 0.3))
    _reach(arm, t + rest, (over[0], over[1], height))
    return arm, Done(t + rest, _withdraw(arm, t + rest, rng, rng.uniform(0.4, 0.6) * player.pace))
