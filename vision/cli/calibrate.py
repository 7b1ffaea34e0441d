"""``guandan markers`` and ``guandan calibrate``: the table's markers, printed and then found in
a camera's frame, with the seat zones drawn and the resolution they are seen at."""

from __future__ import annotations

import argparse
from argparse import Namespace
from pathlib import Path

from rulebook.alerts import Alert
from rulebook.i18n import term
from vision.cli.inputs import VisionError, decoded, lang_option, written
from vision.live.calibrate_view import draw_calibration
from vision.live.calibration import GOOD_PX_PER_CM, MIN_PX_PER_CM, Calibration, CalibrationError, camera_for
from vision.live.camera import open_capture
from vision.live.markers import write_sheet


def cmd_markers(args: Namespace) -> None:
    if Path(args.out).suffix.lower() != ".pdf":  # asked here, so the refusal is the operator's words
        raise VisionError("markers_not_pdf", path=args.out)
    try:
        print(write_sheet(args.out))
    except OSError as exc:
        raise VisionError("file_unwritable", path=args.out, why=exc.strerror or exc) from None


def first_frame(source: str):
    """One frame from an image file, a video file, a camera index or a stream URL."""
    image = decoded(source) if not source.isdigit() and "://" not in source else None
    if image is not None:
        return image  # a picture; anything else (a video, say) is opened as a capture below
    capture = open_capture(source)
    ok, frame = capture.read()
    capture.release()
    if not ok:
        raise VisionError("no_first_frame", source=source)
    return frame


def cmd_calibrate(args: Namespace) -> None:
    zh = args.lang == "zh"
    frame = first_frame(args.source)

    def draw(calibration: Calibration | None) -> None:
        if not written(args.out, draw_calibration(frame, calibration)):
            raise VisionError("calibration_unwritten", path=args.out)

    try:
        calibration = Calibration.from_image(frame)
    except CalibrationError as exc:
        draw(None)
        # the markers' trouble worded as the live table words it (rulebook.i18n.ALERTS)
        raise VisionError("calibration_failed", why=Alert.of(exc.code, **exc.values), picture=args.out) from None
    draw(calibration)
    found = ", ".join(map(str, calibration.markers))
    missing = ", ".join(map(str, sorted({0, 1, 2, 3} - set(calibration.markers))))
    error = calibration.error_px
    if zh:
        print(f"找到标记 {found}" + (f"；缺 {missing}" if missing else "") + f"；重投影误差 {error:.2f} 像素；"
              f"标定图：{args.out}")
    else:
        print(f"markers {found} found" + (f"; missing {missing}" if missing else "")
              + f"; reprojection error {error:.2f} px; picture: {args.out}")
    if error > 2.0:
        print("注意：标记之间相差超过2像素：是否平放、按100%打印？" if zh
              else "warning: the markers disagree by more than 2 px: are they flat and printed at 100%?")
    resolution = calibration.zone_resolution()
    if zh:
        print("各出牌区的摄像分辨率（像素/厘米）：" + "，".join(f"{term(seat, 'zh')} {px:.1f}"
                                                  for seat, px in resolution.items()))
    else:
        print("camera resolution at the play zones: "
              + ", ".join(f"{seat} {px:.1f}" for seat, px in resolution.items()) + " px/cm")
    seat = min(resolution, key=resolution.get)
    px = resolution[seat]
    size = camera_for((frame.shape[1], frame.shape[0]), px)
    if size is None:
        print(f"从这个机位，4K摄像头也达不到每个出牌区{GOOD_PX_PER_CM:g}像素/厘米：请把摄像头移近或放大画面" if zh
              else f"from where this camera stands even 4K does not give {GOOD_PX_PER_CM:g} px/cm at every zone: "
                   "bring the camera closer or zoom in")
    else:
        print(f"从这个机位（视野不变），{size[0]}×{size[1]}及以上的摄像头可使每个出牌区达到{GOOD_PX_PER_CM:g}像素/厘米"
              if zh else f"from where this camera stands (same field of view), a camera of {size[0]}×{size[1]} or "
                         f"more gives every zone {GOOD_PX_PER_CM:g} px/cm")
    if px >= GOOD_PX_PER_CM:
        return
    # the advice names the size worked out from this frame's own (a 1080p camera is not told to use 1080p)
    if zh:
        print(f"注意：{term(seat, 'zh')}家出牌区只有{px:.1f}像素/厘米；{GOOD_PX_PER_CM:g}像素/厘米以上才能可靠识牌"
              + (f"，低于{MIN_PX_PER_CM:g}大多会认错" if px < MIN_PX_PER_CM else "")
              + ("：请把摄像头移近或放大画面" if size is None
                 else f"：请把摄像头移近、放大画面，或改用{size[0]}×{size[1]}及以上的摄像头"))
    else:
        under = f" and mostly misread under {MIN_PX_PER_CM:g}" if px < MIN_PX_PER_CM else ""
        print(f"warning: seat {seat}'s zone is seen at {px:.1f} px/cm; cards are read reliably from "
              f"{GOOD_PX_PER_CM:g} px/cm{under}: "
              + ("bring the camera closer or zoom in" if size is None
                 else f"bring the camera closer, zoom in, or use a camera of {size[0]}×{size[1]} or more"))


def add_markers_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("markers", help="print the table markers (A4 PDF, true size at 100%%)",
                       description="Write the four ArUco table markers as an A4 PDF, true size when printed at 100%.")
    p.add_argument("--out", default="markers.pdf", help="PDF file (default markers.pdf)")
    lang_option(p)
    p.set_defaults(func=cmd_markers)


def add_calibrate_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("calibrate", help="find the table markers and show the seat zones",
                       description="Read one frame from SOURCE (image, video, camera index or URL), find the "
                                   "table markers and write a picture with the markers, table edge and seat zones.")
    p.add_argument("source")
    p.add_argument("--out", default="calibration.png", help="picture to write (default calibration.png)")
    lang_option(p)
    p.set_defaults(func=cmd_calibrate)
