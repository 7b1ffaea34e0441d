"""A camera's blur put on training patches: defocus, a motion smear, too few pixels.

The rendered datasets blur their zones a little (``vision.synth.camera``), and the reader's
training leaves out what is too blurred to read. A table camera still gives blurrier indices
than that: depth of field at the table's far side, a lens focused on the players' hands,
compression, a 1080p camera over a wide table. Blurring the patches themselves, each its own
way, teaches the reader those indices without rendering datasets again.

A patch is ``vision.live.reader.PATCH`` pixels square with the index about two thirds of it,
so a blur of one patch pixel is about two thirds of a camera pixel at the scale the loop reads.
torch is imported inside the functions: only training needs it.
"""

from __future__ import annotations

import math

import numpy as np

#: kernel size (patch pixels): holds a Gaussian of sigma ``DEFOCUS[1]`` to about 2 sigma
KERNEL = 9
#: defocus sigma range (patch pixels)
DEFOCUS = (0.5, 2.0)
#: motion smear length range (patch pixels)
SMEAR = (2.0, 6.0)
#: how coarse a camera's sampling may be: the patch shrunk to this share and grown back
COARSE = (0.35, 0.8)


def defocus_kernel(sigma: float, size: int = KERNEL) -> np.ndarray:
    """A normalised Gaussian, ``size`` square."""
    r = np.arange(size) - size // 2
    g = np.exp(-(r[:, None] ** 2 + r[None, :] ** 2) / (2 * sigma * sigma))
    return (g / g.sum()).astype(np.float32)


def smear_kernel(length: float, angle: float, size: int = KERNEL) -> np.ndarray:
    """A straight smear ``length`` pixels long at ``angle`` (radians), drawn as samples along
    the line and spread bilinearly, so short and fractional lengths come out right."""
    k = np.zeros((size, size), np.float32)
    c = size // 2
    for s in np.linspace(-length / 2, length / 2, max(2, int(length * 4))):
        x, y = c + s * math.cos(angle), c + s * math.sin(angle)
        x0, y0 = int(math.floor(x)), int(math.floor(y))
        fx, fy = x - x0, y - y0
        for dx, dy, w in ((0, 0, (1 - fx) * (1 - fy)), (1, 0, fx * (1 - fy)), (0, 1, (1 - fx) * fy), (1, 1, fx * fy)):
            if 0 <= x0 + dx < size and 0 <= y0 + dy < size:
                k[y0 + dy, x0 + dx] += w
    return k / k.sum()


def identity_kernel(size: int = KERNEL) -> np.ndarray:
    k = np.zeros((size, size), np.float32)
    k[size // 2, size // 2] = 1.0
    return k


def draw_kernels(n: int, rng: np.random.Generator, share: float) -> np.ndarray:
    """``n`` kernels (n×KERNEL×KERNEL): ``share`` of them blur — two in three by defocus,
    one in three by a smear at any angle — the rest leave the patch as it is."""
    out = np.empty((n, KERNEL, KERNEL), np.float32)
    for i in range(n):
        if rng.random() >= share:
            out[i] = identity_kernel()
        elif rng.random() < 2 / 3:
            out[i] = defocus_kernel(float(rng.uniform(*DEFOCUS)))
        else:
            out[i] = smear_kernel(float(rng.uniform(*SMEAR)), float(rng.uniform(0, math.pi)))
    return out


def blurred(batch, rng: np.random.Generator, share: float):
    """``batch`` (N×C×H×W floats in 0..1) with ``share`` of its patches blurred by a camera's
    optics (``draw_kernels``) and, independently, ``share`` / 2 sampled coarser; the rest as
    they were. A share of 0 gives the batch back untouched."""
    import torch
    import torch.nn.functional as F

    if share <= 0:
        return batch
    n, c, h, w = batch.shape
    kernels = torch.from_numpy(draw_kernels(n, rng, share)).to(batch.device)
    weight = kernels.repeat_interleave(c, dim=0).unsqueeze(1)  # one kernel per patch, all its channels
    padded = F.pad(batch.reshape(1, n * c, h, w), (KERNEL // 2,) * 4, mode="replicate")
    out = F.conv2d(padded, weight, groups=n * c).reshape(n, c, h, w)
    coarse = np.flatnonzero(rng.random(n) < share / 2)
    if len(coarse):
        scales = np.round(rng.uniform(*COARSE, len(coarse)), 1)
        for scale in np.unique(scales):
            idx = torch.from_numpy(coarse[scales == scale]).to(batch.device)
            small = F.interpolate(out[idx], size=(max(4, round(h * scale)), max(4, round(w * scale))),
                                  mode="area")
            out[idx] = F.interpolate(small, size=(h, w), mode="bilinear", align_corners=False)
    return out.clamp(0, 1)
