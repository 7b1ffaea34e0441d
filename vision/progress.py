"""A tiny progress bar (tqdm is not a dependency of this project).

It draws on a terminal only; written to a file or a pipe it stays quiet until the end,
then prints one summary line, so logs do not fill up with carriage returns.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """``with Progress(total, "train") as bar: bar.update(n)``."""

    def __init__(self, total: int, desc: str = "", enabled: bool = True, stream: TextIO | None = None,
                 unit: str = "img", width: int = 28) -> None:
        self.total, self.desc, self.unit, self.width = max(0, int(total)), desc, unit, width
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.live = enabled and hasattr(self.stream, "isatty") and self.stream.isatty()
        self.done = 0
        self.start = time.perf_counter()
        self._last = 0.0
        if self.live:
            self._draw()

    def _line(self) -> str:
        elapsed = time.perf_counter() - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        frac = self.done / self.total if self.total else 1.0
        fill = int(round(frac * self.width))
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        return (f"{self.desc} [{'#' * fill}{'.' * (self.width - fill)}] {self.done}/{self.total} "
                f"{rate:.1f} {self.unit}/s  {elapsed:.0f}s elapsed, {eta:.0f}s left")

    def _draw(self) -> None:
        self.stream.write("\r" + self._line() + "\x1b[K")
        self.stream.flush()

    def update(self, n: int = 1) -> None:
        self.done += n
        now = time.perf_counter()
        if self.live and (now - self._last > 0.1 or self.done >= self.total):
            self._last = now
            self._draw()

    def advance_to(self, done: int) -> None:
        """For callers that count themselves (frames of a video, say)."""
        self.update(done - self.done)

    def close(self) -> None:
        if self.live:
            self._draw()
            self.stream.write("\n")
        elif self.enabled:
            self.stream.write(self._line() + "\n")
        self.stream.flush()
        self.enabled = self.live = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
