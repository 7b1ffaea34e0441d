"""Training on a lent machine (``scripts/gpu-reader.sh``): patches cut by several
processes, a time budget, where the reader and the finder train, and ``python -m vision``
without the scorer's web, serial and broker packages."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from vision.live.reader import NOT_AN_INDEX
from vision.training.reader_net import load_net
from vision.training.reader_train import cut_sets, epochs_within, train_reader

# make check leaves these out: they render and train, as the lent machine's script does
pytestmark = pytest.mark.video

ROOT = Path(__file__).parents[2]


def _sorted_rows(images: np.ndarray) -> list[bytes]:
    return sorted(p.tobytes() for p in images)


def test_patches_cut_by_several_processes_are_the_same_patches(smoke):
    one = cut_sets([smoke, smoke], "train", seed=0, workers=1, jitter=False, progress=False)
    two = cut_sets([smoke, smoke], "train", seed=0, workers=2, jitter=False, progress=False, log=lambda _: None)
    assert len(one.classes) > 0 and len(two.classes) == len(one.classes)
    assert sorted(two.classes) == sorted(one.classes)
    assert _sorted_rows(two.images) == _sorted_rows(one.images)
    # jittered, every index is still cut twice, and the parts draw their own turns
    jittered = cut_sets([smoke], "train", seed=0, workers=2, progress=False, log=lambda _: None)
    indices = jittered.classes[jittered.classes != NOT_AN_INDEX]
    assert len(indices) == len(one.classes)  # two cuts of one set's indices, as one each of two sets
    assert (jittered.classes == NOT_AN_INDEX).any()
    again = cut_sets([smoke], "train", seed=0, workers=2, progress=False, log=lambda _: None)
    assert np.array_equal(again.images, jittered.images)  # the seed, not timing, decides


def test_a_time_budget_fits_the_epochs_between_one_and_the_most(smoke):
    patches = cut_sets([smoke], "train", seed=0, progress=False)
    net = load_net(ROOT / "models" / "reader.pt")
    before = {k: v.clone() for k, v in net.state_dict().items()}
    assert epochs_within(net, patches, 64, 1e-6, 9, log=lambda _: None) == 1
    assert epochs_within(net, patches, 64, 1e4, 9, log=lambda _: None) == 9
    after = net.state_dict()
    assert all(torch.equal(before[k], after[k]) for k in before)  # timed on a copy


def test_a_budgeted_run_says_where_it_trained(smoke, tmp_path):
    patches = cut_sets([smoke], "train", seed=0, progress=False)
    val = cut_sets([smoke], "val", seed=100, copies=1, progress=False)
    lines = []
    figures = train_reader(patches, val, tmp_path / "reader.onnx", epochs=3, minutes=1e-6, batch=128,
                           start=ROOT / "models" / "reader.pt", log=lines.append)
    assert len(figures["epochs"]) == 1 and figures["device"] == "cpu" and figures["batch"] == 128
    assert any("1 epoch in" in line for line in lines)
    state = torch.load(tmp_path / "reader.pt", weights_only=True)
    assert all(v.device.type == "cpu" for v in state.values())


def _vision(*args: str, blocked: bool = False, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if blocked:  # a training machine: none of the scorer's other packages
        env["PYTHONPATH"] = str(ROOT / "tests" / "vision" / "without_scorer_packages")
    return subprocess.run([sys.executable, "-m", "vision", *args], capture_output=True, text=True, timeout=300,
                          env=env, cwd=cwd)


def test_the_vision_commands_run_without_the_scorers_other_packages(tmp_path):
    done = _vision("--help", blocked=True)
    assert done.returncode == 0 and "train-reader" in done.stdout and "dataset" in done.stdout
    recipe = tmp_path / "tiny.yaml"
    recipe.write_text((ROOT / "datasets" / "smoke.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    done = _vision("dataset", "build", str(recipe), "--out", str(tmp_path / "tiny"), "--quiet", blocked=True)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "tiny" / "data.yaml").exists()


@pytest.mark.parametrize(("options", "said"), [
    (["--device", "tpu"], "give cpu or cuda"),
    (["--batch", "0"], "--batch"),
    (["--workers", "0"], "--workers"),
    (["--minutes", "0"], "--minutes"),
])
def test_bad_training_options_are_one_clear_line(smoke, options, said):
    done = _vision("train-reader", "--data", str(smoke), "--out", "/nonexistent/reader.onnx", *options)
    assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has a CUDA accelerator")
def test_an_accelerator_the_machine_lacks_is_one_clear_line(smoke):
    done = _vision("train-reader", "--data", str(smoke), "--device", "cuda")
    assert done.returncode == 2 and "no CUDA accelerator" in done.stderr and "Traceback" not in done.stderr


def test_the_lent_machines_script_renders_trains_and_writes_a_reader(tmp_path):
    """``scripts/gpu-reader.sh`` as it runs there, on the CPU and the smoke recipe."""
    env = dict(os.environ, PYTHON=sys.executable, DEVICE="cpu", WORK=str(tmp_path / "work"), BATCH="64",
               PYTHONPATH=str(ROOT / "tests" / "vision" / "without_scorer_packages"))
    done = subprocess.run(["bash", str(ROOT / "scripts" / "gpu-reader.sh"), str(tmp_path / "out"), "0.5",
                           str(ROOT / "datasets" / "smoke.yaml")], capture_output=True, text=True, timeout=600,
                          env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "smoke rendered in" in done.stdout and "reader written" in done.stdout
    state = torch.load(tmp_path / "out" / "reader.pt", weights_only=True)
    assert [state[k].shape[0] for k in state if state[k].ndim == 4][0::2] == [16, 32, 128, 192]  # widened
    figures = json.loads((tmp_path / "out" / "reader.json").read_text(encoding="utf-8"))
    assert figures["device"] == "cpu" and figures["batch"] == 64 and figures["epochs"]


def test_the_lent_machines_script_wants_its_arguments():
    done = subprocess.run(["bash", str(ROOT / "scripts" / "gpu-reader.sh"), "/tmp/out"], capture_output=True,
                          text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 2 and "usage:" in done.stderr


def test_the_finder_trains_with_processes_loading_its_images(smoke, tmp_path):
    from vision.training.train import train

    best = train(smoke, tmp_path / "run", epochs=1, imgsz=320, batch=8, workers=2, device="cpu")
    assert best.exists() and (tmp_path / "run" / "weights" / "last.pt").exists()
    args = (tmp_path / "run" / "args.yaml").read_text(encoding="utf-8")
    assert "workers: 2" in args and "device: cpu" in args


@pytest.mark.parametrize(("options", "said"), [
    (["--device", "tpu"], "give cpu or cuda"),
    (["--workers", "-1"], "--workers"),
])
def test_bad_finder_training_options_are_one_clear_line(smoke, tmp_path, options, said):
    done = _vision("train", "--data", str(smoke), "--out", str(tmp_path / "run"), *options)
    assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "run").exists()
