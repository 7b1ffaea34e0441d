"""Training and exporting the card detector with ultralytics, offline, on the CPU.

The model is built from a model YAML (``yolo11n.yaml`` ships inside ultralytics: no
download) and trained on a dataset from ``guandan dataset build``. Checkpoints are written
every epoch (``last.pt``), so an interrupted run goes on with ``resume``. Augmentation
leaves out left–right flips: a mirrored corner index is not a card anyone can play.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from vision.yolo_env import prepare


class TrainError(ValueError):
    pass


def train(data: str | Path, out: str | Path, *, model: str = "yolo11n.yaml", epochs: int = 30, imgsz: int = 320,
          batch: int = 32, resume: bool = False, patience: int = 50, fraction: float = 1.0,
          hours: float | None = None, lr0: float = 0.002) -> Path:
    """Train (or resume) the index finder and return the best weights' path (``OUT/weights/best.pt``).

    The finder has one class, *index*: every label of the dataset counts as an index
    (``single_cls``), and ``vision.reader`` says which card each one is. With ``hours`` the
    run stops after that long and the learning-rate schedule is fitted to it, so a run can
    be planned around a machine's free time. AdamW at ``lr0`` with no warm-up: a warm-up's
    large bias learning rate wrecked a run started from trained weights."""
    prepare()
    from ultralytics import YOLO

    out = Path(out).resolve()
    last = out / "weights" / "last.pt"
    if resume:
        if not last.exists():
            raise TrainError(f"{last}: nothing to resume (no checkpoint yet)")
        YOLO(str(last)).train(resume=True)
    else:
        data = Path(data)
        if not data.exists():
            raise TrainError(f"{data}: no such dataset YAML (build one with 'guandan dataset build')")
        if not str(model).endswith(".yaml") and not Path(model).exists():
            raise TrainError(f"{model}: give a model YAML (e.g. yolo11n.yaml) or a local .pt")
        YOLO(model).train(
            data=str(data.resolve()), epochs=epochs, imgsz=imgsz, batch=batch, device="cpu", workers=0, amp=False,
            project=str(out.parent), name=out.name, exist_ok=True, pretrained=False, plots=False,
            fliplr=0.0, mosaic=1.0, degrees=0.0, hsv_h=0.01, patience=patience, save_period=-1, verbose=False,
            fraction=fraction, single_cls=True, optimizer="AdamW", lr0=lr0, warmup_epochs=0, close_mosaic=2,
            **({"time": hours} if hours else {}),
        )
    best = out / "weights" / "best.pt"
    return best if best.exists() else last


def export(weights: str | Path, out_dir: str | Path, imgsz: int = 320, formats: tuple[str, ...] = ("onnx", "openvino")
           ) -> list[Path]:
    """Export trained weights for the live loop into ``out_dir``; returns what was written.

    At 320 (zones) the weights are kept beside the exports as ``finder.pt``; any other size
    is exported as ``finder_SIZE`` (``finder_640_openvino_model`` for whole photos) without
    a second copy of the weights. The exports are static: one input size each.
    """
    prepare()
    from ultralytics import YOLO

    weights = Path(weights)
    if not weights.exists():
        raise TrainError(f"{weights}: no such weights file")
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    name = "finder" if imgsz == 320 else f"finder_{imgsz}"
    with tempfile.TemporaryDirectory() as tmp:
        source = out_dir / f"{name}.pt" if imgsz == 320 else Path(tmp) / f"{name}.pt"
        if source.resolve() != weights.resolve():
            shutil.copyfile(weights, source)
        written = [source] if imgsz == 320 else []
        model = YOLO(str(source))
        for fmt in formats:
            made = Path(model.export(format=fmt, imgsz=imgsz, device="cpu", half=False, dynamic=False, simplify=True))
            target = out_dir / made.name
            if made.resolve() != target.resolve():
                if target.is_dir():
                    shutil.rmtree(target)
                shutil.move(str(made), target)
            written.append(target)
    return written
