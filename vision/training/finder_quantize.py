"""The index finder in 8 bits: its full-precision OpenVINO export quantized by NNCF.

Quantizing after training needs only images to measure each layer's range. They are the
calibration dataset's *training* images (training deck styles: a set whose validation split
holds held-out decks, as ``zones-train-640``'s does, must not leak them into the model),
letterboxed as ``vision.live.finder`` letterboxes a live image, a fixed draw of them so the same
command writes the same model.

Left in full precision: the head's box decoding and sigmoid (as ultralytics' own 8-bit
export leaves them: they turn logits into the boxes' pixels and the confidences), and the
**first convolution**, which sees raw pixels — where a faint index is a few grey levels:
quantized too, it loses faint indices that full precision finds (``docs/experiments.md``).

NNCF and OpenVINO are imported inside the functions that use them: heavy to load, and needed
only when a model is trained, quantized or run through them, not for ``guandan --help`` or
at a table.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np
import yaml

from vision.errors import DatasetError
from vision.live.finder import WHOLE, FinderError, letterbox, to_input, xml_of
from vision.live.reader import read_model
from vision.training.evaluate import split_images

IMAGES = 300  # calibration images, as ultralytics' export takes


def kept_in_full_precision(model) -> list[str]:
    """The operations left unquantized: the first convolution, and the head's sigmoid and
    box decoding (named under the Detect head's scope by ultralytics' export)."""
    ops = model.get_ordered_ops()
    convs = [op.get_friendly_name() for op in ops if op.get_type_name() == "Convolution"]
    sigmoids = [op.get_friendly_name() for op in ops if op.get_type_name() == "Sigmoid"]
    if not convs or not sigmoids:
        raise FinderError("not a YOLO finder export: no convolution or no sigmoid in it")
    head = sigmoids[-1].split("/", 1)[0]
    decoding = [op.get_friendly_name() for op in ops
                if op.get_type_name() == "Sigmoid" or op.get_friendly_name().startswith((f"{head}/", f"{head}.dfl"))]
    return [convs[0], *decoding]


def calibration_images(sets: list[Path], count: int = IMAGES, seed: int = 0) -> list[Path]:
    """``count`` training images drawn at random (``seed``) from the sets' training splits."""
    found: list[Path] = []
    for data in sets:
        try:
            found += split_images(data, "train")
        except DatasetError as exc:
            raise FinderError(f"{data}: no training images to calibrate on ({exc.why})") from None
    if not found:
        raise FinderError("no training images in the calibration sets")
    pick = np.random.default_rng(seed).permutation(len(found))[:count]
    return [found[i] for i in sorted(pick)]


def quantize_finder(folder: Path, sets: list[Path], out: Path, *, count: int = IMAGES, seed: int = 0) -> Path:
    """Write ``out`` (an ``*_openvino_model`` folder): the full-precision finder export
    ``folder`` in 8 bits, calibrated on ``count`` training images of ``sets``, and its
    free-shape twin (``whole/``) where it has one, calibrated on the same images letterboxed
    to the same size. Returns ``out``."""
    try:
        import nncf  # noqa: F401  (quantize_network quantizes with it)
    except ImportError:
        raise FinderError("quantizing needs NNCF: pip install nncf") from None
    model = read_model(xml_of(folder), FinderError)
    size = model.inputs[0].get_partial_shape()[2].get_length()
    images = calibration_images(sets, count, seed)
    if out.exists():
        shutil.rmtree(out)
    for source, target in ((folder, out), (folder / WHOLE, out / WHOLE)):
        if source.is_dir():
            quantize_network(source, images, size, target)
            meta_path = source / "metadata.yaml"
            if meta_path.exists():  # what ultralytics wrote of the model, saying now how it was quantized
                meta = yaml.safe_load(meta_path.read_text(encoding="utf-8")) or {}
                meta.setdefault("args", {}).update(quantize=8, data=", ".join(str(d) for d in sets),
                                                   calibration_images=len(images),
                                                   kept_in_full_precision="first convolution, head decoding")
                (target / "metadata.yaml").write_text(yaml.safe_dump(meta, sort_keys=False, allow_unicode=True),
                                                      encoding="utf-8")
    return out


def quantize_network(folder: Path, images: list[Path], size: int, out: Path) -> None:
    """One export folder's network quantized into ``out``, calibrated on ``images`` letterboxed
    to ``size``×``size`` as the live finder letterboxes them."""
    import nncf
    import openvino as ov

    xml = xml_of(folder)
    model = read_model(xml, FinderError)

    def tensor(path: Path) -> np.ndarray:
        image = cv2.imread(str(path))
        if image is None:
            raise FinderError(f"{path}: not an image")
        return to_input(letterbox(image, size)[0])

    quantized = nncf.quantize(model, nncf.Dataset(images, tensor), preset=nncf.QuantizationPreset.MIXED,
                              subset_size=len(images),
                              ignored_scope=nncf.IgnoredScope(names=kept_in_full_precision(model), validate=False))
    out.mkdir(parents=True)
    ov.save_model(quantized, str(out / xml.name), compress_to_fp16=False)
