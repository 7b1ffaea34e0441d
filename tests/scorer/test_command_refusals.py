"""The operator's commands as a person runs them (``.venv/bin/guandan``): a mistake is one
line in both languages, Chinese first by default and English first with ``--lang en``, exit
status 2, never a traceback — for the camera's commands (``detect``, ``scan``,
``markers``) and the clock (``guandan clock``). ``guandan``'s own, which may have no
``--lang`` (Chinese first), are in ``tests/scorer/test_cli.py``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rulebook.tournament_live import refusal

GUANDAN = Path(sys.executable).with_name("guandan")
ZONE = sorted((Path(__file__).parents[2] / "datasets" / "samples" / "images").glob("*.jpg"))[0]


def guandan(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(GUANDAN), *args], capture_output=True, text=True, timeout=300)


def said_in_each(args: list[str], *lines: tuple) -> None:
    """``guandan ARGS`` ends with status 2 and exactly ``lines`` (each a refusal's code and
    values) as what it says on stderr: Chinese first, then with ``--lang en`` English first
    (a library's own notes on stderr, FFmpeg's on a file that is no video, are not its)."""
    for lang, extra in (("zh", []), ("en", ["--lang", "en"])):
        done = guandan(*args, *extra)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        ours = [line for line in done.stderr.splitlines() if line.startswith("guandan: ")]
        assert ours == [f"guandan: {refusal(code, lang, **values)}" for code, values in lines], done.stderr


def test_detect_names_an_image_that_is_not_there_and_how_many_failed(tmp_path):
    missing = tmp_path / "none.jpg"
    said_in_each(["detect", str(missing)],
                 ("image_unreadable", {"path": missing, "why": "No such file or directory"}),
                 ("images_failed", {"failed": 1, "total": 1}))
    zh = guandan("detect", str(missing)).stderr
    assert zh.startswith(f"guandan: {missing}：无法读取（No such file or directory） / {missing}: No such file")
    assert "1张图片中有1张无法读取或写入 / 1 of 1 images could not be read or written" in zh


def test_a_deck_and_a_reader_together_are_refused_before_any_model_loads(tmp_path):
    said_in_each(["detect", str(ZONE), "--deck", str(tmp_path), "--reader", "models/reader.onnx"],
                 ("deck_with_reader", {}))


def test_a_deck_folder_that_is_not_one_is_said_in_the_operators_language(tmp_path):
    said_in_each(["detect", str(ZONE), "--deck", str(tmp_path)], ("deck_not_folder", {"folder": tmp_path}))


def test_scan_of_a_video_that_cannot_be_read(tmp_path):
    video = tmp_path / "game.mp4"
    video.write_text("not a video\n", encoding="utf-8")
    said_in_each(["scan", str(video), "--out", str(tmp_path / "x.jsonl")], ("video_unreadable", {"path": video}))
    assert "无法打开这个录像 / " in guandan("scan", str(video), "--out", str(tmp_path / "x.jsonl")).stderr


def test_a_trace_folder_that_cannot_be_made_is_one_line(tmp_path):
    from vision.synth.render_game import render

    render(12, tmp_path, size=(640, 360), max_events=1)
    taken = tmp_path / "taken"
    taken.write_text("a file, not a folder", encoding="utf-8")
    said_in_each(["scan", str(tmp_path / "game.mp4"), "--out", str(tmp_path / "x.jsonl"), "--trace", str(taken)],
                 ("trace_unwritable", {"path": taken, "why": "Not a directory"}))


def test_markers_are_a_pdf(tmp_path):
    said_in_each(["markers", "--out", str(tmp_path / "markers.png")],
                 ("markers_not_pdf", {"path": tmp_path / "markers.png"}))


@pytest.mark.parametrize("args, code, values", [
    ([], "clock_port", {}),
    (["--usb", "1a86"], "usb_form", {"text": "1a86"}),
])
def test_the_clock_asked_wrong_says_how_to_ask(args, code, values):
    said_in_each(["clock", *args], (code, values))
    assert guandan("clock", *args, "--lang", "en").stderr.startswith(
        "guandan: give --port" if code == "clock_port" else "guandan: --usb wants VID:PID")



def test_python_m_vision_words_its_refusal_as_guandan_does(tmp_path):
    """A training machine's ``python -m vision`` prints the same line, in the same order."""
    missing = tmp_path / "none.jpg"
    for lang, extra in (("zh", []), ("en", ["--lang", "en"])):
        done = subprocess.run([sys.executable, "-m", "vision", "detect", str(missing), *extra],
                              capture_output=True, text=True, timeout=300, cwd=Path(__file__).parents[2])
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert done.stderr.splitlines()[-1] == f"guandan: {refusal('images_failed', lang, failed=1, total=1)}"
