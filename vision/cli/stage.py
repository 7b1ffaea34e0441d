"""``guandan render-stage``: a hand played by the bots, staged on the second world's 3D table
(``vision.stage``) and filmed, with its truth — footage from a world the live loop was not
tuned in (``docs/stage.md``); and with ``--layout``, the same table's deck laid out for
``guandan enroll``, as its camera sees it."""

from __future__ import annotations

import argparse
from argparse import Namespace
from pathlib import Path

import cv2

from vision.cli.extras import needs_training
from vision.cli.inputs import VisionError, folder_for, lang_option, written
from vision.cli.render import video_size
from vision.progress import progress_bar

SIZES = ("1920x1080", "3840x2160", "1280x720")
FPS = (30, 25, 15)


def _chance(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise VisionError("not_a_number", text=text) from None
    if not 0 <= value <= 1:
        raise VisionError("chance_range", text=text)
    return value


def _layout_file(path: str) -> None:
    """Refuse, before anything is drawn, a ``--layout`` file OpenCV has no writer for (by
    its extension) or that names a folder; make the folder it goes into."""
    if Path(path).is_dir() or not cv2.haveImageWriter(path):
        raise VisionError("layout_unwritten", path=path)
    folder_for(str(Path(path).parent), "--layout")


def cmd_render_stage(args: Namespace) -> None:
    if not args.out and not args.layout:
        raise VisionError("stage_what")
    size = video_size(args.size)
    mistakes = _chance(args.mistakes)
    if args.fps not in FPS:
        raise VisionError("stage_fps", fps=args.fps)
    if args.max_events is not None and args.max_events < 3:
        raise VisionError("max_events_least", given=args.max_events)
    if args.layout:
        _layout_file(args.layout)
    if args.out:
        folder_for(args.out, "--out")
    needs_training("render-stage", "moderngl")
    # lazy: OpenGL and the stage load only when a picture is drawn (keeps guandan --help fast)
    from vision.stage.faces import DeckError, faces

    if args.deck:
        try:
            faces(args.deck)  # a design that cannot be laid is said before anything is drawn
        except DeckError as exc:
            raise VisionError("art_unusable", why=exc) from None
    if args.layout:
        _write_layout(args.layout, args.seed, size, args.deck)
    if args.out:
        _render_hand(args, size, mistakes)


def _write_layout(path: str, seed: int, size: tuple[int, int], deck: str | None) -> None:
    """The seed's table with its deck laid out for enrollment, written to ``path``."""
    from vision.stage.faces import choose_deck
    from vision.stage.layout_picture import layout_picture
    from vision.stage.renderer import StageError

    deck = deck or choose_deck(seed)
    try:
        picture = layout_picture(seed, size=size, deck=deck)
    except StageError as exc:
        raise VisionError("no_opengl", why=exc) from None
    if not written(path, picture):
        raise VisionError("layout_unwritten", path=path)
    print(f"{path}: game {seed}'s table, {size[0]}×{size[1]}, the {deck} deck laid out for enrollment "
          "(guandan enroll)")


def _render_hand(args: Namespace, size: tuple[int, int], mistakes: float) -> None:
    """The seed's hand staged and filmed into ``--out``."""
    from vision.stage.renderer import StageError
    from vision.stage.world import render

    bars = []

    def progress(done: int, total: int) -> None:
        if not bars:  # the frame count is known once the hand is staged
            bars.append(progress_bar(total, "render-stage", unit="frame"))
        bars[0].update(done - bars[0].n)

    out = Path(args.out)
    try:
        meta = render(args.seed, out, size=size, deck=args.deck, fps=args.fps, mistakes=mistakes,
                      max_events=args.max_events, progress=progress)
    except StageError as exc:
        raise VisionError("no_opengl", why=exc) from None
    except OSError as exc:
        raise VisionError("file_unwritable", path=out / "game.mp4", why=exc.strerror or exc) from None
    finally:
        for bar in bars:
            bar.close()
    print(f"{out / 'game.mp4'}: {meta['frames']} frames at {meta['fps']} fps, {size[0]}×{size[1]}, "
          f"{meta['style']}; truth: {out / 'truth.jsonl'} ({meta['events']} events)")


def add_render_stage_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("render-stage", help="render a hand played by the bots on the second world's 3D table",
                       description="Stage the first hand of a match played by the bots on a 3D table (OpenGL, "
                                   "headless) and film it with a simulated camera: game.mp4, the re-timed record "
                                   "truth.jsonl and meta.json, as benchmarks/table.py --world stage reads them. "
                                   "A world written apart from render-game's, to measure the live loop in. "
                                   "With --layout, a picture of the same table with its deck laid out for "
                                   "enrollment (学牌), as guandan enroll reads one.")
    p.add_argument("--seed", type=int, default=1, help="the game: its deal, table, camera, light and gestures")
    p.add_argument("--out", metavar="DIR", help="folder for game.mp4, truth.jsonl and meta.json")
    p.add_argument("--layout", metavar="FILE",
                   help="write the seed's table with its deck's 54 cards laid out for enrollment (摆牌图, 6 rows "
                        "of 9 as guandan enroll asks), seen by the same camera, to this picture (.png or .jpg)")
    p.add_argument("--size", default="1920x1080", metavar="WxH",
                   help=f"frame size of the video and the --layout picture ({', '.join(SIZES)}; "
                        "default 1920x1080)")
    p.add_argument("--deck", metavar="NAME",
                   help="a deck design of datasets/art-decks.toml (default: a held-out one chosen by the seed: "
                        "anglo, paris, tigullio, ...), or 'printed' for faces drawn from a font")
    p.add_argument("--fps", type=int, default=30, help="frames per second: 30, 25 or 15 (default 30)")
    p.add_argument("--mistakes", default="0", metavar="P",
                   help="chance a player lays a single that does not beat the table (an illegal play to alert)")
    p.add_argument("--max-events", type=int, metavar="N", help="stop after this many record events (a short clip)")
    lang_option(p)
    p.set_defaults(func=cmd_render_stage)
