"""The index reader: which card a corner index found by the finder is.

The detector works in two steps. The finder (a one-class YOLO) says *where* the corner
indices are; this reader looks at each one in a small square patch and says *which card*
it is, or that it is no index at all. Splitting the two makes each easy to learn on our
CPUs: the finder need not tell 54 look-alike classes apart, and the reader sees patches of
40×40 pixels, hundreds of times cheaper than whole zones, so it can be trained on many
more of them.

A patch is cut square around the box's centre, wider than the box's longer side by the
reader's ``pad``, and scaled to ``PATCH`` pixels: a reader that sees the same framing at
every scale. The pad is part of the model (ONNX metadata ``pad``; ``PAD`` for a reader
without it), so readers framed differently can be trained and compared: a wider framing
shows the first pip below or beside the index too (``models/README.md`` says what that
gave). The same ``patch`` function cuts training and live patches, so the two cannot
drift apart.
The model is ONNX, run by OpenVINO (much faster than ONNX Runtime on a table node's CPU); it
is about 40 megaflops per patch.
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import cv2
import numpy as np

from engine.cards import ALL_CARDS
from vision.live.suit_fold import with_suits

PATCH = 40
PAD = 0.2  # how much wider than the box a patch is, unless the reader says otherwise
KEY = "guandan"  # where an OpenVINO reader keeps what its ONNX metadata said (its runtime information)
READS = 2  # how many ways a patch is read unless the reader says otherwise (``reads_of``)
NOT_AN_INDEX = len(ALL_CARDS)  # the reader's last class: something the finder mistook for an index
CLASSES = len(ALL_CARDS) + 1
#: how far, in index sides, the indices around one have a say in which way round it is read
#: (``IndexReader.sideways``: the spread of a Gaussian weight). At 16 a zone's indices
#: decide nearly as one, as its rows lie one way (the held-out zones read a little better
#: than at 8). In a whole-table photo the other seats have a say too, the less the further
#: they lie
NEIGHBOURHOOD = 16.0


class ReaderError(ValueError):
    """A reader model that is missing or of the wrong shape."""


def patch(image: np.ndarray, box: tuple[float, float, float, float], angle: float = 0.0,
          shift: tuple[float, float] = (0.0, 0.0), scale: float = 1.0, pad: float = PAD) -> np.ndarray:
    """The ``PATCH``×``PATCH`` BGR patch around ``box`` (x1, y1, x2, y2 in pixels).

    ``angle`` (degrees), ``shift`` (fractions of the box's side) and ``scale`` are for
    training, where patches are cut as a finder's imperfect boxes would cut them; live
    reading uses the defaults. Outside the image the border pixels are repeated.
    """
    x1, y1, x2, y2 = box
    side = max(x2 - x1, y2 - y1, 1.0) * (1.0 + pad) * scale
    # box edges are continuous coordinates; OpenCV samples pixel i at i, hence the half pixels
    cx = (x1 + x2) / 2 - 0.5 + shift[0] * side
    cy = (y1 + y2) / 2 - 0.5 + shift[1] * side
    mid = (PATCH - 1) / 2
    k = PATCH / side
    a = math.radians(angle)
    cos, sin = k * math.cos(a), k * math.sin(a)
    # maps image → patch: rotate by angle and scale about the box centre, centre to the middle
    m = np.array([[cos, sin, mid - cos * cx - sin * cy],
                  [-sin, cos, mid + sin * cx - cos * cy]], dtype=np.float64)
    flags = cv2.INTER_AREA if k < 0.5 else cv2.INTER_LINEAR
    return cv2.warpAffine(image, m, (PATCH, PATCH), flags=flags, borderMode=cv2.BORDER_REPLICATE)


def to_tensor(patches: np.ndarray) -> np.ndarray:
    """N×PATCH×PATCH×3 uint8 BGR → N×3×PATCH×PATCH float32 in [0, 1], the model's input (in
    training; an OpenVINO model is given the bytes themselves, ``with_pixel_input``)."""
    return np.ascontiguousarray(patches.transpose(0, 3, 1, 2), dtype=np.float32) / 255.0


#: how every model is compiled for the CPU: for one answer at a time, and in full precision
#: wherever the model is not itself 8-bit — OpenVINO would otherwise compute in bfloat16 on a
#: processor with AMX (a recent Xeon), where the same frame then reads differently (a 4K
#: camera's club ace read as a spade) from every other processor the figures were measured on
CPU_CONFIG = {"PERFORMANCE_HINT": "LATENCY", "INFERENCE_PRECISION_HINT": "f32"}


def with_pixel_input(model, rgb: bool = False):
    """``model`` (an OpenVINO model taking N×3×H×W floats in [0, 1]) made to take images as
    OpenCV holds them, N×H×W×3 bytes, BGR: the scaling, channel order and layout are done
    inside the compiled network, not by numpy before it — a copy of every pixel saved.
    ``rgb``: the network wants RGB (the
    finder, trained by ultralytics); the patch readers learnt on BGR."""
    import openvino as ov
    from openvino.preprocess import ColorFormat, PrePostProcessor

    ppp = PrePostProcessor(model)
    tensor = ppp.input().tensor().set_element_type(ov.Type.u8).set_layout(ov.Layout("NHWC"))
    steps = ppp.input().preprocess().convert_element_type(ov.Type.f32)
    if rgb:
        tensor.set_color_format(ColorFormat.BGR)
        steps.convert_color(ColorFormat.RGB)
    steps.scale(255.0)
    ppp.input().model().set_layout(ov.Layout("NCHW"))
    return ppp.build()


def run(request, images: np.ndarray) -> np.ndarray:
    """A compiled ``with_pixel_input`` network's first output for N×H×W×3 uint8 BGR images."""
    return np.asarray(request.infer({0: np.ascontiguousarray(images)}, share_inputs=True)[0])


