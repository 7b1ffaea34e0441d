"""The training path end to end on the smoke recipe: render, train the finder and the reader
for one epoch offline on the CPU, export, and detect with every backend."""

import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
import torch

from vision.live.detector import CardDetector, Detection
from vision.live.finder import OpenVinoFinder
from vision.live.reader import CLASSES, PAD, IndexReader
from vision.synth.build import build
from vision.training.evaluate import Legibility, label_for, read_labels, read_meta, split_images
from vision.training.reader_train import cut_patches, train_reader
from vision.training.train import TrainError, combine, export, train

# make check leaves these out: each trains the finder (pyproject.toml markers)
pytestmark = pytest.mark.video

RECIPE = Path(__file__).parents[2] / "datasets" / "smoke.yaml"


def test_one_epoch_on_the_smoke_set_trains_exports_and_detects(tmp_path):
    summary = build(RECIPE, tmp_path / "smoke", progress=False, workers=1)
    data = tmp_path / "smoke" / "data.yaml"
    assert data.exists() and summary is not None
    threads: list[int] = []
    best = train(data, tmp_path / "run", epochs=1, imgsz=320, batch=8,
                 on_batch=lambda: threads.append(torch.get_num_threads()))
    assert best.exists() and (tmp_path / "run" / "weights" / "last.pt").exists()
    assert threads and set(threads) == {os.cpu_count() or 1}  # every core, not ultralytics' one fewer
    # going on from weights starts from them: at a learning rate of nearly nothing they stay
    again = train(data, tmp_path / "again", model=str(best), epochs=1, imgsz=320, batch=8, lr0=1e-12)
    before, after = conv_weights(best), conv_weights(again)
    assert before.keys() == after.keys() and all(torch.allclose(before[k], after[k], atol=1e-4) for k in before)
    written = export(best, tmp_path / "models", imgsz=320, formats=("onnx", "openvino", "openvino-int8"),
                     calibration=data)
    names = {p.name for p in written}
    assert {"finder.pt", "finder.onnx", "finder_openvino_model", "finder_int8_openvino_model"} <= names
    assert_quantized_but_the_first_convolution(tmp_path / "models" / "finder_int8_openvino_model" / "finder.xml")
    # each OpenVINO export has a free-shape twin for whole seat zones, quantized alike
    assert_quantized_but_the_first_convolution(tmp_path / "models" / "finder_int8_openvino_model" / "whole" /
                                               "finder.xml")
    for folder in ("finder_openvino_model", "finder_int8_openvino_model"):
        finder = OpenVinoFinder(tmp_path / "models" / folder)
        assert finder.size == 320 and finder.free
        boxes, _ = finder.find_whole(np.full((260, 560, 3), 128, np.uint8), 0.01, 0.5)
        assert boxes.shape[1] == 4 and (boxes[:, 2] <= 560).all() and (boxes[:, 3] <= 260).all()

    patches = cut_patches(data, "train", progress=False)
    labelled = sum(len(p.read_text().split()) // 5 for p in (tmp_path / "smoke" / "labels" / "train").glob("*.txt"))
    assert len(patches.classes) >= 2 * labelled and patches.classes.max() == CLASSES - 1  # with no-index patches
    # the sidecars leave out what no one could read: exactly the labels the rule keeps are cut
    rule = Legibility(min_sharp=6.0, min_visible=0.9)
    kept = sum(int(rule.mask(read_meta(p), len(read_labels(label_for(p), 320, 320)[0])).sum())
               for p in split_images(data, "train"))
    readable = cut_patches(data, "train", jitter=False, legibility=rule, progress=False)
    assert 0 < len(readable.classes) == kept < labelled
    figures = train_reader(patches, cut_patches(data, "val", progress=False), tmp_path / "models" / "reader.onnx",
                           epochs=1, log=lambda line: None)
    assert 0.0 <= figures["best_val_accuracy"] <= 1.0 and figures["train_patches"] == len(patches.classes)
    reader = IndexReader(tmp_path / "models" / "reader.onnx")
    assert reader.probabilities(patches.images[:3]).shape == (3, CLASSES)
    assert reader.pad == PAD == figures["pad"]  # the framing it was trained with travels in the model
    wider = train_reader(patches, cut_patches(data, "val", progress=False), tmp_path / "wide" / "reader.onnx",
                         epochs=1, log=lambda line: None, start=tmp_path / "models" / "reader.pt",
                         widths=(16, 32, 96, 128))
    assert wider["widths"] == [16, 32, 96, 128] and figures["widths"] == [16, 32, 64, 128]
    assert IndexReader(tmp_path / "wide" / "reader.onnx").probabilities(patches.images[:3]).shape == (3, CLASSES)
    said: list[str] = []
    taught = train_reader(patches, cut_patches(data, "val", progress=False), tmp_path / "taught" / "reader.onnx",
                          epochs=1, log=said.append, teacher=tmp_path / "wide" / "reader.pt",
                          widths=(16, 32, 64, 128), strided=True)
    assert taught["widths"] == [16, 32, 64, 128] and taught["strided"] and taught["teacher"].endswith("reader.pt")
    assert IndexReader(tmp_path / "taught" / "reader.onnx").probabilities(patches.images[:3]).shape == (3, CLASSES)
    assert any("first stage taught" in line for line in said)  # the new strided stem, before the rest
    # and back: a full-size first stage taught by a strided teacher, reading once
    said.clear()
    once = train_reader(patches, cut_patches(data, "val", progress=False), tmp_path / "once" / "reader.onnx",
                        epochs=1, log=said.append, teacher=tmp_path / "taught" / "reader.pt", reads=1)
    assert any("first stage taught" in line for line in said) and not once["strided"] and once["reads"] == 1
    assert IndexReader(tmp_path / "once" / "reader.onnx").reads == 1
    # a taught run stopped midway goes on from its own weights (full-size first stage), still
    # taught by the strided teacher: no new first stage is made and taught
    said.clear()
    again = train_reader(patches, cut_patches(data, "val", progress=False), tmp_path / "again" / "reader.onnx",
                         epochs=1, log=said.append, start=tmp_path / "once" / "reader.pt",
                         teacher=tmp_path / "taught" / "reader.pt", reads=1)
    assert again["teacher"].endswith("reader.pt") and not again["strided"] and again["reads"] == 1
    assert not any("first stage taught" in line for line in said) and len(again["epochs"]) == 1

    image = cv2.imread(str(next((tmp_path / "smoke" / "images" / "val").iterdir())))
    for path in written:
        detector = CardDetector(path, imgsz=320, conf=0.001)
        assert detector.reader.path == tmp_path / "models" / "reader.onnx"  # the reader beside the finder
        found = detector.detect(image)
        assert all(isinstance(d, Detection) and d.card for d in found)


def conv_weights(checkpoint: Path) -> dict:
    """A YOLO checkpoint's convolution weights (batch-norm statistics move in any training)."""
    saved = torch.load(checkpoint, map_location="cpu", weights_only=False)
    model = (saved.get("ema") or saved["model"]).float()
    return {k: v for k, v in model.state_dict().items() if k.endswith("conv.weight")}


def _dataset(root: Path, names: list[str]) -> Path:
    """A dataset folder as 'guandan dataset build' lays it out, with one blank image a split."""
    for split in ("train", "val"):
        (root / "images" / split).mkdir(parents=True)
        (root / "labels" / split).mkdir(parents=True)
        cv2.imwrite(str(root / "images" / split / "a.png"), np.zeros((32, 32, 3), np.uint8))
        (root / "labels" / split / "a.txt").write_text("0 0.5 0.5 0.2 0.2\n")
    (root / "data.yaml").write_text(
        f"path: {root}\ntrain: images/train\nval: images/val\nnc: {len(names)}\nnames: {names}\n")
    return root / "data.yaml"


def test_several_datasets_train_as_one_validated_on_the_first(tmp_path):
    from ultralytics.data.utils import check_det_dataset

    first, second = _dataset(tmp_path / "a", ["S2", "H2"]), _dataset(tmp_path / "b", ["S2", "H2"])
    combined = combine([first, second], tmp_path / "run")
    spec = check_det_dataset(str(combined))  # ultralytics itself accepts it and finds every folder
    assert spec["train"] == [str(tmp_path / d / "images" / "train") for d in "ab"]
    assert spec["val"] == str(tmp_path / "a" / "images" / "val") and spec["names"] == {0: "S2", 1: "H2"}


def test_datasets_that_name_other_classes_are_refused(tmp_path):
    first, other = _dataset(tmp_path / "a", ["S2", "H2"]), _dataset(tmp_path / "b", ["H2", "S2"])
    with pytest.raises(TrainError, match="classes differ"):
        combine([first, other], tmp_path / "run")
    with pytest.raises(TrainError, match="no such dataset"):
        combine([first, tmp_path / "none.yaml"], tmp_path / "run")


def test_train_without_a_dataset_is_one_clear_line():
    done = subprocess.run([sys.executable, "-m", "scorer.cli", "train"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "--data" in done.stderr and "Traceback" not in done.stderr


def assert_quantized_but_the_first_convolution(xml: Path) -> None:
    """8-bit convolutions throughout (NNCF's FakeQuantize before them), except the first, which
    takes the image's pixels as they are."""
    import openvino as ov

    ops = ov.Core().read_model(str(xml)).get_ordered_ops()
    convs = [op for op in ops if op.get_type_name() == "Convolution"]

    def fed_quantized(conv) -> bool:
        return any(value.get_node().get_type_name() == "FakeQuantize" for value in conv.input_values())

    assert not fed_quantized(convs[0]) and sum(map(fed_quantized, convs[1:])) >= len(convs) // 2


def test_int8_export_without_calibration_images_is_refused(tmp_path):
    with pytest.raises(TrainError, match="--calibration"):
        export(tmp_path / "none.pt", tmp_path, formats=("openvino-int8",))


def test_a_calibration_set_without_training_images_is_refused(tmp_path):
    from vision.live.finder import FinderError
    from vision.training.finder_quantize import quantize_finder

    data = tmp_path / "data.yaml"
    data.write_text("path: .\nval: images/val\nnames: {0: index}\n", encoding="utf-8")
    models = Path(__file__).parents[2] / "models"
    with pytest.raises(FinderError, match="no training images"):
        quantize_finder(models / "finder_openvino_model", [data], tmp_path / "out")
    assert not (tmp_path / "out").exists()
