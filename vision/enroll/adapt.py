"""Teaching the index reader the event's deck, from the enrolled cards' own faces.

The labels are free: each face is named by its place in the layout. Where on a face its
corner index lies is found once by the present finder on the upright face (its surest box in
the top-left quarter; a deck it does not find there gets the corner where indices are
printed, ``CORNER``). Training patches are then cut as the live loop cuts them, around the
index, from rows of this deck's faces laid as plays are laid — each card over the one
before, ``STEP_CM`` to the right, so that the neighbours' edges and art stand where they
will stand at the table — drawn at the seat zones' scale with the camera's faults (light,
blur, noise, JPEG) and a patch's jitter of place, size and turn; empty patches of felt and
of the faces' middles teach what is no index. The committed reader is trained on from its
weights for a few epochs (``EPOCHS``): about a minute on two cores.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.enroll.pictures import BORDER, FACE_PX_PER_CM, LaidCard, on_grey
from vision.live.calibration import PX_PER_CM
from vision.live.detector import MODELS, CardDetector, detect_tiled
from vision.live.reader import NOT_AN_INDEX, IndexReader, patch
from vision.synth.labels import CLASS_OF
from vision.training.reader_train import Patches, train_reader

STEP_CM = 2.1  # how far each card of a row lies right of the one before (as the renderer lays plays)
#: where a face's corner index is, as fractions of its width and height, when the finder does
#: not find it: the printed corner of most decks
CORNER = (0.03, 0.03, 0.2, 0.27)
EPOCHS = 3
#: a face's pixel is ink this much darker than its paper, or this saturated (8-bit)
INK_CONTRAST, INK_SATURATION = 60, 90
#: ink within this many index heights of a card's index is left to the index: a patch of no
#: index cut there would hold much of it (some designs print a big pip beside the index; so
#: taught, the reader would doubt every index and lose some)
INDEX_REACH = 0.9
#: ink within this many index heights of the other two corners, where a deck may print more
#: indices, is left alone too
CORNER_GUARD = 0.4
#: this share of the pip patches are cut at the picture's edge: a zone's edge cuts cards
#: lying across it, and a pip left alone there can be read surely as a joker's corner star
EDGE_SHARE = 0.3
ROWS = 1400  # rows of faces drawn for the training patches


@dataclass(frozen=True)
class IndexedFace:
    card: str
    face: np.ndarray  # upright, at the zones' scale (``PX_PER_CM``)
    index: tuple[float, float, float, float]  # its corner index, in the face's pixels
    found: bool = True  # the finder found the index (else ``index`` is ``CORNER``, a guess)


def indexed_faces(cards: list[LaidCard], detector: CardDetector) -> list[IndexedFace]:
    """Each card's face at the zones' scale and where its corner index lies."""
    out = []
    scale = PX_PER_CM / FACE_PX_PER_CM
    for card in cards:
        small = cv2.resize(card.face, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        box = corner_index(detector, small)
        if box is None:
            h, w = small.shape[:2]
            x1, y1, x2, y2 = CORNER
            out.append(IndexedFace(card.name, small, (x1 * w, y1 * h, x2 * w, y2 * h), found=False))
        else:
            out.append(IndexedFace(card.name, small, box))
    return out


def corner_index(detector: CardDetector, face: np.ndarray) -> tuple[float, float, float, float] | None:
    """The face's top-left corner index: the finder's surest box there (None if none)."""
    h, w = face.shape[:2]
    found = [d for d in detect_tiled(detector, on_grey(face), conf=0.1, upright=True)
             if (d.box[0] + d.box[2]) / 2 - BORDER < w / 2 and (d.box[1] + d.box[3]) / 2 - BORDER < h / 2]
    if not found:
        return None
    x1, y1, x2, y2 = max(found, key=lambda d: d.conf).box
    return x1 - BORDER, y1 - BORDER, x2 - BORDER, y2 - BORDER


def play_row(faces: list[IndexedFace], felt: tuple[int, int, int], rng: np.random.Generator
             ) -> tuple[np.ndarray, list[tuple[str, tuple[float, float, float, float]]], np.ndarray]:
    """``faces`` laid in a row as a play is laid, on ``felt``, with the camera's faults: the
    picture, each card's index box in it, and where it shows ink that is no index (``ink``:
    N×2 x, y)."""
    step = STEP_CM * PX_PER_CM * rng.uniform(0.8, 1.4)
    h = max(f.face.shape[0] for f in faces)
    w = int(step * (len(faces) - 1) + max(f.face.shape[1] for f in faces))
    margin = 24
    canvas = np.empty((h + 2 * margin, w + 2 * margin, 3), np.float32)
    canvas[...] = np.asarray(felt, np.float32) + rng.normal(0, 4, canvas.shape)
    boxes = []
    ink = np.zeros(canvas.shape[:2], np.uint8)
    for i, f in enumerate(faces):
        x0, y0 = margin + int(i * step), margin + int(rng.integers(-3, 4))
        fh, fw = f.face.shape[:2]
        canvas[y0:y0 + fh, x0:x0 + fw] = f.face
        ink[y0:y0 + fh, x0:x0 + fw] = ink_off_the_corners(f)
        x1, y1, x2, y2 = f.index
        reach = INDEX_REACH * max(x2 - x1, y2 - y1)  # the cards before's ink about this index
        ink[max(int(y0 + y1 - reach), 0):int(y0 + y2 + reach), max(int(x0 + x1 - reach), 0):int(x0 + x2 + reach)] = 0
        boxes.append((f.card, (x0 + x1, y0 + y1, x0 + x2, y0 + y2)))
    gain, bias = rng.uniform(0.6, 1.25), rng.uniform(-25, 20)
    cast = rng.uniform(-12, 12, 3)
    picture = canvas * gain + bias + cast
    sigma = rng.uniform(0, 1.2)
    if sigma > 0.3:
        picture = cv2.GaussianBlur(picture, (0, 0), sigma)
    picture += rng.normal(0, rng.uniform(0, 6), picture.shape)
    picture = np.clip(picture, 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 95))])
    ys, xs = np.nonzero(ink)
    return (cv2.imdecode(jpeg, cv2.IMREAD_COLOR) if ok else picture), boxes, np.stack([xs, ys], axis=1)


def ink_off_the_corners(face: IndexedFace) -> np.ndarray:
    """A mask of the face's printing (pips, court art, a joker's picture) away from the four
    corners where a deck may print an index: what a lone pip looks like to the reader."""
    grey = cv2.cvtColor(face.face.astype(np.uint8), cv2.COLOR_BGR2GRAY).astype(np.int16)
    hsv = cv2.cvtColor(face.face.astype(np.uint8), cv2.COLOR_BGR2HSV)
    paper = np.median(grey)
    mask = ((paper - grey > INK_CONTRAST) | (hsv[..., 1] > INK_SATURATION)).astype(np.uint8)
    h, w = mask.shape
    x1, y1, x2, y2 = face.index
    side = max(x2 - x1, y2 - y1)

    def corner(grow: float) -> tuple[int, int]:
        return int(min(x2 + grow, w / 2)), int(min(y2 + grow, h / 2))

    right, bottom = corner(INDEX_REACH * side)  # the index, and its twin turned half round
    mask[:bottom, :right] = mask[h - bottom:, w - right:] = 0
    right, bottom = corner(CORNER_GUARD * side)  # the other two corners
    mask[:bottom, w - right:] = mask[h - bottom:, :right] = 0
    return mask


def deck_patches(faces: list[IndexedFace], felt: tuple[int, int, int], pad: float, rows: int,
                 seed: int = 0) -> Patches:
    """Training patches of this deck's corner indices, cut from ``rows`` rows of its faces
    laid as plays, and as many patches of no index."""
    rng = np.random.default_rng(seed)
    images, classes = [], []
    for _ in range(rows):
        chosen = [faces[i] for i in rng.choice(len(faces), int(rng.integers(1, 6)), replace=False)]
        picture, boxes, ink = play_row(chosen, felt, rng)
        for card, box in boxes:
            images.append(patch(picture, box, angle=float(rng.normal(0, 5)), shift=tuple(rng.normal(0, 0.06, 2)),
                                scale=float(rng.uniform(0.85, 1.2)), pad=pad))
            classes.append(CLASS_OF[card])
        side = float(np.mean([b[3] - b[1] for _, b in boxes]))
        h, w = picture.shape[:2]
        for _ in range(len(boxes)):  # no index: felt, art, a face's middle
            x, y = rng.uniform(0, max(w - side, 1)), rng.uniform(side * 1.2, max(h - side, side * 1.2 + 1))
            if any(abs(x - b[0]) < side * 0.6 and abs(y - b[1]) < side * 0.6 for _, b in boxes):
                continue
            images.append(patch(picture, (x, y, x + side, y + side), angle=float(rng.uniform(0, 360)), pad=pad))
            classes.append(NOT_AN_INDEX)
        for x, y in ink[rng.choice(len(ink), min(len(ink), len(boxes)), replace=False)] if len(ink) else ():
            images.append(pip_patch(picture, (float(x), float(y)), side, pad, rng))  # and a piece of printing
            classes.append(NOT_AN_INDEX)
    return Patches(np.stack(images), np.array(classes, np.int64))


def pip_patch(picture: np.ndarray, at: tuple[float, float], side: float, pad: float,
              rng: np.random.Generator) -> np.ndarray:
    """A patch of no index around the ink at ``at`` (a pip, a piece of art), now and then
    with the picture cut off close by, as a zone's edge cuts a card lying across it."""
    x, y = at
    if rng.random() < EDGE_SHARE:
        gap = int(rng.uniform(0, side * 0.6))
        edge = int(rng.integers(4))  # the picture cut off above, below, left or right of the ink
        top, left = (max(int(y) - gap, 0) if edge == 0 else 0), (max(int(x) - gap, 0) if edge == 2 else 0)
        bottom = int(y) + gap + 1 if edge == 1 else None
        right = int(x) + gap + 1 if edge == 3 else None
        picture, x, y = picture[top:bottom, left:right], x - left, y - top
    dx, dy = rng.normal(0, side * 0.2, 2)
    x1, y1 = x + dx - side / 2, y + dy - side / 2
    return patch(picture, (x1, y1, x1 + side, y1 + side), angle=float(rng.uniform(0, 360)),
                 scale=float(rng.uniform(0.8, 1.3)), pad=pad)


def teach_reader(faces: list[IndexedFace], felt: tuple[int, int, int], out: Path, *, epochs: int = EPOCHS,
                 rows: int = ROWS, log=print) -> dict:
    """The committed reader trained on from its weights on this deck's patches; written to
    ``out`` (ONNX, its weights beside it). Returns the training's figures."""
    committed = IndexReader(MODELS / "reader.onnx")
    train = deck_patches(faces, felt, committed.pad, rows, seed=1)
    val = deck_patches(faces, felt, committed.pad, max(rows // 6, 20), seed=2)
    log(f"# {len(train.classes)} training patches, {len(val.classes)} to check")
    return train_reader(train, val, out, epochs=epochs, batch=128, lr=1e-3, start=MODELS / "reader.pt", log=log,
                        pad=committed.pad, reads=committed.reads)
