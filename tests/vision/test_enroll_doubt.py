"""An enrolled deck's doubt threshold: the lowest confidence from which at most one reading
in two hundred of its check is wrong, and the console weighing each play by it."""

from __future__ import annotations

import pytest

from engine.events import RecordError, event_from_json
from engine.table_events import Header
from rulebook import profiles
from table.runtime import TableRuntime
from tests.vision.table_rig import MODEL
from vision.enroll.doubt import CEILING, CHECK_SCENE, FLOOR, RISK, scene_readings, threshold
from vision.enroll.finder import draw_scenes
from vision.live.detector import CardDetector
from vision.synth.art_decks import by_name


def test_the_threshold_is_the_lowest_level_with_few_enough_wrong_readings_above_it():
    right = [(0.3 + i * 0.0007, True) for i in range(1000)]  # 0.30 … 1.00, all right
    assert threshold(right) == FLOOR
    one_wrong = right + [(0.62, False)]  # one wrong in 1,001 is within the risk (5 allowed)
    assert threshold(one_wrong) == FLOOR
    many_wrong = right + [(0.6, False)] * 8  # above 0.60 eight wrong of ~580: too many; above 0.61 none
    assert threshold(many_wrong) == 0.61
    assert threshold([(0.95, False), (0.99, True)]) == CEILING  # never above the zero-shot level
    assert threshold([]) == CEILING  # nothing measured: as careful as without a deck
    assert threshold(many_wrong, risk=0.02) == FLOOR  # 8 of 1,008 is within 2 %
    assert RISK == 0.005


def test_the_record_header_carries_the_doubt_and_refuses_a_bad_one():
    header = Header(seq=0, t=0.0, profile="jiangsu", table="7", reports_heard=False, doubt=0.47)
    line = header.to_json()
    assert line["doubt"] == 0.47 and event_from_json(line) == header
    assert "doubt" not in Header(seq=0, t=0.0).to_json()  # the console's default
    for bad in (0, 1.2, "0.5", True):
        with pytest.raises(RecordError, match="'doubt'"):
            event_from_json({**line, "doubt": bad})


def test_a_table_records_its_detectors_doubt_in_the_header():
    plain = TableRuntime(CardDetector(MODEL, boxes=False), profiles.load("jiangsu"), table="1")
    taught = TableRuntime(CardDetector(MODEL, boxes=False, doubt=0.52), profiles.load("jiangsu"), table="1")
    assert plain.match.header.doubt is None and taught.match.header.doubt == 0.52
    assert taught.events[0].to_json()["doubt"] == 0.52


@pytest.mark.slow
def test_check_zones_are_read_and_each_reading_judged_against_the_labels(tmp_path):
    """The committed models on check zones of a real training design: readings with their
    right or wrong, mostly right (a design of the training families), and a threshold."""
    design = by_name("simplistic")
    data = draw_scenes(design, tmp_path, 0, seed=3, progress=False, config=CHECK_SCENE, check=8)
    assert len(list((tmp_path / "images" / "train").glob("*.jpg"))) == 0
    readings = scene_readings(CardDetector(MODEL, boxes=False), data)
    assert len(readings) > 20
    assert sum(right for _, right in readings) > 0.8 * len(readings)
    assert FLOOR <= threshold(readings) <= CEILING
