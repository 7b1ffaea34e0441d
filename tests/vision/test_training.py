"""The training path end to end on the smoke recipe: render, train one epoch offline on the
CPU, export, and detect with every backend."""

from pathlib import Path

import cv2

from vision.detector import CardDetector, Detection
from vision.synth.build import build
from vision.train import export, train

RECIPE = Path(__file__).parents[2] / "datasets" / "smoke.yaml"


def test_one_epoch_on_the_smoke_set_trains_exports_and_detects(tmp_path):
    summary = build(RECIPE, tmp_path / "smoke", progress=False, workers=1)
    data = tmp_path / "smoke" / "data.yaml"
    assert data.exists() and summary is not None
    best = train(data, tmp_path / "run", epochs=1, imgsz=320, batch=8)
    assert best.exists() and (tmp_path / "run" / "weights" / "last.pt").exists()
    written = export(best, tmp_path / "models", imgsz=320)
    names = {p.name for p in written}
    assert {"best.pt", "best.onnx", "best_openvino_model"} <= names
    image = cv2.imread(str(next((tmp_path / "smoke" / "images" / "val").iterdir())))
    for path in written:
        detector = CardDetector(path, imgsz=320, conf=0.001)
        found = detector.detect(image)
        assert all(isinstance(d, Detection) and d.card for d in found)
