"""Training the index reader on patches cut from a rendered dataset, and exporting it.

Patches are cut from the dataset's own labels (``vision.synth`` renders and labels every
visible corner index), each several times: turned — an index reads the same at any
rotation, and a card's two corners are 180° copies of each other — and shifted and scaled
a little, as the finder's boxes will be. Most turns are small or half turns, because
players lay their cards nearly upright (the scenes too); the rest are any angle. *Not an index* patches come from places
with no label: felt, card bodies, pips, face art, hands, props, half-hidden corners. Those
teach the reader to turn down the finder's mistakes.

The network is small (four stages of 3×3 convolutions, 16–128 channels, wider on request, or
taught by a bigger one: ``vision.training.reader_distil``); on two CPU cores
an epoch of 100,000 patches takes a few minutes. The weights are exported to ONNX for
``vision.live.reader.IndexReader``.

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

from vision.live.reader import NOT_AN_INDEX, PAD, PATCH, READS, patch
from vision.progress import progress_bar
from vision.synth.labels import CLASS_OF
from vision.training.evaluate import Legibility, label_for, read_labels, read_meta, split_images
from vision.training.optics import blurred
from vision.training.rank_labels import mixed_loss
from vision.training.reader_distil import narrowed, taught_loss, teach_stem
from vision.training.reader_net import (
    WIDTHS,
    augment,
    batch_of,
    build_net,
    is_strided,
    load_net,
    widen,
    widths_of,
)

#: the share of training patches blurred as a camera blurs them (``vision.training.optics``)
BLUR = 0.5


@dataclass
class Patches:
    """Patches (N×PATCH×PATCH×3 uint8 BGR) and their classes (N, ``NOT_AN_INDEX`` for none)."""

    images: np.ndarray
    classes: np.ndarray
    #: per patch, whether only its class's rank is known (``vision.training.rank_labels``); None: none
    rank_only: np.ndarray | None = None


def _overlap(box: np.ndarray, boxes: np.ndarray) -> float:
    """The largest share of either box that ``box`` and one of ``boxes`` have in common."""
    if not len(boxes):
        return 0.0
    x1 = np.maximum(box[0], boxes[:, 0])
    y1 = np.maximum(box[1], boxes[:, 1])
    x2 = np.minimum(box[2], boxes[:, 2])
    y2 = np.minimum(box[3], boxes[:, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    area = (box[2] - box[0]) * (box[3] - box[1])
    return float((inter / np.minimum(area, (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]))).max())


def jitter_turn(rng: np.random.Generator) -> float:
    """A training patch's extra turn: mostly a little, or a little plus a half turn; now and then any."""
    if rng.random() < 0.7:
        return float(rng.normal(0, 8) + 180 * rng.integers(0, 2))
    return float(rng.uniform(0, 360))


