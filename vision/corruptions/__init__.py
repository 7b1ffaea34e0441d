"""A corruption suite for the live loop: the same hands seen through a worse camera, a worse
network and a busier table (DESIGN §5, Worlds).

Each corruption is a small function of one frame — ``(frame, t, index, severity, seed,
clip)``, a BGR uint8 frame, its time and number in the video, severity 1 to 3, a seed, and
the video's ``Clip`` (frame rate, length, the table's calibration) — that returns a new
frame of the same shape and dtype, the same for the same arguments:

- ``light``: sensor noise, exposure ramps, mains flicker, white balance, vignetting, an
  arm's shadow crossing the table;
- ``optics``: defocus, motion blur, a camera bump, a slow drift;
- ``hand``: a hand resting over a seat's play zone (drawn on the table plane, through the
  markers' homography);
- ``codec``: H.264 at 4, 2 or 1 Mbit/s (x264 through PyAV), frames in and frames out;
- ``frames``: frames dropped (10, 7.5, 5 fps delivered), which frames reach the loop.

``CORRUPTIONS`` names them all with what each severity means; ``corrupt_video`` puts one on a
whole video file. ``benchmarks/corruptions.py`` scans the corrupted videos with the live loop
(docs/vision.md, The corruption suite).
"""

from vision.corruptions.catalogue import CORRUPTIONS, Corruption
from vision.corruptions.common import SEVERITIES, Clip
from vision.corruptions.video import corrupt_video

__all__ = ["CORRUPTIONS", "SEVERITIES", "Clip", "Corruption", "corrupt_video"]
