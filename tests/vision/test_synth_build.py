"""Dataset recipes, the builder and ``guandan dataset build`` (vision.synth.build / recipe / cli)."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from engine.cards import ALL_CARDS
from vision.synth import cli
from vision.synth.build import build
from vision.synth.labels import parse_yolo
from vision.synth.recipe import RecipeError, load_recipe

ROOT = Path(__file__).resolve().parents[2]
SMOKE = ROOT / "datasets" / "smoke.yaml"


def _digest(folder: Path, pattern: str) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.glob(pattern))}


@pytest.fixture(scope="module")
def smoke(tmp_path_factory) -> tuple[Path, float]:
    out = tmp_path_factory.mktemp("smoke")
    t = time.perf_counter()
    build(SMOKE, out, progress=False, workers=1)
    return out, time.perf_counter() - t


def test_smoke_recipe_builds_in_seconds(smoke):
    out, seconds = smoke
    assert seconds < 10
    images = sorted((out / "images").rglob("*.jpg"))
    labels = sorted((out / "labels").rglob("*.txt"))
    assert len(images) == len(labels) == 16
    assert [p.stem for p in images] == [p.stem for p in labels]
    assert len(list((out / "images" / "train").glob("*.jpg"))) == 12


def test_data_yaml_names_every_card_in_engine_order(smoke):
    out, _ = smoke
    data = yaml.safe_load((out / "data.yaml").read_text())
    assert data["names"] == list(ALL_CARDS) and data["nc"] == 54
    assert Path(data["path"]).is_absolute() and Path(data["path"]) == out.resolve()
    assert (out / data["train"]).is_dir() and (out / data["val"]).is_dir()


def test_written_labels_are_valid_yolo(smoke):
    out, _ = smoke
    total = 0
    for f in (out / "labels").rglob("*.txt"):
        total += len(parse_yolo(f.read_text()))
    assert total > 16


def test_every_image_has_a_sidecar_with_its_sharpness_and_each_labels_visibility(smoke):
    out, _ = smoke
    for image in (out / "images").rglob("*.jpg"):
        meta = json.loads((out / "meta" / image.parent.name / f"{image.stem}.json").read_text())
        labels = parse_yolo((out / "labels" / image.parent.name / f"{image.stem}.txt").read_text())
        assert len(meta["visible"]) == len(labels)
        assert all(0.6 <= v <= 1.0 for v in meta["visible"])  # the renderer labels from 60 % visible
        # each label's printed rank and suit sign heights (cm), the sign no taller than the rank
        assert len(meta["rank_cm"]) == len(meta["suit_cm"]) == len(labels)
        assert all(0.15 <= suit <= rank <= 3.0 for rank, suit in zip(meta["rank_cm"], meta["suit_cm"], strict=True))
        # and how far each index is turned from upright, in (-180, 180]
        assert len(meta["turn_deg"]) == len(labels) and all(-180 < t <= 180 for t in meta["turn_deg"])
        # sharp px/cm never exceeds what the camera itself sampled
        assert 0 < meta["sharp_px_per_cm"] <= meta["px_per_cm"] * meta["camera_scale"] + 0.02


@pytest.mark.slow
def test_same_recipe_same_bytes_whatever_the_workers(smoke, tmp_path):
    out, _ = smoke
    again = tmp_path / "again"
    build(SMOKE, again, progress=False, workers=2)
    assert _digest(out, "labels/*/*.txt") == _digest(again, "labels/*/*.txt")
    assert _digest(out, "images/*/*.jpg") == _digest(again, "images/*/*.jpg")
    assert _digest(out, "meta/*/*.json") == _digest(again, "meta/*/*.json")
    # building over an earlier build replaces it
    build(SMOKE, again, progress=False, workers=1)
    assert _digest(out, "labels/*/*.txt") == _digest(again, "labels/*/*.txt")


def test_shipped_recipes_are_valid():
    names = set()
    for path in sorted((ROOT / "datasets").glob("*.yaml")):
        r = load_recipe(path)
        names.add(r.name)
        assert r.total_images > 0
    assert {"smoke", "zones-train", "zones-heldout"} <= names
    held = load_recipe(ROOT / "datasets" / "zones-heldout.yaml")
    assert {p.styles for p in held.splits} == {"heldout"}
    wide = load_recipe(ROOT / "datasets" / "zones-train-d.yaml")
    assert held.style_variety == "standard" and wide.style_variety == "wide"
    fonts = load_recipe(ROOT / "datasets" / "zones-train-g.yaml")
    assert held.fonts == wide.fonts == "base" and fonts.fonts == "extra"
    blur = load_recipe(ROOT / "datasets" / "zones-heldout-blur.yaml")
    assert {p.styles for p in blur.splits} == {"heldout"}
    assert blur.scene.camera.defocus_px == load_recipe(ROOT / "datasets" / "zones-train-k.yaml").scene.camera.defocus_px
    inks = load_recipe(ROOT / "datasets" / "zones-train-j.yaml")
    assert held.inks == wide.inks == "standard" and inks.inks == "many"
    jokers = load_recipe(ROOT / "datasets" / "zones-jokers.yaml")
    assert held.jokers == "standard" and jokers.jokers == "wide" and jokers.scene.joker_share > 0


@pytest.mark.parametrize("text, message", [
    ("splits: [1, 2", "not valid YAML"),
    ("- a\n- b\n", "not a recipe"),
    ("seed: 1\n", "splits"),
    ("seed: 1\nsplits: {train: 4}\ncolour: red\n", "unknown key"),
    ("splits: {train: {images: 4, styles: other}}\n", "styles must be train or heldout"),
    ("splits: {train: 4}\nscene: {rows: [1, 2], glare: 1}\n", "unknown scene setting"),
    ("splits: {train: 4}\nstyle_variety: huge\n", "style_variety must be standard or wide"),
    ("splits: {train: 4}\nfonts: all\n", "fonts must be base or extra"),
    ("splits: {train: 4}\ninks: neon\n", "inks must be standard or many"),
    ("splits: {train: 4}\njokers: many\n", "jokers must be standard or wide"),
    ("splits: {train: 4}\nscene: {joker_share: 2}\n", "joker_share must be within 0..1"),
])
def test_bad_recipes_say_what_is_wrong(tmp_path, text, message):
    path = tmp_path / "r.yaml"
    path.write_text(text)
    with pytest.raises(RecipeError, match=message) as err:
        load_recipe(path)
    assert "\n" not in str(err.value) and str(path) in str(err.value)


def _run_cli(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="guandan")
    sub = parser.add_subparsers(dest="command", required=True)
    cli.add_parser(sub)
    args = parser.parse_args(argv)
    args.func(args)


def test_cli_builds_and_reports(tmp_path, capsys):
    _run_cli(["dataset", "build", str(SMOKE), "--out", str(tmp_path / "ds"), "--workers", "1", "--quiet"])
    out = capsys.readouterr().out
    assert "data.yaml" in out and "train 12 images" in out
    assert (tmp_path / "ds" / "data.yaml").is_file()


@pytest.mark.parametrize("setup, message", [
    ("missing", "no such recipe"),
    ("bad", "not valid YAML"),
    ("occupied", "refusing to overwrite"),
])
def test_cli_errors_are_one_line_and_exit_2(tmp_path, capsys, setup, message):
    recipe, out = tmp_path / "r.yaml", tmp_path / "out"
    if setup == "bad":
        recipe.write_text("splits: {train: 4\n")
    else:
        recipe = SMOKE if setup == "occupied" else recipe
    if setup == "occupied":
        out.mkdir()
        (out / "notes.txt").write_text("mine")
    with pytest.raises(SystemExit) as exc:
        _run_cli(["dataset", "build", str(recipe), "--out", str(out), "--quiet"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("guandan: ") and message in err and "\n" not in err
    if setup == "occupied":
        assert (out / "notes.txt").read_text() == "mine"


@pytest.mark.slow
def test_ctrl_c_stops_a_build_with_one_clean_line(tmp_path):
    """Ctrl+C reaches every process of the terminal's group: the workers leave it to the
    main process, which stops the pool and says so, with no traceback from anyone."""
    recipe = tmp_path / "long.yaml"
    recipe.write_text("name: long\nseed: 1\nimage_size: 96\nstyles: 4\nsplits: {train: 5000}\n")
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-m", "scorer.cli", "dataset", "build", str(recipe), "--out", str(out),
                             "--workers", "2", "--quiet"], cwd=ROOT, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not any((out / "images" / "train").glob("*.jpg")) and time.monotonic() < deadline:
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl+C does
        err = proc.communicate(timeout=30)[1]
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "stopped" in err and "Traceback" not in err
    assert not (out / "data.yaml").exists()  # an unfinished build is not a dataset
