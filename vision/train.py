"""Training and exporting the card detector with ultralytics, offline, on the CPU.

The model is built from a model YAML (``yolo11n.yaml`` ships inside ultralytics: no
download) and trained on a dataset from ``guandan dataset build``. Checkpoints are written
every epoch (``last.pt``), so an interrupted run goes on with ``resume``. Augmentation
leaves out left–right flips: a mirrored corner index is not a card anyone can play.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from vision.yolo_env import prepare


class TrainError(ValueError):
    pass


def train(data: str | Path, out: str | Path, *, model: str = "yolo11n.yaml", epochs: int = 30, imgsz: int = 320,
          batch: int = 32, resume: bool = False, patience: int = 50, fraction: float = 1.0) -> Path:
    """Train (or resume) and return the best weights' path (``OUT/weights/best.pt``)."""
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
            fraction=fraction,
        )
    best = out / "weights" / "best.pt"
    return best if best.exists() else last


def export(weights: str | Path, out_dir: str | Path, imgsz: int = 320, formats: tuple[str, ...] = ("onnx", "openvino")
           ) -> list[Path]:
    """Export trained weights next to a copy of them in ``out_dir``; returns what was written."""
    prepare()
    from ultralytics import YOLO

    weights = Path(weights)
    if not weights.exists():
        raise TrainError(f"{weights}: no such weights file")
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / weights.name
    if target.resolve() != weights.resolve():
        shutil.copyfile(weights, target)
    written = [target]
    model = YOLO(str(target))
    for fmt in formats:
        path = Path(model.export(format=fmt, imgsz=imgsz, device="cpu", half=False, dynamic=False, simplify=True))
        written.append(path)
    return written
