"""``guandan camera-check`` on recordings of the check: the four rows laid on a well lit table
are read and it passes; the same table too dark fails and says to light it."""

import json
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from vision.live.camera_check import ROWS

pytestmark = pytest.mark.video


def recording(path: Path, exposure: float, seed: int = 5) -> Path:
    """A 1080p recording of the check: the empty table, then each seat's row brought in by a
    hand and left lying."""
    from vision.synth.render_game import Renderer, TableState

    renderer = Renderer(seed, (1920, 1080))
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 10, (1920, 1080))
    rows = {seat: [] for seat in "ESWN"}
    scenes = [(TableState(rows=dict(rows)), 1.0)]
    for seat in "ESWN":
        rows[seat] = list(ROWS[seat])
        scenes += [(TableState(rows=dict(rows), hand=(seat, 1.0)), 0.5), (TableState(rows=dict(rows)), 1.5)]
    for state, seconds in scenes:
        view = renderer.view(renderer.table(state)) * exposure
        for _ in range(int(seconds * 10)):
            writer.write(renderer.camera(view))
    writer.release()
    return path


def check(video: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scorer.cli", "camera-check", str(video), "--out", str(out), *extra],
                          capture_output=True, text=True, timeout=600)


@pytest.mark.video
def test_a_well_lit_table_passes_and_a_dark_one_is_told_to_light_it(tmp_path):
    done = check(recording(tmp_path / "lit.mp4", 1.0), tmp_path / "lit")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "南家：黑桃2 红桃10 梅花9 方块Q 黑桃K" in done.stdout  # what to lay, as players say it
    assert done.stdout.count("✓ 读对") == 4 and "摄像头检查通过" in done.stdout
    report = json.loads((tmp_path / "lit" / "report.json").read_text(encoding="utf-8"))
    assert all(report[seat]["passed"] and report[seat]["read"] == list(ROWS[seat]) for seat in "ESWN")
    assert all((tmp_path / "lit" / report[seat]["picture"]).exists() for seat in "ESWN")

    dark = check(recording(tmp_path / "dark.mp4", 0.22), tmp_path / "dark", "--lang", "en")
    assert dark.returncode == 1, dark.stdout + dark.stderr
    assert "camera check failed" in dark.stdout and "the picture is too dark" in dark.stdout
    report = json.loads((tmp_path / "dark" / "report.json").read_text(encoding="utf-8"))
    assert all("dark" in report[seat]["advice"] and not report[seat]["passed"] for seat in "ESWN")


def test_a_recording_that_is_not_there_is_one_line(tmp_path):
    done = check(tmp_path / "none.mp4", tmp_path / "out")
    assert done.returncode == 2 and "没有这个录像文件" in done.stderr and "Traceback" not in done.stderr
