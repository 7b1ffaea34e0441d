"""What a camera check measures in a seat's zone and what it advises (vision.live.camera_check),
on one rendered frame made dark, blurred, glaring or coarse."""

import cv2
import numpy as np

from vision.live.calibration import Calibration, rectify_zone
from vision.live.camera_check import ROWS, SeatCheck, zone_measures
from vision.live.tracker import thumbnail
from vision.live.zone_change import changed_cells


def test_each_fault_of_the_picture_is_named_and_a_good_one_passes():
    from vision.synth.render_game import Renderer, TableState

    renderer = Renderer(5, (1920, 1080))
    view = renderer.view(renderer.table(TableState(rows={seat: list(ROWS[seat]) for seat in "ESWN"})))
    lit = renderer.camera(view)
    calibration = Calibration.from_image(lit)
    empty = renderer.camera(renderer.view(renderer.table(TableState())))
    footprint = changed_cells(*(thumbnail(rectify_zone(image, calibration, "S")) for image in (empty, lit)), 6.0)
    clipped = lit.copy()

    def advice(image: np.ndarray, px_per_cm: float = 9.0) -> list[str]:
        check = SeatCheck("S", ROWS["S"], read=ROWS["S"], confidence=0.9)
        check.measures = zone_measures(rectify_zone(image, calibration, "S"), footprint, px_per_cm, 6.0)
        return check.advice()

    assert advice(lit) == []
    assert advice(renderer.camera(view * 0.2)) == ["dark"]
    assert advice(cv2.GaussianBlur(lit, (0, 0), 2.0)) == ["blurred"]
    clipped = lit.copy()
    clipped[lit.max(axis=2) > 150] = 255  # a lamp's reflection off the cards' gloss
    assert "glare" in advice(clipped)
    assert advice(lit, px_per_cm=6.5) == ["coarse"]
    unread = SeatCheck("S", ROWS["S"])
    assert unread.advice() == ["not_seen"] and not unread.passed
