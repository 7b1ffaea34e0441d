"""Cards read right in seat zones by camera resolution: zones warped plainly, and drawn finer and shrunk.

For each held-out deck the game renderer draws (one per game seed), one camera frame of
rows laid in three zones — six spades and clubs each in South, North and East, hearts,
diamonds and black threes in West, 24 cards — at each resolution asked for. Each zone is
rectified as the live runtime rectifies it and read as the live runtime reads it (the
finder's boxes, the suit reader beside each index, one look); a card counts as read right
when a detection of it at the working confidence is in its zone. Two ways of rectifying:

- *plain*: one warp straight to 10 px/cm (``vision.live.calibration.rectify_zone``);
- *finer*: warped ``fine_scale`` times finer and shrunk by area, where the camera's own
  px/cm at the zone allows (1440p, 4K; a 1080p camera over the whole table gets the plain
  warp either way). A plain warp of a 4K frame takes one camera pixel in four and aliases.

Run: ``.venv/bin/python benchmarks/zones.py [--seeds 102-160] [--sizes 2560x1440 3840x2160]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

if not __package__:  # run as a file: make the project importable
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from benchmarks.machine import describe  # noqa: E402
from vision.live.calibration import Calibration, fine_scale, rectify_zone  # noqa: E402
from vision.live.detector import CardDetector, committed_finder, detect_tiled  # noqa: E402
from vision.live.grouping import own_side  # noqa: E402
from vision.synth.render_game import Renderer, TableState  # noqa: E402

ROWS = {"S": ["C7", "S7", "C5", "S5", "CA", "SA"], "N": ["S2", "C2", "SK", "CK", "S9", "C9"],
        "E": ["C4", "S4", "C8", "S8", "ST", "CT"], "W": ["H3", "D3", "HQ", "DQ", "C3", "S3"]}
CONFIDENCE = 0.25


def seeds_of(text: str) -> list[int]:
    """``102-160`` or ``102,105,107``."""
    if "-" in text:
        first, last = (int(v) for v in text.split("-"))
        return list(range(first, last + 1))
    return [int(v) for v in text.split(",")]


def read_right(detector: CardDetector, frame, fine: bool) -> int:
    """Cards of ``ROWS`` read right in one camera frame."""
    calibration = Calibration.from_image(frame)
    resolution = calibration.zone_resolution()
    right = 0
    for seat, row in ROWS.items():
        zone = rectify_zone(frame, calibration, seat, fine=fine_scale(resolution[seat]) if fine else None)
        read = Counter(d.card for d in own_side(seat, detect_tiled(detector, zone, upright=True))
                       if d.conf >= CONFIDENCE)
        right += sum((read & Counter(row)).values())
    return right


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="102-160", help="game seeds, one held-out deck each (default 102-160)")
    parser.add_argument("--sizes", nargs="+", default=["1920x1080", "2560x1440", "3840x2160"])
    args = parser.parse_args()
    seeds = seeds_of(args.seeds)
    sizes = [tuple(int(v) for v in size.split("x")) for size in args.sizes]
    detector = CardDetector(committed_finder(), boxes=False)  # as the live loop runs it
    cards = sum(len(row) for row in ROWS.values()) * len(seeds)
    started = time.perf_counter()
    print(f"machine: {describe()}")
    print(f"{len(seeds)} decks, {cards} cards per resolution")
    print(f"{'camera':>10} {'plain':>12} {'finer':>12}")
    for width, height in sizes:
        totals = {True: 0, False: 0}
        for seed in seeds:
            renderer = Renderer(seed, (width, height))
            frame = renderer.camera(renderer.view(renderer.table(TableState(rows=dict(ROWS)))))
            for fine in totals:
                totals[fine] += read_right(detector, frame, fine)
        print(f"{width}x{height:<5} {totals[False]:6d} {totals[False] / cards:5.1%} "
              f"{totals[True]:6d} {totals[True] / cards:5.1%}", flush=True)
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
