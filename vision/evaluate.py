"""Honest figures for the card detector: mAP, per-class AP, card-level accuracy, confusions.

mAP comes from ultralytics' validator. The card-level figures come from our own matching,
because that is what a referee cares about: of the indices labelled in the set, how many
were read as the right card, how many were missed, how many were read twice, and which
cards are mistaken for which — with the classic confusions of card recognition named.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import yaml

from engine.cards import ALL_CARDS, rank_of, suit_of
from vision.detector import CardDetector

#: the confusions card readers are known for, by name
CLASSIC = {
    "6/9": ({"6", "9"}, None), "6/8": ({"6", "8"}, None), "Q/9": ({"Q", "9"}, None), "3/5": ({"3", "5"}, None),
    "A/4": ({"A", "4"}, None), "spade/club": (None, {"S", "C"}), "heart/diamond": (None, {"H", "D"}),
}


def classify_confusion(truth: str, read: str) -> str:
    """Name a confusion: a classic pair, the two jokers, a 180° reading, or "other"."""
    if {truth, read} == {"SB", "HR"}:
        return "jokers"
    if "SB" in (truth, read) or "HR" in (truth, read):
        return "other"
    ranks, suits = {rank_of(truth), rank_of(read)}, {suit_of(truth), suit_of(read)}
    same_suit, same_rank = len(suits) == 1, len(ranks) == 1
    if same_suit and ranks == {"6", "9"}:
        return "6/9 (180° rotation)"
    for name, (rank_pair, suit_pair) in CLASSIC.items():
        if rank_pair and same_suit and ranks == rank_pair:
            return name
        if suit_pair and same_rank and suits == suit_pair:
            return name
    return "other"


@dataclass
class CardLevel:
    labelled: int = 0
    correct: int = 0
    wrong: int = 0
    missed: int = 0
    duplicates: int = 0
    false_positives: int = 0
    confusions: Counter = field(default_factory=Counter)
    pairs: Counter = field(default_factory=Counter)

    @property
    def accuracy(self) -> float:
        return self.correct / self.labelled if self.labelled else 0.0


def _iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    x1 = np.maximum(a[:, None, 0], b[None, :, 0])
    y1 = np.maximum(a[:, None, 1], b[None, :, 1])
    x2 = np.minimum(a[:, None, 2], b[None, :, 2])
    y2 = np.minimum(a[:, None, 3], b[None, :, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    area = lambda r: (r[:, 2] - r[:, 0]) * (r[:, 3] - r[:, 1])  # noqa: E731
    return inter / (area(a)[:, None] + area(b)[None, :] - inter + 1e-9)


def read_labels(path: Path, width: int, height: int) -> tuple[list[str], np.ndarray]:
    cards, boxes = [], []
    if path.exists():
        for line in path.read_text().split("\n"):
            if line.strip():
                c, cx, cy, w, h = line.split()
                cx, cy, w, h = float(cx) * width, float(cy) * height, float(w) * width, float(h) * height
                cards.append(ALL_CARDS[int(c)])
                boxes.append([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2])
    return cards, np.array(boxes, dtype=float).reshape(-1, 4)


def label_for(image_path: Path) -> Path:
    """The YOLO label file of an image: the ``images`` folder becomes ``labels``."""
    parts = list(image_path.parts)
    i = len(parts) - 1 - parts[::-1].index("images")
    parts[i] = "labels"
    return Path(*parts).with_suffix(".txt")


def split_images(data_yaml: Path, split: str) -> list[Path]:
    spec = yaml.safe_load(data_yaml.read_text(encoding="utf-8"))
    root = Path(spec.get("path") or data_yaml.parent)
    folder = root / spec[split]
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))


def card_level(detector: CardDetector, images: list[Path], iou: float = 0.5) -> CardLevel:
    """Match detections to labels image by image (greedy by confidence, IoU ≥ ``iou``)."""
    out = CardLevel()
    for image_path in images:
        image = cv2.imread(str(image_path))
        h, w = image.shape[:2]
        label_path = label_for(image_path)
        truth, truth_boxes = read_labels(label_path, w, h)
        dets = detector.detect(image)
        out.labelled += len(truth)
        matched: set[int] = set()
        if dets and len(truth):
            ious = _iou(np.array([d.box for d in dets]), truth_boxes)
        for i, det in enumerate(dets):
            if not len(truth):
                out.false_positives += 1
                continue
            j = int(np.argmax(ious[i]))
            if ious[i, j] < iou:
                out.false_positives += 1
            elif j in matched:
                out.duplicates += 1
            else:
                matched.add(j)
                if det.card == truth[j]:
                    out.correct += 1
                else:
                    out.wrong += 1
                    out.confusions[classify_confusion(truth[j], det.card)] += 1
                    out.pairs[(truth[j], det.card)] += 1
        out.missed += len(truth) - len(matched)
    return out


def map_scores(weights: Path, data_yaml: Path, imgsz: int, split: str = "val") -> dict:
    """mAP50, mAP50-95 and AP50 per class, from ultralytics' validator."""
    from ultralytics import YOLO

    metrics = YOLO(str(weights), task="detect").val(data=str(data_yaml), imgsz=imgsz, split=split, device="cpu",
                                                    batch=16, workers=0, plots=False, verbose=False, agnostic_nms=True)
    per_class = {ALL_CARDS[int(c)]: float(ap) for c, ap in zip(metrics.box.ap_class_index, metrics.box.ap50,
                                                                 strict=True)}
    return {"map50": float(metrics.box.map50), "map50_95": float(metrics.box.map), "ap50": per_class}
