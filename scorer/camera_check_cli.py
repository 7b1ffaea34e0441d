"""``guandan camera-check``: before play starts at a table, each seat lays a known row and the
camera must read all four (``vision.live.camera_check``). Prints what to lay, watches the
camera (or a recording of the check), then says per seat read or not, with the zone's
picture and what to change. Exit status 0 when every row was read right, 1 when not: the
acceptance test at each table of a hall, scriptable."""

from __future__ import annotations

import argparse
import json
import sys
import time
from argparse import Namespace
from pathlib import Path

import cv2

from rulebook.check_words import advice, card_words, line
from rulebook.i18n import LANGS, alert_text
from scorer.live_table import table_detector
from scorer.table_cli import VIDEO_SUFFIXES
from vision.cli import VisionError
from vision.cli.detect import DECK_HELP
from vision.cli.inputs import folder_for
from vision.enroll.deck import DeckError
from vision.live.calibration import GOOD_PX_PER_CM
from vision.live.camera import LiveCamera, VideoFile
from vision.live.camera_check import ROWS, CameraCheck, SeatCheck
from vision.live.detector import DetectorError


def cmd_camera_check(args: Namespace) -> None:
    lang = args.lang
    recording = args.source.lower().endswith(VIDEO_SUFFIXES)
    if recording and not Path(args.source).exists():
        raise VisionError("no_video", path=args.source)
    folder_for(args.out, "--out")
    try:
        detector = table_detector(deck=args.deck)
    except DeckError as exc:
        raise VisionError(exc.code, **exc.values) from None
    except DetectorError as exc:
        raise VisionError("model_unusable", why=exc) from None
    print(line("lay", lang))
    for seat in "ESWN":
        print(line("row", lang, seat=seat, cards=" ".join(card_words(c, lang) for c in ROWS[seat])))
    print(line("watching", lang, seconds=args.seconds), file=sys.stderr, flush=True)
    check = CameraCheck(detector, tell=lambda alert: print(f"! {alert.text(lang)}", file=sys.stderr, flush=True))
    check.seats.warm_up()
    if recording:
        _watch_recording(check, args.source, args.seconds)
    else:
        _watch_camera(check, args.source, args.seconds, lang)
    check.finish()
    failed = _report(check, Path(args.out), lang)
    print(line("failed", lang, n=failed) if failed else line("passed", lang))
    sys.exit(1 if failed else 0)


def _watch_recording(check: CameraCheck, path: str, seconds: float) -> None:
    try:
        video = VideoFile(path)
    except OSError:
        raise VisionError("video_unreadable", path=path) from None
    while not check.done and (frame := video.read()) is not None and frame.t <= seconds:
        check.see(frame)
    video.close()


def _watch_camera(check: CameraCheck, source: str, seconds: float, lang: str) -> None:
    camera = LiveCamera(source, on_status=lambda up, why: print(f"# {alert_text(why, lang)}", file=sys.stderr))
    camera.start()
    ends = time.monotonic() + seconds
    try:
        while not check.done and time.monotonic() < ends:
            frame = camera.latest(timeout=0.5)
            if frame is not None:
                check.see(frame)
    finally:
        camera.stop()


def _report(check: CameraCheck, out: Path, lang: str) -> int:
    """Each seat's verdict and advice printed, its picture and ``report.json`` written in
    ``out``; returns how many seats were not read right."""
    report = {}
    for seat in "ESWN":
        result = check.checks[seat]
        cards = " ".join(result.expected)
        if result.passed:
            print(line("right", lang, seat=seat, cards=cards, confidence=result.confidence))
        elif result.right:
            print(line("right_but", lang, seat=seat, cards=cards, confidence=result.confidence))
        elif result.read:
            print(line("wrong", lang, seat=seat, read=" ".join(result.read), cards=cards))
        else:
            print(line("unread", lang, seat=seat, cards=cards))
        codes = result.advice()
        for code in codes:
            print(advice(code, lang, good=GOOD_PX_PER_CM, **result.measures))
        picture = _picture(result, out)
        if picture is not None:
            print(line("picture", lang, path=picture))
        report[seat] = {"expected": list(result.expected), "read": list(result.read or ()), "right": result.right,
                        "passed": result.passed,
                        "confidence": round(result.confidence, 3), "advice": codes,
                        "measures": {k: round(v, 3) for k, v in result.measures.items()},
                        "picture": picture and Path(picture).name}
    (out / "report.json").write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    return sum(not r["passed"] for r in report.values())


def _picture(result: SeatCheck, out: Path) -> str | None:
    if result.picture is None:
        return None
    path = out / f"check-{result.seat}.jpg"
    return str(path) if cv2.imwrite(str(path), result.picture) else None


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("camera-check", help="the camera's acceptance test: each seat lays a known row, read or not",
                       description="Print the short row each seat lays in its play zone, watch the camera (or a "
                                   "recording of the check), and say per seat whether the row was read right, "
                                   "with the zone's picture and what to change (light, height, resolution). Exit "
                                   "status 0 when all four rows were read right, 1 when not.")
    p.add_argument("source", help="camera index, stream URL, or a video file of the check")
    p.add_argument("--seconds", type=float, default=120.0, help="how long to watch at most (default 120)")
    p.add_argument("--out", default="camera-check", help="folder for the zones' pictures and report.json "
                                                          "(default camera-check)")
    p.add_argument("--deck", metavar="DIR", help=DECK_HELP)
    p.add_argument("--lang", choices=LANGS, default="zh", help="language of the messages (default zh)")
    p.set_defaults(func=cmd_camera_check)
