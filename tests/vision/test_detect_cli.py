"""``guandan detect`` and ``guandan eval-detector`` as a user runs them, on the committed
sample zones (rendered in deck styles never used in training) and the committed model."""

import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cards import ALL_CARDS

# make check leaves these out: each starts the vision commands with their models, several times
pytestmark = pytest.mark.slow

SAMPLES = Path(__file__).parents[2] / "datasets" / "samples"


def guandan(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scorer.cli", *args], capture_output=True, text=True, timeout=300)


def test_detect_prints_a_json_line_per_photo_and_goes_on_past_one_it_cannot_read(tmp_path):
    first, second = sorted((SAMPLES / "images").glob("*.jpg"))[:2]
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not a picture")
    done = guandan("detect", str(first), str(broken), str(second), "--json", "--annotate", str(tmp_path / "drawn"))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "broken.jpg" in done.stderr and "1 of 3 images could not be read" in done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["image"] for line in lines] == [str(first), str(second)]
    found = [d for line in lines for d in line["detections"]]
    assert found and all(set(d) == {"card", "conf", "box"} and len(d["box"]) == 4 and 0 < d["conf"] <= 1 for d in found)
    assert sorted(p.name for p in (tmp_path / "drawn").iterdir()) == [first.name, second.name]


def test_detect_without_json_is_a_readable_list():
    image = sorted((SAMPLES / "images").glob("*.jpg"))[1]
    done = guandan("detect", str(image))
    assert done.returncode == 0 and done.stdout.startswith(f"{image}: ") and "card indices" in done.stdout


def test_detect_looks_at_a_zone_four_ways_unless_told_fewer():
    image = str(sorted((SAMPLES / "images").glob("*.jpg"))[1])
    cards = {}
    for views in ("1", "4"):
        done = guandan("detect", image, "--json", "--imgsz", "320", "--views", views)
        assert done.returncode == 0, done.stderr
        cards[views] = json.loads(done.stdout)["detections"]
    assert len(cards["4"]) >= len(cards["1"]) > 0
    assert cards["4"] != cards["1"]  # the merged views box (and find) indices differently
    # a zone-sized input looks four ways unless told; a photo-sized one once
    zone = guandan("detect", image, "--json", "--imgsz", "320")
    photo, photo_once = (guandan("detect", image, "--json", *more) for more in ((), ("--views", "1")))
    assert json.loads(zone.stdout)["detections"] == cards["4"]
    assert json.loads(photo.stdout) == json.loads(photo_once.stdout)
    wrong = guandan("detect", image, "--views", "3")
    assert wrong.returncode == 2 and "invalid choice: 3" in wrong.stderr and "Traceback" not in wrong.stderr


def test_detect_draws_boxes_with_the_refiner_then_its_second_look_unless_told_which(tmp_path):
    """By default both looks; ``--boxes`` names the refiners in turn (given before the image,
    it takes one path and leaves the image be); the readings are the same whichever draws the
    boxes."""
    image = str(sorted((SAMPLES / "images").glob("*.jpg"))[1])
    models = Path(__file__).parents[2] / "models"
    runs = {}
    for name, more in (("default", ()), ("first", ("--boxes", str(models / "boxes_int8.xml"))),
                       ("both", ("--boxes", str(models / "boxes_int8.xml"), "--boxes",
                                 str(models / "boxes_second_int8.xml")))):
        done = guandan("detect", *more, image, "--json", "--views", "1")
        assert done.returncode == 0, done.stderr
        runs[name] = json.loads(done.stdout)["detections"]
    assert runs["default"] == runs["both"]
    assert [(d["card"], d["conf"]) for d in runs["first"]] == [(d["card"], d["conf"]) for d in runs["both"]]
    assert [d["box"] for d in runs["first"]] != [d["box"] for d in runs["both"]]
    missing = guandan("detect", "--boxes", str(tmp_path / "none.onnx"), image)
    assert missing.returncode == 2 and "no such box refiner" in missing.stderr and "Traceback" not in missing.stderr


