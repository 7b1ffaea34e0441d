"""What the vision commands are given, checked before minutes of work: dataset YAMLs, folders
to write into, images to read, the committed finder; ``VisionError``, the one line on
stderr (exit status 2) that a user's mistake ends with, and ``--lang``, the language it
and the commands' warnings are read in first."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from rulebook.i18n import DEFAULT_LANG, LANGS
from rulebook.tournament_live import Refusal


class VisionError(Refusal, ValueError):
    """A mistake the operator of a camera command can fix (a file that is not there, options
    that do not go together, a model that does not load): named by a code and its values,
    worded by the rule books in both languages, ``--lang``'s first
    (``rulebook.command_words``); what a library said is one of the values."""


def lang_option(parser: argparse.ArgumentParser) -> None:
    """``--lang``: which language comes first in the command's one-line errors and warnings."""
    parser.add_argument("--lang", choices=LANGS, default=DEFAULT_LANG, help="language of the messages (default zh)")


def default_weights(imgsz: int = 320) -> Path:
    # lazy: model and training code, loaded only when a command needs it (keeps guandan --help fast)
    from vision.live.detector import DetectorError, committed_finder

    try:
        return committed_finder(imgsz)
    except DetectorError as exc:
        raise VisionError("model_unusable", why=exc) from None


def datasets(names: list[str]) -> list[Path]:
    """Dataset YAMLs given on the command line, each checked to exist and to be one, before
    minutes of work."""
    # lazy: model and training code, loaded only when a command needs it (keeps guandan --help fast)
    from vision.training.evaluate import read_dataset

    sets = [Path(d) for d in names]
    for data in sets:
        if not data.exists():
            raise VisionError("no_dataset", path=data)
        read_dataset(data)
    return sets


def folder_for(folder: str, option: str) -> None:
    """Make the folder ``option`` writes into, or say in one line why it cannot be made."""
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise VisionError("folder_unmakeable", folder=folder, option=option, why=exc.strerror or exc) from None


def _decode(path: str) -> tuple[np.ndarray | None, VisionError | None]:
    """The picture at ``path`` (BGR) and ``None``, or ``None`` and why it cannot be read."""
    try:
        data = np.fromfile(path, dtype=np.uint8)
    except OSError as exc:
        return None, VisionError("image_unreadable", path=path, why=exc.strerror or exc)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    return image, None if image is not None else VisionError("not_an_image", path=path)


def read_image(path: str, lang: str):
    """The image at ``path`` (BGR), or ``None`` after saying on stderr, ``lang`` first, why
    it cannot be read (the command goes on with the other images)."""
    image, why = _decode(path)
    if why is not None:
        print(f"guandan: {why.text(lang)}", file=sys.stderr)
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
