"""Training and exporting the card detector with ultralytics, offline, on the CPU.

The model is built from a model YAML (``yolo11n.yaml`` ships inside ultralytics: no
download) and trained on a dataset from ``guandan dataset build``. Checkpoints are written
every epoch (``last.pt``), so an interrupted run goes on with ``resume``. Augmentation
leaves out left–right flips: a mirrored corner index is not a card anyone can play.

ultralytics and its YAML reader are imported inside the functions that use them: heavy to
load, and needed only when a model is trained, quantized or run through them, not for
``guandan --help`` or at a table.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from vision.errors import DatasetError
from vision.live.detector import ZONE
from vision.live.finder import WHOLE, FinderError
from vision.live.yolo_env import prepare
from vision.training.evaluate import read_dataset
from vision.training.finder_quantize import quantize_finder


class TrainError(ValueError):
    pass


def _dataset(path: Path) -> tuple[dict, Path]:
    """A dataset YAML given to train on, read (``vision.training.evaluate.read_dataset``), or
    ``TrainError`` saying why it cannot be."""
    if not path.exists():
        raise TrainError(f"{path}: no such dataset YAML (build one with 'guandan dataset build')")
    try:
        return read_dataset(path)
    except DatasetError as exc:
        raise TrainError(str(exc)) from None


def combine(datasets: list[str | Path], out: str | Path) -> Path:
    """One dataset YAML (``OUT/data.yaml``) training on every dataset's training images and
    validating on the first one's, so the finder can learn from several rendered sets (each
    with its own deck styles) without copying images. The sets must name the same classes."""
    import yaml

    specs = []
    for path in map(Path, datasets):
        spec, root = _dataset(path)
        if "train" not in spec or "names" not in spec:
            raise TrainError(f"{path}: not a dataset YAML (it has no train images or class names)")
        specs.append((path, root.resolve(), spec))
    first_path, first_root, first = specs[0]
    for path, _, spec in specs[1:]:
        if list(spec["names"]) != list(first["names"]):
            raise TrainError(f"{path}: its classes differ from {first_path}'s")
    out = Path(out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    combined = {"train": [str(root / spec["train"]) for _, root, spec in specs],
                "val": str(first_root / first["val"]), "nc": len(first["names"]), "names": list(first["names"])}
    target = out / "data.yaml"
    sources = " + ".join(str(p) for p, _, _ in specs)
    target.write_text(f"# {sources}\n" + yaml.safe_dump(combined, allow_unicode=True, default_flow_style=None),
                      encoding="utf-8")
    return target


def _every_core(_trainer: object) -> None:
    """Train on every core: ultralytics sets torch to one thread fewer than the machine has,
    which on a two-core table node halves the speed of training for nothing."""
    import torch

    torch.set_num_threads(os.cpu_count() or 1)


def train(data: str | Path | list[str | Path], out: str | Path, *, model: str = "yolo11n.yaml", epochs: int = 30,
          imgsz: int = 320, batch: int = 32, resume: bool = False, patience: int = 50, fraction: float = 1.0,
          hours: float | None = None, lr0: float = 0.002, device: str = "cpu", workers: int = 0,
          on_batch: Callable[[], None] | None = None) -> Path:
    """Train (or resume) the index finder and return the best weights' path (``OUT/weights/best.pt``).

    The finder has one class, *index*: every label of the dataset counts as an index
    (``single_cls``), and ``vision.live.reader`` says which card each one is. With ``hours`` the
    run stops after that long and the learning-rate schedule is fitted to it, so a run can
    be planned around a machine's free time. AdamW at ``lr0`` with no warm-up: a warm-up's
    large bias learning rate wrecked a run started from trained weights. ``device``: ``cpu``
    or an accelerator (``cuda``, ``cuda:N``); ``workers``: processes loading and augmenting
    the images (0: the training process itself, as on our two-core machines; a lent machine
    with many cores and an accelerator needs them to keep it fed). Mixed precision stays off
    either way: its check would download a model. ``on_batch``: called after each training
    batch (a caller's progress bar)."""
    prepare()
    from ultralytics import YOLO

    out = Path(out).resolve()
    last = out / "weights" / "last.pt"
    if resume:
        if not last.exists():
            raise TrainError(f"{last}: nothing to resume (no checkpoint yet)")
        resumed = YOLO(str(last))
        resumed.add_callback("on_pretrain_routine_start", _every_core)
        resumed.train(resume=True)
    else:
        if isinstance(data, (list, tuple)):
            data = combine(data, out) if len(data) > 1 else (data[0] if data else "")
        if not str(data):
            raise TrainError("give the dataset: --data DATA.yaml (build one with 'guandan dataset build')")
        data = Path(data)
        _dataset(data)  # a dataset YAML, not a recipe or another file: said now, not by ultralytics
        warm = not str(model).endswith(".yaml")  # weights to go on from (ultralytics ignores them if told False)
        if warm and not Path(model).exists():
            raise TrainError(f"{model}: give a model YAML (e.g. yolo11n.yaml) or a local .pt")
        yolo = YOLO(model)
        yolo.add_callback("on_pretrain_routine_start", _every_core)
        if on_batch is not None:
            yolo.add_callback("on_train_batch_end", lambda _trainer: on_batch())
        yolo.train(
            data=str(data.resolve()), epochs=epochs, imgsz=imgsz, batch=batch, device=device, workers=workers,
            amp=False, project=str(out.parent), name=out.name, exist_ok=True, pretrained=warm, plots=False,
            fliplr=0.0, mosaic=1.0, degrees=0.0, hsv_h=0.01, patience=patience, save_period=-1, verbose=False,
            fraction=fraction, single_cls=True, optimizer="AdamW", lr0=lr0, warmup_epochs=0, close_mosaic=2,
            **({"time": hours} if hours else {}),
        )
    best = out / "weights" / "best.pt"
    return best if best.exists() else last


FORMATS = ("onnx", "openvino", "openvino-int8")


def export(weights: str | Path, out_dir: str | Path, imgsz: int = ZONE, formats: tuple[str, ...] = ("onnx", "openvino"),
           calibration: str | Path | None = None) -> list[Path]:
    """Export trained weights for the live loop into ``out_dir``; returns what was written.

    At 320 (zones) the weights are kept beside the exports as ``finder.pt``; any other size
    is exported as ``finder_SIZE`` (``finder_640_openvino_model`` for whole photos) without
    a second copy of the weights. The exports are static (one input size each); the zone
    finder's OpenVINO ones at 320 hold a twin whose height and width are left free
    (``whole/``), so that the live loop can look at a whole seat zone at once
    (``vision.live.finder.OpenVinoFinder.find_whole``).

    ``openvino-int8`` is OpenVINO with 8-bit weights and activations, quantized after
    training from the full-precision export (``vision.training.finder_quantize``: NNCF, on training
    images of the ``calibration`` dataset YAML, the first convolution kept in full
    precision): faster on CPUs with VNNI, reading the held-out decks as full precision does
    (``models/README.md``).
    """
    unknown = set(formats) - set(FORMATS)
    if unknown:
        raise TrainError(f"unknown export format {sorted(unknown)[0]!r} (choose from {', '.join(FORMATS)})")
    if "openvino-int8" in formats:
        if calibration is None or not Path(calibration).exists():
            raise TrainError("openvino-int8 needs --calibration DATA.yaml: a built dataset whose training images "
                             "show what the camera sees")
        try:
            import nncf  # noqa: F401  (vision.training.finder_quantize quantizes with it)
        except ImportError:
            raise TrainError("openvino-int8 needs NNCF: pip install nncf") from None
    prepare()
    from ultralytics import YOLO

    weights = Path(weights)
    if not weights.exists():
        raise TrainError(f"{weights}: no such weights file")
    if weights.suffix != ".pt":
        raise TrainError(f"{weights}: not finder weights (a .pt file from 'guandan train')")
    try:  # loaded before anything is written: a wrong file must not replace the finder in OUT
        YOLO(str(weights))
    except Exception as exc:  # ultralytics and torch say it many ways (pickle, zip, key, type errors)
        raise TrainError(f"{weights}: not finder weights ultralytics can load ({type(exc).__name__})") from None
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    name = "finder" if imgsz == ZONE else f"finder_{imgsz}"
    with tempfile.TemporaryDirectory() as tmp:
        source = out_dir / f"{name}.pt" if imgsz == ZONE else Path(tmp) / f"{name}.pt"
        if source.resolve() != weights.resolve():
            shutil.copyfile(weights, source)
        written = [source] if imgsz == ZONE else []
        model = YOLO(str(source))
        plain: Path | None = None  # the full-precision OpenVINO export, which the 8-bit one is made from
        for fmt in ("onnx", "openvino"):
            if fmt not in formats and not (fmt == "openvino" and "openvino-int8" in formats):
                continue
            whole = None
            if fmt == "openvino" and imgsz == ZONE:  # first, as the static export is written where it is
                whole = Path(tmp) / WHOLE
                shutil.move(str(model.export(format=fmt, imgsz=imgsz, device="cpu", half=False, dynamic=True)), whole)
            made = Path(model.export(format=fmt, imgsz=imgsz, device="cpu", half=False, dynamic=False,
                                     simplify=True))
            target = out_dir / made.name if fmt in formats else Path(tmp) / made.name
            if made.resolve() != target.resolve():
                if target.is_dir():
                    shutil.rmtree(target)
                shutil.move(str(made), target)
            if whole is not None:
                shutil.move(str(whole), target / WHOLE)
            if fmt in formats:
                written.append(target)
            if fmt == "openvino":
                plain = target
        if "openvino-int8" in formats:
            try:
                written.append(quantize_finder(plain, [Path(calibration)], out_dir / f"{name}_int8_openvino_model"))
            except FinderError as exc:
                raise TrainError(str(exc)) from None
    return written
