"""The detector's boxes: the box refiner and its second look (vision/live/box_refiner.py,
vision/training/box_train.py) — their coordinates, their training path, the committed refiner drawing
tighter boxes than the finder's and its second look tighter still — and one reading per index."""

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
import torch

from vision.live.box_refiner import REACH, SECOND_LOOK_PAD, BoxRefiner, boxes_from, targets, turned
from vision.live.detector import MODELS, CardDetector, Detection, committed_finder, one_per_index
from vision.live.reader import PATCH, ReaderError, patch
from vision.synth.build import build
from vision.training.box_train import box_iou, cut_box_patches, shaken, train_boxes
from vision.training.evaluate import Legibility, label_for, read_labels

# make check leaves these out: refiners trained (marked video too) or run over sets
pytestmark = pytest.mark.slow

ROOT = Path(__file__).parents[2]
SAMPLES = sorted((ROOT / "datasets" / "samples" / "images").glob("*.jpg"))


def test_edges_and_boxes_are_each_others_inverse():
    rng = np.random.default_rng(1)
    corner, size = rng.uniform(0, 300, (20, 2)), rng.uniform(4, 40, (20, 2))
    found = np.hstack([corner, corner + size])
    truth = found + rng.normal(0, 3, (20, 4))
    assert np.allclose(boxes_from(found, targets(found, truth)), truth)
    assert np.allclose(turned(turned(targets(found, truth))), targets(found, truth))


def test_edges_say_where_the_box_lies_in_the_patch_and_in_its_half_turn():
    """A white 14×30 box on grey, cut around a box that misses it by a few pixels: the
    edges ``targets`` gives are where the white lies in the patch (to a pixel), and
    ``turned`` says where it lies in the patch turned a half turn."""
    image = np.full((200, 300, 3), 80, np.uint8)
    truth = np.array([[120.0, 60.0, 134.0, 90.0]])
    image[60:90, 120:134] = 255
    found = np.array([[118.0, 62.0, 133.0, 92.0]])
    cut = patch(image, tuple(found[0]))
    for view, edges in ((cut, targets(found, truth)[0]), (cut[::-1, ::-1], turned(targets(found, truth))[0])):
        rows, cols = np.nonzero(view.max(axis=2) > 170)
        seen = np.array([cols.min(), rows.min(), cols.max() + 1, rows.max() + 1]) / PATCH - 0.5
        assert np.abs(seen - edges).max() * PATCH <= 1.0


def test_a_shaken_box_stays_near_its_label():
    rng = np.random.default_rng(3)
    box = np.array([10.0, 10.0, 22.0, 34.0])
    ious = np.array([box_iou(shaken(box, rng)[None], box[None])[0] for _ in range(200)])
    assert ious.min() > 0.3 and 0.6 < np.median(ious) < 0.98


@pytest.mark.video
def test_one_epoch_on_the_smoke_set_trains_and_exports_a_refiner(smoke, tmp_path):
    finder = CardDetector(committed_finder(), boxes=False)
    every = Legibility(min_sharp=0, min_visible=0.8)
    train = cut_box_patches(smoke, "train", finder=finder, shakes=2, legibility=every, progress=False)
    val = cut_box_patches(smoke, "val", finder=finder, legibility=every, progress=False)
    assert len(train) > 50 and len(val) > 5
    assert train.images.shape[1:] == (PATCH, PATCH, 3) and train.edges.shape == train.given.shape == (len(train), 4)
    # the answers are the labels seen from the boxes cut around: the cut boxes are centred
    assert np.allclose(train.given[:, 0] + train.given[:, 2], 0, atol=1e-6)
    torch.set_num_threads(1)
    figures = train_boxes(train, val, tmp_path / "boxes.onnx", epochs=1, log=lambda _: None)
    assert (tmp_path / "boxes.pt").exists() and 0 <= figures["best_val_iou"] <= 1
    refiner = BoxRefiner(tmp_path / "boxes.onnx")
    image = cv2.imread(str(next((smoke.parent / "images" / "val").iterdir())))
    found = [(50.0, 60.0, 62.0, 84.0), (200.0, 100.0, 215.0, 130.0)]
    refined = np.array(refiner.refine(image, found))
    side = 24 * 1.2
    assert refined.shape == (2, 4) and np.all(np.abs(refined - np.array(found))[0] <= REACH * side + 1e-6)
    assert np.all(refined[:, 2] > refined[:, 0]) and np.all(refined[:, 3] > refined[:, 1])


@pytest.mark.video
def test_a_second_look_learns_from_patches_cut_around_the_first_refiners_boxes(smoke):
    """Cut ``after`` the committed refiner, each patch is framed around that refiner's box,
    not the finder's or the shaken one it started from: the boxes cut around lie closer to
    their labels (IoU is the same in patch sides as in pixels), one patch for each."""
    finder = CardDetector(committed_finder(), boxes=False)
    every = Legibility(min_sharp=0, min_visible=0.8)
    first = BoxRefiner(MODELS / "boxes.onnx")
    plain = cut_box_patches(smoke, "val", finder=finder, shakes=2, seed=5, legibility=every, progress=False)
    closer = cut_box_patches(smoke, "val", finder=finder, shakes=2, seed=5, legibility=every, progress=False,
                             pad=SECOND_LOOK_PAD, after=first)
    assert len(plain) == len(closer) > 20
    assert box_iou(closer.given, closer.edges).mean() > box_iou(plain.given, plain.edges).mean() + 0.05
    # framed closer: the same index takes more of the patch
    width = lambda edges: edges[:, 2] - edges[:, 0]  # noqa: E731
    assert np.median(width(closer.edges)) > np.median(width(plain.edges)) * 1.05


