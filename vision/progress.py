"""Progress bars on stderr, drawn by tqdm, quiet in logs.

On a terminal a bar is redrawn as the work goes on. Written to a file or a pipe (a training
log, a lent machine's captured output) it is drawn only as it starts and as it ends, so a log
does not fill with carriage returns: tqdm alone redraws there ten times a second too.
"""

from __future__ import annotations

import math
import sys

from tqdm import tqdm


def progress_bar(total: int | None, desc: str, *, unit: str = "img", enabled: bool = True) -> tqdm:
    """``with progress_bar(len(images), "evaluating") as bar: bar.update(1)``; nothing at all
    unless ``enabled``. A ``total`` of None: a count with no end known (no percentage)."""
    live = sys.stderr.isatty()
    return tqdm(total=total, desc=desc, unit=unit, disable=not enabled, mininterval=0.1 if live else math.inf)

