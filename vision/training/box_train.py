"""Training the box refiner (``vision.live.box_refiner``) on patches cut around rendered indices.

Every legible labelled index of a built dataset gives patches cut as the live detector
cuts them — around a box the finder might have drawn — and the label's box as the answer.
The boxes are the finder's own where it found the index (run over the dataset first), and
the label's box shaken edge by edge (each edge moved by a few hundredths to a tenth of the
box's width or height, as the finder's are), so the refiner learns the finder's habits and
more. Patches are turned a half turn at random while training (with their answers), as a
card's other corner is.

The network keeps where things are: three stages of 3×3 convolutions (16, 32 and 64
channels), then a 1×1 convolution and two fully connected layers over the 5×5 map to the
four edges — no global pooling, which would forget positions. It learns with a smooth L1
loss on the edges in patch sides, and the best epoch is kept by the mean IoU of its boxes
with the labels' on the validation patches.

torch is imported inside the functions that use it: heavy to load, and needed only when a
model is trained, quantized or run through it, not for ``guandan --help`` or at a table.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.live.box_refiner import BoxRefiner, targets, turned
from vision.live.boxes import iou_matrix
from vision.live.reader import PAD, PATCH, patch, to_tensor
from vision.progress import progress_bar
from vision.training.evaluate import Legibility, label_for, read_labels, read_meta, split_images
from vision.training.reader_net import augment, stage
from vision.training.reader_train import export_patch_model, learn

SHAKE = (0.02, 0.10)  # an edge's shake: its standard deviation in box widths (or heights), drawn per patch
MATCH = 0.3  # a finder's box stands for the label it overlaps at least this much


@dataclass
class BoxPatches:
    """Patches (N×PATCH×PATCH×3 uint8 BGR), the labelled box in each and the box each was
    cut around (N×4 edges each, as ``targets`` gives them)."""

    images: np.ndarray
    edges: np.ndarray
    given: np.ndarray

    def __len__(self) -> int:
        return len(self.edges)


def shaken(box: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A box as a finder might have drawn it around the labelled ``box``: each edge moved
    independently, by a share of the box's width or height."""
    w, h = box[2] - box[0], box[3] - box[1]
    sd = rng.uniform(*SHAKE)
    out = box + rng.normal(0, sd, 4) * np.array([w, h, w, h])
    if out[2] - out[0] < 0.3 * w or out[3] - out[1] < 0.3 * h:
        return box.copy()
    return out


def finder_boxes(finder, image: np.ndarray, truth: np.ndarray) -> dict[int, np.ndarray]:
    """The finder's box for each label it found (label index → box), matched greedily by overlap."""
    found = finder.find(image)
    if not found or not len(truth):
        return {}
    boxes = np.array([b for b, _ in found])
    overlap = iou_matrix(boxes, truth)
    out: dict[int, np.ndarray] = {}
    for i in np.argsort(-overlap.max(axis=1)):
        j = int(overlap[i].argmax())
        if overlap[i, j] >= MATCH and j not in out:
            out[j] = boxes[i]
    return out


def cut_box_patches(data_yaml: Path, split: str, *, finder=None, shakes: int = 1, seed: int = 0,
                    legibility: Legibility | None = None, limit: int | None = None, pad: float = PAD,
                    after: BoxRefiner | None = None, progress: bool = True) -> BoxPatches:
    """Patches of every legible labelled index in a split: one around the ``finder``'s box
    where it found the index (a ``CardDetector``; none without one) and ``shakes`` around
    shaken copies of the label's box. With ``after`` (a first refiner), each of those boxes
    is first drawn again by it and the patch cut around what it drew: the training of a
    second look, which learns the first one's habits."""
    rng = np.random.default_rng(seed)
    legibility = legibility or Legibility()
    images, edges, given = [], [], []
    paths = split_images(Path(data_yaml), split)[:limit]
    with progress_bar(len(paths), f"cutting {split} box patches", enabled=progress) as bar:
        for path in paths:
            image = cv2.imread(str(path))
            bar.update(1)
            if image is None:
                continue
            h, w = image.shape[:2]
            _cards, truth = read_labels(label_for(path), w, h)
            wanted = legibility.mask(read_meta(path), len(truth))
            if not wanted.any():
                continue
            by_finder = finder_boxes(finder, image, truth) if finder is not None else {}
            starts, owners = [], []
            for j in np.flatnonzero(wanted):
                boxes = [shaken(truth[j], rng) for _ in range(shakes)] + ([by_finder[j]] if j in by_finder else [])
                starts += boxes
                owners += [j] * len(boxes)
            if after is not None and starts:
                starts = [np.array(box) for box in after.refine(image, [tuple(box) for box in starts])]
            for box, j in zip(starts, owners, strict=True):
                images.append(patch(image, tuple(box), pad=pad))
                edges.append(targets(box[None], truth[j][None], pad)[0])
                given.append(targets(box[None], box[None], pad)[0])
    if not images:
        return BoxPatches(np.zeros((0, PATCH, PATCH, 3), np.uint8), np.zeros((0, 4), np.float32),
                          np.zeros((0, 4), np.float32))
    return BoxPatches(np.stack(images), np.stack(edges), np.stack(given))


