"""Looks at a still zone pooled into one reading (vision/live/looks.py)."""

import pytest

from vision.live.detector import Detection
from vision.live.looks import iou, pool

BOX = (10.0, 10.0, 20.0, 30.0)
NEAR = (11.0, 10.0, 21.0, 31.0)  # the same index, found a pixel away in the next frame
ELSEWHERE = (40.0, 10.0, 50.0, 30.0)


def test_boxes_overlap_as_intersection_over_union():
    assert iou(BOX, BOX) == 1.0
    assert iou(BOX, ELSEWHERE) == 0.0
    assert iou(BOX, NEAR) == pytest.approx(180 / 230)


def test_one_look_is_the_reading_itself_above_the_floor():
    look = [Detection("S5", 0.8, BOX, (("C5", 0.1),)), Detection("H9", 0.2, ELSEWHERE)]
    assert pool([look], 0.25) == [look[0]]
    assert pool([]) == []


def test_an_index_read_two_ways_takes_the_card_surer_over_the_looks():
    looks = [[Detection("S5", 0.5, BOX, (("C5", 0.4),))],
             [Detection("C5", 0.6, NEAR, (("S5", 0.3),))],
             [Detection("C5", 0.5, BOX, (("S5", 0.35),))]]
    (d,) = pool(looks, 0.25)
    assert d.card == "C5" and d.conf == pytest.approx((0.4 + 0.6 + 0.5) / 3)
    assert d.others[0] == ("S5", pytest.approx((0.5 + 0.3 + 0.35) / 3))
    assert d.box == NEAR  # where the surest look found it


def test_a_flicker_in_one_look_fades_and_a_steady_index_stays():
    steady = Detection("HK", 0.6, BOX)
    looks = [[steady, Detection("D3", 0.5, ELSEWHERE)], [steady], [steady]]
    assert [d.card for d in pool(looks, 0.25)] == ["HK"]


def test_an_index_read_twice_in_one_look_counts_once():
    """Two tiles overlap: one look may hold the same index twice."""
    looks = [[Detection("SA", 0.4, BOX), Detection("SA", 0.35, NEAR)], [Detection("SA", 0.2, BOX)]]
    (d,) = pool(looks, 0.25)
    assert d.card == "SA" and d.conf == pytest.approx((0.4 + 0.2) / 2)


def test_readings_come_surest_first():
    looks = [[Detection("H2", 0.3, BOX), Detection("D4", 0.9, ELSEWHERE)]] * 2
    assert [d.card for d in pool(looks)] == ["D4", "H2"]
