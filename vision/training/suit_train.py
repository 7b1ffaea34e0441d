"""Training the suit reader (``vision.live.suit_reader``) on rendered rows of cards, and measuring it.

Its patches are not cut from a dataset on disk: rows of cards are rendered for it in
memory (``vision.synth.scene``, the detector's own scene renderer, JPEG round trip
included) with rows nearly upright, as a rectified seat zone shows them, at the sharpness
a table camera gives a zone. Every corner index at least ``MIN_VISIBLE`` unhidden and
``MIN_SHARP`` sharp px/cm gives a patch, cut as ``suit_patch`` cuts it live, with the box
shifted, scaled and turned a little, as a finder's box and a card laid askew would be. The
jokers have no suit and give none.

``measure`` compares, on the same indices of held-out deck styles, the index reader alone
with the index reader and the suit reader together: what the suit reader is for.

torch is imported inside the functions that use it: heavy to load, and needed only when a
model is trained, quantized or run through it, not for ``guandan --help`` or at a table.
"""

from __future__ import annotations

import math
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, fields
from pathlib import Path

import cv2
import numpy as np

from engine.cards import ALL_CARDS, BIG_JOKER, SMALL_JOKER, SUITS, suit_of
from vision.live.reader import PATCH, IndexReader, patch, to_tensor
from vision.live.suit_fold import with_suits
from vision.live.suit_reader import VIEW, View, suit_patch
from vision.progress import progress_bar
from vision.synth.scene import SceneConfig, render_scene
from vision.synth.style import styles
from vision.training.reader_net import augment, stage
from vision.training.reader_train import export_patch_model

MIN_VISIBLE = 0.8
MIN_SHARP = 4.0
#: rows as a rectified seat zone shows them: nearly upright, 6–16 px/cm, a table camera's sharpness
SCENE = {"px_per_cm": (6.0, 16.0), "upright_prob": 0.9, "upright_deg": 8.0, "camera": {"scale": (0.8, 1.1)}}
STYLE_BLOCK = 4  # scenes in a row that share a deck style


@dataclass
class SuitPatches:
    """Suit patches (N×height×width×3) and their suits (index in ``SUITS``); for measuring,
    also the index reader's patch of the same index, its card (class), corner (0 top-left)
    and the scene's sharp px/cm."""

    images: np.ndarray
    suits: np.ndarray
    reader: np.ndarray
    cards: np.ndarray
    corners: np.ndarray
    sharp: np.ndarray


_FIELDS = tuple(f.name for f in fields(SuitPatches))


def _scene_patches(task: tuple[int, int, int, str, str, int, bool, View]) -> SuitPatches:
    seed, start, stop, split, variety, n_styles, jitter, view = task
    decks = styles(seed, n_styles, split, variety)
    config = SceneConfig.from_dict(SCENE)
    images, suits, reader, cards, corners, sharp = [], [], [], [], [], []
    for index in range(start, stop):
        rng = np.random.default_rng([seed, index])
        block = index // STYLE_BLOCK
        scene = render_scene(rng, [decks[block % n_styles], decks[(block * 7 + 3) % n_styles]], config)
        if scene.sharp_px_per_cm < MIN_SHARP:
            continue
        jpeg = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(80, 96))])[1]
        image = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
        for label in scene.labels:
            card = ALL_CARDS[label.cls]
            if label.visible < MIN_VISIBLE or card in (SMALL_JOKER, BIG_JOKER):
                continue
            if jitter:
                shift, scale = tuple(rng.normal(0, 0.05, 2)), float(rng.uniform(0.85, 1.2))
                images.append(suit_patch(image, label.box, view, float(rng.normal(0, 3)), shift, scale))
            else:
                images.append(suit_patch(image, label.box, view))
                reader.append(patch(image, label.box))
            suits.append(SUITS.index(suit_of(card)))
            cards.append(label.cls)
            corners.append(label.corner)
            sharp.append(scene.sharp_px_per_cm)
    empty = np.zeros((0, view.height, view.width, 3), np.uint8)
    return SuitPatches(np.stack(images) if images else empty, np.array(suits, np.int64),
                       np.stack(reader) if reader else np.zeros((0, PATCH, PATCH, 3), np.uint8),
                       np.array(cards, np.int64), np.array(corners, np.int64), np.array(sharp, np.float32))


def render_patches(scenes: int, *, seed: int, split: str = "train", variety: str = "wide", n_styles: int = 3000,
                   jitter: bool = True, workers: int = 2, progress: bool = True, view: View = VIEW) -> SuitPatches:
    """Patches of ``view`` from ``scenes`` rendered scenes of ``n_styles`` deck styles of
    ``split`` (``train`` or ``heldout``), deterministic from ``seed``; ``jitter`` off cuts
    each index exactly and keeps the index reader's patches too (for ``measure``)."""
    chunk = 50
    tasks = [(seed, a, min(a + chunk, scenes), split, variety, n_styles, jitter, view)
             for a in range(0, scenes, chunk)]
    parts: list[SuitPatches] = []
    with progress_bar(scenes, f"rendering {split} rows for the suit reader", unit="scene", enabled=progress) as bar:
        if workers > 1:
            with ProcessPoolExecutor(workers) as pool:
                for (_s, a, b, *_), part in zip(tasks, pool.map(_scene_patches, tasks), strict=True):
                    parts.append(part)
                    bar.update(b - a)
        else:
            for task in tasks:
                parts.append(_scene_patches(task))
                bar.update(task[2] - task[1])
    return SuitPatches(*(np.concatenate([getattr(p, f) for p in parts]) for f in _FIELDS))


