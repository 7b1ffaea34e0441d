"""Detector speed per backend: a 640×640 image and a 320×320 zone, median and p90 ms.

Pre- and post-processing included (``CardDetector.detect`` end to end: the finder, then
the reader on every box it found), on a committed sample zone, and on the same zone
scaled to 640×640 (the second sample: 25 labelled indices). The row marked *live* is the
live loop's: the zone read as upright cards, the suit reader looking beside every index too,
and the finder's own boxes (the live loop reads cards; it does not draw boxes); a second live
row reads with the full-precision suit reader instead of the 8-bit one. The other
rows redraw each read index's box with the box refiner and its second look (one row without
them shows what the refiner costs, and one more without it reads with the full-precision
reader instead of the 8-bit one: what 8 bits save; one more with the full-precision box
refiner and second look instead of the 8-bit ones; one with the first look alone, what the
second costs). ``guandan detect`` and ``eval-detector`` look at a 320 zone four ways by
default, the finder seeing it at each quarter turn (``vision.live.turns``; the 320 row with 4
views), and at a 640 image once (the 640 row with 1 view); the 640 row with 4 views is
``--views 4``. At 640 the finder is the 8-bit one (``guandan detect``'s default; one row with
the full-precision 640 finder shows what 8 bits save). The last row is a 1920-pixel photo
(the zone scaled up six times) searched as ``guandan detect`` searches one, at every scale
tile by tile (``vision.live.photo``); it is timed over a tenth of the runs. Two rows marked *seat
zone* read a 260×560 zone as the live loop rectifies one at 10 px/cm (two sample zones side
by side, ``vision.live.detector.detect_tiled``, as upright cards with the finder's boxes): in one
whole look of the free-shape twin (``vision.live.finder``; what the live loop does) and in two
overlapping 320 tiles (for comparison).
Targets on this 2-core machine, exported backend: 640 ≤ 40 ms, 320 ≤ 12 ms (median). The
machine is printed first (``benchmarks.machine``): the 8-bit networks take about twice as long
on a core with AVX2 alone as on one with AVX-512 VNNI. The
exports are static, 320×320 for zones and 640×640 for photos, but for the zone finder's
free-shape twins (``whole/``).
Run: ``.venv/bin/python benchmarks/detector.py [--runs 60]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

if not __package__:  # run as a file: make the project importable
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

import cv2  # noqa: E402

from benchmarks.machine import describe  # noqa: E402
from vision.live.detector import CardDetector, detect_tiled  # noqa: E402
from vision.live.photo import detect_photo  # noqa: E402

MODELS = Path(__file__).resolve().parent.parent / "models"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=60)
    args = parser.parse_args()
    samples = sorted((MODELS.parent / "datasets" / "samples" / "images").glob("*.jpg"))
    if not samples:
        sys.exit("no sample images in datasets/samples/images")
    zone = cv2.imread(str(samples[1]))  # a busy zone: 25 indices, so the reader has work too
    big = cv2.resize(zone, (640, 640))
    photo = cv2.resize(zone, (1920, 1920))
    seat = cv2.hconcat([zone, cv2.imread(str(samples[2]))])[30:290, 40:600]  # 260×560, cards across the seam
    int8 = MODELS / "finder_int8_openvino_model"
    int8_640 = MODELS / "finder_640_int8_openvino_model"  # whole photos' finder (guandan detect's default)
    plain = MODELS / "reader.onnx"  # the full-precision reader, for the row that compares it with the 8-bit one
    plain_suits = MODELS / "suits.onnx"  # the full-precision suit reader, against the 8-bit one
    plain_boxes = [MODELS / "boxes.onnx", MODELS / "boxes_second.onnx"]  # full precision, against the 8-bit ones
    first_look = [MODELS / "boxes_int8.xml"]  # the box refiner without its second look
    # backend, finder, input size, image, upright (with the suit reader), box refiner, views[, reader[, suits[,
    # tiles: a seat zone in tiles[, the box refiner's model[, as laid]]]]]; the box refiner's rows read as
    # `guandan detect` does, each index also a quarter turn round (sideways) unless "as laid"
    runs = [("ov-int8", int8, 320, zone, True, False, 1),
            ("ov-int8", int8, 320, seat, True, False, 1),
            ("ov-int8", int8, 320, seat, True, False, 1, None, None, True),
            ("ov-int8", int8, 320, zone, True, False, 1, None, plain_suits),
            ("ov-int8", int8, 320, zone, False, False, 1),
            ("ov-int8", int8, 320, zone, False, False, 1, plain),
            ("ov-int8", int8, 320, zone, False, True, 1), ("ov-int8", int8, 320, zone, False, True, 4),
            ("ov-int8", int8, 320, zone, False, True, 1, None, None, False, None, True),
            ("ov-int8", int8, 320, zone, False, True, 1, None, None, False, plain_boxes),
            ("ov-int8", int8, 320, zone, False, True, 1, None, None, False, first_look),
            ("openvino", MODELS / "finder_openvino_model", 320, zone, True, False, 1),
            ("openvino", MODELS / "finder_openvino_model", 320, zone, False, True, 1),
            ("onnx", MODELS / "finder.onnx", 320, zone, False, True, 1),
            ("torch", MODELS / "finder.pt", 320, zone, False, True, 1),
            ("ov-int8", int8_640, 640, big, False, True, 1),
            ("ov-int8", int8_640, 640, big, False, True, 4),
            ("openvino", MODELS / "finder_640_openvino_model", 640, big, False, True, 1),
            ("torch", MODELS / "finder.pt", 640, big, False, True, 1),
            ("ov-int8", int8_640, 640, photo, False, True, 1)]
    rows = []
    for name, path, size, image, upright, refine, views, *given in runs:
        reader, suits, tiles, boxes, as_laid = (given + [None, None, False, None, False])[:5]
        if not path.exists():
            print(f"{name:10} missing: {path}")
            continue
        detector = CardDetector(path, imgsz=size, boxes=(boxes or None) if refine else False, views=views,
                                reader=reader, suits=suits, sideways=refine and not as_laid)
        whole = image.shape[0] > size  # a photo bigger than the input: searched at every scale
        zoned = image.shape[1] > size >= image.shape[0]  # a seat zone: one whole look, or tiles

        def run(detector=detector, image=image, upright=upright, whole=whole, zoned=zoned, tiles=tiles) -> list:
            if zoned:
                return detect_tiled(detector, image, upright=upright, whole=not tiles)
            return detect_photo(detector, image) if whole else detector.detect(image, upright=upright)

        for _ in range(1 if whole else 5):
            run()  # warm up
        what = (f"  seat zone {image.shape[0]}×{image.shape[1]}, live, " + ("two tiles" if tiles else "one whole look")
                if zoned else "  live (upright: with the suit reader; the finder's boxes)" if upright
                else "  a photo, every scale, box refiner" if whole else "  box refiner" if refine
                else "  the finder's boxes") + (", the full-precision reader" if reader else "")
        what += ", the full-precision suit reader" if suits else ""
        if boxes:
            what += ", its first look only" if boxes == first_look else ", the full-precision box refiner"
        what += ", read as laid (not sideways)" if as_laid else ""
        label = f"{name:10} {max(image.shape[:2]):>5} {views:>5}"
        rows.append((label, what, run, max(3, args.runs // 10) if whole else args.runs, []))
    # the rows take turns, one run each, so that a VM slowing down for a minute slows them all
    # alike (one row after another, a slow minute made one row look slower than the next)
    for i in range(args.runs):
        for _label, _what, run, count, times in rows:
            if i < count:
                start = time.perf_counter()
                run()
                times.append((time.perf_counter() - start) * 1000)
    print(f"machine: {describe()}")
    print(f"{'backend':10} {'size':>5} {'views':>5} {'median':>9} {'p90':>9}  found")
    for label, what, run, _count, times in rows:
        times.sort()
        median, p90 = statistics.median(times), times[int(len(times) * 0.9)]
        print(f"{label} {median:8.1f}ms {p90:8.1f}ms  {len(run())}{what}")


if __name__ == "__main__":
    main()