def softmax(logits: np.ndarray) -> np.ndarray:
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def metadata(path: Path) -> dict[str, str]:
    """An ONNX model's metadata (what an exported reader says of how it was trained)."""
    import onnx

    return {p.key: p.value for p in onnx.load(str(path), load_external_data=False).metadata_props}


def said(path: Path, name: str, default: str, model=None) -> str:
    """What a patch model says of how it was trained (``name``: the index reader's ``pad`` or
    ``reads``, the suit reader's ``reach``): its ONNX metadata, or an 8-bit OpenVINO model's
    runtime information under ``["guandan", name]`` (``vision.training.reader_quantize``; ``model``:
    the model already read); ``default`` if nothing."""
    if path.suffix == ".onnx":
        return metadata(path).get(name, default)
    if path.suffix == ".xml":
        model = model if model is not None else read_model(path)
        return model.get_rt_info([KEY, name]).astype(str) if model.has_rt_info([KEY, name]) else default
    return default


def pad_of(path: Path, model=None) -> float:
    """The framing a reader was trained with (``PAD`` unless it says otherwise)."""
    given = said(path, "pad", repr(PAD), model)
    try:
        return float(given)
    except ValueError:
        raise ReaderError(f"{path}: its pad metadata is not a number ({given!r})") from None


def reads_of(path: Path, model=None) -> int:
    """How many ways the reader reads each patch (``READS`` unless it says otherwise): 2, as
    cut and half turned, the two readings averaged; 1, as cut, for a reader taught to read at
    once what its teacher read both ways (``vision.training.reader_distil``)."""
    given = said(path, "reads", str(READS), model)
    if given not in ("1", "2"):
        raise ReaderError(f"{path}: its reads metadata must be 1 or 2, not {given!r}")
    return int(given)