def cut_patches(data_yaml: Path, split: str, *, copies: int = 2, empties: int = 4, jitter: bool = True,
                seed: int = 0, limit: int | None = None, progress: bool = True,
                legibility: Legibility | None = None, pad: float = PAD, part: tuple[int, int] = (0, 1)) -> Patches:
    """Patches of every labelled index in a split (``copies`` each) and ``empties`` per image.

    With ``jitter`` off each index is cut once, exactly around its label, and no empty
    patches are cut: the measurement of reading alone, given perfect boxes. With
    ``legibility``, indices it rules unreadable (the dataset's sidecars say how sharp and
    how visible) are not cut: a patch no one could read only teaches the reader to guess.
    ``pad`` is the framing (``vision.live.reader.patch``) of the reader the patches are for.
    ``part`` (k, n): only every n-th image from the k-th, so n processes can cut a split
    between them (``cut_sets``).
    """
    rng = np.random.default_rng(seed)
    paths = split_images(Path(data_yaml), split)[:limit][part[0]::part[1]]
    images, classes = [], []
    with progress_bar(len(paths), f"cutting {split} patches", enabled=progress) as bar:
        for path in paths:
            image = cv2.imread(str(path))
            if image is None:
                bar.update(1)
                continue
            h, w = image.shape[:2]
            cards, boxes = read_labels(label_for(path), w, h)
            wanted = legibility.mask(read_meta(path), len(cards)) if legibility else np.ones(len(cards), bool)
            for card, box, want in zip(cards, boxes, wanted, strict=True):
                if not want:
                    continue
                cls = CLASS_OF[card]
                for _ in range(copies if jitter else 1):
                    if jitter:
                        images.append(patch(image, tuple(box), angle=jitter_turn(rng),
                                            shift=tuple(rng.normal(0, 0.06, 2)),
                                            scale=float(rng.uniform(0.85, 1.2)), pad=pad))
                    else:
                        images.append(patch(image, tuple(box), pad=pad))
                    classes.append(cls)
            if jitter and len(boxes):
                sizes = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
                made = tries = 0
                while made < empties and tries < empties * 20:
                    tries += 1
                    side = float(rng.choice(sizes)) * rng.uniform(0.7, 1.6)
                    x, y = rng.uniform(0, w - side), rng.uniform(0, h - side)
                    box = np.array([x, y, x + side, y + side])
                    if _overlap(box, boxes) > 0.25:  # mostly one index: not an empty patch
                        continue
                    images.append(patch(image, tuple(box), angle=float(rng.uniform(0, 360)), pad=pad))
                    classes.append(NOT_AN_INDEX)
                    made += 1
            bar.update(1)
    if not images:
        return Patches(np.zeros((0, PATCH, PATCH, 3), np.uint8), np.zeros(0, np.int64))
    return Patches(np.stack(images), np.array(classes, np.int64))


def _cut_part(task: tuple) -> Patches:
    data_yaml, split, part, seed, options = task
    return cut_patches(data_yaml, split, seed=seed, part=part, **{**options, "progress": False})


def cut_sets(sets: list[Path], split: str, *, seed: int, workers: int = 1, log=print, **options) -> Patches:
    """``cut_patches`` of the same split of several datasets as one set of patches; with
    ``workers`` above 1, each set's images shared out among that many processes (a machine
    with many cores cuts a million patches in seconds, not a minute). Each set, and each of
    its parts, draws its own jitter (the seed plus the set's index, times 1,000 plus the
    part's), so the patches depend on the seed and the number of workers, not on timing."""
    if workers <= 1:
        return join_patches([cut_patches(d, split, seed=seed + i, **options) for i, d in enumerate(sets)])
    import multiprocessing as mp

    tasks = [(d, split, (k, workers), (seed + i) * 1000 + k, options)
             for i, d in enumerate(sets) for k in range(workers)]
    started = time.perf_counter()
    with mp.get_context("spawn").Pool(workers) as pool:
        parts = pool.map(_cut_part, tasks)
    patches = join_patches(parts)
    log(f"{split}: {len(patches.classes):,} patches cut by {workers} processes in "
        f"{time.perf_counter() - started:.0f} s")
    return patches


def join_patches(parts: list[Patches]) -> Patches:
    """Patches of several datasets as one training set (more deck styles than one recipe holds)."""
    rank_only = None
    if any(p.rank_only is not None for p in parts):
        rank_only = np.concatenate([p.rank_only if p.rank_only is not None else np.zeros(len(p.classes), bool)
                                    for p in parts])
    return Patches(np.concatenate([p.images for p in parts]), np.concatenate([p.classes for p in parts]), rank_only)


def learn(net, opt, sched, loss) -> float:
    """One optimiser step on a batch's ``loss`` (the learning rate scheduled per step); the loss's value."""
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    return float(loss.item())


