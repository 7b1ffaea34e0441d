"""The finder's views at quarter turns (vision.live.turns): boxes brought back exactly, views merged,
and the committed finder finding the same indices whichever way a sample zone is turned."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.live.boxes import iou_matrix
from vision.live.detector import CardDetector, DetectorError, committed_finder
from vision.live.turns import VIEWS, boxes_back, merge, turned
from vision.training.evaluate import card_level, run_detector

# make check leaves these out: the sample zones read four ways round
pytestmark = pytest.mark.slow

SAMPLES = sorted((Path(__file__).parents[2] / "datasets" / "samples" / "images").glob("*.jpg"))


def pixel_box(mask: np.ndarray) -> np.ndarray:
    """The box (continuous edges: a pixel i spans i..i+1) of the lit pixels of a mask."""
    ys, xs = np.nonzero(mask)
    return np.array([xs.min(), ys.min(), xs.max() + 1, ys.max() + 1], np.float64)


@pytest.mark.parametrize("quarter", [0, 1, 2, 3, 5, -1])
def test_a_box_found_in_a_turned_image_comes_back_where_it_lies(quarter):
    height, width = 90, 160  # not square: the turned image is 160 × 90
    image = np.zeros((height, width), np.uint8)
    image[20:31, 100:137] = 255  # x 100..137, y 20..31
    seen = turned(image, quarter)
    assert seen.shape == ((height, width) if quarter % 2 == 0 else (width, height))
    back = boxes_back(pixel_box(seen > 0), quarter, width, height)
    assert np.array_equal(back[0], [100, 20, 137, 31])


def test_views_that_found_the_same_index_give_one_box_weighted_by_confidence():
    a = ((10.0, 10.0, 20.0, 30.0), 0.6)
    b = ((12.0, 10.0, 22.0, 30.0), 0.2)  # the same index (IoU 0.67), less sure
    elsewhere = ((100.0, 100.0, 110.0, 120.0), 0.3)
    merged = merge([[b, elsewhere], [a]], iou=0.5)
    assert len(merged) == 2
    (box, conf), other = merged
    assert conf == 0.6  # the surest view's confidence: a view that missed it says nothing against it
    assert box == pytest.approx((10.5, 10.0, 20.5, 30.0))  # (0.6 × 10 + 0.2 × 12) / 0.8
    assert other == elsewhere


def test_one_view_is_left_as_the_finder_gave_it():
    found = [((10.0, 10.0, 20.0, 30.0), 0.6), ((12.0, 10.0, 22.0, 30.0), 0.2)]
    assert merge([found], iou=0.5) == found
    assert merge([[], []], iou=0.5) == []


def test_the_views_are_the_quarter_turns():
    assert VIEWS == {1: (0,), 2: (0, 2), 4: (0, 1, 2, 3)}
    with pytest.raises(DetectorError, match="1, 2 or 4"):
        CardDetector(committed_finder(), views=3)


def test_the_finder_finds_a_zones_sure_indices_whichever_way_it_is_turned():
    detector = CardDetector(committed_finder(), boxes=False)
    image = cv2.imread(str(SAMPLES[1]))
    upright = np.array([b for b, c in detector.find(image, 0.05, quarters=(0,)) if c >= 0.6])
    assert len(upright) >= 5
    for quarter in (1, 2, 3):
        seen = np.array([b for b, _ in detector.find(image, 0.05, quarters=(quarter,))])
        # each sure index is found again, in the unturned image's pixels, where it lies (the
        # finder draws a sideways index's box a pixel or so wider: IoU 0.57 at worst here)
        assert iou_matrix(upright, seen).max(axis=1).min() > 0.5, quarter


def test_four_views_read_the_sample_zones_at_least_as_well_as_one():
    def level(views: int):
        detector = CardDetector(committed_finder(), boxes=False, views=views)
        return card_level(run_detector(detector, SAMPLES, progress=False), conf=0.25)

    one, four = level(1), level(4)
    assert one.labelled == four.labelled >= 30
    # on the sample zones a single reading either way is the processor's rounding, not the
    # views: on some processors one view reads one more than four, where on others four
    # read at least as many
    assert four.correct >= one.correct - 1 and four.duplicates == 0, (one, four)
