"""The box refiner in 8 bits (``guandan quantize-boxes``, ``vision.training.box_quantize``).

Calibrated on the smoke set here (the committed one on training decks, models/README.md):
it must load as a box refiner, keep its framing, leave its first convolution and its head
in full precision, draw the boxes the full-precision refiner draws, and be the detector's
refiner only while it was made from the ONNX one beside it.
"""

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import onnx
import pytest

from tests.vision.test_reader_quantize import only_first_and_head_kept
from vision.live.box_refiner import BoxRefiner
from vision.live.detector import BOX_REFINERS, MODELS, CardDetector, committed_finder, reader_in
from vision.live.reader import ReaderError
from vision.training.box_quantize import quantize_boxes
from vision.training.reader_train import cut_patches, join_patches

ROOT = Path(__file__).parents[2]
BOXES = ROOT / "models" / "boxes.onnx"


@pytest.mark.slow
def test_the_8_bit_refiner_draws_the_boxes_the_full_precision_one_draws(smoke: Path, tmp_path: Path):
    out = tmp_path / "boxes_int8.xml"
    figures = quantize_boxes(BOXES, [smoke], out, count=640, progress=False)
    assert out.exists() and out.with_suffix(".bin").exists()
    assert json.loads(out.with_suffix(".json").read_text(encoding="utf-8")) == figures
    assert 64 <= figures["calibration_patches"] <= 640 and figures["val_patches"] >= 10
    assert figures["mean_edge_apart"] < 0.005 and figures["max_edge_apart"] < 0.05  # a patch pixel is 0.025
    quantized, plain = BoxRefiner(out), BoxRefiner(BOXES)
    assert quantized.pad == plain.pad == 0.2
    patches = join_patches([cut_patches(smoke, split, jitter=False, progress=False) for split in ("train", "val")])
    ours, theirs = quantized.edges(patches.images), plain.edges(patches.images)
    assert 0 < np.abs(ours - theirs).max() < 0.05  # close, not the same: it is quantized
    only_first_and_head_kept(out, BOXES)


def test_the_committed_8_bit_refiner_is_the_detectors_and_draws_as_the_onnx_one():
    assert reader_in(MODELS, BOX_REFINERS) == MODELS / "boxes_int8.xml"
    zone = cv2.imread(str(sorted((ROOT / "datasets" / "samples" / "images").glob("*.jpg"))[1]))
    detector = CardDetector(committed_finder())
    assert detector.refiners[0].path == MODELS / "boxes_int8.xml"
    found = [d.box for d in CardDetector(committed_finder(), boxes=False).detect(zone)]
    assert len(found) >= 15
    ours = np.array(detector.refiners[0].refine(zone, found))
    theirs = np.array(BoxRefiner(BOXES).refine(zone, found))
    assert np.abs(ours - theirs).max() < 0.5  # pixels of a 320 zone


def test_a_folders_8_bit_refiner_is_read_only_while_it_matches_the_onnx_one_beside_it(smoke: Path, tmp_path: Path):
    shutil.copyfile(BOXES, tmp_path / "boxes.onnx")
    quantize_boxes(tmp_path / "boxes.onnx", [smoke], tmp_path / "boxes_int8.xml", count=64, images=10,
                   progress=False)
    assert reader_in(tmp_path, BOX_REFINERS) == tmp_path / "boxes_int8.xml"
    again = onnx.load(str(BOXES))  # the refiner trained again: other bytes
    onnx.helper.set_model_props(again, {"pad": "0.2", "trained": "again"})
    onnx.save(again, str(tmp_path / "boxes.onnx"))
    assert reader_in(tmp_path, BOX_REFINERS) == tmp_path / "boxes.onnx"  # the old 8-bit one is left behind


def test_an_onnx_name_a_reader_or_too_few_patches_are_refused(smoke: Path, tmp_path: Path):
    with pytest.raises(ReaderError, match=r"\.xml"):
        quantize_boxes(BOXES, [smoke], tmp_path / "boxes_int8.onnx", progress=False)
    with pytest.raises(ReaderError, match="a box refiner gives"):
        quantize_boxes(ROOT / "models" / "reader.onnx", [smoke], tmp_path / "boxes_int8.xml", progress=False)
    with pytest.raises(ReaderError, match="at least 64 are needed"):
        quantize_boxes(BOXES, [smoke], tmp_path / "boxes_int8.xml", images=1, progress=False)