def join(parts: list[BoxPatches]) -> BoxPatches:
    """Several datasets' patches as one set."""
    return BoxPatches(*(np.concatenate([getattr(p, k) for p in parts]) for k in ("images", "edges", "given")))


def build_net():
    """Patch (3×40×40) → the index's four edges."""
    import torch.nn as nn

    return nn.Sequential(
        *stage(3, 16), nn.MaxPool2d(2),     # 20
        *stage(16, 32), nn.MaxPool2d(2),    # 10
        *stage(32, 64), nn.MaxPool2d(2),    # 5
        nn.Conv2d(64, 16, 1), nn.ReLU(inplace=True), nn.Flatten(),
        nn.Linear(16 * (PATCH // 8) ** 2, 64), nn.ReLU(inplace=True), nn.Linear(64, 4),
    )


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row by row IoU of two N×4 arrays of boxes (any units)."""
    x1, y1 = np.maximum(a[:, 0], b[:, 0]), np.maximum(a[:, 1], b[:, 1])
    x2, y2 = np.minimum(a[:, 2], b[:, 2]), np.minimum(a[:, 3], b[:, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    area = lambda r: np.clip(r[:, 2] - r[:, 0], 0, None) * np.clip(r[:, 3] - r[:, 1], 0, None)  # noqa: E731
    return inter / np.maximum(area(a) + area(b) - inter, 1e-9)


def predict(net, images: np.ndarray, batch: int = 1024) -> np.ndarray:
    """The network's edges for N patches, each averaged with its half-turned copy's (as live)."""
    import torch

    net.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(images), batch):
            part = images[i:i + batch]
            x = torch.from_numpy(to_tensor(np.concatenate([part, part[:, ::-1, ::-1]])))
            y = net(x).numpy().astype(np.float64)
            out.append((y[:len(part)] + turned(y[len(part):])) / 2)
    return np.concatenate(out) if out else np.zeros((0, 4))


def mean_iou(net, data: BoxPatches) -> tuple[float, float]:
    """Mean IoU with the labels' boxes of the boxes cut around (as they came) and refined."""
    before = box_iou(data.given, data.edges)
    after = box_iou(predict(net, data.images), data.edges)
    return float(before.mean()), float(after.mean())


def train_boxes(train: BoxPatches, val: BoxPatches, out: Path, *, epochs: int = 6, batch: int = 256,
                lr: float = 3e-3, seed: int = 0, start: Path | None = None, pad: float = PAD, log=print) -> dict:
    """Train (from scratch or on from ``start``'s weights), keep the best epoch by validation
    mean IoU, write ``out`` (ONNX with its framing ``pad``) and its weights beside it (.pt,
    after every better epoch, so a stopped run keeps its best); returns figures."""
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = build_net()
    if start is not None:
        net.load_state_dict(torch.load(start, map_location="cpu", weights_only=True))
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    steps = epochs * math.ceil(len(train) / batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    loss_fn = torch.nn.SmoothL1Loss(beta=0.02)
    best, best_state, history = -1.0, None, []
    started = time.perf_counter()
    for epoch in range(1, epochs + 1):
        net.train()
        order = rng.permutation(len(train))
        total = 0.0
        with progress_bar(len(order), f"box refiner epoch {epoch}/{epochs}", unit="patch") as bar:
            for i in range(0, len(order), batch):
                idx = order[i:i + batch]
                images, edges = train.images[idx], train.edges[idx].astype(np.float64)
                flip = rng.random(len(idx)) < 0.5
                images = np.where(flip[:, None, None, None], images[:, ::-1, ::-1], images)
                edges = np.where(flip[:, None], turned(edges), edges)
                x = augment(torch.from_numpy(to_tensor(images)), rng)
                total += learn(net, opt, sched, loss_fn(net(x), torch.from_numpy(edges.astype(np.float32)))) * len(idx)
                bar.update(len(idx))
        before, after = mean_iou(net, val)
        history.append({"epoch": epoch, "loss": total / len(order), "val_iou_before": before, "val_iou": after})
        log(f"epoch {epoch}: loss {total / len(order):.5f}, val mean IoU {before:.4f} → {after:.4f}")
        if after > best:
            best, best_state = after, {k: v.clone() for k, v in net.state_dict().items()}
            Path(out).parent.mkdir(parents=True, exist_ok=True)
            torch.save(best_state, Path(out).with_suffix(".pt"))
    net.load_state_dict(best_state)
    export_patch_model(net, out, (PATCH, PATCH), {"pad": repr(float(pad))})
    return {"best_val_iou": best, "pad": pad, "epochs": history, "seconds": time.perf_counter() - started,
            "train_patches": len(train), "val_patches": len(val)}
