"""A cheaper index reader taught by the committed one (``guandan train-reader --teacher``).

The reader is most of a busy zone's reading time, and the live loop must keep up with the
camera on a 2-core table node. Training a smaller reader from scratch on our CPUs would
take the many hours the committed one took, so the smaller one starts from it: the stages
it keeps as wide are copied, a narrower stage keeps the teacher's channels whose batch
norms weigh most, and a strided first stage (``vision.training.reader_train.stem``), new, is first
taught to give what the teacher's first stage and its pool give. Then all of it trains on
the labels and on the teacher's readings of the same patches (knowledge distillation): the
teacher's runners-up say which cards look alike, which the labels alone do not. The
teacher's reading is its average over the patch and its half turn, as ``IndexReader`` reads,
so a reader may also be taught to read that average in one look (``--reads 1``).

On two CPU cores neither has yet given a reader as good as its teacher on the held-out
decks (``docs/experiments.md``): these are the tools for a longer run.

torch is imported inside the functions that use it: heavy to load, and needed only when a
model is trained, quantized or run through it, not for ``guandan --help`` or at a table.
"""

from __future__ import annotations

import math

import numpy as np

from vision.training.reader_net import augment, batch_of, build_net, check_widths, is_strided, widths_of

#: the teacher's readings are softened by this temperature before the student learns them
TEMPERATURE = 2.0
#: the share of the loss that is the teacher's readings (the rest is the labels')
TAUGHT = 0.5
#: the most batches the new stem learns the teacher's first stage for (one pass over the
#: patches at most; its end-to-end training does the rest)
STEM_STEPS = 1500


def _keep(norm_weight, width: int):
    """The ``width`` channels whose batch-norm scale is largest, in their order."""
    import torch

    return torch.argsort(norm_weight.abs(), descending=True)[:width].sort().values


def narrowed(teacher, widths: tuple[int, ...], strided: bool):
    """A reader of ``widths`` (each stage at most the teacher's) begun from the teacher's
    weights: each stage's convolutions and batch norms keep the channels ``_keep`` picks,
    and what reads a stage's output reads only those. A first stage of the other kind than
    the teacher's (strided or full size) is left new (``teach_stem``)."""
    import torch
    import torch.nn as nn


    check_widths(widths)
    given = widths_of(teacher.state_dict())
    if any(w > t for w, t in zip(widths, given, strict=True)):
        raise ValueError(f"a taught reader is at most as wide as its teacher ({given}), not {widths}")
    student = build_net(widths, strided)
    same_stem = strided == is_strided(teacher.state_dict())
    convs = [m for m in teacher if isinstance(m, nn.Conv2d)]
    norms = [m for m in teacher if isinstance(m, nn.BatchNorm2d)]
    new_convs = [m for m in student if isinstance(m, nn.Conv2d)]
    new_norms = [m for m in student if isinstance(m, nn.BatchNorm2d)]
    with torch.no_grad():
        fan_in = torch.arange(3)
        for i, (conv, norm, new_conv, new_norm) in enumerate(zip(convs, norms, new_convs, new_norms, strict=True)):
            kept = _keep(norm.weight, widths[i // 2])
            if i >= 2 or same_stem:
                new_conv.weight.copy_(conv.weight[kept][:, fan_in])
                for name in ("weight", "bias", "running_mean", "running_var"):
                    getattr(new_norm, name).copy_(getattr(norm, name)[kept])
            fan_in = kept
        student[-2].weight.copy_(teacher[-2].weight[:, fan_in])
        student[-2].bias.copy_(teacher[-2].bias)
    return student


def teach_stem(student, teacher, train, rng: np.random.Generator, batch: int = 256, lr: float = 3e-3,
               log=print, device: str = "cpu") -> None:
    """The student's new first stage (of the other kind than the teacher's: strided or full
    size) trained alone to give what the teacher's first stage gives after its pool, on
    ``train``'s patches (mean squared difference)."""
    import torch


    stem, taught = student[:7], teacher[:7]
    kept = _keep(teacher[4].weight, student[4].num_features)  # the channels ``narrowed`` reads on from
    steps = min(STEM_STEPS, math.ceil(len(train.classes) / batch))
    opt = torch.optim.AdamW(stem.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.1)
    student.train()
    for _ in range(steps):
        x = augment(batch_of(train.images, rng.integers(0, len(train.classes), batch), device), rng)
        with torch.no_grad():
            target = taught(x)[:, kept]
        loss = torch.nn.functional.mse_loss(stem(x), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
    log(f"new first stage taught for {steps} batches: mean squared difference {loss.item():.4f}")


def taught_loss(teacher, labels_loss):
    """The loss of a taught reader: ``labels_loss`` on the labels, and the Kullback–Leibler
    divergence of its softened readings from the teacher's of the same patches — each the
    teacher's reading of the patch and of its half turn averaged, as ``IndexReader`` reads."""
    import torch
    import torch.nn.functional as F

    def loss(logits, truth, x):
        with torch.no_grad():
            soft = (F.softmax(teacher(x) / TEMPERATURE, dim=1)
                    + F.softmax(teacher(torch.flip(x, (2, 3))) / TEMPERATURE, dim=1)) / 2
        kl = F.kl_div(F.log_softmax(logits / TEMPERATURE, dim=1), soft, reduction="batchmean")
        return (1 - TAUGHT) * labels_loss(logits, truth) + TAUGHT * kl * TEMPERATURE ** 2

    return loss
