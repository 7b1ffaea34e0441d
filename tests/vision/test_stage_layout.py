"""The stage's own picture of the enrollment layout (vision/stage/layout_picture.py): its
places keep the rule ``guandan enroll`` gives the operator, and the enrollment's layout
reader, run on the picture the stage's renderer and camera draw, finds all 54 cards where
the stage laid them, each the card it was given. Real OpenGL (Mesa's llvmpipe), no mocks.

The stage derives its places from the rule as written, apart from ``vision.enroll``; these
tests, outside the stage, are where the two are held together."""

from __future__ import annotations

import math
import random

import cv2
import numpy as np
import pytest

from vision.enroll import layout as enroll_layout
from vision.enroll.pictures import EnrollError, read_layout
from vision.stage.faces import CARDS, choose_deck, faces
from vision.stage.layout_picture import COLUMNS, INSIDE_CM, ROWS, layout_picture, layout_places
from vision.stage.table import CARD_H, CARD_W

#: the rule's least gap between two cards (cm)
GAP_LEAST = 0.5


def extents(place) -> tuple[float, float, float, float]:
    """The box (x0, y0, x1, y1) round a card laid at ``place``, turned as it lies."""
    c, s = abs(math.cos(place.yaw)), abs(math.sin(place.yaw))
    half_w, half_h = (CARD_W * c + CARD_H * s) / 2, (CARD_H * c + CARD_W * s) / 2
    return place.x - half_w, place.y - half_h, place.x + half_w, place.y + half_h


def test_the_stage_and_the_enrollment_share_the_layouts_rule():
    assert (ROWS, COLUMNS) == (enroll_layout.ROWS, enroll_layout.COLUMNS)
    assert INSIDE_CM == enroll_layout.INSIDE_CM
    assert list(enroll_layout.LAYOUT) == CARDS  # the stage's faces in the layout's reading order


@pytest.mark.parametrize("seed", range(1, 21))
def test_the_stage_lays_54_cards_upright_in_rows_inside_the_markers_apart(seed):
    places = layout_places(seed)
    assert len(places) == ROWS * COLUMNS
    boxes = [extents(p) for p in places]
    assert all(max(abs(v) for v in box) < INSIDE_CM for box in boxes)
    assert all(abs(p.yaw) < 0.05 for p in places)  # upright for South
    rows = [boxes[r * COLUMNS:(r + 1) * COLUMNS] for r in range(ROWS)]
    for row in rows:  # West to East, apart
        assert all(right[0] - left[2] >= GAP_LEAST for left, right in zip(row, row[1:], strict=False))
    for upper, lower in zip(rows, rows[1:], strict=False):  # the row nearest North first, apart
        assert min(b[1] for b in upper) - max(b[3] for b in lower) >= GAP_LEAST


def as_seen(face: np.ndarray) -> np.ndarray:
    """A face small and a little blurred, its mean taken off and its length made one: to
    compare a face the camera saw with the deck's own."""
    small = cv2.GaussianBlur(cv2.resize(face, (24, 33), interpolation=cv2.INTER_AREA).astype(np.float32), (3, 3), 0)
    small -= small.mean(axis=(0, 1))
    return (small / (np.linalg.norm(small) + 1e-6)).ravel()


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 6])
def test_the_enrollment_reads_the_stages_layout_picture_with_every_card_in_its_place(seed):
    names = list(CARDS)
    random.Random(seed).shuffle(names)  # the cards given are the cards laid, not the reading order's
    picture = layout_picture(seed, names)
    layout = read_layout(f"stage-{seed}", [picture], None)
    assert len(layout.cards) == 54 and [c.place for c in layout.cards] == list(range(1, 55))
    for card, place in zip(layout.cards, layout_places(seed), strict=True):
        assert math.dist(card.found.centre_cm, (place.x, place.y)) < 1.0, card.place
    deck = np.stack([as_seen(cv2.cvtColor(f, cv2.COLOR_RGBA2BGR)) for f in faces(choose_deck(seed))])
    nearest = 0
    for i, (card, name) in enumerate(zip(layout.cards, names, strict=True)):
        likeness = deck @ as_seen(card.face)
        assert likeness[CARDS.index(name)] >= likeness[i], (card.place, name)  # the card given, not CARDS[i]
        nearest += CARDS[int(np.argmax(likeness))] == name
    assert nearest >= 45  # most faces are nearest their own card's face among all 54


@pytest.mark.slow
def test_a_place_left_empty_is_refused_by_the_enrollment():
    names = [*CARDS[:20], None, *CARDS[21:]]
    with pytest.raises(EnrollError) as refused:
        read_layout("stage-2", [layout_picture(2, names)], None)
    assert refused.value.code == "enroll_count" and refused.value.values["found"] == 53


def test_a_layout_of_the_wrong_cards_is_not_drawn():
    with pytest.raises(ValueError, match="twice"):
        layout_picture(1, [*CARDS[:-1], "S2"])
    with pytest.raises(ValueError, match="54 places"):
        layout_picture(1, CARDS[:-1])


def test_render_stage_writes_the_layout_picture(tmp_path, capsys):
    from vision.__main__ import main

    out = tmp_path / "pictures" / "layout.png"
    assert main(["render-stage", "--seed", "3", "--layout", str(out), "--size", "640x360", "--deck", "printed"]) == 0
    picture = cv2.imread(str(out))
    assert picture is not None and picture.shape == (360, 640, 3)
    assert str(out) in capsys.readouterr().out


def test_render_stage_refuses_a_layout_it_cannot_write_in_one_line(tmp_path, capsys):
    from vision.__main__ import main

    assert main(["render-stage", "--layout", str(tmp_path / "layout.txt"), "--lang", "en"]) == 2
    said = capsys.readouterr().err.strip()
    assert said.startswith(f"guandan: {tmp_path / 'layout.txt'}: the layout picture cannot be written")
    assert "\n" not in said and "摆牌图无法写入" in said and not any(tmp_path.iterdir())
    assert main(["render-stage", "--layout", str(tmp_path)]) == 2  # a folder
    assert "摆牌图无法写入" in capsys.readouterr().err
    assert main(["render-stage", "--seed", "3", "--lang", "en"]) == 2
    assert capsys.readouterr().err.strip().startswith("guandan: give --out DIR (a hand filmed) or --layout FILE")
