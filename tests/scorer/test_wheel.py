"""A table node installed from the wheel (``pip install .``, not editable): the reading
commands find the committed models and the demo's recording inside the installed package,
run from any folder, and write their working files outside it (``vision.live.places``).

The wheel is built offline from a copy of the checkout's sources with the setuptools
installed here, then installed into a folder of its own; the child processes import the
project from there alone, without torch, ultralytics or NNCF, the checkout hidden from them
(``tests/base_install.py``).
"""

import json
import re
import shutil
import signal
import subprocess
import sys
import time
import tomllib
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

import cv2
import pytest

from engine.record import parse_lines
from tests.base_install import ROOT, blocked_env
from tests.ports import free_port

pytestmark = pytest.mark.slow

SAMPLE = sorted((ROOT / "datasets" / "samples" / "images").glob("*.jpg"))[1]
#: what the build reads besides the packages: the project's description, the build step that
#: ships the models, and the models themselves
BUILD_FILES = ("pyproject.toml", "setup.py", "MANIFEST.in", "models")
#: the demo recording's first seconds: the deal and two plays
CLIP_S = 6.5


@dataclass(frozen=True)
class Installed:
    wheel: Path
    site: Path  # what ``pip install --target`` installed into
    elsewhere: Path  # a folder outside the checkout, where the commands run

    def env(self, tmp: Path) -> dict[str, str]:
        """A child's environment: the installed project alone, working files under ``tmp``."""
        return {**blocked_env(tmp / "sitecustomize", installed=self.site), "XDG_DATA_HOME": str(tmp / "data")}

    def guandan(self, tmp: Path, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(self.site / "bin" / "guandan"), *args], capture_output=True, text=True,
                              timeout=300, env=self.env(tmp), cwd=self.elsewhere)


def sources() -> list[str]:
    """The checkout's top-level files and folders a wheel is built from (``pyproject.toml``)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    packages = [name.rstrip("*") for name in project["tool"]["setuptools"]["packages"]["find"]["include"]]
    return [*BUILD_FILES, project["project"]["readme"], *project["project"]["license-files"], *packages]


def pip(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "pip", *args, "--disable-pip-version-check", "--no-index", "-q"],
                   check=True, timeout=300)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    """The project as ``pip install .`` installs it, without its dependencies (those of this
    environment serve)."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    source.mkdir()
    for name in sources():
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(ROOT / name, source / name)
    pip("wheel", str(source), "--no-deps", "--no-build-isolation", "-w", str(work / "dist"))
    wheel = next((work / "dist").glob("*.whl"))
    pip("install", str(wheel), "--no-deps", "--target", str(work / "site-packages"))
    (work / "elsewhere").mkdir()
    return Installed(wheel, work / "site-packages", work / "elsewhere")


def test_the_wheel_carries_the_models_a_table_reads_with_and_no_training_weights(installed):
    names = zipfile.ZipFile(installed.wheel).namelist()
    models = {Path(name).relative_to("vision/live/models").as_posix() for name in names
              if name.startswith("vision/live/models/")}
    for model in ("reader_int8.xml", "reader_int8.bin", "reader_int8.json", "suits_int8.xml", "boxes_int8.xml",
                  "boxes_second_int8.xml", "finder_int8_openvino_model/finder.xml",
                  "finder_int8_openvino_model/whole/finder.xml", "finder_640_int8_openvino_model/finder_640.xml"):
        assert model in models, model
    assert not [name for name in names if name.endswith((".pt", ".onnx"))]  # training starts from a checkout
    assert {"scorer/data/demo-table.mp4", "scorer/data/demo-table-truth.jsonl", "scorer/data/demo-match.jsonl"} <= {
        *names}


def test_nothing_installed_points_back_into_the_checkout(installed):
    """The console script's first line names this environment's Python, which is the
    checkout's own; nothing else may name the checkout."""
    checkout = str(ROOT).encode()
    named = [path for path in installed.site.rglob("*")
             if path.is_file() and path.parent.name != "bin" and checkout in path.read_bytes()]
    assert not named


def test_detect_from_the_wheel_reads_a_picture_as_the_checkout_does(installed, tmp_path):
    done = installed.guandan(tmp_path, "detect", str(SAMPLE), "--json")
    assert done.returncode == 0, done.stderr
    checkout = subprocess.run([sys.executable, "-m", "scorer.cli", "detect", str(SAMPLE), "--json"],
                              capture_output=True, text=True, timeout=300, env=blocked_env(tmp_path / "site"), cwd=ROOT)
    assert checkout.returncode == 0, checkout.stderr
    cards = [d["card"] for d in json.loads(done.stdout)["detections"]]
    assert cards and cards == [d["card"] for d in json.loads(checkout.stdout)["detections"]]


@pytest.mark.video
def test_scan_from_the_wheel_reads_the_first_plays_of_the_shipped_recording(installed, tmp_path):
    data = installed.site / "scorer" / "data"
    recording = cv2.VideoCapture(str(data / "demo-table.mp4"))
    fps = recording.get(cv2.CAP_PROP_FPS)
    size = (int(recording.get(cv2.CAP_PROP_FRAME_WIDTH)), int(recording.get(cv2.CAP_PROP_FRAME_HEIGHT)))
    clip = cv2.VideoWriter(str(tmp_path / "clip.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), fps, size)
    for _ in range(round(fps * CLIP_S)):
        ok, frame = recording.read()
        assert ok
        clip.write(frame)
    clip.release()
    recording.release()
    done = installed.guandan(tmp_path, "scan", str(tmp_path / "clip.mp4"), "--out", str(tmp_path / "clip.jsonl"))
    assert done.returncode == 0, done.stderr

    def plays(path: Path) -> list[tuple[str, list[str]]]:
        record = parse_lines(path.read_text(encoding="utf-8").splitlines())
        return [(e["seat"], sorted(e["cards"])) for e in (event.to_json() for event in record.events)
                if e["type"] == "play" and e["t"] < CLIP_S - 1]

    read = plays(tmp_path / "clip.jsonl")
    assert len(read) == 2 and read == plays(data / "demo-table-truth.jsonl")[:2]


def test_the_demo_from_the_wheel_keeps_its_store_in_the_users_data_folder(installed, tmp_path):
    port = free_port()
    proc = subprocess.Popen([str(installed.site / "bin" / "guandan"), "demo", "--from-record", "--port", str(port),
                             "--speed", "50", "--lang", "en"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=installed.env(tmp_path), cwd=installed.elsewhere)
    try:
        deadline = time.monotonic() + 30
        seen = []
        while time.monotonic() < deadline and not seen:
            try:
                seen = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=2).read())
            except OSError:
                time.sleep(0.2)
        assert seen and seen[0]["table"] == "demo"
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    store = tmp_path / "data" / "guandan-scorer" / "demo.db"
    assert re.search(rf"^# store {re.escape(str(store))}$", out, re.MULTILINE) and store.exists(), out
    assert not list(installed.site.rglob("*.db")) and not list(installed.elsewhere.iterdir())
