"""The card detector: corner indices found in an image, whatever backend runs the model.

``CardDetector`` loads a trained model as PyTorch weights (``.pt``, for training), ONNX
(``.onnx``) or OpenVINO (a ``*_openvino_model`` folder, the fastest on our CPUs) and
returns the same ``Detection`` values from each: the card's platform name, the confidence
and the box in pixels of the image given.

Settings (documented in models/README.md): a detection counts from confidence 0.25;
non-maximum suppression at IoU 0.5 is *class-agnostic*, because two indices never overlap
on a real table — overlapping boxes of different cards are one index read two ways, and
only the more confident reading is kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.cards import ALL_CARDS
from vision.yolo_env import prepare

CONFIDENCE = 0.25
IOU = 0.5


@dataclass(frozen=True)
class Detection:
    card: str
    conf: float
    box: tuple[float, float, float, float]  # x1, y1, x2, y2 in pixels

    def to_json(self) -> dict:
        return {"card": self.card, "conf": round(self.conf, 4), "box": [round(v, 1) for v in self.box]}


def detect_tiled(detector: CardDetector, image: np.ndarray, tile: int = 320, overlap: int = 80) -> list[Detection]:
    """Detections in an image wider than the model's input, read in overlapping tiles at full
    resolution (a 560-pixel zone letterboxed into 320 would lose half its detail). An index
    cut by one tile's edge lies whole in the next; the same card read twice in the overlap
    is merged by ``vision.grouping``."""
    width = image.shape[1]
    if width <= tile:
        return detector.detect(image)
    starts = list(range(0, width - tile, tile - overlap)) + [width - tile]
    found: list[Detection] = []
    for x0 in starts:
        for d in detector.detect(image[:, x0:x0 + tile]):
            x1, y1, x2, y2 = d.box
            if (x0 and x1 < 2) or (x0 + tile < width and x2 > tile - 2):
                continue  # cut by this tile's edge: the neighbouring tile sees it whole
            found.append(Detection(d.card, d.conf, (x1 + x0, y1, x2 + x0, y2)))
    return sorted(found, key=lambda d: -d.conf)


class DetectorError(ValueError):
    """A model file that is missing or not a card detector."""


class CardDetector:
    def __init__(self, weights: str | Path, imgsz: int = 320, conf: float = CONFIDENCE, iou: float = IOU) -> None:
        path = Path(weights)
        if not path.exists():
            raise DetectorError(f"{weights}: no such model file")
        prepare()
        from ultralytics import YOLO

        self.path = path
        self.imgsz = imgsz
        self.conf = conf
        self.iou = iou
        self.model = YOLO(str(path), task="detect")
        names = self.model.names if isinstance(self.model.names, dict) else dict(enumerate(self.model.names))
        if names and len(names) != len(ALL_CARDS):
            raise DetectorError(f"{weights}: has {len(names)} classes, a card detector has {len(ALL_CARDS)}")
        self.names = [ALL_CARDS[i] for i in range(len(ALL_CARDS))]

    def detect(self, image: np.ndarray) -> list[Detection]:
        """Detections in a BGR image (as OpenCV reads it), most confident first."""
        result = self.model.predict(image, imgsz=self.imgsz, conf=self.conf, iou=self.iou, agnostic_nms=True,
                                    device="cpu", verbose=False)[0]
        boxes = result.boxes
        xyxy = boxes.xyxy.cpu().numpy() if len(boxes) else np.zeros((0, 4))
        confs = boxes.conf.cpu().numpy() if len(boxes) else np.zeros(0)
        classes = boxes.cls.cpu().numpy().astype(int) if len(boxes) else np.zeros(0, int)
        out = [Detection(self.names[c], float(p), tuple(float(v) for v in b))
               for b, p, c in zip(xyxy, confs, classes, strict=True)]
        return sorted(out, key=lambda d: -d.conf)
