"""The index finder exported to OpenVINO, run by OpenVINO itself.

Ultralytics can run an OpenVINO export too, but around the network it builds a predictor
each call, moves the image through torch and back, and loads torch and ultralytics on
start: on a 2-core table node a noticeable share of a zone's finding, and seconds of
start-up. The export is static (one image of
the size it was exported at) and has one class, so what is around the network is small:
the image letterboxed as ultralytics letterboxes it for prediction (scaled to fit, centred,
grey border), the outputs' boxes above a confidence, greedy non-maximum suppression
(OpenCV's, which keeps what torchvision's keeps), and the boxes taken back to the image's
pixels. It gives the boxes ultralytics gives (tested against it,
``tests/vision/test_finder.py``), so everything measured with ultralytics holds.

The zone finder's export folder also holds a twin, ``whole/``: the same network exported
with its height and width left free, so that the live loop can look at a whole seat zone at
the zone's own scale, padded only to a multiple of the stride (``find_whole``). A 260×560
seat zone is then one look at 288×576 instead of two 320×320 tiles overlapping by 80
pixels: fewer pixels and one call's fixed cost instead of two. The square look keeps the
static network: the 8-bit twin, quantized with its first convolution in full precision
(``vision.training.finder_quantize``), is a little slower at 320 than the committed static
one, made by ultralytics' own 8-bit export. The twin is
compiled once for each shape it is given (reshaped: its anchors are computed from the
shape), so the live loop, whose zones keep their shapes, compiles each once.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.live.reader import CPU_CONFIG, read_model, run, with_pixel_input

GREY = 114  # the letterbox border ultralytics trains and predicts with
MAX_BOXES = 300  # as many boxes as ultralytics keeps an image
STRIDE = 32  # a YOLO's coarsest stride: a free-shape finder's sides are multiples of it
SHAPES_KEPT = 8  # networks compiled for whole looks kept at once, the least recently used dropped
WHOLE = "whole"  # the free-shape twin's folder inside an export folder


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
    in [0, 1] (for calibrating it, ``vision.training.finder_quantize``)."""
    return cv2.dnn.blobFromImage(image, 1 / 255, swapRB=True)


