"""The failure close-ups of ``eval-detector --failures`` (vision/training/failures.py): each failure
counted as the figures count it, drawn where it lies, listed in a sheet."""

import csv

import cv2
import numpy as np
import pytest

from vision.live.detector import Detection
from vision.training.evaluate import ImageResult, card_level
from vision.training.failures import HEIGHT, Sharpness, caption, failures, write_failures


def scene() -> ImageResult:
    """One image of each kind of failure: S6 read as S9, H2 read twice, DK missed (read under
    the threshold), a CA where nothing is labelled; and a right reading of HR."""
    truth = [("S6", (10, 10, 30, 50)), ("H2", (60, 10, 80, 50)), ("DK", (100, 10, 120, 50)),
             ("HR", (140, 10, 160, 50))]
    dets = [("S9", 0.9, (10, 10, 30, 50)), ("H2", 0.8, (60, 10, 80, 50)), ("H2", 0.7, (61, 10, 81, 50)),
            ("CA", 0.6, (200, 10, 220, 50)), ("DK", 0.1, (100, 10, 120, 50)), ("HR", 0.5, (140, 10, 160, 50))]
    return ImageResult([c for c, _ in truth], np.array([b for _, b in truth], float),
                       [Detection(c, p, b) for c, p, b in dets])


def test_failures_are_the_ones_the_figures_count_kind_by_kind():
    results = [scene()]
    found = failures(results, conf=0.25)
    assert [(f.kind, f.truth, f.read) for f in found] == [
        ("wrong", "S6", "S9"), ("missed", "DK", None), ("false", None, "CA"), ("duplicate", "H2", "H2")]
    level = card_level(results, conf=0.25)
    assert (level.wrong, level.missed, level.false_positives, level.duplicates) == (1, 1, 1, 1)
    wrong, missed, false, _ = found
    assert wrong.truth_box == wrong.box == (10.0, 10.0, 30.0, 50.0) and wrong.iou == pytest.approx(1.0)
    assert missed.box is None and missed.conf is None and false.truth_box is None and false.iou == 0.0
    assert [caption(f) for f in found] == ["wrong S6 -> S9 0.90", "missed DK", "false CA 0.60",
                                          "duplicate H2 -> H2 0.70"]
    # at a threshold under the DK reading's confidence it is read right, not missed
    assert [f.kind for f in failures(results, conf=0.05)] == ["wrong", "false", "duplicate"]


def test_close_ups_show_each_failure_and_the_sheet_lists_them(tmp_path):
    picture = np.full((80, 240, 3), 255, np.uint8)
    picture[10:50, 10:30] = (0, 0, 0)  # the S6 index, black, where its label lies
    path = tmp_path / "zone.png"
    cv2.imwrite(str(path), picture)
    out = tmp_path / "failures"
    out.mkdir()
    (out / "wrong-0009.png").write_bytes(b"from an earlier run")
    (out / "notes.txt").write_text("mine")
    listed = write_failures([scene()], [path], 0.25, out, sharpness=[Sharpness(9.5, np.full(4, 9.5))],
                            progress=False)
    assert len(listed) == 4
    names = sorted(p.name for p in out.iterdir())
    assert names == ["duplicate-0001.png", "failures.csv", "false-0001.png", "missed-0001.png", "notes.txt",
                     "wrong-0001.png"]  # the earlier run's close-up gone, other files left alone
    with (out / "failures.csv").open(encoding="utf-8") as sheet:
        rows = list(csv.DictReader(sheet))
    assert [(r["file"], r["kind"], r["truth"], r["read"]) for r in rows] == [
        ("wrong-0001.png", "wrong", "S6", "S9"), ("missed-0001.png", "missed", "DK", ""),
        ("false-0001.png", "false", "", "CA"), ("duplicate-0001.png", "duplicate", "H2", "H2")]
    assert rows[0]["image"] == str(path) and rows[0]["sharp_px_per_cm"] == "9.5"
    assert rows[0]["box"] == "10.0 10.0 30.0 50.0"
    assert rows[2]["box"] == "200.0 10.0 220.0 50.0"  # a false reading is placed by its own box
    close = cv2.imread(str(out / "wrong-0001.png"))
    assert close.shape[0] == HEIGHT + 22  # the caption's banner above the close-up
    # the close-up holds the black index framed by both boxes (red drawn over green)
    body = close[22:]
    assert (body.max(axis=2) < 60).mean() > 0.05
    red = (body[..., 2] > 200) & (body[..., 1] < 80) & (body[..., 0] < 80)
    assert red.any()


def test_a_slanted_pictures_sheet_gives_each_index_its_own_sharpness(tmp_path):
    """In a picture a leaning camera took, the far indices are smaller than the near ones:
    the sheet gives each failed index its own sharp px/cm, a false reading the photograph's."""
    path = tmp_path / "slanted.png"
    cv2.imwrite(str(path), np.full((80, 240, 3), 255, np.uint8))
    per_label = np.array([6.0, 7.5, 11.25, 12.0])  # S6, H2, DK, HR
    write_failures([scene()], [path], 0.25, tmp_path / "out", sharpness=[Sharpness(15.0, per_label)],
                   progress=False)
    with (tmp_path / "out" / "failures.csv").open(encoding="utf-8") as sheet:
        sharp = {r["kind"]: r["sharp_px_per_cm"] for r in csv.DictReader(sheet)}
    assert sharp == {"wrong": "6", "missed": "11.25", "false": "15", "duplicate": "7.5"}
