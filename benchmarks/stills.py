"""Each play of a rendered game read from one still frame: the detector's share of the misses.

``benchmarks/table.py`` says which plays the live loop missed; this says which of them the
detector itself cannot read. For every play of the truth, the frame just before the next
event (the cards lie still, nobody has swept them yet) is read as the live loop reads a still
zone — the seat's zone rectified, the finder and reader over it (``detect_tiled``), the
indices on the seat's own side, grouped into cards — and the play's cards are looked for among
what the zone holds. A play whose still zone holds its cards and that the loop still missed is
the loop's to explain (``guandan scan --trace``); one whose still zone does not is the
detector's. ``--pictures DIR`` writes each zone that misses its play.

Run: ``.venv/bin/python benchmarks/stills.py GAME_DIR [GAME_DIR ...]`` on the
folders ``benchmarks/table.py --videos`` keeps (``game.mp4``, ``truth.jsonl``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import cv2

if not __package__:  # run as a file: make the project importable
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from scorer.live_table import table_detector  # noqa: E402
from vision.live.calibration import Calibration, rectify_zone  # noqa: E402
from vision.live.detector import CardDetector, detect_tiled  # noqa: E402
from vision.live.grouping import group_cards, own_side  # noqa: E402
from vision.live.seat_reading import LOOK_FLOOR  # noqa: E402

#: how long before the next event the still frame is taken (s), and how soon after its own at least
BEFORE_NEXT_S, AFTER_OWN_S = 0.25, 0.3


@dataclass(frozen=True)
class StillPlay:
    """One play of the truth and what its seat's still zone held."""

    seq: int
    seat: str
    t: float
    cards: tuple[str, ...]
    read: tuple[str, ...]

    @property
    def missing(self) -> tuple[str, ...]:
        return tuple((Counter(self.cards) - Counter(self.read)).elements())


def still_plays(folder: Path, detector: CardDetector) -> list[StillPlay]:
    """Every play of the game in ``folder``, each with the cards its still zone reads."""
    truth = [json.loads(line) for line in (folder / "truth.jsonl").read_text(encoding="utf-8").splitlines()]
    video = cv2.VideoCapture(str(folder / "game.mp4"))
    fps = video.get(cv2.CAP_PROP_FPS) or 30.0

    def frame_at(t: float):
        video.set(cv2.CAP_PROP_POS_FRAMES, int(round(t * fps)))
        ok, image = video.read()
        return image if ok else None

    calibration = Calibration.from_image(frame_at(0.2))
    out = []
    for i, event in enumerate(truth):
        if event.get("type") != "play":
            continue
        later = [e["t"] for e in truth[i + 1:] if e.get("t", 0.0) > event["t"]]
        t = max(event["t"] + AFTER_OWN_S, (later[0] if later else event["t"] + 2.0) - BEFORE_NEXT_S)
        image = frame_at(t)
        read: tuple[str, ...] = ()
        if image is not None:
            zone = rectify_zone(image, calibration, event["seat"])
            read = group_cards(own_side(event["seat"], detect_tiled(detector, zone, conf=LOOK_FLOOR,
                                                                     upright=True))).cards
        out.append(StillPlay(event["seq"], event["seat"], event["t"], tuple(event["cards"]), read))
    video.release()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="+", type=Path, metavar="GAME_DIR")
    args = parser.parse_args()
    detector = table_detector()
    held = total = 0
    for folder in args.games:
        plays = still_plays(folder, detector)
        for play in plays:
            mark = "held" if not play.missing else "MISS"
            print(f"{folder.name} {play.seq:3d} {play.seat} t={play.t:6.1f} {mark} {' '.join(play.cards):22} "
                  f"still read {' '.join(play.read) or 'nothing'}")
        held += sum(not p.missing for p in plays)
        total += len(plays)
    print(f"plays whose still zone holds their cards: {held} of {total}")


if __name__ == "__main__":
    main()
