"""Camera sources: a device, a video file or a network stream, with timestamps.

A live camera is read by its own thread that keeps only the newest frame: the table loop
takes the latest when it is ready and never works through a backlog (stale frames are
dropped and counted). When a live source stops giving frames it is reopened with backoff,
and the loop is told the camera is down until it is back. A video file is read in order,
frame by frame, as fast as the reader asks (``guandan scan``), its timestamps from the
file's frame rate. A recording can also stand in for a live camera (``paced``): its frames
come at the file's own rate, as a camera's would, and its end is the end of the session.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import cv2
import numpy as np

BACKOFF_S = (0.2, 0.5, 1.0, 2.0)


@dataclass(frozen=True)
class Frame:
    image: np.ndarray
    t: float  # seconds since the source started (video: position in the file)
    number: int


def open_capture(source: str | int) -> cv2.VideoCapture:
    if isinstance(source, str) and source.isdigit():
        source = int(source)
    return cv2.VideoCapture(source)


class VideoFile:
    """Every frame of a file, in order; ``t`` from the file's frame rate."""

    def __init__(self, path: str) -> None:
        self.capture = open_capture(path)
        if not self.capture.isOpened():
            raise OSError(f"{path}: cannot open this video")
        self.fps = self.capture.get(cv2.CAP_PROP_FPS) or 30.0
        self.frames = int(self.capture.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        self._n = 0

    def read(self) -> Frame | None:
        ok, image = self.capture.read()
        if not ok:
            return None
        frame = Frame(image, self._n / self.fps, self._n)
        self._n += 1
        return frame

    def close(self) -> None:
        self.capture.release()


class LiveCamera:
    """The newest frame of a live source, reconnecting when it drops out."""

    def __init__(self, source: str | int, on_status=None, paced: bool = False, speed: float = 1.0) -> None:
        self.source = source
        self.on_status = on_status
        self.paced = paced  # a recording played as it was filmed, ``speed`` times as fast
        self.speed = speed
        self.ended = False  # a paced recording has played to its end
        self.up: bool | None = None  # not known until the first attempt
        self.dropped = 0
        self.reconnects = 0
        self._latest: Frame | None = None
        self._taken = -1
        self._lock = threading.Condition()
        self._stop = threading.Event()
        self._start = time.monotonic()
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)

    def start(self) -> LiveCamera:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _status(self, up: bool, why: str) -> None:
        """Tell ``on_status`` when the camera goes up or down; ``why`` is a code the console
        words in its language (``rulebook.i18n.ALERTS``: camera_up, camera_stopped …)."""
        if up != self.up:
            self.up = up
            if self.on_status is not None:
                self.on_status(up, why)

    def _run(self) -> None:
        attempt = 0
        n = 0
        opened_before = False
        while not self._stop.is_set():
            capture = open_capture(self.source)
            if not capture.isOpened():
                capture.release()
                self._status(False, "camera_cannot_open")
                self._stop.wait(BACKOFF_S[min(attempt, len(BACKOFF_S) - 1)])
                attempt += 1
                continue
            if opened_before:
                self.reconnects += 1
            opened_before = True
            attempt = 0
            fps = capture.get(cv2.CAP_PROP_FPS) or 30.0
            while not self._stop.is_set():
                ok, image = capture.read()
                if not ok:
                    if self.paced:
                        self.ended = True
                        self._status(False, "recording_ended")
                        self._stop.set()
                        with self._lock:
                            self._lock.notify_all()
                        break
                    self._status(False, "camera_stopped")
                    break
                self._status(True, "camera_up")
                t = time.monotonic() - self._start
                if self.paced:  # frame n is due n / fps after the start, as it was filmed
                    t = n / fps
                    self._stop.wait(max(0.0, self._start + t / self.speed - time.monotonic()))
                with self._lock:
                    if self._latest is not None and self._latest.number > self._taken:
                        self.dropped += 1  # the loop never asked for it: stale now
                    self._latest = Frame(image, t, n)
                    n += 1
                    self._lock.notify_all()
            capture.release()
            self._stop.wait(BACKOFF_S[0])

    def latest(self, timeout: float = 1.0) -> Frame | None:
        """The newest frame not yet taken, waiting up to ``timeout``; ``None`` if none came."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while self._latest is None or self._latest.number <= self._taken:
                left = deadline - time.monotonic()
                if left <= 0 or self._stop.is_set():
                    return None
                self._lock.wait(left)
            self._taken = self._latest.number
            return self._latest
