"""The index finder exported to OpenVINO, run by OpenVINO itself.

Ultralytics can run an OpenVINO export too, but around the network it builds a predictor
each call, moves the image through torch and back, and loads torch and ultralytics on
start: on our 2-core table nodes that cost about 2 ms of a zone's finding and seconds of
start-up (``docs/benchmarks.md``, twentieth session). The export is static (one image of
the size it was exported at) and has one class, so what is around the network is small:
the image letterboxed as ultralytics letterboxes it for prediction (scaled to fit, centred,
grey border), the outputs' boxes above a confidence, greedy non-maximum suppression
(OpenCV's, which keeps what torchvision's keeps), and the boxes taken back to the image's
pixels. It gives the boxes ultralytics gives (tested against it,
``tests/vision/test_finder.py``), so everything measured with ultralytics holds.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.reader import read_model, run, with_pixel_input

GREY = 114  # the letterbox border ultralytics trains and predicts with
MAX_BOXES = 300  # as many boxes as ultralytics keeps an image


class FinderError(ValueError):
    """An OpenVINO folder that is not a one-class finder export."""


def letterbox(image: np.ndarray, size: int) -> tuple[np.ndarray, tuple[float, float], tuple[int, int]]:
    """``image`` scaled to fit ``size``×``size`` (aspect kept, up or down), centred on grey.

    Returns the size×size BGR image (the image itself where it is that size already), the x
    and y gains (new / old, each side rounded to whole pixels) and the left and top border
    in pixels. The compiled finder takes these bytes as they are (``with_pixel_input``)."""
    height, width = image.shape[:2]
    r = min(size / height, size / width)
    new_w, new_h = max(round(width * r), 1), max(round(height * r), 1)
    if (new_w, new_h) != (width, height):
        image = cv2.resize(image, (new_w, new_h), interpolation=cv2.INTER_LINEAR)
    dw, dh = (size - new_w) / 2, (size - new_h) / 2
    left, top = round(dw - 0.1), round(dh - 0.1)
    if new_w != size or new_h != size:
        image = cv2.copyMakeBorder(image, top, round(dh + 0.1), left, round(dw + 0.1), cv2.BORDER_CONSTANT,
                                   value=(GREY, GREY, GREY))
    return image, (new_w / width, new_h / height), (left, top)


def to_input(image: np.ndarray) -> np.ndarray:
    """A letterboxed BGR image as the exported network itself takes it: 1×3×H×W RGB floats
    in [0, 1] (for calibrating it, ``vision.finder_quantize``)."""
    return cv2.dnn.blobFromImage(image, 1 / 255, swapRB=True)


def xml_of(folder: Path) -> Path:
    """The network file of an OpenVINO export folder."""
    found = sorted(folder.glob("*.xml"))
    if not found:
        raise FinderError(f"{folder}: no OpenVINO model (.xml) in it")
    return found[0]


class OpenVinoFinder:
    """A one-class finder exported by ``guandan export`` (``*_openvino_model/``), run directly."""

    def __init__(self, folder: Path) -> None:
        import openvino as ov

        model = read_model(xml_of(folder), FinderError)
        shape = model.inputs[0].get_partial_shape()
        out = model.outputs[0].get_partial_shape()
        if shape.is_dynamic or shape[2].get_length() != shape[3].get_length() or out.rank.get_length() != 3:
            raise FinderError(f"{folder}: not a static square finder export (input {shape}, output {out})")
        if out[1].get_length() != 5:
            raise FinderError(f"{folder}: has {out[1].get_length() - 4} classes, an index finder has one")
        self.size = shape[2].get_length()
        compiled = ov.Core().compile_model(with_pixel_input(model, rgb=True), "CPU", {"PERFORMANCE_HINT": "LATENCY"})
        self.request = compiled.create_infer_request()

    def find(self, image: np.ndarray, conf: float, iou: float) -> tuple[np.ndarray, np.ndarray]:
        """Boxes (N×4, x1 y1 x2 y2 in pixels of ``image``) scored above ``conf``, after NMS at
        ``iou``, and their confidences, surest first."""
        boxed, (gain_x, gain_y), (left, top) = letterbox(image, self.size)
        out = run(self.request, boxed[None])[0]  # 5 × anchors: cx, cy, w, h, score
        sure = out[4] > conf
        cx, cy, w, h, scores = out[:, sure]
        x1, y1 = cx - w / 2, cy - h / 2
        # greedy NMS, surest first, dropping a box that overlaps a kept one by more than iou:
        # torchvision's, which ultralytics uses (OpenCV's, in C++, sorts ties as it does)
        keep = np.asarray(cv2.dnn.NMSBoxes(np.stack([x1, y1, w, h], axis=1), scores, conf, iou),
                          dtype=np.int64).reshape(-1)[:MAX_BOXES]
        boxes = np.stack([x1, y1, cx + w / 2, cy + h / 2], axis=1)[keep]
        scores = scores[keep]
        height, width = image.shape[:2]
        boxes = (boxes - np.array([left, top, left, top], np.float32)) / np.array([gain_x, gain_y, gain_x, gain_y],
                                                                                  np.float32)
        boxes[:, 0::2] = boxes[:, 0::2].clip(0, width)
        boxes[:, 1::2] = boxes[:, 1::2].clip(0, height)
        return boxes, scores
