"""Detector speed per backend: a 640×640 image and a 320×320 zone, median and p90 ms.

Pre- and post-processing included (``CardDetector.detect`` end to end), on rendered images
from the held-out recipe when it has been built, else on the committed sample zones.
Targets on this 2-core machine, exported backend: 640 ≤ 40 ms, 320 ≤ 12 ms (median). The
exports are static 320×320 (the live loop's zone tiles), so only PyTorch is timed at 640.
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

from vision.detector import CardDetector  # noqa: E402

MODELS = Path(__file__).resolve().parent.parent / "models"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=60)
    args = parser.parse_args()
    samples = sorted((MODELS.parent / "datasets" / "samples" / "images").glob("*.jpg"))
    if not samples:
        sys.exit("no sample images in datasets/samples/images")
    zone = cv2.imread(str(samples[0]))
    big = cv2.resize(zone, (640, 640))
    backends = [("openvino", MODELS / "cards_openvino_model"), ("onnx", MODELS / "cards.onnx"),
                ("torch", MODELS / "cards.pt")]
    print(f"{'backend':10} {'size':>5} {'median':>9} {'p90':>9}")
    for name, path in backends:
        if not path.exists():
            print(f"{name:10} missing: {path}")
            continue
        sizes = ((320, zone), (640, big)) if name == "torch" else ((320, zone),)  # exports are static 320
        for size, image in sizes:
            detector = CardDetector(path, imgsz=size)
            for _ in range(5):
                detector.detect(image)  # warm up
            times = []
            for _ in range(args.runs):
                start = time.perf_counter()
                detector.detect(image)
                times.append((time.perf_counter() - start) * 1000)
            times.sort()
            print(f"{name:10} {size:>5} {statistics.median(times):8.1f}ms {times[int(len(times) * 0.9)]:8.1f}ms")


if __name__ == "__main__":
    main()
