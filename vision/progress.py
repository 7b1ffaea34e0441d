"""A progress bar for long work, drawn only when the output is a terminal."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(self, label: str, stream: TextIO = sys.stderr) -> None:
        self.label = label
        self.stream = stream
        self.tty = stream.isatty()
        self._start = time.monotonic()
        self._last = 0.0

    def update(self, done: int, total: int) -> None:
        now = time.monotonic()
        if not self.tty or (now - self._last < 0.1 and done < total):
            return
        self._last = now
        width = 30
        filled = int(width * done / max(total, 1))
        rate = done / max(now - self._start, 1e-9)
        left = (total - done) / rate if rate else 0
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total} "
                          f"{rate:5.1f}/s {left:4.0f}s left ")
        self.stream.flush()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()