def fingerprint(path: Path) -> str:
    """A model file's SHA-256: which reader an 8-bit one was made from (``made_from``)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def made_from(quantized: Path) -> str | None:
    """The fingerprint of the reader an 8-bit reader was quantized from, as the JSON that
    ``guandan quantize-reader`` writes beside it says; None where it says nothing."""
    try:
        return json.loads(quantized.with_suffix(".json").read_text(encoding="utf-8")).get("source_sha256")
    except (OSError, ValueError, AttributeError):
        return None


def read_model(path: Path, error: type[ValueError] = ReaderError):
    """An OpenVINO model read from ``path`` (ONNX or OpenVINO's .xml), or ``error`` saying
    why it cannot be."""
    import openvino as ov

    try:
        return ov.Core().read_model(str(path))
    except RuntimeError as exc:
        raise error(f"{path}: not a model OpenVINO can read ({str(exc).splitlines()[0]})") from None


def load_model(path: Path, classes: int, what: str):
    """An exported patch reader (``what``: its name in errors) that must give ``classes``
    classes, read by OpenVINO: (the model, an inference request compiled for the CPU that
    takes the patches' bytes, ``run``)."""
    if not path.exists():
        raise ReaderError(f"{path}: no such {what} model")
    import openvino as ov

    model = read_model(path)
    given = model.outputs[0].get_partial_shape()[-1]
    if given.is_dynamic or given.get_length() != classes:
        raise ReaderError(f"{path}: gives {given} classes, a {what} gives {classes}")
    compiled = ov.Core().compile_model(with_pixel_input(model.clone()), "CPU", CPU_CONFIG)
    return model, compiled.create_infer_request()


class IndexReader:
    """Reads patches with the exported model (``models/reader.onnx``)."""

    def __init__(self, path: str | Path) -> None:
        path = self.path = Path(path)
        model, self.request = load_model(path, CLASSES, "reader")
        self.pad = pad_of(path, model)
        self.reads = reads_of(path, model)

    def probabilities(self, patches: np.ndarray) -> np.ndarray:
        """N×CLASSES probabilities for N patches (class ``NOT_AN_INDEX`` last).

        Each patch is read twice, as cut and turned a half turn, and the two readings are
        averaged: a card's two corner indices are half-turn copies of each other, so the
        reader learnt both views, and their errors are partly independent: on the held-out
        deck styles it reads markedly fewer legible indices wrong, for little more time a
        busy zone (``docs/experiments.md``). Reading only the unsure
        patches again saves nothing: the finder's boxes that reach the reader are mostly
        read below 0.9, and the two views go through the model as one batch. A reader that
        says it reads once (``reads_of``) learnt to read that average itself."""
        if len(patches) == 0:
            return np.zeros((0, CLASSES), np.float32)
        if self.reads == 1:
            return softmax(run(self.request, patches))
        probs = softmax(run(self.request, np.concatenate([patches, patches[:, ::-1, ::-1]])))
        return (probs[:len(patches)] + probs[len(patches):]) / 2

    def sideways(self, patches: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """Probabilities (N×CLASSES) of N patches cut around ``boxes`` (N×4 pixels), each
        read the way round it lies: as cut (and half turned) or a quarter turn round.

        The reader learnt indices mostly upright or upside down, as players lay them; one
        lying sideways — a side seat's cards in a photo of the whole table — it reads much
        worse. So each patch is also
        read a quarter turn round (and three quarters), and read that way where its
        neighbourhood reads surer so: the surest card's probability either way, summed over
        the indices weighted by how near they lie (a Gaussian of ``NEIGHBOURHOOD`` times
        the median index side). One index alone is a poor judge of which way round it lies
        — a sideways 6 can be read as a confident 9 — but the cards of one row lie one way."""
        both = self.probabilities(np.concatenate([patches, np.rot90(patches, 1, axes=(1, 2))]))
        upright, turned = both[:len(patches)], both[len(patches):]  # one batch through the network
        gain = turned[:, :NOT_AN_INDEX].max(axis=1) - upright[:, :NOT_AN_INDEX].max(axis=1)
        centres = (boxes[:, :2] + boxes[:, 2:]) / 2
        reach = NEIGHBOURHOOD * float(np.median(np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])))
        apart = ((centres[:, None] - centres[None]) ** 2).sum(axis=2)
        turn = np.exp(-apart / (2 * max(reach, 1.0) ** 2)) @ gain > 0
        return np.where(turn[:, None], turned, upright)

    def read(self, image: np.ndarray, boxes: list[tuple[float, float, float, float]], ranked: int = 1,
             suits: np.ndarray | None = None, sideways: bool = False) -> list[list[tuple[int, float]]]:
        """For each box its ``ranked`` likeliest classes, likeliest first, as (class,
        probability); class ``NOT_AN_INDEX`` for no index. The runners-up matter when the
        likeliest is impossible, such as a third copy of a card (``table.deck``). ``suits``:
        the suit reader's N×4 opinion of the same boxes, folded in (``vision.live.suit_reader``).
        ``sideways``: the cards may lie any way round, so read each index also a quarter
        turn round where its neighbours read surer so (``sideways``)."""
        if not boxes:
            return []
        patches = np.stack([patch(image, b, pad=self.pad) for b in boxes])
        probs = self.sideways(patches, np.asarray(boxes, np.float64)) if sideways else self.probabilities(patches)
        if suits is not None:
            probs = with_suits(probs, suits)
        order = np.argsort(-probs, axis=1)[:, :ranked]
        return [[(int(c), float(probs[i, c])) for c in row] for i, row in enumerate(order)]
