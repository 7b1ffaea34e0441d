"""Frames dropped: the camera (or the network, or a node too slow for it) delivers only some
of the frames, at their own moments, so the video's timing stays and the loop sees fewer
frames a second. The pixels are not touched; which frames reach the loop changes.
"""

from __future__ import annotations

from vision.corruptions.common import level

#: frames delivered a second, by severity
DELIVERED_FPS = (10.0, 7.5, 5.0)


def drop_every(fps: float, severity: int) -> int:
    """Of every so many frames one is delivered: 3, 4 or 6 of a 30 fps video (10, 7.5, 5 fps)."""
    return max(1, round(fps / level(severity, DELIVERED_FPS)))


def kept(index: int, fps: float, severity: int) -> bool:
    """Whether frame ``index`` is delivered (the first always is)."""
    return index % drop_every(fps, severity) == 0
