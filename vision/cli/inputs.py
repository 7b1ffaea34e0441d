"""What the vision commands are given, checked before minutes of work: dataset YAMLs, folders
to write into, images to read, the committed finder; and ``VisionError``, the one line on
stderr (exit status 2) that a user's mistake ends with."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np


class VisionError(ValueError):
    pass


def default_weights(imgsz: int = 320) -> Path:
    # lazy: model and training code, loaded only when a command needs it (keeps guandan --help fast)
    from vision.live.detector import DetectorError, committed_finder

    try:
        return committed_finder(imgsz)
    except DetectorError as exc:
        raise VisionError(str(exc)) from None


def datasets(names: list[str]) -> list[Path]:
    """Dataset YAMLs given on the command line, each checked to exist and to be one, before
    minutes of work."""
    # lazy: model and training code, loaded only when a command needs it (keeps guandan --help fast)
    from vision.training.evaluate import read_dataset

    sets = [Path(d) for d in names]
    for data in sets:
        if not data.exists():
            raise VisionError(f"{data}: no such dataset YAML (build one with 'guandan dataset build')")
        read_dataset(data)
    return sets


def folder_for(folder: str, option: str) -> None:
    """Make the folder ``option`` writes into, or say in one line why it cannot be made."""
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise VisionError(f"{folder}: cannot make the folder {option} writes into ({exc.strerror or exc})") from None


def _decode(path: str):
    """The picture at ``path`` (BGR) and ``None``, or ``None`` and why it cannot be read."""
    try:
        data = np.fromfile(path, dtype=np.uint8)
    except OSError as exc:
        return None, exc.strerror or "cannot read"
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    return image, None if image is not None else "not an image OpenCV can read"


def read_image(path: str):
    """The image at ``path`` (BGR), or ``None`` after saying on stderr why it cannot be read."""
    image, why = _decode(path)
    if image is None:
        print(f"guandan: {path}: {why}", file=sys.stderr)
    return image


def decoded(path: str):
    """The picture at ``path`` (BGR), or ``None`` without a word: for a source that may as
    well be a video."""
    return _decode(path)[0]


def written(path: str, image) -> bool:
    """Whether OpenCV wrote ``image`` to ``path`` (it says no by returning False, or by raising
    for a name whose extension it has no writer for)."""
    try:
        return bool(cv2.imwrite(path, image))
    except cv2.error:
        return False