def accuracy(net, data: Patches, batch: int = 512, device: str = "cpu") -> float:
    """Share of patches read right (``net`` already on ``device``)."""
    import torch

    net.eval()
    preds = []
    with torch.no_grad():
        for i in range(0, len(data.classes), batch):
            x = batch_of(data.images, slice(i, i + batch), device)
            preds.append(net(x).argmax(1).cpu().numpy())
    pred = np.concatenate(preds) if preds else np.zeros(0, np.int64)
    return float((pred == data.classes).mean()) if len(pred) else 0.0


def train_reader(train: Patches, val: Patches, out: Path, *, epochs: int = 12, batch: int = 256, lr: float = 3e-3,
                 seed: int = 0, start: Path | None = None, log=print, pad: float = PAD,
                 widths: tuple[int, ...] | None = None, strided: bool = False, teacher: Path | None = None,
                 reads: int = READS, device: str = "cpu", minutes: float | None = None, blur: float = BLUR) -> dict:
    """Train (from scratch, or on from the weights at ``start``), keep the best epoch by
    validation accuracy, and write ``out`` (ONNX, saying its framing ``pad``: the patches
    must have been cut with it) with its weights beside it (``.pt``, to go on from later,
    written after every better epoch); returns figures. ``widths`` wider than the start's
    widen it first (``widen``); from scratch they are the new network's, with a strided
    first stage if ``strided``. With a ``teacher`` (a reader's .pt, trained with the same
    framing), a cheaper reader is taught by it (``vision.training.reader_distil``): trained on its
    readings too, and without a start begun from its weights, ``widths`` at most the
    teacher's; with a start, a taught run stopped midway goes on, still taught.
    ``reads``: how many ways the reader is to read each patch (``vision.live.reader.reads_of``);
    1 for one taught to read at once what its teacher reads both ways. ``device``: where the
    network trains (``"cuda"`` on a machine with an accelerator; the weights are written for
    the CPU either way). ``minutes``: a time budget — ``epochs`` is then the most, and as
    many as fit are run, the schedule fitted to them (timed on a few batches first).
    ``blur``: the share of training patches given a camera's blur (``vision.training.optics``)."""
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    taught_by = None
    if teacher is not None:
        taught_by = load_net(teacher)
    if start is not None:
        net = load_net(start).train()
        if widths is not None and tuple(widths) != widths_of(net.state_dict()):
            net = widen(net, tuple(widths), seed=seed)
    elif taught_by is not None:
        net = narrowed(taught_by, widths or widths_of(taught_by.state_dict()), strided)
    else:
        net = build_net(widths or WIDTHS, strided)
    net.to(device)
    if device != "cpu":
        torch.backends.cudnn.benchmark = True  # one patch size: the fastest convolutions, found once
    if taught_by is not None:
        taught_by.to(device)
        if start is None and strided != is_strided(taught_by.state_dict()):  # a first stage of another kind: new
            teach_stem(net, taught_by, train, rng, log=log, device=device)
    if minutes is not None:
        epochs = epochs_within(net, train, batch, minutes, epochs, device, log)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    steps = epochs * math.ceil(len(train.classes) / batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    labels_loss = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    loss_fn = ((lambda logits, truth, _x: labels_loss(logits, truth)) if taught_by is None
               else taught_loss(taught_by, labels_loss))
    best, best_state, history = -1.0, None, []
    started = time.perf_counter()
    for epoch in range(1, epochs + 1):
        net.train()
        order = rng.permutation(len(train.classes))
        total = 0.0
        with progress_bar(len(order), f"reader epoch {epoch}/{epochs}", unit="patch") as bar:
            for i in range(0, len(order), batch):
                idx = order[i:i + batch]
                x = augment(blurred(batch_of(train.images, idx, device), rng, blur), rng)
                truth = torch.from_numpy(train.classes[idx]).to(device)
                if train.rank_only is not None and train.rank_only[idx].any():  # real photos: rank known only
                    loss = mixed_loss(net(x), truth, torch.from_numpy(train.rank_only[idx]).to(device))
                else:
                    loss = loss_fn(net(x), truth, x)
                total += learn(net, opt, sched, loss) * len(idx)
                bar.update(len(idx))
        acc = accuracy(net, val, device=device)
        history.append({"epoch": epoch, "loss": total / len(order), "val_accuracy": acc})
        log(f"epoch {epoch}: loss {total / len(order):.4f}, val accuracy {acc:.4%}")
        if acc > best:  # written at once: a run stopped later keeps its best epoch so far
            best, best_state = acc, {k: v.detach().cpu().clone() for k, v in net.state_dict().items()}
            Path(out).parent.mkdir(parents=True, exist_ok=True)
            torch.save(best_state, Path(out).with_suffix(".pt"))
    net.cpu().load_state_dict(best_state)
    export_onnx(net, out, pad, reads)
    return {"best_val_accuracy": best, "pad": pad, "reads": reads, "widths": list(widths_of(best_state)),
            "strided": is_strided(best_state), "teacher": str(teacher) if taught_by is not None else None,
            "device": str(device), "batch": batch, "blur": blur,
            "epochs": history,
            "seconds": time.perf_counter() - started,
            "train_patches": len(train.classes), "val_patches": len(val.classes)}


TIMED_BATCHES = 20  # batches timed (after a few unmeasured) to fit a time budget's epochs


def epochs_within(net, train: Patches, batch: int, minutes: float, most: int, device: str = "cpu", log=print) -> int:
    """How many epochs of ``train`` fit in ``minutes`` (at least one, at most ``most``),
    timed on a copy of ``net``: the training itself is untouched. A tenth of the budget is
    kept for the validation after each epoch and the export."""
    import copy

    import torch

    probe = copy.deepcopy(net).train()
    opt = torch.optim.AdamW(probe.parameters(), lr=1e-6)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda _: 1.0)
    loss_fn = torch.nn.CrossEntropyLoss()
    rng = np.random.default_rng(0)
    timed = 0.0
    for i in range(TIMED_BATCHES + 3):  # each step ``learn``'s, which waits for its loss as training does
        idx = rng.integers(0, len(train.classes), batch)
        if i == 3:
            timed = time.perf_counter()
        x = augment(batch_of(train.images, idx, device), rng)
        learn(probe, opt, sched, loss_fn(probe(x), torch.from_numpy(train.classes[idx]).to(device)))
    per_batch = (time.perf_counter() - timed) / TIMED_BATCHES
    per_epoch = per_batch * math.ceil(len(train.classes) / batch)
    fit = max(1, min(most, int(minutes * 60 * 0.9 // per_epoch)))
    log(f"an epoch takes about {per_epoch:.0f} s: {fit} epoch{'s' if fit > 1 else ''} in {minutes:g} minutes")
    return fit


def export_onnx(net, out: Path, pad: float = PAD, reads: int = READS) -> Path:
    """Write the network as ONNX with a variable batch size, and as metadata its framing and
    how many ways it reads a patch (``vision.live.reader.reads_of``)."""
    return export_patch_model(net, out, (PATCH, PATCH), {"pad": repr(float(pad)), "reads": str(reads)})


def export_patch_model(net, out: Path, size: tuple[int, int], props: dict[str, str]) -> Path:
    """Write a patch reader as ONNX: input ``patches`` (N×3×``size``, height then width, any
    N), output ``logits``, and ``props`` as metadata — what the live reader must know of how
    it was trained (``vision.live.reader.metadata``)."""
    import onnx
    import torch

    net.eval()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, torch.zeros(1, 3, *size), str(out), input_names=["patches"], output_names=["logits"],
                      dynamic_axes={"patches": {0: "n"}, "logits": {0: "n"}}, opset_version=17, dynamo=False)
    model = onnx.load(str(out))
    onnx.helper.set_model_props(model, props)
    onnx.save(model, str(out))
    return out