@pytest.mark.video
def test_train_boxes_after_a_refiner_writes_a_closer_framed_second_look(smoke, tmp_path):
    out = tmp_path / "boxes_second.onnx"
    done = subprocess.run([sys.executable, "-m", "scorer.cli", "train-boxes", "--data", str(smoke), "--epochs", "1",
                           "--after", str(MODELS / "boxes.onnx"), "--min-sharp", "0", "--out", str(out)],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert BoxRefiner(out).pad == SECOND_LOOK_PAD
    figures = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert figures["after"] == "boxes.onnx" and figures["pad"] == SECOND_LOOK_PAD and figures["train_patches"] > 50


def test_a_missing_or_foreign_refiner_is_a_clear_error(tmp_path):
    with pytest.raises(ReaderError, match="no such box refiner"):
        BoxRefiner(tmp_path / "none.onnx")
    net = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3 * PATCH * PATCH, 7))
    torch.onnx.export(net, torch.zeros(1, 3, PATCH, PATCH), str(tmp_path / "seven.onnx"), dynamo=False)
    with pytest.raises(ReaderError, match="gives 7 classes, a box refiner gives 4"):
        BoxRefiner(tmp_path / "seven.onnx")


def test_train_boxes_without_a_dataset_is_one_clear_line(tmp_path):
    done = subprocess.run([sys.executable, "-m", "scorer.cli", "train-boxes", "--data", str(tmp_path / "none.yaml")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "no such dataset YAML" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("extra, said", [(["--after", "none.onnx"], "no such box refiner"),
                                         (["--pad", "1.5"], "--pad is a share")])
def test_train_boxes_with_a_bad_first_refiner_or_pad_is_one_clear_line(smoke, tmp_path, extra, said):
    done = subprocess.run([sys.executable, "-m", "scorer.cli", "train-boxes", "--data", str(smoke), *extra,
                           "--out", str(tmp_path / "b.onnx")], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)
    assert done.returncode != 0 and said in done.stderr and "Traceback" not in done.stderr


def _matched_ious(detections, truth_boxes, keep) -> list[float]:
    out = []
    for j in np.flatnonzero(keep):
        ious = [box_iou(np.array([d.box]), truth_boxes[j:j + 1])[0] for d in detections]
        if ious and max(ious) >= 0.5:
            out.append(max(ious))
    return out


def test_the_committed_refiner_draws_tighter_boxes_than_the_finder():
    """On the committed sample zones (held-out deck styles), the legible indices the
    detector finds overlap their labels more closely with the refiner than without."""
    plain = CardDetector(committed_finder(), boxes=False)
    refined = CardDetector(committed_finder())
    assert refined.refiners and not plain.refiners
    before, after = [], []
    for path in SAMPLES:
        image = cv2.imread(str(path))
        h, w = image.shape[:2]
        _cards, truth = read_labels(label_for(path), w, h)
        keep = np.ones(len(truth), bool)  # every label: the samples hold few legible ones
        a, b = plain.detect(image), refined.detect(image)
        assert [(d.card, d.conf) for d in a] == [(d.card, d.conf) for d in b]  # refining moves boxes only
        before += _matched_ious(a, truth, keep)
        after += _matched_ious(b, truth, keep)
    assert len(before) >= 20
    assert np.mean(after) > np.mean(before) + 0.02


HELDOUT_ROWS = """name: heldout-rows
seed: 11
image_size: 320
styles: 12
style_block: 4
jpeg_quality: [80, 95]
splits:
  val: {images: 120, styles: heldout}
scene:
  px_per_cm: [8, 20]
  rows: [2, 3]
"""


def test_the_committed_second_look_draws_the_first_looks_boxes_tighter(tmp_path):
    """The detector's refiners are the committed refiner, then its second look; on 120
    zones of held-out deck styles rendered here, the second look's boxes around the legible
    indices the finder found overlap their labels more closely than the first look's do,
    for most indices."""
    assert [r.path.name for r in CardDetector(committed_finder()).refiners] == ["boxes_int8.xml",
                                                                                "boxes_second_int8.xml"]
    (tmp_path / "recipe.yaml").write_text(HELDOUT_ROWS, encoding="utf-8")
    build(tmp_path / "recipe.yaml", tmp_path / "set", progress=False, workers=1)
    first, second = BoxRefiner(MODELS / "boxes_int8.xml"), BoxRefiner(MODELS / "boxes_second_int8.xml")
    cut = cut_box_patches(tmp_path / "set" / "data.yaml", "val", finder=CardDetector(committed_finder(), boxes=False),
                          shakes=0, legibility=Legibility(), progress=False, pad=second.pad, after=first)
    assert len(cut) > 200
    before = box_iou(cut.given, cut.edges)
    after = box_iou(second.edges(cut.images), cut.edges)
    assert after.mean() > before.mean() + 0.002 and (after > before).mean() > 0.55


def test_an_index_read_twice_is_kept_once_the_surer_reading():
    rank_only = Detection("S5", 0.4, (10.0, 10.0, 20.0, 24.0))
    whole = Detection("C5", 0.7, (10.0, 10.0, 20.0, 34.0))  # IoU 14/24 with the rank alone
    beside = Detection("H9", 0.5, (22.0, 10.0, 32.0, 34.0))
    assert one_per_index([rank_only, beside, whole]) == [whole, beside]
    assert one_per_index([]) == []
