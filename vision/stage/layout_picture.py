"""The enrollment layout as the stage's own camera sees it: game ``seed``'s table — its cloth,
lamps, camera, markers and deck — with the deck's 54 cards laid face up for ``guandan
enroll``, and no hands. A table enrolls its deck from its own camera, so the second world
draws its own picture of the layout rather than borrowing the first world's.

The places follow the rule as the operator reads it (``docs/vision.md``, "Enrolling a
deck"), not the enrollment code, which stands on the live loop the stage is kept apart
from: 6 rows of 9, every card upright for South, not overlapping (gaps of 5 mm or more),
inside the four markers, in reading order as seen from South — the row nearest North
first, each row from West to East. Laid by hand: the gaps a little uneven, each card a
little off its place and turned, bent as the stage's cards are.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.stage.faces import CARDS, choose_deck
from vision.stage.frame import CARD_FLOATS, Frame, card_instance
from vision.stage.layout import bend
from vision.stage.setting import random_setting
from vision.stage.table import CARD_H, CARD_W, MARKER_BORDER_CM, MARKER_CENTRES, MARKER_CM, seat_yaw
from vision.stage.world import card_pictures

ROWS, COLUMNS = 6, 9
#: the markers' inner edges: the layout lies within this many cm of the centre each way
INSIDE_CM = min(abs(c) for centre in MARKER_CENTRES.values() for c in centre) - MARKER_CM / 2
#: the gaps between neighbours in a row, and between rows (cm): uneven from one layout to
#: the next, never near the rule's 5 mm once each card's jitter and turn are taken off
COLUMN_GAP_CM = (1.0, 1.8)
ROW_GAP_CM = (1.0, 3.0)
#: how far a card lies off its place (cm, each way) and how far it is turned (radians, each
#: way): a hand squares a layout roughly, not to the millimetre
JITTER_CM = 0.15
TURN = 0.015
#: the layout kept this far inside the markers' inner edges (their white border is printed there)
MARGIN_CM = MARKER_BORDER_CM / 2


@dataclass(frozen=True)
class Place:
    """Where one card of the layout lies: its centre on the cloth (cm) and its turn
    (radians, counter-clockwise from upright for South)."""

    x: float
    y: float
    yaw: float


def layout_places(seed: int) -> list[Place]:
    """Game ``seed``'s layout: its 54 places in reading order, the row nearest North first,
    each row from West to East, every card upright for South; the whole layout shifted as
    far as the markers leave room."""
    rng = random.Random(f"stage-layout-{seed}")
    column_gap, row_gap = rng.uniform(*COLUMN_GAP_CM), rng.uniform(*ROW_GAP_CM)
    pitch_x, pitch_y = CARD_W + column_gap, CARD_H + row_gap
    reach = _reach()
    room_x = INSIDE_CM - MARGIN_CM - ((COLUMNS - 1) * pitch_x / 2 + reach[0])
    room_y = INSIDE_CM - MARGIN_CM - ((ROWS - 1) * pitch_y / 2 + reach[1])
    shift = (rng.uniform(-room_x, room_x), rng.uniform(-room_y, room_y))
    upright = seat_yaw("S")
    places = []
    for row in range(ROWS):
        for column in range(COLUMNS):
            x = shift[0] + (column - (COLUMNS - 1) / 2) * pitch_x + rng.uniform(-JITTER_CM, JITTER_CM)
            y = shift[1] + ((ROWS - 1) / 2 - row) * pitch_y + rng.uniform(-JITTER_CM, JITTER_CM)
            places.append(Place(x, y, upright + rng.uniform(-TURN, TURN)))
    return places


def _reach() -> tuple[float, float]:
    """How far a card's edge may lie from its place's centre, across and along (cm): half
    the card, turned as far as ``TURN``, moved as far as ``JITTER_CM``."""
    c, s = math.cos(TURN), math.sin(TURN)
    return (CARD_W * c + CARD_H * s) / 2 + JITTER_CM, (CARD_H * c + CARD_W * s) / 2 + JITTER_CM


def layout_picture(seed: int, names: Sequence[str | None] = CARDS, size: tuple[int, int] = (1920, 1080),
                   deck: str | None = None, distortion: bool = True, noise: bool = True) -> np.ndarray:
    """Game ``seed``'s table with ``names`` laid out for enrollment, as its camera delivers
    a frame: BGR bytes of ``size``. ``names`` holds a card name (each at most once) or None
    (the place left empty) for each of the 54 places in the layout's reading order:
    ``names[i]`` lies at place ``i``. ``deck`` as ``vision.stage.world.render`` takes it
    (None: the seed's own)."""
    names = list(names)
    laid = [name for name in names if name is not None]
    unknown = sorted(set(laid) - set(CARDS))
    twice = sorted({name for name in laid if laid.count(name) > 1})
    if unknown or twice or len(names) != ROWS * COLUMNS:
        raise ValueError(f"a layout has {ROWS * COLUMNS} places, each holding a card of the deck or none, no card "
                         f"twice: given {len(names)} places, unknown {unknown}, twice {twice}")
    deck = deck or choose_deck(seed)
    setting = random_setting(seed, size, distortion, noise)
    pictures = card_pictures(deck, random.Random(f"stage-{seed}"))  # the game's faces and backs
    rng = random.Random(f"stage-layout-cards-{seed}")
    gloss, shininess = rng.uniform(0.03, 0.06), rng.uniform(300, 1500)
    back = len(CARDS)
    rows = [card_instance(place.x, place.y, 0.0, place.yaw, 0.0, bend(rng), CARDS.index(name), back,
                          gloss * rng.uniform(0.85, 1.15), shininess)
            for name, place in zip(names, layout_places(seed), strict=True) if name is not None]
    cards = np.stack(rows) if rows else np.zeros((0, CARD_FLOATS), np.float32)
    renderer = setting.renderer(pictures)
    try:
        return renderer.draw(Frame(cards=cards, look=setting.look(0.0, 0)))
    finally:
        renderer.release()
