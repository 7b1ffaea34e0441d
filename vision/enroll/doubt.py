"""How sure a reading of an enrolled deck must be for no referee to look at it.

A camera's play goes to the referee's queue when it was read below a threshold (the
record's header ``doubt``; ``web.snapshot.LOW_CONFIDENCE`` where the header has none). The
zero-shot models' confidence is the finder's times the reader's, and 0.8 suits it; a deck's
own reader is sure of itself in another way, and at 0.8 it would send most plays read right
to the referee. So enrollment measures its own threshold: the deck's new detector reads
``CHECK_SCENES`` seat zones of this deck drawn as the table's camera sees them (upright, at
its scale), and the threshold is the lowest at which at most ``RISK`` of the readings it lets
through are wrong — a wrong reading above it would reach the record unflagged — never under
``FLOOR`` and never over ``CEILING``, the zero-shot models' own level.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

import cv2

from vision.enroll.finder import draw_scenes
from vision.live.detector import CardDetector
from vision.live.looks import iou
from vision.synth.art_decks import ArtDeck
from vision.synth.scene import SceneConfig
from vision.training.evaluate import label_for, read_labels, split_images

#: seat zones as the live loop rectifies them: cards upright for their seat, 9–13 px/cm
#: (``vision.live.calibration.PX_PER_CM`` and a little either way), no hand over them, and
#: no motion blur — a zone is read only once it lies still (``vision.live.seat_reading``);
#: the rest of the camera's faults as in training. Drawn with smears, the check would count
#: wrong readings of smeared indices no live read meets, and set thresholds too high
CHECK_SCENE = SceneConfig.from_dict({"px_per_cm": [9.0, 13.0], "rows": [1, 2], "overlap": [0.55, 0.80],
                                     "upright_prob": 1.0, "upright_deg": 6.0, "hand_prob": 0.0,
                                     "camera": {"scale": [0.9, 1.1], "motion_prob": 0.0}})
#: a few thousand readings, seconds on two cores: with 1 in 200 allowed wrong, a tenth as
#: many zones let one reading move a deck's threshold far (``docs/experiments.md``)
CHECK_SCENES = 600
#: at most this share of the readings at or above the threshold may be wrong
RISK = 0.005
FLOOR, CEILING = 0.3, 0.8
#: readings below this are not counted (the live loop does not keep them either)
SEEN = 0.1
#: a reading on a labelled index is that index's if their boxes overlap this much
MATCH_IOU = 0.3


def threshold(readings: Sequence[tuple[float, bool]], risk: float = RISK) -> float:
    """The lowest confidence (two decimals, within ``FLOOR``–``CEILING``) from which at most
    ``risk`` of ``readings`` (confidence, read right) are wrong; ``CEILING`` with no readings."""
    if not readings:
        return CEILING
    for step in range(round(FLOOR * 100), round(CEILING * 100)):
        level = step / 100
        above = [right for conf, right in readings if conf >= level]
        if above and above.count(False) <= risk * len(above):
            return level
    return CEILING


def scene_readings(detector: CardDetector, data: Path) -> list[tuple[float, bool]]:
    """Every reading ``detector`` makes of the validation zones of the dataset ``data``
    (a ``data.yaml``), with whether it is right: the card of the labelled index it lies on,
    or, on no labelled index (an index mostly covered, a pip), a card lying in that zone."""
    out = []
    for image_path in split_images(data, "val"):
        image = cv2.imread(str(image_path))
        cards, boxes = read_labels(label_for(image_path), image.shape[1], image.shape[0])
        labels = list(zip(cards, boxes.tolist(), strict=True))
        present = set(cards)
        for found in detector.detect(image, conf=SEEN, upright=True):
            on = max(labels, key=lambda label: iou(label[1], found.box), default=None)
            if on is not None and iou(on[1], found.box) >= MATCH_IOU:
                out.append((found.conf, found.card == on[0]))
            else:
                out.append((found.conf, found.card in present))
    return out


def calibrate(design: ArtDeck, detector: CardDetector, scenes: int = CHECK_SCENES, seed: int = 11) -> dict:
    """The deck's threshold measured on ``scenes`` zones of ``design`` read by ``detector``
    (the deck's own): ``doubt`` and what it was measured on."""
    with tempfile.TemporaryDirectory(prefix="guandan-doubt-") as tmp:
        data = draw_scenes(design, Path(tmp), 0, seed=seed, progress=False, config=CHECK_SCENE, check=scenes)
        readings = scene_readings(detector, data)
    doubt = threshold(readings)
    wrong = sum(1 for _, right in readings if not right)
    return {"doubt": doubt, "zones": scenes, "readings": len(readings), "wrong": wrong,
            "wrong_from_doubt": sum(1 for conf, right in readings if not right and conf >= doubt),
            "right_below_doubt": sum(1 for conf, right in readings if right and conf < doubt)}
