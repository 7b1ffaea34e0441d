"""The suit reader: its patch, how its opinion folds into the index reader's, training and
the committed model on rendered rows of held-out deck styles (vision/live/suit_reader.py,
vision/training/suit_train.py)."""

import json
import subprocess
import sys

import numpy as np
import pytest

from engine.cards import ALL_CARDS, SUITS
from vision.live.reader import CLASSES, NOT_AN_INDEX, IndexReader, ReaderError
from vision.live.suit_fold import SURE, with_suits
from vision.live.suit_reader import VIEW, SuitReader, View, suit_patch
from vision.training.suit_train import build_net, export_onnx, measure, render_patches

# make check leaves these out: the suit reader trained (marked video too) or measured
pytestmark = pytest.mark.slow

MODELS = __import__("pathlib").Path(__file__).resolve().parents[2] / "models"


def test_the_patch_is_the_area_right_of_and_below_the_index_box():
    image = np.zeros((200, 200, 3), np.uint8)
    box = (40.0, 50.0, 60.0, 90.0)  # longer side s = 40
    s = 40.0
    # a bright dot where a first pip would be: 0.8 s right of and 1.2 s below the box's corner
    px, py = 40 + 0.8 * s, 50 + 1.2 * s
    image[int(py) - 2:int(py) + 3, int(px) - 2:int(px) + 3] = 255
    p = suit_patch(image, box)
    assert p.shape == (VIEW.height, VIEW.width, 3)
    y, x = np.unravel_index(np.argmax(p[:, :, 0]), p.shape[:2])
    left, top, right, bottom = VIEW.reach
    assert x == pytest.approx((0.8 - left) / (right - left) * VIEW.width, abs=1.5)
    assert y == pytest.approx((1.2 - top) / (bottom - top) * VIEW.height, abs=1.5)
    # a wider view sees the same dot further left in its patch
    wide = View((-0.15, -0.15, 2.85, 3.85), 48, 64)
    y, x = np.unravel_index(np.argmax(suit_patch(image, box, wide)[:, :, 0]), (64, 48))
    assert x == pytest.approx(0.95 / 3.0 * 48, abs=1.5) and y == pytest.approx(1.35 / 4.0 * 64, abs=1.5)
    # left of the box (where the card underneath shows) lies outside the area
    image2 = np.zeros_like(image)
    image2[60:80, 5:25] = 255
    assert suit_patch(image2, box).max() == 0


def test_a_suit_reader_unsure_changes_nothing_and_a_sure_one_settles_spade_or_club():
    probs = np.full((3, CLASSES), 0.001)
    probs[:, ALL_CARDS.index("C5")] = 0.55
    probs[:, ALL_CARDS.index("S5")] = 0.35
    probs[:, NOT_AN_INDEX] = 0.05
    probs /= probs.sum(axis=1, keepdims=True)
    suits = np.array([[0.25, 0.25, 0.25, 0.25], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]])
    suits[1:, [SUITS.index("C"), SUITS.index("H"), SUITS.index("D")]] = 0.1 / 3
    suits[1, SUITS.index("S")] = SURE  # sure enough to be heard
    suits[2, SUITS.index("S")] = SURE - 0.01  # not quite
    suits[2] /= suits[2].sum()
    out = with_suits(probs, suits)
    np.testing.assert_allclose(out[0], probs[0])
    np.testing.assert_allclose(out[2], probs[2])
    assert ALL_CARDS[int(out[1].argmax())] == "S5"
    assert out.sum(axis=1) == pytest.approx([1.0, 1.0, 1.0])
    # no suit, no change between them: the jokers and "no index" keep their ratio
    ratio = probs[1, ALL_CARDS.index("HR")] / probs[1, NOT_AN_INDEX]
    assert out[1, ALL_CARDS.index("HR")] / out[1, NOT_AN_INDEX] == pytest.approx(ratio)


@pytest.mark.video
def test_training_renders_rows_of_cards_and_writes_a_model_the_live_reader_loads(tmp_path):
    view = View((-0.2, -0.2, 2.0, 2.6), 40, 48)
    data = render_patches(6, seed=3, workers=1, progress=False, view=view)
    assert len(data.images) > 10 and data.images.shape[1:] == (48, 40, 3)
    assert set(data.suits.tolist()) <= set(range(len(SUITS)))
    out = export_onnx(build_net(view), tmp_path / "suits.onnx", view)
    reader = SuitReader(out)
    assert reader.view == view  # the model says what it looks at
    probs = reader.probabilities(data.images[:5])
    assert probs.shape == (5, len(SUITS)) and probs.sum(axis=1) == pytest.approx(np.ones(5), abs=1e-5)
    with pytest.raises(ReaderError, match="a suit reader gives 4"):
        SuitReader(MODELS / "reader.onnx")
    with pytest.raises(ReaderError, match="no such"):
        SuitReader(tmp_path / "none.onnx")


@pytest.mark.video
def test_train_suits_renders_trains_measures_and_writes_the_model_and_its_figures(tmp_path):
    out = tmp_path / "suits.onnx"
    done = subprocess.run([sys.executable, "-m", "scorer.cli", "train-suits", "--scenes", "8", "--val-scenes", "4",
                           "--heldout-scenes", "4", "--epochs", "1", "--workers", "1", "--out", str(out),
                           "--cache", str(tmp_path / "cache")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "top-left, all" in done.stdout and "with the suit reader" in done.stdout
    figures = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert figures["reach"] == list(VIEW.reach) and figures["heldout"]["top-left, all"]["indices"] > 0
    assert SuitReader(out).view == VIEW and len(list((tmp_path / "cache").glob("*.npz"))) == 3


def test_train_suits_refuses_nonsense_before_rendering_anything(tmp_path):
    done = subprocess.run([sys.executable, "-m", "scorer.cli", "train-suits", "--scenes", "0", "--out",
                           str(tmp_path / "s.onnx")], capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "at least 1" in done.stderr and "Traceback" not in done.stderr
    done = subprocess.run([sys.executable, "-m", "scorer.cli", "train-suits", "--size", "6", "40", "--out",
                           str(tmp_path / "s.onnx")], capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "at least 8 pixels" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.skipif(not (MODELS / "suits.onnx").exists(), reason="no committed suit reader")
def test_the_committed_suit_reader_is_heard_where_it_is_sure_and_then_it_is_right():
    """Rows of held-out deck styles, rendered as a seat zone shows them: where the suit
    reader is sure enough to be heard (pips in view) it is nearly always right, and heard,
    it reads at least as many cards right with the index reader as the index reader alone."""
    data = render_patches(120, seed=77, split="heldout", variety="standard", n_styles=120, jitter=False,
                          workers=1, progress=False)
    suits = SuitReader(MODELS / "suits.onnx").probabilities(data.images)
    heard = suits.max(axis=1) >= SURE
    assert len(data.suits) > 800 and heard.mean() > 0.3
    assert (suits.argmax(axis=1) == data.suits)[heard].mean() > 0.98
    figures = measure(data, IndexReader(MODELS / "reader.onnx"), suits)
    for row in figures.values():
        assert row["with suit reader"] >= row["index reader"]
