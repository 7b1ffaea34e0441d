"""Honest figures for the card detector: mAP, per-class AP, card-level accuracy, confusions.

Everything is computed here from the two-step detector's own output (finder then reader),
because ultralytics' validator sees only the one-class finder. mAP is the COCO measure:
per card, the area under the precision–recall curve (101-point interpolation) with IoU
thresholds 0.50 and 0.50:0.95, averaged over the cards the set holds. The card-level
figures are what a referee cares about: of the indices labelled in the set, how many were
read as the right card at the working threshold, how many were missed, how many were read
twice, and which cards are mistaken for which — with the classic confusions named.

Two sets of figures come from one run. *All labels*: every index the renderer labelled,
including those no camera could have resolved (a 3 px/cm photograph, a smeared one, an
index 60 % hidden). *Legible*: only fully visible indices in images that kept at least
``LEGIBLE.min_sharp`` sharp pixels per centimetre of table (``vision.synth.camera.Capture``);
the others become *ignore* regions — a detection on one neither counts for nor against
the detector, as COCO treats its crowd boxes. The targets are about the legible set: it is
what a 1080p camera, in focus, sees of a card lying still.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import yaml

from engine.cards import ALL_CARDS, rank_of, suit_of
from vision.errors import DatasetError
from vision.live.boxes import iou_matrix
from vision.live.detector import CardDetector, Detection
from vision.live.photo import detect_photo
from vision.progress import progress_bar

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


def meta_for(image_path: Path) -> Path:
    """The sidecar of an image (``meta/{split}/*.json``, written by ``guandan dataset build``)."""
    parts = list(image_path.parts)
    i = len(parts) - 1 - parts[::-1].index("images")
    parts[i] = "meta"
    return Path(*parts).with_suffix(".json")


def read_meta(image_path: Path) -> dict | None:
    """The image's sharpness and per-label visibility, or None for a dataset without them."""
    path = meta_for(image_path)
    if not path.exists():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Legibility:
    """Which labels a reader can be asked to read: a sharp enough photograph, an index
    visible enough. 8 sharp px/cm puts about 5 pixels on a rank glyph of 0.6–0.7 cm, the
    least a printed digit is read from; a 1080p camera seeing a 100 cm wide table gives
    about 10 (docs/vision.md)."""

    min_sharp: float = 8.0
    min_visible: float = 0.95
    max_sharp: float = float("inf")

    def mask(self, meta: dict | None, n: int) -> np.ndarray:
        """Per label: legible? Everything is, without a sidecar."""
        if meta is None:
            return np.ones(n, bool)
        visible = np.asarray(meta["visible"], float)
        if len(visible) != n:
            raise ValueError(f"sidecar lists {len(visible)} labels, the label file {n}")
        sharp = label_sharpness(meta, n)
        return (visible >= self.min_visible) & (self.min_sharp <= sharp) & (sharp < self.max_sharp)


def label_sharpness(meta: dict, n: int) -> np.ndarray:
    """Each of ``n`` labels' sharp px/cm of table: the photograph's, times the picture's own
    scale at the label where the picture is left in a leaning camera's perspective (the
    sidecar's ``view_scale``: there the far cards are smaller than the near ones)."""
    sharp = np.full(n, float(meta["sharp_px_per_cm"]))
    if "view_scale" in meta:
        scale = np.asarray(meta["view_scale"], float)
        if len(scale) != n:
            raise ValueError(f"sidecar lists {len(scale)} view scales, the label file {n} labels")
        sharp = sharp * scale
    return sharp


LEGIBLE = Legibility()


def read_dataset(data_yaml: Path) -> tuple[dict, Path]:
    """A dataset YAML's contents and the folder its splits are relative to; ``DatasetError``
    for a file that is not a dataset YAML (a recipe given by mistake, any other file)."""
    try:
        spec = yaml.safe_load(data_yaml.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise DatasetError(data_yaml, f"cannot be read as a dataset YAML ({str(exc).splitlines()[0]})") from None
    if not isinstance(spec, dict) or not any(spec.get(split) for split in ("train", "val", "test")):
        what = "a dataset recipe" if isinstance(spec, dict) and "splits" in spec else "not a dataset YAML"
        raise DatasetError(data_yaml, f"{what} (a dataset YAML names its train and val images, as "
                                      f"'guandan dataset build RECIPE --out DIR' writes DIR/data.yaml)")
    return spec, Path(spec.get("path") or data_yaml.parent)


def split_images(data_yaml: Path, split: str) -> list[Path]:
    """The images of one split, from its folder or folders (a combined dataset lists several)."""
    spec, root = read_dataset(data_yaml)
    if not spec.get(split):
        raise DatasetError(data_yaml, f"has no {split} images")
    folders = [root / f for f in (spec[split] if isinstance(spec[split], list) else [spec[split]])]
    for folder in folders:
        if not folder.is_dir():
            raise DatasetError(data_yaml, f"its {split} images are not there ({folder})")
    return sorted(p for f in folders for p in f.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))


@dataclass
class ImageResult:
    """One image's labels and every detection down to the evaluation floor."""

    truth: list[str]
    truth_boxes: np.ndarray
    detections: list[Detection]
    meta: dict | None = None  # the dataset's sidecar, when it has them

    def only(self, legibility: Legibility = LEGIBLE, iou: float = 0.5) -> ImageResult:
        """The same image with the labels ``legibility`` rules out as ignore regions: they
        leave the truth, and so do the detections whose best match (IoU ≥ ``iou``) is one."""
        return self.keeping(legibility.mask(self.meta, len(self.truth)), iou)

    def keeping(self, keep: np.ndarray, iou: float = 0.5) -> ImageResult:
        """The same image with only the labels ``keep`` marks, the others ignore regions (as ``only``)."""
        if keep.all():
            return self
        dets = self.detections
        if dets and len(self.truth):
            ious = iou_matrix(np.array([d.box for d in dets]), self.truth_boxes)
            best = ious.argmax(axis=1)
            dets = [d for i, d in enumerate(dets) if ious[i, best[i]] < iou or keep[best[i]]]
        return ImageResult([c for c, k in zip(self.truth, keep, strict=True) if k], self.truth_boxes[keep], dets)


def run_detector(detector: CardDetector, images: list[Path], floor: float = 0.001,
                 progress: bool = True) -> list[ImageResult]:
    out = []
    with progress_bar(len(images), "evaluating", enabled=progress) as bar:
        for image_path in images:
            image = cv2.imread(str(image_path))
            h, w = image.shape[:2]
            truth, truth_boxes = read_labels(label_for(image_path), w, h)
            meta = read_meta(image_path)
            Legibility().mask(meta, len(truth))  # a sidecar that disagrees with its labels fails here
            out.append(ImageResult(truth, truth_boxes, detect_photo(detector, image, conf=floor), meta))
            bar.update(1)
    return out


@dataclass(frozen=True)
class Match:
    """What became of one detection at the working threshold: the label it was matched to
    (``label``; None for a false reading) and how (``outcome``: right, wrong, duplicate — a
    second detection of a label already matched — or false)."""

    detection: Detection
    label: int | None
    outcome: str
    iou: float


def match_image(result: ImageResult, conf: float, iou: float = 0.5) -> tuple[list[Match], list[int]]:
    """One image's detections at or above ``conf`` matched to its labels (greedy by
    confidence, IoU ≥ ``iou``), and the labels no detection was matched to (missed). The
    card-level figures and the failure close-ups (``vision.training.failures``) both count this way."""
    truth, truth_boxes = result.truth, result.truth_boxes
    dets = [d for d in result.detections if d.conf >= conf]
    ious = iou_matrix(np.array([d.box for d in dets]), truth_boxes) if dets and len(truth) else None
    matched: set[int] = set()
    out = []
    for i, det in enumerate(dets):
        j = int(np.argmax(ious[i])) if ious is not None else -1
        overlap = float(ious[i, j]) if ious is not None else 0.0
        if overlap < iou:
            out.append(Match(det, None, "false", overlap))
        elif j in matched:
            out.append(Match(det, j, "duplicate", overlap))
        else:
            matched.add(j)
            out.append(Match(det, j, "right" if det.card == truth[j] else "wrong", overlap))
    return out, [j for j in range(len(truth)) if j not in matched]


def card_level(results: list[ImageResult], conf: float, iou: float = 0.5) -> CardLevel:
    """Match detections at or above ``conf`` to labels image by image (``match_image``)."""
    out = CardLevel()
    for result in results:
        matches, missed = match_image(result, conf, iou)
        out.labelled += len(result.truth)
        out.missed += len(missed)
        for m in matches:
            if m.outcome == "false":
                out.false_positives += 1
            elif m.outcome == "duplicate":
                out.duplicates += 1
            elif m.outcome == "right":
                out.correct += 1
            else:
                out.wrong += 1
                truth = result.truth[m.label]
                out.confusions[classify_confusion(truth, m.detection.card)] += 1
                out.pairs[(truth, m.detection.card)] += 1
    return out


def average_precision(scores: list[float], hits: list[bool], positives: int) -> float:
    """COCO AP: precision made monotone, sampled at 101 recall points."""
    if not positives:
        return 0.0
    order = np.argsort(-np.asarray(scores, float), kind="stable")
    tp = np.cumsum(np.asarray(hits, bool)[order])
    fp = np.cumsum(~np.asarray(hits, bool)[order])
    recall = tp / positives
    precision = tp / np.maximum(tp + fp, 1)
    envelope = np.maximum.accumulate(precision[::-1])[::-1] if len(precision) else precision
    points = np.linspace(0, 1, 101)
    at = np.searchsorted(recall, points, side="left")
    return float(np.mean([envelope[k] if k < len(envelope) else 0.0 for k in at]))


def map_scores(results: list[ImageResult]) -> dict:
    """mAP50, mAP50-95 and AP50 per card over the labelled cards of a set."""
    thresholds = np.linspace(0.5, 0.95, 10)
    per_class: dict[str, list[float]] = {}
    for card in sorted({c for r in results for c in r.truth}, key=ALL_CARDS.index):
        # per image, once: the card's detections (most confident first), their IoU with its
        # labels and, per detection, the labels from best overlap to worst
        seen, positives = [], 0
        for r in results:
            truth = r.truth_boxes[[i for i, c in enumerate(r.truth) if c == card]]
            positives += len(truth)
            dets = sorted((d for d in r.detections if d.card == card), key=lambda d: -d.conf)
            ious = iou_matrix(np.array([d.box for d in dets]).reshape(-1, 4), truth) if len(truth) else None
            seen.append((dets, ious, None if ious is None else np.argsort(-ious, axis=1)))
        aps = []
        for t in thresholds:
            scores, hits = [], []
            for dets, ious, best_first in seen:
                used: set[int] = set()
                for i, d in enumerate(dets):
                    scores.append(d.conf)
                    hit = False
                    if ious is not None:
                        free = [j for j in best_first[i] if j not in used and ious[i, j] >= t]
                        if free:
                            used.add(int(free[0]))
                            hit = True
                    hits.append(hit)
            aps.append(average_precision(scores, hits, positives))
        per_class[card] = aps
    if not per_class:
        return {"map50": 0.0, "map50_95": 0.0, "ap50": {}}
    return {"map50": float(np.mean([a[0] for a in per_class.values()])),
            "map50_95": float(np.mean([np.mean(a) for a in per_class.values()])),
            "ap50": {c: a[0] for c, a in per_class.items()}}


#: sharpness bands of the accuracy-by-camera table (sharp px/cm of table)
SHARP_BANDS = ((0, 4), (4, 6), (6, 8), (8, 10), (10, 12), (12, 15), (15, float("inf")))


def by_sharpness(results: list[ImageResult], conf: float, min_visible: float = LEGIBLE.min_visible) -> list[dict]:
    """Fully visible indices read right, band by band of photograph sharpness: what a
    camera must resolve for the accuracy wanted (images without sidecars are left out)."""
    rows = []
    with_meta = [r for r in results if r.meta is not None]
    for lo, hi in SHARP_BANDS:
        band = Legibility(min_sharp=lo, max_sharp=hi, min_visible=min_visible)
        level = card_level([r.only(band) for r in with_meta if band.mask(r.meta, len(r.truth)).any()], conf)
        rows.append(_band_row("sharp_px_per_cm", lo, hi, level))
    return rows


def _band_row(measure: str, lo: float, hi: float, level: CardLevel) -> dict:
    """One row of a by-band table: the band (``measure``: [lo, hi], hi None for open) and its figures."""
    return {measure: [lo, None if hi == float("inf") else hi], "labelled": level.labelled,
            "correct": level.correct, "wrong": level.wrong, "missed": level.missed, "accuracy": level.accuracy}


#: bands of the accuracy-by-index-size table: an index's longer side in sharp pixels
SIZE_BANDS = ((0, 10), (10, 14), (14, 18), (18, 22), (22, 26), (26, 32), (32, float("inf")))


def sharp_sides(result: ImageResult) -> np.ndarray | None:
    """Each label's longer side in *sharp* pixels — its pixels × the share of them that carry
    detail (``sharp_px_per_cm / px_per_cm``): how big an index looks to a camera after blur.
    None without a sidecar that says both."""
    meta = result.meta
    if meta is None or not meta.get("px_per_cm"):
        return None
    b = result.truth_boxes.reshape(-1, 4)
    return np.maximum(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]) * meta["sharp_px_per_cm"] / meta["px_per_cm"]


def sharp_suit_signs(result: ImageResult) -> np.ndarray | None:
    """Each label's suit sign's height in sharp pixels: how tall it is printed
    (``suit_cm``) × the photograph's ``sharp_px_per_cm``. A spade and a club differ in
    lobes a fifth of the sign wide, so this, not the index's size, says whether the suit can
    be told. None without a sidecar that says it."""
    meta = result.meta
    if meta is None or "suit_cm" not in meta:
        return None
    return np.asarray(meta["suit_cm"], float) * label_sharpness(meta, len(meta["suit_cm"]))


def _by_size(results: list[ImageResult], conf: float, counted: Legibility, size, bands, measure: str) -> list[dict]:
    """The indices ``counted`` keeps read right, band by band of ``size(result)`` (per label;
    images it gives None for are left out)."""
    sized = [(r, counted.mask(r.meta, len(r.truth)), size(r)) for r in results]
    sized = [(r, v, s) for r, v, s in sized if s is not None]
    rows = []
    for lo, hi in bands:
        level = card_level([r.keeping(v & (lo <= s) & (s < hi)) for r, v, s in sized], conf)
        rows.append(_band_row(measure, lo, hi, level))
    return rows


def by_index_size(results: list[ImageResult], conf: float, min_visible: float = LEGIBLE.min_visible) -> list[dict]:
    """Fully visible indices read right, band by band of their size in sharp pixels
    (``sharp_sides``): a deck's index size and a camera's resolution in one number, so
    the table says how big an index must look for the accuracy wanted, whatever the deck."""
    return _by_size(results, conf, Legibility(min_sharp=0.0, min_visible=min_visible), sharp_sides, SIZE_BANDS,
                    "sharp_px")


#: bands of the accuracy-by-suit-sign table: the sign's height in sharp pixels
SUIT_BANDS = ((0, 3), (3, 4), (4, 5), (5, 6), (6, 8), (8, float("inf")))


def by_suit_size(results: list[ImageResult], conf: float,
                 legibility: Legibility = Legibility(min_sharp=0.0)) -> list[dict]:
    """Indices ``legibility`` counts (by default the fully visible ones, however sharp) read
    right, band by band of their suit sign's height in sharp pixels (``sharp_suit_signs``):
    the camera requirement for a given deck, since most misreadings left are suits (a spade
    for a club). With ``LEGIBLE`` it splits the legible set so: a sharp enough photograph of a
    deck whose sign is printed small still leaves three or four pixels for it, where no
    reader tells a spade's point from a club's lobes, so the table says which part of the
    targets' gap is pixels and which is the reader."""
    return _by_size(results, conf, legibility, sharp_suit_signs, SUIT_BANDS, "sharp_px")


#: bands of the accuracy-by-turn table: how many degrees an index lies off the nearest quarter turn
TURN_BANDS = ((0, 5), (5, 15), (15, 30), (30, float("inf")))


def off_square(result: ImageResult) -> np.ndarray | None:
    """Each label's index's angle off the nearest quarter turn, 0–45 degrees (its sidecar's
    ``turn_deg``): the reader reads indices lying square to the image — upright, sideways
    or upside down — far better than ones lying at a slant. None without a sidecar that
    says it."""
    meta = result.meta
    if meta is None or "turn_deg" not in meta:
        return None
    turn = np.asarray(meta["turn_deg"], float)
    return np.abs((turn + 45.0) % 90.0 - 45.0)


def by_turn(results: list[ImageResult], conf: float, legibility: Legibility = LEGIBLE) -> list[dict]:
    """Legible indices read right, band by band of how far they lie off square
    (``off_square``): what a camera looking at cards laid any way round may expect. Legible,
    not merely fully visible as the other bands count: a turn says nothing of sharpness,
    and the many blurred indices of every band would hide its effect."""
    return _by_size(results, conf, legibility, off_square, TURN_BANDS, "degrees")
