"""Training the reader on real photos named by rank only (``vision.training.real_patches``,
``vision.training.rank_labels``)."""

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.cards import rank_of
from vision.synth.labels import CLASS_OF
from vision.training.rank_labels import mixed_loss, same_rank
from vision.training.real_photos import labelled_photos

torch = pytest.importorskip("torch")
EDJE = Path(__file__).resolve().parents[3] / "shared" / "realphotos" / "edje" / "train"
NAMES = {i: card for card, i in CLASS_OF.items()}


def test_a_rank_only_patch_is_right_whichever_suit_the_reader_puts_its_probability_on():
    truth = torch.tensor([CLASS_OF["SA"], CLASS_OF["SA"]])
    on_club = torch.full((2, 55), -10.0)
    on_club[:, CLASS_OF["CA"]] = 10.0  # sure it is the ace of clubs
    by_rank = mixed_loss(on_club, truth, torch.tensor([True, True]))
    by_card = mixed_loss(on_club, truth, torch.tensor([False, False]))
    assert float(by_rank) < 0.01 < 5.0 < float(by_card)
    on_king = torch.full((2, 55), -10.0)
    on_king[:, CLASS_OF["SK"]] = 10.0  # the wrong rank is wrong either way
    assert float(mixed_loss(on_king, truth, torch.tensor([True, True]))) > 5.0
    groups = same_rank()
    assert groups[CLASS_OF["SA"], CLASS_OF["DA"]] and not groups[CLASS_OF["SA"], CLASS_OF["SK"]]
    assert groups[-1].sum() == 1  # "no index" is a rank of its own


@pytest.mark.slow
@pytest.mark.skipif(not EDJE.is_dir(), reason="the real photos (../shared/realphotos) are not beside this checkout")
def test_real_photo_patches_are_named_by_the_card_rank_they_lie_in(tmp_path):
    from vision.live.detector import CardDetector, committed_finder
    from vision.training.real_patches import real_patches

    for image, _cards in labelled_photos(EDJE)[:3]:
        shutil.copy(image, tmp_path)
        shutil.copy(image.with_suffix(".xml"), tmp_path)
    ranks = {card.rank for _image, cards in labelled_photos(tmp_path) for card in cards}
    detector = CardDetector(committed_finder(640), imgsz=640, sideways=True)
    found = real_patches(tmp_path, detector, copies=2)
    assert len(found.classes) >= 4 and found.rank_only.all() and found.images.shape[1:] == (40, 40, 3)
    assert {rank_of(NAMES[c]) for c in found.classes} <= ranks
    assert np.array_equal(found.classes[::2], found.classes[1::2])  # copies of one index, one name


def test_train_reader_refuses_a_real_photo_folder_without_labelled_photos(tmp_path):
    data = tmp_path / "data.yaml"
    data.write_text("train: images/train\nval: images/val\nnames: [S2]\n")
    (tmp_path / "photos").mkdir()
    done = subprocess.run([sys.executable, "-m", "scorer.cli", "train-reader", "--data", str(data), "--real",
                           str(tmp_path / "photos"), "--out", str(tmp_path / "r.onnx"), "--lang", "en"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "Pascal VOC" in done.stderr and "Traceback" not in done.stderr
