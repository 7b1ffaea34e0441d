"""Whole photographs (vision/live/photo.py): the scales and tiles the finder looks at, and what that finds."""

import numpy as np
import pytest

from engine.cards import ALL_CARDS
from vision.live.detector import CardDetector, committed_finder, tile_starts
from vision.live.photo import detect_photo, scales
from vision.synth.scene import SceneConfig, render_scene
from vision.synth.style import styles
from vision.training.evaluate import ImageResult, card_level

# make check leaves these out: whole photos searched at every scale
pytestmark = pytest.mark.slow


def test_a_photo_is_looked_at_whole_then_twice_as_fine_each_time_down_to_its_own_pixels():
    assert scales(320, 320, 320) == [1.0] and scales(640, 480, 640) == [1.0]
    assert scales(800, 600, 640) == [0.8, 1.0]
    assert scales(1920, 1920, 640) == pytest.approx([1 / 3, 2 / 3, 1.0])
    phone = scales(4032, 3024, 640)  # a phone's 12-megapixel photo
    assert phone[0] == pytest.approx(640 / 4032) and phone[-1] == 1.0 and len(phone) == 4


def test_tiles_cover_a_side_overlapping_and_end_flush():
    assert tile_starts(300, 320, 80) == [0]
    assert tile_starts(560, 320, 80) == [0, 240]  # a seat zone: two tiles
    tiles = tile_starts(1920, 640, 160)
    assert tiles[0] == 0 and tiles[-1] == 1920 - 640
    assert all(0 < b - a <= 640 - 160 for a, b in zip(tiles, tiles[1:], strict=False))


def read_both_ways(detector: CardDetector, decks: list, config: SceneConfig, seeds) -> tuple[int, int, int]:
    """Of the fully visible indices of a scene per seed (drawn with ``decks[seed]``): how many
    ``detect_photo`` reads right, how many one plain look reads right, how many there are."""
    found = once = labelled = 0
    for seed in seeds:
        scene = render_scene(seed, [decks[seed]], config)
        full = [label for label in scene.labels if label.visible >= 0.95]
        truth, boxes = [ALL_CARDS[label.cls] for label in full], np.array([label.box for label in full])
        labelled += len(full)
        found += card_level([ImageResult(truth, boxes, detect_photo(detector, scene.image))], 0.25).correct
        once += card_level([ImageResult(truth, boxes, detector.detect(scene.image))], 0.25).correct
    return found, once, labelled


def test_a_big_photo_is_read_where_one_shrunken_look_misses_most():
    """1920-pixel photos of a table at 12–14 px/cm: the indices are 15–20 pixels, a third of
    that letterboxed whole into the finder's 640. Searched at every scale, every fully
    visible index is read, in the photo's own pixels."""
    detector = CardDetector(committed_finder(640), imgsz=640)
    decks = styles(3, 4, "heldout")
    config = SceneConfig(size=1920, px_per_cm=(12.0, 14.0), rows=(2, 3), hand_prob=0.0, distractors=(0, 0),
                         pile_prob=0.0)
    found, once, labelled = read_both_ways(detector, decks, config, (0, 2))
    assert found >= 0.8 * labelled and found > once


def test_a_photo_smaller_than_the_input_is_also_looked_at_shrunk():
    """A 400-pixel photo of cards held close (indices about 40 pixels, grown by the 640
    letterbox past what the finder learnt): looked at shrunk as well, more of its fully
    visible indices are read than in the one enlarged look."""
    detector = CardDetector(committed_finder(640), imgsz=640)
    decks = styles(5, 4, "heldout")
    config = SceneConfig(size=400, px_per_cm=(22.0, 24.0), rows=(1, 2), hand_prob=0.0, distractors=(0, 0),
                         pile_prob=0.0)
    found, once, labelled = read_both_ways(detector, decks, config, range(4))
    assert found > once and found >= 0.7 * labelled
