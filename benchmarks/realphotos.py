"""Real phone photographs of real cards: how many cards the detector reads at the right rank.

``../shared/realphotos/edje`` holds the project's only real photographs: 363 phone photos of
Bicycle-style decks (``test/`` 67, ``train/`` 296), each card boxed whole and labelled with its
rank, nine to ace (``vision.training.real_photos``). Each photo is read as ``guandan detect``
reads it (the committed finder at 640 over the whole photo at every scale, the reader, the box
refiners; confidence 0.25). A card is read when an index found in its box is read at its rank;
an index reading inside a card's box at a rank no card there has is a wrong reading.

Nothing here is trained on these photos: ``test/`` is the measure.

Run: ``.venv/bin/python benchmarks/realphotos.py [--split test|train|all] [--folder DIR]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2

if not __package__:  # run as a file: make the project importable
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from benchmarks.machine import describe  # noqa: E402
from vision.cli.detect import default_views  # noqa: E402
from vision.live.detector import CardDetector, committed_finder  # noqa: E402
from vision.live.photo import detect_photo  # noqa: E402
from vision.progress import progress_bar  # noqa: E402
from vision.training.real_photos import CardsRead, labelled_photos  # noqa: E402

FOLDER = Path(__file__).resolve().parents[2] / "shared" / "realphotos" / "edje"
IMGSZ = 640  # guandan detect's default


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="test", choices=["test", "train", "all"])
    parser.add_argument("--folder", type=Path, default=FOLDER, help=f"the photos (default {FOLDER})")
    parser.add_argument("--weights", type=Path, help="a 640 finder to measure (default: the committed one)")
    parser.add_argument("--reader", type=Path, help="a reader to measure (.onnx or 8-bit .xml; default: the committed "
                                                    "one)")
    args = parser.parse_args()
    splits = ["test", "train"] if args.split == "all" else [args.split]
    photos = [p for split in splits for p in labelled_photos(args.folder / split)]
    if not photos:
        raise SystemExit(f"no labelled photos in {args.folder} ({', '.join(splits)})")
    print(describe())
    detector = CardDetector(args.weights or committed_finder(IMGSZ), imgsz=IMGSZ, views=default_views(IMGSZ),
                            sideways=True, reader=args.reader)
    print(f"finder {detector.path}, reader {detector.reader.path}")
    tally = CardsRead()
    started = time.perf_counter()
    with progress_bar(len(photos), "photos", unit="photo") as bar:
        for path, cards in photos:
            tally.add(cards, [d for d in detect_photo(detector, cv2.imread(str(path))) if d.conf >= 0.25])
            bar.update()
    took = time.perf_counter() - started
    print(f"{len(photos)} photos ({' + '.join(splits)}): cards read at the right rank {tally.read}/{tally.cards} "
          f"({tally.share:.1%}); index readings on a card at a rank it does not have {tally.wrong}/{tally.readings}; "
          f"{took / len(photos):.2f} s a photo")


if __name__ == "__main__":
    main()
