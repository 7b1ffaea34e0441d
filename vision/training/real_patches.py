"""Training patches from real photographs labelled by card rank only.

The real photos (``vision.training.real_photos``) box each whole card and name its rank, not
its suit, and say nothing of where the corner indices lie. The committed detector finds the
indices; an index found inside exactly one card's box is that card's, so its rank is known
for certain; its suit is not, so the patches are learnt by rank alone
(``vision.training.rank_labels``). Each is named by the reader's likeliest card of that rank
(from its reading and runners-up), or any of that rank where it read none: an index the
reader read at the wrong rank teaches it most.

Each index is cut the way up the reader reads it best (as it lies, or a quarter turn round:
phone photos hold cards turned any way), then jittered as ``reader_train.cut_patches``
jitters rendered ones.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from engine.cards import rank_of
from vision.live.detector import CardDetector, Detection
from vision.live.photo import detect_photo
from vision.live.reader import PAD, PATCH, patch
from vision.progress import progress_bar
from vision.synth.labels import CLASS_OF
from vision.training.reader_train import Patches, jitter_turn
from vision.training.real_photos import LabelledCard, labelled_photos

#: the least confidence an index is found at to be cut: what the detector counts, not a pip or a detail of a face
FLOOR = 0.25


def card_name(detection: Detection, rank: str) -> str:
    """A card of ``rank`` to file the index under: the reader's likeliest of that rank, or
    any (the suit is not learnt from it: ``vision.training.rank_labels``)."""
    return next((name for name in (detection.card, *(n for n, _ in detection.others))
                 if name in CLASS_OF and rank_of(name) == rank), "S" + rank)


def labelled_indices(found: list[Detection], cards: list[LabelledCard]) -> list[tuple[Detection, str]]:
    """Each found index inside exactly one labelled card, with a card name of that card's rank."""
    return [(d, card_name(d, around[0].rank)) for d in found
            if len(around := [c for c in cards if c.holds(d)]) == 1]


def upright_turn(detector: CardDetector, image: np.ndarray, box, rank: str, pad: float) -> float:
    """0 or 90 (degrees): the way round the reader sees ``rank`` likelier at ``box``."""
    views = np.stack([patch(image, box, angle=a, pad=pad) for a in (0.0, 90.0)])
    probs = detector.reader.probabilities(views)
    ofrank = [CLASS_OF[card] for card in CLASS_OF if rank_of(card) == rank]
    return 0.0 if probs[0, ofrank].sum() >= probs[1, ofrank].sum() else 90.0


def real_patches(folder: Path, detector: CardDetector, *, copies: int = 4, seed: int = 0,
                 pad: float = PAD) -> Patches:
    """Patches (``copies`` each, jittered) of every index the detector finds in the labelled
    photos of ``folder`` that can be named (``labelled_indices``)."""
    rng = np.random.default_rng(seed)
    images, classes = [], []
    photos = labelled_photos(folder)
    with progress_bar(len(photos), "real photos", unit="photo") as bar:
        for path, cards in photos:
            image = cv2.imread(str(path))
            if image is not None:
                for d, name in labelled_indices(detect_photo(detector, image, FLOOR), cards):
                    base = upright_turn(detector, image, d.box, rank_of(name), pad)
                    for _ in range(copies):
                        images.append(patch(image, d.box, angle=base + jitter_turn(rng),
                                            shift=tuple(rng.normal(0, 0.06, 2)),
                                            scale=float(rng.uniform(0.85, 1.2)), pad=pad))
                        classes.append(CLASS_OF[name])
            bar.update(1)
    if not images:
        return Patches(np.zeros((0, PATCH, PATCH, 3), np.uint8), np.zeros(0, np.int64), np.zeros(0, bool))
    return Patches(np.stack(images), np.array(classes, np.int64), np.ones(len(classes), bool))
