"""A table node and the hall's server installed with ``pip install .`` alone: no torch,
ultralytics or NNCF (imitated by ``tests/base_install.py``). The commands that read a table
(``detect``, ``scan``, ``serve``; ``demo`` in ``test_cli.py``) work with the committed models
and with an enrolled deck's; the ones that train say in one line what to install."""

import json
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from engine.record import parse_lines, replay
from rulebook import profiles
from scorer.cli import DEMO_RECORD
from store.event_store import Store
from tests.base_install import ROOT, blocked_env, blocked_modules
from tests.web.conftest import start_serve
from vision.enroll.deck import FORMAT
from vision.enroll.finder import FOLDER

SAMPLE = sorted((ROOT / "datasets" / "samples" / "images").glob("*.jpg"))[1]
INSTALL = "pip install 'guandan-scorer[train]'"


def guandan(env: dict[str, str], *args: str, module: str = "scorer.cli") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True, timeout=300,
                          env=env, cwd=ROOT)


def stand_in_deck(folder: Path) -> Path:
    """A deck folder as ``guandan enroll`` writes one, its models the committed ones: the
    reader as ONNX, the finder an 8-bit OpenVINO export with its whole-zone twin."""
    folder.mkdir(parents=True)
    shutil.copy(ROOT / "models" / "reader.onnx", folder / "reader.onnx")
    shutil.copytree(ROOT / "models" / "finder_int8_openvino_model", folder / FOLDER)
    (folder / "deck.json").write_text(json.dumps({"format": FORMAT, "reader": "reader.onnx", "finder": FOLDER}),
                                      encoding="utf-8")
    return folder


def test_a_base_install_has_no_training_stack_and_a_child_process_sees_as_much(tmp_path):
    blocked = blocked_modules()
    assert {"torch", "ultralytics", "nncf"} <= blocked
    assert not {"cv2", "numpy", "openvino", "onnx", "flask", "PIL", "yaml", "psycopg", "paho"} & blocked
    env = blocked_env(tmp_path / "site")
    probe = "import cv2, openvino\ntry:\n    import torch\nexcept ModuleNotFoundError as e:\n    print(e.name)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0 and done.stdout == "torch\n", done.stderr


def test_enroll_on_a_base_install_says_in_one_line_what_to_install(tmp_path):
    done = guandan(blocked_env(tmp_path / "site"), "enroll", str(SAMPLE), "--out", str(tmp_path / "deck"))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr == (f"guandan: enroll 需要训练组件（未安装 torch）：{INSTALL} / "
                           f"enroll needs the training extra (torch is not installed): {INSTALL}\n")
    assert not (tmp_path / "deck").exists()


@pytest.mark.slow
@pytest.mark.parametrize("module, args, missing", [
    ("scorer.cli", ["train-reader", "--data", "none.yaml", "--lang", "en"], "torch"),
    ("scorer.cli", ["export", "models/finder.pt", "--out", "{tmp}/x", "--lang", "en"], "torch"),
    ("scorer.cli", ["quantize-reader", "--calibration", "none.yaml", "--lang", "en"], "nncf"),
    ("scorer.cli", ["render-stage", "--out", "{tmp}/stage", "--lang", "en"], "moderngl"),
    ("scorer.cli", ["detect", str(SAMPLE), "--weights", "models/finder.pt", "--lang", "en"], "ultralytics"),
    ("vision", ["train-reader", "--data", "none.yaml", "--lang", "en"], "torch"),
])
def test_each_command_that_needs_the_training_extra_says_so(tmp_path, module, args, missing):
    """Checked before any work where the command always needs it; a finder's PyTorch weights
    on a reading command, run through ultralytics, found wanting as it loads."""
    done = guandan(blocked_env(tmp_path / "site"), *(a.format(tmp=tmp_path) for a in args), module=module)
    command = args[0]
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith(f"guandan: {command} needs the training extra ({missing} is not installed): "
                                  f"{INSTALL} / {command} 需要训练组件") and done.stderr.count("\n") == 1


@pytest.mark.slow
def test_detect_reads_a_picture_with_the_committed_models_and_with_an_enrolled_decks(tmp_path):
    env = blocked_env(tmp_path / "site")
    for more in ([], ["--deck", str(stand_in_deck(tmp_path / "deck"))]):
        done = guandan(env, "detect", str(SAMPLE), "--json", *more)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["detections"], more


@pytest.mark.slow
def test_serve_answers_the_pages_and_the_api(tmp_path):
    store = Store(tmp_path / "hall.db")
    record = parse_lines(DEMO_RECORD.read_text(encoding="utf-8").splitlines())
    store.add_table("1", record.header.to_json())
    store.append("1", [e.to_json() for e in record.events[1:]])
    proc, base = start_serve(str(store.path), 4, env=blocked_env(tmp_path / "site"))
    try:
        tables = json.loads(urllib.request.urlopen(base + "/api/tables", timeout=10).read())
        assert [t["table"] for t in tables] == ["1"]
        with urllib.request.urlopen(base + "/table/1", timeout=10) as page:
            assert page.status == 200 and "<html" in page.read().decode("utf-8").lower()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.video
def test_scan_reads_a_rendered_game_with_the_committed_models_and_with_an_enrolled_decks(tmp_path):
    from vision.synth.render_game import render

    render(11, tmp_path, size=(1280, 720), max_events=3)
    env = blocked_env(tmp_path / "site")
    for name, more in (("committed", []), ("deck", ["--deck", str(stand_in_deck(tmp_path / "deck"))])):
        out = tmp_path / f"{name}.jsonl"
        done = guandan(env, "scan", str(tmp_path / "game.mp4"), "--out", str(out), *more)
        assert done.returncode == 0, done.stderr
        record = parse_lines(out.read_text(encoding="utf-8").splitlines())
        replay(record, profiles.load)
        assert any(e.to_json()["type"] == "play" for e in record.events), name