def test_eval_detector_reports_map_and_cards_read_on_a_dataset(tmp_path):
    data = tmp_path / "samples.yaml"
    data.write_text(f"path: {SAMPLES}\ntrain: images\nval: images\nnames: {json.dumps(ALL_CARDS)}\n",
                    encoding="utf-8")
    done = guandan("eval-detector", str(data), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    labelled = sum(len(p.read_text().split()) // 5 for p in (SAMPLES / "labels").glob("*.txt"))
    assert report["labelled"] == labelled and report["correct"] + report["wrong"] + report["missed"] == labelled
    assert 0 < report["map50"] <= 1 and report["map50_95"] <= report["map50"]
    assert report["reader"].endswith("reader_int8.xml")  # the committed reader, in 8 bits
    missing = guandan("eval-detector", str(data), "--reader", str(tmp_path / "none.onnx"))
    assert missing.returncode == 2 and "no such reader model" in missing.stderr and "Traceback" not in missing.stderr


def test_train_reader_refuses_to_narrow_a_reader_before_cutting_patches(tmp_path):
    data = tmp_path / "data.yaml"
    data.write_text("train: images/train\nval: images/val\nnames: [S2]\n")
    done = guandan("train-reader", "--data", str(data), "--start", "models/reader.pt", "--widths", "16", "32", "48",
                   "128", "--out", str(tmp_path / "r.onnx"))
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "only be widened" in done.stderr and "models/reader.pt is 16 32 96 128 wide" in done.stderr
    done = guandan("train-reader", "--data", str(data), "--widths", "16", "0", "64", "128")
    assert done.returncode != 0 and "at least one channel" in done.stderr and "Traceback" not in done.stderr


def test_train_reader_refuses_a_blur_share_outside_0_to_1(tmp_path):
    data = tmp_path / "data.yaml"
    data.write_text("train: images/train\nval: images/val\nnames: [S2]\n")
    done = guandan("train-reader", "--data", str(data), "--blur", "1.5", "--out", str(tmp_path / "r.onnx"))
    assert done.returncode == 2 and "between 0 and 1" in done.stderr and "Traceback" not in done.stderr


def test_train_reader_refuses_a_teacher_it_cannot_learn_from_before_cutting_patches(tmp_path):
    data = tmp_path / "data.yaml"
    data.write_text("train: images/train\nval: images/val\nnames: [S2]\n")
    teacher = ("--teacher", "models/reader.pt")
    for extra, said in [(("--out", "models/reader.onnx"), "would overwrite the teacher's"),
                        (("--widths", "16", "32", "512", "128"), "at most as wide as its teacher"),
                        (("--teacher", str(tmp_path / "none.pt")), "no such reader weights")]:
        done = guandan("train-reader", "--data", str(data), "--out", str(tmp_path / "r.onnx"), *teacher, *extra)
        assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr, (extra, done.stderr)
    done = guandan("train-reader", "--data", str(data), "--start", "models/reader.pt", "--strided",
                   "--out", str(tmp_path / "r.onnx"))
    assert done.returncode == 2 and "first stage is chosen" in done.stderr and "Traceback" not in done.stderr


def test_detect_reads_cards_lying_sideways_unless_told_they_lie_as_laid(tmp_path):
    """A zone turned a quarter turn: by default each index is also read a quarter turn round
    where its zone reads surer so, and more of its labelled cards are named than with
    --as-laid, which reads indices only as they lie and upside down."""
    import cv2
    import numpy as np

    source = sorted((SAMPLES / "images").glob("*.jpg"))[1]  # a busy zone: 25 labelled indices
    turned = tmp_path / "turned.jpg"
    cv2.imwrite(str(turned), np.ascontiguousarray(np.rot90(cv2.imread(str(source)))),
                [cv2.IMWRITE_JPEG_QUALITY, 100])
    labelled = sorted(ALL_CARDS[int(line.split()[0])]
                      for line in (SAMPLES / "labels" / f"{source.stem}.txt").read_text().splitlines() if line.strip())
    named = {}
    for more in ((), ("--as-laid",)):
        done = guandan("detect", str(turned), "--json", "--imgsz", "320", *more)
        assert done.returncode == 0, done.stderr
        cards = [d["card"] for d in json.loads(done.stdout)["detections"]]
        named[more] = sum(min(cards.count(c), labelled.count(c)) for c in set(labelled))
    assert named[()] > named[("--as-laid",)]


def test_eval_detector_writes_a_close_up_of_each_failure(tmp_path):
    """A label changed to another card must come back as a wrong reading of that label, drawn
    and listed with its own sharpness; a --failures that is a file is refused before any work."""
    for folder in ("images", "labels"):
        shutil.copytree(SAMPLES / folder, tmp_path / folder)
    label = sorted((tmp_path / "labels").glob("*.txt"))[1]  # a busy zone: 25 labelled indices
    lines = label.read_text().split("\n")
    biggest = max((i for i, line in enumerate(lines) if line.strip()),
                  key=lambda i: float(lines[i].split()[3]) * float(lines[i].split()[4]))
    cls, *box = lines[biggest].split()
    present = {ALL_CARDS[int(line.split()[0])] for line in lines if line.strip()}
    changed = next(c for c in ("H9", "S5", "DQ", "C7") if c not in present)  # its only label
    lines[biggest] = " ".join([str(ALL_CARDS.index(changed)), *box])
    label.write_text("\n".join(lines))
    # that image as a leaning camera took it: a sidecar giving each index its own scale in
    # the picture — the first other label too small to count (20 × 0.3 = 6 sharp px/cm, under
    # the legible 8), the changed one at 20 × 0.55 = 11, which its row must give
    labelled = [i for i, line in enumerate(lines) if line.strip()]
    scales = [0.55 if i == biggest else 0.9 for i in labelled]
    scales[0 if labelled[0] != biggest else 1] = 0.3
    (tmp_path / "meta").mkdir()
    (tmp_path / "meta" / label.with_suffix(".json").name).write_text(json.dumps(
        {"sharp_px_per_cm": 20.0, "px_per_cm": 20.0, "visible": [1.0] * len(labelled), "view_scale": scales,
         "suit_cm": [0.4] * len(labelled)}))
    data = tmp_path / "data.yaml"
    data.write_text(f"path: {tmp_path}\ntrain: images\nval: images\nnames: {json.dumps(ALL_CARDS)}\n", encoding="utf-8")
    out = tmp_path / "failures"
    done = guandan("eval-detector", str(data), "--json", "--failures", str(out))
    assert done.returncode == 0, done.stderr
    assert "evaluating" not in done.stderr and "writing failures" not in done.stderr  # JSON: no progress bars
    report = json.loads(done.stdout)
    counts = report["failures"]["by_kind"]
    assert (counts["wrong"], counts["missed"], counts["false"], counts["duplicate"]) == \
        tuple(report["legible"][k] for k in ("wrong", "missed", "false_positives", "duplicates"))
    with (out / "failures.csv").open(encoding="utf-8") as sheet:
        rows = list(csv.DictReader(sheet))
    assert len(rows) == sum(counts.values()) == len(list(out.glob("*.png")))
    image = str(tmp_path / "images" / label.with_suffix(".jpg").name)
    mine = [r for r in rows if r["image"] == image and r["truth"] == changed]
    assert len(mine) == 1 and mine[0]["kind"] == "wrong" and mine[0]["read"] not in ("", changed)
    assert mine[0]["sharp_px_per_cm"] == "11"
    assert report["legible"]["labelled"] == report["labelled"] - 1  # the 6 px/cm index is not counted
    # that image's legible indices by suit sign (the others have no sidecar to say it): 0.4 cm
    # at 11 sharp px/cm is 4.4 pixels, the changed label's band; the rest at 18 px/cm, 7.2
    by_sign = {tuple(r["sharp_px"]): r for r in report["legible_by_suit_size"]}
    assert sum(r["labelled"] for r in by_sign.values()) == len(labelled) - 1
    assert by_sign[(4, 5)]["labelled"] == 1 and by_sign[(4, 5)]["wrong"] == 1
    assert by_sign[(6, 8)]["labelled"] == len(labelled) - 2
    shown = guandan("eval-detector", str(data))
    # its progress on stderr, drawn (off a terminal) only as it starts and as it ends (read as
    # text, each carriage return ends a line)
    n = len(list((tmp_path / "images").glob("*.jpg")))
    start, end = (line for line in shown.stderr.splitlines() if "evaluating" in line)
    assert start.startswith("evaluating:   0%") and end.startswith("evaluating: 100%") and f"{n}/{n}" in end
    printed = shown.stdout  # as a person reads it: empty bands say so
    table = printed.split("legible indices read right, by the suit sign's height in sharp pixels:\n")[1]
    assert table.startswith("      0-3: no indices\n      3-4: no indices\n      4-5:     0/1 ")
    # by camera sharpness: the changed label at 11 px/cm, the rest at 18; the 6 px/cm one is
    # still fully visible, so it is counted here, in its band
    table = printed.split("fully visible indices read right, by sharp px/cm of table:\n")[1]
    assert table.startswith("      0-4: no indices\n      4-6: no indices\n      6-8:     ")
    assert "  10-12:     0/1     0.00%  (1 wrong, 0 missed)\n" in table
    assert (out / mine[0]["file"]).stat().st_size > 0
    refused = guandan("eval-detector", str(data), "--failures", str(data))
    assert refused.returncode == 2 and "not a folder" in refused.stderr and "Traceback" not in refused.stderr


def test_a_file_that_is_not_a_dataset_yaml_is_one_clear_line_for_every_command_that_takes_one(tmp_path):
    """A recipe given where its built data.yaml belongs, or any other file, is named for what
    it is before any model loads or patch is cut; so is a split with no images."""
    recipe = Path(__file__).parents[2] / "datasets" / "zones-heldout.yaml"
    other = tmp_path / "notes.txt"
    other.write_text("just a line of text\n", encoding="utf-8")
    broken = tmp_path / "broken.yaml"
    broken.write_text("train: [unclosed\n", encoding="utf-8")
    every = (["train-reader", "--data"], ["train-boxes", "--data"], ["quantize-reader", "--calibration"])
    for given, said in ((recipe, "a dataset recipe"), (other, "not a dataset YAML"), (broken, "cannot be read")):
        commands = [["eval-detector", str(given)], ["train", "--data", str(given)]]
        if given == recipe:
            commands += [[*command, str(given)] for command in every]
        for command in commands:
            done = guandan(*command)
            assert done.returncode == 2 and "Traceback" not in done.stderr, (command, done.stderr)
            assert f"{given}: {said}" in done.stderr, (command, done.stderr)
    data = tmp_path / "samples.yaml"
    data.write_text(f"path: {SAMPLES}\nval: images\nnames: {json.dumps(ALL_CARDS)}\n", encoding="utf-8")
    done = guandan("eval-detector", str(data), "--split", "train")
    assert done.returncode == 2 and f"{data}: has no train images" in done.stderr
    (tmp_path / "empty").mkdir()
    data.write_text(f"path: {SAMPLES}\ntrain: {tmp_path / 'empty'}\nval: images\n", encoding="utf-8")
    done = guandan("eval-detector", str(data), "--split", "train")
    assert done.returncode == 2 and "no train images to evaluate on" in done.stderr


def test_folders_that_cannot_be_made_are_one_clear_line(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    zone = sorted((SAMPLES / "images").glob("*.jpg"))[0]
    done = guandan("detect", str(zone), "--annotate", str(blocker / "drawn"))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"{blocker / 'drawn'}: cannot make the folder --annotate writes into" in done.stderr
    data = tmp_path / "samples.yaml"
    data.write_text(f"path: {SAMPLES}\ntrain: images\nval: images\nnames: {json.dumps(ALL_CARDS)}\n",
                    encoding="utf-8")
    done = guandan("eval-detector", str(data), "--failures", str(blocker / "failures"))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "cannot make the folder --failures writes into" in done.stderr
    done = guandan("render-game", "--out", str(blocker / "game"))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "cannot make the folder --out writes into" in done.stderr


def test_export_refuses_what_is_not_finder_weights_before_it_writes_anything(tmp_path):
    """``guandan export`` copies the weights beside its exports: a wrong file given must be
    refused before that copy, or it would replace the finder in models/."""
    out = tmp_path / "models"
    out.mkdir()
    kept = out / "finder.pt"
    kept.write_bytes(b"the finder the table uses")
    notes = tmp_path / "notes.txt"
    notes.write_text("not weights\n", encoding="utf-8")
    broken = tmp_path / "broken.pt"
    broken.write_bytes(b"garbage")
    reader = Path(__file__).parents[2] / "models" / "reader.pt"  # weights, but not a finder's
    for given, said in ((notes, "not finder weights (a .pt file"), (broken, "not finder weights ultralytics can load"),
                        (reader, "not finder weights ultralytics can load")):
        done = guandan("export", str(given), "--out", str(out))
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert f"{given}: {said}" in done.stderr
    assert kept.read_bytes() == b"the finder the table uses" and sorted(out.iterdir()) == [kept]


def test_training_on_sets_with_no_training_indices_is_one_clear_line(tmp_path):
    """A held-out set (validation images only) given to train on: said, not a scheduler's
    error about zero steps."""
    (tmp_path / "empty").mkdir()
    data = tmp_path / "heldout.yaml"
    data.write_text(f"path: {SAMPLES}\ntrain: {tmp_path / 'empty'}\nval: images\nnames: {json.dumps(ALL_CARDS)}\n",
                    encoding="utf-8")
    for command in ("train-reader", "train-boxes"):
        done = guandan(command, "--data", str(data), "--out", str(tmp_path / f"{command}.onnx"), "--epochs", "1")
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert "no legible labelled index to learn from" in done.stderr
        assert not (tmp_path / f"{command}.onnx").exists()