def _finder_model(folder: Path):
    """The network of an export folder, checked to be a one-class finder (5 outputs an anchor)."""
    model = read_model(xml_of(folder), FinderError)
    shape = model.inputs[0].get_partial_shape()
    out = model.outputs[0].get_partial_shape()
    if shape.rank.is_dynamic or shape.rank.get_length() != 4 or out.rank.is_dynamic or out.rank.get_length() != 3:
        raise FinderError(f"{folder}: not a finder export (input {shape}, output {out})")
    if out[1].is_dynamic or out[1].get_length() != 5:
        raise FinderError(f"{folder}: has {out[1]} outputs an anchor, a one-class finder has 5")
    return model


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

        self._core = ov.Core()
        model = _finder_model(folder)
        shape = model.inputs[0].get_partial_shape()
        if shape.is_dynamic or shape[2].get_length() != shape[3].get_length():
            raise FinderError(f"{folder}: not a static square finder export (input {shape})")
        self.size = shape[2].get_length()
        self._model = model
        #: the static network compiled for a batch of n images (``find_all``), each on first
        #: use: a detector looking four ways never compiles it for one image, the live loop,
        #: looking at whole zones, for neither
        self._batches: dict[int, object] = {}
        #: the free-shape twin (``whole/``), reshaped for each shape it looks at (``find_whole``)
        self._whole = None
        if (folder / WHOLE).is_dir():
            self._whole = _finder_model(folder / WHOLE)
            free = self._whole.inputs[0].get_partial_shape()
            if not (free[2].is_dynamic and free[3].is_dynamic):
                raise FinderError(f"{folder / WHOLE}: its height and width are not free (input {free})")
        self._requests: dict[tuple[int, int], object] = {}

    @property
    def free(self) -> bool:
        """Whether it can look at a whole zone of any shape (it has a ``whole/`` twin)."""
        return self._whole is not None

    def _compile(self, model):
        return self._core.compile_model(with_pixel_input(model, rgb=True), "CPU", CPU_CONFIG).create_infer_request()

    def _request(self, height: int, width: int):
        """The twin's inference request for ``height``×``width`` images, compiled on first use;
        the least recently used dropped beyond ``SHAPES_KEPT``."""
        key = (height, width)
        request = self._requests.pop(key, None)
        if request is None:
            model = self._whole.clone()
            model.reshape([1, 3, height, width])
            request = self._compile(model)
            if len(self._requests) >= SHAPES_KEPT:
                self._requests.pop(next(iter(self._requests)))
        self._requests[key] = request  # (re-)inserted last: the most recently used
        return request

    def find(self, image: np.ndarray, conf: float, iou: float) -> tuple[np.ndarray, np.ndarray]:
        """Boxes (N×4, x1 y1 x2 y2 in pixels of ``image``) scored above ``conf``, after NMS at
        ``iou``, and their confidences, surest first: the image letterboxed into the
        finder's square size, as ultralytics predicts."""
        return self.find_all([image], conf, iou)[0]

    def find_all(self, images: list[np.ndarray], conf: float, iou: float) -> list[tuple[np.ndarray, np.ndarray]]:
        """``find`` for each of several images, looked at as one batch: the same boxes as one
        by one (tested), in less time — a network's weights are fetched once for the batch,
        not once an image. The network is compiled once for each batch size."""
        boxed = [letterbox(image, self.size) for image in images]
        request = self._batches.get(len(images))
        if request is None:
            model = self._model.clone()  # compiling gives the network the image's bytes in place
            model.reshape([len(images), 3, self.size, self.size])
            request = self._batches[len(images)] = self._compile(model)
        outs = run(request, np.stack([b for b, _, _ in boxed]))
        return [self._boxes(out, gains, offset, image.shape[:2], conf, iou)
                for out, (_, gains, offset), image in zip(outs, boxed, images, strict=True)]

    def find_whole(self, image: np.ndarray, conf: float, iou: float) -> tuple[np.ndarray, np.ndarray]:
        """As ``find``, but the image looked at whole at its own scale, centred on grey padding
        up to the next multiple of ``STRIDE`` on each side: for a free-shape export (``free``)
        and an image bigger than its square size, where tiles would overlap."""
        if not self.free:
            raise FinderError("this finder was exported for one image size: it cannot look at a whole zone")
        height, width = image.shape[:2]
        padded_h, padded_w = -(-height // STRIDE) * STRIDE, -(-width // STRIDE) * STRIDE
        left, top = (padded_w - width) // 2, (padded_h - height) // 2
        boxed = cv2.copyMakeBorder(image, top, padded_h - height - top, left, padded_w - width - left,
                                   cv2.BORDER_CONSTANT, value=(GREY, GREY, GREY))
        out = run(self._request(padded_h, padded_w), boxed[None])[0]
        return self._boxes(out, (1.0, 1.0), (left, top), (height, width), conf, iou)

    @staticmethod
    def _boxes(out: np.ndarray, gains: tuple[float, float], offset: tuple[int, int],
               shape: tuple[int, int], conf: float, iou: float) -> tuple[np.ndarray, np.ndarray]:
        """One image's network output (5 × anchors: cx, cy, w, h, score) as its boxes, taken
        back to the image of ``shape`` (height, width) that was scaled by ``gains`` and
        offset by ``offset`` into the network's input."""
        sure = out[4] > conf
        cx, cy, w, h, scores = out[:, sure]
        x1, y1 = cx - w / 2, cy - h / 2
        # greedy NMS, surest first, dropping a box that overlaps a kept one by more than iou:
        # torchvision's, which ultralytics uses (OpenCV's, in C++, sorts ties as it does)
        keep = np.asarray(cv2.dnn.NMSBoxes(np.stack([x1, y1, w, h], axis=1), scores, conf, iou),
                          dtype=np.int64).reshape(-1)[:MAX_BOXES]
        boxes = np.stack([x1, y1, cx + w / 2, cy + h / 2], axis=1)[keep]
        scores = scores[keep]
        height, width = shape
        (gain_x, gain_y), (left, top) = gains, offset
        boxes = (boxes - np.array([left, top, left, top], np.float32)) / np.array([gain_x, gain_y, gain_x, gain_y],
                                                                                  np.float32)
        boxes[:, 0::2] = boxes[:, 0::2].clip(0, width)
        boxes[:, 1::2] = boxes[:, 1::2].clip(0, height)
        return boxes, scores

