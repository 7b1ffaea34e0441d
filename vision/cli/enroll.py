"""``guandan enroll``: show the table camera the event's deck once, and it learns it.

The deck's 54 cards lie face up in the enrollment layout (``vision.enroll.layout``; a guide
with a picture in ``docs/vision.md``); from one or more pictures or videos of it the cards are
found, named by their places, checked, and the index reader (``vision.enroll.adapt``) and the
index finder (``vision.enroll.finder``) are taught this deck. The deck folder it writes is
given to ``scan``, ``run``, ``detect``, ``eval-detector`` and ``demo`` as ``--deck DIR``.
"""

from __future__ import annotations

import argparse
import time
from argparse import Namespace
from pathlib import Path

import cv2

from rulebook.alerts import Alert
from rulebook.i18n import ALERTS, EnrollProblem, enroll_text, say
from vision.cli.extras import needs_training
from vision.cli.inputs import VisionError, default_weights, lang_option, written
from vision.enroll import deck as deck_folder
from vision.enroll.adapt import ROWS
from vision.enroll.finder import SCENES
from vision.enroll.guide import guide_picture
from vision.enroll.pictures import EnrollError, LayoutPicture, frames_of, read_layout
from vision.live.detector import MODELS, CardDetector, DetectorError

#: what a deck's reader goes on training from: the committed reader and its weights; and its
#: finder (``--scenes``): the committed finder's weights. A checkout has them; the wheel, which
#: carries only what a table reads with (``setup.py``), has not.
READER_FROM = ("reader.onnx", "reader.pt")
FINDER_FROM = ("finder.pt",)


def _problem(args: Namespace, source: str, exc: EnrollError) -> VisionError:
    """The one line the operator reads, with the picture that marks the problem written
    beside the deck folder."""
    values = dict(exc.values)
    if exc.picture is not None:
        picture = Path(args.out).with_name(Path(args.out).name + "-problem.png")
        cv2.imwrite(str(picture), exc.picture)
        values["picture"] = picture
    if exc.code in ALERTS:  # the markers: worded as the live table words them
        return VisionError("enroll_markers", source=source, why=Alert.of(exc.code, **values))
    values.setdefault("source", source)
    return VisionError("enroll_picture", why=EnrollProblem.of(exc.code, **values))


def cmd_enroll(args: Namespace) -> None:
    if args.guide:
        if not written(args.guide, guide_picture()):
            raise VisionError("guide_unwritten", path=args.guide)
        print(args.guide)
        return
    if not args.sources or not args.out:
        raise VisionError("enroll_what")
    started = time.perf_counter()
    if args.rows < 1:
        raise VisionError("rows_least")
    if args.scenes < 0:
        raise VisionError("scenes_negative")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise VisionError("not_folder", path=out)
    if out.exists() and any(out.iterdir()) and not args.force:
        raise VisionError("enroll_exists", path=out)
    # the reader is trained in torch; the finder (--scenes) through ultralytics, exported in 8 bits
    needs_training("enroll", "torch", *(("ultralytics", "onnxslim", "nncf") if args.scenes else ()))
    for name in READER_FROM + (FINDER_FROM if args.scenes else ()):
        if not (MODELS / name).exists():
            raise VisionError("enroll_from_checkout", path=MODELS / name)
    try:
        detector = CardDetector(default_weights(), boxes=False)
    except DetectorError as exc:
        raise VisionError("model_unusable", why=exc) from None
    layouts: list[LayoutPicture] = []
    for source in args.sources:
        print(say(args.lang, f"# 读取 {source} …", f"# reading {source} …"), flush=True)
        try:
            layouts.append(read_layout(source, frames_of(Path(source)), detector))
        except EnrollError as exc:
            raise _problem(args, source, exc) from None
        for card in layouts[-1].doubts:
            print("! " + enroll_text("enroll_doubt", args.lang, place=card.place, expected=card.name,
                                     card=card.reading[0], confidence=card.reading[1]), flush=True)
    first = layouts[0]
    print(say(args.lang, f"# 54张牌已找到并按位置命名；摄像分辨率约{first.camera_px_per_cm:.1f}像素/厘米",
               f"# the 54 cards found and named by their places; the camera gives about "
               f"{first.camera_px_per_cm:.1f} px/cm"), flush=True)
    if args.scenes:
        print(say(args.lang, "# 用这副牌训练识牌模型和找牌模型（双核约3分钟，机器另有任务时更久）…",
                   "# teaching the index reader and the index finder this deck (about 3 minutes on two cores, "
                   "longer with other work beside it) …"),
              flush=True)
    else:
        print(say(args.lang, "# 用这副牌训练识牌模型（约1分钟）…",
                   "# teaching the index reader this deck (about a minute) …"), flush=True)
    try:
        deck_folder.enroll(out, layouts, detector, args.rows, scenes=args.scenes,
                           log=lambda line: print(line, flush=True))
    except OSError as exc:
        raise VisionError("file_unwritable", path=out, why=exc.strerror or exc) from None
    took = time.perf_counter() - started
    print(say(args.lang,
               f"{out}：已学会这副牌（{took / 60:.1f}分钟）；请查看对照表 {out / deck_folder.SHEET}，"
               f"然后在 scan、run、detect、demo 中加 --deck {out}",
               f"{out}: the deck is learnt ({took / 60:.1f} min); check the contact sheet "
               f"{out / deck_folder.SHEET}, then give --deck {out} to scan, run, detect or demo"))


def add_enroll_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("enroll", help="learn the event's deck from pictures of it laid out (--deck DIR)",
                       description="Learn a deck from the table camera's pictures of it laid out: the 54 cards "
                                   "face up, not overlapping (gaps of 5 mm or more), 6 rows of 9, in reading "
                                   "order as South sees them (the row nearest North first, each from West to "
                                   "East): S2 … SA, H2 … HA, C2 … CA, D2 … DA, then the small and the big joker; "
                                   "each card upright for South, all inside the four markers (docs/vision.md). "
                                   "Writes a deck folder for --deck: the index reader and finder taught this deck, "
                                   "each card as seen, and a contact sheet to check. About 3 minutes on two "
                                   "cores (--scenes 0: the reader alone, about a minute).")
    p.add_argument("sources", nargs="*", metavar="IMAGE_OR_VIDEO",
                   help="pictures or videos of the layout from a camera that sees the four markers (more than "
                        "one: the deck learnt from each, under its light)")
    p.add_argument("--out", metavar="DIR", help="the deck folder to write")
    p.add_argument("--guide", metavar="FILE", help="write the layout as a printable guide (PNG) and stop")
    p.add_argument("--force", action="store_true", help="replace a deck folder that exists already")
    lang_option(p)
    p.add_argument("--rows", type=int, default=ROWS,
                   help=f"rows of cards drawn per picture for the reader's training patches (default {ROWS})")
    p.add_argument("--scenes", type=int, default=SCENES,
                   help=f"table scenes of this deck drawn to teach the index finder (default {SCENES}; 0 keeps "
                        "the finder every deck shares: faster, more plays missed)")
    p.set_defaults(func=cmd_enroll)
