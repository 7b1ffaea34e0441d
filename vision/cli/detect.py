"""``guandan detect``: find card indices in photos; and the detector both it and
``eval-detector`` load from the same options (``add_detector_options``, ``load_detector``)."""

from __future__ import annotations

import argparse
import json
import sys
from argparse import Namespace
from pathlib import Path
from typing import TYPE_CHECKING

from vision.cli.inputs import VisionError, default_weights, folder_for, lang_option, read_image, written

if TYPE_CHECKING:
    from vision.live.detector import CardDetector


def default_views(imgsz: int) -> int:
    """How many ways the finder looks at an image of this input size unless told: four at
    each quarter turn for a zone (more held-out indices read right), one for a whole photo
    at 640 (four views gained nothing there but more false readings; ``vision.live.turns``)."""
    return 4 if imgsz <= 320 else 1


def load_detector(args: Namespace) -> CardDetector:
    """The detector ``add_detector_options`` describes, or ``VisionError`` saying why it cannot load."""
    # lazy: model and training code, loaded only when a command needs it (keeps guandan --help fast)
    from vision.enroll.deck import Deck, DeckError
    from vision.live.detector import CardDetector, DetectorError

    if args.deck and args.reader:
        raise VisionError("deck_with_reader")
    try:
        boxes = False if args.finder_boxes else args.boxes
        options = {"imgsz": args.imgsz, "conf": args.conf, "boxes": boxes,
                   "views": args.views or default_views(args.imgsz), "sideways": not args.as_laid}
        if args.deck:  # the deck's own finder unless --weights names one
            return Deck.open(args.deck).detector(args.weights, **options)
        return CardDetector(args.weights or default_weights(args.imgsz), reader=args.reader, **options)
    except DeckError as exc:
        raise VisionError(exc.code, **exc.values) from None
    except DetectorError as exc:
        raise VisionError("model_unusable", why=exc) from None


def cmd_detect(args: Namespace) -> None:
    # lazy: model and training code, loaded only when a command needs it (keeps guandan --help fast)
    from vision.live.annotate import draw_detections
    from vision.live.photo import detect_photo

    detector = load_detector(args)
    failed = 0
    if args.annotate:
        folder_for(args.annotate, "--annotate")
    for path in args.images:
        image = read_image(path, args.lang)
        if image is None:
            failed += 1
            continue
        found = detect_photo(detector, image)
        if args.json:
            print(json.dumps({"image": path, "detections": [d.to_json() for d in found]}, ensure_ascii=False))
        else:
            print(f"{path}: {len(found)} card indices")
            for d in found:
                x1, y1, x2, y2 = d.box
                print(f"  {d.card:3} {d.conf:5.2f}  ({x1:.0f}, {y1:.0f}) – ({x2:.0f}, {y2:.0f})")
        if args.annotate:
            out = Path(args.annotate) / Path(path).name
            if not written(str(out), draw_detections(image, found)):
                print(f"guandan: {VisionError('annotation_unwritten', path=out).text(args.lang)}", file=sys.stderr)
                failed += 1
        sys.stdout.flush()
    if failed:
        raise VisionError("images_failed", failed=failed, total=len(args.images))


DECK_HELP = "a deck folder from 'guandan enroll': read the event's own deck with the reader taught it"


def add_detector_options(p: argparse.ArgumentParser) -> None:
    """The finder, reader and box refiners ``detect`` and ``eval-detector`` load, and how they look."""
    p.add_argument("--weights", help="finder (.pt, .onnx or an OpenVINO folder; default: the committed one)")
    p.add_argument("--reader", help="reader (.onnx, or an 8-bit .xml from quantize-reader; default: the one "
                                    "beside the finder, else the committed one, the 8-bit one first)")
    p.add_argument("--boxes", action="append", metavar="REFINER",
                   help="box refiner (.onnx, or an 8-bit .xml from quantize-boxes); given again, a further "
                        "refiner drawing the box once more from the one before's; default: the committed "
                        "refiner and its second look (models/boxes_second.*), the 8-bit ones first")
    p.add_argument("--finder-boxes", action="store_true",
                   help="give the finder's own boxes, not redrawn by the box refiner")
    p.add_argument("--views", type=int, choices=[1, 2, 4],
                   help="how many ways the finder looks at each image: 4 at each quarter turn, 2 as it is "
                        "and half turned, 1 as it is; each view takes one finder's time. Default: 4 at "
                        "--imgsz 320 (zones: about 2 more indices in 100 read right), 1 at larger sizes "
                        "(whole photos, where more views found more but scored no better; models/README.md)")
    p.add_argument("--as-laid", action="store_true",
                   help="read each index only as it lies and upside down, not also a quarter turn round "
                        "(half the reader's time; for images whose cards all lie upright or upside down)")
    p.add_argument("--conf", type=float, default=0.25, help="confidence threshold (default 0.25)")
    p.add_argument("--deck", metavar="DIR", help=DECK_HELP)


def add_detect_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("detect", help="find card indices in photos",
                       description="find card indices in photos of any size: a photo bigger than the finder's input "
                                   "is searched tile by tile at every scale from the whole photo in one input down to "
                                   "its own pixels, and every index found is read at full resolution")
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--annotate", metavar="DIR", help="write each image with its boxes drawn here")
    p.add_argument("--imgsz", type=int, default=640,
                   help="the finder's input size, and its tiles' on a bigger photo (default 640)")
    add_detector_options(p)
    p.add_argument("--json", action="store_true", help="JSON output")
    lang_option(p)
    p.set_defaults(func=cmd_detect)
