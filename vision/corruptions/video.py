"""A corruption put on a whole video file: read frame by frame, corrupted, written to a new
file (MPEG-4 Part 2, ``mp4v``, as rendered games are; H.264 for the ``h264`` corruption),
with a progress bar."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from vision.corruptions.catalogue import Corruption
from vision.corruptions.codec import write_h264
from vision.corruptions.common import Clip
from vision.corruptions.frames import drop_every
from vision.live.calibration import Calibration
from vision.progress import progress_bar


def _frames(capture: cv2.VideoCapture) -> Iterator[np.ndarray]:
    while True:
        ok, image = capture.read()
        if not ok:
            return
        yield image


def corrupt_video(source: Path, out: Path, corruption: Corruption | None, severity: int = 1, seed: int = 0,
                  progress: bool = True) -> Path:
    """``source`` with ``corruption`` at ``severity`` put on it, written to ``out``; ``None``:
    the video written again unchanged (what writing it again costs by itself). Dropped frames
    are left out of the file and its frame rate lowered to match, so every frame kept has its
    time. Returns ``out``."""
    capture = cv2.VideoCapture(str(source))
    if not capture.isOpened():
        raise OSError(f"{source}: cannot open this video")
    fps = capture.get(cv2.CAP_PROP_FPS) or 30.0
    count = int(capture.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
    size = (int(capture.get(cv2.CAP_PROP_FRAME_WIDTH)), int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT)))
    name = corruption.name if corruption else "rewritten"
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        with progress_bar(count or None, f"{name} {severity}", unit="frame", enabled=progress) as bar:
            frames = _counted(_frames(capture), bar)
            if corruption is not None and corruption.kind == "codec":
                write_h264(frames, out, fps, severity)
                return out
            every = drop_every(fps, severity) if corruption is not None and corruption.kind == "frames" else 1
            writer = cv2.VideoWriter(str(out), cv2.VideoWriter_fourcc(*"mp4v"), fps / every, size)
            if not writer.isOpened():
                raise OSError(f"{out}: cannot write a video here")
            clip = Clip(fps=fps, duration=count / fps if count else 60.0)
            try:
                for index, image in enumerate(frames):
                    if index % every:
                        continue
                    if corruption is not None and corruption.frame is not None:
                        if corruption.calibrated and clip.calibration is None:
                            clip = Clip(clip.fps, clip.duration, Calibration.from_image(image))
                        image = corruption.frame(image, index / fps, index, severity, seed, clip)
                    writer.write(image)
            finally:
                writer.release()
    finally:
        capture.release()
    return out


def _counted(frames: Iterator[np.ndarray], bar) -> Iterator[np.ndarray]:
    for image in frames:
        yield image
        bar.update(1)
