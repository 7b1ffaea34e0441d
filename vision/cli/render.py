"""``guandan render-game``: an overhead video of a hand played by the bots, with its truth
(``guandan dataset build``, the detector's training images, is ``vision.synth.cli``)."""

from __future__ import annotations

import argparse
from argparse import Namespace
from pathlib import Path

from vision.cli.inputs import VisionError, folder_for, lang_option
from vision.progress import progress_bar
from vision.synth.art_decks import by_name
from vision.synth.art_faces import ArtError
from vision.synth.render_game import render


def video_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
        if w < 320 or h < 240:
            raise ValueError
    except ValueError:
        raise VisionError("size_form", text=text) from None
    return w, h


def cmd_render_game(args: Namespace) -> None:
    size = video_size(args.size)
    out = Path(args.out)
    folder_for(args.out, "--out")
    bars = []

    def progress(done: int, total: int) -> None:
        if not bars:  # the frame count is known once the hand is played
            bars.append(progress_bar(total, "render", unit="frame"))
        bars[0].update(done - bars[0].n)

    try:
        art = by_name(args.art) if args.art else None
        meta = render(args.seed, out, size=size, hands=args.hands, max_events=args.max_events, profile=args.profile,
                      mistakes=args.illegal, progress=progress, art=art)
    except ArtError as exc:
        raise VisionError("art_unusable", why=exc) from None
    for bar in bars:
        bar.close()
    print(f"{out / 'game.mp4'}: {meta['frames']} frames at {meta['fps']} fps, {size[0]}×{size[1]}; "
          f"truth: {out / 'truth.jsonl'} ({meta['events']} events)")


def add_render_game_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("render-game", help="render an overhead video of a hand played by the bots, with its truth",
                       description="Render a realistic overhead video of a hand (or match) played by simple bots, "
                                   "with the ground-truth record beside it (truth.jsonl).")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", required=True, help="folder for game.mp4, truth.jsonl and meta.json")
    p.add_argument("--size", default="1280x720", help="video size, e.g. 1280x720 or 1920x1080")
    p.add_argument("--hands", type=int, default=1, help="hands to play (default 1)")
    p.add_argument("--max-events", type=int, help="stop after this many record events (a short clip)")
    p.add_argument("--profile", default="jiangsu", help="rule profile (default jiangsu)")
    p.add_argument("--illegal", type=float, default=0.0, metavar="P",
                   help="chance a player lays a single that does not beat the table (an illegal play to alert)")
    p.add_argument("--art", metavar="DECK",
                   help="lay a real deck design from datasets/art-decks.toml (e.g. anglo, paris, tigullio: "
                        "held-out families) instead of the seed's generated deck; it must print jokers")
    lang_option(p)
    p.set_defaults(func=cmd_render_game)
