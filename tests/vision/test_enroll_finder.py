"""Teaching the finder an enrolled deck: the faces from a rendered layout become a design the
renderer lays, with each index where the deck prints it (the rendered deck's truth), and
table scenes of it are drawn with their labels."""

from pathlib import Path

import cv2
import numpy as np
import pytest
import yaml

from engine.cards import ALL_CARDS
from tests.vision.table_rig import MODEL
from vision.enroll.adapt import indexed_faces
from vision.enroll.finder import draw_scenes, enrolled_design
from vision.enroll.layout import LAYOUT
from vision.enroll.pictures import read_layout
from vision.live.detector import CardDetector
from vision.synth.deck import card_image
from vision.synth.labels import parse_yolo
from vision.synth.layout_photo import layout_photo
from vision.synth.render_game import Renderer

# make check leaves these out: both read a deck enrolled from a picture, built once for the module
pytestmark = pytest.mark.slow

SEED = 104  # a four-colour held-out deck
PPC = 10.0


def _iou(a, b) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    inter = max(w, 0) * max(h, 0)
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


@pytest.fixture(scope="module")
def design(tmp_path_factory):
    detector = CardDetector(MODEL, boxes=False)
    layout = read_layout("layout.jpg", [layout_photo(SEED, list(LAYOUT))], detector)
    return enrolled_design(layout.cards, indexed_faces(layout.cards, detector), tmp_path_factory.mktemp("design"))


def test_the_enrolled_faces_are_a_design_with_each_index_where_the_deck_prints_it(design):
    truth_style = Renderer(SEED, (1920, 1080)).style
    assert design.cards == frozenset(ALL_CARDS)
    assert np.allclose(design.size_cm, truth_style.size_cm, atol=0.4)
    hits = 0
    for card in ALL_CARDS:
        seen, truth = card_image(card, design, PPC), card_image(card, truth_style, PPC)
        assert len(seen.boxes) == 2 and seen.bgr.shape[0] > seen.bgr.shape[1]
        x0, y0, x1, y1 = seen.boxes[0]
        h, w = seen.bgr.shape[:2]
        assert 0 <= x0 < x1 < w / 2 and 0 <= y0 < y1 < h / 2  # the top-left corner's index
        hits += _iou(seen.boxes[0], truth.boxes[0]) >= 0.5
    assert hits >= 48, f"{hits} of 54 enrolled index boxes on the printed index"


def test_scenes_of_the_design_are_drawn_with_their_labels(design, tmp_path):
    data = draw_scenes(design, tmp_path / "scenes", 18, progress=False)
    about = yaml.safe_load(data.read_text(encoding="utf-8"))
    assert about["nc"] == 54 and Path(about["path"]) == (tmp_path / "scenes").resolve()
    images = sorted((tmp_path / "scenes" / "images" / "train").glob("*.jpg"))
    assert len(images) == 18 and len(list((tmp_path / "scenes" / "images" / "val").glob("*.jpg"))) == 4
    labelled = 0
    for image in images:
        picture = cv2.imread(str(image))
        assert picture.shape == (320, 320, 3)
        labels = parse_yolo((tmp_path / "scenes" / "labels" / "train" / f"{image.stem}.txt").read_text())
        labelled += bool(labels)
        for _cls, x, y, w, h in labels:  # each box a small index inside the picture
            assert 0 < x < 1 and 0 < y < 1 and 0 < w < 0.3 and 0 < h < 0.3
    assert labelled >= 12
