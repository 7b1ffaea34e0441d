"""A staged hand rendered to a folder as ``benchmarks/table.py`` reads one: ``game.mp4``
(mp4v), ``truth.jsonl`` (the bots' record re-timed to the video, ``engine.record``'s
format) and ``meta.json``.

The hand is the first of a match the engine's bots play (``engine.bots.self_play``) under
the Jiangsu rule book; the deal is not shown (the table starts clear) and no tribute is
paid before a first hand. Everything random comes from the seed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from engine.bots import self_play
from engine.record import dumps
from rulebook import profiles
from vision.stage.body import arm_solids
from vision.stage.choreography import Script, first_hand, stage
from vision.stage.faces import choose_deck, faces
from vision.stage.frame import Frame, card_instance
from vision.stage.printer import back
from vision.stage.setting import Setting, random_setting

FPS_CHOICES = (30, 25, 15)
SIZES = ((1920, 1080), (3840, 2160), (1280, 720))


def card_pictures(deck: str, rng: random.Random) -> list[np.ndarray]:
    """The deck's 54 faces, then two backs (the two decks of a game, sometimes alike)."""
    colours = [(rng.randrange(20, 200), rng.randrange(20, 160), rng.randrange(20, 200)) for _ in range(2)]
    patterns = [rng.randrange(3) for _ in range(2)]
    if rng.random() < 0.4:
        colours[1], patterns[1] = colours[0], patterns[0]
    return faces(deck) + [back(c, p) for c, p in zip(colours, patterns, strict=True)]


class Composer:
    """The script's frame at a time: each visible card's and arm's instance rows; a card
    that has not moved keeps its row."""

    def __init__(self, script: Script, setting: Setting) -> None:
        self.script, self.setting = script, setting
        self.rows: dict[int, tuple[tuple, np.ndarray]] = {}

    def frame(self, t: float, number: int) -> Frame:
        rows = []
        for i, card in enumerate(self.script.cards):
            if not card.track.visible(t):
                continue
            pose = card.track.at(t)
            kept = self.rows.get(i)
            if kept is None or kept[0] != pose:
                kept = (pose, card_instance(*pose, card.bend, card.face, card.back, card.gloss, card.shininess))
                self.rows[i] = kept
            rows.append(kept[1])
        solids: dict[str, list[np.ndarray]] = {}
        for arm in self.script.arms:
            if arm.track.visible(t):
                for kind, parts in arm_solids(arm, t).items():
                    solids.setdefault(kind, []).extend(parts)
        cards = np.stack(rows) if rows else np.zeros((0, 24), np.float32)
        return Frame(cards=cards, solids={k: np.stack(v) for k, v in solids.items()},
                     look=self.setting.look(t, number))


def render(seed: int, out: Path, size: tuple[int, int] = (1920, 1080), deck: str | None = None, fps: int = 30,
           mistakes: float = 0.0, max_events: int | None = None,
           progress: Callable[[int, int], None] | None = None, distortion: bool = True, noise: bool = True) -> dict:
    """Stage and render game ``seed`` into ``out``; returns its meta (also ``meta.json``)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    profile = profiles.load("jiangsu")
    events = first_hand(self_play(profile, random.Random(seed), max_hands=1, table=f"stage-{seed}",
                                  mistakes=mistakes), max_events)
    rng = random.Random(f"stage-{seed}")
    deck = deck or choose_deck(seed)
    setting = random_setting(seed, size, distortion, noise)
    pictures = card_pictures(deck, rng)
    script = stage(events, profile, rng, fps)
    frames = int(np.ceil(script.duration * fps))
    renderer = setting.renderer(pictures)
    composer = Composer(script, setting)
    writer = cv2.VideoWriter(str(out / "game.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), fps, size)
    if not writer.isOpened():
        renderer.release()
        raise OSError(f"{out / 'game.mp4'}: OpenCV cannot write an mp4v video here")
    try:
        with ThreadPoolExecutor(1) as encoder:  # the codec works while the next frame is drawn
            pending = None
            for number in range(frames):
                image = renderer.draw(composer.frame(number / fps, number))
                if pending is not None:
                    pending.result()
                pending = encoder.submit(writer.write, image)
                if progress:
                    progress(number + 1, frames)
            if pending is not None:
                pending.result()
    finally:
        writer.release()
        renderer.release()
    (out / "truth.jsonl").write_text(dumps(script.events), encoding="utf-8")
    meta = {"seed": seed, "size": list(size), "fps": fps, "frames": frames, "style": f"stage: {deck}, {setting.style}",
            "world": "stage", "deck": deck, "events": len(script.events), "mistakes": mistakes,
            "arrivals": script.arrivals, "camera": camera_meta(setting)}
    (out / "meta.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return meta


def camera_meta(setting: Setting) -> dict:
    """The camera as numbers, for whoever checks a calibration against it."""
    cam = setting.camera
    return {"centre_cm": [round(float(v), 2) for v in cam.centre], "focal_px": round(cam.focal, 2),
            "principal_px": [round(cam.cx, 2), round(cam.cy, 2)], "k1": round(cam.k1, 5), "k2": round(cam.k2, 5),
            "rotation": [[round(float(v), 6) for v in row] for row in cam.rotation]}
