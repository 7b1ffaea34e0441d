"""Close-ups of what the detector got wrong in an evaluation set, for people to look at.

The figures of ``guandan eval-detector`` say how many indices were read wrong, missed or
made up; they cannot say why. Every attempt to move them began by cutting the
failures out of the images by hand to see them: a club whose suit sign is a dot of four
pixels, a diamond printed in an ink no training deck used, a corner of a card half under
the next one boxed as an index. ``eval-detector --failures DIR`` writes one close-up per
failure — the label's box in green, the detection's in red, what it should have read and
what it read written above — and ``failures.csv`` listing them with what the sidecar says
of the photograph, so they can be sorted and counted.

The failures are counted exactly as the figures count them (``vision.training.evaluate.match_image``),
on the same labels: the legible ones where the dataset has sidecars.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.progress import progress_bar
from vision.training.evaluate import ImageResult, match_image

#: the kinds of failure, in the order they are listed
KINDS = ("wrong", "missed", "false", "duplicate")
TRUTH_COLOUR = (60, 180, 60)  # BGR: the label's box
READ_COLOUR = (40, 40, 230)   # the detection's box
HEIGHT = 192                  # a close-up's height in pixels
CONTEXT = 2.5                 # a close-up shows this many box sides each way round the failure


@dataclass(frozen=True)
class Failure:
    """One failure in one image: ``truth`` and ``truth_box`` are the label's (None for a
    false reading), ``read``, ``conf`` and ``box`` the detection's (None for a miss)."""

    kind: str
    image: int
    truth: str | None
    truth_box: tuple[float, float, float, float] | None
    read: str | None
    conf: float | None
    box: tuple[float, float, float, float] | None
    iou: float | None
    label: int | None = None  # the label's place among its image's labels (None: a false reading)


@dataclass(frozen=True)
class Sharpness:
    """How sharp an image is, for the sheet: the photograph's sharp px/cm of table and, in
    a picture a leaning camera took, each label's own (``vision.training.evaluate.label_sharpness``:
    there a far index is smaller than a near one, and a failure's cause is its own size)."""

    photo: float
    labels: np.ndarray

    def of(self, label: int | None) -> float:
        """Label ``label``'s sharp px/cm (the photograph's for a false reading, which has none)."""
        return self.photo if label is None else float(self.labels[label])


def failures(results: list[ImageResult], conf: float, iou: float = 0.5) -> list[Failure]:
    """Every failure in ``results`` at the working threshold ``conf``, kind by kind (``KINDS``)."""
    found = []
    for n, result in enumerate(results):
        matches, missed = match_image(result, conf, iou)
        for m in matches:
            if m.outcome != "right":
                found.append(Failure(m.outcome, n, *_label(result, m.label), m.detection.card, m.detection.conf,
                                     tuple(float(v) for v in m.detection.box), m.iou, m.label))
        found += [Failure("missed", n, *_label(result, j), None, None, None, None, j) for j in missed]
    return sorted(found, key=lambda f: (KINDS.index(f.kind), f.image))


def _label(result: ImageResult, j: int | None) -> tuple[str | None, tuple[float, float, float, float] | None]:
    """Label ``j``'s card and box (None, None for no label)."""
    if j is None:
        return None, None
    x1, y1, x2, y2 = (float(v) for v in result.truth_boxes[j])
    return result.truth[j], (x1, y1, x2, y2)


def close_up(image: np.ndarray, failure: Failure) -> np.ndarray:
    """The failure's neighbourhood of ``image``, boxes drawn, scaled to ``HEIGHT`` pixels
    high, with what it is written above it."""
    boxes = [b for b in (failure.truth_box, failure.box) if b is not None]
    x1, y1 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x2, y2 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    side = max(x2 - x1, y2 - y1, 4.0)
    h, w = image.shape[:2]
    left, top = int(max(0, x1 - CONTEXT * side)), int(max(0, y1 - CONTEXT * side))
    right, bottom = int(min(w, x2 + CONTEXT * side + 1)), int(min(h, y2 + CONTEXT * side + 1))
    k = HEIGHT / max(1, bottom - top)
    crop = cv2.resize(image[top:bottom, left:right], None, fx=k, fy=k, interpolation=cv2.INTER_NEAREST)
    for box, colour in ((failure.truth_box, TRUTH_COLOUR), (failure.box, READ_COLOUR)):
        if box is not None:
            cv2.rectangle(crop, (int((box[0] - left) * k), int((box[1] - top) * k)),
                          (int((box[2] - left) * k), int((box[3] - top) * k)), colour, 1)
    banner = np.full((22, max(crop.shape[1], 200), 3), 255, np.uint8)
    cv2.putText(banner, caption(failure), (4, 16), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 1, cv2.LINE_AA)
    body = np.full((crop.shape[0], banner.shape[1], 3), 255, np.uint8)
    body[:, :crop.shape[1]] = crop
    return np.concatenate([banner, body])


def caption(failure: Failure) -> str:
    """A failure in a few words: "wrong C4 -> S4 0.42", "missed H2", "false SB 0.26"."""
    read = f"{failure.read} {failure.conf:.2f}" if failure.read is not None else ""
    if failure.kind in ("wrong", "duplicate"):
        return f"{failure.kind} {failure.truth} -> {read}"
    return f"{failure.kind} {failure.truth or read}"


def write_failures(results: list[ImageResult], images: list[Path], conf: float, out: Path,
                   sharpness: list[Sharpness | None] | None = None, progress: bool = True) -> list[Failure]:
    """Write a close-up of each failure (``{kind}-{n:04d}.png``) and ``failures.csv`` to
    ``out`` (created; an earlier run's close-ups and sheet there are removed first, so the
    folder holds one run's). ``images``: the image files ``results`` were made from, in the
    same order; ``sharpness``: each image's, for the sheet, where known."""
    out.mkdir(parents=True, exist_ok=True)
    for old in [*out.glob("failures.csv"), *(p for kind in KINDS for p in out.glob(f"{kind}-*.png"))]:
        old.unlink()
    listed = failures(results, conf)
    rows, seen = [], {kind: 0 for kind in KINDS}
    cached: tuple[int, np.ndarray] | None = None
    with progress_bar(len(listed), "writing failures", enabled=progress) as bar:
        for f in listed:
            if cached is None or cached[0] != f.image:
                cached = (f.image, cv2.imread(str(images[f.image])))
            seen[f.kind] += 1
            name = f"{f.kind}-{seen[f.kind]:04d}.png"
            cv2.imwrite(str(out / name), close_up(cached[1], f))
            known = sharpness[f.image] if sharpness is not None else None
            sharp = known.of(f.label) if known is not None else None
            rows.append({"file": name, "kind": f.kind, "image": str(images[f.image]), "truth": f.truth or "",
                         "read": f.read or "", "conf": "" if f.conf is None else f"{f.conf:.3f}",
                         "iou": "" if f.iou is None else f"{f.iou:.3f}",
                         "sharp_px_per_cm": "" if sharp is None else f"{sharp:g}",
                         "box": " ".join(f"{v:.1f}" for v in (f.truth_box or f.box))})
            bar.update(1)
    with (out / "failures.csv").open("w", newline="", encoding="utf-8") as sheet:
        writer = csv.DictWriter(sheet, fieldnames=["file", "kind", "image", "truth", "read", "conf", "iou",
                                                   "sharp_px_per_cm", "box"])
        writer.writeheader()
        writer.writerows(rows)
    return listed