def save(data: SuitPatches, path: Path) -> None:
    np.savez(path, **{f: getattr(data, f) for f in _FIELDS})


def load(path: Path) -> SuitPatches:
    with np.load(path) as z:
        return SuitPatches(*(z[f] for f in _FIELDS))


def build_net(view: View = VIEW):
    """Suit patch of ``view`` → 4 suit logits. The last stage is flattened, not averaged:
    *where* a pip lies (beside this card's index, not the next card's) is the point."""
    import torch.nn as nn

    return nn.Sequential(*stage(3, 16), nn.MaxPool2d(2), *stage(16, 32), nn.MaxPool2d(2),
                         *stage(32, 48), nn.MaxPool2d(2), *stage(48, 64), nn.Flatten(),
                         nn.Dropout(0.3), nn.Linear(64 * (view.height // 8) * (view.width // 8), len(SUITS)))


def predict(net, images: np.ndarray, batch: int = 1024) -> np.ndarray:
    """N×4 suit probabilities from the network in training (PyTorch)."""
    import torch

    net.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(images), batch):
            out.append(torch.softmax(net(torch.from_numpy(to_tensor(images[i:i + batch]))), 1).numpy())
    return np.concatenate(out) if out else np.zeros((0, len(SUITS)), np.float32)


def train(train_set: SuitPatches, val: SuitPatches, out: Path, *, epochs: int = 6, batch: int = 256,
          lr: float = 3e-3, seed: int = 0, start: Path | None = None, log=print, view: View = VIEW) -> dict:
    """Train (on from ``start``'s weights if given), keep the best epoch by validation accuracy
    (weights written as ``.pt`` beside ``out`` after each better epoch), export ``out`` (ONNX,
    saying its ``view``: the patches must have been cut with it)."""
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = build_net(view)
    if start is not None:
        net.load_state_dict(torch.load(start, map_location="cpu", weights_only=True))
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    steps = epochs * math.ceil(len(train_set.suits) / batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    best, history, started = -1.0, [], time.perf_counter()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    for epoch in range(1, epochs + 1):
        net.train()
        order = rng.permutation(len(train_set.suits))
        total = 0.0
        with progress_bar(len(order), f"suit reader epoch {epoch}/{epochs}", unit="patch") as bar:
            for i in range(0, len(order), batch):
                idx = order[i:i + batch]
                x = augment(torch.from_numpy(to_tensor(train_set.images[idx])), rng)
                loss = loss_fn(net(x), torch.from_numpy(train_set.suits[idx]))
                opt.zero_grad()
                loss.backward()
                opt.step()
                sched.step()
                total += loss.item() * len(idx)
                bar.update(len(idx))
        acc = float((predict(net, val.images).argmax(1) == val.suits).mean())
        history.append({"epoch": epoch, "loss": total / len(order), "val_accuracy": acc})
        log(f"epoch {epoch}: loss {total / len(order):.4f}, val suit accuracy {acc:.2%}")
        if acc > best:
            best = acc
            torch.save(net.state_dict(), out.with_suffix(".pt"))
    net.load_state_dict(torch.load(out.with_suffix(".pt"), map_location="cpu", weights_only=True))
    export_onnx(net, out, view)
    return {"best_val_accuracy": best, "reach": list(view.reach), "size": [view.width, view.height],
            "epochs": history, "seconds": time.perf_counter() - started,
            "train_patches": len(train_set.suits), "val_patches": len(val.suits)}


def export_onnx(net, out: Path, view: View = VIEW) -> Path:
    """Write the network as ONNX with a variable batch size and its view's reach as metadata."""
    reach = " ".join(repr(float(v)) for v in view.reach)
    return export_patch_model(net, out, (view.height, view.width), {"reach": reach})


def measure(data: SuitPatches, reader: IndexReader, suits: np.ndarray) -> dict[str, dict[str, float]]:
    """Cards read right by the index reader alone and with the suit reader's ``suits`` (N×4
    for ``data``), and the suit reader's own suit accuracy, for top-left indices (the ones
    with pips beside them) and the others, at ≥ 8 sharp px/cm and at any sharpness."""
    probs = np.concatenate([reader.probabilities(data.reader[i:i + 512]) for i in range(0, len(data.reader), 512)])
    alone = probs.argmax(1) == data.cards
    both = with_suits(probs, suits).argmax(1) == data.cards
    own = suits.argmax(1) == data.suits
    out = {}
    for name, keep in (("top-left, legible", (data.corners == 0) & (data.sharp >= 8)),
                       ("top-left, all", data.corners == 0),
                       ("other corners, legible", (data.corners != 0) & (data.sharp >= 8)),
                       ("other corners, all", data.corners != 0)):
        n = int(keep.sum())
        out[name] = {"indices": n, "index reader": float(alone[keep].mean()) if n else 0.0,
                     "with suit reader": float(both[keep].mean()) if n else 0.0,
                     "suit alone": float(own[keep].mean()) if n else 0.0}
    return out
