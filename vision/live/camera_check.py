"""The acceptance test of a table's camera: each seat lays a short known row, and the camera
must read it as laid, before a game is played there.

A camera check is the live loop's own reading (``SeatReading``: calibration, still zones,
pooled looks, grouping), not a still photograph's: what passes here is what the table will
see in play. Each seat's row mixes what cameras get wrong — a 10, the court cards, an ace,
clubs beside spades, a joker — and no card is in two rows, so one deck serves the four seats.

Where a seat's row is not read, the zone's own measures say what to change: too dark or
washed out, glare off the cards, a blurred picture, a noisy sensor, or too few pixels per
centimetre for its indices.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.live.annotate import draw_detections
from vision.live.calibration import GOOD_PX_PER_CM
from vision.live.camera import Frame
from vision.live.detector import CardDetector
from vision.live.seat_reading import SeatReading
from vision.live.tracker import Settled

#: what each seat lays, left to right as its player sees it
ROWS: dict[str, tuple[str, ...]] = {
    "E": ("H3", "CJ", "DA", "S8", "C5"),
    "S": ("S2", "HT", "C9", "DQ", "SK"),
    "W": ("C7", "DT", "SA", "H8", "HR"),
    "N": ("D4", "S6", "HK", "CQ", "SB"),
}

#: the cards' paper (the brightest tenth of where they lie) under this grey level is too dark
#: for thin strokes to stand out of the sensor's noise
DARK = 110.0
GLARE_SHARE = 0.02  # a share of the zone's pixels clipped at white: the lamp's reflection off the cards
#: the variance of the Laplacian where the cards lie, their contrast stretched to the full range:
#: under this the indices' strokes are smeared (a sharp 1080p zone gives thousands, a blur of
#: 2 px a few dozen)
SHARP = 200.0
NOISY_FLOOR = 12.0  # a noise floor (vision.live.zone_change) this high hides small changes: more light


@dataclass
class SeatCheck:
    """One seat's row as the camera read it, and what the zone looked like."""

    seat: str
    expected: tuple[str, ...]
    read: tuple[str, ...] | None = None  # the last settled reading; None: no cards settled
    confidence: float = 0.0
    picture: np.ndarray | None = None  # the zone as read, its readings drawn
    measures: dict[str, float] = field(default_factory=dict)

    @property
    def right(self) -> bool:
        return self.read == self.expected

    @property
    def passed(self) -> bool:
        """Read right, and nothing in the zone's picture that play would make worse (a
        row read in the dark today is misread under a player's shadow tomorrow)."""
        return self.right and not self.advice()

    def advice(self) -> list[str]:
        """What to change, as codes (``rulebook.check_words``), the likeliest cause first."""
        m, out = self.measures, []
        if not m:
            return ["not_seen"]
        if m["px_per_cm"] < GOOD_PX_PER_CM:
            out.append("coarse")
        if m["brightness"] < DARK:
            out.append("dark")
        if m["glare"] > GLARE_SHARE:
            out.append("glare")
        if m["sharpness"] < SHARP:
            out.append("blurred")
        if m["noise_floor"] > NOISY_FLOOR:
            out.append("noisy")
        if not self.right and not out:
            out.append("lay_again" if self.read else "not_laid")
        return out


def zone_measures(image: np.ndarray, footprint: np.ndarray | None, px_per_cm: float,
                  noise_floor: float) -> dict[str, float]:
    """Brightness (of the cards' paper: the brightest tenth), glare and sharpness of a
    rectified zone where its cards lie (the whole zone where that is not known), with the
    camera's resolution there and the zone's noise floor."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    where = np.ones(grey.shape, bool)
    if footprint is not None and footprint.any():
        where = cv2.resize(footprint.astype(np.uint8), grey.shape[::-1], interpolation=cv2.INTER_NEAREST) > 0
    low, high = np.percentile(grey[where], (1, 99))
    stretched = (grey.astype(np.float64) - low) * (255.0 / max(high - low, 1.0))  # a dim picture is not a blurred one
    sharpness = cv2.Laplacian(stretched, cv2.CV_64F)[where].var()
    return {"brightness": float(np.percentile(grey[where], 90)), "glare": float((grey[where] >= 250).mean()),
            "sharpness": float(sharpness), "px_per_cm": float(px_per_cm), "noise_floor": float(noise_floor)}


class CameraCheck:
    """Feed frames (``see``) until every seat's row has been read right (``done``) or the
    time is up; ``checks`` says per seat what was read and what the zone looked like."""

    def __init__(self, detector: CardDetector, tell=lambda alert: None) -> None:
        self.seats = SeatReading(detector)
        self.tell = tell  # hears what the camera notices (markers lost, a coarse camera)
        self.checks = {seat: SeatCheck(seat, row) for seat, row in ROWS.items()}

    def see(self, frame: Frame) -> None:
        reading = self.seats.frame(frame)
        for alert in reading.alerts:
            self.tell(alert)
        for seat, change in reading.changes():
            if isinstance(change, Settled) and change.laid.cards:
                self._settled(seat, change)

    def _settled(self, seat: str, change: Settled) -> None:
        check = self.checks[seat]
        if not check.passed:
            check.read, check.confidence = change.laid.cards, change.laid.confidence
            self._look(seat)

    def _look(self, seat: str) -> None:
        """The seat's zone as last read, and its measures, kept on its check."""
        zone, check = self.seats.zones[seat], self.checks[seat]
        check.picture = draw_detections(zone.read_image, zone.detections)
        px = self.seats.calibration.zone_resolution()[seat]
        check.measures = zone_measures(zone.read_image, zone.footprint, px, zone.floor.level)

    def finish(self) -> None:
        """At the end of the check: a seat whose row never settled is judged on its zone as
        last read (nothing read in a dark zone is the light's fault, not the player's)."""
        for seat, check in self.checks.items():
            if not check.measures and self.seats.zones[seat].read_image is not None:
                self._look(seat)

    @property
    def calibrated(self) -> bool:
        return self.seats.calibration is not None

    @property
    def done(self) -> bool:
        return all(check.passed for check in self.checks.values())
