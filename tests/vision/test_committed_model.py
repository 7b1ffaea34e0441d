"""The committed detector (models/): it loads in every backend and the backends agree.

How well it reads cards is measured honestly in models/README.md (this first checkpoint
reads almost nothing yet); what is tested here is that the three files are the same model:
PyTorch and ONNX Runtime give the same detections, OpenVINO the same boxes (it may run in
bf16 on CPUs that have it, so near-tied classes can swap on weak detections).
"""

from pathlib import Path

import cv2
import numpy as np

from vision.detector import CardDetector, Detection

MODELS = Path(__file__).parents[2] / "models"
SAMPLES = sorted((Path(__file__).parents[2] / "datasets" / "samples" / "images").glob("*.jpg"))


def iou(a: Detection, b: Detection) -> float:
    ax1, ay1, ax2, ay2 = a.box
    bx1, by1, bx2, by2 = b.box
    w = max(0.0, min(ax2, bx2) - max(ax1, bx1))
    h = max(0.0, min(ay2, by2) - max(ay1, by1))
    inter = w * h
    return inter / ((ax2 - ax1) * (ay2 - ay1) + (bx2 - bx1) * (by2 - by1) - inter + 1e-9)


def test_the_backends_are_the_same_model():
    assert SAMPLES
    torch = CardDetector(MODELS / "cards.pt", conf=0.01)
    onnx = CardDetector(MODELS / "cards.onnx", conf=0.01)
    openvino = CardDetector(MODELS / "cards_openvino_model", conf=0.005)
    compared = 0
    for path in SAMPLES:
        image = cv2.imread(str(path))
        t, o, v = torch.detect(image), onnx.detect(image), openvino.detect(image)
        for d in (d for d in t if d.conf >= 0.03):
            twin = max(o, key=lambda e: iou(d, e))
            assert twin.card == d.card and iou(d, twin) > 0.9 and abs(twin.conf - d.conf) < 0.01
            near = max(v, key=lambda e: iou(d, e))
            assert iou(d, near) > 0.7
            if d.conf >= 0.1:  # clear readings: bf16 cannot swap them
                assert near.card == d.card
            compared += 1
    assert compared >= 3  # the comparison saw real detections


def test_boxes_are_in_the_pixels_of_the_image_given():
    image = cv2.imread(str(SAMPLES[1]))
    big = cv2.resize(image, None, fx=2, fy=2, interpolation=cv2.INTER_LINEAR)
    detector = CardDetector(MODELS / "cards.pt", conf=0.02)
    small_boxes = np.array([d.box for d in detector.detect(image)][:3])
    big_boxes = np.array([d.box for d in CardDetector(MODELS / "cards.pt", imgsz=640, conf=0.02).detect(big)][:3])
    assert len(small_boxes) and big_boxes.max() > image.shape[1]  # scaled with the image, not to the model input
